"""What a label before a setup placement says: which of the writer's placements it is (`Zweite
Siedlung: …`, kept for that turn), nothing (`Erste Wahl:`), or something the placement cannot
be read without (`Nicht: …`, `Falls blau dort baut: …`: refused, never placed anyway). And the
lines of a round in a setup mail, refused rather than read and dropped."""

from __future__ import annotations

import pytest

from pbm.notation import Context, parse_mail
from pbm.notation.items import LaterPlacement
from pbm.rules.layouts import generate_board
from pbm.rules.orders import SetupPlacement

BOARD = generate_board("medium", 1)
COLOURS = ("rot", "blau", "gelb", "weiss")
#: The same two places in each language's letters: C3 C4 D4 with its road C3 C4, and D5 D6 E5
#: with D5 D6.
FIRST = {"de": "6L 5L 11G Straße 6L 5L", "en": "6B 5B 11G road 6B 5B", "da": "6L 5L 11K vej 6L 5L"}
SECOND = {"de": "4G 8W 3W Straße 4G 8W", "en": "4G 8W 3W road 4G 8W", "da": "4K 8U 3U vej 4K 8U"}
SETTLEMENT = {"de": "Siedlung", "en": "Settlement", "da": "Hus"}


def _crossing(labels: str) -> int:
    return BOARD.crossing_id[tuple(sorted(BOARD.label_index[x] for x in labels.split()))]


def _mail(body: str, lang: str) -> list[tuple[bool, str]]:
    parsed = parse_mail(body, Context(BOARD, lang, COLOURS, "setup"))
    return [(r.ok, r.canonical if r.ok else (r.error.key if r.error else "")) for r in parsed.lines]


def _crossings(body: str, lang: str) -> tuple[list[int], list[int]]:
    parsed = parse_mail(body, Context(BOARD, lang, COLOURS, "setup"))
    now = [p.crossing for p in parsed.setup_orders().placements]
    later = [p.crossing for p in parsed.later_setup_orders().placements]
    return now, later


@pytest.mark.parametrize(
    ("lang", "body"),
    [
        ("de", "Erste Siedlung: {first}\nZweite Siedlung: {second}\n"),
        ("de", "Meine erste Siedlung: {first}\nMeine zweite Siedlung: {second}\n"),
        ("de", "Erste Siedlung:\nSiedlung {first}\n\nZweite Siedlung:\nSiedlung {second}\n"),
        ("de", "Siedlung {first}\nFür meine zweite Runde: Siedlung {second}\n"),
        ("de", "Siedlung {first}\nZweite Siedlung {second}\n"),
        ("en", "First settlement: {first}\nSecond settlement: {second}\n"),
        ("en", "Settlement {first}\nFor my second placement: settlement {second}\n"),
        (
            "en",
            "My second settlement:\nsettlement {second}\n"
            "My first settlement:\nsettlement {first}\n",
        ),
        ("da", "Første hus: {first}\nAndet hus: {second}\n"),
        ("da", "Hus {first}\nMit andet hus: {second}\n"),
    ],
)
def test_a_placement_labelled_second_is_kept_for_the_second_turn(lang: str, body: str) -> None:
    now, later = _crossings(body.format(first=FIRST[lang], second=SECOND[lang]), lang)
    assert (now, later) == ([_crossing("C3 C4 D4")], [_crossing("D5 D6 E5")])


@pytest.mark.parametrize("lang", ["de", "en", "da"])
def test_the_echo_of_a_second_placement_reads_back_the_same(lang: str) -> None:
    body = f"{SETTLEMENT[lang]} {FIRST[lang]}\n{SETTLEMENT[lang]} {SECOND[lang]}\n"
    second = {"de": "Zweite Siedlung", "en": "Second settlement", "da": "Andet hus"}[lang]
    lines = _mail(body.replace(f"\n{SETTLEMENT[lang]} ", f"\n{second} ", 1), lang)
    assert lines[1][0] and lines[1][1].startswith(f"{second} D5 D6 E5"), lines
    again = parse_mail(lines[1][1], Context(BOARD, lang, COLOURS, "setup"))
    (item,) = [r.item for r in again.lines]
    assert isinstance(item, LaterPlacement) and all(
        isinstance(p, SetupPlacement) for p in item.placements
    )
    assert again.lines[0].canonical == lines[1][1]


