"""The text of a message between players (`Nachricht an gelb: …`, issue 15): the rest of the mail
after its first line, as the player wrote it, without what the mail program added.

Blank lines are kept (paragraphs); quoted lines (`>`) are left out; the text ends at a signature
separator (`-- `), a quote header below the text ("Am … schrieb …:"), a forwarded or "Original
Message" block and an Outlook header block, as orders end (`clean.py`). At most
`MAX_PRESS_CHARS` characters and `MAX_PRESS_LINES` lines are passed on.
"""

from __future__ import annotations

import unicodedata

from .clean import _FORWARDED, _RULE_LINE, _SIGNATURE_MARKS, _STOP_BLOCK, _quote_header
from .text import simple

MAX_PRESS_CHARS = 5000
MAX_PRESS_LINES = 200


def _printable(line: str) -> str:
    """No control or format (bidi) characters: a message cannot reorder or hide text."""
    return "".join(
        ch for ch in line if ch == "\t" or unicodedata.category(ch) not in ("Cc", "Cf")
    ).replace("\t", "    ")


def message_text(first: str, body: str, after_line: int) -> str:
    """`first` (the header line's text after the colon) and the body's lines after line
    `after_line` (1-based, as `iter_clean_lines` numbers them)."""
    lines = body.replace("\r\n", "\n").replace("\r", "\n").split("\n")[after_line:]
    out = [_printable(first)] if first.strip() else []
    for raw in lines[: MAX_PRESS_LINES * 2]:
        text = raw.replace("\u00a0", " ").rstrip()
        if text in _SIGNATURE_MARKS:
            break  # a signature mark (`text` is stripped on the right: `-- ` is `--`)
        stripped = text.strip()
        if stripped.startswith(">"):
            continue
        s = simple(stripped)
        if _STOP_BLOCK.match(s) or _RULE_LINE.match(s) or s in _FORWARDED or _quote_header(s):
            break
        out.append(_printable(text))
    while out and not out[-1].strip():
        out.pop()
    while out and not out[0].strip():
        out.pop(0)
    text = "\n".join(out[:MAX_PRESS_LINES])
    if len(text) > MAX_PRESS_CHARS:
        text = text[:MAX_PRESS_CHARS].rstrip() + " […]"
    return text
