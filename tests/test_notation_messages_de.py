"""Every error of the parser speaks German too: `OrderError.localized("de")`.

Each message has a stable key (`pbm/notation/messages.py`) with an English and a German text;
`message` stays the English one. One bad line per key, read in a German game (seed 1, medium
board, four players); a structural test reads the notation sources so that a new error without
a German text fails here.
"""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest
from helpers import game, settle

from pbm.i18n import languages
from pbm.notation import (
    AmbiguousError,
    Context,
    IllegalOrderError,
    NotationError,
    OrderError,
    assemble,
    messages,
    parse_line,
    parse_mail,
    refusals,
    vocab,
)
from pbm.notation.checks import check_receipt
from pbm.notation.messages import TEXTS
from pbm.notation.names import hex_candidates
from pbm.rules.layouts import generate_board

NOTATION = Path(__file__).resolve().parent.parent / "pbm" / "notation"

#: The German text of every key (from the catalogue), and the keys whose text in an English
#: game differs from `message` (the forms to copy, with the English order words).
TEXTS_DE = {key: messages.text(key, "de") for key in TEXTS}
TEXTS_EN_GAME = {key for key in TEXTS if messages.text(key, "en") != TEXTS[key]}

#: Keys that no line can reach at present (kept, since the check stands in `parse_mail`).
UNREACHABLE = {
    # The letters of a language added from data alone: tests/test_language_data.py.
    "other_letters",
    "other_letters_elsewhere",
    "setup_placements_only",  # the setup phase reads every build line as a placement
    "setup_placements_only_sea",
    # Needs the writer's seat, which the parser is not given: the receipt check gives it,
    # tests/test_notation_errors.py.
    "rob_self",
    # Seafarers only (the base board refuses ships and gold first): tests/test_notation_sea.py.
    "move_ship_form",
    "second_gold",
    "gold_form",
    "gold_none_here",
    # And tests/test_notation_reads.py.
    "gold_either",
    "gold_one_line",
    # The pirate's orders past the base board's refusal: tests/test_notation_pirate.py.
    "pirate_on_sea",
    # A crossing touches land: no name of a board's fits more than `MAX_CANDIDATES` of them
    # (the cap stands all the same).
    "ambiguous_crossing_many",
    "pirate_hex_expected",
    "pirate_no_victims",
    "second_pirate",
    # Kronlande's orders past the base board's refusal: tests/test_notation_kron.py.
    "order_expected_kron",
    "german_letters_kron",
    "english_letters_kron",
    "card_alone",
    "make_form",
    "make_goods",
    "make_at_least_one",
    "feast_form",
    "monopoly_no_goods",
    "goods_not_with_bank",
    "letters_with_count",
    "letters_by_name",
    "letters_ask_one",
    "letters_ask_two",
    "good_at_bank_ask",
    "good_in_monopoly_ask",
    # `Ausbau <Kreuzung>` without the city named is a city outside Kronlande:
    # tests/test_notation_forms.py.
    "upgrade_to_what",
}

