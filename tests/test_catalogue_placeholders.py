"""Every translation keeps its English text's placeholders exactly: the same `{field}` (with its
conversion and format, `{shown!r}`, `{number:2}`) and `%(name)s`, as often as the English text
has them, in every catalogue — the game languages, those not yet playable (`da`) and the
editions (`de/modern.po`). `test_catalogue.py` allows a translation to leave one out; none does,
and a text that drops a value is a text that tells the player less, so this holds them to all.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from pbm import i18n

LOCALE = Path(i18n.__file__).parent / "locale"
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\(\w+\)[sd]")
#: Texts whose translations may name another of the values the code fills in: the keyword as
#: the player wrote it (`shown`) reads better than the folded one (`word`).
SWAPS = {"a value was expected after '{word}'": {"{word}", "{shown!r}"}}


def _catalogues() -> list[Path]:
    return [
        *(LOCALE / lang / "LC_MESSAGES" / "pbm.po" for lang in i18n.catalogues()),
        *sorted(LOCALE.glob("*/*.po")),
    ]


def _read(path: Path) -> Catalog:
    with path.open("rb") as f:
        return read_po(f)


@pytest.mark.parametrize("path", _catalogues(), ids=lambda p: str(p.relative_to(LOCALE)))
def test_every_translation_has_the_placeholders_of_its_english_text(path: Path) -> None:
    wrong = []
    for m in _read(path):
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        # A plural's forms each have the placeholders of the singular msgid or of the plural
        # one: a singular may leave out the count ("The last report of …", "one"), as its
        # msgid does; a form that drops a value neither msgid drops is wrong.
        wants = [Counter(PLACEHOLDER.findall(i)) for i in ids]
        for s in strings:
            have = Counter(PLACEHOLDER.findall(s))
            if have in wants:
                continue
            if m.id in SWAPS and set(have) <= SWAPS[m.id] and sum(have.values()) == 1:
                continue
            wrong.append((m.context, ids[0], s))
    assert not wrong, wrong


def test_every_catalogue_is_checked() -> None:
    names = {str(p.relative_to(LOCALE)) for p in _catalogues()}
    assert {"de/LC_MESSAGES/pbm.po", "en/LC_MESSAGES/pbm.po", "da/LC_MESSAGES/pbm.po"} <= names
    assert "de/modern.po" in names
