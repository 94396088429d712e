"""One mail round, resolved as docs/rules-decisions.md ("The round by mail") describes it.

`resolve_round(state, orders)` is pure: it copies the state, draws the round's rolls first from
their own stream of the game seed (`rng.Chance`, docs/fair-dice.md), the other chance outcomes
from generators of their own, and returns the new state with the events. Nothing a player orders
changes the rolls. Orders are per seat; None means no valid orders were received (NMR).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from . import building, cards, fog, trade, workshops
from .events import Event, GameWon, NoOrders, OrderFailed, Rolled, RoundStarted
from .gold import GoldChoices
from .legal import action_rule
from .legal_hooks import EXECUTORS
from .orders import (
    Alternatives,
    BuildAction,
    BuildLine,
    BuyCard,
    Castle,
    City,
    CodedOrder,
    Make,
    MaritimeTrade,
    Residence,
    Road,
    RoadBuilding,
    Settlement,
    Ship,
    TradeOffer,
    TurnOrders,
    Workshop,
    YearOfPlenty,
    action_code,
)
from .pirate import move_thief, thief_rule
from .production import produce
from .reasons import Reason
from .resources import (
    COST_CARD,
    COST_CASTLE,
    COST_CITY,
    COST_RESIDENCE,
    COST_ROAD,
    COST_SETTLEMENT,
    COST_SHIP,
    COST_WORKSHOP,
    Counts,
    missing,
)
from .rng import Chance, derive_seed
from .robber import discard_all, nmr_robber
from .state import GameState, Phase
from .trade import harbour_rate, paid_count


def resolve_round(
    state: GameState,
    orders: Mapping[int, TurnOrders | None] | Sequence[TurnOrders | None],
    rng: random.Random | None = None,
) -> tuple[GameState, list[Event]]:
    """Resolve the open round. `rng` replaces the game seed's chance (tests script dice with
    it: `Chance.scripted`); the service never passes one, so a game replays from its seed."""
    if state.phase != Phase.ROUNDS:
        raise ValueError(f"resolve_round needs phase rounds, not {state.phase}")
    s = state.copy()
    by_seat: list[TurnOrders | None] = (
        list(map(orders.get, range(s.settings.players)))
        if isinstance(orders, Mapping)
        else list(orders)
    )
    seed = derive_seed(s.seed, "round", s.round)
    if s.rules < 2:
        chance = Chance.legacy(rng if rng is not None else random.Random(seed))
    elif rng is not None:
        chance = Chance.scripted(rng, s.settings.players)
    else:
        chance = Chance.sealed(s.seed, s.round, s.settings.players)
    order = s.build_order()
    events: list[Event] = [RoundStarted(s.round, seed, tuple(order))]
    for p in order:
        if by_seat[p] is None:
            events.append(NoOrders(p))
    # Seafarers: every roll of the round pays gold by the same `Gold:` preferences (no other
    # game has gold).
    gold = (
        GoldChoices({p: o.gold for p, o in enumerate(by_seat) if o is not None})
        if s.sea is not None
        else None
    )
    if not _production_steps(s, by_seat, order, chance, events, gold):
        offers: dict[int, tuple[TradeOffer, ...]] = {}
        for p, o in enumerate(by_seat):  # a loop, not a comprehension: most rounds have none
            if o is not None and o.trades:
                offers[p] = o.trades
        if offers:
            trade.resolve_trades(s, offers, order, events)
        target = s.settings.vp_target
        for p in order:
            # A player holding the target when their build step comes has won (seed 000),
            # also one without orders: a title can pass to them in another player's step.
            if s.vp(p) >= target and _won(s, p, events):
                break
            o = by_seat[p]
            if o is not None and _build_step(s, p, o, events, gold):
                break
    if s.winner < 0:
        s.round += 1
    return s, events


def _won(s: GameState, p: int, events: list[Event]) -> bool:
    """The end check, only ever for the acting player (docs/rules-decisions.md, "The round by
    mail", step 5). The hot checks call it only when `s.vp(p)` reaches the target (a call fewer
    each time it does not)."""
    vp = s.vp(p)
    if vp >= s.settings.vp_target:
        s.winner = p
        s.phase = Phase.ENDED
        events.append(GameWon(p, vp, s.round))
        return True
    return False


def _production_steps(
    s: GameState,
    by_seat: list[TurnOrders | None],
    order: list[int],
    chance: Chance,
    events: list[Event],
    gold: GoldChoices | None,
) -> bool:
    """Rolls in build order; returns True when someone won."""
    target = s.settings.vp_target
    # Each seat's discard preference, read at the round's first 7.
    discards: list[tuple[int, ...]] | None = None
    for i, p in enumerate(order):
        # Holding the target when one's turn comes is a win before anything else (seed 000).
        # (`_won`, called only when it will be: one call fewer for each check that fails.)
        if s.vp(p) >= target and _won(s, p, events):
            return True
        o = by_seat[p]
        knight = o.knight if o is not None else None
        if o is not None and knight is not None and knight.timing == "before":
            _play_knight(s, p, o, chance, events)
            if _won(s, p, events):
                return True
        d1, d2 = chance.roll(i)
        events.append(Rolled(p, d1, d2))
        if d1 + d2 == 7:
            if discards is None:
                discards = [o.discard.resources if o and o.discard else () for o in by_seat]
            discard_all(s, discards, chance.discard, events)
            _seven(s, p, o, chance, events)
        else:
            produce(s, d1 + d2, events, gold)
        if o is not None:
            knight_after = knight is not None and knight.timing == "after"
            if knight_after:
                _play_knight(s, p, o, chance, events)
            if o.monopoly is not None:
                rule = cards.monopoly_rule(s, p, o.monopoly)
                if rule is None:
                    cards.play_monopoly(s, p, o.monopoly, events)
                else:
                    events.append(_failed(s, p, "monopoly", rule, "", o.monopoly))
            # A knight may bring the largest army; a roll, its robber, discards and a monopoly
            # move cards only, never a point: without a knight the start's check stands.
            if knight_after and _won(s, p, events):
                return True
    return False


def _seven(s: GameState, p: int, o: TurnOrders | None, chance: Chance, events: list[Event]) -> None:
    """The roller's robber order: the robber's or the pirate's, the first of the orders
    (`robber`, then `robber_else`) that can be carried out; with none, each failure is logged
    and the NMR robber rule moves the robber (never the pirate)."""
    tries = [] if o is None else [x for x in (o.robber, o.robber_else) if x is not None]
    for robber in tries:
        if thief_rule(s, p, robber) is None:
            move_thief(s, p, robber, "seven", chance.steal, events)
            return
    if o is not None:
        note = "NMR robber rule applied"
        if not tries:
            events.append(_failed(s, p, "robber", Reason.NO_ROBBER_ORDER, note, None))
        for robber in tries:
            rule = thief_rule(s, p, robber)
            assert rule is not None
            events.append(_failed(s, p, "robber", rule, note, robber))
    nmr_robber(s, p, chance, events)


def _play_knight(s: GameState, p: int, o: TurnOrders, chance: Chance, events: list[Event]) -> None:
    assert o.knight is not None
    rule = cards.knight_rule(s, p, o.knight)
    if rule is None:
        cards.play_knight(s, p, o.knight, chance.steal, events)
    else:
        events.append(_failed(s, p, "knight", rule, "", o.knight))


_COSTS: dict[type, Counts] = {
    Road: COST_ROAD,
    Ship: COST_SHIP,
    Settlement: COST_SETTLEMENT,
    City: COST_CITY,
    BuyCard: COST_CARD,
    Workshop: COST_WORKSHOP,
    Castle: COST_CASTLE,
    Residence: COST_RESIDENCE,
}


def _missing(s: GameState, p: int, order: CodedOrder, rule: Reason) -> tuple[int, ...]:
    """The cards p lacks for an order that failed for want of them (Kronlande: Fisch counted
    for missing Getreide)."""
    hand = s.hands[p]
    if rule == Reason.CANNOT_AFFORD and type(order) in _COSTS:
        return missing(hand, _COSTS[type(order)])
    if rule == Reason.CANNOT_AFFORD and isinstance(order, Make):
        return missing(hand, workshops.make_cost(order))
    if rule == Reason.CARDS_NOT_HELD and isinstance(order, MaritimeTrade):
        need = harbour_rate(s, p, order.give) * paid_count(s, order)
        out = [0] * len(hand)
        out[order.give] = max(0, need - hand[order.give])
        return tuple(out)
    return ()


def _failed(
    s: GameState, p: int, line: str, rule: Reason, note: str, order: CodedOrder | None
) -> OrderFailed:
    """The failure event; from rules 2 on it names the order and the cards missing for it."""
    if s.rules < 2 or order is None:
        return OrderFailed(p, line, rule, note)
    return OrderFailed(p, line, rule, note, action_code(order), _missing(s, p, order, rule))


def _build_step(
    s: GameState, p: int, o: TurnOrders, events: list[Event], gold: GoldChoices | None = None
) -> bool:
    """Main lines in order, then `Ersatzbau` if any main line failed. True when p won.
    `gold`: the round's `Gold:` preferences (a discovered gold river pays by them)."""
    failed = o.substitutes.main_refused
    target = s.settings.vp_target
    for i, line in enumerate(o.builds, 1):
        ok = _run_line(s, p, line, "build", i, events, gold)
        failed = failed or not ok
        if ok and type(line) not in _NO_POINTS and s.vp(p) >= target and _won(s, p, events):
            return True
    if failed:
        for i, line in enumerate(o.substitutes.lines, 1):
            if (
                _run_line(s, p, line, "substitute", i, events, gold)
                and type(line) not in _NO_POINTS
                and _won(s, p, events)
            ):
                return True
    return False


