"""Words and patterns the readers of a line share: the order keywords (`_KW`, `_PATTERNS`),
the words that start a build or name an order, list fillers and `oder`, and small matchers
(`_letter_words`, `_strip_words`, `_keyword_span`, `_split_or`). The words are the language
files' (`pbm/languages/<lang>.toml`), the union over the languages (`lexicon`).

Every pattern here and in the other readers runs in time linear in the line
(tests/test_notation_linear.py feeds each 100,000 characters made to hurt): a quantifier that
can run far is possessive (`*+`, `++`, `?+`) or the last thing matched, so a failed match never
tries again with fewer characters; and a pattern searched through the line does not start with
such a quantifier (see `_OR`, `_keyword_span`), or each start would scan the same run again."""

from __future__ import annotations

import re

from pbm import languages

from . import lexicon
from .context import Text
from .game_words import GameWords


def _keyword(kind: str) -> str:
    """A kind's keywords of every language as group 1, and the word for card a card's keyword
    may carry (`Monopolkarte`, `Erfindungs-Karte`, `road building card`, `ridderkort`)."""
    suffixes = lexicon.words("card_suffixes", kind)
    card = f"(?:{lexicon.alternation(suffixes)})?" if suffixes else ""
    return f"({lexicon.either('keywords', kind)}){card}"


#: The keyword of each kind of line (`pbm/languages/*.toml`, `[keywords]`), as a pattern.
_KW = {kind: _keyword(kind) for kind in languages.keys("keywords")}
#: The Kronlande build lines, in the order `_build_action` tries them.
_KRON_KINDS = (
    "smithy",
    "weaving_mill",
    "bakery",
    "make",
    "castle",
    "residence",
    "builders_hut",
    "harbour_privilege",
    "feast",
)


#: After a keyword: blanks, a colon, blanks, the rest. Possessive, since `\s*:?\s*` can split a
#: run of blanks between its two `\s*` in as many ways as the run is long.
_REST = r"\s*+:?+\s*+(?P<rest>.*)"


def _kw(name: str, rest: str = _REST) -> re.Pattern[str]:
    return re.compile(rf"^{_KW[name]}(?![a-z]){rest}$")


_LINE_KINDS = [
    "robber",
    "pirate",
    "discard",
    "trade",
    "maritime",
    "monopoly",
    "plenty",
    "road_building",
    "buy",
    "move_ship",
    "ship",
    "gold",
    "settlement",
    "city",
    "road",
]
_PATTERNS = {k: _kw(k) for k in (*_LINE_KINDS, *_KRON_KINDS)}
#: The build lines, in the order `builds._build_action` tries their keywords (each kind's
#: reader: `builds.BUILD_READERS`, where an expansion registers its own).
_BUILD_KINDS = (
    "maritime",
    "plenty",
    "road_building",
    "move_ship",
    "ship",
    "settlement",
    "city",
    "road",
    *_KRON_KINDS,
)
_PATTERNS["trade"] = re.compile(
    rf"^({lexicon.either('words', 'trade')})(?![a-z])(?:\s*+:\s*+|\s++)"
    rf"(?:(?:{lexicon.either('words', 'trade_partner_leads')}) )?+"
    rf"(?:(?:{lexicon.either('words', 'trade_partner_articles')}) )?+(?P<partner>[a-z]++)"
    + _REST
    + "$"
)
# Was `\s*:?\s+`, which needs the last blank for its `\s+`: "blanks, a colon, at least one
# blank" or "at least one blank", each possessive.
# A digit right after the word too: `Straße6L 5L`, as a phone's keyboard leaves it.
_PATTERNS["road"] = _kw("road", r"(?:\s*+:\s++|\s++|(?=[0-9]))(?P<rest>.*)")
_PATTERNS["buy"] = re.compile(rf"^{_KW['buy']}[.!]?(?P<rest>)$")
#: A harbour's word in every language (`G-Hafen`, `3:1-Harbor`).
_HARBOUR = lexicon.either("hexes", "harbour")
#: A bank trade led by its rate: `4:1 Holz gegen Erz`, `3:1-Hafen: 3W gegen 1G`,
#: `2:1 H-Hafen: …`.
_RATE = re.compile(
    rf"^(?P<rate>[2-4]):1(?:\s*+-?+\s*+(?:(?P<kind>[a-z])\s*+-?+\s*+)?(?:{_HARBOUR})"
    # `2:1W: 2W gegen 1E`: the map's harbour name, the letter without the word; `2:1 W:`,
    # `2:1 Wolle:`: the harbour's resource before the colon.
    r"|-?+(?P<mapkind>[a-z])(?=\s*+:)|\s++(?P<kindname>[a-z]{1,12}+)(?=\s*+:))?+"
    r"\s*+:?+\s*+(?P<rest>.*)$"
)
# Only the first blank of a run may start a match: from each further one `\s+` would scan the
# run again (quadratic in its length). The first succeeds whenever a later one would.
_OR = re.compile(
    rf"(?<![\s,;])(?:\s*+[,;]\s*+|\s++)({lexicon.either('words', 'or_within')})(?:\s*+[:,])?+\s++"
)

#: When a card is played (`vor Wurf`, `nach meinem Wurf`, `before roll`, `efter slag`): the
#: languages' fragments (`[patterns] knight_timing`), and how those before the roll start.
_TIMING_WORDS = lexicon.patterns("knight_timing")
_BEFORE_THE_ROLL = tuple(lexicon.words("words", "knight_before"))
#: A sentence's subject (`ich`, `I`, `jeg`).
_SUBJECTS = lexicon.word_set("remarks", "subjects")

#: Words between list items that carry no meaning ("rot und gelb", "Holz and Erz").
_FILLERS = lexicon.word_set("words", "fillers")

#: Words that make a list of resources an alternative: never read as "and".
_OR_WORDS = lexicon.word_set("words", "or")


def _letter_words(s: str) -> list[str]:
    return [w for w in re.split(r"[^a-z]+", s) if w]


#: Line openings of an alternative to the build line above: `oder …`, `sonst: …`.
_OR_ELSE_WORDS = lexicon.word_set("words", "or_else")


def _starts_with_keyword(f: str, game: GameWords) -> bool:
    words = _letter_words(f[:40])
    return bool(words) and words[0] in game.keyword_starts


def _split_or(t: Text) -> list[Text]:
    cuts = [(m.start(), m.end()) for m in _OR.finditer(t.folded)]
    if not cuts:
        return [t]
    parts, start = [], 0
    for a, b in cuts:
        parts.append(t.sub(start, a))
        start = b
    parts.append(t.sub(start))
    return parts


def _strip_words(t: Text, words: tuple[str, ...]) -> Text:
    f = t.folded
    lead = len(f) - len(f.lstrip())
    for w in words:
        if f[lead:].startswith(w + " "):
            return t.sub(lead + len(w) + 1)
    return t


def _keyword_span(pattern: re.Pattern[str], f: str, pos: int = 0) -> tuple[int, int] | None:
    r"""Where `[,;]?\s*` followed by `pattern` first matches in `f` from `pos`: the keyword's
    match, widened to the blanks before it and a comma or semicolon before those.

    Searched as one pattern, the leading `\s*` was tried from every blank of a long run and
    scanned the rest of it each time (quadratic); the keyword alone starts with a word, and
    the match found is the same (it starts wherever the widened keyword starts).
    """
    m = pattern.search(f, pos)
    if m is None:
        return None
    start = m.start()
    while start > pos and f[start - 1].isspace():
        start -= 1
    if start > pos and f[start - 1] in ",;":
        start -= 1
    return start, m.end()
