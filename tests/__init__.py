"""The unit suite. Its fake model replies are in the shape of reader v6 (a free quote), so
the suite asks with v6 unless a test names its reader: RECEIPT_PAIR_READER is set here for
this process and the commands it starts. Tests of the default reader itself (f2) clear it."""

import os

os.environ["RECEIPT_PAIR_READER"] = "v6"
