"""What a review of order mails in the expansions (and Danish) found, fixed.

Silent misreads first: a remark that doubts, postpones or changes the piece of the order it
stands beside is refused, never passed over (passed over, the line's own words would build
the piece now: `Ship D6 E6 (moved)` built a new ship where the player moved one, `Castle …
(maybe)` and `Burg … (später)` built the castle, `Road building: C8 D8, D8 D9 (both ships)`
built two roads); a substitute heading that names one of several main builds is refused; an
empty Danish `Guld:` no longer ends a substitute block. Then clear orders that were refused:
plural ships and castles, a ship's list and options, a ship's move as players phrase it, a
gold line in the order of its words."""

from __future__ import annotations

from functools import cache

import pytest

from pbm.notation import Context, parse_mail
from pbm.rules.board import Board
from pbm.rules.kron_board import generate_kron_board
from pbm.rules.layouts import generate_board
from pbm.rules.scenarios import scenario_board
from pbm.rules.state import DEFAULT_COLOURS


@cache
def _board(kind: str) -> Board:
    if kind == "sea":
        return scenario_board("neue-ufer", 4, 1)
    if kind == "kron":
        return generate_kron_board("large", 1)
    return generate_board("medium", 1)


def _read(line: str, lang: str, kind: str) -> tuple[str | None, str | None]:
    ctx = Context(_board(kind), lang, DEFAULT_COLOURS[:4], "round")
    (result,) = parse_mail(line + "\n", ctx).lines
    return result.canonical, result.error.key if result.error else None


@pytest.mark.parametrize(
    ("lang", "kind", "line"),
    [
        # Moved, not new: no source given, so no move to read; never a new ship.
        ("en", "sea", "Ship D6 E6 (moved)"),
        ("en", "sea", "Ship D6 E6 (relocated)"),
        ("en", "sea", "Ship D6 E6 -- move, don't build"),
        ("de", "sea", "Schiff D6 E6 (versetzt)"),
        ("de", "sea", "Schiff D6 E6 -- verschoben"),
        ("da", "sea", "Skib D6 E6 (flyttet)"),
        ("da", "sea", "Skib D6 E6 -- flyttes"),
        # Not now, or not at all.
        ("en", "sea", "Ship D6 E6 (don’t build)"),
        ("en", "sea", "Ship D6 E6 (won't build)"),
        ("en", "kron", "Castle C4 D4 D5 (don't build yet)"),
        ("en", "kron", "Castle C4 D4 D5 (maybe)"),
        ("en", "kron", "Castle C4 D4 D5 (later)"),
        ("en", "kron", "Make 2 bread (don't)"),
        ("en", "kron", "Bakery C4 D4 D5 (never mind)"),
        ("en", "base", "Road 6B 5B -- don't build"),
        ("de", "kron", "Burg C4 D4 D5 (vielleicht)"),
        ("de", "kron", "Burg C4 D4 D5 (später)"),
        ("de", "kron", "Burg C4 D4 D5 -- nee"),
        ("da", "kron", "Borg C4 D4 D5 (måske)"),
        ("da", "kron", "Borg C4 D4 D5 (maaske)"),
        ("da", "kron", "Borg C4 D4 D5 (senere)"),
        # Ships, where the line's word builds roads.
        ("en", "sea", "Road building: C8 D8, D8 D9 (both ships)"),
        ("en", "sea", "Road building: C8 D8, D8 D9 -- ships"),
        ("en", "sea", "Road C8 D8 (boat)"),
        ("de", "sea", "Straßenbau: C8 D8, D8 D9 (beide Schiffe)"),
        ("de", "sea", "Straßenbau: C8 D8, D8 D9 (als Schiffe)"),
        ("da", "sea", "Vejbygning: C8 D8, D8 D9 (begge skibe)"),
        ("da", "sea", "Vejbygning: C8 D8, D8 D9 (som skibe)"),
    ],
)
def test_a_remark_that_changes_the_order_is_refused(lang: str, kind: str, line: str) -> None:
    canonical, error = _read(line, lang, kind)
    assert canonical is None and error is not None, canonical


@pytest.mark.parametrize(
    ("lang", "kind", "line", "canonical"),
    [
        # A remark that only talks: passed over as before.
        ("en", "sea", "Ship D6 E6 (nice spot)", "Ship D6 E6"),
        ("de", "base", "Stadt 11H 4H 6L, wenn es reicht (Burg als Ziel)", "Stadt B2 C2 C3"),
    ],
)
def test_a_remark_that_only_talks_is_still_passed_over(
    lang: str, kind: str, line: str, canonical: str
) -> None:
    read, error = _read(line, lang, kind)
    assert error is None and read is not None and read.startswith(canonical), read


