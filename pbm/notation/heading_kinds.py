"""What a heading line announces (`heading_kind`): the builds below are substitutes
(`Ersatzbau:`, `Falls das nicht klappt:`, `Fallback:`), it only announces the orders (`Meine
Züge:`), it is a plain heading that sets no condition, or one not understood (`Wenn möglich:`).
Read by the cleaning of a body (`clean.py`) and by the parser (`lines.py`)."""

from __future__ import annotations

import re

from . import lexicon
from .text import fold


def _heading_words(key: str) -> frozenset[str]:
    """One list of `[headings]` of every language."""
    return lexicon.word_set("headings", key)


#: Heading words: a line of them ending in `:` only announces what follows.
_MAIN_CORE = _heading_words("main")
_MAIN_FILLER = _heading_words("main_fillers")


#: A heading of substitute builds says so in one of these words, or states a condition that a
#: build above failed ("Falls das nicht klappt:", "If the above fails:").
_SUBSTITUTE_STARTS = lexicon.words("headings", "substitute_starts")
_SUBSTITUTE_WORDS = _heading_words("substitute")
#: Words that say so together, wherever they stand (`Plan B:`), each group as its words.
_SUBSTITUTE_TOGETHER = tuple(
    tuple(p.split()) for p in lexicon.words("headings", "substitute_together")
)
#: Words of a heading that may make the builds under it conditional in a way pbm cannot read
#: (`Wenn möglich:`, `Optional:`, `Je nach Würfeln:`, `Only if there is wool left:`).
_UNCERTAIN = _heading_words("uncertain")
_CONDITIONS = _heading_words("conditions")
#: Verbs of a build failing: a negation of their own (`Falls das scheitert:`) and, in a heading
#: with a condition, what makes it announce substitutes.
_FAILURE_VERBS = _heading_words("failure_verbs")
_NEGATIONS = _FAILURE_VERBS | _heading_words("negations")
#: What a "falls … nicht …" heading must be about to announce substitutes: the builds above
#: failing (`Falls das nicht klappt:`, `If that fails:`, `Wenn nicht möglich:`), not something
#: else (`Falls ich nicht beraubt werde:`, `Falls rot nicht tauscht:`: not understood).
_FAILING = _FAILURE_VERBS | _heading_words("failing")


#: A heading over lines that are no orders of the writer's now (`Alte Züge (ignorieren):`,
#: `Aus dem letzten Bericht:`), and words that say so beside a negation (`Nicht mehr gültig:`):
#: not understood, so the builds under it are refused, never built.
_NOT_ORDERS = _heading_words("not_orders")
_NOT_ORDERS_NEGATED = _heading_words("not_orders_with_negation")


#: The builds a substitute heading may name (`If the castle fails:`).
_PIECES = _heading_words("pieces")


def piece_named(s: str) -> str:
    """The first build a (folded) heading names, "" for none."""
    return next((w for w in _words(_without_brackets(s)) if w in _PIECES), "")


def _not_orders(words: list[str]) -> bool:
    return any(w in _NOT_ORDERS for w in words) or (
        any(w in _NEGATIONS for w in words) and any(w in _NOT_ORDERS_NEGATED for w in words)
    )


def not_orders_heading(line: str) -> bool:
    """Whether a heading line announces lines that are no orders of the writer's now."""
    return len(line) <= 200 and _not_orders(_words(fold(line)[0]))


#: `Zweite Wahl:`, `Second choice:`: substitutes.
_SECOND = _heading_words("second")
_CHOICE = _heading_words("choice")


def names_a_condition(words: list[str]) -> bool:
    """Whether a heading's words state a condition (`falls`, `if`, `hvis`, …)."""
    return any(w in _CONDITIONS for w in words)


def _about_the_builds(words: list[str]) -> bool:
    return len(words) <= 3 or any(w in _FAILING for w in words)


#: A run of letters of a folded line.
_WORD = re.compile(r"[a-z]++")


def _words(s: str) -> list[str]:
    """The words of a folded line: runs of letters (one linear pass, in C: a mail of long
    lines from a stranger is scanned before anything else is known of it)."""
    return _WORD.findall(s)


def _without_brackets(s: str) -> str:
    """A folded line without what stands in brackets (one pass; unclosed brackets run on)."""
    out: list[str] = []
    depth = 0
    for ch in s:
        if ch == "(":
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
        elif not depth:
            out.append(ch)
    return "".join(out)


def heading_kind(s: str) -> str | None:
    """What a heading line announces: "substitute" (the builds below are substitutes:
    `Ersatzbau:`, `Ersatzzüge (falls …):`, `Falls das nicht klappt:`, `Fallback:`), "main"
    (only announces the orders: `Meine Züge:`, `Zum Schluss:`), "plain" (a heading of other
    words that sets no condition: `Bauen (in dieser Reihenfolge):`), or "unknown" (a heading not
    understood: `Wenn möglich:`, `Bemerkung:`); None when `s` (folded, stripped) is no heading.

    A heading ends in `:` and holds no digit outside brackets (a round number makes it a round
    line); `Ersatzbau` and its family may also stand alone.
    """
    if len(s) > 200:
        return None
    head = _without_brackets(s).strip()
    if head.endswith(":"):
        head = head[:-1].strip()
    elif not head.startswith(_SUBSTITUTE_STARTS) or " " in head:
        return None
    if not head or any(ch.isdigit() for ch in head):
        return None
    words = _words(head)
    if not words or len(words) > 12:
        return None
    if (
        any(w.startswith(_SUBSTITUTE_STARTS) or w in _SUBSTITUTE_WORDS for w in words)
        or any(all(w in words for w in together) for together in _SUBSTITUTE_TOGETHER)
        or (any(w in _SECOND for w in words) and any(w in _CHOICE for w in words))
        or (
            any(w in _CONDITIONS for w in words)
            and any(w in _NEGATIONS for w in words)
            and _about_the_builds(words)
        )
    ):
        return "substitute"
    if _not_orders(_words(s)):
        # Brackets too: `Old orders (ignore):`.
        return "unknown"
    if any(w in _MAIN_CORE for w in words) and all(
        w in _MAIN_CORE or w in _MAIN_FILLER for w in words
    ):
        return "main"
    if not any(w in _CONDITIONS or w in _UNCERTAIN for w in words):
        # `Meine Karten laut Bericht:`, `Bauen (in dieser Reihenfolge):`, `so:`: a heading that
        # sets no condition; the lines under it are what they say (unless it is an order's
        # keyword, `Abwurf:`: the parser reads those).
        return "plain"
    return "unknown"