#: Lines that move cards only, never a point: p was below the target before one (checked at
#: the step's start and after every line), and is after it, so the end check is left out.
_NO_POINTS = frozenset({MaritimeTrade, YearOfPlenty})


def _run_line(
    s: GameState,
    p: int,
    line: BuildLine,
    block: str,
    i: int,
    events: list[Event],
    gold: GoldChoices | None = None,
) -> bool:
    """The first option of the line that can be carried out is; else all failures are logged.
    Failures name the line as "build 2" or "substitute 1", and "option k" among alternatives."""
    opts = line.options if isinstance(line, Alternatives) else (line,)
    failures: list[tuple[BuildAction, Reason]] = []
    for action in opts:
        rule = action_rule(s, p, action)
        if rule is None:
            extra = execute(s, p, action, events, gold)
            for r in extra:
                assert isinstance(action, RoadBuilding) and action.second is not None
                note = "second road of road building"
                second: CodedOrder = (
                    Ship(action.second) if action.second_ship else Road(action.second)
                )
                events.append(_failed(s, p, f"{block} {i}", r, note, second))
            return True
        failures.append((action, rule))
    for k, (action, rule) in enumerate(failures):
        label = f"{block} {i}" if len(failures) == 1 else f"{block} {i} option {k + 1}"
        events.append(_failed(s, p, label, rule, "", action))
    return False