#: key → (line, phase, the English message as before keys existed).
CASES: dict[str, tuple[str, str, str]] = {
    "empty_line": ("", "round", "empty line"),
    "value_expected": ("Kennwort:", "round", "a value was expected after 'kennwort'"),
    "colour_expected": ("Räuber 6L, raube lila", "round", "a colour was expected, not 'lila'"),
    "date_expected": (
        "Urlaub bis morgen",
        "round",
        "a date was expected (2026-12-24 or 24.12.2026), not 'morgen'",
    ),
    "timezone_expected": (
        "Zeitzone: Mond/Krater",
        "round",
        "a time zone was expected, such as Europe/Berlin or America/New_York, not 'Mond/Krater'",
    ),
    "colour_not_playing": (
        "Räuber 6L, raube grün",
        "round",
        "no player has the colour 'grün' in this game",
    ),
    "ships_seafarers": ("Schiff 6L Meer", "round", "ships are built only in Seafarers scenarios"),
    "gold_seafarers": ("Gold: Erz", "round", "gold is chosen only in Seafarers scenarios"),
    "pirate_seafarers": ("Pirat A1", "round", "the pirate sails only in Seafarers scenarios"),
    "order_expected": (
        "Turm 6L 5L",
        "round",
        "an order was expected (Siedlung, Stadt, Straße, Entwicklungskarte, "
        "Räuber, Handel, Seehandel, …), not 'Turm'",
    ),
    "kronlande_only": ("Burg 6L 5L", "round", "'Burg' is an order of Kronlande games only"),
    "brackets_differ": (
        "Stadt C3 C4 D4 (6L 5L 12E)",
        "round",
        "the name in brackets does not name the same place",
    ),
    "robber_hex_expected": ("Räuber raube rot", "round", "the robber's hex was expected"),
    "knight_timing": (
        "Ritter: Räuber 6L, raube blau",
        "round",
        "say when the knight is played: 'vor Wurf' or 'nach Wurf'",
    ),
    "count_too_high": (
        "Abwurf: 100 H",
        "round",
        "100 cards of one kind are more than anyone holds",
    ),
    "resource_expected": (
        "Abwurf: W X",
        "round",
        "a resource (H/L/W/G/E or its name) was expected, not 'X'",
    ),
    "resource_after_number": ("Abwurf: W 2", "round", "a resource was expected after the number"),
    "resources_expected": ("Abwurf:", "round", "resources were expected"),
    "two_resources": ("Erfindung H", "round", "two resources were expected, not 1"),
    "trade_form": (
        "Handel rot: 1H",
        "round",
        "a trade is written 'Handel <Farbe>: gebe …, bekomme …'",
    ),
    "maritime_form": ("Seehandel H", "round", "a bank trade is written 'Seehandel 4H gegen 1E'"),
    "maritime_too_many": ("Seehandel 100H gegen 1E", "round", "at most 99 cards in a bank trade"),
    "maritime_at_least_one": (
        "Seehandel 0H gegen 1E",
        "round",
        "counts of a bank trade are at least 1",
    ),
    "road_building_paths": (
        "Straßenbau: C4 D4, D4 D5, D2 D3",
        "round",
        "road building names one or two paths, separated by ','",
    ),
    "setup_form": (
        "Siedlung C3 C4 D4",
        "setup",
        "a setup placement is written 'Siedlung <Kreuzung> Straße <Weg>'",
    ),
    "setup_label_unclear": (
        "Nicht: Siedlung 6L 5L 11G Straße 6L 5L",
        "setup",
        "the words 'Nicht:' before the placement may change it, and are not understood: write "
        "the placement without them, and a second choice with 'oder' or on a line of its own",
    ),
    "hex_name_expected": ("Straße über 6L 5L", "round", "a hex name was expected, not 'über'"),
    "no_hex": ("Straße 6L 7E", "round", "there is no hex 7E on this board"),
    "one_hex": ("Räuber 6L 5L", "round", "one hex was expected, 2 were named"),
    "robber_at_sea": (
        "Räuber Meer",
        "round",
        "the robber never goes to sea: it goes onto a land hex with a number, as in 'Räuber 9H'",
    ),
    "crossing_three_hexes": (
        "Siedlung C3 C4 D4 D5",
        "round",
        "a crossing is named by three hexes, not 4",
    ),
    "no_crossing": ("Siedlung C3 C4 C5", "round", "there is no crossing where C3, C4, C5 meet"),
    "ambiguous_crossing": ("Siedlung B2 Meer Meer", "round", "B2, Meer, Meer names 2 crossings"),
    "path_two_hexes": (
        "Straße C3 C4 D4",
        "round",
        "a path is named by two hexes (or two crossings with '-'), not 3",
    ),
    "no_path": ("Straße C3 C5", "round", "there is no path between C3, C5"),
    "ambiguous_path": ("Straße B2 Meer", "round", "B2, Meer names 3 paths"),
    "path_by_crossings_form": (
        "Straße C3 - C4 - D4",
        "round",
        "a path by crossings is written 'crossing - crossing'",
    ),
    "crossings_not_joined": (
        "Straße C3 C4 D4 - D2 D3 E2",
        "round",
        "those two crossings are not joined by a path",
    ),
    "ambiguous_path_by_crossings": (
        "Straße B4 Meer Meer - B4 Meer Meer",
        "round",
        "2 paths join crossings named so",
    ),
    "line_too_long": (
        "Siedlung " + "6L " * 400,
        "round",
        "this line is 1209 characters long; lines of more than 1000 characters are not read",
    ),
    "too_many_cards": (
        "Abwurf: 50W 50H",
        "round",
        "100 cards are more than anyone holds (at most 99 in a list)",
    ),
    "number_too_long": (
        "Runde 12345678",
        "round",
        "a number of 8 digits is too long here (at most 6 digits)",
    ),
    "token_expected": (
        "Bestätigen: ab_c",
        "round",
        "a confirmation code (letters, digits and '-', at most 40 characters) was "
        "expected, not 'ab_c'",
    ),
}

