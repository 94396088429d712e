"""Every text with a count, rendered with 0, 1 and 2 in each language and edition: the noun
after the number agrees with it (`1 Zeile`, `2 Zeilen`, never `1 Zeilen`), and the number is
there when it is not one (tests/mail_text.py reads the nouns from the catalogue)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from babel.messages.pofile import read_po
from mail_text import COUNT, count_nouns, wrong_counts

from pbm import i18n

POT = i18n.locale_dir().joinpath("pbm.pot")
#: The languages and the modern edition's German.
LANGS = ("de", "en", "de@modern")
COUNT_NAME = re.compile(COUNT)


def _plural_texts() -> list[tuple[str | None, str, str]]:
    with POT.open("rb") as f:
        return [(m.context, m.id[0], m.id[1]) for m in read_po(f) if isinstance(m.id, tuple)]


class _Values(dict[str, Any]):
    """A count for the count's placeholder, a word for every other."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.n = n

    def __missing__(self, key: str) -> Any:
        return self.n if COUNT_NAME.fullmatch(f"{{{key}}}") else "X"


def _fill(text: str, n: int) -> str:
    values = _Values(n)
    if re.search(r"%\(\w+\)s", text):
        return text % values
    return text.format_map(values)


def test_there_are_texts_with_counts() -> None:
    assert len(_plural_texts()) >= 15


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("n", [0, 1, 2])
def test_every_count_agrees_with_its_noun(lang: str, n: int) -> None:
    tr = i18n.translator(lang)
    wrong = []
    for context, singular, plural in _plural_texts():
        if context is None:
            text = tr.ngettext(singular, plural, n)
        else:
            text = tr.npgettext(context, singular, plural, n)
        filled = _fill(text, n)
        wrong += wrong_counts(filled, lang)
        if n != 1 and COUNT_NAME.search(plural):
            # The number is said (only the form for one may say it in words or leave it out).
            assert re.search(rf"(?<!\d){n}(?!\d)", filled), (lang, singular, filled)
    assert not wrong, wrong


@pytest.mark.parametrize("lang", LANGS)
def test_the_count_nouns_are_known(lang: str) -> None:
    """The check has nouns to check: the samples of issue 27 among them."""
    one, more = count_nouns(lang)
    if lang.startswith("de"):
        assert {"Zeile", "Entwicklungskarte", "Runde"} <= one
        assert {"Zeilen", "Entwicklungskarten", "Runden"} <= more
        assert wrong_counts("(1 Entwicklungskarten, 0 Ritter)", lang)
        assert wrong_counts("  1 Zeilen (Zitate)", lang)
        assert not wrong_counts("(1 Entwicklungskarte, 0 Ritter)", lang)
    else:
        assert {"line", "round", "dev card", "knight"} <= one
        assert wrong_counts("(1 dev cards, 0 knight)", lang)