@pytest.mark.parametrize(
    ("lang", "label"),
    [
        ("de", "Erste Wahl:"),
        ("de", "Mein Vorschlag:"),
        ("de", "Zweite Wahl:"),
        ("en", "First choice:"),
        ("en", "Otherwise:"),
        ("da", "Første valg:"),
    ],
)
def test_a_label_that_says_nothing_about_the_placement_is_passed_over(
    lang: str, label: str
) -> None:
    now, later = _crossings(f"{label} {SETTLEMENT[lang]} {FIRST[lang]}\n", lang)
    assert len(now) == 1 and later == []


@pytest.mark.parametrize(
    ("lang", "label"),
    [
        ("de", "Nicht:"),
        ("de", "Auf keinen Fall:"),
        ("de", "Falls blau dort baut:"),
        ("de", "Gestrichen:"),
        ("en", "Not this one:"),
        ("en", "Scratch that:"),
        ("en", "If I am last:"),
        ("en", "Only if red takes the coast:"),
        ("da", "Ikke denne:"),
        ("da", "Hvis rød tager kysten:"),
    ],
)
def test_a_label_that_withdraws_or_conditions_the_placement_refuses_it(
    lang: str, label: str
) -> None:
    assert _mail(f"{label} {SETTLEMENT[lang]} {FIRST[lang]}\n", lang) == [
        (False, "setup_label_unclear")
    ]


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("de", "Räuber 11G, raube blau"),
        ("de", "Abwurf: H W G"),
        ("de", "Handel blau: gebe 1H, bekomme 1E"),
        ("de", "Ritter vor dem Wurf: Räuber 11G"),
        ("en", "Robber 11G, steal from blue"),
        ("en", "Monopoly ore"),
        ("da", "Røver 11K, stjæl fra blå"),
    ],
)
def test_a_round_order_in_a_setup_mail_is_refused_not_dropped(lang: str, line: str) -> None:
    body = f"{SETTLEMENT[lang]} {FIRST[lang]}\n{line}\n"
    assert _mail(body, lang)[1] == (False, "setup_round_order")


@pytest.mark.parametrize(
    ("lang", "line", "road"),
    [
        ("en", "Settlement 6B 5B 11G road in the direction of 4G", "Road C4 D4"),
        ("en", "Settlement 6B 5B 11G road towards the 4G", "Road C4 D4"),
        ("de", "Siedlung 6L 5L 11G Straße Richtung der 4G", "Straße C4 D4"),
        ("de", "Siedlung 6L 5L 11G Straße in Richtung 4G", "Straße C4 D4"),
    ],
)
def test_a_road_toward_a_hex_with_its_article(lang: str, line: str, road: str) -> None:
    ((ok, canonical),) = _mail(line + "\n", lang)
    assert ok and road in canonical, canonical


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("de", "Straße 6L 5L (gestrichen)"),
        ("de", "Straße 6L 5L -- bitte ignorieren"),
        ("en", "Road 6B 5B (cancel)"),
        ("en", "Road 6B 5B -- just kidding"),
        ("da", "Vej 6L 5L (slet)"),
        ("da", "Vej 6L 5L -- glem det"),
    ],
)
def test_a_remark_that_withdraws_a_build_refuses_it(lang: str, line: str) -> None:
    parsed = parse_mail(line + "\n", Context(BOARD, lang, COLOURS, "round"))
    (result,) = parsed.lines
    assert not result.ok and result.error is not None
    assert result.error.key in ("remark_unclear", "marked_remark_unclear", "dashes_remark_unclear")


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("de", "Siedlung 6L 5L 11G Straße 6L 5L, falls frei"),
        ("en", "Settlement 6B 5B 11G road 6B 5B if free"),
        ("en", "Settlement 6B 5B 11G road 6B 5B (if available)"),
        ("da", "Hus 6L 5L 11K vej 6L 5L hvis ledig"),
    ],
)
def test_if_free_is_what_every_placement_waits_on(lang: str, line: str) -> None:
    assert _crossings(line + "\n", lang) == ([_crossing("C3 C4 D4")], [])


