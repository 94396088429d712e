"""Cleaning a mail body before parsing: what players' mail clients add around their orders.

Ignored: quoted lines (`>`), blank lines, `#` comments, a greeting ("Hallo Spielleitung,") and a
heading that only announces the orders ("Meine Züge:"). The quote header above a quote ("Am …
schrieb …:", "On … wrote:", also wrapped over two lines, also K-9's "Anna <a@x.de> schrieb:") is
skipped when it stands above the player's text (a reply written below the quote), and ends the
player's text when it stands below it. Parsing stops at a signature separator (`-- `), at
`Ende`/`End`, at a closing ("Viele Grüße", "Cheers") or a phone's signature ("Von meinem iPhone
gesendet") after the orders, and at an unquoted forwarded or "Original Message" block or an
Outlook/GMX header block ("Von: …" / "Gesendet: …", in either order, with or without an
address), since all that follows is not the player's. Line numbers stay those of the body as
received, so errors point at the right line.
"""

from __future__ import annotations

import html
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
    r"^-{2,}+\s*+(original message|original-nachricht|urspruengliche nachricht|"
    r"forwarded message|weitergeleitete nachricht|message d'origine)\s*+-*+$"
)
#: Apple Mail's forwarded mail.
_FORWARDED = ("anfang der weitergeleiteten nachricht:", "begin forwarded message:")
#: A `_STOP_BLOCK` that begins a forwarded mail (not a quoted original).
_FORWARD_WORDS = re.compile(r"forwarded|weitergeleitete")
_OUTLOOK_HEADER = re.compile(r"^(from|von):\s.+")
#: One line of a header block that Outlook, GMX, web.de and phones put above a quoted mail:
#: `Von: Spielleitung`, `Gesendet: Montag, …`, `From: Game master`, `Sent: …`, `Datum: …`.
_HEADER_FIELD = re.compile(
    r"^(von|from|gesendet|sent|datum|date|an|to|betreff|subject|cc|kopie):\s*+\S"
)
#: Outlook on the web draws a line of underscores above the quoted mail.
_RULE_LINE = re.compile(r"^_{10,}+$")
#: Gmail wraps a long quote header: "On …, Anna <a@x.de>" and "wrote:" on the next line, or
#: "… schrieb Anna <" and "a@x.de>:".
_QUOTE_HEAD_END = re.compile(r"^(schrieb|wrote)[^:]*+:$")
#: A phone's or a mail program's signature line: the player's text ends above it.
_DEVICE_SIGNATURE = re.compile(
    r"^(sent (from|with|via) |gesendet (von|mit|vom|ueber) |von meinem |von outlook |"
    r"get outlook for |holen sie sich outlook |diese nachricht wurde (von|mit) |"
    r"envoye de |enviado desde )"
)
_END = {"ende", "end", "ende.", "end."}

#: The words a greeting starts with ("Hallo Spielleitung,", "Hi GM!", "Liebe Mitspieler,").
_GREETING_WORDS = frozenset(
    [
        "hallo",
        "hello",
        "hi",
        "hey",
        "liebe",
        "lieber",
        "liebes",
        "dear",
        "moin",
        "servus",
        "gruezi",
        "guten",
        "good",
        "salut",
        "huhu",
        "morgen",
        "abend",
    ]
)
#: The closings a mail ends with ("Viele Grüße, Anna", "LG", "Cheers,", "Thanks!").
_CLOSINGS = frozenset(
    {
        ("gruss",),
        ("gruesse",),
        ("grusse",),
        ("lg",),
        ("vg",),
        ("mfg",),
        ("bg",),
        ("cheers",),
        ("regards",),
        ("thanks",),
        ("thx",),
        ("danke",),
        ("ciao",),
        ("tschuess",),
        ("best",),
        ("bis", "dann"),
        ("bis", "bald"),
        ("vielen", "dank"),
        ("thank", "you"),
        ("many", "thanks"),
        ("best", "regards"),
        ("kind", "regards"),
        ("best", "wishes"),
        ("mit", "freundlichen", "gruessen"),
    }
)
#: Words before "Grüße" in a closing ("Viele Grüße", "Liebe Grüße").
_CLOSING_LEADS = frozenset(
    ["viele", "liebe", "beste", "herzliche", "schoene", "freundliche", "sonnige", "freundlichen"]
)

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
#: Characters a mail client or a copy from the web leaves in a line without showing them:
#: zero-width spaces and joiners, the word joiner, a byte-order mark, the soft hyphen.
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"), None)

