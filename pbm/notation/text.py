"""Normalising text for matching: case, umlauts, dashes, spaces — with a map back to columns."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

#: Any blank but a single plain space: the lines the fast path of `fold` cannot take.
_ODD_SPACE = re.compile(r"[^\S ]|  ")

_FOLD = {
    "ä": "ae",
    "ö": "oe",
    "ü": "ue",
    "ß": "ss",
    "Ä": "ae",
    "Ö": "oe",
    "Ü": "ue",
    "ẞ": "ss",
    "é": "e",
    "è": "e",
    "\u00a0": " ",
    "\u2007": " ",
    "\u202f": " ",
    "\t": " ",
    "\u2013": "-",
    "\u2014": "-",
    "\u2012": "-",
    "\u2010": "-",
    "\u2011": "-",
    "\u2212": "-",
    "\u2192": "-",
    "\u27f6": "-",
    "\u21d2": "-",
    "\u2794": "-",
    "\u2018": "'",
    "\u2019": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u201e": '"',
}


#: Texts up to this long are folded once per process (`_fold_short`): a line's pieces are
#: folded again and again while it is parsed. Longer ones are not kept (memory).
FOLD_CACHE_CHARS = 200


def fold(text: str) -> tuple[str, Sequence[int]]:
    """Lower-cased, umlauts spelled out, dashes and arrows as `-`, any run of spaces (tabs,
    non-breaking spaces) as one ` `.

    Returns the folded text and, for each of its characters, the index of the character of
    `text` it came from, so errors can point at the column the player wrote. Collapsing the
    spaces also keeps every pattern on the folded text linear, however long a run of blanks.
    """
    if text.isascii() and not _ODD_SPACE.search(text):
        # The usual line: nothing to spell out, so positions stay where they are.
        return text.lower(), range(len(text))
    if len(text) <= FOLD_CACHE_CHARS:
        return _fold_short(text)
    return _fold(text)


@lru_cache(maxsize=4096)
def _fold_short(text: str) -> tuple[str, Sequence[int]]:
    # The index is a tuple: the cached result is shared, so it must not be changeable.
    folded, index = _fold(text)
    return folded, tuple(index)


def _fold(text: str) -> tuple[str, Sequence[int]]:
    out: list[str] = []
    index: list[int] = []
    for i, ch in enumerate(text):
        rep = _FOLD.get(ch)
        if rep is None:
            rep = " " if ch.isspace() else ch.lower()
        if rep == " " and out and out[-1] == " ":
            continue
        out.append(rep)
        index.extend([i] * len(rep))
    return "".join(out), index


def simple(text: str) -> str:
    """Folded, with runs of spaces collapsed: for comparing keywords."""
    return " ".join(fold(text)[0].split())
