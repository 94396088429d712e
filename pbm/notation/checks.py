"""Checks at receipt: what can already be seen to fail for this player on this board now.

Hands change with the rolls, so cost is never checked here; the engine decides final legality
at resolution. What is checked is what no roll can change: a crossing taken, a road or
settlement touching nothing of the player's (counting what the same mail builds before it),
a card the player does not hold, a robber sent to sea, a trade that breaks the trading rules.
A line that fails here gets an `IllegalOrderError` and is left out of the orders.
"""

from __future__ import annotations

from pbm.rules import building, cards, trade
from pbm.rules.layouts import KNIGHT, MONOPOLY, ROAD_BUILDING, YEAR_OF_PLENTY
from pbm.rules.orders import (
    Alternatives,
    BuildAction,
    City,
    Knight,
    MaritimeTrade,
    Monopoly,
    Road,
    RoadBuilding,
    RobberOrder,
    Settlement,
    SetupPlacement,
    TradeOffer,
    YearOfPlenty,
)
from pbm.rules.setup import placement_rule
from pbm.rules.state import GameState

from .errors import IllegalOrderError
from .mail import ParsedMail
from .messages import receipt_text


def _illegal(rule: str, lang: str = "en") -> IllegalOrderError:
    # The message is in the language the checks run in (`localized` gives any other): the
    # texts are the catalogue's, `messages.RECEIPT`.
    return IllegalOrderError(receipt_text(rule, lang), rule=rule)


def check_receipt(parsed: ParsedMail, state: GameState, seat: int, lang: str = "en") -> None:
    """Mark the lines of a parsed mail that can already be seen to fail (in place).

    Later lines may build on earlier ones, so each line is checked on a trial board where the
    earlier lines (the first workable option of an `oder` line) are built. Substitute lines run
    only when a main line failed, so they pass if they work either after the main lines or
    without them.
    """
    main = state.copy()
    without_main: GameState | None = None
    for result in parsed.lines:
        item = result.item
        if not result.ok or item is None:
            continue
        if result.substitute:
            if without_main is None:
                without_main = state.copy()
            boards = [main, without_main]
        else:
            boards = [main]
        rules = [_rule(b, seat, item) for b in boards]
        if all(rules):
            result.error = _illegal(rules[0] or "", lang).at(result.line, result.text)
            result.item = None
            continue
        for board, rule in zip(boards, rules, strict=True):
            if rule is None:
                _apply(board, seat, item)


def _rule(s: GameState, p: int, item: object) -> str | None:
    if isinstance(item, tuple):
        rules = [placement_rule(s, x) for x in item if isinstance(x, SetupPlacement)]
        return rules[0] if rules and all(rules) else None
    if isinstance(item, SetupPlacement):
        return placement_rule(s, item)
    if isinstance(item, Alternatives):
        rules = [_action_rule(s, p, o) for o in item.options]
        return rules[0] if all(rules) else None
    if isinstance(item, RobberOrder):
        x = s.board.hexes[item.hex]
        return None if x.is_land and x.number is not None else "robber_not_on_number"
    if isinstance(item, Knight):
        return _card(s, p, KNIGHT) or _rule(s, p, item.robber)
    if isinstance(item, Monopoly):
        return _card(s, p, MONOPOLY)
    if isinstance(item, TradeOffer):
        return trade.offer_rule(s, p, item)
    if isinstance(item, (Settlement, City, Road, MaritimeTrade, YearOfPlenty, RoadBuilding)):
        return _action_rule(s, p, item)
    return None


def _card(s: GameState, p: int, card: str) -> str | None:
    return None if any(c == card and r < s.round for c, r in s.cards[p]) else cards.RULE_NO_CARD


def _action_rule(s: GameState, p: int, a: BuildAction) -> str | None:
    if isinstance(a, Settlement):
        return building.settlement_rule(s, p, a.crossing, check_cost=False)
    if isinstance(a, City):
        return building.city_rule(s, p, a.crossing, check_cost=False)
    if isinstance(a, Road):
        return building.road_rule(s, p, a.path, check_cost=False)
    if isinstance(a, YearOfPlenty):
        return _card(s, p, YEAR_OF_PLENTY)
    if isinstance(a, RoadBuilding):
        return _card(s, p, ROAD_BUILDING) or building.road_rule(s, p, a.first, check_cost=False)
    if isinstance(a, MaritimeTrade):
        if a.give == a.get:
            return trade.RULE_SAME
        rate = trade.harbour_rate(s, p, a.give)
        return trade.RULE_RATE if a.give_count < rate * a.get_count else None
    return None


def _apply(s: GameState, p: int, item: object) -> None:
    """Place what a line builds, free, so later lines of the same mail can build on it."""
    if isinstance(item, Alternatives):
        for option in item.options:
            if _action_rule(s, p, option) is None:
                _apply(s, p, option)
                return
        return
    if isinstance(item, Settlement):
        building.place_settlement(s, p, item.crossing, [], free=True)
    elif isinstance(item, City) and s.owner[item.crossing] == p:
        s.level[item.crossing] = 2
        s.settlements[p].remove(item.crossing)
        s.cities[p].append(item.crossing)
    elif isinstance(item, Road):
        building.place_road(s, p, item.path, [], free=True)
    elif isinstance(item, RoadBuilding):
        building.place_road(s, p, item.first, [], free=True)
        if item.second is not None and building.road_rule(s, p, item.second, False) is None:
            building.place_road(s, p, item.second, [], free=True)
