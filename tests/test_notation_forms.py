"""Forms of order lines a game master reads and pbm refused before issue 31, in German and
English, and their near neighbours that stay refused because they could mean two things:

- arrows and separators in lists: `Abwurf: W > G > H`, `Ritter nach dem Wurf -> Räuber …`,
  `Straße 4G-9L`, `Bautrupp 5L 10G + 10G 8W`;
- a discard priority in words: `Abwerfen falls nötig: zuerst Wolle, dann Holz`;
- a city written as upgrading: `Siedlung … zur Stadt ausbauen`, `Upgrade … to a city`;
- counted builds (`Zwei Straßen: …`) and card names with "-karte" (`Strassenbaukarte: …`);
- a setup road by its direction (`Straße Richtung 4G`), over every crossing of a board;
- a remark in brackets on a city line that only names its settlement;
- a pass beside a robber order or a discard list (both stand) and beside a build (refused).

The corpus (tests/corpus/206_… to 224_…) holds the same forms in whole mails.
"""

from __future__ import annotations

import time

import pytest
from kron_fixtures import kron_game

from pbm.notation import Context, NotationError, OrderError, format_item, parse_line, parse_mail
from pbm.notation.lines import Builds, Pass
from pbm.notation.names import hex_short_name
from pbm.rules.board import Board
from pbm.rules.layouts import generate_board
from pbm.rules.orders import (
    City,
    DiscardPreference,
    Road,
    RoadBuilding,
    RobberOrder,
    SetupPlacement,
)

#: Seed 1, medium (docs: the player guide's example island). In English letters H→L, L→B, E→O.
BOARD = generate_board("medium", 1)
COLOURS = ("rot", "blau", "gelb", "weiss")


def _ctx(lang: str = "de", phase: str = "round", board: Board = BOARD) -> Context:
    return Context(board, lang, COLOURS, phase)


def _read(line: str, lang: str = "de", phase: str = "round") -> str:
    """The canonical form of a line."""
    return format_item(parse_line(line, _ctx(lang, phase)), _ctx(lang, phase))


def _refused(line: str, lang: str = "de", phase: str = "round") -> OrderError:
    with pytest.raises(OrderError) as info:
        parse_line(line, _ctx(lang, phase))
    return info.value


def _crossing(labels: str) -> int:
    return BOARD.crossing_id[tuple(sorted(BOARD.label_index[x] for x in labels.split()))]


def _path(labels: str) -> int:
    return BOARD.path_id[tuple(sorted(BOARD.label_index[x] for x in labels.split()))]


# -- arrows and separators in lists --------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "lang", "canonical"),
    [
        ("Abwurf: W > G > H", "de", "Abwurf: 1W 1G 1H"),
        ("Abwurf: W→G→H", "de", "Abwurf: 1W 1G 1H"),
        ("Abwurf: Wolle -> Getreide => Holz", "de", "Abwurf: 1W 1G 1H"),
        ("Abwurf: 2 W » G", "de", "Abwurf: 2W 1G"),
        ("Discard: W > G > L", "en", "Discard: 1W 1G 1L"),
        (
            "Ritter nach dem Wurf -> Räuber 11G, blau",
            "de",
            "Ritter nach Wurf: Räuber D4 (11G), raube blau",
        ),
        (
            "Knight before the roll => robber 11G, red",
            "en",
            "Knight before roll: Robber D4 (11G), steal red",
        ),
        ("Straße 4G-9L", "de", "Straße D5 E4 (4G 9L)"),
        ("Straße 4G – 9L", "de", "Straße D5 E4 (4G 9L)"),
        ("Road 4G-9B", "en", "Road D5 E4 (4G 9B)"),
        ("Bautrupp 5L 10G + 10G 8W", "de", "Straßenbau: C4 C5 (5L 10G), C5 D6 (10G 8W)"),
        ("Bautrupp 5L 10G & 10G 8W", "de", "Straßenbau: C4 C5 (5L 10G), C5 D6 (10G 8W)"),
        ("Straßenbau: 5L 10G → 10G 8W", "de", "Straßenbau: C4 C5 (5L 10G), C5 D6 (10G 8W)"),
        ("Straßenbau: 5L 10G, dann 10G 8W", "de", "Straßenbau: C4 C5 (5L 10G), C5 D6 (10G 8W)"),
        ("Road building: 5B 10G -> 10G 8W", "en", "Road building: C4 C5 (5B 10G), C5 D6 (10G 8W)"),
        ("Straßen 4G 9L -> 9L 3W", "de", "Straße D5 E4 (4G 9L); Straße E4 E5 (9L 3W)"),
    ],
)
def test_arrows_and_separators_in_lists(line: str, lang: str, canonical: str) -> None:
    assert _read(line, lang) == canonical


@pytest.mark.parametrize(
    ("line", "key"),
    [
        # `<` would be the priority the other way round.
        ("Abwurf: W < G < H", "list_order_words"),
        # A dash between crossings is a path by its crossings, and these are not joined.
        ("Straße 6L 5L 11G - 6L 5L 4H", "crossings_not_joined"),
        ("Straße 4G-9L-3W", "path_by_crossings_form"),
        # One road of three hexes, not two roads.
        ("Straße 4G-9L 3W", "crossing_three_hexes"),
    ],
)
def test_arrows_that_could_mean_two_things_stay_refused(line: str, key: str) -> None:
    assert _refused(line).key == key


def test_a_dash_between_two_paths_of_a_list_is_a_separator_but_one_path_takes_it_as_crossings() -> (
    None
):
    assert parse_line("Straßenbau: 5L 10G - 10G 8W", _ctx()) == RoadBuilding(
        _path("C4 C5"), _path("C5 D6")
    )
    assert _refused("Straße 5L 10G - 10G 8W").key == "crossing_three_hexes"


# -- a discard priority in words ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "lang", "canonical"),
    [
        ("Abwerfen falls nötig: zuerst Wolle, dann Holz, dann Getreide", "de", "Abwurf: 1W 1H 1G"),
        ("Abwurf (falls nötig): zuerst Wolle, dann Holz", "de", "Abwurf: 1W 1H"),
        (
            "Abwurf, wenn es sein muss: Wolle zuerst, dann Holz, zuletzt Erz",
            "de",
            "Abwurf: 1W 1H 1E",
        ),
        ("Falls ich abwerfen muss: zuerst 2 Wolle, danach Holz", "de", "Abwurf: 2W 1H"),
        ("Abwurf bei einer 7: W W G", "de", "Abwurf: 2W 1G"),
        ("Abwurf: Wolle vor Holz vor Erz", "de", "Abwurf: 1W 1H 1E"),
        ("Discard if needed: wool first, then lumber, then grain", "en", "Discard: 1W 1L 1G"),
        ("If I have to discard: ore > grain > wool", "en", "Discard: 1O 1G 1W"),
        ("Discard: first wool, next lumber, finally grain", "en", "Discard: 1W 1L 1G"),
    ],
)
def test_a_discard_priority_in_words(line: str, lang: str, canonical: str) -> None:
    assert _read(line, lang) == canonical


@pytest.mark.parametrize(
    ("line", "lang", "key"),
    [
        # A word of order that does not fit where it stands: the list is read as written.
        ("Abwurf: Wolle, Holz zuletzt, Getreide", "de", "list_order_words"),
        ("Abwurf: Holz, Wolle zuerst", "de", "list_order_words"),
        ("Discard: lumber last, wool, grain", "en", "list_order_words"),
        # `nach`: after, the order the other way round.
        ("Abwurf: Wolle nach Holz", "de", "resource_expected"),
        # A condition that is more than "if I must".
        ("Abwurf falls rot baut: W W", "de", "resource_expected"),
        ("Abwurf: zuerst Wolle, aber nicht Erz", "de", "resource_expected"),
    ],
)
def test_a_discard_priority_that_does_not_fit_stays_refused(line: str, lang: str, key: str) -> None:
    assert _refused(line, lang).key == key