@pytest.mark.parametrize(("lang", "gold"), [("da", "Guld:"), ("de", "Gold:"), ("en", "Gold:")])
def test_an_empty_gold_line_is_refused_and_ends_no_substitute_block(lang: str, gold: str) -> None:
    """Danish `Guld:` alone was passed over as a heading, which ends a substitute block: the
    ship below it moved into the main lines."""
    ship = {"da": "Skib", "de": "Schiff", "en": "Ship"}[lang]
    substitute = {"da": "Erstatning:", "de": "Ersatzbau:", "en": "Substitute:"}[lang]
    body = f"{substitute}\n{ship} D7 E7\n{gold}\n{ship} C7 C8\n"
    ctx = Context(_board("sea"), lang, DEFAULT_COLOURS[:4], "round")
    lines = {r.line: r for r in parse_mail(body, ctx).lines}
    assert lines[3].error is not None and lines[3].error.key == "gold_form"
    assert lines[4].ok and lines[4].substitute


@pytest.mark.parametrize(
    ("lang", "kind", "body"),
    [
        ("en", "kron", "Make 1 bread\nCastle C4 D4 D5\nOnly if the castle fails:\nCity F3 F4 G3\n"),
        ("en", "kron", "Castle C4 D4 D5\nMake 1 bread\nIf the bread fails:\nCity F3 F4 G3\n"),
        (
            "de",
            "base",
            "Stadt 11H 4H 6L\nStraße 6L 5L\nFalls die Stadt nicht klappt:\nSiedlung 6L 5L 11G\n",
        ),
        ("da", "base", "By 11T 4T 6L\nVej 6L 5L\nHvis byen ikke lykkes:\nHus 6L 5L 11K\n"),
    ],
)
def test_a_substitute_heading_naming_one_of_several_builds_is_refused(
    lang: str, kind: str, body: str
) -> None:
    """Substitutes are built when any main build fails: `If the castle fails:` over two main
    builds was read as `Substitute:`, and the city was built when the bread failed though
    the castle stood. Refused, with the builds under it."""
    ctx = Context(_board(kind), lang, DEFAULT_COLOURS[:4], "round")
    lines = parse_mail(body, ctx).lines
    heading, below = lines[2], lines[3]
    assert heading.error is not None and heading.error.key == "substitute_names_one"
    assert below.error is not None and below.error.key == "under_unknown_heading"


@pytest.mark.parametrize(
    ("lang", "body"),
    [
        ("de", "Stadt 11H 4H 6L\nFalls die Stadt nicht klappt:\nSiedlung 6L 5L 11G\n"),
        ("en", "City 11L 4L 6B\nIf the city fails:\nSettlement 6B 5B 11G\n"),
        ("de", "Stadt 11H 4H 6L\nStraße 6L 5L\nFalls das nicht klappt:\nSiedlung 6L 5L 11G\n"),
    ],
)
def test_over_one_build_or_naming_none_it_is_the_substitute_heading(lang: str, body: str) -> None:
    ctx = Context(_board("base"), lang, DEFAULT_COLOURS[:4], "round")
    lines = parse_mail(body, ctx).lines
    assert all(r.ok for r in lines), [(r.text, r.error) for r in lines]
    assert lines[-1].substitute


@pytest.mark.parametrize(
    ("lang", "kind", "line", "canonical"),
    [
        ("en", "sea", "ships c7 d7 and d7 e7", "Ship C7 D7; Ship D7 E7"),
        ("en", "sea", "Two ships: C7 D7, D7 E7", "Ship C7 D7; Ship D7 E7"),
        ("de", "sea", "Schiffe C7 D7 und D7 E7", "Schiff C7 D7; Schiff D7 E7"),
        ("da", "sea", "To skibe: C7 D7, D7 E7", "Skib C7 D7; Skib D7 E7"),
        ("en", "kron", "Castles C4 D4 D5 and F3 F4 G3", "Castle C4 D4 D5"),
        ("de", "kron", "Zwei Burgen: C4 D4 D5, F3 F4 G3", "Burg C4 D4 D5"),
        ("da", "kron", "Borge C4 D4 D5 og F3 F4 G3", "Borg C4 D4 D5"),
    ],
)
def test_ships_and_castles_in_the_plural_are_each_a_build(
    lang: str, kind: str, line: str, canonical: str
) -> None:
    """As `Straßen A und B` always were (the plural was refused with "did you mean 'Ship'?")."""
    read, error = _read(line, lang, kind)
    assert error is None and read is not None and read.startswith(canonical), (read, error)
    assert read.count(";") == 1


