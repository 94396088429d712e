"""Phrasings players write that the order language refused, read now, in German, English and
Danish; and the near forms that must keep their meaning (or stay refused, with the line to
write). A silent misread is worse than a clear refusal: where a phrasing can mean two orders,
it is refused with both lines to copy."""

from __future__ import annotations

from functools import cache

import pytest

from pbm.notation import Context, parse_mail
from pbm.notation.results import LineResult
from pbm.rules.board import Board
from pbm.rules.kron_board import generate_kron_board
from pbm.rules.layouts import generate_board
from pbm.rules.orders import GoldPreference
from pbm.rules.resources import ERZ, GETREIDE
from pbm.rules.scenarios import scenario_board
from pbm.rules.state import DEFAULT_COLOURS


@cache
def _board(kind: str) -> Board:
    if kind == "sea":
        return scenario_board("neue-ufer", 4, 1)  # gold rivers B8 (3Gold) and D9 (11Gold)
    if kind == "kron":
        return generate_kron_board("large", 1)
    return generate_board("medium", 1)


def _ctx(lang: str, kind: str) -> Context:
    return Context(_board(kind), lang, DEFAULT_COLOURS[:4], "round")


def _line(line: str, lang: str, kind: str) -> LineResult:
    (result,) = parse_mail(line + "\n", _ctx(lang, kind)).lines
    return result


# 1. Seafarers: the gold line.


@pytest.mark.parametrize(
    ("lang", "line", "resources"),
    [
        ("en", "gold river: ore", (ERZ,)),
        ("en", "Gold river: 1 ore", (ERZ,)),
        ("en", "Gold rivers: ore, grain", (ERZ, GETREIDE)),
        ("de", "Goldfluss: Erz", (ERZ,)),
        ("de", "Goldfluß: 1 Erz", (ERZ,)),
        ("de", "Goldflüsse: Erz, Getreide", (ERZ, GETREIDE)),
        ("da", "Guldflod: malm", (ERZ,)),
        ("da", "Guldfloden: 1 malm", (ERZ,)),
        ("da", "Guldfloder: malm, korn", (ERZ, GETREIDE)),
        # As before.
        ("en", "Gold: ore", (ERZ,)),
        ("de", "Gold: Erz, Getreide", (ERZ, GETREIDE)),
        ("da", "Guld: malm", (ERZ,)),
    ],
)
def test_a_gold_line_named_for_the_gold_river(
    lang: str, line: str, resources: tuple[int, ...]
) -> None:
    """`gold river: ore` was refused ("a resource was expected, not 'river:'"), `Goldfluss: Erz`
    and `Guldflod: malm` as no order at all."""
    result = _line(line, lang, "sea")
    assert result.ok and result.item == GoldPreference(resources), result.error
    assert result.canonical is not None and result.canonical.split()[0] in ("Gold:", "Guld:")


@pytest.mark.parametrize(
    ("lang", "line", "turn", "first"),
    [
        ("en", "Gold: lumber/wool", "Gold: Lumber, Wool", "Gold: Lumber"),
        ("en", "Gold: lumber / wool", "Gold: Lumber, Wool", "Gold: Lumber"),
        ("en", "Gold: L/W", "Gold: Lumber, Wool", "Gold: Lumber"),
        ("en", "Gold river: lumber or wool", "Gold: Lumber, Wool", "Gold: Lumber"),
        ("en", "Gold: ore, otherwise grain", "Gold: Ore, Grain", "Gold: Ore"),
        ("de", "Gold: Holz/Wolle", "Gold: Holz, Wolle", "Gold: Holz"),
        ("de", "Goldfluss: Holz oder Wolle", "Gold: Holz, Wolle", "Gold: Holz"),
        ("da", "Guld: træ/uld", "Guld: Træ, Uld", "Guld: Træ"),
        ("da", "Guldflod: træ eller uld", "Guld: Træ, Uld", "Guld: Træ"),
    ],
)
def test_a_gold_line_written_as_a_choice_is_refused_with_the_lines_to_write(
    lang: str, line: str, turn: str, first: str
) -> None:
    """`lumber/wool` may mean "either one" (or the one held fewest of) or "both, in turn": a
    gold line pays its resources in turn and names no choice, so it is refused (it was, as a
    resource not understood or 'or' in a list) with the lines that say each."""
    result = _line(line, lang, "sea")
    assert result.error is not None and result.error.key == "gold_either"
    assert (result.error.params["turn"], result.error.params["first"]) == (turn, first)
    said = result.error.localized(lang)
    assert repr(turn) in said and repr(first) in said


