"""The Great Crossing's trade lines (issue 18; seed 001, "Den store overfart" and "Eksempler til
Den store overfart"; spec seafarers.md, "Special victory points"): each example of the seed
worked on the 4-player board, then cut lines, branches, ties and the points in the VP totals.

The strait of the board: Catanien's south coast is row D, Transcatanien's north coast row G,
rows E and F are sea. A shortest crossing runs from D5 E5 E6 (Catanien) over the sides E5 E6,
E6 F5 and F5 F6 to F5 F6 G6 (Transcatanien).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbm.rules import building
from pbm.rules.events import Event, SetupFailed
from pbm.rules.reasons import Reason
from pbm.rules.sea import SeaState
from pbm.rules.sea_events import TradeLineGained, TradeLineLost
from pbm.rules.serial import state_from_json, state_to_json
from pbm.rules.ships import movable_rule, move_rule, move_ship, place_ship, ship_rule
from pbm.rules.state import GameState, Phase, Settings, new_game
from pbm.rules.trade_lines import Line, find_lines, holder, islands, piece_owners
from tests.helpers import crossing, path, settle

RED, BLUE, WHITE, YELLOW = 0, 1, 2, 3

# Catanien's coast and the strait.
R4 = "D4 E4 E5"  # Catanien, the bottom corner of D4
R45 = "D4 D5 E5"  # Catanien coast, between D4 and D5
X1 = "D5 E5 E6"  # Catanien, the bottom corner of D5
X2 = "E5 E6 F5"  # sea
X3 = "E6 F5 F6"  # sea
X4 = "F5 F6 G6"  # Transcatanien, the top corner of G6
G_RIGHT = "F6 G6 G7"  # Transcatanien coast, next to X4
G_INLAND = "G6 G7 H6"  # Transcatanien, inland of G_RIGHT
# The other way round F6, from X3 to Transcatanien's top corner of G7.
E_TOP = "E6 E7 F6"
E_RIGHT = "E7 F6 F7"
G7_TOP = "F6 F7 G7"


def _game() -> tuple[GameState, SeaState]:
    s = new_game(Settings.for_scenario("ueberfahrt", 4, pirate=False), 1)
    s.phase = Phase.ROUNDS
    s.round = 3
    s.setup_step = 8
    assert s.sea is not None
    return s, s.sea


def _ship(s: GameState, p: int, labels: str, events: list[Event] | None = None) -> int:
    """A ship of p, built where the rules let p build it (cost aside)."""
    assert s.sea is not None
    e = path(s, labels)
    assert ship_rule(s, s.sea, p, e, check_cost=False) is None, labels
    place_ship(s, s.sea, p, e, [] if events is None else events, free=True)
    return e


def _road(s: GameState, p: int, labels: str, events: list[Event] | None = None) -> int:
    e = path(s, labels)
    assert building.road_rule(s, p, e, check_cost=False) is None, labels
    building.place_road(s, p, e, [] if events is None else events, free=True)
    return e


def _lines(sea: SeaState) -> list[tuple[int, int, int]]:
    return sea.lines


def _gained(events: list[Event]) -> list[TradeLineGained]:
    return [e for e in events if isinstance(e, TradeLineGained)]


def _lost(events: list[Event]) -> list[TradeLineLost]:
    return [e for e in events if isinstance(e, TradeLineLost)]


def test_the_two_islands_are_catanien_and_transcatanien() -> None:
    s, sea = _game()
    assert islands(s, sea) == (1, 2)
    assert s.board.crossing_areas[crossing(s, X1)] == (1,)
    assert s.board.crossing_areas[crossing(s, X4)] == (2,)


def test_example_1_a_direct_line_by_own_ships_to_a_foreign_building() -> None:
    """Seed example 1 ("Eksempler til Den store overfart", 1): a player's ships make a direct
    trade line from the player's own building to a foreign building on the other island."""
    s, sea = _game()
    red = settle(s, RED, X1)
    white = settle(s, WHITE, X4)
    events: list[Event] = []
    _ship(s, RED, "E5 E6", events)
    _ship(s, RED, "E6 F5", events)
    assert sea.lines == [] and not _gained(events)
    _ship(s, RED, "F5 F6", events)
    assert _gained(events) == [TradeLineGained(RED, red, white, 3, 3)]
    assert sea.lines == [(red, white, RED)]
    assert sea.line_vp(RED) == 1 and sea.line_vp(WHITE) == 0
    # One VP more in the totals: one settlement and the line.
    assert s.visible_vp(RED) == 2 and s.visible_vp(WHITE) == 1


