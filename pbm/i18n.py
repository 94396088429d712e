"""The message catalogue: every text a player reads, one gettext catalogue per language.

The msgids are the English texts (the gettext convention: code and templates stay readable, a
translator starts from English); `msgctxt` tells apart one English text that needs two texts in
another language ("VP" in the digest's table and in the summary). English has a catalogue of its
own too, complete like every other: it is where an English game's text differs from the msgid
(a notation error in an English game shows the English order words).

The catalogues are `pbm/locale/<lang>/LC_MESSAGES/pbm.po`, package data; the game languages are
the catalogues present whose order words the parser reads: those with a language file
(`pbm/languages/<lang>.toml`, `reads_order_words`).
A catalogue is compiled in memory on first use (`pbm.pofile` reads the `.po` as Babel would and
writes a `.mo`, which `gettext` reads) and kept for the process, so nothing is built at install
time. Babel is a tool of the developers (extracting and updating
the catalogues), never loaded by a process that only looks texts up. How to extract, update
and add a language: docs/translating.md.

An edition is a variant of a language's catalogue, named like a locale with a modifier
(`de@modern`, as gettext names `sr@latin`): `pbm/locale/de/modern.po` holds only the texts that
read differently in that edition's words (seed 002's "Bandit", "Projektkarte", …), and every
other text falls back to the language's catalogue. A game's texts are looked up under its
`variant(lang, edition)`; a language without a catalogue for the edition keeps its own words.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import TypeVar

from pbm import languages as order_words

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


def reads_order_words(lang: str) -> bool:
    """Whether the parser reads the language's order words: it has a language file
    (`pbm/languages/<lang>.toml`, or one of a directory named by `PBM_LANGUAGE_DIRS`). A
    catalogue without one is a language pbm could write but whose answers it could not read:
    no game language yet (docs/translating.md, "A language becomes a game language when …")."""
    return order_words.has(lang)


@cache
def catalogues() -> tuple[str, ...]:
    """Every language with a catalogue, sorted: the game languages and those not yet
    playable (no language file). Their texts are looked up alike (`translator("da")`)."""
    return tuple(
        sorted(
            d.name
            for d in locale_dir().iterdir()
            if d.is_dir() and d.joinpath("LC_MESSAGES", f"{DOMAIN}.po").is_file()
        )
    )


@cache
def languages() -> tuple[str, ...]:
    """The game languages: every language with a catalogue that the parser reads too, sorted
    (`pbm game create --lang` accepts exactly these)."""
    return tuple(lang for lang in catalogues() if reads_order_words(lang))


def base(lang: str) -> str:
    """The language of a catalogue name: `de` of `de@modern`."""
    return lang.partition("@")[0]


@cache
def _variant_path(lang: str) -> Traversable | None:
    """The edition catalogue of `de@modern` (`pbm/locale/de/modern.po`), if there is one.
    Kept for the process like `languages()`: the catalogues are package data, and every
    `Game.locale` asks (a file system look-up each time otherwise)."""
    language_, _, edition = lang.partition("@")
    if not edition or language_ not in languages() or not edition.isidentifier():
        return None
    path = locale_dir().joinpath(language_, f"{edition}.po")
    return path if path.is_file() else None


def variant(lang: str, edition: str) -> str:
    """The catalogue a game's texts come from: `de@modern` for a German game in the modern
    edition's words; the language itself where it has no catalogue for the edition (English
    has one vocabulary) and for the classic edition, whose words are the catalogue's own."""
    name = f"{lang}@{edition}"
    return name if _variant_path(name) is not None else lang


def language(lang: str) -> str:
    """`lang` if it has a catalogue (a language's, a language's not yet playable, or an
    edition's variant of one), else the language it varies, else the default language."""
    if lang in catalogues() or _variant_path(lang) is not None:
        return lang
    return base(lang) if base(lang) in catalogues() else DEFAULT


def _compile(path: Traversable) -> gettext.GNUTranslations:
    # The standard library's reading of what Babel writes (`pbm.pofile`): Babel is not loaded
    # into a process that only looks texts up. A line it cannot read is an error, not a text
    # silently left out.
    from pbm.pofile import translations

    return translations(path.read_bytes(), str(path))


@cache
def translator(lang: str) -> gettext.GNUTranslations:
    """The compiled catalogue of a language (of the default one for a language without one):
    `gettext`, `ngettext`, `pgettext`, `npgettext`. An edition's variant (`de@modern`) holds
    its own texts and falls back to its language's catalogue for the rest."""
    lang = language(lang)
    variant_path = _variant_path(lang)
    if variant_path is None:
        return _compile(locale_dir().joinpath(lang, "LC_MESSAGES", f"{DOMAIN}.po"))
    words = _compile(variant_path)
    words.add_fallback(translator(base(lang)))
    return words


def mail_languages() -> tuple[str, ...]:
    """The game languages in the order a mail in every language writes them: the default
    language first, then the others sorted (`de`, `da`, `en`)."""
    return tuple(sorted(languages(), key=lambda lang: lang != DEFAULT))


class PerLanguage(Mapping[str, V]):
    """A table by game language whose values are made from the catalogue on first use: a view
    of the catalogue, not a second copy of its texts (`CARD_NAMES["de"]`)."""

    def __init__(self, make: Callable[[str], V]) -> None:
        self._make = make
        self._made: dict[str, V] = {}

    def __getitem__(self, lang: str) -> V:
        if lang not in languages() and language(lang) != lang:
            raise KeyError(lang)
        if lang not in self._made:
            self._made[lang] = self._make(lang)
        return self._made[lang]

    def __iter__(self) -> Iterator[str]:
        return iter(languages())

    def __len__(self) -> int:
        return len(languages())
