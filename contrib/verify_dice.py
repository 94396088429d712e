#!/usr/bin/env python3
"""Check the dice of a pbm game from the seed and nonce its game-end report revealed.

    python3 verify_dice.py SEED --nonce NONCE --seal SEAL --players 4 --rounds 25 \
        --colours rot,blau,gelb,weiss

prints whether SHA-256 of SEED:NONCE is the seal of the welcome mail, then every round's rolls
in build order, to compare with the reports (`--nmr` adds the dice the NMR robber rule would
take for each seat). A game created before seal nonces revealed no nonce: leave out --nonce,
and the seal is SHA-256 of the seed alone. Python 3 and its standard library only;
docs/fair-dice.md explains each step.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from collections.abc import Iterator


def sealed_text(seed: str, nonce: str = "") -> str:
    """What the seal is the SHA-256 of: SEED:NONCE, or the seed alone without a nonce."""
    return f"{seed}:{nonce}" if nonce else seed


def seal(seed: str, nonce: str = "") -> str:
    """`printf %s SEED:NONCE | sha256sum` (`printf %s SEED | sha256sum` without a nonce)."""
    return hashlib.sha256(sealed_text(seed, nonce).encode()).hexdigest()


def dice(label: str) -> Iterator[int]:
    """SHA-256 of LABEL:0, LABEL:1, …; each byte below 252 is the die byte % 6 + 1."""
    block = 0
    while True:
        for byte in hashlib.sha256(f"{label}:{block}".encode()).digest():
            if byte < 252:
                yield byte % 6 + 1
        block += 1


def round_rolls(seed: str, round_: int, players: int) -> list[tuple[int, int, int]]:
    """(seat, die 1, die 2) of each roll of a round, in build order: seat (r-1) mod N first."""
    stream = dice(f"{seed}:dice:{round_}")
    seats = [(round_ - 1 + i) % players for i in range(players)]
    return [(seat, next(stream), next(stream)) for seat in seats]


def nmr_robber_rolls(seed: str, round_: int, seat: int, count: int = 4) -> list[tuple[int, int]]:
    """The first rolls the NMR robber rule would take for a seat's 7 in a round."""
    stream = dice(f"{seed}:nmr-robber:{round_}:{seat}")
    return [(next(stream), next(stream)) for _ in range(count)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("seed", help="the seed the game-end report revealed (its digits)")
    ap.add_argument("--nonce", default="", help="the seal nonce it revealed (32 hex digits)")
    ap.add_argument("--seal", default="", help="the dice seal of your welcome mail")
    ap.add_argument("--players", type=int, required=True)
    ap.add_argument("--rounds", type=int, required=True, help="rounds to print, from 1")
    ap.add_argument("--colours", default="", help="colours in seat order, comma-separated")
    ap.add_argument("--nmr", action="store_true", help="also the NMR robber's dice per seat")
    args = ap.parse_args(argv)
    seed, nonce = args.seed.strip(), args.nonce.strip().lower()
    # The seed exactly as the report writes it: another spelling of the number (a leading
    # zero) would hash, and roll, differently.
    if not (seed.isascii() and seed.isdigit()) or (seed.startswith("0") and seed != "0"):
        ap.error("the seed is the report's decimal digits, without leading zeros")
    if nonce and (len(nonce) != 32 or any(c not in "0123456789abcdef" for c in nonce)):
        ap.error("the nonce is the report's 32 hex digits")
    names = args.colours.split(",") if args.colours else []
    if names and len(names) != args.players:
        ap.error("--colours needs one colour per player")

    def who(seat: int) -> str:
        return names[seat] if names else f"seat {seat + 1}"

    ok = True
    if args.seal:
        ok = seal(seed, nonce) == args.seal.strip().lower()
        what = "seed:nonce" if nonce else "the seed (no nonce: an older game)"
        print(f"seal {'ok' if ok else 'WRONG'}: sha256 of {what} is {seal(seed, nonce)}")
    for r in range(1, args.rounds + 1):
        rolls = ", ".join(
            f"{who(s)} {a}+{b}={a + b}" for s, a, b in round_rolls(seed, r, args.players)
        )
        print(f"round {r}: {rolls}")
        if args.nmr:
            for s in range(args.players):
                shown = " ".join(f"{a}+{b}" for a, b in nmr_robber_rolls(seed, r, s))
                print(f"  NMR robber for {who(s)}: {shown} …")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
