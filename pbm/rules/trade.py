"""Domestic trades (both sides must state them) and maritime trades with the bank."""

from __future__ import annotations

from .events import Event, MaritimeTraded, TradeDone, TradeFailed
from .orders import MaritimeTrade, TradeOffer
from .resources import Counts, can_pay
from .state import GameState

RULE_GIFT = "no_gifts"
RULE_LIKE_FOR_LIKE = "like_for_like"
RULE_SELF = "trade_with_self"
RULE_NO_PARTNER = "no_such_player"
RULE_UNMATCHED = "not_confirmed_by_partner"
RULE_SPENT = "cards_not_held"
RULE_RATE = "below_harbour_rate"
RULE_BANK_EMPTY = "bank_empty"
RULE_SAME = "same_resource"


def offer_rule(state: GameState, p: int, offer: TradeOffer) -> str | None:
    """What is wrong with one side of a trade on its own (checked at receipt, too)."""
    if offer.partner == p:
        return RULE_SELF
    if not 0 <= offer.partner < state.settings.players:
        return RULE_NO_PARTNER
    if not any(offer.give) or not any(offer.get):
        return RULE_GIFT
    if any(g and t for g, t in zip(offer.give, offer.get, strict=True)):
        return RULE_LIKE_FOR_LIKE
    return None


def resolve_trades(
    state: GameState,
    offers: dict[int, tuple[TradeOffer, ...]],
    order: list[int],
    events: list[Event],
) -> None:
    """Match offers pairwise and execute them: by the earlier build position of the two parties,
    then by that party's line order, if both still hold the cards. Unmatched sides fail."""
    position = {p: i for i, p in enumerate(order)}
    used: set[tuple[int, int]] = set()
    matched: list[tuple[tuple[int, int], int, TradeOffer, int, TradeOffer]] = []
    for p in order:
        for i, mine in enumerate(offers.get(p, ())):
            if (p, i) in used:
                continue
            if offer_rule(state, p, mine) is not None:
                used.add((p, i))
                events.append(
                    TradeFailed(
                        p, mine.partner, mine.give, mine.get, offer_rule(state, p, mine) or ""
                    )
                )
                continue
            q = mine.partner
            for j, theirs in enumerate(offers.get(q, ())):
                if (q, j) in used or theirs.partner != p:
                    continue
                if theirs.give == mine.get and theirs.get == mine.give:
                    used.add((p, i))
                    used.add((q, j))
                    # p comes first in build order here, since p is visited first.
                    matched.append(((position[p], i), p, mine, q, theirs))
                    break
    for p in order:
        for i, mine in enumerate(offers.get(p, ())):
            if (p, i) not in used:
                events.append(TradeFailed(p, mine.partner, mine.give, mine.get, RULE_UNMATCHED))
    matched.sort(key=lambda m: m[0])
    hands = state.hands
    for _, p, mine, q, _theirs in matched:
        if can_pay(hands[p], mine.give) and can_pay(hands[q], mine.get):
            _move(hands[p], hands[q], mine.give)
            _move(hands[q], hands[p], mine.get)
            events.append(TradeDone(p, q, mine.give, mine.get))
        else:
            events.append(TradeFailed(p, q, mine.give, mine.get, RULE_SPENT))
            events.append(TradeFailed(q, p, mine.get, mine.give, RULE_SPENT))


def _move(src: list[int], dst: list[int], cards: Counts) -> None:
    for r in range(5):
        src[r] -= cards[r]
        dst[r] += cards[r]


def harbour_rates(state: GameState, p: int) -> list[int]:
    """The player's bank rate for each resource."""
    rates = [4, 4, 4, 4, 4]
    harbors = state.board.crossing_harbor
    for c in state.settlements[p] + state.cities[p]:
        hb = harbors[c]
        if hb is not None:
            if hb.resource is None:
                rates = [min(x, 3) for x in rates]
            else:
                rates[hb.resource] = 2
    return rates


def harbour_rate(state: GameState, p: int, r: int) -> int:
    """4:1 anywhere; 3:1 with a generic harbour; 2:1 at a harbour of that resource."""
    rate = 4
    harbors = state.board.crossing_harbor
    for c in state.settlements[p] + state.cities[p]:
        hb = harbors[c]
        if hb is not None:
            if hb.resource == r:
                return 2
            if hb.resource is None:
                rate = 3
    return rate


def maritime_rule(state: GameState, p: int, t: MaritimeTrade) -> str | None:
    if t.give == t.get:
        return RULE_SAME
    if t.get_count < 1 or t.give_count < harbour_rate(state, p, t.give) * t.get_count:
        return RULE_RATE
    need = harbour_rate(state, p, t.give) * t.get_count
    if state.hands[p][t.give] < need:
        return RULE_SPENT
    if state.bank is not None and state.bank[t.get] < t.get_count:
        return RULE_BANK_EMPTY
    return None


def maritime_trade(state: GameState, p: int, t: MaritimeTrade, events: list[Event]) -> None:
    """Executes a legal maritime trade. A player who offers more than their rate asks gives only
    what the rate asks: the bank never takes more than its price."""
    need = harbour_rate(state, p, t.give) * t.get_count
    hand = state.hands[p]
    hand[t.give] -= need
    hand[t.get] += t.get_count
    if state.bank is not None:
        state.bank[t.give] += need
        state.bank[t.get] -= t.get_count
    events.append(MaritimeTraded(p, t.give, need, t.get, t.get_count))