def test_example_2_ships_reaching_an_opponents_road_make_an_indirect_line() -> None:
    """Seed example 2: a player's ships reach an opponent's road, so there is an indirect trade
    line between the player's building and the building on the other island. The one who put
    more pieces (ships, or ships and roads) into it scores: red 3 ships, white 2 roads."""
    s, sea = _game()
    red = settle(s, RED, X1)
    white = settle(s, WHITE, G_INLAND)
    _road(s, WHITE, "G6 G7")
    _road(s, WHITE, "F6 G6")  # white's road reaches the coast at F5 F6 G6
    events: list[Event] = []
    _ship(s, RED, "E5 E6", events)
    _ship(s, RED, "E6 F5", events)
    _ship(s, RED, "F5 F6", events)  # meets white's road at F5 F6 G6, where no one has built
    assert _gained(events) == [TradeLineGained(RED, red, white, 5, 3)]
    assert sea.lines == [(red, white, RED)]


def test_example_2_the_opponent_with_more_road_in_it_scores() -> None:
    """Seed example 2 the other way round: the opponent's road is the longer part of the
    line, so the opponent has contributed more and scores (white 4 roads, red 3 ships)."""
    s, sea = _game()
    red = settle(s, RED, X1)
    white = settle(s, WHITE, "G7 G8 H7")
    for labels in ("G7 H7", "G7 H6", "G6 G7", "F6 G6"):
        _road(s, WHITE, labels)
    events: list[Event] = []
    for labels in ("E5 E6", "E6 F5", "F5 F6"):
        _ship(s, RED, labels, events)
    assert _gained(events) == [TradeLineGained(WHITE, red, white, 7, 4)]
    assert sea.line_vp(WHITE) == 1 and sea.line_vp(RED) == 0


def test_example_3_settling_on_the_other_island_makes_a_direct_line() -> None:
    """Seed example 3: a player reaches the other island with ships and builds there (distance
    rule), which makes a direct trade line between the islands. A line is not led on past a
    building: once red builds at F5 F6 G6 there is no line from red's building on Catanien to
    the white building beyond it."""
    s, sea = _game()
    red = settle(s, RED, X1)
    white = settle(s, WHITE, G_INLAND)
    _road(s, WHITE, "G6 G7")
    _road(s, WHITE, "F6 G6")
    for labels in ("E5 E6", "E6 F5", "F5 F6"):
        _ship(s, RED, labels)
    assert sea.lines == [(red, white, RED)]  # example 2 so far
    there = crossing(s, X4)
    assert building.settlement_rule(s, RED, there, check_cost=False) is None
    events: list[Event] = []
    building.place_settlement(s, RED, there, events, free=False)
    assert _lost(events) == [TradeLineLost(RED, red, white)]
    assert _gained(events) == [TradeLineGained(RED, red, there, 3, 3)]
    assert sea.lines == [(red, there, RED)]
    assert all(b != white for _, b, _ in sea.lines)


def test_example_4_an_indirect_line_through_an_opponents_ships() -> None:
    """Seed example 4: red's ships join white's ships, an indirect line between red's building
    and white's on the other island; red put in more ships (2 against 1) and gets the VP."""
    s, _sea = _game()
    red = settle(s, RED, X1)
    white = settle(s, WHITE, X4)
    s.round = 2
    _ship(s, WHITE, "F5 F6")  # white's ship reaches E6 F5 F6
    events: list[Event] = []
    s.round = 3
    _ship(s, RED, "E5 E6", events)
    _ship(s, RED, "E6 F5", events)  # joins white's ship at E6 F5 F6
    assert _gained(events) == [TradeLineGained(RED, red, white, 3, 2)]
    assert s.visible_vp(RED) == 2


