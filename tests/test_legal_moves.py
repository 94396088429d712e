"""The legal-move view (`pbm.rules.legal.LegalMoves`) agrees with the resolution.

Positions come from whole games played by both bots (3 to 6 players, newcomer protection on and
off, setup and rounds). In each, for every seat: the lists of the view hold exactly the moves
the rules' own checks accept (cost aside); every listed move is carried out by the resolution
once the player holds its cost, and a sample of unlisted ones fails there with the view's reason;
what the resolution would carry out is never refused at receipt; and the view never changes the
state it looks at.
"""

from __future__ import annotations

import random
from functools import cache

from pbm.rules import building, cards, trade
from pbm.rules.events import Built, CardBought, Event, MaritimeTraded, OrderFailed, Produced
from pbm.rules.layouts import KNIGHT, MONOPOLY, ROAD_BUILDING
from pbm.rules.legal import PLAYABLE, LegalMoves, action_rule
from pbm.rules.orders import (
    Alternatives,
    BuildAction,
    BuyCard,
    City,
    Knight,
    MaritimeTrade,
    Monopoly,
    Road,
    RoadBuilding,
    RobberOrder,
    Settlement,
    SetupPlacement,
    Timing,
    TurnOrders,
    YearOfPlenty,
)
from pbm.rules.reasons import Reason
from pbm.rules.robber import robber_hex_rule
from pbm.rules.round import resolve_round
from pbm.rules.serial import state_to_json
from pbm.rules.setup import placement_rule
from pbm.rules.sim import play_game
from pbm.rules.state import GameState, Phase, Settings

GAMES = 8


@cache
def positions() -> tuple[GameState, ...]:
    """Every 4th position of a few whole games (setup placements and rounds)."""
    out = []
    for i in range(GAMES):
        settings = Settings.for_players(3 + i % 4, newcomer_protection=i % 3 == 0)
        bot = ("random", "autopilot")[i % 2]
        for k, (state, _) in enumerate(play_game(settings, 500 + i, bot)):
            if k % 4 == 0 and state.phase != Phase.ENDED:
                out.append(state)
    return tuple(out)


def _round_positions() -> list[GameState]:
    return [s for s in positions() if s.phase == Phase.ROUNDS]


def _rich(state: GameState, p: int) -> GameState:
    """The position with 9 of each resource in p's hand (the hand is all a listed move lacks)."""
    s = state.copy()
    s.hands[p] = [9] * 5
    return s


class _Quiet(random.Random):
    """The round's generator, every roll the same total that pays nobody (never a 7)."""

    def __init__(self, dice: tuple[int, int]) -> None:
        super().__init__(1)
        self._dice = dice
        self._next = 0

    def randint(self, a: int, b: int) -> int:
        if (a, b) != (1, 6):
            return super().randint(a, b)
        self._next ^= 1
        return self._dice[1 - self._next]


def _quiet_dice(s: GameState) -> tuple[int, int] | None:
    """Dice whose total no settled hex (off the robber) has, so the round pays nobody."""
    for total in (2, 3, 4, 5, 6, 8, 9, 10, 11, 12):
        hexes = s.board.number_hexes.get(total, ())
        if all(
            h == s.robber or all(s.owner[c] < 0 for c in s.board.hex_crossings[h]) for h in hexes
        ):
            return (min(6, total - 1), total - min(6, total - 1))
    return None


def _resolve_alone(
    state: GameState, p: int, line: BuildAction, dice: tuple[int, int]
) -> list[Event]:
    orders: dict[int, TurnOrders | None] = {q: TurnOrders() for q in range(state.settings.players)}
    orders[p] = TurnOrders(builds=(line,))
    events = resolve_round(state, orders, _Quiet(dice))[1]
    assert not any(isinstance(e, Produced) for e in events)  # the dice paid nobody
    return events


def test_positions_cover_setup_rounds_and_protection() -> None:
    states = positions()
    assert any(s.phase == Phase.SETUP for s in states)
    assert len(_round_positions()) > 100
    assert any(s.settings.newcomer_protection for s in _round_positions())
    assert {s.settings.players for s in states} == {3, 4, 5, 6}


def test_build_lists_are_exactly_what_the_building_rules_accept() -> None:
    for s in _round_positions():
        for p in range(s.settings.players):
            legal = LegalMoves(s, p)
            roads, sites, cities = set(legal.roads()), set(legal.settlements()), legal.cities()
            for e in range(len(s.board.path_hexes)):
                ok = building.road_rule(s, p, e, check_cost=False) is None
                assert (e in roads) == ok == (Road(e) in legal), (s, p, e)
            for c in range(len(s.board.crossing_hexes)):
                ok = building.settlement_rule(s, p, c, check_cost=False) is None
                assert (c in sites) == ok == (Settlement(c) in legal), (s, p, c)
                ok = building.city_rule(s, p, c, check_cost=False) is None
                assert (c in cities) == ok == (City(c) in legal), (s, p, c)
            assert list(legal.roads()) == sorted(roads)
            assert list(legal.settlements()) == sorted(sites)