#: Further lines for keys raised at more than one place.
MORE_CASES: list[tuple[str, str, str, str]] = [
    ("colour_expected", "Farben: rot, lila", "round", "a colour was expected, not 'lila'"),
    (
        "colour_expected",
        "Handel lila: gebe 1H, bekomme 1E",
        "round",
        "a colour was expected, not 'lila'",
    ),
    (
        "brackets_differ",
        "Siedlung C3 C4 D4 (C4 D4 D5)",
        "round",
        "the name in brackets does not name the same place",
    ),
    (
        "resource_expected",
        "Monopol Gold",
        "round",
        "a resource (H/L/W/G/E or its name) was expected, not 'gold'",
    ),
    (
        "resource_expected",
        "Seehandel 4H gegen 1X",
        "round",
        "a resource (H/L/W/G/E or its name) was expected, not 'x'",
    ),
    (
        "crossing_three_hexes",
        "Straße C3 C4 - C4 D4 D5",
        "round",
        "a crossing is named by three hexes, not 2",
    ),
    ("no_hex", "Siedlung 6L 5L 7E Straße 6L 5L", "setup", "there is no hex 7E on this board"),
    ("maritime_too_many", "Seehandel 4H gegen 100E", "round", "at most 99 cards in a bank trade"),
]

#: Lines of the order language as players write it (issue 13): key → (line, phase).
PLAYERS_CASES: dict[str, tuple[str, str]] = {
    "remark_unclear": ("Siedlung 6L 5L 11G (wenn nicht blau)", "round"),
    "marked_remark_unclear": ("Siedlung 6L 5L 11G # wenn nicht blau", "round"),
    "dashes_remark_unclear": ("Räuber 9E -- raube gelb", "round"),
    "card_by_code": ("Spiele Karte K7Q vor dem Wurf: Räuber 9H", "round"),
    "trade_accept_form": ("Ich nehme das Angebot von blau an: 1 Erz für 1 Wolle", "round"),
    "or_and_mixed": ("Siedlung 6L 5L 11G oder Stadt 6L 5L 11G und Straße 6L 5L", "round"),
    "buy_how_many": ("Entwicklungskarten", "round"),
    "buy_form": ("Karte foo", "round"),
    "buy_and_play": ("Karte kaufen und Monopol Erz spielen", "round"),
    "vp_card": ("Wahrzeichen", "round"),
    "keyword_rest": ("Runde: 5 bitte jetzt", "round"),
    "maritime_rate": ("Seehandel 4:1 3H gegen 1E", "round"),
    "or_in_list": ("Handel rot: gebe 1W oder 1G, bekomme 1E", "round"),
    "road_form": ("Straße", "round"),
    "did_you_mean": ("Strase 6L 5L", "round"),
    "crossing_pick": ("Siedlung 6L 5L", "round"),
    "no_hex_near": ("Siedlung 8V 3E 4H", "round"),
    "path_pick": ("Straße 10G", "round"),
    "trade_one_partner": ("Handel blau oder weiß: gebe 2G, bekomme 1L", "round"),
    "trade_same_resource": ("Handel blau: gebe 2W, bekomme 2W", "round"),
    "robber_no_number": ("Räuber Wüste, raube blau", "round"),
    "victims_numbered": ("Räuber 11G, raube blau 1, gelb 1", "round"),
    "card_after_the_roll": ("Monopol vor Wurf: Erz", "round"),
    "seven_only_robber": ("Bei einer 7: Siedlung 6L 5L 11G", "round"),
    "setup_road_apart": ("Siedlung 6L 5L 11G Straße 8H 3E", "setup"),
    "list_order_words": ("Abwurf: Wolle, Holz zuletzt, Getreide", "round"),
    "count_differs": ("Drei Straßen: 4G 9L und 9L 3W", "round"),
    "builds_list_form": ("Städte " + ", ".join(["6L 5L 11G"] * 6), "round"),
    "road_toward_pick": ("Siedlung 9H 5L 10G Straße Richtung 5L", "setup"),
    "road_toward_none": ("Siedlung 9H 5L 10G Straße Richtung 9L", "setup"),
    "upgrade_form": ("Siedlung 6L 5L 11G später zur Stadt ausbauen", "round"),
}