# -- a city written as upgrading ------------------------------------------------------------------

CITY_DE = "Stadt C3 C4 D4 (6L 5L 11G)"
CITY_EN = "City C3 C4 D4 (6B 5B 11G)"


@pytest.mark.parametrize(
    ("line", "lang"),
    [
        ("Siedlung 6L 5L 11G zur Stadt ausbauen", "de"),
        ("Baue Siedlung 6L 5L 11G zur Stadt aus", "de"),
        ("Meine Siedlung bei 6L 5L 11G zu einer Stadt ausbauen", "de"),
        ("Ich möchte meine Siedlung 6L 5L 11G zur Stadt ausbauen", "de"),
        ("Ausbau zur Stadt: 6L 5L 11G", "de"),
        ("Siedlung 6L 5L 11G → Stadt", "de"),
        ("Siedlung 6L 5L 11G ausbauen", "de"),
        ("Ausbau 6L 5L 11G", "de"),
        ("Upgrade 6B 5B 11G to a city", "en"),
        ("Upgrade my settlement at 6B 5B 11G to a city", "en"),
        ("Turn settlement 6B 5B 11G into a city", "en"),
        ("Make 6B 5B 11G a city", "en"),
        ("I'd like to upgrade 6B 5B 11G to a city", "en"),
        ("Upgrade 6B 5B 11G", "en"),
    ],
)
def test_a_city_written_as_upgrading(line: str, lang: str) -> None:
    assert parse_line(line, _ctx(lang)) == City(_crossing("C3 C4 D4"))
    assert _read(line, lang) == (CITY_DE if lang == "de" else CITY_EN)


def test_an_upgrade_among_other_builds_and_options() -> None:
    assert _read("Straße 4G 9L und Siedlung 6L 5L 11G zur Stadt ausbauen") == (
        f"Straße D5 E4 (4G 9L); {CITY_DE}"
    )
    assert _read("Siedlung 6L 5L 11G zur Stadt ausbauen oder 9H 5L 10G") == (
        f"{CITY_DE} oder Stadt B4 C4 C5 (9H 5L 10G)"
    )
    parsed = parse_mail("Upgrade 6B 5B 11G to a city\nOtherwise upgrade 9L 5B 10G\n", _ctx("en"))
    assert [r.canonical for r in parsed.lines] == [CITY_EN, "or City B4 C4 C5 (9L 5B 10G)"]


@pytest.mark.parametrize(
    ("line", "lang"),
    [
        # Build the settlement and then the city? Two builds, not one upgrade.
        ("Siedlung 6L 5L 11G und zur Stadt ausbauen", "de"),
        # A condition the line does not say how to read.
        ("Siedlung 6L 5L 11G später zur Stadt ausbauen", "de"),
        ("Straße 4G 9L ausbauen", "de"),
        ("Upgrade 6B 5B 11G to a castle", "en"),
        ("Karte kaufen und ausbauen", "de"),
    ],
)
def test_an_upgrade_that_could_mean_more_stays_refused(line: str, lang: str) -> None:
    err = _refused(line, lang)
    if line.startswith(("Siedlung", "Upgrade")):
        assert err.key == "upgrade_form"
        assert "'Stadt <Kreuzung>'" in err.localized("de")
        assert "'City <crossing>'" in err.localized("en")


def test_in_kronlande_an_upgrade_names_what_it_becomes() -> None:
    s = kron_game()
    ctx = Context(s.board, "de", s.colours)
    c = next(c for c in range(len(s.board.crossing_hexes)) if s.board.crossing_land[c])
    names = " ".join(s.board.hexes[h].label for h in s.board.crossing_hexes[c])
    with pytest.raises(NotationError) as info:
        parse_line(f"Ausbau {names}", ctx)
    assert info.value.key == "upgrade_to_what"
    assert "Burg" in info.value.localized("de")
    assert "Castle <crossing>" in info.value.localized("en")
    # The city upgraded: to a Burg? Asked back too.
    with pytest.raises(NotationError) as info:
        parse_line(f"Stadt {names} ausbauen", ctx)
    assert info.value.key == "upgrade_to_what"
    assert parse_line(f"Siedlung {names} zur Stadt ausbauen", ctx) == City(c)
    assert parse_line(f"Ausbau zur Stadt: {names}", ctx) == City(c)
    en = Context(s.board, "en", s.colours)
    assert parse_line(f"Upgrade {names} to a city", en) == City(c)


# -- counted builds and card names ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "lang", "canonical"),
    [
        ("Zwei Straßen: 4G 9L und 9L 3W", "de", "Straße D5 E4 (4G 9L); Straße E4 E5 (9L 3W)"),
        ("2 Straßen: 4G 9L, 9L 3W", "de", "Straße D5 E4 (4G 9L); Straße E4 E5 (9L 3W)"),
        ("Baue 2x Straßen 4G 9L und 9L 3W", "de", "Straße D5 E4 (4G 9L); Straße E4 E5 (9L 3W)"),
        ("Two roads: 4G 9B and 9B 3W", "en", "Road D5 E4 (4G 9B); Road E4 E5 (9B 3W)"),
        (
            "Zwei Siedlungen: 6L 5L 11G und 4G 8W 3W",
            "de",
            "Siedlung C3 C4 D4 (6L 5L 11G); Siedlung D5 D6 E5 (4G 8W 3W)",
        ),
        (
            "Two cities: 6B 5B 11G and 9L 5B 10G",
            "en",
            "City C3 C4 D4 (6B 5B 11G); City B4 C4 C5 (9L 5B 10G)",
        ),
        ("Strassenbaukarte: 5L 10G und 10G 4G", "de", "Straßenbau: C4 C5 (5L 10G), C5 D5 (10G 4G)"),
        ("Straßenbau-Karte: 5L 10G, 10G 4G", "de", "Straßenbau: C4 C5 (5L 10G), C5 D5 (10G 4G)"),
        ("Bautruppkarte 5L 10G + 10G 4G", "de", "Straßenbau: C4 C5 (5L 10G), C5 D5 (10G 4G)"),
        (
            "Road building card: 5B 10G and 10G 4G",
            "en",
            "Road building: C4 C5 (5B 10G), C5 D5 (10G 4G)",
        ),
        ("Monopolkarte: Erz", "de", "Monopol Erz"),
        ("Monopoly card: ore", "en", "Monopoly Ore"),
        ("Erfindungskarte: Holz, Erz", "de", "Erfindung 1H 1E"),
        ("Year of plenty card: lumber, ore", "en", "Year of plenty 1L 1O"),
        (
            "Ritterkarte vor dem Wurf: Räuber 11G, blau",
            "de",
            "Ritter vor Wurf: Räuber D4 (11G), raube blau",
        ),
        (
            "Straße 4G 9L und Straßenbaukarte: 5L 10G, 10G 4G",
            "de",
            "Straße D5 E4 (4G 9L); Straßenbau: C4 C5 (5L 10G), C5 D5 (10G 4G)",
        ),
    ],
)
def test_counted_builds_and_card_names(line: str, lang: str, canonical: str) -> None:
    assert _read(line, lang) == canonical


