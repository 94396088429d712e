"""Production for a rolled number, and the bank that pays it."""

from __future__ import annotations

from .events import BankShort, Event, Produced, ProductionBlocked
from .state import GameState


def produce(state: GameState, number: int, events: list[Event]) -> None:
    """Every hex with `number`, except the robber's, pays each adjacent settlement 1 and city 2.

    Classic bank shortage (docs/rules-decisions.md, after seed 002): when the bank cannot pay
    everyone owed a resource in this roll, nobody gets it, unless only one player is owed, who
    gets what is left.
    """
    board = state.board
    hexes = board.number_hexes.get(number)
    if not hexes:
        return
    owner = state.owner
    level = state.level
    robber = state.robber
    # (player, hex, resource, amount) in hex order, then crossing order: deterministic.
    owed: list[tuple[int, int, int, int]] = []
    for h in hexes:
        if h == robber:
            events.append(ProductionBlocked(h))
            continue
        res = board.hexes[h].resource
        if res is None:
            continue  # gold and numbered sea hexes pay by other rules (Seafarers, Kronlande)
        for c in board.hex_crossings[h]:
            p = owner[c]
            if p >= 0:
                owed.append((p, h, res, level[c]))
    if not owed:
        return
    bank = state.bank
    hands = state.hands
    if bank is not None:
        totals = [0, 0, 0, 0, 0]
        for _, _, res, n in owed:
            totals[res] += n
        for r in range(5):
            if totals[r] > bank[r]:
                owed = _short(state, r, totals[r], owed, events)
    merged: dict[tuple[int, int, int], int] = {}
    for p, h, res, n in owed:
        key = (p, h, res)
        merged[key] = merged.get(key, 0) + n
    for (p, h, res), n in merged.items():
        hands[p][res] += n
        if bank is not None:
            bank[res] -= n
        events.append(Produced(p, h, res, n))


def _short(
    state: GameState,
    res: int,
    total: int,
    owed: list[tuple[int, int, int, int]],
    events: list[Event],
) -> list[tuple[int, int, int, int]]:
    """Apply the shortage rule to one resource; returns the claims that are still paid."""
    assert state.bank is not None
    available = state.bank[res]
    players = {p for p, _, r, _ in owed if r == res}
    keep = [o for o in owed if o[2] != res]
    if len(players) == 1:
        (only,) = players
        left = available
        for p, h, r, n in owed:
            if r == res and left > 0:
                keep.append((p, h, r, min(n, left)))
                left -= min(n, left)
        events.append(BankShort(res, total, available, only))
    else:
        events.append(BankShort(res, total, available, -1))
    return keep