#: Mails with a line refused for what the other lines say: key → (mail, its line, language).
PLAYERS_MAIL_CASES: dict[str, tuple[str, int, str]] = {
    "unknown_heading": ("Wenn möglich:\nStadt 6L 5L 11G\n", 1, "de"),
    "under_unknown_heading": ("Wenn möglich:\nStadt 6L 5L 11G\n", 2, "de"),
    "substitute_names_one": (
        "Stadt 11H 4H 6L\nStraße 6L 5L\nFalls die Stadt nicht klappt:\nSiedlung 6L 5L 11G\n",
        3,
        "de",
    ),
    "substitute_names_none": ("Falls die Stadt nicht klappt:\nSiedlung 6L 5L 11G\n", 1, "de"),
    "substitute_over_choices": (
        "Stadt 11H 4H 6L oder Straße 6L 5L\nFalls die Stadt nicht klappt:\nSiedlung 6L 5L 11G\n",
        2,
        "de",
    ),
    "or_else_without_build": ("Status\noder Siedlung 6L 5L 11G\n", 2, "de"),
    "pass_with_orders": ("Stadt 6L 5L 11G\nIch passe\n", 2, "de"),
    "ends_on_or": ("Stadt 6L 5L 11G oder\n", 1, "de"),
    "option_one_build": ("Stadt 6L 5L 11G\noder Straße 6L 5L und Straße 5L 11G\n", 2, "de"),
    "german_letters": ("Maritime 4H for 1E\n", 1, "en"),
    "english_letters": ("Seehandel 4L gegen 1O\n", 1, "de"),
    "german_letters_elsewhere": ("Maritime 4H for 1E\nRobber 9L, steal blue\n", 2, "en"),
    "english_letters_elsewhere": ("Seehandel 4L gegen 1O\nAbwurf: L W\n", 2, "de"),
    # Danish (issue 29): its letters in a German or English game, theirs in a Danish game.
    "danish_letters": ("Seehandel 4U gegen 1K\n", 1, "de"),
    "german_letters_other": ("Søhandel 4W for 1E\n", 1, "da"),
    "english_letters_other": ("Søhandel 4W for 1O\n", 1, "da"),
    "danish_letters_elsewhere": ("Maritime 4U for 1K\nDiscard: L L\n", 2, "en"),
    "english_letters_other_elsewhere": ("Søhandel 4W for 1O\nAflever: L L\n", 2, "da"),
}


@pytest.mark.parametrize("key", sorted(PLAYERS_CASES))
def test_every_players_form_refusal_has_a_german_text(key: str) -> None:
    text, phase = PLAYERS_CASES[key]
    err = _error(text, phase)
    assert err.key == key, err
    _assert_german(err)


@pytest.mark.parametrize("key", sorted(PLAYERS_MAIL_CASES))
def test_every_refusal_in_a_mail_has_a_german_text(key: str) -> None:
    body, line, lang = PLAYERS_MAIL_CASES[key]
    parsed = parse_mail(body, _ctx(lang=lang))
    err = next(r for r in parsed.lines if r.line == line).error
    assert err is not None and err.key == key, err
    _assert_german(err)


#: Setup mails with a line of a round (read, then dropped, were it not refused): key → (mail,
#: its line).
SETUP_MAIL_CASES: dict[str, tuple[str, int]] = {
    "setup_round_order": ("Siedlung 6L 5L 11G Straße 6L 5L\nRäuber 9H, raube blau\n", 2),
}


@pytest.mark.parametrize("key", sorted(SETUP_MAIL_CASES))
def test_a_round_order_in_the_setup_is_refused_in_german(key: str) -> None:
    body, line = SETUP_MAIL_CASES[key]
    parsed = parse_mail(body, _ctx("setup"))
    err = next(r for r in parsed.lines if r.line == line).error
    assert err is not None and err.key == key, err
    _assert_german(err)