@pytest.mark.parametrize(("line", "key"), [("Ships 6B 5B and 5B 4G", "ships_seafarers")])
def test_plural_ships_outside_seafarers_are_refused_as_a_ship_is(line: str, key: str) -> None:
    assert _read(line, "en", "base") == (None, key)


@pytest.mark.parametrize(
    ("lang", "line", "canonical"),
    [
        ("en", "Ship c7 d7, d7 e7", "Ship C7 D7; Ship D7 E7"),
        ("da", "Skib C7 D7 og D7 E7", "Skib C7 D7; Skib D7 E7"),
        ("en", "Ship C7 D7 or D7 E7", "Ship C7 D7 or Ship D7 E7"),
        ("de", "Schiff c7 d7 oder d7 e7", "Schiff C7 D7 oder Schiff D7 E7"),
        ("da", "Skib c7 d7 eller d7 e7", "Skib C7 D7 eller Skib D7 E7"),
    ],
)
def test_a_ship_line_lists_and_offers_paths_as_a_road_line_does(
    lang: str, line: str, canonical: str
) -> None:
    """`Road A, B` and `Road A or B` were read; the same with a ship was refused ("a path is
    named by two hexes, not 4", "'D7' is no order")."""
    assert _read(line, lang, "sea") == (canonical, None)


@pytest.mark.parametrize(
    ("lang", "line", "canonical"),
    [
        ("de", "Schiff C7 D7 nach D6 E6 versetzen", "Schiff versetzen C7 D7 nach D6 E6"),
        ("de", "Schiff C7 D7 nach D6 E6", "Schiff versetzen C7 D7 nach D6 E6"),
        ("de", "Verschiebe Schiff C7 D7 nach D6 E6", "Schiff versetzen C7 D7 nach D6 E6"),
        ("de", "Bewege mein Schiff von C7 D7 nach D6 E6", "Schiff versetzen C7 D7 nach D6 E6"),
        ("en", "relocate ship C7 D7 to D6 E6", "Move ship C7 D7 to D6 E6"),
        ("en", "move boat c7 d7 to d6 e6", "Move ship C7 D7 to D6 E6"),
        ("en", "sail my ship from C7 D7 to D6 E6", "Move ship C7 D7 to D6 E6"),
        ("da", "Jeg flytter mit skib fra C7 D7 til D6 E6", "Flyt skib C7 D7 til D6 E6"),
        ("da", "Flyt båd C7 D7 til D6 E6", "Flyt skib C7 D7 til D6 E6"),
        ("da", "Skib C7 D7 til D6 E6 flyttes", "Flyt skib C7 D7 til D6 E6"),
    ],
)
def test_a_ship_move_as_players_phrase_it(lang: str, line: str, canonical: str) -> None:
    """Refused before ("'nach' ist kein Feld", "'til' er ikke et felt")."""
    assert _read(line, lang, "sea") == (canonical, None)


@pytest.mark.parametrize(
    ("lang", "line", "canonical"),
    [
        ("en", "Gold: ore first, then grain", "Gold: ore, grain"),
        ("en", "Gold: ore > grain", "Gold: ore, grain"),
        ("de", "Gold: Erz zuerst, danach Getreide", "Gold: Erz, Getreide"),
        ("da", "Guld: uld, derefter korn", "Guld: Uld, Korn"),
    ],
)
def test_a_gold_line_in_the_order_of_its_words(lang: str, line: str, canonical: str) -> None:
    read, error = _read(line, lang, "sea")
    assert error is None and read is not None and read.lower() == canonical.lower(), read