def test_example_4_white_cuts_the_joined_line_and_red_fills_the_gap() -> None:
    """Seed example 4, the remark: two players' ship lines that make a trade line together count
    as an open line, so either may take away the front ship of their own line and cut it; the
    holder gives the VP back. White has no joy of the line and moves its ship away; red loses
    the VP, and gets it again by filling the gap with a ship of its own."""
    s, sea = _game()
    red = settle(s, RED, X1)
    white = settle(s, WHITE, X4)
    s.round = 2
    white_ship = _ship(s, WHITE, "F5 F6")
    _ship(s, RED, "E5 E6")
    red_front = _ship(s, RED, "E6 F5")
    assert sea.lines == [(red, white, RED)]
    s.round = 3
    # Joined, each line is still open: both front ships may be moved.
    assert movable_rule(s, sea, WHITE, white_ship) is None
    assert movable_rule(s, sea, RED, red_front) is None
    away = path(s, "F6 G6")  # white sails along its own coast instead
    assert move_rule(s, sea, WHITE, white_ship, away) is None
    events: list[Event] = []
    move_ship(s, sea, WHITE, white_ship, away, events)
    assert _lost(events) == [TradeLineLost(RED, red, white)]
    assert sea.lines == [] and s.visible_vp(RED) == 1
    events = []
    s.round = 4
    _ship(s, RED, "F5 F6", events)  # red's own ship where white's stood
    assert _gained(events) == [TradeLineGained(RED, red, white, 3, 3)]
    assert sea.line_vp(RED) == 1


def test_example_5_a_branch_makes_two_lines() -> None:
    """Seed example 5: branches are allowed; red's ships join white's ships, which branch to
    two buildings on the other island: two indirect lines, red put more into each (4 ships
    against 1 and against 3) and gets 2 VP."""
    s, sea = _game()
    red = settle(s, RED, R4)
    w1 = settle(s, WHITE, X4)
    w2 = settle(s, WHITE, G7_TOP)
    s.round = 2
    _ship(s, WHITE, "F5 F6")  # from F5 F6 G6 to the junction E6 F5 F6
    _ship(s, WHITE, "F6 F7")  # from F6 F7 G7 …
    _ship(s, WHITE, "E7 F6")
    _ship(s, WHITE, "E6 F6")  # … to the junction
    assert sea.lines == []  # white's own ships join only Transcatanien's buildings
    s.round = 3
    events: list[Event] = []
    for labels in ("D4 E5", "D5 E5", "E5 E6", "E6 F5"):
        _ship(s, RED, labels, events)
    assert _gained(events) == [
        TradeLineGained(RED, red, w1, 5, 4),
        TradeLineGained(RED, red, w2, 7, 4),
    ]
    assert sea.line_vp(RED) == 2 and s.visible_vp(RED) == 3


def test_a_branch_of_the_players_own_ships_makes_two_direct_lines() -> None:
    """Branches of one player's own line: one line from red's building splits at sea to two
    buildings on the other island, two direct lines."""
    s, sea = _game()
    red = settle(s, RED, X1)
    w1 = settle(s, WHITE, X4)
    w2 = settle(s, BLUE, G7_TOP)
    for labels in ("E5 E6", "E6 F5", "F5 F6", "E6 F6", "E7 F6", "F6 F7"):
        _ship(s, RED, labels)
    assert sea.lines == [(red, w1, RED), (red, w2, RED)]


def test_a_tie_goes_to_the_player_who_closed_the_line() -> None:
    """Seed: "if both players have contributed the same number, the one who closed the line
    gets the VP" (2 ships each, white's ship last)."""
    s, _sea = _game()
    red = settle(s, RED, X1)
    white = settle(s, WHITE, G_RIGHT)
    _ship(s, RED, "E5 E6")
    _ship(s, RED, "E6 F5")
    _ship(s, WHITE, "F6 G6")
    events: list[Event] = []
    _ship(s, WHITE, "F5 F6", events)  # white closes it
    assert _gained(events) == [TradeLineGained(WHITE, red, white, 4, 2)]


