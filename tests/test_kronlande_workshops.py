"""Workshops and goods (spec kronlande.md, "Buildings"): a workshop on one of the player's own
settlements or cities, one a building, one of each kind a player, for 1 Holz, 1 Lehm, 1 Stein;
`Herstellen 2 Brot` makes goods in the build step as often as the player likes, all or none."""

from __future__ import annotations

from kron_fixtures import cards, free_crossing, kron_game, play, set_hand, settle_at
from rules_fixtures import of

from pbm.rules.events import Built, OrderFailed
from pbm.rules.kron import BAECKEREI, SCHMIEDE, WEBEREI
from pbm.rules.kron_events import FishPaid, GoodsMade
from pbm.rules.legal import LegalMoves
from pbm.rules.orders import Make, TurnOrders, Workshop
from pbm.rules.reasons import Reason
from pbm.rules.resources import BROT, STOFF, WERKZEUG, WOLLE
from pbm.rules.state import GameState


def _two_buildings() -> tuple[GameState, int, int]:
    s = kron_game()
    a = settle_at(s, 0, free_crossing(s, s.board.robber_hexes[0]))
    b = settle_at(s, 0, free_crossing(s, s.board.robber_hexes[-1]), level=2)
    return s, a, b


def test_a_workshop_on_an_own_building_for_holz_lehm_stein() -> None:
    s, a, _ = _two_buildings()
    set_hand(s, 0, Holz=1, Lehm=1, Stein=1, Wolle=1)
    after, events = play(s, s0=TurnOrders(builds=(Workshop(BAECKEREI, a),)))
    assert of(events, Built) == [Built(0, "bakery", a, False)]
    assert cards(after, 0) == {"Wolle": 1}
    assert after.kron is not None and after.kron.workshop[a] == BAECKEREI
    assert after.kron.workshops[0] == [-1, -1, a]


def test_where_a_workshop_may_not_stand() -> None:
    s, a, b = _two_buildings()
    theirs = settle_at(s, 1, free_crossing(s, s.board.robber_hexes[3]))
    s.kron.workshop[a] = SCHMIEDE  # type: ignore[union-attr]
    s.kron.workshops[0][SCHMIEDE] = a  # type: ignore[union-attr]
    legal = LegalMoves(s, 0)
    empty = next(c for c in range(len(s.owner)) if s.owner[c] < 0)
    assert legal.problem(Workshop(WEBEREI, theirs)) == Reason.NOT_OWN_BUILDING
    assert legal.problem(Workshop(WEBEREI, empty)) == Reason.NOT_OWN_BUILDING
    assert legal.problem(Workshop(WEBEREI, a)) == Reason.WORKSHOP_ON_BUILDING
    assert legal.problem(Workshop(SCHMIEDE, b)) == Reason.WORKSHOP_KIND_HELD
    assert legal.problem(Workshop(WEBEREI, b)) is None
    assert legal.workshops() == [Workshop(WEBEREI, b), Workshop(BAECKEREI, b)]
    set_hand(s, 0, Holz=1, Lehm=1)
    _, events = play(s, s0=TurnOrders(builds=(Workshop(WEBEREI, b),)))
    (fail,) = of(events, OrderFailed)
    assert fail.rule == Reason.CANNOT_AFFORD and fail.missing == (0, 0, 0, 0, 0, 1, 0, 0, 0, 0)
    assert fail.action == f"workshop:{WEBEREI},{b}"


def test_one_of_each_kind_even_in_the_same_build_step() -> None:
    s, a, b = _two_buildings()
    set_hand(s, 0, Holz=2, Lehm=2, Stein=2)
    lines = (Workshop(SCHMIEDE, a), Workshop(SCHMIEDE, b))
    _, events = play(s, s0=TurnOrders(builds=lines))
    assert [e.rule for e in of(events, OrderFailed)] == [Reason.WORKSHOP_KIND_HELD]
    lines = (Workshop(SCHMIEDE, a), Workshop(WEBEREI, a))
    _, events = play(s, s0=TurnOrders(builds=lines))
    assert [e.rule for e in of(events, OrderFailed)] == [Reason.WORKSHOP_ON_BUILDING]


def test_goods_are_made_as_often_as_the_hand_pays_all_or_none() -> None:
    s, a, b = _two_buildings()
    for kind, c in ((SCHMIEDE, a), (WEBEREI, b)):
        s.kron.workshop[c] = kind  # type: ignore[union-attr]
        s.kron.workshops[0][kind] = c  # type: ignore[union-attr]
    set_hand(s, 0, Holz=2, Erz=2, Wolle=3)
    lines = (Make(WERKZEUG, 2), Make(STOFF, 2), Make(STOFF, 1))
    after, events = play(s, s0=TurnOrders(builds=lines))
    assert of(events, GoodsMade) == [GoodsMade(0, WERKZEUG, 2), GoodsMade(0, STOFF, 1)]
    (fail,) = of(events, OrderFailed)
    assert fail.rule == Reason.CANNOT_AFFORD and fail.line == "build 2"
    assert fail.missing[WOLLE] == 1
    assert cards(after, 0) == {"Wolle": 1, "Werkzeug": 2, "Stoff": 1}


def test_bread_takes_getreide_and_fisch_and_fisch_stands_in_for_getreide() -> None:
    s, a, _ = _two_buildings()
    s.kron.workshop[a] = BAECKEREI  # type: ignore[union-attr]
    s.kron.workshops[0][BAECKEREI] = a  # type: ignore[union-attr]
    set_hand(s, 0, Getreide=1, Fisch=3)
    after, events = play(s, s0=TurnOrders(builds=(Make(BROT, 2),)))
    assert of(events, FishPaid) == [FishPaid(0, 1)]
    assert of(events, GoodsMade) == [GoodsMade(0, BROT, 2)]
    assert cards(after, 0) == {"Brot": 2}


def test_no_goods_without_the_workshop_and_nothing_but_goods() -> None:
    s, a, _ = _two_buildings()
    legal = LegalMoves(s, 0)
    assert legal.goods() == []
    assert legal.problem(Make(BROT, 1)) == Reason.NO_WORKSHOP
    assert legal.problem(Make(WOLLE, 1)) == Reason.NOT_A_GOOD
    assert legal.problem(Make(BROT, 0)) == Reason.NOT_A_GOOD
    # A workshop ordered in an earlier line is there for the later lines at receipt.
    after = legal.after(Workshop(BAECKEREI, a))
    assert after.certain_problem(Make(BROT, 3)) is None and after.goods() == [BROT]
    set_hand(s, 0, Holz=1, Lehm=1, Stein=1, Getreide=1, Fisch=1)
    done, events = play(s, s0=TurnOrders(builds=(Workshop(BAECKEREI, a), Make(BROT, 1))))
    assert not of(events, OrderFailed) and cards(done, 0) == {"Brot": 1}