def test_robber_cards_and_bank_lists_are_exactly_what_the_rules_accept() -> None:
    for s in _round_positions():
        for p in range(s.settings.players):
            legal = LegalMoves(s, p)
            hexes = legal.robber_hexes()
            for h in range(len(s.board.hexes)):
                ok = robber_hex_rule(s, p, h) is None
                assert (h in hexes) == ok == (RobberOrder(h) in legal), (s, p, h)
                owners = {s.owner[c] for c in s.board.hex_crossings[h]} - {-1, p}
                assert legal.victims(h) == sorted(owners)
            playable = legal.playable_cards()
            for card in PLAYABLE:
                assert (card in playable) == (cards.play_rule(s, p, card) is None), (s, p, card)
            assert (Monopoly(0) in legal) == (MONOPOLY in playable)
            ok = cards.buy_rule(s, p, check_cost=False) is None
            assert legal.can_buy_card() == ok == (BuyCard() in legal)
            trades = legal.bank_trades()
            rates = legal.bank_rates()
            for give in range(5):
                assert rates[give] == trade.harbour_rate(s, p, give)
                for get in range(5):
                    t = MaritimeTrade(give, rates[give], get, 1)
                    ok = trade.maritime_rule(s, p, t, check_cost=False) is None
                    assert (t in trades) == ok == (t in legal), (s, p, t)


def test_setup_placements_are_exactly_what_the_setup_rule_accepts() -> None:
    setups = [s for s in positions() if s.phase == Phase.SETUP]
    assert setups
    for s in setups:
        legal = LegalMoves(s, 0)
        listed = set(legal.setup_placements())
        assert list(legal) == legal.setup_placements()
        for c in range(len(s.board.crossing_hexes)):
            for e in s.board.crossing_paths[c]:
                pl = SetupPlacement(c, e)
                assert (pl in listed) == (placement_rule(s, pl) is None) == (pl in legal)
        assert set(legal.sites()) == {pl.crossing for pl in listed}
        if s.sea is None:
            pairs = [(c, e) for c in legal.sites() for e in legal.setup_roads(c)]
            assert legal.setup_pairs() == pairs
        for c in range(len(s.board.crossing_hexes)):
            assert legal.is_site(c) == (c in legal.sites())


def test_every_listed_move_passes_the_resolution_check_with_its_cost_in_hand() -> None:
    for s in _round_positions():
        for p in range(s.settings.players):
            rich = _rich(s, p)
            moves = list(LegalMoves(s, p))
            assert moves == list(LegalMoves(rich, p))  # the hand is no part of the list
            for move in moves:
                assert isinstance(move, (Road, Settlement, City, BuyCard, MaritimeTrade))
                assert action_rule(rich, p, move) is None, (s, p, move)


def test_listed_moves_are_carried_out_and_unlisted_ones_fail_with_the_views_reason() -> None:
    pick = random.Random(3)
    done = failed = 0
    for s in _round_positions()[::3]:
        dice = _quiet_dice(s)
        if dice is None:
            continue
        p = pick.randrange(s.settings.players)
        rich = _rich(s, p)
        legal = LegalMoves(rich, p)
        listed = list(legal)
        for move in pick.sample(listed, min(3, len(listed))):
            events = _resolve_alone(rich, p, move, dice)
            assert not [e for e in events if isinstance(e, OrderFailed) and e.player == p], move
            assert any(
                isinstance(e, (Built, CardBought, MaritimeTraded)) and e.player == p for e in events
            ), move
            done += 1
        unlisted: list[BuildAction] = [
            Road(e) for e in range(len(s.board.path_hexes)) if e not in legal.roads()
        ]
        unlisted += [
            Settlement(c) for c in range(len(s.board.crossing_hexes)) if Settlement(c) not in legal
        ]
        unlisted += [City(c) for c, o in enumerate(s.owner) if o >= 0 and City(c) not in legal]
        for move in pick.sample(unlisted, min(3, len(unlisted))):
            events = _resolve_alone(rich, p, move, dice)
            fails = [e for e in events if isinstance(e, OrderFailed) and e.player == p]
            assert [(e.line, e.rule) for e in fails] == [("build 1", legal.problem(move))], move
            failed += 1
    assert done > 50 and failed > 50


def test_what_the_resolution_would_do_is_never_refused_at_receipt() -> None:
    for s in _round_positions()[::3]:
        for p in range(s.settings.players):
            legal = LegalMoves(s, p)
            orders: list[object] = [Road(e) for e in range(len(s.board.path_hexes))]
            orders += [Settlement(c) for c in range(len(s.board.crossing_hexes))]
            orders += [City(c) for c in range(len(s.board.crossing_hexes))]
            orders += [RobberOrder(h) for h in range(len(s.board.hexes))]
            orders += [Knight(Timing.AFTER_ROLL, RobberOrder(h)) for h in legal.robber_hexes()]
            orders += [Monopoly(2), YearOfPlenty(0, 4), BuyCard()]
            orders += [RoadBuilding(e) for e in range(len(s.board.path_hexes))]
            orders += [MaritimeTrade(g, n, t) for g in range(5) for t in range(5) for n in (2, 4)]
            for order in orders:
                if legal.problem(order) is None:
                    assert legal.certain_problem(order) is None, (s, p, order)