def execute(
    s: GameState, p: int, a: BuildAction, events: list[Event], gold: GoldChoices | None = None
) -> list[Reason]:
    """Carry out a legal action; returns rules of partial failures (road building's 2nd road).
    A road or ship that reaches fog discovers it (Oceania, `fog.py`; `gold`: the round's
    `Gold:` preferences)."""
    if isinstance(a, Road):
        building.place_road(s, p, a.path, events, free=False)
        fog.discover(s, p, a.path, events, gold)
    elif isinstance(a, Settlement):
        building.place_settlement(s, p, a.crossing, events, free=False)
    elif isinstance(a, City):
        building.place_city(s, p, a.crossing, events)
    elif isinstance(a, BuyCard):
        cards.buy_card(s, p, events)
    elif isinstance(a, MaritimeTrade):
        trade.maritime_trade(s, p, a, events)
    elif isinstance(a, YearOfPlenty):
        cards.play_plenty(s, p, a, events)
    elif isinstance(a, RoadBuilding):
        return cards.play_road_building(s, p, a, events, gold)
    else:
        # An expansion's order (`legal_hooks.EXECUTORS`: Seafarers' ships, Kronlande's
        # workshops, goods, castles and project cards).
        EXECUTORS[type(a)](s, p, a, events, gold)
    return []