def test_a_count_must_fit_the_places_named() -> None:
    err = _refused("Drei Straßen: 4G 9L und 9L 3W")
    assert err.key == "count_differs"
    assert err.localized("de") == (
        "'Drei Straßen' passt nicht zu den 2 genannten Orten: nenne so viele, wie die Zahl "
        "sagt, oder lass die Zahl weg"
    )
    assert _refused("Three roads: 4G 9B and 9B 3W", "en").key == "count_differs"
    assert _refused("Städte " + ", ".join(["6L 5L 11G"] * 6)).key == "builds_list_form"
    # A word before the plural that is no count is not read as one.
    assert _refused("Neue Straßen: 4G 9L und 9L 3W").key == "order_expected"
    assert isinstance(parse_line("Zwei Städte: 6L 5L 11G, 9H 5L 10G", _ctx()), Builds)


# -- a setup road by its direction ----------------------------------------------------------------


def test_a_setup_road_toward_a_hex() -> None:
    c, e = _crossing("B4 C4 C5"), _path("C4 C5")
    for line, lang in (
        ("Meine erste Siedlung: 9H 5L 10G, Straße Richtung 4G", "de"),
        ("Siedlung 9H 5L 10G Straße in Richtung D5", "de"),
        ("Siedlung 9H 5L 10G Straße nach 4G", "de"),
        ("First settlement: 9L 5B 10G, road toward 4G", "en"),
        ("Settlement 9L 5B 10G road towards D5", "en"),
    ):
        assert parse_line(line, _ctx(lang, "setup")) == SetupPlacement(c, e), line


def test_a_setup_road_toward_a_hex_that_is_not_one_path_is_refused_with_the_choices() -> None:
    err = _refused("Siedlung 9H 5L 10G, Straße Richtung 5L", phase="setup")
    assert err.key == "road_toward_pick"
    assert err.candidates == ["B4 C4 (9H 5L)", "C4 C5 (5L 10G)"]
    assert err.localized("de") == (
        "2 Wege führen von der Siedlung B4 C4 C5 (9H 5L 10G) Richtung 5L: kopiere einen davon "
        "zurück"
    )
    err = _refused("Siedlung 6L 5L 11G, Straße Richtung 9H", phase="setup")
    assert err.key == "road_toward_none"
    assert err.candidates == ["C3 C4 (6L 5L)", "C3 D4 (6L 11G)", "C4 D4 (5L 11G)"]
    # An option that cannot be read is left out when another one is good, as always.
    line = "Siedlung 6L 5L 11G Straße Richtung 9H oder Siedlung 9H 5L 10G Straße Richtung 4G"
    assert parse_line(line, _ctx("de", "setup")) == SetupPlacement(
        _crossing("B4 C4 C5"), _path("C4 C5")
    )


@pytest.mark.parametrize("lang", ["de", "en"])
def test_toward_the_third_hex_of_a_neighbouring_crossing_is_that_one_path_everywhere(
    lang: str,
) -> None:
    """Over every land crossing of the board: toward the hex a path leads to (the third hex
    of the crossing at its other end) is that path; toward a hex of the crossing itself, the two
    paths along it; toward any other hex, none."""
    b = BOARD
    ctx = _ctx(lang, "setup")
    road = "Straße" if lang == "de" else "Road"
    settlement = "Siedlung" if lang == "de" else "Settlement"
    checked = 0
    for c, hexes in enumerate(b.crossing_hexes):
        if not b.crossing_land[c]:
            continue
        names = " ".join(b.hexes[h].label for h in hexes)
        toward: dict[int, list[int]] = {}
        for e in b.crossing_paths[c]:
            if not b.path_land[e]:
                continue
            (far,) = [x for x in b.path_crossings[e] if x != c]
            for h in b.crossing_hexes[far]:
                toward.setdefault(h, []).append(e)
        for h in range(len(b.hexes)):
            line = f"{settlement} {names} {road} Richtung {b.hexes[h].label}"
            if lang == "en":
                line = line.replace("Richtung", "toward")
            paths = toward.get(h, [])
            if len(paths) == 1:
                assert parse_line(line, ctx) == SetupPlacement(c, paths[0]), line
                checked += 1
            else:
                with pytest.raises(NotationError) as info:
                    parse_line(line, ctx)
                assert info.value.key == ("road_toward_pick" if paths else "road_toward_none")
                assert len(info.value.candidates) == (
                    len(paths) or sum(b.path_land[e] for e in b.crossing_paths[c])
                )
                if h in hexes:
                    assert len(paths) == 2 or not all(b.path_land[e] for e in paths)
    assert checked > 100


def test_a_setup_road_toward_a_hex_named_by_its_token_or_the_sea() -> None:
    c = _crossing("B4 C4 C5")
    sea = next(
        e
        for e in BOARD.crossing_paths[c]
        if any(
            BOARD.hexes[h].number is None and BOARD.hexes[h].resource is None
            for x in BOARD.path_crossings[e]
            if x != c
            for h in BOARD.crossing_hexes[x]
        )
    )
    assert parse_line("Siedlung 9H 5L 10G Straße Richtung Meer", _ctx(phase="setup")) == (
        SetupPlacement(c, sea)
    )
    assert hex_short_name(BOARD, BOARD.label_index["D5"]) == "4G"


# -- a remark naming the city's settlement ---------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "lang"),
    [
        ("stadt 6L 5L 11G   (bei meiner siedlung)", "de"),
        ("Stadt 6L 5L 11G (meine Siedlung am Hafen)", "de"),
        ("Baue eine Stadt 6L 5L 11G (Ausbau meiner Siedlung)", "de"),
        ("City 6B 5B 11G (at my settlement)", "en"),
        ("city 6B 5B 11G (upgrade)", "en"),
    ],
)
def test_a_remark_that_only_names_the_citys_settlement(line: str, lang: str) -> None:
    assert _read(line, lang) == (CITY_DE if lang == "de" else CITY_EN)


@pytest.mark.parametrize(
    "line",
    [
        "Stadt 6L 5L 11G (bei meiner zweiten Siedlung)",
        "Stadt 6L 5L 11G (nicht bei meiner Siedlung)",
        "Siedlung 6L 5L 11G (bei meiner Siedlung)",
        "Straße 4G 9L (bei meiner Siedlung)",
        "Stadt 6L 5L 11G (bei Siedlung 9H 5L 10G)",
    ],
)
def test_a_remark_that_may_say_more_stays_refused(line: str) -> None:
    _refused(line)


# -- a pass beside orders for a 7 -----------------------------------------------------------------


def test_a_pass_beside_a_robber_order_or_a_discard_list_stands() -> None:
    """They are for a 7 rolled for the player, which passing does not prevent (the player
    guides: whoever wants to do nothing sends at least a robber order)."""
    robber = RobberOrder(BOARD.label_index["E4"], (0,))
    for body, lang, discard in (
        ("Nichts diesmal\nRäuber 9L, raube rot\nAbwurf: W > G > H\n", "de", (2, 3, 0)),
        ("Pass\nIf I roll a 7: robber 9B, steal red\nDiscard: W W\n", "en", (2, 2)),
    ):
        parsed = parse_mail(body, _ctx(lang))
        assert parsed.ok, [r.error for r in parsed.lines]
        assert isinstance(parsed.lines[0].item, Pass)
        orders = parsed.turn_orders()
        assert orders.robber == robber
        assert orders.discard == DiscardPreference(discard)
        assert not orders.builds and not orders.trades