#: Mails whose second line is refused by `parse_mail`: key → (mail, English message).
MAIL_CASES: dict[str, tuple[str, str]] = {
    "same_trade_again": (
        "Handel blau: gebe 1H, bekomme 1E\nHandel blau: gebe 1H, bekomme 1E\n",
        "the same trade stands above: it is offered once",
    ),
    "second_robber": (
        "Räuber 6L, raube blau\nRäuber 5L, raube gelb\n",
        "only one robber order per mail; the first one counts",
    ),
    "second_discard": (
        "Abwurf: W W\nAbwurf: H\n",
        "only one discard list per mail; the first one counts",
    ),
    "second_knight": (
        "Ritter vor Wurf: Räuber 6L\nRitter nach Wurf: Räuber 5L\n",
        "only one knight per mail; the first one counts",
    ),
    "second_monopoly": (
        "Monopol Holz\nMonopol Erz\n",
        "only one monopoly per mail; the first one counts",
    ),
}

#: English words none of the German texts may hold (German words spelled alike are left out).
ENGLISH = re.compile(
    r"\b(the|was|were|expected|not|there|is|are|no|of|one|two|only|and|or|by|with|named|"
    r"names|written|path|paths|hex|hexes|crossing|crossings|colour|resource|resources|order|"
    r"player|cards?|board|bank|trade|setup|place|say|when|at|most|least|after|can|mean|"
    r"several|join|those|its|this|game|counts?|per|first|knight|robber|monopoly|discard|"
    r"list|empty|line|value|ships|built|scenarios|holds|anyone|meet|brackets|same)\b"
)


def _ctx(phase: str = "round", lang: str = "de") -> Context:
    return Context(generate_board("medium", 1), lang, ("rot", "blau", "gelb", "weiss"), phase)


def _error(text: str, phase: str = "round", lang: str = "de") -> OrderError:
    with pytest.raises(OrderError) as info:
        parse_line(text, _ctx(phase, lang))
    return info.value


def _assert_german(err: OrderError) -> str:
    de = err.localized("de")
    assert de != err.message, err.key
    assert not ENGLISH.search(de), (err.key, de, ENGLISH.search(de))
    en = err.localized("en")
    if err.key in TEXTS_EN_GAME:
        # The form to copy, with the English order words.
        assert en != err.message and not re.search(r"Siedlung|Handel|Wurf|gegen", en), en
    else:
        assert en == err.message
    return de


@pytest.mark.parametrize("key", sorted(CASES))
def test_every_error_has_a_german_text(key: str) -> None:
    text, phase, english = CASES[key]
    err = _error(text, phase)
    assert isinstance(err, (NotationError, AmbiguousError))
    assert (err.key, err.message) == (key, english)
    _assert_german(err)


@pytest.mark.parametrize(("key", "text", "phase", "english"), MORE_CASES)
def test_every_raise_site_of_a_key_has_its_german_text(
    key: str, text: str, phase: str, english: str
) -> None:
    err = _error(text, phase)
    assert (err.key, err.message) == (key, english)
    _assert_german(err)


def test_the_rest_of_a_long_mail_is_refused_in_german() -> None:
    parsed = parse_mail("Status\n" * 301, _ctx())
    err = parsed.lines[-1].error
    assert err is not None and len(parsed.lines) == 301
    assert (err.key, err.message, err.line) == (
        "rest_not_read",
        "only the first 300 lines of a mail are read; the rest of this mail was not read",
        301,
    )
    _assert_german(err)


@pytest.mark.parametrize("key", sorted(MAIL_CASES))
def test_a_second_single_order_is_refused_in_german(key: str) -> None:
    body, english = MAIL_CASES[key]
    parsed = parse_mail(body, _ctx())
    first, second = parsed.lines
    assert first.ok, first.error
    err = second.error
    assert err is not None
    assert (err.key, err.message, err.line) == (key, english, 2)
    _assert_german(err)


