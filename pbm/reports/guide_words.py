"""A player guide in an edition's words: the language's guide with a table of phrases applied.

The table (`pbm/guides/player-guide.<lang>@<edition>.words`) has one `classic → edition` pair
a line (`#` starts a comment). The longest phrase is replaced first, so a compound
(`Räuberbefehl`) wins over its word (`Räuber`); a phrase matches only as whole words, and a
space in it matches any white space, because the guide's lines wrap between the article and the
noun. Text between `<!-- beide Ausgaben -->` and `<!-- /beide Ausgaben -->` (any marker name)
names both editions' words and is kept; the markers themselves never reach a mail.
"""

from __future__ import annotations

import re

_MARKED = re.compile(r"^<!-- ([^/][^>]*?) -->\n(.*?)^<!-- /\1 -->\n", re.M | re.S)
_MARKER = re.compile(r"^<!-- /?[^>]*? -->\n", re.M)


def word_table(text: str) -> list[tuple[str, str]]:
    """The pairs of a `.words` file, longest phrase first."""
    pairs = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        old, sep, new = line.partition("→")
        if not sep or not old.strip() or not new.strip():
            raise ValueError(f"not a pair 'classic → edition': {line!r}")
        pairs.append((old.strip(), new.strip()))
    return sorted(pairs, key=lambda p: -len(p[0]))


def _apply(text: str, pairs: list[tuple[str, str]]) -> str:
    if not pairs:
        return text
    pattern = "|".join(
        r"(?<!\w)"
        + r"\s+".join(re.escape(w) for w in old.split(" "))
        + (r"(?!\w)" if old[-1].isalnum() else "")
        for old, _ in pairs
    )
    table = {re.sub(r"\s+", " ", old): new for old, new in pairs}

    def swap(m: re.Match[str]) -> str:
        found = m.group(0)
        new = table[re.sub(r"\s+", " ", found)]
        # Keep a line break the guide had inside the phrase.
        gap = re.search(r"\s+", found)
        return new.replace(" ", gap.group(0), 1) if gap and " " in new else new

    return re.sub(pattern, swap, text)


def in_edition(markdown: str, table: str) -> str:
    """The guide with the table's words, the marked passages kept, the markers removed."""
    pairs = word_table(table)
    out, pos = [], 0
    for m in _MARKED.finditer(markdown):
        out.append(_apply(markdown[pos : m.start()], pairs))
        out.append(m.group(2))
        pos = m.end()
    out.append(_apply(markdown[pos:], pairs))
    return _MARKER.sub("", "".join(out))
