"""Table t17's probes: a playbook run read only from a turn whose own command runs it, each
beside the near log where t16's answer stands."""

from .probe_kit import T, TableProbe

_RECAP = ("+ ansible-playbook -i inventory/prod.yml site.yml\nPLAY RECAP *****\n"
          "web-01 : ok=9 changed=2 unreachable=0 failed=0 skipped=1\n")
_RED = ("+ ansible-playbook -i inventory/prod.yml site.yml\nPLAY RECAP *****\n"
        "web-01 : ok=4 changed=1 unreachable=0 failed=1 skipped=0\n")
_CLAIM = "the playbook ran with no failed tasks"

T17_PROBES = (
    TableProbe("t17: a recap a turn printed from a file is not its run", _CLAIM,
               (T("cat old-run.log", _RECAP, 0),), None, None),
    TableProbe("t17: nor one it echoed", _CLAIM, (T("echo done", _RECAP, 0),), None, None),
    TableProbe("t17: nor a failing recap printed from a file", _CLAIM,
               (T("cat old-run.log", _RED, 0),), None, None),
    TableProbe("t17: the turn that runs the playbook shows it", _CLAIM,
               (T("sudo ansible-playbook -i inventory/prod.yml site.yml", _RECAP, 0),), "shown",
               "playbook.passed"),
)