def test_a_tie_closed_by_the_other_player() -> None:
    s, _sea = _game()
    red = settle(s, RED, X1)
    white = settle(s, WHITE, G_RIGHT)
    _ship(s, WHITE, "F6 G6")
    _ship(s, WHITE, "F5 F6")
    _ship(s, RED, "E5 E6")
    events: list[Event] = []
    _ship(s, RED, "E6 F5", events)  # red closes it
    assert _gained(events) == [TradeLineGained(RED, red, white, 4, 2)]


def test_more_pieces_win_whoever_closes() -> None:
    s, _sea = _game()
    red = settle(s, RED, R45)
    white = settle(s, WHITE, X4)
    _ship(s, RED, "D5 E5")
    _ship(s, RED, "E5 E6")
    _ship(s, RED, "E6 F5")
    events: list[Event] = []
    _ship(s, WHITE, "F5 F6", events)  # white closes, red has 3 of the 4 ships
    assert _gained(events) == [TradeLineGained(RED, red, white, 4, 3)]


def test_holder_on_a_tie_keeps_the_line_then_the_actor_then_build_order() -> None:
    owner = [-1] * 3
    owner[0], owner[2] = RED, WHITE
    line = Line(0, 2, (0, 1))
    piece = [RED, WHITE]
    assert holder(line, owner, piece, 4, WHITE, RED, [0, 1, 2, 3]) == WHITE
    assert holder(line, owner, piece, 4, -1, RED, [0, 1, 2, 3]) == RED
    # Closed by a third player's step: the tied owner who builds first in the round.
    assert holder(line, owner, piece, 4, -1, BLUE, [2, 3, 0, 1]) == WHITE
    assert holder(line, owner, piece, 4, -1, BLUE, [3, 0, 1, 2]) == RED


def test_a_building_between_the_ends_cuts_the_line() -> None:
    """A line ends at a building: white builds on its road where red's ships meet it, so the
    line red held to white's inland settlement is gone; red's ships now end at white's new
    settlement, a line red holds by its three ships (white has no piece in it)."""
    s, _sea = _game()
    red = settle(s, RED, X1)
    inland = settle(s, WHITE, G_INLAND)
    _road(s, WHITE, "G6 G7")
    _road(s, WHITE, "F6 G6")
    for labels in ("E5 E6", "E6 F5", "F5 F6"):
        _ship(s, RED, labels)
    events: list[Event] = []
    coast = crossing(s, X4)
    building.place_settlement(s, WHITE, coast, events, free=True)
    assert _lost(events) == [TradeLineLost(RED, red, inland)]
    assert _gained(events) == [TradeLineGained(RED, red, coast, 3, 3)]


def test_a_moved_ship_of_the_holder_cuts_its_own_line() -> None:
    s, sea = _game()
    settle(s, RED, X1)
    settle(s, WHITE, X4)
    s.round = 2
    for labels in ("E5 E6", "E6 F5", "F5 F6"):
        _ship(s, RED, labels)
    assert sea.line_vp(RED) == 1
    s.round = 3
    front = path(s, "F5 F6")  # touches white's building, not red's: the front of an open line
    assert movable_rule(s, sea, RED, front) is None
    events: list[Event] = []
    move_ship(s, sea, RED, front, path(s, "E6 F6"), events)
    assert len(_lost(events)) == 1 and sea.lines == []


def test_a_line_between_two_own_buildings_is_closed_and_stays() -> None:
    """Red's ships from its building on Catanien to its own on Transcatanien: a closed line,
    its ships never move, so no one can cut it."""
    s, sea = _game()
    settle(s, RED, X1)
    settle(s, RED, X4)
    s.round = 2
    ships = [_ship(s, RED, labels) for labels in ("E5 E6", "E6 F5", "F5 F6")]
    assert sea.line_vp(RED) == 1
    s.round = 3
    assert all(movable_rule(s, sea, RED, e) == Reason.SHIP_LINE_CLOSED for e in ships)


