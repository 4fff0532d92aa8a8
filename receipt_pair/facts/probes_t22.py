"""Table t22's probes: a claim whose subject is the commit, decided as a commit claim, each
beside the near log where the answer stands."""

from .probe_kit import T, TableProbe

_COMMIT = T("git commit -m 'fix: retry'", "[main 4c1d9e2] fix: retry\n"
            " 2 files changed, 48 insertions(+)", 0)
_DOCS = T("git commit -m 'docs: retry'", "[main 5d2e0f3] docs: retry\n 1 file changed", 0)

T22_PROBES = (
    TableProbe("t22: 'The commit was successful.' is shown by git's commit line",
               "The commit was successful.", (_COMMIT,), "shown", "commit.made"),
    TableProbe("t22: and contradicted by a pre-commit hook that failed it",
               "The commit was successful.",
               (T("git commit -m 'fix: retry'", "ruff........................Failed\n"
                  "- hook id: ruff\n- exit code: 1", 1),), "contradicted", "commit.failed"),
    TableProbe("t22: a commit line only echoed shows no commit", "The commit was successful.",
               (T("echo '[main 4c1d9e2] fix: retry'", "[main 4c1d9e2] fix: retry", 0),),
               None, None),
    TableProbe("t22: 'Commit successful' is shown by git's commit line",
               "Commit successful", (_COMMIT,), "shown", "commit.made"),
    TableProbe("t22: 'Both commits were made.' needs two commit lines",
               "Both commits were made.", (_COMMIT,), None, None),
    TableProbe("t22: and two show it", "Both commits were made.", (_COMMIT, _DOCS),
               "shown", "commit.made"),
    TableProbe("t22: the commit's message is no commit claim", "The commit message was updated.",
               (_COMMIT,), None, None),
)