@pytest.mark.parametrize(
    ("lang", "body"),
    [
        # The heading's reach ends at a label naming the first placement or another turn.
        ("de", "Zweite Siedlung:\nSiedlung {second}\nErste Siedlung: {first}\n"),
        ("de", "Zweite Siedlung:\nSiedlung {second}\nErste Siedlung {first}\n"),
        ("de", "Zweite Siedlung:\nSiedlung {second}\nDiese Runde:\nSiedlung {first}\n"),
        ("en", "Second settlement:\nsettlement {second}\n\nFirst settlement: {first}\n"),
        ("da", "Andet hus:\nhus {second}\nFørste hus: {first}\n"),
    ],
)
def test_a_first_label_ends_the_reach_of_a_second_heading(lang: str, body: str) -> None:
    now, later = _crossings(body.format(first=FIRST[lang], second=SECOND[lang]), lang)
    assert (now, later) == ([_crossing("C3 C4 D4")], [_crossing("D5 D6 E5")])


@pytest.mark.parametrize(
    ("lang", "body"),
    [
        (
            "de",
            "Siedlung {first}\nZweite Siedlung: {second}\noder Siedlung 9H 5L 10G Straße 9H 5L\n",
        ),
        (
            "en",
            "Settlement {first}\nSecond settlement: {second}\nor settlement 9L 5B 10G road 9L 5B\n",
        ),
        (
            "de",
            "Zweite Siedlung:\nErste Wahl: Siedlung {second}\n"
            "Zweite Wahl: Siedlung 9H 5L 10G Straße 9H 5L\n",
        ),
    ],
)
def test_a_choice_below_a_second_placement_is_a_choice_for_that_one(lang: str, body: str) -> None:
    now, later = _crossings(body.format(first=FIRST[lang], second=SECOND[lang]), lang)
    assert later == [_crossing("D5 D6 E5"), _crossing("B4 C4 C5")]
    assert now in ([], [_crossing("C3 C4 D4")])


@pytest.mark.parametrize(
    ("lang", "label"),
    [
        ("de", "Wunsch:"),
        ("de", "Erster Versuch:"),
        ("de", "Falls schon weg:"),
        ("en", "First try:"),
        ("en", "Plan A:"),
        ("en", "If gone:"),
        ("en", "Second pick:"),
        ("da", "Hvis optaget:"),
    ],
)
def test_labels_of_wishes_and_of_a_place_gone_are_read(lang: str, label: str) -> None:
    now, later = _crossings(f"{label} {SETTLEMENT[lang]} {FIRST[lang]}\n", lang)
    assert (now, later) == ([_crossing("C3 C4 D4")], [])


@pytest.mark.parametrize(
    ("lang", "line", "ok"),
    [
        # A remark saying more than "if free" may change the order: refused as before.
        ("de", "Räuber 11G (Blau, falls verfügbar)", False),
        ("en", "Road 6B 5B (free with road building)", False),
        ("en", "Buy card (if available, twice)", False),
        # A doubt is no remark to pass over: built as written, the road would be built now.
        ("en", "Road 6B 5B -- maybe", False),
        # Words that only look like a withdrawal in another language, or hedge something else.
        ("de", "Straße 6L 5L (vergessen)", True),
        ("de", "Straße 6L 5L (Spring)", True),
        ("de", "Straße 6L 5L, falls noch frei", True),
    ],
)
def test_if_free_passes_over_only_itself(lang: str, line: str, ok: bool) -> None:
    parsed = parse_mail(line + "\n", Context(BOARD, lang, COLOURS, "round"))
    (result,) = parsed.lines
    assert result.ok is ok, (result.canonical, result.error)


