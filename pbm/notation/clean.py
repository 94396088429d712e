"""Cleaning a mail body before parsing: what players' mail clients add around their orders.

Ignored: quoted lines (`>`), the "Am … schrieb …:" / "On … wrote:" line above a quote, blank
lines and `#` comments. Parsing stops at a signature separator (`-- `), at `Ende`/`End`, and at
an unquoted forwarded or "Original Message" block, since all that follows is not the player's.
Line numbers stay those of the body as received, so errors point at the right line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .limits import MAX_LINE_CHARS
from .text import simple

#: The languages' openings and verbs of the one-line quote header ("Am …, Anna schrieb:").
_QUOTE_OPENINGS = ("am ", "on ", "le ", "el ", "il ")
_QUOTE_VERBS = ("schrieb", "wrote", "a ecrit", "escribio", "ha scritto")
#: Possessive quantifiers throughout: a failed match gives nothing back to try again, so every
#: pattern here runs in time linear in the line.
_STOP_BLOCK = re.compile(
    r"^-{2,}+\s*+(original message|urspruengliche nachricht|forwarded message|"
    r"weitergeleitete nachricht)\s*+-*+$"
)
_OUTLOOK_HEADER = re.compile(r"^(from|von):\s.+")
#: Outlook on the web draws a line of underscores above the quoted mail.
_RULE_LINE = re.compile(r"^_{10,}+$")
#: Gmail wraps a long quote header: "On …, Anna <a@x.de>" and "wrote:" on the next line.
_QUOTE_HEAD_END = re.compile(r"^(schrieb|wrote)[^:]*+:$")
_END = {"ende", "end", "ende.", "end."}


def _quote_header(s: str) -> bool:
    r"""Whether a folded line is "Am …, Anna schrieb:" / "On …, Anna wrote:" (or the French,
    Spanish, Italian form): an opening, at least three characters, a verb, then anything up to
    the one colon that ends the line.

    That was the pattern `^(am |on |…).{3,}(schrieb|wrote|…)[^:]*:\s*$`, whose `.{3,}` tried
    every place for the verb and scanned to the end from each: quadratic in the line. Here: the
    verb must start after the last colon before the final one, so one search for each verb does.
    """
    if not s.startswith(_QUOTE_OPENINGS) or not s.endswith(":"):
        return False
    end = len(s) - 1  # `s` is folded and stripped: the colon is its last character
    start = max(len("am ") + 3, s.rfind(":", 0, end) + 1)
    return any(s.find(verb, start, end) >= 0 for verb in _QUOTE_VERBS)


def _quote_head_start(s: str) -> bool:
    """The first line of Gmail's wrapped quote header: "On …" (was `^(am |on ).{3,}`)."""
    return s.startswith(("am ", "on ")) and len(s) >= len("am ") + 3


def clean_lines(body: str) -> list[tuple[int, str]]:
    """The lines to parse: (1-based line number in the body, text without trailing space)."""
    return list(iter_clean_lines(body))


def iter_clean_lines(body: str) -> Iterator[tuple[int, str]]:
    """`clean_lines` one line at a time, for a reader that stops early.

    A line longer than `MAX_LINE_CHARS` is not looked at beyond its first character: a quote
    (`>`) or comment (`#`) is skipped as always, anything else is passed on for the parser to
    refuse. No pattern runs on it, and it never ends the mail.
    """
    lines = body.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    skip_next = False
    seen = False
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
        if len(stripped) > MAX_LINE_CHARS:
            seen = True
            yield number, stripped
            continue
        s = simple(stripped)
        if s in _END or _STOP_BLOCK.match(s) or _RULE_LINE.match(s):
            break
        if _quote_header(s):
            continue
        if (
            _quote_head_start(s)
            and "@" in s
            and number < len(lines)
            and len(lines[number]) <= MAX_LINE_CHARS
            and _QUOTE_HEAD_END.match(simple(lines[number]))
        ):
            skip_next = True
            continue
        if _OUTLOOK_HEADER.match(s) and seen and "@" in s:
            break  # an unquoted Outlook reply header: the quoted mail follows
        seen = True
        yield number, stripped
