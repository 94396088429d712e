"""The parser's word sets and alternations, built from the language files (`pbm.languages`).

A language file holds plain words (folded, see `text.fold`); here they become what the readers
match: a frozenset for a word looked up, an alternation for a regular expression, each word
escaped. Every table is the union over the languages (`pbm.languages.names()`, German first),
so an order word of any language is read in every game, as it always was; the few words that
are an order word in their own game only are `own_game_only` (`vocab.foreign_only`).

An alternation tries its words in the languages' order, with one rule added: a word comes
before every shorter word it starts with (`bank trade` before `bank`, `or else` before `or`),
so that a keyword followed by a blank is read whole wherever the list puts it. Where the
languages' lists already say so (all of German, English and Danish), the order is theirs.
"""

from __future__ import annotations

from collections.abc import Iterable
from re import escape

from pbm import languages


def longest_first(words: Iterable[str]) -> list[str]:
    """The words once each, in their order, except that a word comes before every word that is
    its beginning (`tausche` before `tausch`): the first alternative of a regular expression
    that matches wins, so a shorter one first would cut the longer one's match short."""
    out: list[str] = []
    for word in dict.fromkeys(words):
        at = next((i for i, w in enumerate(out) if word.startswith(w)), len(out))
        out.insert(at, word)
    return out


def alternation(words: Iterable[str]) -> str:
    """`a|b|c` of the words, escaped, for a regular expression (wrap it in a group)."""
    return "|".join(escape(w) for w in longest_first(words))


def word_set(section: str, key: str) -> frozenset[str]:
    """One list of every language, as a set of words."""
    return frozenset(languages.words(section, key))


def words(section: str, key: str) -> tuple[str, ...]:
    """One list of every language, in the languages' order, each word once."""
    return languages.words(section, key)


def either(section: str, key: str) -> str:
    """One list of every language as an alternation (see `alternation`)."""
    return alternation(languages.words(section, key))


def patterns(key: str) -> str:
    """The regular-expression fragments of every language for one pattern (`[patterns]`), as
    alternatives in the languages' order: used as written, neither escaped nor reordered."""
    return "|".join(languages.words("patterns", key))
