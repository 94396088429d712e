"""The 7: discards, moving the robber, stealing, and the NMR robber rule of seed 003."""

from __future__ import annotations

import random
from collections.abc import Callable

from .events import Discarded, Event, NmrRobberRoll, NothingToSteal, RobberMoved, Stole
from .orders import RobberOrder
from .reasons import Reason
from .rng import Chance
from .state import GameState


def discard_all(
    state: GameState,
    preferences: list[tuple[int, ...]],
    rng: random.Random,
    events: list[Event],
) -> None:
    """Everyone over the card limit gives up half (rounded down), by preference, rest at random."""
    limit = state.settings.card_limit
    hands = state.hands
    for p, total in enumerate(map(sum, hands)):  # each hand summed in C
        if total <= limit:
            continue
        hand = hands[p]
        need = total // 2
        given = [0] * len(hand)
        for r in preferences[p]:
            if need == 0:
                break
            if hand[r] > 0:
                hand[r] -= 1
                given[r] += 1
                need -= 1
        chosen_at_random = need
        left = sum(hand)
        while need:
            # `_random_card`, with the hand's size counted down rather than summed each time.
            k = rng.randrange(left)
            r = 0
            while k >= hand[r]:
                k -= hand[r]
                r += 1
            hand[r] -= 1
            given[r] += 1
            need -= 1
            left -= 1
        bank = state.bank
        if bank is not None:
            # Goods (Kronlande) go back to the supply: the bank holds resources only.
            for r in range(len(bank)):
                bank[r] += given[r]
        events.append(Discarded(p, tuple(given), chosen_at_random))


def _random_card(hand: list[int], rng: random.Random) -> int:
    """A card drawn uniformly from the hand (which must not be empty)."""
    k = rng.randrange(sum(hand))
    for r in range(len(hand)):
        if k < hand[r]:
            return r
        k -= hand[r]
    raise AssertionError("empty hand")


def robber_target_rule(state: GameState, h: int) -> Reason | None:
    """Whether hex h can take the robber at all (land with a number): what the checks at
    receipt can see, since the robber may leave its hex before the player's turn."""
    x = state.board.hexes[h]
    if not x.is_land or x.number is None:
        return Reason.ROBBER_NOT_ON_NUMBER
    # Kronlande: never next to a Burg or a Residenz. Castles are built in the build steps,
    # after every roll of the round, so the receipt sees them as the robber will.
    kron = state.kron
    if kron is not None and any(kron.castle[c] for c in state.board.hex_crossings[h]):
        return Reason.ROBBER_NEXT_TO_CASTLE
    return None


def robber_now_rule(state: GameState, h: int) -> Reason | None:
    """A robber target as the receipt sees it: a hex with a number, and not the hex the robber
    stands on when the orders come in. (An earlier 7 of the round could move the robber away
    first; pbm refuses the order anyway, since the player sees where it stands, and answers
    with the fix: docs/rules-decisions.md.)"""
    if h == state.robber:
        return Reason.ROBBER_MUST_MOVE
    return robber_target_rule(state, h)


def robber_hex_rule(state: GameState, p: int, h: int) -> Reason | None:
    """Whether p may put the robber on hex h now."""
    if h == state.robber:
        return Reason.ROBBER_MUST_MOVE
    rule = robber_target_rule(state, h)
    if rule is not None:
        return rule
    return protection_rule(state, p, h)


def protection_rule(state: GameState, p: int, h: int) -> Reason | None:
    """The newcomer protection's word on hex h for p's robber (a hex the robber may go to
    otherwise). Visible points change only by building and the largest army, never before a
    round's rolls but by a knight played before a roll; the receipt checks by it too, as it
    checks the robber's own hex (docs/rules-decisions.md)."""
    board = state.board
    # Protection gives way when it would leave no hex at all.
    if (
        state.settings.newcomer_protection
        and _protected(state, p, h)
        and any(
            not _protected(state, p, x) and robber_target_rule(state, x) is None
            for x in board.robber_hexes
            if x != state.robber
        )
    ):
        return Reason.NEWCOMER_PROTECTION
    return None


def _protected(state: GameState, p: int, h: int) -> bool:
    owner = state.owner
    for c in state.board.hex_crossings[h]:
        q = owner[c]
        if q >= 0 and q != p and state.visible_vp(q) <= 2:
            return True
    return False


def legal_robber_hexes(state: GameState, p: int) -> list[int]:
    if not state.settings.newcomer_protection and state.kron is None:
        robber = state.robber
        return [h for h in state.board.robber_hexes if h != robber]
    return [h for h in state.board.robber_hexes if robber_hex_rule(state, p, h) is None]


