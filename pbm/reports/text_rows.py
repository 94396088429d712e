"""Rows of the report's player tables ("Cards in hand:", "Victory points:", the final scores)
within 72 columns: a row too long for one line goes on under its text column, so a Kronlande
hand of ten kinds or a player named at length never widens the mail."""

from __future__ import annotations

import re
import textwrap

#: The width of a plain-text mail line (docs/architecture.md).
LIMIT = 72
#: A continuation starts under the row's text when that leaves this many columns, else here.
NARROW = 28
SHORT_INDENT = "      "

_GROUP = re.compile(r"\([^()]*\)")


def table_row(label: str, width: int, text: str, limit: int = LIMIT) -> str:
    """`  <label padded to width> <text>`, as it is when it fits in `limit` columns; else the
    text wrapped between its words, the continuation lines indented under the text (or by six
    when the label leaves too little room). A bracketed group that fits a line is never split."""
    head = f"  {label:<{width}} "
    line = head + text
    if len(line) <= limit:
        return line
    indent = " " * len(head) if limit - len(head) >= NARROW else SHORT_INDENT
    room = limit - len(indent)

    def glue(m: re.Match[str]) -> str:
        group = m.group(0)
        return group.replace(" ", "\u00a0") if len(group) <= room else group

    return textwrap.fill(
        _GROUP.sub(glue, text),
        limit,
        initial_indent=head,
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    ).replace("\u00a0", " ")
