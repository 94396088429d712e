"""Words and patterns the readers of a line share: the order keywords (`_KW`, `_PATTERNS`),
the words that start a build or name an order, list fillers and `oder`, and small matchers
(`_letter_words`, `_strip_words`, `_keyword_span`, `_split_or`).

Every pattern here and in the other readers runs in time linear in the line
(tests/test_notation_linear.py feeds each 100,000 characters made to hurt): a quantifier that
can run far is possessive (`*+`, `++`, `?+`) or the last thing matched, so a failed match never
tries again with fewer characters; and a pattern searched through the line does not start with
such a quantifier (see `_OR`, `_keyword_span`), or each start would scan the same run again."""

from __future__ import annotations

import re

from .context import Text

_KW = {
    "password": r"(kennwort|passwort|password|pw|adgangskode|kodeord)",
    "confirm": r"(bestaetigen|bestatigen|confirm|bekraeft|bekraft)",
    "game": r"(spiel|game|spil)",
    "round": r"(runde|round)",
    "name": r"(name|navn)",
    "colours": r"(farben|farbe|colou?rs?|farver|farve)",
    "substitute": r"(ersatzbau(ten)?|ersatz|substitutes?( builds?)?|erstatning(er)?|reserve)",
    "knight": r"(ritter|knight|ridder)(?:-?karte|-?kort)?",
    "robber": r"(raeuber|rauber|robber|bandit|roeveren|roever|rover)",
    "pirate": r"(piraten|pirat|pirate|soeroeveren|soeroever|sorover|soroever)",
    "discard": r"(abwurf|abwerfen|discard|aflever|aflevere|smid|kasser)",
    "trade": r"(handel|trade)",
    "maritime": r"(seehandel|hafenhandel|banktausch|tausch|tausche|maritime( trade)?|"
    r"bank( trade)?|soehandel|sohandel|havnehandel)",
    # A card's name with its word for card: `Monopolkarte`, `Straßenbau-Karte`, `Erfindungskarte`,
    # `road building card`.
    "monopoly": r"(monopol|tribut|monopoly|tribute)(?:-?karte| card|-?kort)?",
    "plenty": r"(erfindung|gluecksfund|glucksfund|year of plenty|plenty|invention|windfall|fund)"
    r"(?:s?-?karte| card|-?kort)?",
    "road_building": r"(strassenbau|bautrupp|road ?building|road-building|vejbygning|"
    r"bygning af vej)"
    r"(?:-?karte| card|s?-?kort)?",
    "buy": r"(entwicklungskarte( kaufen)?|projektkarte( kaufen)?|karte kaufen|"
    r"kaufe (eine )?(entwicklungs|projekt)?karte|buy( a)?( development| dev)? card|"
    r"development card|dev card|udviklingskort( koebes)?|koeb (et )?udviklingskort|"
    r"kob (et )?udviklingskort)",
    "settlement": r"(siedlung|settlement|hus|bosaettelse|bosaetning)",
    "city": r"(stadt|city|by)",
    "road": r"(strasse|str\.?|s|road|vej)",
    "ship": r"(schiff|ship|skib)",
    "move_ship": r"(schiff (?:versetzen|bewegen|verschieben)|versetze (?:das )?schiff|"
    r"(?:move|moving) (?:the )?ship|ship move|flyt (?:et )?skib(?:et)?)",
    "gold": r"(gold|guld)",
    # Kronlande (issue 19).
    "smithy": r"(schmiede|smithy|forge|smedje)",
    "weaving_mill": r"(weberei|weaving[ -]?mill|weavery|vaeveri)",
    "bakery": r"(baeckerei|backerei|bakery|bageri)",
    "make": r"(herstellen|produzieren|produziere|make|produce|fremstil|fremstille)",
    "castle": r"(burg|castle|borg)",
    "residence": r"(residenz|residence|residens)",
    "builders_hut": r"(bauhuette|bauhutte|builder'?s?'? ?hut|bygmesterhytte|byggehytte)",
    "harbour_privilege": r"(hafenprivileg|harbou?r[ -]?privilege|havneprivilegium|havneprivilegie)",
    "feast": r"(festmahl|feast|gilde|festmaaltid)",
}
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
_PATTERNS["trade"] = re.compile(
    r"^(handel|handle|trade|tausch|tausche|tauschen|swap|exchange|byt)(?![a-z])(?:\s*+:\s*+|\s++)"
    r"(?:(?:mit|with|an|zu|med|til) )?+(?:(?:der|dem|den|the) )?+(?P<partner>[a-z]++)" + _REST + "$"
)
# Was `\s*:?\s+`, which needs the last blank for its `\s+`: "blanks, a colon, at least one
# blank" or "at least one blank", each possessive.
_PATTERNS["road"] = _kw("road", r"(?:\s*+:\s++|\s++)(?P<rest>.*)")
_PATTERNS["buy"] = re.compile(rf"^{_KW['buy']}[.!]?(?P<rest>)$")
#: A bank trade led by its rate: `4:1 Holz gegen Erz`, `3:1-Hafen: 3W gegen 1G`,
#: `2:1 H-Hafen: …`.
_RATE = re.compile(
    r"^(?P<rate>[2-4]):1(?:\s*+-?+\s*+(?:(?P<kind>[a-z])\s*+-?+\s*+)?(?:hafen|harbou?r|port|havn)"
    # `2:1W: 2W gegen 1E`: the map's harbour name, the letter without the word.
    r"|-?+(?P<mapkind>[a-z])(?=\s*+:))?+"
    r"\s*+:?+\s*+(?P<rest>.*)$"
)
# Only the first blank of a run may start a match: from each further one `\s+` would scan the
# run again (quadratic in its length). The first succeeds whenever a later one would.
_OR = re.compile(
    r"(?<![\s,;])(?:\s*+[,;]\s*+|\s++)(oder|or else|or|sonst|ansonsten|andernfalls|alternativ|"
    r"alternatively|otherwise|else|eller ogsaa|eller|ellers|alternativt)(?:\s*+[:,])?+\s++"
)

