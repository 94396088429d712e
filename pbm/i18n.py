"""The message catalogue: every text a player reads, one gettext catalogue per language.

The msgids are the English texts (the gettext convention: code and templates stay readable, a
translator starts from English); `msgctxt` tells apart one English text that needs two texts in
another language ("VP" in the digest's table and in the summary). English has a catalogue of its
own too, complete like every other: it is where an English game's text differs from the msgid
(a notation error in an English game shows the English order words).

The catalogues are `pbm/locale/<lang>/LC_MESSAGES/pbm.po`, package data; the game languages are
the catalogues present. A catalogue is compiled in memory on first use (Babel reads the `.po`
and writes a `.mo`, which `gettext` reads) and kept for the process, so nothing is built at
install time. Babel is imported only then: the engine's commands (`pbm sim`, `pbm board`, …)
that never look a text up never load it. How to extract, update and add a language:
docs/translating.md.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import TypeVar

DOMAIN = "pbm"
#: The language of a game whose language has no catalogue (pbm's first language).
DEFAULT = "de"

V = TypeVar("V")


def N_(msgid: str) -> str:
    """Marks a text for extraction where it is looked up later (tables of texts by key)."""
    return msgid


def locale_dir() -> Traversable:
    """Where the catalogues are: `pbm/locale/<lang>/LC_MESSAGES/pbm.po`."""
    return files("pbm").joinpath("locale")


@cache
def languages() -> tuple[str, ...]:
    """The game languages: every language with a catalogue, sorted."""
    return tuple(
        sorted(
            d.name
            for d in locale_dir().iterdir()
            if d.is_dir() and d.joinpath("LC_MESSAGES", f"{DOMAIN}.po").is_file()
        )
    )


def language(lang: str) -> str:
    """`lang` if it has a catalogue, else the default language."""
    return lang if lang in languages() else DEFAULT


@cache
def translator(lang: str) -> gettext.GNUTranslations:
    """The compiled catalogue of a language (of the default one for a language without one):
    `gettext`, `ngettext`, `pgettext`, `npgettext`."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    path = locale_dir().joinpath(language(lang), "LC_MESSAGES", f"{DOMAIN}.po")
    with path.open("rb") as f:
        # A line the parser cannot read is an error, not a text silently left out.
        catalog = read_po(f, domain=DOMAIN, abort_invalid=True)
    mo = io.BytesIO()
    write_mo(mo, catalog)
    mo.seek(0)
    return gettext.GNUTranslations(mo)


def every_language(msgid: str, **params: object) -> list[str]:
    """The text in every game language, for a mail to someone whose language is not known."""
    return [translator(lang).gettext(msgid).format(**params) for lang in languages()]


class PerLanguage(Mapping[str, V]):
    """A table by game language whose values are made from the catalogue on first use: a view
    of the catalogue, not a second copy of its texts (`CARD_NAMES["de"]`)."""

    def __init__(self, make: Callable[[str], V]) -> None:
        self._make = make
        self._made: dict[str, V] = {}

    def __getitem__(self, lang: str) -> V:
        if lang not in languages():
            raise KeyError(lang)
        if lang not in self._made:
            self._made[lang] = self._make(lang)
        return self._made[lang]

    def __iter__(self) -> Iterator[str]:
        return iter(languages())

    def __len__(self) -> int:
        return len(languages())
