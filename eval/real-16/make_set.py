#!/usr/bin/env python3
"""Build set 16's labelled items: the test half of sealed run 16, every one of them.

    python3 eval/real-16/make_set.py            # writes real16-test.jsonl
    python3 eval/real-16/make_set.py --check    # rebuilds in memory, compares with the file

Inputs (all in this folder): the collectors' pools (pool-A.jsonl Claude Code sessions,
pool-B.jsonl other IDE and CLI agents' sessions, pool-C.jsonl benchmark and autonomous
agents' runs, pool-D.jsonl deploy and provisioning logs, pool-E.jsonl GitHub Actions job
logs, pool-F.jsonl agents' own run logs, pool-G.jsonl build and test logs of other CI
systems), the two blind labelling passes over four pool groups (L1: A and C; L2: B and F;
L3: D and G; L4: E) and the adjudication, built by the builder shared from set 16 on
(eval/set_builder.py): at most 6 items of one repository. Sets 5 to 15 are development data
once run 15 is sealed (issue 31), so every item is a test item.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from set_builder import SetFolder, main  # noqa: E402

FOLDER = SetFolder(HERE, number=16, seed=20261216, pools="ABCDEFG",
                   groups=("L1", "L2", "L3", "L4"), per_repository=6)

if __name__ == "__main__":
    sys.exit(main(FOLDER))
