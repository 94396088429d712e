"""The order words a refusal lists ("an order was expected (Hus, By, Vej, …)") are words the
game's own language reads as those orders: a player copies them. QA found the Danish list
naming `Pirat`, the German word, which a Danish mail does not read (Danish: `Sørøver`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbm import languages
from pbm.i18n import translator
from pbm.notation.context import fold
from pbm.notation.format import _words

MESSAGES = Path(__file__).resolve().parents[1] / "pbm" / "notation" / "messages.py"
KEYS = ("order_expected", "order_expected_sea", "order_expected_kron")


def _msgid(key: str) -> str:
    """The English text of a notation message key, as messages.py writes it."""
    source = MESSAGES.read_text(encoding="utf-8")
    m = re.search(rf'"{key}": N_\(\s*((?:"[^"]*"\s*)+)\)', source)
    assert m is not None, key
    return "".join(re.findall(r'"([^"]*)"', m.group(1)))


def _words_read(lang: str) -> set[str]:
    """The language's own keywords, and the order words pbm writes in it (its echo)."""
    base = lang.split("@")[0]
    kinds = languages.keys("keywords")
    words = {w for kind in kinds for w in languages.word_list(base, "keywords", kind)}
    return words | {fold(w)[0].strip() for w in _words(lang).values()}


@pytest.mark.parametrize("lang", ["de", "de@modern", "en", "da"])
@pytest.mark.parametrize("key", KEYS)
def test_every_order_word_a_refusal_lists_is_read_in_that_language(lang: str, key: str) -> None:
    text = translator(lang).gettext(_msgid(key)).format(word="x")
    listed = re.search(r"\(([^)]*)\)", text)
    assert listed is not None, text
    items = [item for item in listed.group(1).split(", ") if item != "…"]
    assert len(items) >= 6
    read = _words_read(lang)
    assert [item for item in items if fold(item)[0].strip() not in read] == []
