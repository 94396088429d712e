"""The line width of a mail's text part: no line longer than `WIDTH` columns.

RFC 5322 asks for lines of at most 78 characters; a text part wrapped at 76 leaves room for a
reader's quote mark. Every text part passes through `wrap_text` once (`render.render` and the
outbox row, `service.outbox`); a line that fits is never touched, so what must stay as it is
stays within the width by construction instead: the text map (72 columns, `text_map`), the
tables (`text_rows`, the codebook, the game summary), the password line and the order form,
whose lines a player copies back (tests/reports/test_line_width.py holds them to it).

A longer line is broken between words, never inside one (a hex name, an order word, a code or
a link stays whole; a single word longer than the width stays whole too) nor inside a date and
time or a place's names (`_WHOLE`), with a hanging indent that keeps the line's shape:

- an echoed line of a player's mail (`  12  Siedlung …`) goes on two columns right of its
  text, so the line numbers stand alone in their column and a refused line's reason (at the
  text's column, below it) is never read as the echo's last words;
- a list item (`- …`, `→ …`, `* …`) goes on under its text;
- a quoted line (`> …`) goes on quoted;
- an indented line goes on at its indent plus two; a line of prose at its own indent.
"""

from __future__ import annotations

import re
import textwrap

#: The width of a text part's lines.
WIDTH = 76

#: What is never broken across lines: a moment as the mails write it ("2026-01-03 12:00 UTC",
#: "13:00 Europe/Berlin"), the labels naming one crossing or path ("D2 D3 E2"), a short
#: group in parentheses ("(11G 6G 5W)", the hexes of a place) and a short quoted line to
#: copy ("für Stein schreibe 'Seehandel 4S gegen 1H'"), and the dice seal's check, a shell
#: command the game's end tells the player to run as its last line (`rng.seal_check`).
_WHOLE = re.compile(
    r"printf %s \S++ \| sha256sum|"
    r"(?:\d{4}-\d\d-\d\d )?\d\d:\d\d(?: (?:UTC|[A-Z][A-Za-z_]+/[A-Za-z_/+-]+))?"
    r"|\b[A-Z]\d{1,2}(?: [A-Z]\d{1,2}){1,2}\b"
    r"|\([^()\n]{1,20}\)"
    r"|(?<!\w)'[^'\n]{1,40}'(?!\w)"
)
#: Stands for a space that must not break while a line is wrapped (a private-use character).
_GLUE = "\ue000"

#: What a line starts with: its indent, then an echo's line number, a list mark or quote marks.
_HEAD = re.compile(
    r"(?P<quote>(?:> ?)+)"
    r"|(?P<number> *\d{1,4}  +)(?=\S)"
    r"|(?P<item> *(?:[-*•→]|\d{1,3}[.)]) +)(?=\S)"
    r"|(?P<indent> *)"
)


def _hanging(line: str) -> tuple[str, str, str]:
    """(first line's head, the next lines' head, the text after the head)."""
    m = _HEAD.match(line)
    assert m is not None  # the last alternative matches every line
    head = m.group(0)
    if m.group("quote"):
        return head, head, line[len(head) :]
    if m.group("number"):
        # Two deeper than the echo's text: the reason of a refused line stands below it at
        # the text's own column, and must not read as the echo's last words.
        return head, " " * (len(head) + 2), line[len(head) :]
    if m.group("item"):
        return head, " " * len(head), line[len(head) :]
    indent = m.group("indent")
    more = indent + "  " if indent else ""
    return indent, more, line[len(indent) :]


def wrap_line(line: str, width: int = WIDTH) -> list[str]:
    """One line as lines of at most `width` columns (see the module's text)."""
    line = line.rstrip()
    if len(line) <= width:
        return [line]
    first, more, text = _hanging(line)
    text = _WHOLE.sub(lambda m: m.group(0).replace(" ", _GLUE), text)
    wrapped = textwrap.wrap(
        text,
        width,
        initial_indent=first,
        subsequent_indent=more,
        break_long_words=False,
        break_on_hyphens=False,
    )
    return [piece.replace(_GLUE, " ") for piece in wrapped] or [line]


def wrap_text(text: str, width: int = WIDTH) -> str:
    """Every line of `text` within `width` columns; lines that fit are left as they are."""
    if all(len(line) <= width for line in text.split("\n")):
        return text
    return "\n".join(piece for line in text.split("\n") for piece in wrap_line(line, width))