def test_a_pass_beside_a_build_a_trade_or_a_card_is_refused_and_they_stand() -> None:
    for line in (
        "Straße 4G 9L",
        "Handel blau: gebe 1W, bekomme 1E",
        "Monopol Erz",
        "Ritter nach Wurf: Räuber 9L",
    ):
        parsed = parse_mail(f"Ich passe\n{line}\n", _ctx())
        first, second = parsed.lines
        assert first.error is not None and first.error.key == "pass_with_orders", line
        assert second.ok, line
    assert parsed.turn_orders().knight is not None


# -- cost ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "Abwurf: " + "zuerst W, " * 90,
        "Abwurf: " + "W > " * 240,
        "Abwurf: " + "W zuletzt, " * 80,
        "Siedlung " + "zur Stadt " * 95,
        "Ausbau " + "6L 5L 11G " * 95,
        "Straßen " + "4G 9L + " * 110,
        "Straßenbau: " + "4G - 9L " * 110,
        "Zwei Straßen: " + "4G-9L, " * 120,
    ],
)
def test_long_lines_of_the_new_forms_cost_little(line: str) -> None:
    assert len(line) <= 1000
    start = time.process_time()
    for lang in ("de", "en"):
        parse_mail(line + "\n", _ctx(lang))
    assert time.process_time() - start < 0.5, line[:40]


def test_a_road_order_stays_a_road() -> None:
    assert parse_line("Straße 4G 9L", _ctx()) == Road(_path("D5 E4"))


@pytest.mark.parametrize(
    ("lang", "line", "canonical_start"),
    [
        ("de", "dann eine Siedlung C2 D2 D3", "Siedlung"),
        ("de", "und eine Straße C2 D2", "Straße"),
        ("de", "eine Stadt C2 D2 D3", "Stadt"),
        ("de", "Außerdem eine Straße C2 D2", "Straße"),
        ("en", "then a settlement C2 D2 D3", "Settlement"),
        ("en", "and a road C2 D2", "Road"),
        ("en", "a road C2 D2", "Road"),
        ("da", "og så et hus C2 D2 D3", "Hus"),
        ("da", "så en vej C2 D2", "Vej"),
    ],
)
def test_an_article_before_an_order_word_without_a_verb(
    lang: str, line: str, canonical_start: str
) -> None:
    """`dann eine Siedlung …`, `and a road …`: the article (after a filler, or alone) before
    an order's first word is read past, as after a verb (`Baue eine Siedlung …`)."""
    from pbm.rules.state import DEFAULT_COLOURS

    ctx = Context(generate_board("medium", 1, 1), lang, DEFAULT_COLOURS[:4], "round")
    (read,) = parse_mail(line, ctx).lines
    assert read.error is None, read
    assert read.canonical is not None and read.canonical.startswith(canonical_start), read


# -- sentences as players write them (a QA pass of real players' mails) -------------------------


def _lines(body: str, lang: str) -> list[str]:
    """The canonical form of each line of a mail, or its error key."""
    parsed = parse_mail(body, _ctx(lang))
    return [
        format_item(r.item, _ctx(lang)) if r.item is not None else str(r.error.key)
        for r in parsed.lines
        if r.item is not None or r.error is not None
    ]


@pytest.mark.parametrize(
    ("line", "lang", "canonical"),
    [
        # German: the verb at the end of a clause; the subject after its verb; buying.
        ("Ich möchte eine Straße zwischen 6L und 5L bauen", "de", "Straße C3 C4 (6L 5L)"),
        ("Siedlung 6L 5L 11G bauen", "de", "Siedlung C3 C4 D4 (6L 5L 11G)"),
        ("Räuber auf 11G setzen, gelb berauben", "de", "Räuber D4 (11G), raube gelb"),
        ("Ich kaufe eine Entwicklungskarte", "de", "Entwicklungskarte"),
        ("Diesmal baue ich eine Straße zwischen 6L und 5L", "de", "Straße C3 C4 (6L 5L)"),
        (
            "Ritter vor Wurf: versetze den Räuber auf 11G, raube gelb",
            "de",
            "Ritter vor Wurf: Räuber D4 (11G), raube gelb",
        ),
        ("Räuber: setze den Räuber auf 11G", "de", "Räuber D4 (11G)"),
        # English.
        ("I'll buy a development card", "en", "Buy card"),
        ("I buy a card", "en", "Buy card"),
        ("1x Road 6B 5B", "en", "Road C3 C4 (6B 5B)"),
        ("1x Straße 6L 5L", "de", "Straße C3 C4 (6L 5L)"),
        ("Finally a development card if I have anything left", "en", "Buy card"),
        (
            "Knight before roll: move the robber to 11G and steal from blue",
            "en",
            "Knight before roll: Robber D4 (11G), steal blue",
        ),
        ("Robber: move the robber to 11G, steal blue", "en", "Robber D4 (11G), steal blue"),
        # Danish: the guide's own sentence, inverted order, `og så`, a purchase's verb.
        (
            "I denne tur vil jeg gerne bygge en vej mellem 6L og 5L og så et hus på 6L 5L 11K, "
            "hvis jeg har træet til det.",
            "da",
            "Vej C3 C4 (6L 5L); Hus C3 C4 D4 (6L 5L 11K)",
        ),
        (
            "Jeg vil gerne bygge en vej mellem 6L og 5L og så købe et udviklingskort",
            "da",
            "Vej C3 C4 (6L 5L); Udviklingskort",
        ),
        ("Denne gang bygger jeg en vej mellem 6L og 5L", "da", "Vej C3 C4 (6L 5L)"),
        ("Til sidst et udviklingskort, hvis der er noget tilbage", "da", "Udviklingskort"),
        ("Vej 6L 5L, så et udviklingskort", "da", "Vej C3 C4 (6L 5L); Udviklingskort"),
        ("Jeg køber et udviklingskort", "da", "Udviklingskort"),
    ],
)
def test_sentences_as_players_write_them(line: str, lang: str, canonical: str) -> None:
    assert _lines(line + "\n", lang) == [canonical]


@pytest.mark.parametrize(
    ("line", "lang", "key"),
    [
        # A purchase's verb before a card played is no card played (the verb was stripped).
        ("Buy monopoly ore", "en", "buy_and_play"),
        ("Kaufe Monopol Erz", "de", "buy_and_play"),
        ("Kaufe Ritter", "de", "buy_and_play"),
        ("Buy crad", "en", "buy_form"),
        # Wish words without a subject: the line's own first word is named.
        ("To all: thanks for the game", "en", "order_expected"),
    ],
)
def test_what_reads_as_no_order_is_refused_as_before(line: str, lang: str, key: str) -> None:
    parsed = parse_mail(line + "\n", _ctx(lang))
    errors = [r.error for r in parsed.lines if r.error is not None]
    assert [e.key for e in errors] == [key]
    if key == "order_expected":
        assert "'To'" in errors[0].message


@pytest.mark.parametrize(
    ("line", "lang"),
    [
        # A verb at the end that is no mere verb stays what it was: refused.
        ("Siedlung 6L 5L 11G abreißen", "de"),
        ("Räuber auf 11G setzen, nicht gelb berauben", "de"),
        ("I'll buy a development card unless blue trades", "en"),
    ],
)
def test_sentences_that_may_say_more_stay_refused(line: str, lang: str) -> None:
    assert not parse_mail(line + "\n", _ctx(lang)).ok