def test_a_third_players_pieces_count_for_no_one() -> None:
    """Only the owners of the two end buildings claim a line: blue's ships between red's and
    white's buildings make a line no one scores, and blue's ship in a line counts for neither
    side."""
    s, sea = _game()
    blue = settle(s, BLUE, R4)
    red = settle(s, RED, X1)
    white = settle(s, WHITE, X4)
    # Blue sails round red's building at D5 E5 E6 to white's, and puts a ship at red's too.
    for labels in ("E4 E5", "E5 F4", "E5 F5", "E6 F5", "F5 F6", "E5 E6"):
        _ship(s, BLUE, labels)
    lines = find_lines(s.board, s.owner, piece_owners(s, sea), (1, 2))
    assert [(x.start, x.end) for x in lines] == sorted([(blue, white), (red, white)])
    # Blue's own line is direct; the one from red's building is all blue's ships: no one's.
    assert sea.lines == [(blue, white, BLUE)]


def test_no_line_to_an_islet_nor_between_buildings_of_one_island() -> None:
    """Lines run between the two large islands only."""
    s, sea = _game()
    settle(s, RED, X1)
    settle(s, RED, "D3 D4 E4")
    for labels in ("D4 E4", "D4 E5", "D5 E5"):
        _ship(s, RED, labels)
    # D3 D4 E4 and D5 E5 E6 joined by red's ships: both on Catanien, no line.
    assert sea.lines == []
    settle(s, RED, "B5 B6 C6")  # Catanien's east coast …
    settle(s, WHITE, "B6 B7 C7")  # … and the north-east islet across a sea hex
    assert s.board.crossing_areas[crossing(s, "B6 B7 C7")] == (3,)
    for labels in ("B6 C6", "B6 C7"):
        _ship(s, RED, labels)
    assert sea.lines == []


def test_roads_and_ships_join_at_an_empty_crossing_for_a_line() -> None:
    """A line runs on over a road where a ship meets it (seed example 2), the player's own
    road too."""
    s, sea = _game()
    red = settle(s, RED, X1)
    white = settle(s, WHITE, G_INLAND)
    settle(s, RED, "G5 G6 H5")
    _road(s, RED, "G5 G6")  # red's road from its settlement to F5 G5 G6 …
    _road(s, RED, "F5 G6")  # … and on to the coast at F5 F6 G6
    for labels in ("E5 E6", "E6 F5", "F5 F6"):
        _ship(s, RED, labels)
    # Red's ships reach red's road at F5 F6 G6: the chain goes on to red's building on
    # Transcatanien (white's inland settlement is reached by no piece).
    assert [(a, b) for a, b, _ in sea.lines] == [(red, crossing(s, "G5 G6 H5"))]
    assert white not in {b for _, b, _ in sea.lines}


def test_lines_are_stored_and_loaded_with_the_state() -> None:
    s, _sea = _game()
    red = settle(s, RED, X1)
    white = settle(s, WHITE, X4)
    for labels in ("E5 E6", "E6 F5", "F5 F6"):
        _ship(s, RED, labels)
    d = state_to_json(s)
    assert d["sea"]["lines"] == [[red, white, RED]]
    back = state_from_json(d)
    assert back == s and back.sea is not None and back.sea.lines == [(red, white, RED)]
    assert back.visible_vp(RED) == 2


def test_other_scenarios_store_no_lines_and_score_none() -> None:
    s = new_game(Settings.for_scenario("vier-inseln", 4), 1)
    assert s.sea is not None
    assert "lines" not in state_to_json(s)["sea"]
    assert s.sea.lines == []


