#!/usr/bin/env python3
"""Build set 18's labelled items: the test half of sealed run 18, every one of them.

    python3 eval/real-18/make_set.py            # writes real18-test.jsonl
    python3 eval/real-18/make_set.py --check    # rebuilds in memory, compares with the file

Inputs (all in this folder): the collectors' pools (pool-A.jsonl and pool-A2.jsonl Claude
Code sessions, pool-B.jsonl IDE agents' exported chats, pool-C.jsonl terminal agents'
sessions, pool-D.jsonl (empty) and pool-D2.jsonl benchmark and autonomous agents' runs,
pool-E.jsonl aider and other agents, pool-F.jsonl GitHub Actions job logs, pool-G.jsonl
other CI systems' logs, pool-H.jsonl deploy and provisioning logs), the two blind labelling
passes over four pool groups (L1: A, A2; L2: B, C, D2; L3: E, F; L4: G, H) and the
adjudication, built by the builder of sets from set 17 on (eval/set_builder_2.py): at most 6
items of one repository. Sets 5 to 17 are development data once run 17 is sealed (issue
31), so every item is a test item.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from set_builder_2 import SetFolder, main  # noqa: E402

FOLDER = SetFolder(HERE, number=18, seed=20261218,
                   pools=("A", "A2", "B", "C", "D", "D2", "E", "F", "G", "H"),
                   groups=("L1", "L2", "L3", "L4"), per_repository=6)

if __name__ == "__main__":
    sys.exit(main(FOLDER))