#: Words between list items that carry no meaning ("rot und gelb", "Holz and Erz").
_FILLERS = frozenset(
    {
        "und",
        "and",
        "dann",
        "then",
        "&",
        "+",
        "my",
        "mein",
        "meine",
        "meinen",
        "your",
        "dein",
        "deine",
        # Danish (not `mit`, my, which is German's `mit`).
        "og",
        "saa",
        "min",
        "mine",
        "din",
        "dine",
        "dit",
    }
)

#: Words that make a list of resources an alternative: never read as "and".
_OR_WORDS = frozenset(
    {"oder", "or", "sonst", "else", "otherwise", "alternativ", "eller", "ellers", "alternativt"}
)


def _letter_words(s: str) -> list[str]:
    return [w for w in re.split(r"[^a-z]+", s) if w]


#: Line openings of an alternative to the build line above: `oder …`, `sonst: …`.
_OR_ELSE_WORDS = frozenset(
    [
        "oder",
        "or",
        "sonst",
        "ansonsten",
        "andernfalls",
        "alternativ",
        "alternatively",
        "otherwise",
        "else",
        "eller",
        "ellers",
        "alternativt",
    ]
)


#: Every keyword's first word, folded: a line starting with one is an order, not a heading.
_KEYWORD_WORDS = frozenset(
    [
        "kennwort",
        "passwort",
        "password",
        "pw",
        "bestaetigen",
        "confirm",
        "spiel",
        "game",
        "runde",
        "round",
        "name",
        "farben",
        "farbe",
        "colours",
        "colors",
        "colour",
        "color",
        "ersatzbau",
        "ersatz",
        "substitute",
        "substitutes",
        "ritter",
        "knight",
        "raeuber",
        "rauber",
        "robber",
        "bandit",
        "pirat",
        "pirate",
        "abwurf",
        "abwerfen",
        "discard",
        "handel",
        "trade",
        "seehandel",
        "hafenhandel",
        "banktausch",
        "tausch",
        "tausche",
        "maritime",
        "bank",
        "monopol",
        "tribut",
        "monopoly",
        "tribute",
        "erfindung",
        "gluecksfund",
        "year",
        "plenty",
        "invention",
        "windfall",
        "strassenbau",
        "bautrupp",
        "strassenbaukarte",
        "bautruppkarte",
        "erfindungskarte",
        "gluecksfundkarte",
        "monopolkarte",
        "tributkarte",
        "ritterkarte",
        "entwicklungskarte",
        "projektkarte",
        "karte",
        "buy",
        "development",
        "dev",
        "siedlung",
        "settlement",
        "stadt",
        "city",
        "strasse",
        "str",
        "s",
        "road",
        "schiff",
        "ship",
        # Danish (not `by`, city, which is English's `by` too).
        "adgangskode",
        "kodeord",
        "bekraeft",
        "bekraft",
        "spil",
        "navn",
        "farver",
        "farve",
        "erstatning",
        "erstatninger",
        "reserve",
        "ridder",
        "ridderkort",
        "roever",
        "roeveren",
        "rover",
        "soeroever",
        "soeroeveren",
        "sorover",
        "soroever",
        "aflever",
        "aflevere",
        "smid",
        "kasser",
        "soehandel",
        "sohandel",
        "havnehandel",
        "monopolkort",
        "fund",
        "fundkort",
        "vejbygning",
        "vejbygningskort",
        "bygning",
        "udviklingskort",
        "koeb",
        "kob",
        "hus",
        "bosaettelse",
        "bosaetning",
        "vej",
        "skib",
        "flyt",
    ]
)
#: Kronlande's order words (`Burg`, `Herstellen`, `feast`, …): keywords in a Kronlande game
#: only; in any other game they are ordinary words (`(my castle)` is a remark there).
_KRON_KEYWORD_WORDS = frozenset(
    [
        "schmiede",
        "smithy",
        "forge",
        "weberei",
        "weaving",
        "weavery",
        "baeckerei",
        "backerei",
        "bakery",
        "herstellen",
        "produziere",
        "produzieren",
        "make",
        "produce",
        "burg",
        "castle",
        "residenz",
        "residence",
        "bauhuette",
        "bauhutte",
        "builders",
        "builder",
        "hafenprivileg",
        "festmahl",
        "feast",
        "smedje",
        "vaeveri",
        "bageri",
        "fremstil",
        "fremstille",
        "borg",
        "residens",
        "bygmesterhytte",
        "byggehytte",
        "havneprivilegium",
        "havneprivilegie",
        "gilde",
        "festmaaltid",
    ]
)
_KEYWORD_WORDS_KRON = _KEYWORD_WORDS | _KRON_KEYWORD_WORDS


