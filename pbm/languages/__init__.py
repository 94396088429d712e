"""The order vocabulary of every game language, as data: one TOML file a language.

What players *write* in a language — its order keywords, fillers, resource names and letters,
number words, colour words, hex and harbour names, heading words, greetings and closings, mail
commands — is `pbm/languages/<lang>.toml`, read here with the standard library (`tomllib`).
The parser (`pbm.notation`) builds its word sets and regular expressions from these files, the
union over the languages, and the rules read the resource letters from them; what pbm *writes*
is the message catalogue (`pbm.i18n`). docs/translating.md describes the keys.

A language is found without code: every `*.toml` beside this module, and every `*.toml` in the
directories named by the environment variable `PBM_LANGUAGE_DIRS` (separated like `PATH`) or
given to `register_directory` before the parser is imported. Languages are taken in the order
of their `order` key (German 1, English 2, Danish 3; a file without one comes after them, by
name): where the words of several languages meet in one list or one alternation, the lower
order's come first, as the parser has always tried German before English.

This module sits at the bottom of the layers (docs/architecture.md): it imports only the
standard library, so that `pbm.rules` (letters) may read it as well as `pbm.notation`.
"""

from __future__ import annotations

import logging
import os
import tomllib
from collections.abc import Iterator, Mapping
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

_log = logging.getLogger("pbm")

#: The environment variable naming further directories of language files.
ENV = "PBM_LANGUAGE_DIRS"
#: The language whose words a language without a file of its own reads (pbm's first).
DEFAULT = "de"
#: Where a language file without an `order` key is placed among the others.
_NO_ORDER = 1000

_registered: list[Path] = []

Language = Mapping[str, Any]


def register_directory(path: str | os.PathLike[str]) -> None:
    """Add a directory of language files (`<lang>.toml`). Takes effect for tables built after
    the call: the parser builds its tables when it is imported, so call this first (or set
    `PBM_LANGUAGE_DIRS` for the process)."""
    _registered.append(Path(path))
    _languages.cache_clear()


def _directories() -> Iterator[Path]:
    for entry in os.environ.get(ENV, "").split(os.pathsep):
        if entry:
            yield Path(entry)
    yield from _registered


@cache
def _languages() -> dict[str, Language]:
    found: dict[str, Language] = {}
    for entry in files(__package__).iterdir():
        if entry.name.endswith(".toml"):
            found[entry.name.removesuffix(".toml")] = tomllib.loads(entry.read_text("utf-8"))
    shipped = set(found)
    for directory in _directories():
        for path in sorted(directory.glob("*.toml")):
            if path.stem in shipped:
                # A leftover directory in the environment must not change how every game's
                # orders are read, unseen: a shipped language is never replaced.
                _log.warning("%s: not read, %s is a language pbm ships", path, path.stem)
                continue
            found[path.stem] = tomllib.loads(path.read_text("utf-8"))
    return dict(sorted(found.items(), key=lambda kv: (kv[1].get("order", _NO_ORDER), kv[0])))


def names() -> tuple[str, ...]:
    """Every language with order words, in their `order`."""
    return tuple(_languages())


def base(lang: str) -> str:
    """The language of a catalogue name: `de` of `de@modern`."""
    return lang.partition("@")[0]


def data(lang: str) -> Language:
    """A language's file as read (`de@modern` reads German's; a language without a file, the
    default language's)."""
    table = _languages()
    return table.get(base(lang), table[DEFAULT])


def has(lang: str) -> bool:
    """Whether the language has a file of order words."""
    return base(lang) in _languages()


def _section(lang: str, section: str) -> Mapping[str, Any]:
    value = data(lang).get(section, {})
    if not isinstance(value, Mapping):
        raise TypeError(f"{lang}.toml: [{section}] is not a table")
    return value


def word_list(lang: str, section: str, key: str) -> tuple[str, ...]:
    """One list of a language's file (`[section] key = [...]`); empty where it has none."""
    value = _section(lang, section).get(key, [])
    if not isinstance(value, list) or not all(isinstance(w, str) for w in value):
        raise TypeError(f"{lang}.toml: [{section}] {key} is not a list of words")
    return tuple(value)


def keys(section: str) -> tuple[str, ...]:
    """The keys of a section in any language, in the order they first appear."""
    out: dict[str, None] = {}
    for lang in names():
        out.update(dict.fromkeys(_section(lang, section)))
    return tuple(out)


def words(section: str, key: str) -> tuple[str, ...]:
    """The union of one list over every language, in the languages' order, each word once."""
    out: dict[str, None] = {}
    for lang in names():
        out.update(dict.fromkeys(word_list(lang, section, key)))
    return tuple(out)


def by_language(section: str, key: str) -> dict[str, tuple[str, ...]]:
    """One list of every language that has it, by language."""
    return {lang: ws for lang in names() if (ws := word_list(lang, section, key))}


def mapping(lang: str, section: str) -> dict[str, Any]:
    """A table of a language's file (`[section]`: word → value), as read."""
    return dict(_section(lang, section))


def merged(section: str) -> dict[str, Any]:
    """A table (word → value) over every language; a word two languages give keeps the value
    of the first."""
    out: dict[str, Any] = {}
    for lang in names():
        for word, value in _section(lang, section).items():
            out.setdefault(word, value)
    return out