@pytest.mark.parametrize(
    ("lang", "line", "shown", "write"),
    [
        ("en", "Gold river 3Gold: ore", "3Gold", "Gold: Ore"),
        ("de", "Goldfluss 11Gold: Erz", "11Gold", "Gold: Erz"),
        ("da", "Guldflod 3Guld: malm", "3Guld", "Guld: Malm"),
    ],
)
def test_a_gold_line_for_one_river_is_refused_with_the_line_for_all(
    lang: str, line: str, shown: str, write: str
) -> None:
    """One gold line counts for every gold river: read without the river it names, it would
    pay the player's other rivers by it too."""
    result = _line(line, lang, "sea")
    assert result.error is not None and result.error.key == "gold_one_line"
    assert result.error.params == {"shown": shown, "line": write}


@pytest.mark.parametrize(
    ("lang", "line"),
    [("en", "Gold: lumber/bananas"), ("de", "Gold: Holz/Wolle/")],
)
def test_a_slash_that_joins_no_resources_is_refused_as_before(lang: str, line: str) -> None:
    result = _line(line, lang, "sea")
    assert result.error is not None and result.error.key == "resource_expected"


def test_the_gold_river_words_stay_the_gold_lines_in_a_base_game() -> None:
    for lang, line in (
        ("en", "Gold river: ore"),
        ("de", "Goldfluss: Erz"),
        ("da", "Guldflod: malm"),
    ):
        result = _line(line, lang, "base")
        assert result.error is not None and result.error.key == "gold_seafarers"


def test_a_gold_river_hex_still_reads_by_its_token() -> None:
    result = _line("Robber 3Gold, steal blue", "en", "sea")
    assert result.ok and result.canonical == "Robber B8 (3Gold), steal blue"


# 2. Seafarers: a gold river named as the map shows it.


@pytest.mark.parametrize(
    ("lang", "line", "canonical"),
    [
        ("en", "Robber 3$, steal blue", "Robber B8 (3Gold), steal blue"),
        ("en", "Robber on 11$", "Robber D9 (11Gold)"),
        ("en", "Robber 3 $.", "Robber B8 (3Gold)"),
        ("en", "Settlement 3$ 6O 5B", "Settlement B7 B8 C8 (6O 3Gold 5B)"),
        ("en", "Road 3$ 6O", "Road B7 B8 (6O 3Gold)"),
        ("de", "Räuber 11$, raube blau", "Räuber D9 (11Gold), raube blau"),
        ("de", "Siedlung 3$ 6E 5L", "Siedlung B7 B8 C8 (6E 3Gold 5L)"),
        ("da", "Røver 11$, røv blå", "Røver D9 (11Guld), røv blå"),
        ("da", "Hus 3$ 6M 5L", "Hus B7 B8 C8 (6M 3Guld 5L)"),
    ],
)
def test_a_gold_river_named_as_the_map_shows_it(lang: str, line: str, canonical: str) -> None:
    """The map and its legend write a gold river `11$` ("Gold rivers: 11$"); a name copied
    from there was refused ("a hex name was expected, not '$'")."""
    result = _line(line, lang, "sea")
    assert result.ok and result.canonical == canonical, result.error


def test_a_gold_river_named_as_the_map_shows_it_in_the_setup() -> None:
    ctx = Context(_board("sea"), "da", DEFAULT_COLOURS[:4], "setup")
    (result,) = parse_mail("Hus 3$ 6M 5L Vej 3$ 6M\n", ctx).lines
    assert result.ok and result.canonical == "Hus B7 B8 C8 (6M 3Guld 5L) Vej B7 B8 (6M 3Guld)"


