"""Kept for old command lines: the same as `pbm bench rounds`."""

from pbm.bench.rounds import main

if __name__ == "__main__":
    main()
