"""A trailing condition that only says "if I can pay for it" is passed over: every build runs
only when its cards pay for it anyway. QA (2026-12) found `This turn I'd like to build a
settlement on E5 F4 F5 if I have the cards` refused ("a hex name was expected, not 'if'") while
the guide's own `… if I've got the lumber for it` was read: the cards are named like the
resources now (`[remarks] resources`), in every language and wherever the clause stands. Any
other condition stays refused, and so does `only if …`, as `only if possible` always was (a
remark with `only` may restrict the order: tests/test_notation_expansion_review.py)."""

from __future__ import annotations

import pytest

from pbm.notation import Context, OrderError, format_item, parse_line
from pbm.rules.layouts import generate_board

BOARD = generate_board("medium", 1)
COLOURS = ("rot", "blau", "gelb", "weiss")
SETTLEMENT = {
    "en": "Settlement 4G 8W 3W",
    "de": "Siedlung 4G 8W 3W",
    "da": "Hus 4K 8U 3U",
}


def _read(line: str, lang: str) -> str:
    ctx = Context(BOARD, lang, COLOURS, "round")
    return format_item(parse_line(line, ctx), ctx)


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("en", "{s} if I have the cards"),
        ("en", "{s}, if I have the cards for it"),
        ("en", "{s} when I have the cards"),
        ("en", "{s} if I have cards left"),
        ("en", "{s} (if I have the cards)"),
        ("en", "If I have the cards: {s}"),
        ("en", "If I have the cards, {s}"),
        ("en", "{s} if I can"),
        ("en", "{s} if possible"),
        ("en", "{s} (if possible)"),
        ("de", "{s} wenn ich die Karten habe"),
        ("de", "{s}, falls ich die Karten dafür habe"),
        ("de", "{s} wenn ich Karten habe"),
        ("de", "{s} (wenn ich die Karten habe)"),
        ("de", "Wenn ich die Karten habe: {s}"),
        ("de", "{s} falls möglich"),
        ("de", "{s} (falls möglich)"),
        ("da", "{s} hvis jeg har kortene"),
        ("da", "{s}, hvis jeg har kortene til det"),
        ("da", "{s} hvis jeg har kort nok"),
        ("da", "{s} (hvis jeg har kortene)"),
        ("da", "Hvis jeg har kortene: {s}"),
        ("da", "{s} hvis muligt"),
        ("da", "{s} (hvis muligt)"),
    ],
)
def test_a_condition_on_having_the_cards_is_passed_over(lang: str, line: str) -> None:
    s = SETTLEMENT[lang]
    assert _read(line.format(s=s), lang) == _read(s, lang)


@pytest.mark.parametrize(
    ("lang", "sentence"),
    [
        ("en", "This turn I'd like to build a settlement on 4G 8W 3W if I have the cards"),
        (
            "en",
            "This turn I'd like to build a settlement on 4G 8W 3W if I've got the lumber for it",
        ),
        ("de", "Diesmal baue ich eine Siedlung an 4G 8W 3W, wenn ich die Karten habe"),
        ("da", "Denne gang bygger jeg et hus på 4K 8U 3U hvis jeg har kortene"),
    ],
)
def test_the_whole_sentence_with_the_condition_is_read(lang: str, sentence: str) -> None:
    assert _read(sentence, lang) == _read(SETTLEMENT[lang], lang)


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        # `only`: it may restrict the order, refused as `only if possible` always was.
        ("en", "{s} only if I have the cards"),
        ("en", "{s} only if possible"),
        ("en", "{s} (only if I have the cards)"),
        ("de", "{s} nur wenn ich die Karten habe"),
        ("de", "{s} nur falls möglich"),
        ("da", "{s} kun hvis jeg har kortene"),
        ("da", "{s} kun hvis muligt"),
        # A condition on more than paying: a partner, not having them, a count, a trade.
        ("en", "{s} if I have the cards from blue"),
        ("en", "{s} if I have too many cards"),
        ("en", "{s} if I don't have the cards"),
        ("en", "{s} if I get the cards"),
        ("en", "{s} if I have 2 cards"),
        ("en", "{s} if I have the cards after the trade"),
        ("en", "{s} unless I have the cards"),
        ("en", "{s} if red has the cards"),
        ("en", "If I don't have the cards: road 6B 5B"),
        ("de", "{s} wenn ich keine Karten habe"),
        ("de", "{s} wenn ich zu viele Karten habe"),
        ("de", "{s} wenn ich die Karten von blau habe"),
        ("de", "{s} wenn ich die Karten bekomme"),
        # One card named: the one played, not the cards a build is paid with.
        ("de", "{s} wenn ich die Karte habe"),
        ("da", "{s} hvis jeg ikke har kortene"),
        ("da", "{s} hvis jeg har kortene fra blå"),
        ("da", "{s} hvis jeg har for mange kort"),
        ("da", "{s} hvis jeg får kortene"),
    ],
)
def test_any_other_condition_is_still_refused(lang: str, line: str) -> None:
    with pytest.raises(OrderError):
        _read(line.format(s=SETTLEMENT[lang]), lang)