@pytest.mark.parametrize(
    ("kind", "line", "key"),
    [
        ("sea", "Robber $3", "hex_name_expected"),  # not the map's form
        ("sea", "Robber 3$x", "hex_name_expected"),
        ("sea", "Robber 5$", "no_hex_near"),  # no gold river carries a 5
        ("sea", "Pirate 3$", "pirate_on_sea"),
        ("base", "Robber 3$", "no_hex_near"),
    ],
)
def test_the_gold_mark_names_nothing_else(kind: str, line: str, key: str) -> None:
    result = _line(line, "en", kind)
    assert result.error is not None and result.error.key == key, result.error


def test_a_gold_line_for_one_river_named_as_the_map_shows_it() -> None:
    result = _line("Goldfluss 11$: Erz", "de", "sea")
    assert result.error is not None and result.error.key == "gold_one_line"
    assert result.error.params == {"shown": "11$", "line": "Gold: Erz"}


def test_the_parser_reads_the_maps_own_gold_mark() -> None:
    from pbm.notation.names import GOLD_MARK
    from pbm.reports.text_map import GOLD_MARK as MAP_MARK

    assert GOLD_MARK == MAP_MARK


# 3. Kronlande: the feast card by its word for card.


@pytest.mark.parametrize(
    ("lang", "line", "canonical"),
    [
        ("en", "play feast card: bread", "Feast Bread"),
        ("en", "Play the feast card: bread", "Feast Bread"),
        ("en", "Feast card on fish", "Feast Fish"),
        ("en", "I play the feast card: 1 bread", "Feast Bread"),
        ("de", "Festkarte spielen: Brot", "Festmahl Brot"),
        ("de", "Festmahlkarte: Brot", "Festmahl Brot"),
        ("de", "Festmahl-Karte ausspielen: Brot", "Festmahl Brot"),
        ("de", "Spiele die Festkarte: Brot", "Festmahl Brot"),
        ("da", "Spil gildekort: brød", "Gilde Brød"),
        ("da", "Gildekortet: brød", "Gilde Brød"),
        ("da", "Festmåltidskort: brød", "Gilde Brød"),
    ],
)
def test_the_feast_card_named_with_its_word_for_card(lang: str, line: str, canonical: str) -> None:
    """`play feast card: bread` was refused ("a resource was expected, not 'card: bread'"),
    `Festkarte …`, `Festmahlkarte …` and `Gildekort …` as no order: the card is Festmahl
    (`rules/kron_cards.py`), Kronlande's only feast."""
    result = _line(line, lang, "kron")
    assert result.ok and result.canonical == canonical, result.error


@pytest.mark.parametrize(
    ("lang", "line", "key"),
    [
        ("en", "Feast card", "feast_form"),
        ("en", "Feast card: 2 bread", "resource_expected"),
        ("de", "Festkarte", "feast_form"),
        ("da", "Gildekort: to brød", "resource_expected"),
    ],
)
def test_a_feast_card_without_one_good_stays_refused(lang: str, line: str, key: str) -> None:
    result = _line(line, lang, "kron")
    assert result.error is not None and result.error.key == key, result.error


@pytest.mark.parametrize(
    ("lang", "line"),
    [("en", "Feast card: bread"), ("de", "Festkarte spielen: Brot"), ("da", "Gildekort: brød")],
)
def test_the_feast_card_is_kronlandes_only(lang: str, line: str) -> None:
    result = _line(line, lang, "base")
    assert result.error is not None and result.error.key == "kronlande_only"


def test_a_feast_card_beside_a_build_is_a_second_build() -> None:
    result = _line("City C2 C3 D3 and feast card: bread", "en", "kron")
    assert result.ok and result.canonical == "City C2 C3 D3 (4B 9O Desert); Feast Bread"


# 4. Kronlande: a settlement upgraded, said in words.