def test_vocab_and_names_errors_raised_directly_have_german_texts() -> None:
    with pytest.raises(NotationError) as colour:
        vocab.colour("lila")
    with pytest.raises(NotationError) as resource:
        vocab.resource("x", "de")
    with pytest.raises(NotationError) as hex_name:
        hex_candidates(_ctx().board, "zz9")
    for info in (colour, resource, hex_name):
        _assert_german(info.value)
    assert hex_name.value.message == "there is no hex ZZ9 on this board"


def test_unreachable_keys_render_in_both_languages() -> None:
    for key in UNREACHABLE:
        params = {
            "pirate_on_sea": {"name": "9H"},
            "order_expected_kron": {"word": "Blubb"},
            "pirate_hex_expected": {"example": "Pirat D5"},
            "pirate_no_victims": {"example": "Pirat D5"},
            "ambiguous_crossing_many": {"names": "Meer, Meer, 9H", "count": 9},
            "german_letters_kron": {"suggestion": "Seehandel 4S gegen 1F"},
            "english_letters_kron": {"suggestion": "Maritime 4St for 1F"},
            "other_letters": {
                "theirs": "P Q R V X",
                "ours": "H L W G E",
                "suggestion": "Seehandel 4W gegen 1E",
            },
            "other_letters_elsewhere": {"mine": "Abwurf: W E", "theirs": "Abwurf: R X"},
            "letters_with_count": {"shown": "St.", "name": "Stoff", "example": "1St"},
            "letters_by_name": {"shown": "Br", "name": "Brot"},
            "letters_ask_one": {"shown": "1 Br", "name": "Brot", "line": "Herstellen 1 Brot"},
            "letters_ask_two": {
                "shown": "2 St",
                "first": "Stoff",
                "first_line": "Abwurf: Stoff Stoff",
                "second": "Stein",
                "second_line": "Abwurf: S S",
            },
            "good_at_bank_ask": {
                "shown": "4 St",
                "good": "Stoff",
                "resource": "Stein",
                "line": "Seehandel 4S gegen 1H",
            },
            "gold_either": {
                "shown": "Holz/Wolle",
                "turn": "Gold: Holz, Wolle",
                "first": "Gold: Holz",
            },
            "gold_one_line": {"shown": "11$", "line": "Gold: Erz"},
            "good_in_monopoly_ask": {
                "shown": "St",
                "good": "Stoff",
                "resource": "Stein",
                "line": "Monopol Stein",
            },
        }.get(key, {})
        err = NotationError.make(key, **params)
        assert err.message == TEXTS[key].format(**params)
        _assert_german(err)


def test_german_texts_quote_the_players_words_as_written() -> None:
    assert _error("Räuber 6L, raube Lila").localized("de") == "'Lila' ist keine Farbe"
    assert _error("Räuber 6L, raube Grün").localized("de") == (
        "die Farbe 'Grün' spielt in diesem Spiel nicht mit"
    )
    assert _error("Straße 6L 7E").localized("de") == "auf diesem Spielplan gibt es kein Feld 7E"
    assert _error("Kennwort:").localized("de") == "nach 'Kennwort' fehlt ein Wert"
    assert _error("Abwurf: W Xy").localized("de") == (
        "'Xy' ist kein Rohstoff (H/L/W/G/E oder sein Name)"
    )


def test_ambiguity_keeps_its_candidates_and_column_in_german() -> None:
    err = _error("Siedlung B2 Meer Meer")
    assert isinstance(err, AmbiguousError)
    assert err.candidates == ["A1 A2 B2", "A1 B1 B2"]
    assert err.localized("de") == "B2, Meer, Meer passt auf 2 Kreuzungen"
    col = _error("Straße 6L 7E").column
    assert col == len("Straße 6L ") + 1


def test_english_game_gets_english_messages() -> None:
    err = _error("Discard: L X", lang="en")
    assert err.message == "a resource (L/B/W/G/O or its name) was expected, not 'X'"
    assert err.localized("en") == err.message
    assert err.localized("de") == "'X' ist kein Rohstoff (L/B/W/G/O oder sein Name)"


def test_an_english_game_is_shown_forms_with_english_words() -> None:
    err = _error("Trade blue give 1L", lang="en")
    assert err.key == "trade_form"
    assert err.localized("en") == "a trade is written 'Trade <colour>: give …, get …'"
    assert "Handel" in err.message  # the logs and `pbm orders check` keep the one text


