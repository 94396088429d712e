"""What every text part of a mail must hold to, for the tests that read whole games and the
golden mails (tests/service/test_mail_text.py, tests/reports/test_line_width.py): lines within
76 columns, no English word in a German mail (and no German one in an English mail), no time
with seconds, and a count's noun in the form its number asks.

The words of the count check come from the catalogue itself: each text with a plural form
names the nouns that follow its number, in the singular form and in the plural form; a noun of
only one of the forms must not follow a number of the other (`1 Zeilen`, `2 Entwicklungskarte`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from pbm.reports.wrap import WIDTH

LOCALE = Path(__file__).resolve().parent.parent / "pbm" / "locale"

#: English words no German mail says (the stored words of phases and statuses among them),
#: and German words no English mail says. Lower case words are matched as they are written.
ENGLISH = frozenset(
    [
        "the",
        "and",
        "you",
        "your",
        "with",
        "for",
        "from",
        "round",
        "rounds",
        "setup",
        "signup",
        "ended",
        "running",
        "orders",
        "deadline",
        "player",
        "players",
        "pending",
        "done",
        "none",
        "seat",
        "card",
        "cards",
        "knight",
        "knights",
        "points",
        "robber",
        "road",
        "settlement",
        "city",
        "ship",
        "resigned",
        "away",
        "new",
        "active",
        "waiting",
    ]
)
GERMAN = frozenset(
    [
        "und",
        "der",
        "die",
        "das",
        "nicht",
        "mit",
        "für",
        "Runde",
        "Runden",
        "Frist",
        "Züge",
        "Kennwort",
        "Aufstellung",
        "Räuber",
        "Straße",
        "Siedlung",
        "Stadt",
        "Schiff",
        "Karte",
        "Karten",
        "bekommt",
    ]
)
#: A time with seconds (or a fraction of them), or an ISO moment with its "T".
SECONDS = re.compile(r"\b\d\d:\d\d:\d\d|\b\d\d:\d\d\.\d|\b\d{4}-\d\d-\d\dT\d\d")
#: Lines that are a player's own words or a machine's: quoted, a player's line echoed with its
#: number, a sealed notice, a seal, a key, a command of the GM's (`pbm …`, English).
NOT_OURS = re.compile(r"^(?:> |\s*\d{1,4}  \S|\s*pbm )|[A-Za-z0-9_-]{30,}")


def long_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if len(line) > WIDTH]


def _own_lines(text: str) -> Iterable[str]:
    """The lines pbm wrote itself, but for the names a player chose (echoes, quotes)."""
    echo = False
    for line in text.splitlines():
        if NOT_OURS.search(line):
            echo = bool(re.match(r"^\s*\d{1,4}  \S", line))
            continue
        # An echoed line's continuation (the wrap's hanging indent, 7 columns).
        if echo and re.match(r"^ {7}\S", line) and not line.strip().startswith(("→",)):
            continue
        echo = False
        yield line


def foreign_words(text: str, lang: str, names: Iterable[str] = ()) -> list[str]:
    """Lines of `text` with a word of the other language (`names`: words the players chose,
    as their names, which may be anything)."""
    other = ENGLISH if lang.startswith("de") else GERMAN
    allowed = set(names)
    found = []
    for line in _own_lines(text):
        # Addresses and links are names too.
        line = re.sub(r"\S+@\S+|\S+://\S+", "", line)
        words = set(re.findall(r"[A-Za-zÄÖÜäöüß]+", line)) - allowed
        if words & other:
            found.append(line)
    return found


def times_with_seconds(text: str) -> list[str]:
    return [line for line in text.splitlines() if SECONDS.search(line)]


#: The placeholders of the catalogue's texts that stand for a count.
COUNT = (
    r"(?:\{(?:count|n|num|vp|left|missing|rounds|cards|knights|minutes)\}"
    r"|%\((?:count|n|num|vp|left|missing|rounds|cards|knights|minutes)\)s)"
)


def _nouns(found: list[tuple[str, str]]) -> set[str]:
    """The word after a count, and the two words after it ("dev card")."""
    return {w for first, second in found for w in (first, f"{first} {second}".strip())}


@cache
def count_nouns(lang: str) -> tuple[frozenset[str], frozenset[str]]:
    """(nouns only of the singular forms, nouns only of the plural forms) of the catalogue's
    texts with a plural form, in `lang` (`de@modern` with the modern edition's words too)."""
    from babel.messages.pofile import read_po

    language = lang.partition("@")[0]
    paths = [LOCALE / language / "LC_MESSAGES" / "pbm.po"]
    if "@" in lang:
        paths.append(LOCALE / language / f"{lang.partition('@')[2]}.po")
    after = re.compile(COUNT + r" ([A-Za-zÄÖÜäöüß]+)(?: ([A-Za-zÄÖÜäöüß]+))?")
    one: set[str] = set()
    more: set[str] = set()
    for path in paths:
        with path.open("rb") as f:
            for m in read_po(f):
                if not isinstance(m.id, tuple) or not isinstance(m.string, tuple):
                    continue
                one |= _nouns(after.findall(m.string[0]))
                for form in m.string[1:]:
                    more |= _nouns(after.findall(form))
    return frozenset(one - more), frozenset(more - one)


def wrong_counts(text: str, lang: str) -> list[str]:
    """Lines where a number is followed by a noun of the other number's form."""
    one, more = count_nouns(lang)
    found = []
    counted = re.compile(r"(?<![\w.:+-])(\d+) ([A-Za-zÄÖÜäöüß]+)(?: ([A-Za-zÄÖÜäöüß]+))?")
    for line in text.splitlines():
        for number, first, second in counted.findall(line):
            words = {first, f"{first} {second}".strip()}
            if (number == "1" and words & more) or (number != "1" and words & one):
                found.append(line)
    return found


def report_log(body: str) -> list[str]:
    """A report's log lines, each whole again (a long one is wrapped, its continuation
    indented four more), up to the first blank line."""

    def indent(line: str) -> int:
        return len(line) - len(line.lstrip(" "))

    lines: list[str] = []
    for line in body.split("\n\n")[0].splitlines():
        if lines and indent(line) >= indent(lines[-1]) + 4:
            lines[-1] += " " + line.strip()
        else:
            lines.append(line)
    return lines