#: A verb mid line starts the next build.
A_VERB_MID_LINE_STARTS_THE_NEXT_BUILD: list[tuple[str, str, str]] = [
    # A build's verb mid-line starts the build, with the subject, the joiners and the
    # article around it (`_split_builds`, `[cuts] build_verbs`).
    (
        "Road 6B 5B and build a settlement 4G 8W 3W",
        "en",
        "Road C3 C4 (6B 5B); Settlement D5 D6 E5 (4G 8W 3W)",
    ),
    (
        "Road 6B 5B and then I build a settlement 4G 8W 3W",
        "en",
        "Road C3 C4 (6B 5B); Settlement D5 D6 E5 (4G 8W 3W)",
    ),
    (
        "Road 6B 5B, then build settlement 4G 8W 3W",
        "en",
        "Road C3 C4 (6B 5B); Settlement D5 D6 E5 (4G 8W 3W)",
    ),
    (
        "Straße 6L 5L und baue Siedlung 4G 8W 3W",
        "de",
        "Straße C3 C4 (6L 5L); Siedlung D5 D6 E5 (4G 8W 3W)",
    ),
    (
        "Straße 6L 5L und baue dann eine Siedlung 4G 8W 3W",
        "de",
        "Straße C3 C4 (6L 5L); Siedlung D5 D6 E5 (4G 8W 3W)",
    ),
    (
        "Straße 6L 5L, dann baue ich eine Siedlung 4G 8W 3W",
        "de",
        "Straße C3 C4 (6L 5L); Siedlung D5 D6 E5 (4G 8W 3W)",
    ),
    ("Vej 6L 5L og byg et hus 4K 8U 3U", "da", "Vej C3 C4 (6L 5L); Hus D5 D6 E5 (4K 8U 3U)"),
    (
        "Vej 6L 5L og så bygger jeg et hus 4K 8U 3U",
        "da",
        "Vej C3 C4 (6L 5L); Hus D5 D6 E5 (4K 8U 3U)",
    ),
    # A card played after a build or a purchase: its verb starts it.
    (
        "Road 6B 5B, play year of plenty: wool, ore",
        "en",
        "Road C3 C4 (6B 5B); Year of plenty 1W 1O",
    ),
    ("Buy card and play year of plenty: wool, ore", "en", "Buy card; Year of plenty 1W 1O"),
    (
        "Buy a card, then play road building: 6B 5B, 5B 4G",
        "en",
        "Buy card; Road building: C3 C4 (6B 5B), C4 D5 (5B 4G)",
    ),
    ("Straße 6L 5L, spiele Erfindung: Holz, Erz", "de", "Straße C3 C4 (6L 5L); Erfindung 1H 1E"),
    ("Kaufe Karte und spiele Erfindung: Holz, Erz", "de", "Entwicklungskarte; Erfindung 1H 1E"),
    ("Karte kaufen und Erfindung spielen: Holz, Erz", "de", "Entwicklungskarte; Erfindung 1H 1E"),
    ("Vej 6L 5L, spil opfindelse: træ, malm", "da", "Vej C3 C4 (6L 5L); Fund 1T 1M"),
    ("Køb kort og spil opfindelse: træ, malm", "da", "Udviklingskort; Fund 1T 1M"),
    (
        "Køb et kort, så spil vejbygning: 6L 5L, 5L 4K",
        "da",
        "Udviklingskort; Vejbygning: C3 C4 (6L 5L), C4 D5 (5L 4K)",
    ),
    # An upgrade's verb mid-line, Danish `by`, a full stop, more joiners, a trailing
    # `please` (`[cuts] upgrade_leads`, `vocab.own_game_words`, `_trim_joiner`).
    (
        "Road 6B 5B, then upgrade 4G 8W 3W to a city",
        "en",
        "Road C3 C4 (6B 5B); City D5 D6 E5 (4G 8W 3W)",
    ),
    (
        "Road 6B 5B and then I upgrade 4G 8W 3W",
        "en",
        "Road C3 C4 (6B 5B); City D5 D6 E5 (4G 8W 3W)",
    ),
    (
        "Road 6B 5B and upgrade my settlement at 4G 8W 3W",
        "en",
        "Road C3 C4 (6B 5B); City D5 D6 E5 (4G 8W 3W)",
    ),
    (
        "Vej 6L 5L og opgrader mit hus på 4K 8U 3U til by",
        "da",
        "Vej C3 C4 (6L 5L); By D5 D6 E5 (4K 8U 3U)",
    ),
    ("Vej 6L 5L og by 4K 8U 3U", "da", "Vej C3 C4 (6L 5L); By D5 D6 E5 (4K 8U 3U)"),
    ("Byg vej 6L 5L, derefter by 4K 8U 3U", "da", "Vej C3 C4 (6L 5L); By D5 D6 E5 (4K 8U 3U)"),
    (
        "Road 6B 5B. Settlement 4G 8W 3W.",
        "en",
        "Road C3 C4 (6B 5B); Settlement D5 D6 E5 (4G 8W 3W)",
    ),
    (
        "Straße 6L 5L. Dann Siedlung 4G 8W 3W.",
        "de",
        "Straße C3 C4 (6L 5L); Siedlung D5 D6 E5 (4G 8W 3W)",
    ),
    (
        "Straße 6L 5L, anschließend Siedlung 4G 8W 3W",
        "de",
        "Straße C3 C4 (6L 5L); Siedlung D5 D6 E5 (4G 8W 3W)",
    ),
    (
        "Road 6B 5B, afterwards settlement 4G 8W 3W",
        "en",
        "Road C3 C4 (6B 5B); Settlement D5 D6 E5 (4G 8W 3W)",
    ),
    ("Vej 6L 5L samt et hus 4K 8U 3U", "da", "Vej C3 C4 (6L 5L); Hus D5 D6 E5 (4K 8U 3U)"),
    ("Road between 6B and 5B please", "en", "Road C3 C4 (6B 5B)"),
    (
        "Road 6B 5B please, settlement 4G 8W 3W",
        "en",
        "Road C3 C4 (6B 5B); Settlement D5 D6 E5 (4G 8W 3W)",
    ),
    ("Straße 6L 5L bitte", "de", "Straße C3 C4 (6L 5L)"),
    # No place after the verb: a remark on the build before, no upgrade of its own.
    ("City 4G 8W 3W, upgrade of my settlement", "en", "City D5 D6 E5 (4G 8W 3W)"),
]


@pytest.mark.parametrize(
    ("line", "lang"),
    [
        # The card's German verb before its colon is the clause's last word (`_without_verb`).
        ("Monopol spielen: Erz", "de"),
        ("Erfindung spielen: Holz, Erz", "de"),
        ("Räuber setzen: 11G", "de"),
    ],
)
def test_a_verb_before_the_colon_says_nothing_more(line: str, lang: str) -> None:
    without = line.replace(" spielen", "").replace(" setzen", "")
    assert _lines(line + "\n", lang) == _lines(without + "\n", lang)
    assert parse_mail(line + "\n", _ctx(lang)).ok


#: Road building pieces named roads in a base game.
ROAD_BUILDING_PIECES_NAMED_ROADS_IN_A_BASE_GAME: list[tuple[str, str, str]] = [
    # Road building's pieces named roads without a sea: the card's two pieces.
    (
        "Straßenbau: Straße 6L 5L, Straße 5L 4G",
        "de",
        "Straßenbau: C3 C4 (6L 5L), C4 D5 (5L 4G)",
    ),
    ("Straßenbau: Str 6L 5L, Str. 5L 4G", "de", "Straßenbau: C3 C4 (6L 5L), C4 D5 (5L 4G)"),
    ("Straßenbau: 6L 5L, Straße 5L 4G", "de", "Straßenbau: C3 C4 (6L 5L), C4 D5 (5L 4G)"),
    (
        "Road building: road 6B 5B and road 5B 4G",
        "en",
        "Road building: C3 C4 (6B 5B), C4 D5 (5B 4G)",
    ),
    ("Vejbygning: vej 6L 5L, vej 5L 4K", "da", "Vejbygning: C3 C4 (6L 5L), C4 D5 (5L 4K)"),
    # A third road is paid for, as it was.
    (
        "Straßenbau: 6L 5L, 5L 4G, Straße 4G 3W",
        "de",
        "Straßenbau: C3 C4 (6L 5L), C4 D5 (5L 4G); Straße D5 E5 (4G 3W)",
    ),
    (
        "Road building: road 6B 5B, road 5B 4G and road 4G 3W",
        "en",
        "Road building: C3 C4 (6B 5B), C4 D5 (5B 4G); Road D5 E5 (4G 3W)",
    ),
]