#: The tags a text copied out of an HTML mail keeps (`<br>`, `<b>…</b>`): nothing a player
#: writes in an order; each at most 200 characters, so the search stays linear.
_HTML_TAG = re.compile(
    r"</?+(?:br|p|div|span|b|i|u|strong|em|font|li|ul|ol|tt|code)(?=[\s/>])[^<>]{0,200}>",
    re.IGNORECASE,
)


def _without_html(line: str) -> str:
    """`Straße 3H 9H&nbsp;<br>` → `Straße 3H 9H `: entities and tags left by a client that
    turned HTML into text badly."""
    if "<" in line:
        line = _HTML_TAG.sub(" ", line)
    if "&" in line and ";" in line:
        # Decoded, but never into a line break, a control character or an invisible one.
        decoded = html.unescape(line).replace("\u00a0", " ").translate(_INVISIBLE)
        line = "".join(" " if ch < " " or "\x7f" <= ch <= "\x9f" else ch for ch in decoded)
    return line


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
    ["sonst", "ansonsten", "andernfalls", "otherwise", "else", "notfalls", "alternatively"]
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
_CONDITIONS = frozenset(["falls", "wenn", "if", "sollte", "sollten", "case", "unless"])
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


def _greeting(s: str) -> bool:
    """ "Hallo Spielleitung,", "Hi GM!", "Liebe Mitspieler," (also "…, hier meine Züge:"); not
    "Hey, ich passe diese Runde!", which says more than hello."""
    words = _words(s)
    if not words or words[0] not in _GREETING_WORDS or any(ch.isdigit() for ch in s):
        return False
    cut = min((i for i in (s.find(","), s.find("!"), s.find(":")) if i >= 0), default=len(s))
    if len(_words(s[:cut])) > 4:
        return False
    rest = s[cut + 1 :].strip()
    if not rest:
        return cut < len(s) or len(words) <= 2
    return heading_kind(rest) == "main"


#: Words after a closing that make it more than a closing ("Danke, ich passe").
_NOT_A_NAME = frozenset(
    ["ich", "i", "passe", "pass", "nichts", "nothing", "keine", "no", "orders", "zuege"]
)


def _closing(s: str) -> bool:
    """ "Viele Grüße", "LG, Anna", "Cheers,", "Thanks!", "Mit freundlichen Grüßen": a closing,
    perhaps with a name after it."""
    if any(ch.isdigit() for ch in s):
        return False
    words = _words(s)
    while words and words[0] in _CLOSING_LEADS:
        words = words[1:]
    for size in (3, 2, 1):
        if tuple(words[:size]) in _CLOSINGS:
            rest = words[size:]
            return len(rest) <= 2 and not any(w in _NOT_A_NAME for w in rest)
    return False


def _quote_header(s: str) -> bool:
    r"""Whether a folded line is "Am …, Anna schrieb:" / "On …, Anna wrote:" (or the French,
    Spanish, Italian form): an opening, at least three characters, a verb, then anything up to
    the one colon that ends the line.

    That was the pattern `^(am |on |…).{3,}(schrieb|wrote|…)[^:]*:\s*$`, whose `.{3,}` tried
    every place for the verb and scanned to the end from each: quadratic in the line. Here: the
    verb must start after the last colon before the final one, so one search for each verb does.
    K-9 writes the header without an opening ("Anna <a@x.de> schrieb:"): with an address, the
    verb may stand anywhere.
    """
    if not s.endswith(":"):
        return False
    end = len(s) - 1  # `s` is folded and stripped: the colon is its last character
    if not s.startswith(_QUOTE_OPENINGS):
        return "@" in s and any(s.find(verb, 0, end) >= 0 for verb in _QUOTE_VERBS)
    start = max(len("am ") + 3, s.rfind(":", 0, end) + 1)
    return any(s.find(verb, start, end) >= 0 for verb in _QUOTE_VERBS)


def _quote_head_start(s: str) -> bool:
    """The first line of Gmail's wrapped quote header: "On …" (was `^(am |on ).{3,}`)."""
    return s.startswith(("am ", "on ")) and len(s) >= len("am ") + 3


