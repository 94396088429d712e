"""Loaded before the suite's own conftest (tests/conftest.py) and any module it imports."""

import gc
import sys

# The suite caches compiled modules (pytest's rewritten test modules and pbm's own) in
# __pycache__ even where PYTHONDONTWRITEBYTECODE is set: every worker, and every `pbm` the
# tests start, would otherwise compile them again (collection alone 7.9 s → 2.9 s a worker;
# docs/performance.md).
sys.dont_write_bytecode = False

# A test makes and drops objects by the million (games played, mails parsed), few of them in
# cycles: the collector's youngest generation passed over every 700 allocations cost some
# 3 % of the fast tier's CPU. What is in a cycle is still collected, only in larger batches.
gc.set_threshold(50_000, 50, 100)
