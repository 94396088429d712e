"""Kept for old command lines: the same as `pbm bench engine`."""

from pbm.bench.engine import main

if __name__ == "__main__":
    main()
