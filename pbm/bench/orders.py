#!/usr/bin/env python3
"""How long one order mail costs the service: parse, check at receipt, resolve the round.

A 4-player game (seeded board) is played by the autopilot for ~10 rounds; then a typical
15-line German order mail for seat 0 (rot) is written against that position, and timed
with `time.perf_counter` over many repetitions:

- parse:   `pbm.notation.parse_mail(body, ctx)`
- check:   `pbm.notation.checks.check_receipt(parsed, state, seat)` (on a fresh parse each time)
- resolve: `pbm.rules.round.resolve_round(state, orders)` with the mail's orders for seat 0 and
           the autopilot's orders for the other seats (computed once, outside the timing).

Stdlib only (besides pbm itself).

    python benchmarks/orders_bench.py [--seed 7] [--rounds 10] [--repeat 2000] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import sys
import time

from pbm.notation import Context, parse_mail
from pbm.notation.checks import check_receipt
from pbm.notation.names import crossing_text, hex_text, path_text
from pbm.rules import building
from pbm.rules.autopilot import turn_orders
from pbm.rules.legal import build_spots
from pbm.rules.robber import legal_robber_hexes, victims_at
from pbm.rules.round import resolve_round
from pbm.rules.sim import play_game
from pbm.rules.state import GameState, Phase, Settings

SEAT = 0
COLOUR_DE = {"rot": "rot", "blau": "blau", "gelb": "gelb", "weiss": "weiß"}


def mid_game(seed: int, rounds: int) -> GameState:
    """The position after `rounds` autopilot rounds (or the last open one)."""
    last = None
    for state, _ in play_game(Settings.for_players(4), seed, "autopilot"):
        if state.phase == Phase.ROUNDS:
            last = state
            if state.round > rounds:
                break
    if last is None:
        raise SystemExit("the game ended before the rounds began")
    return last


def _short(canonical: str) -> str:
    """What a player types: the bracketed token form if there is one, else the labels."""
    if canonical.endswith(")") and "(" in canonical:
        return canonical[canonical.index("(") + 1 : -1]
    return canonical


def order_mail(state: GameState, seat: int = SEAT) -> str:
    """A typical 15-line German mail for `seat`, with places that make sense right now."""
    b = state.board
    colours = state.colours
    me = COLOUR_DE.get(colours[seat], colours[seat])
    others = [COLOUR_DE.get(c, c) for i, c in enumerate(colours) if i != seat]
    hexes = legal_robber_hexes(state, seat)
    hexes.sort(key=lambda h: (-len(victims_at(state, seat, h)), h))
    robber_hex = hexes[0]
    victims = [COLOUR_DE.get(colours[v], colours[v]) for v in victims_at(state, seat, robber_hex)]
    victims = victims or others[:2]
    trial = state.copy()
    roads = []
    for _ in range(2):
        spots, _sites = build_spots(trial, seat)
        if not spots:
            break
        best = max(spots, key=lambda e: max(b.crossing_pips[c] for c in b.path_crossings[e]))
        roads.append(best)
        building.place_road(trial, seat, best, [], free=True)
    _spots, sites = build_spots(trial, seat)
    site = (
        max(sites, key=lambda c: b.crossing_pips[c])
        if sites
        else next(
            c
            for c in range(len(b.crossing_hexes))
            if building.settlement_site_rule(state, c) is None
        )
    )
    own = state.settlements[seat] or state.cities[seat]
    city = own[0]
    lines = [
        f"Kennwort: {me}-4711",
        f"Runde: {state.round}",
        f"Räuber {_short(hex_text(b, robber_hex))}, raube {', '.join(victims)}",
        "Abwurf: W W G E",
        f"Handel {others[0]}: gebe 2H, bekomme 1E",
        f"Handel {others[1]}: gebe 1W, bekomme 1L",
        "Seehandel 4H gegen 1E",
        *(f"Straße {_short(path_text(b, e))}" for e in roads),
        f"Siedlung {_short(crossing_text(b, site))}",
        f"Stadt bei Siedlung {_short(crossing_text(b, city))}",
        "Entwicklungskarte",
        f"Siedlung {_short(crossing_text(b, site))} oder Entwicklungskarte",
        "Ersatzbau:",
        "Entwicklungskarte",
    ]
    while len(lines) < 15:
        lines.insert(7, "Seehandel 4W gegen 1G")
    return "\n".join(lines[:15]) + "\n-- \nHans\n"


def measure(seed: int, rounds: int, repeat: int) -> dict[str, float]:
    state = mid_game(seed, rounds)
    body = order_mail(state)
    ctx = Context(state.board, "de", state.colours, "round")
    others = {p: turn_orders(state, p) for p in range(state.settings.players) if p != SEAT}

    parse_s = check_s = resolve_s = 0.0
    parsed = parse_mail(body, ctx)
    for _ in range(repeat):
        t0 = time.perf_counter()
        parsed = parse_mail(body, ctx)
        t1 = time.perf_counter()
        check_receipt(parsed, state, SEAT)
        t2 = time.perf_counter()
        parse_s += t1 - t0
        check_s += t2 - t1
    orders = {**others, SEAT: parsed.turn_orders()}
    for _ in range(repeat):
        t0 = time.perf_counter()
        resolve_round(state, orders)
        resolve_s += time.perf_counter() - t0
    parse_ms = 1000 * parse_s / repeat
    check_ms = 1000 * check_s / repeat
    resolve_ms = 1000 * resolve_s / repeat
    total_ms = parse_ms + check_ms + resolve_ms
    return {
        "parse_ms": round(parse_ms, 4),
        "check_ms": round(check_ms, 4),
        "resolve_ms": round(resolve_ms, 4),
        "total_ms": round(total_ms, 4),
        "mails_per_s": round(1000 / total_ms, 1),
        "_round": state.round,
        "_lines": len(parsed.lines),
        "_ok_lines": sum(r.ok for r in parsed.lines),
        "_body": body,  # type: ignore[dict-item]
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=7, help="game (and board) seed")
    ap.add_argument("--rounds", type=int, default=10, help="autopilot rounds before the mail")
    ap.add_argument("--repeat", type=int, default=2000, help="repetitions of each step")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--show-mail", action="store_true", help="print the mail (to stderr)")
    args = ap.parse_args(argv)
    result = measure(args.seed, args.rounds, args.repeat)
    if args.show_mail:
        print(result["_body"], file=sys.stderr)
    public: dict[str, object] = {k: v for k, v in result.items() if not k.startswith("_")}
    public["rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    public["cores"] = os.cpu_count()
    public["python"] = platform.python_version()
    if args.json:
        print(json.dumps(public))
        return
    print(
        f"mail: {result['_lines']} lines ({result['_ok_lines']} accepted at receipt), "
        f"round {result['_round']}, seed {args.seed}, {args.repeat} repetitions"
    )
    for key in ("parse_ms", "check_ms", "resolve_ms", "total_ms"):
        print(f"{key[:-3]:8} {public[key]:9.3f} ms per mail")
    print(f"{'mails/s':8} {public['mails_per_s']:9.1f}")


if __name__ == "__main__":
    main()