def victims_at(state: GameState, p: int, h: int) -> list[int]:
    """Opponents with a building on hex h, in seat order."""
    # In C: the owners around the hex, less "nobody" (-1) and p.
    found = set(map(state.owner.__getitem__, state.board.hex_crossings[h]))
    found.discard(-1)
    found.discard(p)
    return sorted(found)


def move_robber(
    state: GameState,
    p: int,
    order: RobberOrder,
    cause: str,
    rng: random.Random,
    events: list[Event],
) -> None:
    """Move (the order must be legal) and steal from the first listed victim who can be robbed.

    If none of the listed colours sits at the hex with a card in hand, the GM draws one of the
    robbable neighbours by lot: seed 003 lets the player choose only among those present.
    """
    state.robber = order.hex
    events.append(RobberMoved(p, order.hex, cause))
    # Loops, not a comprehension and a generator: each of those is a call of its own in 3.11.
    hands = state.hands
    candidates = []
    for q in victims_at(state, p, order.hex):
        if sum(hands[q]) > 0:
            candidates.append(q)
    if not candidates:
        events.append(NothingToSteal(p, order.hex))
        return
    victim = None
    for q in order.victims:
        if q in candidates:
            victim = q
            break
    if victim is None:
        victim = candidates[rng.randrange(len(candidates))]
    steal(state, p, victim, rng, events)


def steal(state: GameState, p: int, victim: int, rng: random.Random, events: list[Event]) -> None:
    r = _random_card(state.hands[victim], rng)
    state.hands[victim][r] -= 1
    state.hands[p][r] += 1
    events.append(Stole(p, victim, r))


#: The rules version from which the NMR robber's rolls that are rolled again say why
#: (`NmrRobberRoll.why`): the report tells the players, not a bare second number.
REROLL_REASONS = 4


def _rerolled(
    state: GameState, p: int, total: int, settled: Callable[[int], bool]
) -> tuple[str, ...]:
    """Why the NMR robber rule rolls `total` again (`NmrRobberRoll.why`): no hex has it (a 7
    is none's), or each hex with it is unsettled, the robber's, forbidden by another rule, or
    touches only p's own buildings while a hex with an opponent can take the robber."""
    if total == 7:
        return ("seven",)
    board = state.board
    hexes = [h for h in board.producing_hexes if board.hexes[h].number == total]
    if not hexes:
        return ("no_hex",)
    why = []
    for h in hexes:
        rule = robber_hex_rule(state, p, h)
        if not settled(h):
            why.append("unsettled")
        elif rule is not None:
            why.append(rule.value)
        else:
            why.append("own")  # left out for the hexes with an opponent next to them
    return tuple(why)


def nmr_robber(state: GameState, p: int, chance: Chance, events: list[Event]) -> None:
    """Seed 003: roll for a number (again on 7), pick one settled hex with it at random (roll
    again if there is none), then steal from a random adjacent opponent.

    Rules 2 (docs/rules-decisions.md): the hexes with an opponent of p next to them come first;
    only if the robber can go to none of them, every settled hex (p's own too) as before."""
    board = state.board
    owner = state.owner

    def settled(h: int) -> bool:
        return any(owner[c] >= 0 for c in board.hex_crossings[h])

    allowed = [
        h for h in board.producing_hexes if settled(h) and robber_hex_rule(state, p, h) is None
    ]
    if state.rules >= 2:
        opposed = [h for h in allowed if victims_at(state, p, h)]
        allowed = opposed or allowed
    if not allowed:
        # Nothing settled can take the robber: any legal hex, drawn by lot.
        allowed = legal_robber_hexes(state, p)
        if not allowed:
            return
        h = allowed[chance.robber.randrange(len(allowed))]
    else:
        numbers = {board.hexes[h].number for h in allowed}
        explain = state.rules >= REROLL_REASONS
        while True:
            d1, d2 = chance.nmr_die(p), chance.nmr_die(p)
            if d1 + d2 in numbers:
                events.append(NmrRobberRoll(p, d1, d2))
                break
            why = _rerolled(state, p, d1 + d2, settled) if explain else ()
            events.append(NmrRobberRoll(p, d1, d2, why))
        options = [h for h in allowed if board.hexes[h].number == d1 + d2]
        h = options[chance.robber.randrange(len(options))]
    move_robber(state, p, RobberOrder(h, ()), "nmr", chance.steal, events)
