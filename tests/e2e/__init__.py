"""The end-to-end suite: the command line and the Stop hooks against a real llama-server with
real small models (`.ci/run` starts it; `scripts/local-models start` by hand). It asks as a
user would: the unit suite's reader and its models-only setting (tests/__init__.py) are
taken back here, so the default reader and the facts first are what it runs."""

import os

os.environ.pop("RECEIPT_PAIR_READER", None)
os.environ.pop("RECEIPT_PAIR_FACTS", None)