@pytest.mark.parametrize("players", [3, 4])
def test_both_start_settlements_stand_on_one_island(players: int) -> None:
    """Seed: the players put both their start buildings on one of the two islands, Catanien or
    Transcatanien; the second on the other island is refused."""
    from pbm.rules.orders import SetupOrders, SetupPlacement
    from pbm.rules.setup import place_setup, place_setup_automatic, placement_rule

    s = new_game(Settings.for_scenario("ueberfahrt", players), 3)
    for _ in range(players):
        s, _events = place_setup_automatic(s)
    last = players - 1  # the snake turns: the last seat places its second settlement now
    home = s.board.crossing_areas[s.settlements[last][0]]
    assert len(home) == 1
    other = 2 if home == (1,) else 1
    sites = [
        c
        for c in range(len(s.board.crossing_hexes))
        if s.board.crossing_areas[c] == (other,) and building.settlement_site_rule(s, c) is None
    ]
    c = sites[0]
    e = s.board.crossing_paths[c][0]
    for ship in (False, True):
        assert placement_rule(s, SetupPlacement(c, e, ship)) == Reason.OTHER_START_ISLAND
    after, events, placed = place_setup(s, SetupOrders((SetupPlacement(c, e, True),)))
    assert not placed and after is s
    assert [x.reason for x in events if isinstance(x, SetupFailed)] == [Reason.OTHER_START_ISLAND]
    s, _events = place_setup_automatic(s)
    assert s.board.crossing_areas[s.settlements[last][1]] == home


GUIDES = {
    lang: Path(__file__).resolve().parent.parent / "pbm" / "guides" / f"player-guide.{lang}.md"
    for lang in ("de", "en")
}


def _guide_block(lang: str, heading: str, n: int) -> str:
    """The n-th ```text block after `heading` in the player guide of `lang`."""
    text = GUIDES[lang].read_text(encoding="utf-8")
    return text[text.index(heading) :].split("```text\n")[n].split("```", 1)[0]


def _guide_game() -> GameState:
    """The guide's example: red at D5 E5 E6 on Catanien, white at F5 F6 G6 across the strait."""
    s = new_game(Settings.for_scenario("ueberfahrt", 4), 1)
    s.phase = Phase.ROUNDS
    s.round = 3
    s.setup_step = 8
    settle(s, RED, X1)
    settle(s, YELLOW, X4)  # seat 3 is white ("weiss")
    assert s.colours[YELLOW] == "weiss"
    return s


@pytest.mark.parametrize(
    ("lang", "heading"), [("en", "**An example.**"), ("de", "**Ein Beispiel.**")]
)
def test_the_player_guides_trade_line_example(lang: str, heading: str) -> None:
    """The guide's Great Crossing chapter: its three ship lines read on the 4-player board and
    close the line it names, the report line it quotes is the report's, and the map it draws is
    the text map's, cut to rows D to G."""
    from pbm.notation import Context, parse_mail
    from pbm.reports.describe import describe
    from pbm.reports.report_data import _titles
    from pbm.reports.text_map import draw
    from pbm.rules.round import execute

    s = _guide_game()
    mail = parse_mail(_guide_block(lang, heading, 1), Context(s.board, lang, s.colours))
    assert mail.ok, [r.error for r in mail.lines if not r.ok]
    events: list[Event] = []
    for action in mail.turn_orders().builds:
        execute(s, RED, action, events)  # type: ignore[arg-type]
    (gained,) = _gained(events)
    line = describe(gained, s, lang)
    assert line is not None
    chapter = GUIDES[lang].read_text(encoding="utf-8")
    assert " ".join(line.split()) in " ".join(chapter.split())  # the guide wraps it
    assert _titles(s, RED, lang) == ["1 trade line" if lang == "en" else "1 Handelslinie"]
    rows = draw(s, lang).splitlines()
    top = next(i for i, x in enumerate(rows) if "D1" in x)
    bottom = next(i for i, x in enumerate(rows) if "G1" in x)
    right = rows[top].index("/D4") + 24
    cut = "\n".join(x[:right].rstrip() for x in rows[top - 1 : bottom + 1]) + "\n"
    assert _guide_block(lang, heading, 2) == cut
