"""One mail round, resolved as docs/rules-decisions.md ("The round by mail") describes it.

`resolve_round(state, orders)` is pure: it copies the state, draws every chance outcome from a
generator seeded by (game seed, round), and returns the new state with the events.
Orders are per seat; None means no valid orders were received (NMR).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from . import building, cards, trade
from .events import Event, GameWon, NoOrders, OrderFailed, Rolled, RoundStarted
from .legal import action_rule
from .orders import (
    Alternatives,
    BuildAction,
    BuildLine,
    BuyCard,
    City,
    MaritimeTrade,
    Road,
    RoadBuilding,
    Settlement,
    TurnOrders,
    YearOfPlenty,
)
from .production import produce
from .reasons import Reason
from .rng import derive_seed
from .robber import discard_all, move_robber, nmr_robber, robber_hex_rule
from .state import GameState, Phase


def resolve_round(
    state: GameState,
    orders: Mapping[int, TurnOrders | None] | Sequence[TurnOrders | None],
    rng: random.Random | None = None,
) -> tuple[GameState, list[Event]]:
    """Resolve the open round. `rng` replaces the round's seeded generator (tests script dice
    with it); the service never passes one, so a game replays from its seed."""
    if state.phase != Phase.ROUNDS:
        raise ValueError(f"resolve_round needs phase rounds, not {state.phase}")
    s = state.copy()
    by_seat: list[TurnOrders | None] = (
        [orders.get(p) for p in range(s.settings.players)]
        if isinstance(orders, Mapping)
        else list(orders)
    )
    seed = derive_seed(s.seed, "round", s.round)
    rng = rng if rng is not None else random.Random(seed)
    order = s.build_order()
    events: list[Event] = [RoundStarted(s.round, seed, tuple(order))]
    for p in order:
        if by_seat[p] is None:
            events.append(NoOrders(p))
    discards = [o.discard.resources if o and o.discard else () for o in by_seat]
    if not _production_steps(s, by_seat, order, discards, rng, events):
        offers = {p: o.trades for p, o in enumerate(by_seat) if o is not None and o.trades}
        if offers:
            trade.resolve_trades(s, offers, order, events)
        for p in order:
            # A player holding the target when their build step comes has won (seed 000),
            # also one without orders: a title can pass to them in another player's step.
            if _won(s, p, events):
                break
            o = by_seat[p]
            if o is not None and _build_step(s, p, o, events):
                break
    if s.winner < 0:
        s.round += 1
    return s, events


def _won(s: GameState, p: int, events: list[Event]) -> bool:
    """The end check, only ever for the acting player (docs/rules-decisions.md, "The round by
    mail", step 5)."""
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
    discards: list[tuple[int, ...]],
    rng: random.Random,
    events: list[Event],
) -> bool:
    """Rolls in build order; returns True when someone won."""
    for p in order:
        # Holding the target when one's turn comes is a win before anything else (seed 000).
        if _won(s, p, events):
            return True
        o = by_seat[p]
        knight = o.knight if o is not None else None
        if o is not None and knight is not None and knight.timing == "before":
            _play_knight(s, p, o, rng, events)
            if _won(s, p, events):
                return True
        d1 = rng.randint(1, 6)
        d2 = rng.randint(1, 6)
        events.append(Rolled(p, d1, d2))
        if d1 + d2 == 7:
            discard_all(s, discards, rng, events)
            robber = o.robber if o is not None else None
            rule = Reason.NO_ROBBER_ORDER if robber is None else robber_hex_rule(s, p, robber.hex)
            if robber is not None and rule is None:
                move_robber(s, p, robber, "seven", rng, events)
            else:
                if o is not None and rule is not None:
                    events.append(OrderFailed(p, "robber", rule, "NMR robber rule applied"))
                nmr_robber(s, p, rng, events)
        else:
            produce(s, d1 + d2, events)
        if o is not None:
            if knight is not None and knight.timing == "after":
                _play_knight(s, p, o, rng, events)
            if o.monopoly is not None:
                rule = cards.play_rule(s, p, "monopoly")
                if rule is None:
                    cards.play_monopoly(s, p, o.monopoly, events)
                else:
                    events.append(OrderFailed(p, "monopoly", rule, ""))
        if _won(s, p, events):
            return True
    return False


def _play_knight(
    s: GameState, p: int, o: TurnOrders, rng: random.Random, events: list[Event]
) -> None:
    assert o.knight is not None
    rule = cards.knight_rule(s, p, o.knight)
    if rule is None:
        cards.play_knight(s, p, o.knight, rng, events)
    else:
        events.append(OrderFailed(p, "knight", rule, ""))


def _build_step(s: GameState, p: int, o: TurnOrders, events: list[Event]) -> bool:
    """Main lines in order, then `Ersatzbau` if any main line failed. True when p won."""
    failed = False
    for i, line in enumerate(o.builds, 1):
        ok = _run_line(s, p, line, "build", i, events)
        failed = failed or not ok
        if ok and _won(s, p, events):
            return True
    if failed:
        for i, line in enumerate(o.substitutes.lines, 1):
            if _run_line(s, p, line, "substitute", i, events) and _won(s, p, events):
                return True
    return False


def _run_line(
    s: GameState, p: int, line: BuildLine, block: str, i: int, events: list[Event]
) -> bool:
    """The first option of the line that can be carried out is; else all failures are logged.
    Failures name the line as "build 2" or "substitute 1", and "option k" among alternatives."""
    opts = line.options if isinstance(line, Alternatives) else (line,)
    failures = []
    for action in opts:
        rule = action_rule(s, p, action)
        if rule is None:
            extra = execute(s, p, action, events)
            for r in extra:
                events.append(OrderFailed(p, f"{block} {i}", r, "second road of road building"))
            return True
        failures.append(rule)
    for k, rule in enumerate(failures):
        label = f"{block} {i}" if len(failures) == 1 else f"{block} {i} option {k + 1}"
        events.append(OrderFailed(p, label, rule, ""))
    return False


def execute(s: GameState, p: int, a: BuildAction, events: list[Event]) -> list[Reason]:
    """Carry out a legal action; returns rules of partial failures (road building's 2nd road)."""
    if isinstance(a, Road):
        building.place_road(s, p, a.path, events, free=False)
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
        return cards.play_road_building(s, p, a, events)
    return []
