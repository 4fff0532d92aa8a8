"""The unit suite. Its fake model replies are in the shape of reader v6 (a free quote), so
the suite asks with v6 unless a test names its reader: RECEIPT_PAIR_READER is set here for
this process and the commands it starts. Tests of the default reader itself (f2) clear it.
Its fake replies test what the models are asked and how their answers are checked, so the
suite asks the models every claim (RECEIPT_PAIR_FACTS=off) unless a test is about the
facts deciding first, the default a user gets (tests/unit/test_facts_first.py clears it).
The settings a user may have in the environment (a server, models, a ledger: what
`scripts/local-models env` prints, say) are cleared, so that the suite reads the same on
every machine. The end-to-end suite's own settings (RECEIPT_PAIR_E2E_*: the port `.ci/run`
started the server on, the models) and the unit suite's runner's (RECEIPT_PAIR_TESTS_*:
tests/parallel.py) are the suites', not the tool's, and stay."""

import os

for _name in [name for name in os.environ
              if name.startswith("RECEIPT_PAIR_")
              and not name.startswith(("RECEIPT_PAIR_E2E_", "RECEIPT_PAIR_TESTS_"))]:
    del os.environ[_name]
os.environ["RECEIPT_PAIR_READER"] = "v6"
os.environ["RECEIPT_PAIR_FACTS"] = "off"