@pytest.mark.parametrize(
    ("line", "lang"),
    [
        # A card bought and a card played that is no build (`Ritter`, `Monopol`), on one
        # line: the same refusal, with the form to write, in every language.
        ("Buy card and play knight", "en"),
        ("Buy a card and play the knight before the roll: robber 11G", "en"),
        ("Buy card and play monopoly ore", "en"),
        ("Karte kaufen und Ritter spielen", "de"),
        ("Kaufe eine Karte und spiele Monopol Erz", "de"),
        ("Køb et udviklingskort og spil ridder", "da"),
        ("Køb kort og spil monopol malm", "da"),
    ],
)
def test_a_card_bought_and_a_card_played_on_one_line_is_refused_with_the_form(
    line: str, lang: str
) -> None:
    parsed = parse_mail(line + "\n", _ctx(lang))
    assert [r.error.key for r in parsed.lines if r.error is not None] == ["buy_and_play"]


@pytest.mark.parametrize(
    ("line", "lang", "key"),
    [
        ("Play card N6T before roll: robber 11G, steal blue", "en", "card_by_code"),
        ("Spiele Karte K7Q", "de", "card_by_code"),
        ("I accept blue's offer: 1 ore for 1 wool", "en", "trade_accept_form"),
        ("Jeg accepterer blås tilbud", "da", "trade_accept_form"),
    ],
)
def test_lines_refused_with_the_line_to_write_instead(line: str, lang: str, key: str) -> None:
    """A card named by its report code, a trade accepted in words: each refused with what to
    write (the generic "an order was expected" said neither)."""
    parsed = parse_mail(line + "\n", _ctx(lang))
    assert [r.error.key for r in parsed.lines if r.error is not None] == [key]


#: A trade with the subject on both halves.
A_TRADE_WITH_THE_SUBJECT_ON_BOTH_HALVES: list[tuple[str, str, str]] = [
    # The subject before the second half of a trade, as before the first.
    ("Trade with blue: I give 2 lumber, I get 1 ore", "en", "Trade blue: give 2L, get 1O"),
    ("Trade with blue: I give 2 lumber and I want 1 ore", "en", "Trade blue: give 2L, get 1O"),
    (
        "Handel mit blau: ich gebe 2 Holz, ich bekomme 1 Erz",
        "de",
        "Handel blau: gebe 2H, bekomme 1E",
    ),
    ("Handel med blå: jeg giver 2 træ, jeg får 1 malm", "da", "Handel blå: giv 2T, få 1M"),
]


@pytest.mark.parametrize(
    ("line", "lang"),
    [
        # An upgrade's verb that ends its build, or is followed by no place, cuts nothing: the
        # settlement before it is not built anew.
        ("Settlement 4G 8W 3W upgrade to city", "en"),
        ("Hus 4K 8U 3U opgrader til by", "da"),
    ],
)
def test_an_upgrade_verb_after_its_place_is_one_upgrade(line: str, lang: str) -> None:
    (shown,) = _lines(line + "\n", lang)
    assert ";" not in shown and shown.split()[0] in ("City", "By"), shown


@pytest.mark.parametrize(
    ("body", "lang"),
    [
        # A heading that says the builds work ("if that works", "if I can") sets no fallback:
        # it is refused as not understood, never read as `Ersatzbau:`.
        ("Siedlung 4G 8W 3W\nFalls das klappt:\nStraße 6L 5L\n", "de"),
        ("Siedlung 4G 8W 3W\nWenn alles klappt:\nStraße 6L 5L\n", "de"),
        ("Settlement 4G 8W 3W\nIf I can:\nRoad 6B 5B\n", "en"),
        ("Settlement 4G 8W 3W\nIf it can be built:\nRoad 6B 5B\n", "en"),
    ],
)
def test_a_heading_that_the_builds_work_is_no_fallback(body: str, lang: str) -> None:
    parsed = parse_mail(body, _ctx(lang))
    assert not parsed.turn_orders().substitutes.lines
    assert [r.error.key for r in parsed.lines if r.error is not None] == [
        "unknown_heading",
        "under_unknown_heading",
    ]


@pytest.mark.parametrize(
    ("body", "lang"),
    [
        ("Siedlung 4G 8W 3W\nFalls das nicht klappt:\nStraße 6L 5L\n", "de"),
        ("Settlement 4G 8W 3W\nIf I can't:\nRoad 6B 5B\n", "en"),
        ("Settlement 4G 8W 3W\nIf I cannot:\nRoad 6B 5B\n", "en"),
        ("Settlement 4G 8W 3W\nIf it can't be built:\nRoad 6B 5B\n", "en"),
        ("Settlement 4G 8W 3W\nIf the spot is taken:\nRoad 6B 5B\n", "en"),
    ],
)
def test_a_heading_that_the_builds_fail_is_a_fallback(body: str, lang: str) -> None:
    parsed = parse_mail(body, _ctx(lang))
    assert parsed.ok, [str(r.error) for r in parsed.lines if r.error]
    assert len(parsed.turn_orders().substitutes.lines) == 1


#: Which half of a trade is given.
WHICH_HALF_OF_A_TRADE_IS_GIVEN: list[tuple[str, str, str]] = [
    # `my` on a half of `… for …` says that half is given, `your` that it is got.
    ("Trade blue: 1 ore for my 2 lumber", "en", "Trade blue: give 2L, get 1O"),
    ("Trade blue: your 1 ore for my 2 lumber", "en", "Trade blue: give 2L, get 1O"),
    ("Trade blue: my 2 lumber for your 1 ore", "en", "Trade blue: give 2L, get 1O"),
    ("Trade blue: 2 lumber for 1 ore", "en", "Trade blue: give 2L, get 1O"),
    ("Handel blau: dein 1 Erz für meine 2 Holz", "de", "Handel blau: gebe 2H, bekomme 1E"),
    ("Handel blau: 1 Erz gegen meine 2 Holz", "de", "Handel blau: gebe 2H, bekomme 1E"),
    ("Handel blå: din 1 malm for mine 2 træ", "da", "Handel blå: giv 2T, få 1M"),
    # `my` on both halves says nothing: refused with the form.
    ("Trade blue: my 2 lumber for my 1 ore", "en", "trade_form"),
    # The bank never gives more than it takes: the larger half is given.
    ("Seehandel: 1 Erz für 4 Holz", "de", "Seehandel 4H gegen 1E"),
    ("Seehandel Erz für 4 Holz", "de", "maritime_form"),
    ("Seehandel Wolle gegen 2 Erz", "de", "maritime_form"),
    ("Maritime trade: 1 ore for 4 lumber", "en", "Maritime 4L for 1O"),
    ("Søhandel 1 malm for 4 træ", "da", "Søhandel 4T for 1M"),
    ("3:1: 1G für 3W", "de", "Seehandel 3W gegen 1G"),
]