@pytest.mark.parametrize(
    ("lang", "line", "canonical"),
    [
        ("en", "Upgrade settlement 4B 9O Desert", "City C2 C3 D3 (4B 9O Desert)"),
        ("en", "Upgrade my settlement at 4B 9O Desert", "City C2 C3 D3 (4B 9O Desert)"),
        ("en", "Make my settlement 4B 9O Desert a city", "City C2 C3 D3 (4B 9O Desert)"),
        ("en", "Make settlement 4B 9O Desert a city", "City C2 C3 D3 (4B 9O Desert)"),
        ("en", "Make my city 4B 9O Desert a castle", "Castle C2 C3 D3 (4B 9O Desert)"),
        ("de", "Siedlung 4L 9E Wüste zur Stadt ausbauen", "Stadt C2 C3 D3 (4L 9E Wüste)"),
        ("de", "Ausbau Siedlung 4L 9E Wüste", "Stadt C2 C3 D3 (4L 9E Wüste)"),
        ("de", "Meine Siedlung 4L 9E Wüste ausbauen", "Stadt C2 C3 D3 (4L 9E Wüste)"),
        ("de", "Mache meine Siedlung 4L 9E Wüste zur Stadt", "Stadt C2 C3 D3 (4L 9E Wüste)"),
        ("da", "Opgrader hus 4L 9M Ørken", "By C2 C3 D3 (4L 9M Ørken)"),
        ("da", "Opgrader bosættelse 4L 9M Ørken", "By C2 C3 D3 (4L 9M Ørken)"),
        ("da", "Udbyg mit hus 4L 9M Ørken", "By C2 C3 D3 (4L 9M Ørken)"),
        ("da", "Lav mit hus 4L 9M Ørken en by", "By C2 C3 D3 (4L 9M Ørken)"),
    ],
)
def test_a_settlement_upgraded_in_kronlande_becomes_a_city(
    lang: str, line: str, canonical: str
) -> None:
    """In Kronlande a city becomes a Burg and a Burg a Residenz, so `Upgrade …` asks what it
    becomes; but a settlement only ever becomes a city: `Upgrade settlement …` was asked back
    ("say what it becomes"), and `Make my settlement … a city` read as goods made ("a
    resource was expected, not 'settlement'")."""
    result = _line(line, lang, "kron")
    assert result.ok and result.canonical == canonical, result.error


@pytest.mark.parametrize(
    ("lang", "line", "key"),
    [
        # The city, or nothing, named as what is upgraded: a city, or a Burg?
        ("en", "Upgrade city 4B 9O Desert", "upgrade_to_what"),
        ("en", "Upgrade 4B 9O Desert", "upgrade_to_what"),
        ("en", "Upgrade 4B 9O Desert, the city", "upgrade_to_what"),
        ("de", "Stadt 4L 9E Wüste ausbauen", "upgrade_to_what"),
        ("da", "Opgrader by 4L 9M Ørken", "upgrade_to_what"),
        # `bebyggelse` is a building of any kind.
        ("da", "Opgrader bebyggelse 4L 9M Ørken", "upgrade_to_what"),
        # A settlement and a castle: two builds, or one upgrade?
        ("en", "Make settlement 4B 9O Desert and castle 3W 12L 6St", "upgrade_to_what"),
    ],
)
def test_an_upgrade_that_names_no_settlement_is_still_asked_back(
    lang: str, line: str, key: str
) -> None:
    result = _line(line, lang, "kron")
    assert result.error is not None and result.error.key == key, result.error


@pytest.mark.parametrize(
    ("lang", "line", "canonical"),
    [
        ("en", "Make 2 bread", "Make 2 Bread"),
        ("en", "Make bread", "Make 1 Bread"),
        ("en", "Make 1 bread and castle 3W 12L 6St", "Make 1 Bread; Castle C4 D4 D5 (3W 12L 6St)"),
        ("en", "Make 2 bread, settlement 4B 9O Desert", "Make 2 Bread; Settlement C2 C3 D3"),
        ("de", "Herstellen 2 Brot", "Herstellen 2 Brot"),
        ("da", "Fremstil 2 brød", "Fremstil 2 Brød"),
    ],
)
def test_goods_made_stay_goods_made(lang: str, line: str, canonical: str) -> None:
    result = _line(line, lang, "kron")
    assert result.ok and result.canonical is not None, result.error
    assert result.canonical.startswith(canonical)


