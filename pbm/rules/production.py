"""Production for a rolled number, and the bank that pays it."""

from __future__ import annotations

from operator import gt, itemgetter

from .board import Terrain
from .events import BankShort, Event, Produced, ProductionBlocked
from .gold import GoldChoices
from .state import GameState

#: The players paid for one hex and what each is paid: ((player, cards), ...).
Payees = tuple[tuple[int, int], ...]
#: What one payment is for: (player, hex, resource) of a claim.
_PAYMENT = itemgetter(0, 1, 2)


def produce(
    state: GameState, number: int, events: list[Event], gold: GoldChoices | None = None
) -> None:
    """Every hex with `number`, except the robber's, pays each adjacent settlement 1 and city 2.

    A gold river (Seafarers) pays each card as a resource of the owner's choice (`gold.py`,
    `gold` carries the round's `Gold:` preferences); the chosen cards are then owed like any.

    Classic bank shortage (docs/rules-decisions.md, after seed 002): when the bank cannot pay
    everyone owed a resource in this roll, nobody gets it, unless only one player is owed, who
    gets what is left.
    """
    board = state.board
    yields, plain = payees(state, number)
    if not yields:
        return
    robber = state.robber
    bank = state.bank
    hands = state.hands
    if plain:
        # Every hex pays a resource of its own (no gold; a Kronlande fishing ground pays Fisch,
        # as any hex its resource): each pays its payees as they stand, unless the bank is
        # short, as the general way below pays them, in the same order.
        short = False
        if bank is not None:
            totals = [0] * len(bank)
            for h, res, _, cards in yields:
                if h != robber:
                    totals[res] += cards  # type: ignore[index]
            short = any(map(gt, totals, bank))
        if not short:
            for h, _, _, _ in yields:
                if h == robber:
                    events.append(ProductionBlocked(h))
            for h, res, paid, _ in yields:
                if h != robber:
                    for p, n in paid:
                        hands[p][res] += n  # type: ignore[index]
                        if bank is not None:
                            bank[res] -= n  # type: ignore[index]
                        events.append(Produced(p, h, res, n))  # type: ignore[arg-type]
            return
    # (player, hex, resource, amount) in hex order, then crossing order: deterministic.
    owed: list[tuple[int, int, int, int]] = []
    for h, res, paid, _ in yields:
        if h == robber:
            events.append(ProductionBlocked(h))
            continue
        if res is None:
            if board.hexes[h].terrain == Terrain.GOLD:
                _gold(state, h, owed, gold if gold is not None else GoldChoices())
            continue  # numbered sea hexes pay by other rules (Kronlande)
        for p, n in paid:
            owed.append((p, h, res, n))
    if not owed:
        return
    if bank is not None:
        totals = [0] * len(bank)
        for _, _, res, n in owed:
            totals[res] += n
        if any(map(gt, totals, bank)):
            for r in range(len(bank)):
                if totals[r] > bank[r]:
                    owed = _short(state, r, totals[r], owed, events)
    if len(set(map(_PAYMENT, owed))) < len(owed):
        # Two gold cards of one kind for one player (a player's buildings on a hex are paid
        # together already): one payment, where the first of them stands.
        merged: dict[tuple[int, int, int], int] = {}
        for p, h, res, n in owed:
            key = (p, h, res)
            merged[key] = merged.get(key, 0) + n
        owed = [(p, h, res, n) for (p, h, res), n in merged.items()]
    for p, h, res, n in owed:
        hands[p][res] += n
        if bank is not None:
            bank[res] -= n
        events.append(Produced(p, h, res, n))


def payees(state: GameState, number: int) -> tuple[list[tuple[int, int | None, Payees, int]], bool]:
    """(hex, resource, ((player, cards), ...), cards) for each hex with `number`
    (`Board.number_yields`, the robber aside): what the buildings next to it yield, in crossing
    order, a player's two buildings on one hex as one payment where the first stands (as
    `produce` pays them), and the hex's cards in all; and whether every hex has a resource of
    its own (no gold river; a fishing ground's is Fisch).

    Kept on the state (`GameState.payees`, shared by its copies) until a building is placed or
    raised, or the board changes: the buildings change in few rounds, the numbers repeat."""
    kept = state.payees
    if kept is None or kept[0] is not state.board:
        kept = state.payees = (state.board, {})
    found = kept[1].get(number)
    if found is None:
        hexes: list[tuple[int, int | None, Payees, int]] = []
        owner, level = state.owner, state.level
        for h, res, crossings in state.board.number_yields.get(number, ()):
            paid: dict[int, int] = {}
            for c in crossings:
                p = owner[c]
                if p >= 0:
                    paid[p] = paid.get(p, 0) + level[c]
            hexes.append((h, res, tuple(paid.items()), sum(paid.values())))
        found = kept[1][number] = (hexes, all(res is not None for _, res, _, _ in hexes))
    return found


def _gold(
    state: GameState, h: int, owed: list[tuple[int, int, int, int]], gold: GoldChoices
) -> None:
    """One claim per gold card of the buildings next to gold hex h, each card chosen in turn."""
    owner = state.owner
    level = state.level
    for c in state.board.hex_crossings[h]:
        p = owner[c]
        if p < 0:
            continue
        for _ in range(level[c]):
            holding = state.hands[p][:]
            for q, _h, r, n in owed:
                if q == p:
                    holding[r] += n
            owed.append((p, h, gold.choose(p, holding), 1))


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
