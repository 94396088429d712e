"""Domestic trades (both sides must state them) and maritime trades with the bank.

Kronlande: goods are traded between players only; a Residenz gives its owner a market (3:1 for
every resource, 2:1 for Stein) and a Hafenprivileg 2:1 for the rest of the round's build step;
the best of market, privilege and harbours applies."""

from __future__ import annotations

from .board import Harbor
from .events import Event, MaritimeTraded, TradeDone, TradeFailed
from .orders import MaritimeTrade, TradeOffer
from .reasons import Reason
from .resources import STEIN, Counts, holds, widen
from .state import GameState


def bank_item_rule(state: GameState, *items: int) -> Reason | None:
    """Kronlande: what a bank trade, a Year of Plenty or a Monopoly names must be a resource,
    never a good (goods are traded between players only)."""
    width = state.settings.bank_width
    if any(not 0 <= r < width for r in items):
        return Reason.GOODS_NOT_WITH_BANK
    return None


def offer_rule(state: GameState, p: int, offer: TradeOffer) -> Reason | None:
    """What is wrong with one side of a trade on its own (checked at receipt, too)."""
    if offer.partner == p:
        return Reason.TRADE_WITH_SELF
    if not 0 <= offer.partner < state.settings.players:
        return Reason.NO_SUCH_PLAYER
    if not any(offer.give) or not any(offer.get):
        return Reason.NO_GIFTS
    width = len(state.hands[p])
    if len(offer.give) > width or len(offer.get) > width:
        return Reason.NOT_KRONLANDE
    if any(g and t for g, t in zip(offer.give, offer.get, strict=False)):
        return Reason.LIKE_FOR_LIKE
    return None


def _widened(state: GameState, offer: TradeOffer) -> TradeOffer:
    """A Kronlande offer with counts of the hands' width (shorter ones mean zeros for the
    rest), so that the two sides of a trade compare as equal."""
    width = len(state.hands[0])
    if len(offer.give) == width == len(offer.get):
        return offer
    return TradeOffer(offer.partner, widen(offer.give, width), widen(offer.get, width))


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
    if state.kron is not None:
        offers = {p: tuple(_widened(state, o) for o in x) for p, x in offers.items()}
    for p in order:
        for i, mine in enumerate(offers.get(p, ())):
            if (p, i) in used:
                continue
            rule = offer_rule(state, p, mine)
            if rule is not None:
                used.add((p, i))
                events.append(TradeFailed(p, mine.partner, mine.give, mine.get, rule))
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
    # Who offered whom a trade that found no match: between them the terms differ (a
    # counter-offer), else the partner did not answer at all.
    open_to = {
        (p, o.partner) for p in order for i, o in enumerate(offers.get(p, ())) if (p, i) not in used
    }
    for p in order:
        for i, mine in enumerate(offers.get(p, ())):
            if (p, i) not in used:
                reason = (
                    Reason.TERMS_DIFFER
                    if (mine.partner, p) in open_to
                    else Reason.NOT_CONFIRMED_BY_PARTNER
                )
                events.append(TradeFailed(p, mine.partner, mine.give, mine.get, reason))
    matched.sort(key=lambda m: m[0])
    hands = state.hands
    for _, p, mine, q, _theirs in matched:
        # The very cards each side gives: Fisch pays for Getreide in a cost, never in a trade.
        if holds(hands[p], mine.give) and holds(hands[q], mine.get):
            _move(hands[p], hands[q], mine.give)
            _move(hands[q], hands[p], mine.get)
            events.append(TradeDone(p, q, mine.give, mine.get))
        else:
            events.append(TradeFailed(p, q, mine.give, mine.get, Reason.CARDS_NOT_HELD))
            events.append(TradeFailed(q, p, mine.get, mine.give, Reason.CARDS_NOT_HELD))


def _move(src: list[int], dst: list[int], cards: Counts) -> None:
    for r, n in enumerate(cards):
        src[r] -= n
        dst[r] += n


