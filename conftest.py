"""Loaded before the suite's own conftest (tests/conftest.py) and any module it imports."""

import sys

# The suite caches compiled modules (pytest's rewritten test modules and pbm's own) in
# __pycache__ even where PYTHONDONTWRITEBYTECODE is set: every worker, and every `pbm` the
# tests start, would otherwise compile them again (collection alone 7.9 s → 2.9 s a worker;
# docs/performance.md).
sys.dont_write_bytecode = False
