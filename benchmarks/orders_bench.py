"""Kept for old command lines: the same as `pbm bench orders`."""

from pbm.bench.orders import main

if __name__ == "__main__":
    main()