@pytest.mark.parametrize(
    ("lang", "line", "road"),
    [
        # As a sentence, without the settlement's word.
        ("de", "Ich nehme 6L 5L 11G mit Straße nach 4G", "C4 D4"),
        ("en", "I'll take 6B 5B 11G with the road toward 4G", "C4 D4"),
        ("en", "I will take 6B 5B 11G with the road toward 4G", "C4 D4"),
        ("da", "Jeg tager 6L 5L 11K med vej mod 4K", "C4 D4"),
        # The road first.
        ("de", "Straße 6L 5L, Siedlung 6L 5L 11G", "C3 C4"),
        ("de", "Straße Richtung 4G und Siedlung 6L 5L 11G", "C4 D4"),
        ("en", "Road 6B 5B and settlement 6B 5B 11G", "C3 C4"),
        ("da", "Vej 6L 5L og hus 6L 5L 11K", "C3 C4"),
    ],
)
def test_a_placement_as_a_sentence_or_road_first(lang: str, line: str, road: str) -> None:
    ((ok, canonical),) = _mail(line + "\n", lang)
    assert ok and "C3 C4 D4" in canonical and f" {road} (" in canonical, canonical


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("de", "Siedlung {first}, falls besetzt: Siedlung {second}"),
        ("de", "Siedlung {first}; sonst: Siedlung {second}"),
        ("en", "Settlement {first}; if taken: settlement {second}"),
        ("da", "Hus {first}, hvis optaget: hus {second}"),
    ],
)
def test_a_fallback_said_inline_is_the_next_choice(lang: str, line: str) -> None:
    now, later = _crossings(line.format(first=FIRST[lang], second=SECOND[lang]) + "\n", lang)
    assert (now, later) == ([_crossing("C3 C4 D4"), _crossing("D5 D6 E5")], [])


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("de", "Siedlung 6L 5L 11G Straße Richtung 4G oder Richtung 12E"),
        ("de", "Siedlung 6L 5L 11G, Straße 6L 5L oder 5L 11G"),
        ("en", "Settlement 6B 5B 11G road 6B 5B or 5B 11G"),
        ("da", "Hus 6L 5L 11K og vej 6L 5L eller 5L 11K"),
    ],
)
def test_another_road_for_the_same_settlement_is_the_next_choice(lang: str, line: str) -> None:
    parsed = parse_mail(line + "\n", Context(BOARD, lang, COLOURS, "setup"))
    placements = parsed.setup_orders().placements
    assert [p.crossing for p in placements] == [_crossing("C3 C4 D4")] * 2, parsed.lines
    assert placements[0].path != placements[1].path


@pytest.mark.parametrize(
    ("lang", "body"),
    [
        ("de", "Runde 1: Siedlung {first}\nRunde 2: Siedlung {second}\n"),
        ("de", "Runde 2:\nSiedlung {second}\nRunde 1:\nSiedlung {first}\n"),
        ("en", "Round 1: settlement {first}\nRound 2: settlement {second}\n"),
        ("da", "Runde 1: hus {first}\nRunde 2: hus {second}\n"),
    ],
)
def test_the_setup_rounds_by_number_name_the_placements(lang: str, body: str) -> None:
    now, later = _crossings(body.format(first=FIRST[lang], second=SECOND[lang]), lang)
    assert (now, later) == ([_crossing("C3 C4 D4")], [_crossing("D5 D6 E5")])


@pytest.mark.parametrize(
    ("lang", "body"),
    [
        ("de", "Siedlung {first}\nAlternativ 2: Siedlung {second}\n"),
        ("de", "Wahl 1: Siedlung {first}\nWahl 2: Siedlung {second}\n"),
        ("en", "Option 1: settlement {first}\nOption 2: settlement {second}\n"),
        ("da", "Valg 1: hus {first}\nValg 2: hus {second}\n"),
    ],
)
def test_numbered_choices_rank_as_written(lang: str, body: str) -> None:
    now, later = _crossings(body.format(first=FIRST[lang], second=SECOND[lang]), lang)
    assert (now, later) == ([_crossing("C3 C4 D4"), _crossing("D5 D6 E5")], [])


