#!/usr/bin/env python3
"""Build set 19's labelled items: the test half of sealed run 19, every one of them.

    python3 eval/real-19/make_set.py            # writes real19-test.jsonl
    python3 eval/real-19/make_set.py --check    # rebuilds in memory, compares with the file

Inputs (all in this folder): the collectors' pools (pool-A.jsonl and pool-A2.jsonl Claude
Code sessions, pool-B.jsonl IDE agents' exported chats, pool-C.jsonl and pool-C2.jsonl
terminal agents' sessions, pool-D.jsonl and pool-D2.jsonl benchmark and autonomous agents'
runs, pool-E.jsonl aider and other agents, pool-F.jsonl GitHub Actions job logs,
pool-G.jsonl other CI systems' logs, pool-H.jsonl deploy and provisioning logs), the two
blind labelling passes over four pool groups (L1: A, A2, C; L2: B, C2; L3: D, D2, E; L4: F,
G, H) and the adjudication, built by the builder of sets from set 17 on
(eval/set_builder_2.py): at most 4 items of one repository (sets 17 and 18 took 6; 4 keeps
the sealed run within one working session: the cap was chosen from the pools' repository
counts alone, before any label was read). Sets 5 to 18 are development data once run 18 is
sealed (issue 31), so every item is a test item.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from set_builder_2 import SetFolder, main  # noqa: E402

FOLDER = SetFolder(HERE, number=19, seed=20261219,
                   pools=("A", "A2", "B", "C", "C2", "D", "D2", "E", "F", "G", "H"),
                   groups=("L1", "L2", "L3", "L4"), per_repository=4)

if __name__ == "__main__":
    sys.exit(main(FOLDER))