#: Numbers among the victims rank them.
NUMBERS_AMONG_THE_VICTIMS_RANK_THEM: list[tuple[str, str, str]] = [
    # Numbers among the victims rank them; the echo shows the order they are tried in.
    ("Räuber 11G, blau (2), gelb (1)", "de", "Räuber D4 (11G), raube gelb, blau"),
    ("Räuber 11G, 2. blau, 1. gelb", "de", "Räuber D4 (11G), raube gelb, blau"),
    ("Robber 11G, steal blue 2, yellow 1", "en", "Robber D4 (11G), steal yellow, blue"),
    ("Røver 11K, blå 2, gul 1", "da", "Røver D4 (11K), røv gul, blå"),
    (
        "Knight before roll: robber 11G, steal blue (2), yellow (1)",
        "en",
        "Knight before roll: Robber D4 (11G), steal yellow, blue",
    ),
    # Numbers that rank nothing clearly are refused, never dropped.
    ("Räuber 11G, blau 1, gelb 1", "de", "victims_numbered"),
    ("Räuber 11G, 1 blau, gelb 2", "de", "victims_numbered"),
    ("Robber 11G, steal blue, yellow 2", "en", "victims_numbered"),
]


#: A closing or a smiley after the order.
A_CLOSING_OR_A_SMILEY_AFTER_THE_ORDER: list[tuple[str, str, str]] = [
    # A closing or a smiley after the order on its line says nothing more.
    ("Road 6B 5B. Thanks!", "en", "Road C3 C4 (6B 5B)"),
    ("Road 6B 5B, thanks", "en", "Road C3 C4 (6B 5B)"),
    ("Straße 6L 5L. Gruß Anna", "de", "Straße C3 C4 (6L 5L)"),
    ("Vej 6L 5L. Tak!", "da", "Vej C3 C4 (6L 5L)"),
    ("Handel blau: gebe 1H, bekomme 1E. Danke!", "de", "Handel blau: gebe 1H, bekomme 1E"),
    ("Räuber 11G, raube blau, danke", "de", "Räuber D4 (11G), raube blau"),
    ("Road 6B 5B :)", "en", "Road C3 C4 (6B 5B)"),
    ("Straße 6L 5L ;-)", "de", "Straße C3 C4 (6L 5L)"),
    ("Road 6B 5B :D", "en", "Road C3 C4 (6B 5B)"),
    # More than a closing after the break: the line is what it was (refused).
    ("Straße 6L 5L. Danke, ich passe", "de", "hex_name_expected"),
]


#: A cards timing after the roll.
A_CARDS_TIMING_AFTER_THE_ROLL: list[tuple[str, str, str]] = [
    # `after the roll` on a card that is played after it anyway says nothing more.
    ("Monopol nach Wurf: Erz", "de", "Monopol Erz"),
    ("Monopoly after roll: ore", "en", "Monopoly Ore"),
    ("Monopol efter slag: malm", "da", "Monopol Malm"),
    ("Year of plenty after roll: wool, ore", "en", "Year of plenty 1W 1O"),
    ("Erfindung nach dem Wurf: Holz, Erz", "de", "Erfindung 1H 1E"),
    (
        "Road building after roll: 6B 5B, 5B 4G",
        "en",
        "Road building: C3 C4 (6B 5B), C4 D5 (5B 4G)",
    ),
    # Before the roll only a knight is played: refused with when each card is played.
    ("Monopol vor Wurf: Erz", "de", "card_after_the_roll"),
    ("Year of plenty before roll: wool, ore", "en", "card_after_the_roll"),
]


#: Roads listed and robber lines as written.
ROADS_LISTED_AND_ROBBER_LINES_AS_WRITTEN: list[tuple[str, str, str]] = [
    # Several paths after one road word: a road each, as `Straßen …` reads them.
    ("Straße 6L 5L, 5L 4G", "de", "Straße C3 C4 (6L 5L); Straße C4 D5 (5L 4G)"),
    ("Road 6B 5B and 5B 4G", "en", "Road C3 C4 (6B 5B); Road C4 D5 (5B 4G)"),
    ("Road from 6B to 5B and 5B to 4G", "en", "Road C3 C4 (6B 5B); Road C4 D5 (5B 4G)"),
    ("Vej 6L 5L og 5L 4K", "da", "Vej C3 C4 (6L 5L); Vej C4 D5 (5L 4K)"),
    # One path written with `und` stays one road.
    ("Straße zwischen 6L und 5L", "de", "Straße C3 C4 (6L 5L)"),
    ("Straße 6L 5L, 5L", "de", "path_two_hexes"),
    # The robber's hex ended by a stop, a colon, a dash or an arrow; a card stolen named.
    ("Räuber 11G. Blau", "de", "Räuber D4 (11G), raube blau"),
    ("Robber 11G: steal from blue", "en", "Robber D4 (11G), steal blue"),
    ("Robber 11G - steal from blue", "en", "Robber D4 (11G), steal blue"),
    ("Räuber 11G -> blau", "de", "Räuber D4 (11G), raube blau"),
    ("Robber 11G, steal 1 card from blue", "en", "Robber D4 (11G), steal blue"),
    ("Räuber 11G, klaue eine Karte von blau", "de", "Räuber D4 (11G), raube blau"),
    ("Jeg flytter røveren til 11K og stjæler fra blå", "da", "Røver D4 (11K), røv blå"),
]


#: A trade partner named after the terms.
A_TRADE_PARTNER_NAMED_AFTER_THE_TERMS: list[tuple[str, str, str]] = [
    # The partner after the terms: a trade with that player, not with the bank.
    ("Trade 2 lumber for 1 ore with blue", "en", "Trade blue: give 2L, get 1O"),
    ("Tausche 2 Holz gegen 1 Erz mit blau", "de", "Handel blau: gebe 2H, bekomme 1E"),
    ("Byt 2 træ for 1 malm med blå", "da", "Handel blå: giv 2T, få 1M"),
    ("Trade give 2 lumber, get 1 ore with blue", "en", "Trade blue: give 2L, get 1O"),
    # The bank named last stays a bank trade.
    ("Tausche 2 Holz gegen 1 Erz mit der Bank", "de", "Seehandel 2H gegen 1E"),
]


#: A fallback said inline is an option.
A_FALLBACK_SAID_INLINE_IS_AN_OPTION: list[tuple[str, str, str]] = [
    # A fallback said inline is an `oder` between the two builds.
    (
        "Siedlung 4G 8W 3W, falls das nicht geht Straße 6L 5L",
        "de",
        "Siedlung D5 D6 E5 (4G 8W 3W) oder Straße C3 C4 (6L 5L)",
    ),
    (
        "Settlement 4G 8W 3W, if that fails road 6B 5B",
        "en",
        "Settlement D5 D6 E5 (4G 8W 3W) or Road C3 C4 (6B 5B)",
    ),
    (
        "Settlement 4G 8W 3W, if not road 6B 5B",
        "en",
        "Settlement D5 D6 E5 (4G 8W 3W) or Road C3 C4 (6B 5B)",
    ),
    (
        "Hus 4K 8U 3U, hvis det ikke går: vej 6L 5L",
        "da",
        "Hus D5 D6 E5 (4K 8U 3U) eller Vej C3 C4 (6L 5L)",
    ),
]


@pytest.mark.parametrize(
    ("body", "lang"),
    [
        ("Siedlung 4G 8W 3W\nErsatzbau Straße 6L 5L\n", "de"),
        ("Settlement 4G 8W 3W\nSubstitute road 6B 5B\n", "en"),
        ("Hus 4K 8U 3U\nErstatning vej 6L 5L\n", "da"),
    ],
)
def test_a_substitute_keyword_without_its_colon(body: str, lang: str) -> None:
    orders = parse_mail(body, _ctx(lang)).turn_orders()
    assert len(orders.builds) == 1 and len(orders.substitutes.lines) == 1