def test_numbered_choices_rank_by_their_numbers() -> None:
    body = "Alternativ 2: Siedlung {second}\nAlternativ 1: Siedlung {first}\n".format(
        first=FIRST["de"], second=SECOND["de"]
    )
    now, later = _crossings(body, "de")
    assert (now, later) == ([_crossing("C3 C4 D4"), _crossing("D5 D6 E5")], [])


@pytest.mark.parametrize(
    ("lang", "body"),
    [
        # A draft's picks may be the writer's two placements, or two choices: not guessed.
        ("en", "Pick 1: settlement {first}\nPick 2: settlement {second}\n"),
    ],
)
def test_what_may_name_the_second_placement_is_not_read_as_a_choice(lang: str, body: str) -> None:
    lines = _mail(body.format(first=FIRST[lang], second=SECOND[lang]), lang)
    assert not all(ok for ok, _ in lines), lines


@pytest.mark.parametrize(
    ("lang", "body"),
    [
        ("en", "Settlement {first}\nThen I'll take {second}\n"),
        ("en", "Settlement {first}\nThen settlement {second}\n"),
        ("en", "Settlement {first}\nNext turn: settlement {second}\n"),
        ("de", "Siedlung {first}\nDanach Siedlung {second}\n"),
        ("de", "Siedlung {first}\nSpäter:\nSiedlung {second}\n"),
        ("da", "Hus {first}\nDerefter hus {second}\n"),
    ],
)
def test_a_placement_written_as_after_the_first_is_the_second(lang: str, body: str) -> None:
    now, later = _crossings(body.format(first=FIRST[lang], second=SECOND[lang]), lang)
    assert (now, later) == ([_crossing("C3 C4 D4")], [_crossing("D5 D6 E5")])


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("de", "Dann nehme ich {first}"),
        ("da", "Så tager jeg {first}"),
    ],
)
def test_so_is_no_second_placement(lang: str, line: str) -> None:
    now, later = _crossings(line.format(first=FIRST[lang]) + "\n", lang)
    assert (now, later) == ([_crossing("C3 C4 D4")], [])


@pytest.mark.parametrize(
    ("lang", "heading"),
    [
        ("de", "Gestrichen:"),
        ("de", "Falls blau dort baut:"),
        ("en", "If I am last:"),
        ("en", "Old orders (ignore):"),
        ("da", "Hvis rød tager kysten:"),
    ],
)
def test_placements_under_a_heading_that_withholds_them_are_refused(
    lang: str, heading: str
) -> None:
    now, later = _crossings(f"{heading}\n{SETTLEMENT[lang]} {FIRST[lang]}\n", lang)
    assert (now, later) == ([], [])


@pytest.mark.parametrize(("lang", "heading"), [("de", "Wunsch:"), ("en", "My picks:")])
def test_placements_under_a_heading_that_says_nothing_are_read(lang: str, heading: str) -> None:
    now, later = _crossings(f"{heading}\n{SETTLEMENT[lang]} {FIRST[lang]}\n", lang)
    assert (now, later) == ([_crossing("C3 C4 D4")], [])


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        # A verb between the settlement's word and its place.
        ("en", "My first settlement goes on 6B 5B 11G with road to 4G"),
        ("en", "Settlement will be at 6B 5B 11G, road 6B 5B"),
        ("de", "Meine erste Siedlung kommt auf 6L 5L 11G mit Straße nach 4G"),
        ("de", "Siedlung soll an 6L 5L 11G, Straße 6L 5L"),
        ("da", "Mit første hus skal ligge på 6L 5L 11K med vej mod 4K"),
        ("da", "Hus kommer ved 6L 5L 11K, vej 6L 5L"),
    ],
)
def test_a_verb_before_the_placements_place_is_passed_over(lang: str, line: str) -> None:
    assert _crossings(line + "\n", lang)[0] == [_crossing("C3 C4 D4")]