def _wrapped_quote_header(s: str, following: str) -> bool:
    """Gmail's quote header wrapped over two lines (both folded and stripped):
    "On …, Anna <a@x.de>" + "wrote:", or "Am …, schrieb Anna <" + "a@x.de>:"."""
    if not _quote_head_start(s) or not following.endswith(":"):
        return False
    if "@" in s and _QUOTE_HEAD_END.match(following):
        return True
    verb_before = any(s.find(verb) >= 0 for verb in _QUOTE_VERBS)
    verb_after = any(following.find(verb) >= 0 for verb in _QUOTE_VERBS)
    return "@" in following and (verb_before or verb_after) and len(following) <= 200


def clean_lines(body: str) -> list[tuple[int, str]]:
    """The lines to parse: (1-based line number in the body, text without trailing space)."""
    return list(iter_clean_lines(body))


#: The first words of order lines: after a closing (`Danke blau!`) they mean the mail goes on.
_ORDER_STARTS = re.compile(
    r"^(?:[-*\u2022]\s*|\d{1,2}[.)]\s*)?(?:siedlung|stadt|strasse|str\.?|road|city|settlement|"
    r"raeuber|rauber|robber|bandit|pirat|pirate|ritter|knight|handel|trade|seehandel|maritime|abwurf|discard|"
    r"monopol|monopoly|tribut|entwicklungskarte|projektkarte|erfindung|gluecksfund|"
    r"strassenbau|bautrupp|ersatzbau|substitute|kennwort|passwort|password|schiff|ship)(?![a-z])"
)
#: How far past a closing to look for orders.
_LOOK_PAST_CLOSING = 20


def _orders_follow(lines: list[str], number: int) -> bool:
    """Whether an order line follows line `number` before the quoted mail or a signature:
    then a closing in the middle (`Danke blau!`) does not end the player's text."""
    for later in lines[number : number + _LOOK_PAST_CLOSING]:
        if len(later) > MAX_LINE_CHARS:
            continue
        s = simple(later.replace("\u00a0", " ").translate(_INVISIBLE).strip())
        if s.startswith(">") or s in ("--", "-- ") or _quote_header(s):
            return False
        if _ORDER_STARTS.match(s):
            return True
    return False


def _next_text(lines: list[str], number: int) -> str:
    """The folded next line of the body (after line `number`, 1-based), "" beyond the cap."""
    if number >= len(lines) or len(lines[number]) > MAX_LINE_CHARS:
        return ""
    return simple(lines[number].replace("\u00a0", " ").translate(_INVISIBLE).strip())


def iter_clean_lines(body: str, stops: list[str] | None = None) -> Iterator[tuple[int, str]]:
    """`clean_lines` one line at a time, for a reader that stops early.

    A line longer than `MAX_LINE_CHARS` is not looked at beyond its first character: a quote
    (`>`) or comment (`#`) is skipped as always, anything else is passed on for the parser to
    refuse. No pattern runs on it, and it never ends the mail.

    `stops`: given, "forwarded" is added to it when the reading ends at a forwarded mail's
    block, which is never read (it may be a report or another player's mail), so that the
    answer can say so.
    """
    lines = body.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    skip_next = False
    #: Whether a line of the player's text came before (a quote header then ends it).
    seen = False
    for number, raw in enumerate(lines, 1):
        text = _without_html(raw.replace("\u00a0", " ").translate(_INVISIBLE)).rstrip()
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
        block = _STOP_BLOCK.match(s)
        if s in _END or block or _RULE_LINE.match(s) or s in _FORWARDED:
            if stops is not None and (s in _FORWARDED or (block and _FORWARD_WORDS.search(s))):
                stops.append("forwarded")
            break
        if _quote_header(s):
            if seen:
                break  # the quoted mail below the player's text
            continue
        if _wrapped_quote_header(s, _next_text(lines, number)):
            if seen:
                break
            skip_next = True
            continue
        if _OUTLOOK_HEADER.match(s) and seen and "@" in s:
            break  # an unquoted Outlook reply header: the quoted mail follows
        if _HEADER_FIELD.match(s):
            following = _next_text(lines, number)
            if _HEADER_FIELD.match(following) and following[:3] != s[:3]:
                break  # "Von: …" / "Gesendet: …": the header of the quoted mail
        if _DEVICE_SIGNATURE.match(s) or _closing(s):
            if seen and not _orders_follow(lines, number):
                break
            continue
        if _greeting(s):
            continue
        if heading_kind(s) == "main":
            # Passed on (it ends a substitute block), but no sign yet of the player's text.
            yield number, stripped
            continue
        seen = True
        yield number, stripped
