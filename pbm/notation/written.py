"""The language a mail is written in, told from its words: for the answers to a sender whose
language pbm does not know (a stranger, a mail that belongs to no game), which are written in
every language with the sender's first.

A word counts for a language when that language's file (`pbm/languages/<lang>.toml`) has it
and no other language's does (`tilmelding`, `hvordan`, `anmeldung`, `hello`): the words of the
commands, keywords, greetings, closings and fillers players write. The language with the most
such words is the mail's; none, or a tie, tells nothing. A guess for the order of an answer's
languages, never for what a mail means."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from functools import cache

from pbm import languages

from .text import fold

#: Sections of a language file that hold no words players write as words.
_NOT_WORDS = frozenset({"patterns", "letters"})
#: Shorter words (`i`, `to`, `er`, the resource letters) say too little about a language.
_SHORTEST = 3
#: How much of a mail is looked at: its first lines outside quotes, each cut to its start
#: (a stranger's mail costs no more than its beginning).
_LINES = 40
_LINE_CHARS = 160
_WORD = re.compile(r"[^\W\d_]+")


def _strings(section: str, table: dict[str, object]) -> Iterator[str]:
    """The words of a section of a language file: the items of its lists (`[commands] join =
    […]`, whose keys are the same names in every file), the keys of a table of words (`trae =
    "lumber"`, whose values are those names), the values of `[written]`."""
    for key, value in table.items():
        if isinstance(value, list):
            yield from (item for item in value if isinstance(item, str))
        elif section == "written" and isinstance(value, str):
            yield value
        else:
            yield key


@cache
def _own_words() -> dict[str, frozenset[str]]:
    """Each language's words that no other language's file has."""
    words: dict[str, set[str]] = {}
    for lang in languages.names():
        found = words.setdefault(lang, set())
        for section, table in languages.data(lang).items():
            if section in _NOT_WORDS or not isinstance(table, dict):
                continue
            for text in _strings(section, table):
                found.update(w for w in _WORD.findall(text.lower()) if len(w) >= _SHORTEST)
    shared = Counter(w for found in words.values() for w in found)
    return {lang: frozenset(w for w in found if shared[w] == 1) for lang, found in words.items()}


def written_in(body: str, subject: str = "") -> str | None:
    """The language whose own words the mail uses most (its subject and its first lines
    outside quotes); None when no language's words stand out."""
    lines = [subject]
    for line in body.splitlines():
        if len(lines) > _LINES:
            break
        if not line.lstrip().startswith(">"):
            lines.append(line[:_LINE_CHARS])
    folded = fold(" ".join(lines))[0]
    own = _own_words()
    votes = Counter(
        lang for word in _WORD.findall(folded) for lang, words in own.items() if word in words
    )
    ranked = votes.most_common(2)
    if not ranked or (len(ranked) == 2 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]