@pytest.mark.parametrize(
    ("lang", "line", "canonical"),
    [
        ("en", "Make settlement C2 C3 D3 a city", "City C2 C3 D3 (4L 6B 3O)"),
        ("de", "Mache Siedlung C2 C3 D3 zur Stadt", "Stadt C2 C3 D3 (4H 6L 3E)"),
        ("da", "Lav hus C2 C3 D3 til by", "By C2 C3 D3 (4T 6L 3M)"),
        ("da", "Gør hus C2 C3 D3 til en by", "By C2 C3 D3 (4T 6L 3M)"),
        ("da", "Opgrader bosættelse C2 C3 D3", "By C2 C3 D3 (4T 6L 3M)"),
        ("da", "Opgrader bebyggelse C2 C3 D3", "By C2 C3 D3 (4T 6L 3M)"),
    ],
)
def test_the_same_upgrades_in_a_base_game(lang: str, line: str, canonical: str) -> None:
    """Where only a settlement is ever upgraded: the verb was cut off as a build of its own
    (`'Make' is an order of Kronlande games only`, `'Lav' is no order`), and `bosættelse`,
    `bebyggelse` were not read in an upgrade."""
    result = _line(line, lang, "base")
    assert result.ok and result.canonical == canonical, result.error


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("en", "Make settlement C2 C3 D3"),  # a settlement built? No city is named.
        ("de", "Mache Siedlung C2 C3 D3 und Straße 6L 5L"),
        ("en", "Make settlement C2 C3 D3 and city D4 D5 E5"),
    ],
)
def test_a_verb_before_a_settlement_without_a_city_is_no_upgrade(lang: str, line: str) -> None:
    result = _line(line, lang, "base")
    assert result.error is not None and result.canonical is None


# 5. A substitute heading that names one build: what it stands over, said as the engine runs it.


def _mail(body: str, lang: str, kind: str = "base") -> list[LineResult]:
    return parse_mail(body, _ctx(lang, kind)).lines


@pytest.mark.parametrize(
    ("lang", "body", "count", "lines"),
    [
        (
            "en",
            "Maritime 4L for 1O\nCity 11L 4L 6B\nIf the city fails:\nSettlement 6B 5B 11G\n",
            2,
            "'Maritime 4L for 1O', 'City B2 C2 C3 (11L 4L 6B)'",
        ),
        (
            "de",
            "Entwicklungskarte\nStadt 11H 4H 6L\n"
            "Falls die Stadt nicht klappt:\nSiedlung 6L 5L 11G\n",
            2,
            "'Entwicklungskarte', 'Stadt B2 C2 C3 (11H 4H 6L)'",
        ),
        (
            "da",
            "Søhandel 4T for 1M\nBy 11T 4T 6L\nHvis byen ikke lykkes:\nHus 6L 5L 11K\n",
            2,
            "'Søhandel 4T for 1M', 'By B2 C2 C3 (11T 4T 6L)'",
        ),
    ],
)
def test_a_heading_over_a_bank_trade_or_a_card_names_them(
    lang: str, body: str, count: int, lines: str
) -> None:
    """The engine runs the substitutes when any main line fails, a bank trade or a card bought
    as well as a build (`rules.round._build_step`); the refusal called them "main builds" and
    gave their count only. It names them now."""
    heading = _mail(body, lang)[2]
    assert heading.error is not None and heading.error.key == "substitute_names_one"
    assert heading.error.params["count"] == count and heading.error.params["lines"] == lines
    said = heading.error.localized(lang)
    assert lines in said and "2" in said
    assert ("Substitute:" in said) == (lang == "en") and ("Erstatning:" in said) == (lang == "da")


@pytest.mark.parametrize(
    ("lang", "body"),
    [
        ("en", "Road 6B 5B and city 11L 4L 6B\nIf the city fails:\nSettlement 6B 5B 11G\n"),
        (
            "de",
            "Straße 6L 5L und Stadt 11H 4H 6L\nFalls die Stadt nicht klappt:\nSiedlung 6L 5L 11G\n",
        ),
        ("da", "Vej 6L 5L og by 11T 4T 6L\nHvis byen ikke lykkes:\nHus 6L 5L 11K\n"),
    ],
)
def test_a_heading_over_one_line_of_two_builds_is_refused(lang: str, body: str) -> None:
    """A line of two builds is two main lines to the engine (`Builds`): the heading over it
    was read as `Ersatzbau:`, and the settlement built when the road failed though the city
    stood (a silent misread)."""
    heading, below = _mail(body, lang)[1:3]
    assert heading.error is not None and heading.error.key == "substitute_names_one"
    assert heading.error.params["count"] == 2
    assert below.error is not None and below.error.key == "under_unknown_heading"


