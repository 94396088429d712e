"""Burg and Residenz (spec kronlande.md, "Buildings"): the upgrades, their costs, VP and yields,
the robber never next to them (an illegal move; the NMR robber rule skips such hexes; a Burg
built next to the robber sends it to a desert without one, or off the island), and the title
Baumeister."""

from __future__ import annotations

from kron_fixtures import Rolls, cards, free_crossing, kron_game, play, set_hand, settle_at
from rules_fixtures import of

from pbm.rules.board import Terrain
from pbm.rules.events import Built, OrderFailed, Produced, RobberMoved, TitleChanged
from pbm.rules.kron import BURG, RESIDENZ
from pbm.rules.legal import LegalMoves
from pbm.rules.orders import Castle, City, Knight, Residence, RobberOrder, Timing, TurnOrders
from pbm.rules.reasons import Reason
from pbm.rules.robber import robber_hex_rule
from pbm.rules.round import resolve_round
from pbm.rules.serial import state_from_json, state_from_text, state_to_json, state_to_text
from pbm.rules.state import GameState


def _city(s: GameState, p: int, i: int) -> int:
    return settle_at(s, p, free_crossing(s, s.board.robber_hexes[i]), level=2)


def test_a_city_becomes_a_burg_and_a_burg_a_residenz() -> None:
    s = kron_game()
    c = _city(s, 0, 0)
    set_hand(s, 0, Stein=5, Werkzeug=2, Brot=3, Stoff=1)
    assert s.visible_vp(0) == 2
    after, events = play(s, s0=TurnOrders(builds=(Castle(c), Residence(c))))
    assert [(e.piece, e.where) for e in of(events, Built)] == [("castle", c), ("residence", c)]
    assert cards(after, 0) == {}
    assert after.kron is not None and after.kron.castle[c] == RESIDENZ
    assert after.level[c] == 3 and c in after.cities[0]
    assert after.visible_vp(0) == 5
    one, _ = play(s, s0=TurnOrders(builds=(Castle(c),)))
    assert one.kron is not None and one.kron.castle[c] == BURG and one.level[c] == 2
    assert one.visible_vp(0) == 3


def test_what_may_be_upgraded() -> None:
    s = kron_game()
    c = _city(s, 0, 0)
    town = settle_at(s, 0, free_crossing(s, s.board.robber_hexes[4]))
    theirs = _city(s, 1, 8)
    legal = LegalMoves(s, 0)
    assert legal.castles() == [c] and legal.residences() == []
    assert legal.problem(Castle(town)) == Reason.NOT_OWN_CITY
    assert legal.problem(Castle(theirs)) == Reason.NOT_OWN_CITY
    assert legal.problem(Residence(c)) == Reason.NOT_OWN_CASTLE
    after = legal.after(Castle(c))
    assert after.residences() == [c] and after.castles() == []
    assert after.problem(Castle(c)) == Reason.NOT_OWN_CITY
    # A city ordered in an earlier line can be upgraded in a later one.
    assert legal.after(City(town)).certain_problem(Castle(town)) is None
    set_hand(s, 0, Stein=3, Werkzeug=1)
    _, events = play(s, s0=TurnOrders(builds=(Castle(c),)))
    (fail,) = of(events, OrderFailed)
    assert fail.rule == Reason.CANNOT_AFFORD and fail.missing == (0,) * 9 + (1,)


def test_a_burg_yields_two_and_a_residenz_three() -> None:
    s = kron_game()
    h = s.board.robber_hexes[2]
    c = settle_at(s, 0, free_crossing(s, h), level=3)
    _, events = play(s, s.board.hexes[h].number)
    res = s.board.hexes[h].resource
    assert Produced(0, h, res, 2) in of(events, Produced)  # type: ignore[arg-type]
    s.kron.castle[c] = RESIDENZ  # type: ignore[union-attr]
    s.level[c] = 3
    s.rebuild_indexes()
    _, events = play(s, s.board.hexes[h].number)
    assert Produced(0, h, res, 3) in of(events, Produced)  # type: ignore[arg-type]


