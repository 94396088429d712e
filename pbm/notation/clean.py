"""Cleaning a mail body before parsing: what players' mail clients add around their orders.

Ignored: quoted lines (`>`), the "Am … schrieb …:" / "On … wrote:" line above a quote, blank
lines and `#` comments. Parsing stops at a signature separator (`-- `), at `Ende`/`End`, and at
an unquoted forwarded or "Original Message" block, since all that follows is not the player's.
Line numbers stay those of the body as received, so errors point at the right line.
"""

from __future__ import annotations

import re

from .text import simple

_QUOTE_HEADER = re.compile(
    r"^(am |on |le |el |il ).{3,}(schrieb|wrote|a ecrit|escribio|ha scritto)[^:]*:\s*$"
)
_STOP_BLOCK = re.compile(
    r"^-{2,}\s*(original message|urspruengliche nachricht|forwarded message|"
    r"weitergeleitete nachricht)\s*-*$"
)
_OUTLOOK_HEADER = re.compile(r"^(from|von):\s.+")
#: Outlook on the web draws a line of underscores above the quoted mail.
_RULE_LINE = re.compile(r"^_{10,}$")
#: Gmail wraps a long quote header: "On …, Anna <a@x.de>" and "wrote:" on the next line.
_QUOTE_HEAD_START = re.compile(r"^(am |on ).{3,}")
_QUOTE_HEAD_END = re.compile(r"^(schrieb|wrote)[^:]*:$")
_END = {"ende", "end", "ende.", "end."}


def clean_lines(body: str) -> list[tuple[int, str]]:
    """The lines to parse: (1-based line number in the body, text without trailing space)."""
    lines = body.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out: list[tuple[int, str]] = []
    skip_next = False
    for number, raw in enumerate(lines, 1):
        text = raw.replace("\u00a0", " ").replace("\ufeff", "").rstrip()
        if text == "--":
            break  # signature separator (RFC 3676), often stripped of its space
        if skip_next:
            skip_next = False
            continue
        stripped = text.strip()
        if not stripped or stripped.startswith(">") or stripped.startswith("#"):
            continue
        s = simple(stripped)
        if s in _END or _STOP_BLOCK.match(s) or _RULE_LINE.match(s):
            break
        if _QUOTE_HEADER.match(s):
            continue
        if _QUOTE_HEAD_START.match(s) and "@" in s and number < len(lines) and \
                _QUOTE_HEAD_END.match(simple(lines[number])):
            skip_next = True
            continue
        if _OUTLOOK_HEADER.match(s) and out and "@" in s:
            break  # an unquoted Outlook reply header: the quoted mail follows
        out.append((number, stripped))
    return out