def _keyword_words(kron: bool) -> frozenset[str]:
    """Every keyword's first word in a game: Kronlande's too in a Kronlande game."""
    return _KEYWORD_WORDS_KRON if kron else _KEYWORD_WORDS


def _starts_with_keyword(f: str, kron: bool) -> bool:
    words = _letter_words(f[:40])
    return bool(words) and words[0] in _keyword_words(kron)


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


#: First words of a build: where a second build on the same line starts.
_BUILD_STARTS = frozenset(
    [
        "schiff",
        "ship",
        "siedlung",
        "stadt",
        "strasse",
        "str",
        "str.",
        "settlement",
        "city",
        "road",
        "entwicklungskarte",
        "entwicklungskarten",
        "projektkarte",
        "seehandel",
        "hafenhandel",
        "erfindung",
        "gluecksfund",
        "strassenbau",
        "bautrupp",
        "strassenbaukarte",
        "bautruppkarte",
        "erfindungskarte",
        "gluecksfundkarte",
        "maritime",
        "development",
        "dev",
        "year",
        "buy",
        "kaufe",
        # Danish (not `by`: see `_KEYWORD_WORDS`).
        "skib",
        "hus",
        "bosaettelse",
        "vej",
        "udviklingskort",
        "soehandel",
        "sohandel",
        "fund",
        "vejbygning",
        "koeb",
        "kob",
    ]
)
#: Kronlande's build words (not `harbour`, which ends a harbour's name in a crossing): where a
#: build starts in a Kronlande game only.
_KRON_BUILD_STARTS = frozenset(
    [
        "schmiede",
        "smithy",
        "weberei",
        "weaving",
        "baeckerei",
        "bakery",
        "herstellen",
        "make",
        "burg",
        "castle",
        "residenz",
        "residence",
        "bauhuette",
        "hafenprivileg",
        "festmahl",
        "feast",
        "smedje",
        "vaeveri",
        "bageri",
        "fremstil",
        "borg",
        "residens",
        "bygmesterhytte",
        "havneprivilegium",
        "gilde",
    ]
)
_BUILD_STARTS_KRON = _BUILD_STARTS | _KRON_BUILD_STARTS


def _build_starts(kron: bool) -> frozenset[str]:
    """The first words of a build in a game: Kronlande's too in a Kronlande game."""
    return _BUILD_STARTS_KRON if kron else _BUILD_STARTS


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
