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
    # Danish, spelled out as a player without a Danish keyboard writes them (`Roever`, `blaa`).
    "æ": "ae",
    "ø": "oe",
    "å": "aa",
    "Æ": "ae",
    "Ø": "oe",
    "Å": "aa",
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
    "\u27a1": "-",
    "\u2b05": "-",
    "\u2b95": "-",
    "\u2018": "'",
    "\u2019": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u201e": '"',
}


#: Every character `str.isspace` calls a blank (they all fold to one space).
_BLANK_CHARS = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
    "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
#: Marks that say "not this" (`❌ Straße …`, `🚫`): never blanks, so a line a player crossed
#: out is refused as it was, not built.
_CROSSED_OUT = frozenset("\u274c\u274e\u2716\u2717\u2718\u26d4\U0001f6ab")
#: Pictographs a phone puts into a line (`Stadt B2 B3 C3 👍`), with their variation selector
#: and skin tones: blanks to the reader, so they mean nothing in an order (a message keeps
#: them: it is read from the player's own text). The arrows among them fold to `-` (`_FOLD`),
#: the crossing-out marks stay (`_CROSSED_OUT`).
_PICTOGRAPHS = frozenset(
    ch
    for first, last in (
        (0x2600, 0x27BF),  # miscellaneous symbols and dingbats (☀ ☺ ✓ ✔ ❤)
        (0x2B00, 0x2BFF),  # arrows and stars (⭐)
        (0x1F000, 0x1FAFF),  # emoji, with the skin tones
        (0xFE0E, 0xFE0F),  # text and emoji presentation selectors
    )
    for c in range(first, last + 1)
    if (ch := chr(c)) not in _CROSSED_OUT
)
#: `fold`'s one-to-one and one-to-many replacements, for `str.translate`.
_TABLE = str.maketrans(
    {**{ch: " " for ch in _PICTOGRAPHS}, **{ch: " " for ch in _BLANK_CHARS}, **_FOLD}
)
#: The characters folded into more than one: the spelled-out ones, and the capital dotted I,
#: which `str.lower` writes as two.
_SPELLED_OUT = re.compile(
    "[" + "".join(ch for ch, rep in _FOLD.items() if len(rep) != 1) + "\u0130]"
)
#: A run of blanks, as folded.
_BLANKS = re.compile("  +")

#: Texts up to this long are folded once per process (`_fold_short`): a line's pieces are
#: folded again and again while it is parsed. Longer ones are not kept (memory).
FOLD_CACHE_CHARS = 200


def fold(text: str) -> tuple[str, Sequence[int]]:
    """Lower-cased, umlauts and Danish `æ ø å` spelled out (`ae oe aa`), dashes and arrows as
    `-`, any run of spaces (tabs, non-breaking spaces) as one ` `.

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
    """`fold` in a few passes of C (translate, lower, find): only the characters spelled out
    in more than one (`ä`) and the runs of blanks are looked at one by one. A mail is folded
    line by line before anything is known of its sender, so a stranger's 250 KB of umlauts
    must not cost seconds (a loop over every character did)."""
    if "\u03a3" in text:
        # A capital sigma lower-cases by its neighbours in `str.lower` (final sigma): folded
        # one character at a time, as every other character is in effect.
        return _fold_each(text)
    low = text.translate(_TABLE).lower()
    index: Sequence[int] = range(len(text))
    if len(low) != len(text):
        spelled: list[int] = []
        last = 0
        for m in _SPELLED_OUT.finditer(text):
            i = m.start()
            spelled.extend(range(last, i))
            spelled.extend([i] * len(_FOLD.get(text[i]) or text[i].lower()))
            last = i + 1
        spelled.extend(range(last, len(text)))
        index = spelled
    if "  " not in low:
        return low, index
    parts: list[str] = []
    kept: list[int] = []
    last = 0
    for m in _BLANKS.finditer(low):
        start, end = m.span()
        parts.append(low[last : start + 1])
        kept.extend(index[last : start + 1])
        last = end
    parts.append(low[last:])
    kept.extend(index[last:])
    return "".join(parts), kept


def _fold_each(text: str) -> tuple[str, Sequence[int]]:
    out: list[str] = []
    index: list[int] = []
    for i, ch in enumerate(text):
        rep = _FOLD.get(ch)
        if rep is None:
            rep = " " if ch.isspace() or ch in _PICTOGRAPHS else ch.lower()
        if rep == " " and out and out[-1] == " ":
            continue
        out.append(rep)
        index.extend([i] * len(rep))
    return "".join(out), index


def simple(text: str) -> str:
    """Folded, with runs of spaces collapsed: for comparing keywords."""
    return " ".join(fold(text)[0].split())