def closed_harbour(state: GameState) -> Harbor | None:
    """The harbour that does not trade: Seafarers (002), the one on the pirate's hex while he
    stands there (the round, the receipt check and the legal-move view ask here)."""
    sea = state.sea
    return state.board.hexes[sea.pirate].harbor if sea is not None and sea.pirate >= 0 else None


def harbour_rate(state: GameState, p: int, r: int, pirate: bool = True) -> int:
    """4:1 anywhere; 3:1 with a generic harbour; 2:1 at a harbour of that resource.
    Kronlande: 2:1 for everything after a Hafenprivileg this round; with a Residenz 3:1, and
    2:1 for Stein. `pirate`: the harbour under the pirate does not trade (false: the rate
    were he elsewhere)."""
    rate = 4
    kron = state.kron
    if kron is not None:
        if kron.privilege[p] == state.round:
            return 2
        if kron.residenzen[p]:
            if r == STEIN:
                return 2
            rate = 3
    harbors = state.board.crossing_harbor
    closed = closed_harbour(state) if pirate else None
    for c in state.settlements[p] + state.cities[p]:
        hb = harbors[c]
        if hb is not None and hb is not closed:
            if hb.resource == r:
                return 2
            if hb.resource is None:
                rate = 3
    return rate


def maritime_terms_rule(state: GameState, p: int, t: MaritimeTrade) -> Reason | None:
    """The terms of a bank trade on their own: two resources, at least the player's rate."""
    return _terms_rule(state, t, harbour_rate(state, p, t.give))


def _terms_rule(state: GameState, t: MaritimeTrade, rate: int) -> Reason | None:
    """`maritime_terms_rule` at the player's rate for the resource given."""
    if t.give == t.get:
        return Reason.SAME_RESOURCE
    if state.kron is not None and (rule := bank_item_rule(state, t.give, t.get)) is not None:
        return rule
    if t.get_count < 1 or t.give_count < rate * t.get_count:
        return Reason.BELOW_HARBOUR_RATE
    return None


def maritime_rule(
    state: GameState, p: int, t: MaritimeTrade, check_cost: bool = True
) -> Reason | None:
    rate = harbour_rate(state, p, t.give)
    rule = _terms_rule(state, t, rate)
    if (
        rule == Reason.BELOW_HARBOUR_RATE
        and state.sea is not None
        and _terms_rule(state, t, harbour_rate(state, p, t.give, pirate=False)) is None
    ):
        # Seafarers: the rate the player's harbour gives, but the pirate stands on it.
        return Reason.PIRATE_ON_HARBOUR
    if rule is not None:
        return rule
    got = paid_count(state, t)
    # Rules 1 asked for the cards of the whole trade before looking at the bank.
    need = rate * (t.get_count if state.rules < 2 else got)
    if check_cost and state.hands[p][t.give] < need:
        return Reason.CARDS_NOT_HELD
    if got == 0:
        return Reason.BANK_EMPTY
    return None


def paid_count(state: GameState, t: MaritimeTrade) -> int:
    """How many cards the bank pays for a bank trade: what was asked, or with a classic bank
    short of them what it still has ("Banktausch nimmt nur, was sie noch hat", seed 002);
    rules 1 traded all or nothing."""
    bank = state.bank
    if bank is None or bank[t.get] >= t.get_count:
        return t.get_count
    return bank[t.get] if state.rules >= 2 else 0


def maritime_trade(state: GameState, p: int, t: MaritimeTrade, events: list[Event]) -> None:
    """Executes a legal maritime trade. A player who offers more than their rate asks gives only
    what the rate asks: the bank never takes more than its price. A classic bank short of the
    cards pays what it has, and takes the rate for that many."""
    got = paid_count(state, t)
    need = harbour_rate(state, p, t.give) * got
    hand = state.hands[p]
    hand[t.give] -= need
    hand[t.get] += got
    if state.bank is not None:
        state.bank[t.give] += need
        state.bank[t.get] -= got
    events.append(MaritimeTraded(p, t.give, need, t.get, got))