#: Discards as players write them.
DISCARDS_AS_PLAYERS_WRITE_THEM: list[tuple[str, str, str]] = [
    # A discard list with its count written after or glued, its label, or in a sentence.
    ("Abwurf: 2xW", "de", "Abwurf: 2W"),
    ("Abwurf: Wolle x2, Getreide", "de", "Abwurf: 2W 1G"),
    ("Discard: wool x2 grain", "en", "Discard: 2W 1G"),
    ("Discard priority: wool, grain", "en", "Discard: 1W 1G"),
    ("Abwurf Reihenfolge: Wolle, Getreide", "de", "Abwurf: 1W 1G"),
    ("Smid rækkefølge: uld, korn", "da", "Aflever: 1U 1K"),
    ("I discard wool and grain", "en", "Discard: 1W 1G"),
    ("If a 7 is rolled, I discard wool and grain", "en", "Discard: 1W 1G"),
    ("Ich werfe Wolle und Getreide ab", "de", "Abwurf: 1W 1G"),
    ("Bei einer 7 werfe ich 2 Wolle und 1 Getreide ab", "de", "Abwurf: 2W 1G"),
    ("On a 7 robber 11G, steal blue", "en", "Robber D4 (11G), steal blue"),
]


#: Places written as a phone leaves them.
PLACES_WRITTEN_AS_A_PHONE_LEAVES_THEM: list[tuple[str, str, str]] = [
    # A place as a phone writes it: glued to its word, in brackets alone, joined by dashes.
    ("Straße6L 5L", "de", "Straße C3 C4 (6L 5L)"),
    ("Road6B 5B", "en", "Road C3 C4 (6B 5B)"),
    ("Straße (6L 5L)", "de", "Straße C3 C4 (6L 5L)"),
    ("Straße [6L 5L]", "de", "Straße C3 C4 (6L 5L)"),
    ("Siedlung (4G 8W 3W)", "de", "Siedlung D5 D6 E5 (4G 8W 3W)"),
    ("Siedlung 4G-8W-3W", "de", "Siedlung D5 D6 E5 (4G 8W 3W)"),
    ("Stadt 4G-8W-3W", "de", "Stadt D5 D6 E5 (4G 8W 3W)"),
    # The echo's brackets are still checked against the main form.
    ("Straße C3 C4 (6L 5L)", "de", "Straße C3 C4 (6L 5L)"),
]


#: A player described by colour.
A_PLAYER_DESCRIBED_BY_COLOUR: list[tuple[str, str, str]] = [
    # A player described by colour: `the blue player`, `den Blauen`, `den hvide spiller`.
    ("Robber 11G, steal from the blue player", "en", "Robber D4 (11G), steal blue"),
    ("Räuber 11G, raube den blauen Spieler", "de", "Räuber D4 (11G), raube blau"),
    ("Räuber 11G, raube den Blauen", "de", "Räuber D4 (11G), raube blau"),
    ("Handel mit dem Blauen: gebe 1H, bekomme 1E", "de", "Handel blau: gebe 1H, bekomme 1E"),
    ("Røver 11K, røv den hvide spiller", "da", "Røver D4 (11K), røv hvid"),
]


#: Lists marked by letters or ordinals.
LISTS_MARKED_BY_LETTERS_OR_ORDINALS: list[tuple[str, str, str]] = [
    # A list marked by letters or by ordinals.
    ("a) Straße 6L 5L", "de", "Straße C3 C4 (6L 5L)"),
    ("B) Road 6B 5B", "en", "Road C3 C4 (6B 5B)"),
    ("Erstens Straße 6L 5L", "de", "Straße C3 C4 (6L 5L)"),
    ("Firstly, road 6B 5B", "en", "Road C3 C4 (6B 5B)"),
    ("Dernæst vej 6L 5L", "da", "Vej C3 C4 (6L 5L)"),
    ("S 6L 5L", "de", "Straße C3 C4 (6L 5L)"),
]


#: A harbour named by its resource.
A_HARBOUR_NAMED_BY_ITS_RESOURCE: list[tuple[str, str, str]] = [
    # A special harbour named by its resource (or its letter) before the colon.
    ("2:1 Wolle: 2W gegen 1E", "de", "Seehandel 2W gegen 1E"),
    ("2:1 W: 2W gegen 1E", "de", "Seehandel 2W gegen 1E"),
    ("Søhandel 2:1 uld: 2U for 1M", "da", "Søhandel 2U for 1M"),
    ("2:1 Wolle: 2H gegen 1E", "de", "maritime_rate"),
    ("2:1 Xyz: 2W gegen 1E", "de", "maritime_form"),
]


#: The timing written first.
THE_TIMING_WRITTEN_FIRST: list[tuple[str, str, str]] = [
    (
        "Vor dem Würfeln spiele ich einen Ritter: Räuber 11G, raube blau",
        "de",
        "Ritter vor Wurf: Räuber D4 (11G), raube blau",
    ),
    (
        "Before rolling, play a knight: robber 11G, steal blue",
        "en",
        "Knight before roll: Robber D4 (11G), steal blue",
    ),
    ("Før slaget: ridder, røver 11K, røv blå", "da", "Ridder før slag: Røver D4 (11K), røv blå"),
    ("Nach dem Wurf: Monopol Erz", "de", "Monopol Erz"),
    ("After the roll: monopoly ore", "en", "Monopoly Ore"),
    ("Vor dem Wurf: Monopol Erz", "de", "card_after_the_roll"),
]


@pytest.mark.parametrize(
    ("line", "lang", "canonical"),
    [
        *THE_TIMING_WRITTEN_FIRST,
        *A_VERB_MID_LINE_STARTS_THE_NEXT_BUILD,
        *ROAD_BUILDING_PIECES_NAMED_ROADS_IN_A_BASE_GAME,
        *A_TRADE_WITH_THE_SUBJECT_ON_BOTH_HALVES,
        *WHICH_HALF_OF_A_TRADE_IS_GIVEN,
        *NUMBERS_AMONG_THE_VICTIMS_RANK_THEM,
        *A_CLOSING_OR_A_SMILEY_AFTER_THE_ORDER,
        *A_CARDS_TIMING_AFTER_THE_ROLL,
        *ROADS_LISTED_AND_ROBBER_LINES_AS_WRITTEN,
        *A_TRADE_PARTNER_NAMED_AFTER_THE_TERMS,
        *A_FALLBACK_SAID_INLINE_IS_AN_OPTION,
        *DISCARDS_AS_PLAYERS_WRITE_THEM,
        *PLACES_WRITTEN_AS_A_PHONE_LEAVES_THEM,
        *A_PLAYER_DESCRIBED_BY_COLOUR,
        *LISTS_MARKED_BY_LETTERS_OR_ORDINALS,
        *A_HARBOUR_NAMED_BY_ITS_RESOURCE,
    ],
)
def test_lines_as_players_write_them(line: str, lang: str, canonical: str) -> None:
    """Each line read as its canonical form (or refused with the key given)."""
    assert _lines(line + "\n", lang) == [canonical]


@pytest.mark.parametrize(
    ("line", "lang"),
    [("Siedlung 4G 8W 3W falls nicht", "de"), ("Settlement 4G 8W 3W if not", "en")],
)
def test_a_line_ending_on_a_fallback_of_words_asks_for_the_option(line: str, lang: str) -> None:
    (result,) = parse_mail(line + "\n", _ctx(lang)).lines
    assert result.error is not None and result.error.key == "ends_on_or"