def test_the_robber_never_goes_next_to_a_burg_or_residenz() -> None:
    s = kron_game()
    h = s.board.robber_hexes[2]
    settle_at(s, 1, free_crossing(s, h), level=3)
    legal = LegalMoves(s, 0)
    assert robber_hex_rule(s, 0, h) == Reason.ROBBER_NEXT_TO_CASTLE
    assert legal.certain_problem(RobberOrder(h, (1,))) == Reason.ROBBER_NEXT_TO_CASTLE
    assert h not in legal.robber_hexes()
    knight = Knight(Timing.BEFORE_ROLL, RobberOrder(h, (1,)))
    assert legal.certain_problem(knight) in (Reason.CARD_NOT_HELD, Reason.ROBBER_NEXT_TO_CASTLE)
    _, events = play(s, 7, s0=TurnOrders(robber=RobberOrder(h, (1,))))
    assert [e.rule for e in of(events, OrderFailed) if e.player == 0] == [
        Reason.ROBBER_NEXT_TO_CASTLE
    ]
    # Every 7 of the round went by the NMR robber rule, never next to the Burg.
    moves = of(events, RobberMoved)
    assert moves and all(m.hex != h for m in moves)


def test_the_nmr_robber_skips_hexes_next_to_a_castle() -> None:
    s = kron_game()
    for i, h in enumerate(s.board.robber_hexes[:6]):
        settle_at(s, 1 + i % 3, free_crossing(s, h), level=3)
    castled = {h for h in s.board.robber_hexes if robber_hex_rule(s, 0, h) is not None}
    for seed in range(5):
        _, events = resolve_round(s, {q: None for q in range(4)}, Rolls((3, 4), 4, seed))
        for m in of(events, RobberMoved):
            assert m.hex not in castled or m.hex == s.robber


def test_a_burg_built_next_to_the_robber_sends_it_back_to_the_desert() -> None:
    s = kron_game()
    h = s.board.robber_hexes[5]
    c = settle_at(s, 0, free_crossing(s, h), level=2)
    s.robber = h
    set_hand(s, 0, Stein=3, Werkzeug=1, Brot=1)
    after, events = play(s, s0=TurnOrders(builds=(Castle(c),)))
    assert RobberMoved(0, s.board.robber_start, "castle") in events  # type: ignore[arg-type]
    assert after.robber == s.board.robber_start


def _deserts(s: GameState) -> list[int]:
    return [x.id for x in s.board.hexes if x.terrain == Terrain.DESERT]


def _next_to_castle(s: GameState, h: int) -> bool:
    assert s.kron is not None
    return any(s.kron.castle[c] for c in s.board.hex_crossings[h])


def test_a_burg_next_to_the_desert_sends_the_robber_to_the_next_free_desert() -> None:
    """The large island has two deserts: a Burg next to the one the robber stands on sends it to
    the other (label order), never a move to where it stands."""
    s = kron_game(seed=1)
    first, second = _deserts(s)
    assert s.robber == first
    c = settle_at(s, 0, free_crossing(s, first), level=2)
    set_hand(s, 0, Stein=3, Werkzeug=1, Brot=1)
    after, events = play(s, s0=TurnOrders(builds=(Castle(c),)))
    assert of(events, RobberMoved) == [RobberMoved(0, second, "castle")]
    assert after.robber == second and not _next_to_castle(after, after.robber)


def test_a_burg_sends_the_robber_off_the_island_when_no_desert_is_free() -> None:
    """Every desert next to a Burg: the robber leaves the island (-1) rather than stand next to
    one or block a roll by lot; the next 7 puts it onto a legal hex again."""
    s = kron_game(seed=1)
    first, second = _deserts(s)
    settle_at(s, 1, free_crossing(s, second), level=3)
    h = next(
        x
        for x in s.board.robber_hexes
        if not _next_to_castle(s, x)
        and not set(s.board.hex_crossings[x]) & set(s.board.hex_crossings[first])
    )
    s.robber = h
    c = settle_at(s, 0, free_crossing(s, h), level=2)
    settle_at(s, 0, free_crossing(s, first), level=3)
    set_hand(s, 0, Stein=3, Werkzeug=1, Brot=1)
    after, events = play(s, s0=TurnOrders(builds=(Castle(c),)))
    assert of(events, RobberMoved) == [RobberMoved(0, -1, "castle")]
    assert after.robber == -1
    for back in (state_from_json(state_to_json(after)), state_from_text(state_to_text(after))):
        assert back.robber == -1
    target = next(x for x in after.board.robber_hexes if not _next_to_castle(after, x))
    assert robber_hex_rule(after, 1, target) is None
    again, events = play(after, 7, s1=TurnOrders(robber=RobberOrder(target, (0,))))
    assert again.robber >= 0 and not _next_to_castle(again, again.robber)


