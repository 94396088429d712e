"""Every piece a player owns, in every list (issue 27): one function (`reports.pieces`) names a
player's pieces for every game kind (settlements, cities, Kronlande's castles, residences and
workshops, roads, ships), and where the robber and the pirate are, in words; the report's
text and HTML parts, the web archive and the game's summary use it."""

from __future__ import annotations

import re

import pytest
from helpers import game, road, settle
from kron_fixtures import free_crossing, kron_game, settle_at

from pbm.notation.names import ship_path_text
from pbm.reports.pieces import pieces_text, places_text
from pbm.reports.render import render
from pbm.reports.report_data import report_data
from pbm.reports.summary import game_summary
from pbm.rules import events as ev
from pbm.rules.kron import BAECKEREI
from pbm.rules.orders import Workshop
from pbm.rules.pirate import hex_sides
from pbm.rules.ships import place_ship
from pbm.rules.state import GameState, Phase, Settings, new_game
from pbm.rules.workshops import place_workshop

from . import scenes

LANGS = ("de", "en", "de@modern")


def _sea_game() -> GameState:
    s = new_game(Settings.for_scenario("vier-inseln", 4), 1)
    s.phase, s.round, s.setup_step = Phase.ROUNDS, 1, 8
    return s


def _with_ship(s: GameState) -> int:
    """Seat 0's settlement on a coast and a ship from it; the ship's path."""
    assert s.sea is not None
    b = s.board
    away = set(hex_sides(s, s.sea.pirate))
    for c in range(len(b.crossing_hexes)):
        sea_sides = [e for e in b.crossing_paths[c] if b.path_sea[e] and e not in away]
        if b.crossing_land[c] and sea_sides and s.owner[c] < 0:
            settle(s, 0, b.crossing_label(c))
            place_ship(s, s.sea, 0, sea_sides[0], [], free=True)
            return sea_sides[0]
    raise AssertionError("no coast")


@pytest.mark.parametrize("lang", LANGS)
def test_ships_are_in_the_pieces_and_the_pirate_is_named(lang: str) -> None:
    s = _sea_game()
    e = _with_ship(s)
    text = pieces_text(s, 0, lang)
    assert ship_path_text(s.board, e, lang) in text
    assert re.search(r"(Schiffe|ships) ", text), text
    places = places_text(s, lang)
    assert s.sea is not None
    label = s.board.hexes[s.sea.pirate].label
    assert re.search(rf"(Pirat|Pirate): {label} \((Meer|Sea)\)", places), places
    # Four Islands has no desert: the robber is not on the board, and the line says so.
    assert s.robber < 0 and ("nicht auf dem Spielplan" in places or "not on the board" in places)


def test_a_player_with_only_ships_lists_them() -> None:
    s = _sea_game()
    e = _with_ship(s)
    assert s.sea is not None
    s.sea.ship[e] = 1
    s.sea.rebuild(4)
    assert pieces_text(s, 1, "en") == f"ships {ship_path_text(s.board, e, 'en')}"


def test_kronlande_pieces_name_castles_residences_and_workshops() -> None:
    s = kron_game()
    hexes = [h.id for h in s.board.hexes if h.is_land and h.number is not None]
    burg = settle_at(s, 0, free_crossing(s, hexes[0]), level=3)
    residenz = settle_at(s, 0, free_crossing(s, hexes[-1]), level=4)
    place_workshop(s, 0, Workshop(BAECKEREI, burg), [], free=True)
    text = pieces_text(s, 0, "de")
    assert text.startswith("Burg ") and "; Residenz " in text and "; Bäckerei " in text
    assert pieces_text(s, 0, "en").count("castle ") == 1
    assert residenz in s.cities[0]
    # The robber in words: `Räuber: B4 (Wüste)`, in the modern edition `Bandit: …`.
    assert places_text(s, "de").startswith("Räuber: ") and "Pirat" not in places_text(s, "de")
    assert places_text(s, "de@modern").startswith("Bandit: ")


def test_a_base_game_lists_roads_and_the_robber() -> None:
    s = game()
    c = settle(s, 0, "C3 C4 D4")
    road(s, 0, "C3 C4")
    assert pieces_text(s, 0, "de").startswith("Siedlung C3 C4 D4")
    assert "; Straßen C3 C4" in pieces_text(s, 0, "de")
    assert pieces_text(s, 1, "de") == "-"
    assert places_text(s, "de") == f"Räuber: {s.board.hexes[s.robber].label} (Wüste)"
    assert c in s.settlements[0]


@pytest.mark.parametrize("lang", ("de", "en"))
def test_the_report_lists_ships_in_its_text_and_html_parts(lang: str) -> None:
    after, events = scenes.sea_four_islands_round()
    data = report_data(after, list(events), lang, "alpha", scenes.SECRETS, "", "")
    mail = render("report", "s", data)
    assert after.sea is not None
    assert any(after.sea.ships)
    for p, ships in enumerate(after.sea.ships):
        for e in ships:
            name = ship_path_text(after.board, e, lang)
            assert name in data["players"][p]["pieces"], (p, data["players"][p]["pieces"])
            assert name in (mail.html or "")
    assert data["places"] in mail.text
    assert data["places"] in (mail.html or "")
    for p in range(len(after.colours)):
        assert data["players"][p]["pieces"] in mail.text


def test_the_game_summary_counts_ships_and_workshops() -> None:
    s = _sea_game()
    steps = [(1, [ev.Built(0, "ship", 3, False), ev.Built(0, "ship", 4, False)])]
    summary = game_summary(steps, s, "de")
    (row,) = [values for heading, values in summary["table"] if heading == "Schiffe"]
    assert row == [2, 0, 0, 0]
    k = kron_game()
    steps = [(1, [ev.Built(2, "bakery", 3, False), ev.Built(2, "smithy", 9, False)])]
    summary = game_summary(steps, k, "en")
    (row,) = [values for heading, values in summary["table"] if heading == "workshops"]
    assert row == [0, 0, 2, 0]
    # A base game has neither row.
    headings = [h for h, _ in game_summary(steps, game(), "en")["table"]]
    assert "ships" not in headings and "workshops" not in headings


def test_the_game_summary_counts_what_a_feast_took_as_robbed_and_lost() -> None:
    """Blau took 2 wool by Festmahl; the end table showed robbed 0 for blau, lost 0 for rot."""
    from pbm.rules.kron_events import FeastGiven

    k = kron_game()
    steps = [(1, [FeastGiven(1, 0, 2), FeastGiven(1, 2, 2)])]
    summary = game_summary(steps, k, "en")
    table = dict(summary["table"])
    assert table["robbed"] == [0, 2, 0, 0][: len(table["robbed"])]
    assert table["lost"] == [1, 0, 1, 0][: len(table["lost"])]
