"""Facts read for sure in plain code, and the table that decides from them. Imports the top.

What plain code reads of a log and a claim, and the table that decides a claim from them
where they settle it (it imports only the modules at the top: errors, turn).

`events.read_events(turns)`: each turn's operations as typed events (test runs, pushes,
commits, builds, installs, edits, reads of state, any other command), read once;
`frame.read_frame(claim)`: what the claim says happened, to what, with what result;
`table.decide(claim, turns)`: the Decision the facts give, or None where they do not
settle it and the models must.
"""