def test_a_burg_on_the_only_desert_of_the_huge_island_sends_the_robber_off() -> None:
    s = kron_game(seed=1, size="huge")
    (desert,) = _deserts(s)
    assert s.robber == desert
    c = settle_at(s, 0, free_crossing(s, desert), level=2)
    set_hand(s, 0, Stein=3, Werkzeug=1, Brot=1)
    after, events = play(s, s0=TurnOrders(builds=(Castle(c),)))
    assert of(events, RobberMoved) == [RobberMoved(0, -1, "castle")]
    assert after.robber == -1


def test_baumeister_needs_two_and_passes_only_to_someone_with_more() -> None:
    s = kron_game()
    a0, b0, c0 = (_city(s, 0, i) for i in (0, 4, 8))
    a1, b1 = (_city(s, 1, i) for i in (12, 16))
    for p in (0, 1):
        set_hand(s, p, Stein=9, Werkzeug=3, Brot=3, Stoff=1)
    s1, events = play(s, s0=TurnOrders(builds=(Castle(a0),)))
    assert not of(events, TitleChanged) and s1.kron.builder == -1  # type: ignore[union-attr]
    # Round 2: seat 1 builds first and reaches 2; seat 0 then has 2 as well: not more.
    s2, events = play(
        s1, s0=TurnOrders(builds=(Castle(b0),)), s1=TurnOrders(builds=(Castle(a1), Castle(b1)))
    )
    assert of(events, TitleChanged) == [TitleChanged("builder", -1, 1, 2)]
    assert s2.visible_vp(1) == 3 * 2 + 2
    assert s2.visible_vp(0) == 3 * 2 + 2  # two Burgen and a city
    s3, events = play(s2, s0=TurnOrders(builds=(Castle(c0),)))
    assert of(events, TitleChanged) == [TitleChanged("builder", 1, 0, 3)]
    assert s3.visible_vp(0) == 3 * 3 + 2 and s3.visible_vp(1) == 6
    # A Residenz was a Burg: the count stays, and so does the title.
    set_hand(s3, 1, Stein=2, Werkzeug=1, Stoff=1, Brot=2)
    s4, events = play(s3, s1=TurnOrders(builds=(Residence(a1),)))
    assert of(events, Built) == [Built(1, "residence", a1, False)]
    assert not of(events, TitleChanged) and s4.kron.builder == 0  # type: ignore[union-attr]
    assert s4.visible_vp(1) == 5 + 3


def test_castles_and_workshops_survive_both_state_forms() -> None:
    s = kron_game()
    c = settle_at(s, 0, free_crossing(s, s.board.robber_hexes[0]), level=4)
    d = settle_at(s, 1, free_crossing(s, s.board.robber_hexes[9]), level=3)
    s.kron.workshop[d] = 1  # type: ignore[union-attr]
    s.kron.privilege[2] = 1  # type: ignore[union-attr]
    s.rebuild_indexes()
    for back in (state_from_json(state_to_json(s)), state_from_text(state_to_text(s))):
        assert back == s and back.level[c] == 3 and back.kron is not None
        assert back.kron.residenzen == [1, 0, 0, 0] and back.kron.burgen == [0, 1, 0, 0]
        assert back.kron.workshops[1] == [-1, d, -1]
        assert back.visible_vp(0) == s.visible_vp(0) == 5
    assert f"{c}:0r" in state_to_text(s)