@pytest.mark.parametrize(
    ("lang", "body"),
    [
        ("en", "City 11L 4L 6B or road 6B 5B\nIf the city fails:\nSettlement 6B 5B 11G\n"),
        ("en", "City 11L 4L 6B\nor road 6B 5B\nIf the city fails:\nSettlement 6B 5B 11G\n"),
        (
            "de",
            "Stadt 11H 4H 6L oder Straße 6L 5L\n"
            "Falls die Stadt nicht klappt:\nSiedlung 6L 5L 11G\n",
        ),
        ("da", "By 11T 4T 6L eller vej 6L 5L\nHvis byen ikke lykkes:\nHus 6L 5L 11K\n"),
    ],
)
def test_a_heading_over_a_line_of_choices_is_refused(lang: str, body: str) -> None:
    """Over `City … or Road …` the substitutes run only when both fail, not when the city
    does and the road is built: refused, naming the line."""
    lines = _mail(body, lang)
    heading = next(r for r in lines if r.error is not None)
    assert heading.error is not None and heading.error.key == "substitute_over_choices"
    assert heading.error.params["line"] in heading.error.localized(lang)


@pytest.mark.parametrize(
    ("lang", "body"),
    [
        ("en", "If the city fails:\nSettlement 6B 5B 11G\n"),
        ("de", "Falls die Stadt nicht klappt:\nSiedlung 6L 5L 11G\n"),
        ("da", "Hvis byen ikke lykkes:\nHus 6L 5L 11K\n"),
        ("en", "Trade blue: give 1L, get 1O\nIf the city fails:\nSettlement 6B 5B 11G\n"),
    ],
)
def test_a_heading_over_no_build_says_none_is_read_above_it(lang: str, body: str) -> None:
    """It said "main builds above it: 0"; substitutes without a main line never run."""
    lines = _mail(body, lang)
    heading = next(r for r in lines if r.error is not None)
    assert heading.error is not None and heading.error.key == "substitute_names_none"


@pytest.mark.parametrize(
    ("lang", "body"),
    [
        ("en", "City 11L 4L 6B\nIf the city fails:\nSettlement 6B 5B 11G\n"),
        ("en", "Robber 9L, steal blue\nCity 11L 4L 6B\nIf the city fails:\nSettlement 6B 5B 11G\n"),
        ("en", "Trade blue: give 1L, get 1O\nCity 11L 4L 6B\nIf the city fails:\nRoad 6B 5B\n"),
        ("de", "Stadt 11H 4H 6L\nFalls die Stadt nicht klappt:\nSiedlung 6L 5L 11G\n"),
        ("da", "By 11T 4T 6L\nHvis byen ikke lykkes:\nHus 6L 5L 11K\n"),
        # A heading that names no build stands over any number of lines.
        ("en", "Maritime 4L for 1O\nCity 11L 4L 6B\nIf that fails:\nSettlement 6B 5B 11G\n"),
    ],
)
def test_over_one_build_the_heading_is_still_the_substitute_heading(lang: str, body: str) -> None:
    """A trade with a player, a robber order: no line of the build step, so not counted."""
    lines = _mail(body, lang)
    assert all(r.ok for r in lines), [(r.text, r.error) for r in lines]
    assert lines[-1].substitute


@pytest.mark.parametrize(
    ("lang", "body"),
    [
        ("de", "Stadt 9X 9Y 9Z\nStraße 6L 5L\nFalls die Stadt nicht klappt:\nSiedlung 6L 5L 11G\n"),
        ("en", "City 9X 9Y 9Z\nRoad 6B 5B\nIf the city fails:\nSettlement 6B 5B 11G\n"),
        ("da", "By 9X 9Y 9Z\nVej 6L 5L\nHvis byen ikke lykkes:\nHus 6L 5L 11K\n"),
    ],
)
def test_a_refused_build_above_the_heading_counts_as_the_build_it_will_be(
    lang: str, body: str
) -> None:
    """Over a refused city and a road, the heading stood for the road alone: the settlement
    would have been built when the road failed. The refused line counts, named as written."""
    heading = _mail(body, lang)[2]
    assert heading.error is not None and heading.error.key == "substitute_names_one"
    assert heading.error.params["count"] == 2
    assert str(heading.error.params["lines"]).startswith(repr(body.split("\n")[0]))