@pytest.mark.parametrize(
    ("lang", "line"),
    [("en", "Ship C7 D7 -> D7 E7"), ("de", "Schiff C7 D7 -> D7 E7"), ("da", "Skib C7 D7 => D7 E7")],
)
def test_an_arrow_on_a_ship_line_is_a_move_never_two_ships(lang: str, line: str) -> None:
    canonical, error = _read(line, lang, "sea")
    assert error is None and canonical is not None and ";" not in canonical
    assert canonical.endswith("D7 E7") and " C7 D7 " in canonical


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("en", "Ships C7 D7 to D7 E7"),
        ("de", "Schiffe C7 D7 nach D7 E7"),
        ("da", "Skibe C7 D7 til D7 E7"),
    ],
)
def test_a_plural_of_ships_is_never_a_move(lang: str, line: str) -> None:
    assert _read(line, lang, "sea")[0] is None


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        # Order words of a gold line only: in a trade they may begin a second one.
        ("en", "Trade with blue: 1 ore for 2 wool, next 1 brick"),
        ("en", "Trade with blue: 1 ore for 2 wool > 1 brick"),
        ("de", "Handel mit blau: 1 Erz gegen 2 Wolle, danach 1 Lehm"),
        ("da", "Byt med blå: 1 malm for 2 uld, derefter 1 ler"),
    ],
)
def test_a_gold_lines_order_words_merge_no_trade(lang: str, line: str) -> None:
    assert _read(line, lang, "base")[0] is None


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        # Chatter with a hedge's word in it: passed over as before.
        ("en", "Monopoly ore (sorry guys, don't hate me)"),
        ("en", "Buy card # hope for a knight, don't judge"),
        ("en", "Road 6B 5B -- see you later"),
        ("en", "Road 6B 5B (perhaps the best spot left)"),
        ("de", "Straße 6L 5L (nie wieder Lehmmangel!)"),
        ("de", "Karte kaufen # vielleicht ein Ritter"),
        ("de", "Straße 6L 5L -- bis später"),
        ("da", "Hus 6L 5L 11K # måske den bedste plads"),
        ("da", "Vej 6L 5L -- vi ses senere"),
    ],
)
def test_chatter_that_holds_a_hedges_word_is_passed_over(lang: str, line: str) -> None:
    canonical, error = _read(line, lang, "base")
    assert error is None and canonical is not None, error


@pytest.mark.parametrize(
    "line", ["Make 1 bread and castle C4 D4 D5", "Make 1 bread and build a castle at C4 D4 D5"]
)
def test_goods_made_and_a_castle_on_one_line_are_two_builds(line: str) -> None:
    """`Make` also upgrades (`Make … a city`): after goods it cut no castle off (German and
    Danish read it)."""
    assert _read(line, "en", "kron") == ("Make 1 Bread; Castle C4 D4 D5 (3W 12L 6St)", None)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "your city stands there already"),
        ("de", "dort steht schon deine Stadt"),
        ("da", "din by står der allerede"),
    ],
)
def test_a_city_on_ones_own_city_says_the_city_stands_there(lang: str, said: str) -> None:
    """It said "there is no settlement of yours there", as if nothing of the player's stood
    there."""
    from pbm.notation.checks import check_receipt
    from pbm.notation.format import format_item
    from pbm.rules import Settings
    from pbm.rules.orders import City
    from pbm.rules.sim import play_game

    state = next(s for s, _ in play_game(Settings.for_players(4), 3, "autopilot") if s.cities[0])
    ctx = Context(state.board, lang, state.colours, "round")
    line = format_item(City(state.cities[0][0]), ctx)
    parsed = parse_mail(line + "\n", ctx)
    check_receipt(parsed, state, 0, lang)
    (result,) = parsed.lines
    assert result.error is not None and said in result.error.localized(lang)


@pytest.mark.parametrize(
    ("lang", "line", "fixed"),
    [
        ("en", "2:1 ore: 2 wool for 1 grain", "Maritime 2O for 1G"),
        ("en", "Maritime 3:1 2W for 1G", "Maritime 3W for 1G"),
        ("de", "Seehandel 4:1 3H gegen 1E", "Seehandel 4H gegen 1E"),
        ("de", "2:1 Wolle: 2H gegen 1E", "Seehandel 2W gegen 1E"),
        ("da", "Søhandel 3:1 2U for 1K", "Søhandel 3U for 1K"),
    ],
)
def test_a_sea_trade_off_its_rate_is_answered_with_the_line_that_fits(
    lang: str, line: str, fixed: str
) -> None:
    """The refusal named the same line, `Seehandel 3W gegen 1G`, whatever was written."""
    ctx = Context(_board("base"), lang, DEFAULT_COLOURS[:4], "round")
    (result,) = parse_mail(line + "\n", ctx).lines
    assert result.error is not None and result.error.key == "maritime_rate"
    assert result.error.localized(lang).endswith(f"'{fixed}'")