def test_receipt_refusals_are_localized_by_their_rule() -> None:
    s = game()
    settle(s, 1, "C3 C4 D4")
    for lang in ("de", "en"):
        parsed = parse_mail("Siedlung C3 C4 D4\n", Context(s.board, lang, s.colours))
        check_receipt(parsed, s, 0, lang)
        err = parsed.lines[0].error
        assert isinstance(err, IllegalOrderError)
        assert err.localized("de") == "dieser Platz ist besetzt"
        assert err.localized("en") == "that place is taken"


# -- structure: every error of the parser is made from a key with both texts ----------------


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _make_calls() -> list[tuple[str, ast.Call]]:
    """Every `NotationError.make(…)` / `AmbiguousError.make(…)` call in pbm/notation, and
    fail on an error of the parser made from its text directly."""
    calls = []
    for path in sorted(NOTATION.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            where = f"{path.name}:{node.lineno}"
            if isinstance(f, ast.Name) and f.id in (
                "NotationError",
                "AmbiguousError",
                "OrderError",
            ):
                pytest.fail(f"{where}: {f.id}(…) without a message key; use {f.id}.make(key)")
            if (
                isinstance(f, ast.Attribute)
                and f.attr == "make"
                and isinstance(f.value, ast.Name)
                and f.value.id in ("NotationError", "AmbiguousError")
            ):
                calls.append((where, node))
    return calls


def test_every_raise_site_uses_a_key_with_english_and_german_texts() -> None:
    calls = _make_calls()
    assert len(calls) >= 40
    used: set[str] = set()
    for where, call in calls:
        key = call.args[0]
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            keys = {key.value}
        elif (
            isinstance(key, ast.Call)
            and isinstance(key.func, ast.Name)
            and key.func.id == "setup_form_key"
            and isinstance(key.args[0], ast.Constant)
        ):
            # A setup form's key, or its expansion's (`setup_form_sea`), from the registry.
            base = str(key.args[0].value)
            keys = {base, *(f"{base}_{suffix}" for _, suffix in refusals.SETUP_FORM)}
        elif where.startswith("refusals.py"):  # an expansion's "no order", from its registry
            keys = {"order_expected", *(k for _, k in refusals.ORDER_EXPECTED)}
        else:  # assemble.py: the key of the second single order, from its table
            assert where.startswith("assemble.py"), where
            keys = set(assemble._SINGLE.values())
        given = {k.arg for k in call.keywords} - {"column", "candidates"}
        for k in keys:
            assert k in TEXTS and k in TEXTS_DE, f"{where}: {k!r} has no text in messages.py"
            fields = [_fields(messages.text(k, lang)) for lang in languages()]
            missing = _fields(TEXTS[k]).union(*fields) - given
            assert not missing, f"{where}: {k!r} needs {missing}"
        used |= keys
    assert used == set(TEXTS) == set(TEXTS_DE), "texts without a raise site"


#: key → (line, the English message) on a Seafarers board (Four Islands, seed 1): the pirate
#: at sea, the robber sent there, and names of many sea hexes.
SEA_CASES: dict[str, tuple[str, str]] = {
    "order_expected_sea": (
        "Blubb 9H",
        "an order was expected (Siedlung, Stadt, Straße, Schiff, Schiff versetzen, Gold, Räuber, "
        "Pirat, Handel, Seehandel, …), not 'Blubb'",
    ),
    "ambiguous_hex": ("Pirat 3:1-Hafen", "3:1-Hafen can mean several hexes"),
    "ambiguous_hex_many": (
        "Pirat Meer",
        "Meer can mean 67 hexes: name the hex by its label, as in C3 (the labels are on the map)",
    ),
    "robber_at_sea_pirate": (
        "Räuber Meer, raube blau",
        "the robber never goes to sea; at sea the pirate robs: write 'Pirat' and its sea hex, "
        "as in 'Pirat A2'",  # a sea hex at the coast of this board, no fixed example
    ),
    "ambiguous_path_many": (
        "Schiff Meer Meer",
        "Meer, Meer names 97 paths: name a path by the labels of its two hexes, as in C3 C4",
    ),
    "ambiguous_path_by_crossings_many": (
        "Schiff Meer Meer Meer - Meer Meer Meer",
        "80 paths join crossings named so: name each crossing by the labels of its three hexes",
    ),
}


#: key → (line, the English message) on Oceania (seed 1), where C8 is still fog.
FOG_CASES: dict[str, tuple[str, str]] = {
    "crossing_fog": (
        "Siedlung C7 C8 D7",
        "C7, C8, D7 meet at a crossing that touches fog (C8): nothing is built there until a "
        "road or ship has discovered what the fog hides",
    ),
    "path_fog": (
        "Straße C7 C8",
        "the path between C7, C8 touches fog (C8): nothing is built there until a road or ship "
        "has discovered what the fog hides",
    ),
}


@pytest.mark.parametrize("key", sorted(FOG_CASES))
def test_every_error_of_a_fog_board_has_a_german_text(key: str) -> None:
    from pbm.rules.state import Settings, new_game

    s = new_game(Settings.for_scenario("ozeanien", 4), 1)
    text, english = FOG_CASES[key]
    with pytest.raises(OrderError) as info:
        parse_line(text, Context(s.board, "de", s.colours, "round"))
    assert (info.value.key, info.value.message) == (key, english)
    _assert_german(info.value)


@pytest.mark.parametrize("key", sorted(SEA_CASES))
def test_every_error_of_a_seafarers_board_has_a_german_text(key: str) -> None:
    from pbm.rules.state import Settings, new_game

    s = new_game(Settings.for_scenario("vier-inseln", 4), 1)
    text, english = SEA_CASES[key]
    for lang in ("de", "en"):
        with pytest.raises(OrderError) as info:
            parse_line(text, Context(s.board, lang, s.colours, "round"))
        err = info.value
        # The pirate's example is an order of the game's language (`Pirate A2` in English).
        said = english if lang == "de" else english.replace("'Pirat A2'", "'Pirate A2'")
        assert (err.key, err.message) == (key, said)
        assert len(err.candidates) <= 8
        _assert_german(err)


#: key → (a setup mail, its line, the English message) on a Seafarers board (Four Islands,
#: seed 1): the setup's forms name the ship's too.
SEA_SETUP_CASES: dict[str, tuple[str, int, str]] = {
    "setup_form_sea": (
        "Blubb\n",
        1,
        "a setup placement is written 'Siedlung <Kreuzung> Straße <Weg>', or with a ship at "
        "the coast 'Siedlung <Kreuzung> Schiff <Weg>'",
    ),
    "setup_round_order_sea": (
        "Räuber 9H, raube blau\n",
        1,
        "the setup takes placements only ('Siedlung <Kreuzung> Straße <Weg>', or with a ship "
        "at the coast 'Siedlung <Kreuzung> Schiff <Weg>'): send this line again with your "
        "orders for round 1, once the setup is over",
    ),
}


@pytest.mark.parametrize("key", sorted(SEA_SETUP_CASES))
def test_the_setup_forms_of_a_seafarers_game_name_the_ship(key: str) -> None:
    from pbm.rules.state import Settings, new_game

    s = new_game(Settings.for_scenario("vier-inseln", 4), 1)
    body, line, english = SEA_SETUP_CASES[key]
    parsed = parse_mail(body, Context(s.board, "de", s.colours, "setup"))
    err = next(r for r in parsed.lines if r.line == line).error
    assert err is not None and (err.key, err.message) == (key, english), err
    _assert_german(err)
    assert "Schiff <Weg>" in err.localized("de")
    assert "Ship <path>" in err.localized("en")
    assert "Skib <strækning>" in err.localized("da")


def test_every_key_is_tried_by_a_line_here() -> None:
    tried = (
        set(CASES)
        | set(SEA_CASES)
        | set(FOG_CASES)
        | set(SEA_SETUP_CASES)
        | set(MAIL_CASES)
        | set(PLAYERS_CASES)
        | set(PLAYERS_MAIL_CASES)
        | set(SETUP_MAIL_CASES)
        | UNREACHABLE
        | {"rest_not_read"}
    )
    assert tried == set(TEXTS)
    for key, de in TEXTS_DE.items():
        assert de != TEXTS[key]
        assert not ENGLISH.search(de.format_map(_Shown())), (key, de)


class _Shown(dict[str, str]):
    """Fills every field of a template with a placeholder, to read the text around it."""

    def __missing__(self, key: str) -> str:
        return "…"