def test_receipt_is_looser_than_resolution_where_the_round_can_change_things() -> None:
    """A card bought this round is reported as not held (the receipt's wording) but as bought
    this round at resolution. The robber's own hex is refused at receipt too (it is known then,
    docs/rules-decisions.md), though an earlier 7 of the round could move the robber first."""
    s = _round_positions()[40]
    legal = LegalMoves(s, 0)
    here = RobberOrder(s.robber)
    assert legal.problem(here) == Reason.ROBBER_MUST_MOVE
    assert legal.certain_problem(here) == Reason.ROBBER_MUST_MOVE
    knight_here = Knight(Timing.AFTER_ROLL, here)
    s.cards[0].append((KNIGHT, s.round - 1))
    assert LegalMoves(s, 0).certain_problem(knight_here) == Reason.ROBBER_MUST_MOVE
    s.cards[0].pop()
    sea = next(h.id for h in s.board.hexes if not h.is_land)
    assert legal.problem(RobberOrder(sea)) == legal.certain_problem(RobberOrder(sea))
    assert legal.certain_problem(RobberOrder(sea)) == Reason.ROBBER_NOT_ON_NUMBER
    fresh = s.copy()
    fresh.cards[0] = [(KNIGHT, fresh.round), (ROAD_BUILDING, fresh.round - 1)]
    view = LegalMoves(fresh, 0)
    knight = Knight(Timing.BEFORE_ROLL, RobberOrder(view.robber_hexes()[0]))
    assert view.problem(knight) == Reason.CARD_BOUGHT_THIS_ROUND
    assert view.certain_problem(knight) == Reason.CARD_NOT_HELD
    assert view.playable_cards() == [ROAD_BUILDING]
    fresh.last_card_round[0] = fresh.round
    assert LegalMoves(fresh, 0).playable_cards() == []
    assert cards.play_rule(fresh, 0, ROAD_BUILDING) == Reason.ONE_CARD_PER_ROUND
    assert cards.card_held_rule(fresh, 0, ROAD_BUILDING) is None
    assert LegalMoves(fresh, 0).certain_problem(YearOfPlenty(1, 2)) == Reason.CARD_NOT_HELD
    poor = s.copy()
    poor.hands[0] = [0] * 5
    t = MaritimeTrade(0, 4, 1)
    assert trade.maritime_rule(poor, 0, t) == Reason.CARDS_NOT_HELD
    assert trade.maritime_terms_rule(poor, 0, t) is None
    assert LegalMoves(poor, 0).certain_problem(t) is None
    assert LegalMoves(poor, 0).certain_problem(MaritimeTrade(0, 3, 1)) == (
        Reason.BELOW_HARBOUR_RATE if trade.harbour_rate(poor, 0, 0) == 4 else None
    )


def test_the_view_never_changes_the_state() -> None:
    for s in _round_positions()[::10]:
        before = state_to_json(s)
        for p in range(s.settings.players):
            legal = LegalMoves(s, p)
            list(legal)
            legal.robber_hexes()
            legal.setup_placements()
            for e in legal.roads():
                nxt = legal.after(Road(e))
                assert nxt.state.road[e] == p and s.road[e] == -1
            for c in legal.settlements():
                assert legal.after(Settlement(c)).state.owner[c] == p
            for c in legal.cities():
                assert legal.after(City(c)).state.level[c] == 2
        assert state_to_json(s) == before


def test_after_builds_only_what_is_not_certain_to_fail() -> None:
    s = next(x for x in _round_positions()[30:] if LegalMoves(x, 0).roads())
    legal = LegalMoves(s, 0)
    theirs = next(c for c, o in enumerate(s.owner) if o > 0)
    assert legal.after(Settlement(theirs)) is legal
    assert legal.after(City(theirs)) is legal
    assert legal.after(BuyCard()) is legal
    first = legal.roads()[0]
    nxt = legal.after(Alternatives((Settlement(theirs), Road(first))))
    assert nxt.state.road[first] == 0 and s.road[first] == -1
    assert nxt.after(Road(first)) is nxt  # now taken
    assert legal.after(RoadBuilding(first)) is legal  # seat 0 holds no road building
    held = s.copy()
    held.cards[0] = [(ROAD_BUILDING, 0)]
    both = LegalMoves(held, 0).after(RoadBuilding(first, first))  # the second cannot follow
    assert both.state.roads[0] == [*s.roads[0], first]
