"""What a heading line announces (`heading_kind`): the builds below are substitutes
(`Ersatzbau:`, `Falls das nicht klappt:`, `Fallback:`), it only announces the orders (`Meine
Züge:`), it is a plain heading that sets no condition, or one not understood (`Wenn möglich:`).
Read by the cleaning of a body (`clean.py`) and by the parser (`lines.py`)."""

from __future__ import annotations

import re

#: Heading words: a line of them ending in `:` only announces what follows.
_MAIN_CORE = frozenset(
    [
        "zug",
        "zuege",
        "zuge",
        "spielzuege",
        "befehl",
        "befehle",
        "order",
        "orders",
        "move",
        "moves",
        "bau",
        "bauen",
        "baue",
        "bauliste",
        "builds",
        "build",
        "building",
        "turn",
        "handel",
        "trades",
        "trade",
        "hauptzuege",
        "aktionen",
        "actions",
        "zuerst",
        "first",
        "danach",
        "dann",
        "then",
        "anschliessend",
        "ausserdem",
        "zusaetzlich",
        "also",
        "schluss",
        "finally",
        "next",
        "plan",
        "reihenfolge",
        "prioritaet",
        "priority",
        "folgendes",
        "following",
        "karten",
        "cards",
    ]
)
_MAIN_FILLER = frozenset(
    [
        "mein",
        "meine",
        "meinen",
        "my",
        "unser",
        "unsere",
        "our",
        "hier",
        "here",
        "sind",
        "are",
        "is",
        "ist",
        "die",
        "der",
        "das",
        "den",
        "the",
        "fuer",
        "for",
        "diese",
        "dieser",
        "diesen",
        "this",
        "these",
        "naechste",
        "naechsten",
        "zum",
        "zur",
        "am",
        "an",
        "in",
        "of",
        "von",
        "und",
        "and",
        "nun",
        "now",
        "jetzt",
        "ich",
        "i",
        "moechte",
        "want",
        "will",
        "would",
        "like",
        "gerne",
        "haupt",
        "main",
        "normal",
        "normale",
        "regular",
        "bitte",
        "please",
        "wie",
        "as",
        "folgt",
        "follows",
        "lauten",
        "runde",
        "round",
    ]
)


#: A heading of substitute builds says so in one of these words, or states a condition that a
#: build above failed ("Falls das nicht klappt:", "If the above fails:").
_SUBSTITUTE_STARTS = (
    "ersatz",
    "substitut",
    "fallback",
    "backup",
    "notfall",
    "reserve",
    "alternativ",
)
_SUBSTITUTE_WORDS = frozenset(
    [
        *("sonst", "ansonsten", "andernfalls", "otherwise", "else", "notfalls", "alternatively"),
        *("ellers", "alternativt"),
    ]
)
#: Words of a heading that may make the builds under it conditional in a way pbm cannot read
#: (`Wenn möglich:`, `Optional:`, `Je nach Würfeln:`, `Only if there is wool left:`).
_UNCERTAIN = frozenset(
    [
        "optional",
        "optionally",
        "maybe",
        "vielleicht",
        "eventuell",
        "evtl",
        "ggf",
        "gegebenenfalls",
        "moeglich",
        "moeglichst",
        "possible",
        "possibly",
        "perhaps",
        "je",
        "depending",
        "abhaengig",
        "nur",
        "only",
        "sofern",
        "soweit",
        "reicht",
        "reichen",
        "genug",
        "enough",
        "left",
        "uebrig",
        "rest",
        "afford",
        "leisten",
        "chance",
        "try",
        "versuch",
        "versuche",
        "priority",
        "prioritaet",
        "wunsch",
        "wish",
        "wishlist",
        "bonus",
        "extra",
        "spaeter",
        "later",
        "next",
        "naechste",
        "naechsten",
        "zusaetzlich",
        "additional",
        "wuerfeln",
        "wuerfel",
        "dice",
        "roll",
        "rolls",
        "bemerkung",
        "bemerkungen",
        "anmerkung",
        "anmerkungen",
        "note",
        "notes",
        "notiz",
        "remark",
        "remarks",
        "ps",
        "frage",
        "fragen",
        "question",
        "questions",
        "comment",
        "comments",
        "kommentar",
        "info",
        "hinweis",
        "idee",
        "idea",
        "plan",
        "plaene",
        "plans",
        "spaeter",
    ]
)
_CONDITIONS = frozenset(["falls", "wenn", "if", "sollte", "sollten", "case", "unless", "hvis"])
#: Verbs of a build failing: a negation of their own (`Falls das scheitert:`) and, in a heading
#: with a condition, what makes it announce substitutes.
_FAILURE_VERBS = frozenset(
    [
        "fails",
        "fail",
        "failed",
        "scheitert",
        "scheitern",
        "misslingt",
        "schiefgeht",
        "schief",
        "besetzt",
        "taken",
        "klappt",
        "can",
        *("mislykkes", "fejler"),
    ]
)
_NEGATIONS = _FAILURE_VERBS | frozenset(
    [
        "nicht",
        "kein",
        "keine",
        "not",
        "no",
        "doesn",
        "don",
        "isn",
        "didn",
        "won",
        "cannot",
        "cant",
        "nichts",
        "ikke",
    ]
)
#: What a "falls … nicht …" heading must be about to announce substitutes: the builds above
#: failing (`Falls das nicht klappt:`, `If that fails:`, `Wenn nicht möglich:`), not something
#: else (`Falls ich nicht beraubt werde:`, `Falls rot nicht tauscht:`: not understood).
_FAILING = _FAILURE_VERBS | frozenset(
    [
        "das",
        "dies",
        "es",
        "that",
        "it",
        "this",
        "klappen",
        "geht",
        "gehen",
        "gelingt",
        "funktioniert",
        "moeglich",
        "works",
        "work",
        "possible",
        "succeed",
        "succeeds",
        "reicht",
        "gebaut",
        "built",
        "bauen",
        "build",
        "kann",
        "above",
        "oben",
        "obige",
        "obigen",
        # Danish: `Hvis det ikke går:`, `Hvis det ikke lykkes:`.
        *("det", "gaar", "lykkes", "muligt", "virker"),
        "stadt",
        "siedlung",
        "strasse",
        "city",
        "settlement",
        "road",
        "bau",
    ]
)


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
        or ("plan" in words and "b" in words)
        or (
            any(w in ("zweite", "zweiter", "second") for w in words)
            and any(w in ("wahl", "choice", "option", "chance", "versuch", "try") for w in words)
        )
        or (
            any(w in _CONDITIONS for w in words)
            and any(w in _NEGATIONS for w in words)
            and _about_the_builds(words)
        )
    ):
        return "substitute"
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
