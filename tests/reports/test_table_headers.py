"""The headers of the HTML parts' tables speak the words of the text part, in every language
and edition (QA: the German modern report's table said `Entw.-Karten` and `VP` where its text
said "Projektkarten" and "Siegpunkte"). The archive's pages share the report's headers
(`archive_index`, `archive_round`: tests/service/test_archive_edition.py)."""

from __future__ import annotations

import re
from html import unescape

import pytest

from . import scenes

MODERN = "de@modern"
LANGS = ("de", MODERN, "en", "da")

#: The mails with a table, rendered in each language: the round report, the game-end report,
#: the GM's notice of a game's end (its final table), a placement, an acknowledgement, the
#: digest, the preview, the welcome, the roster.
TABLED = (
    "report_round",
    "report_end",
    "gm_ended",
    "placed",
    "ack",
    "digest",
    "preview",
    "welcome",
    "round_open",
)

#: The English headers: none of them stands in a German or Danish mail.
ENGLISH = {
    "VP",
    "Dev cards",
    "Knights",
    "Colour",
    "Player",
    "Cards in hand",
    "Titles",
    "Orders",
    "Line",
    "Order",
    "You wrote",
    "Why",
    "Resource",
    "Pips",
    "Address",
    "code",
}
#: The classic edition's words, abbreviated ones too: none in the modern edition's headers.
CLASSIC = re.compile(r"Räuber|Entw|Siegpunktkarte|Handelsstraße|Rittermacht|Straßenbau", re.I)

#: The round report's player table, by language.
REPORT = {
    "de": ["Farbe", "Hand", "Entw.-Karten", "Ritter", "SP", "Titel"],
    MODERN: ["Farbe", "Hand", "Projektkarten", "Ritter", "SP", "Titel"],
    "en": ["Colour", "Hand", "Dev cards", "Knights", "VP", "Titles"],
    "da": ["Farve", "Hånd", "Udv.-kort", "Riddere", "SP", "Titler"],
}


def _headers(html: str) -> list[str]:
    return [
        unescape(re.sub(r"<[^>]+>", "", h)).strip() for h in re.findall(r"<th>(.*?)</th>", html)
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_the_reports_table_has_the_words_of_its_text(lang: str) -> None:
    _, rendered = scenes.SCENES["report_round"](lang)
    assert _headers(rendered.html)[: len(REPORT[lang])] == REPORT[lang]
    text = " ".join(rendered.text.split())
    if lang.startswith("de"):
        assert "Siegpunkte:" in text  # the header's SP
    if lang == MODERN:
        assert "Entw" not in rendered.html and "Entw" not in rendered.text


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", TABLED)
def test_no_header_is_left_in_english_or_in_classic_words(name: str, lang: str) -> None:
    _, rendered = scenes.SCENES[name](lang)
    headers = [h for h in _headers(rendered.html) if h]
    if lang != "en":
        assert not ENGLISH.intersection(headers), (name, headers)
    if lang == MODERN:
        assert not [h for h in headers if CLASSIC.search(h)], (name, headers)
