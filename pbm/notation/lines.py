"""One line of a mail → one typed item: an order, a preference, a header or a command.

Keywords are matched on folded text (case, umlauts, dashes forgiven), German and English alike;
resource letters are the game language's. Places are resolved against the board (`names.py`).
Errors carry the column in the line as the player wrote it.

A line is read the way a game master reads it: list markers (`- `, `1.`), markup (`*fett*`) and
a remark after `#` or ` -- ` or in closing brackets (`(wichtig!)`) are passed over; verbs and
fillers (`Baue eine Siedlung an …`, `Play knight before roll`) are words around the order; counts
may be words (`zwei Wolle`, `2x W`). What could mean two things is refused with the form to write
instead (docs/order-language.md).
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pbm.rules.board import Board, Terrain
from pbm.rules.kron import BAECKEREI, SCHMIEDE, WEBEREI
from pbm.rules.orders import (
    Alternatives,
    BuildAction,
    BuildersHut,
    BuyCard,
    Castle,
    City,
    DiscardPreference,
    Feast,
    GoldPreference,
    HarbourPrivilege,
    Knight,
    Make,
    MaritimeTrade,
    Monopoly,
    MoveShip,
    Residence,
    Road,
    RoadBuilding,
    RobberOrder,
    Settlement,
    SetupPlacement,
    Ship,
    Timing,
    TradeOffer,
    Workshop,
    YearOfPlenty,
)
from pbm.rules.resources import GOODS, KRON_WIDTH, N_KRON_RESOURCES, N_RESOURCES, Counts

from . import vocab
from .clean import heading_kind
from .errors import AmbiguousError, NotationError, OrderError
from .limits import MAX_DIGITS, MAX_LINE_CHARS
from .names import (
    crossing_from_names,
    crossing_text,
    hex_candidates,
    is_kron,
    path_text,
    resolve_hex,
    resolve_path,
    tokenize_hexes,
)
from .text import fold


@dataclass(frozen=True)
class Password:
    secret: str


@dataclass(frozen=True)
class Confirmation:
    """`Bestätigen: <code>` / `Confirm: <code>`: the code of a confirmation mail, sent back."""

    token: str


@dataclass(frozen=True)
class Press:
    """`Nachricht an gelb: …` / `Message to yellow: …`, `Nachricht an alle`, `An Spielleitung:` /
    `To GM:`: the rest of the mail goes to that colour (canonical name), to "all" or to "gm";
    `first` is what the line says after the colon. `anonymous`: `Anonyme Nachricht an …`."""

    to: str
    first: str = ""
    anonymous: bool = False


@dataclass(frozen=True)
class Away:
    """`Urlaub bis 2026-12-24` / `Away until 2026-12-24`: the last day of an absence."""

    until: date


@dataclass(frozen=True)
class TimeZone:
    """`Zeitzone: Europe/Berlin` / `Time zone: …`: an IANA time zone name as the player wrote it
    (checked against the system's zone database)."""

    name: str


@dataclass(frozen=True)
class GameName:
    name: str


@dataclass(frozen=True)
class RoundGuard:
    round: int


@dataclass(frozen=True)
class Command:
    """A command that is not an order: join, help, status, players, history, resign, back,
    observe, unobserve. `topic`: what `Hilfe Schiffe` asks help for (folded; "" for the
    overview)."""

    name: str
    topic: str = ""


@dataclass(frozen=True)
class PlayerName:
    name: str


@dataclass(frozen=True)
class ColourPreference:
    colours: tuple[str, ...]


@dataclass(frozen=True)
class Builds:
    """Several builds on one line (`Straße … und Siedlung …`, `2 Entwicklungskarten`), in the
    order written: each is a build line of its own."""

    actions: tuple[BuildAction, ...]


@dataclass(frozen=True)
class SubstituteHeader:
    """`Ersatzbau:` and its family (`Ersatzzüge:`, `Falls das nicht klappt:`, `Fallback:`): the
    build lines after it are substitutes. `build`: a build written on the heading's own line
    (`Ersatz: Entwicklungskarte`)."""

    build: BuildAction | Alternatives | Builds | None = None


@dataclass(frozen=True)
class Heading:
    """A line that only announces the orders below it (`Meine Züge:`): not an order."""


@dataclass(frozen=True)
class Pass:
    """`Ich passe`, `nichts`, `keine Züge`, `pass`: an explicit empty order set."""


@dataclass(frozen=True)
class OrElse:
    """`oder …` / `sonst …` on a line of its own: one more option of the build line above."""

    option: BuildAction | Alternatives


Item = (
    Password
    | Press
    | Away
    | TimeZone
    | Confirmation
    | GameName
    | RoundGuard
    | Command
    | PlayerName
    | ColourPreference
    | SubstituteHeader
    | Heading
    | Pass
    | OrElse
    | Builds
    | RobberOrder
    | DiscardPreference
    | GoldPreference
    | Knight
    | Monopoly
    | TradeOffer
    | BuildAction
    | Alternatives
    | SetupPlacement
    | tuple[SetupPlacement, ...]
)


@dataclass(frozen=True)
class Context:
    board: Board
    lang: str = "de"
    #: Seat colours (canonical German names), to turn colours into seats.
    colours: tuple[str, ...] = ("rot", "blau", "gelb", "weiss")
    phase: str = "round"
    #: Letters read as the card given wherever they stand (`vocab.resource`): set only to
    #: read a line again for its question back (`parse_line`).
    read_as: tuple[tuple[str, int], ...] = ()

    @property
    def kron(self) -> bool:
        """A Kronlande game (its board has quarries and fishing grounds): Kronlande's letters,
        words and orders are read (`Stein` is stone, never ore)."""
        return is_kron(self.board)


class Text:
    """A piece of a line: the player's text, its folded form and where it sits in the line."""

    def __init__(self, original: str, offset: int = 0) -> None:
        self.original = original
        self.offset = offset
        self.folded, self._index = fold(original)

    def col(self, folded_pos: int) -> int:
        """1-based column in the line of a position in the folded text."""
        if folded_pos >= len(self._index):
            return self.offset + len(self.original) + 1
        return self.offset + self._index[folded_pos] + 1

    def sub(self, start: int, end: int | None = None) -> Text:
        """The piece between two folded positions, as a new Text."""
        a = self._index[start] if start < len(self._index) else len(self.original)
        b = (
            (self._index[end - 1] + 1)
            if end is not None and end > start
            else (len(self.original) if end is None else a)
        )
        return Text(self.original[a:b], self.offset + a)

    def replaced(self, start: int, end: int, by: str = "") -> Text:
        """The same piece with the characters of folded positions start..end written `by`,
        padded with blanks to the same length: columns stay where the player wrote them."""
        return self.rewritten([(start, end, by)])

    def rewritten(self, spans: list[tuple[int, int, str]]) -> Text:
        """`replaced` for several spans at once (sorted, not overlapping), in one pass."""
        out: list[str] = []
        done = 0
        for start, end, by in spans:
            if start >= end:
                continue
            a = self._index[start] if start < len(self._index) else len(self.original)
            b = self._index[end - 1] + 1 if end - 1 < len(self._index) else len(self.original)
            if a < done:
                continue
            out.append(self.original[done:a])
            out.append(by[: b - a].ljust(b - a))
            done = b
        if not out:
            return self
        out.append(self.original[done:])
        return Text("".join(out), self.offset)


# Every pattern below runs in time linear in the line (tests/test_notation_linear.py feeds each
# 100,000 characters made to hurt): a quantifier that can run far is possessive (`*+`, `++`,
# `?+`) or the last thing matched, so a failed match never tries again with fewer characters;
# and a pattern searched through the line does not start with such a quantifier (see `_OR`,
# `_keyword_span`), or each start would scan the same run again.
_COMMANDS = [
    (re.compile(r"^(anmeldung|anmelden|join|sign ?up|register)\b"), "join"),
    (re.compile(r"^(hilfe|help|\?)$"), "help"),
    (re.compile(r"^(status|stand)$"), "status"),
    (re.compile(r"^(mitspieler|wer spielt( mit)?|players|roster|who plays)[?]?+$"), "players"),
    (re.compile(r"^(verlauf|bisherige runden|history|past rounds)$"), "history"),
    (re.compile(r"^(aufgeben|ich gebe auf|resign|i resign|give up)$"), "resign"),
    (re.compile(r"^((ich bin )?zurueck|(i'?m|i am) back|back)[.!]*+$"), "back"),
    (re.compile(r"^(beobachten|zuschauen|observe|watch)$"), "observe"),
    (
        re.compile(
            r"^(beobachten beenden|zuschauen beenden|nicht mehr (beobachten|zuschauen)|"
            r"stop (observing|watching)|unobserve|unwatch)$"
        ),
        "unobserve",
    ),
]

_KW = {
    "password": r"(kennwort|passwort|password|pw)",
    "confirm": r"(bestaetigen|bestatigen|confirm)",
    "game": r"(spiel|game)",
    "round": r"(runde|round)",
    "name": r"(name)",
    "colours": r"(farben|farbe|colou?rs?)",
    "substitute": r"(ersatzbau(ten)?|ersatz|substitutes?( builds?)?)",
    "knight": r"(ritter|knight)",
    "robber": r"(raeuber|rauber|robber|bandit)",
    "pirate": r"(piraten|pirat|pirate)",
    "discard": r"(abwurf|abwerfen|discard)",
    "trade": r"(handel|trade)",
    "maritime": r"(seehandel|hafenhandel|banktausch|tausch|tausche|maritime( trade)?|"
    r"bank( trade)?)",
    "monopoly": r"(monopol|tribut|monopoly|tribute)",
    "plenty": r"(erfindung|gluecksfund|glucksfund|year of plenty|plenty|invention|windfall)",
    "road_building": r"(strassenbau|bautrupp|road ?building|road-building)",
    "buy": r"(entwicklungskarte( kaufen)?|projektkarte( kaufen)?|karte kaufen|"
    r"kaufe (eine )?(entwicklungs|projekt)?karte|buy( a)?( development| dev)? card|"
    r"development card|dev card)",
    "settlement": r"(siedlung|settlement)",
    "city": r"(stadt|city)",
    "road": r"(strasse|str\.?|s|road)",
    "ship": r"(schiff|ship)",
    "move_ship": r"(schiff (?:versetzen|bewegen|verschieben)|versetze (?:das )?schiff|"
    r"(?:move|moving) (?:the )?ship|ship move)",
    "gold": r"(gold)",
    # Kronlande (issue 19).
    "smithy": r"(schmiede|smithy|forge)",
    "weaving_mill": r"(weberei|weaving[ -]?mill|weavery)",
    "bakery": r"(baeckerei|backerei|bakery)",
    "make": r"(herstellen|produzieren|produziere|make|produce)",
    "castle": r"(burg|castle)",
    "residence": r"(residenz|residence)",
    "builders_hut": r"(bauhuette|bauhutte|builder'?s?'? ?hut)",
    "harbour_privilege": r"(hafenprivileg|harbou?r[ -]?privilege)",
    "feast": r"(festmahl|feast)",
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
#: The workshop kind of each workshop word.
_WORKSHOP_KIND = {"smithy": SCHMIEDE, "weaving_mill": WEBEREI, "bakery": BAECKEREI}


#: After a keyword: blanks, a colon, blanks, the rest. Possessive, since `\s*:?\s*` can split a
#: run of blanks between its two `\s*` in as many ways as the run is long.
_REST = r"\s*+:?+\s*+(?P<rest>.*)"


def _kw(name: str, rest: str = _REST) -> re.Pattern[str]:
    return re.compile(rf"^{_KW[name]}(?![a-z]){rest}$")


_HEADER = {k: _kw(k, r"\s*+[:=]\s*+(?P<rest>.*)") for k in ("game", "name", "colours")}
#: `Kennwort: x`, `Mein Kennwort ist x`, `Password - x`, `PW=x`, or `Kennwort x` (then `sep`
#: is empty, and the value must be all that follows).
_PASSWORD = re.compile(
    r"^(?:(?:mein|meine|my|unser|das|the) )?+(?:kennwort|passwort|password|pw)(?![a-z])"
    r"(?P<sep>\s*+[:=]|\s++(?:ist|is|lautet)(?![a-z])\s*+:?+|\s*+-(?=\s)|)\s*+(?P<rest>.*)$"
)
_CONFIRM = _kw("confirm", r"\s*+[:=]?+\s*+(?P<rest>.*)")
#: `Nachricht an gelb: …`, `Anonyme Nachricht an alle`, `Message to yellow: …` (issue 15).
_PRESS = re.compile(
    r"^(?P<anon>anonyme |anonymous )?+(?:nachricht|botschaft|message|note)\s++"
    r"(?:an|to|fuer|for)\s++(?P<to>[a-z]++)(?:\s*+[:,]\s*+|\s++|$)(?P<rest>.*)$"
)
#: `An Spielleitung: …`, `An die Spielleitung`, `To GM: …`, `To the game master`.
_TO_GM = re.compile(
    r"^(?:an|to)\s++(?:die |den |the )?+(?:spielleitung|spielleiter|gm|game ?master)"
    r"(?:\s*+:\s*+|\s++|$)(?P<rest>.*)$"
)
#: `Nachricht an die Spielleitung: …`, `Message to the GM: …`: to the game master.
_PRESS_GM = re.compile(
    r"^(?:nachricht|botschaft|message|note)\s++(?:an|to|fuer|for)\s++(?:die |den |the )?+"
    r"(?:spielleitung|spielleiter|gm|game ?master)(?:\s*+[:,]\s*+|\s++|$)(?P<rest>.*)$"
)
#: How a message line starts, whoever it is to: the rest of such a mail is never orders.
_MESSAGE_START = re.compile(
    r"^(?:anonyme |anonymous )?+(?:nachricht|botschaft|message|note)\s++(?:an|to|fuer|for)"
    r"(?![a-z])|^(?:an|to)\s++(?:die |den |the )?+(?:spielleitung|spielleiter|gm|game ?master)"
    r"(?![a-z])"
)


def starts_a_message(line: str) -> bool:
    """Whether a (cleaned) line begins a message (`Nachricht an …`, `To GM …`), even one whose
    recipient is not understood: what follows it is the message, never orders."""
    try:
        folded = _tidy(Text(line[:MAX_LINE_CHARS])).folded
    except NotationError:
        folded = Text(line[:MAX_LINE_CHARS]).folded  # a remark refused: read the line as is
    return _MESSAGE_START.match(folded.strip()) is not None


_ALL = frozenset({"alle", "allen", "all", "everyone", "everybody"})
#: `Urlaub bis 2026-12-24`, `Abwesend bis 24.12.2026`, `Away until 2026-12-24`.
_AWAY = re.compile(
    r"^(?:urlaub|abwesend|verreist|away|on holiday|holiday|vacation)\s++(?:bis|until|till)"
    r"\s*+:?+\s*+(?P<rest>.*)$"
)
_ISO_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
_GERMAN_DATE = re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{4})")
#: `Zeitzone: Europe/Berlin`, `Time zone: America/New_York`, `TZ=UTC`.
_ZONE = re.compile(r"^(?:zeitzone|time ?zone|tz)\s*+[:=]?+\s*+(?P<rest>\S++)$")
#: The longest IANA zone name is 32 characters; anything longer is no zone.
MAX_ZONE = 40
#: A confirmation code: the service's codes are letters, digits and dashes.
_TOKEN = re.compile(r"[A-Za-z0-9-]+")
MAX_TOKEN = 40
#: The digits are taken however many, and bounded in `_round` (for a clear refusal).
_ROUND = _kw("round", r"\s*+:?+\s*+(?P<rest>\d++)[.:]?+")
_DIGITS = re.compile(r"\d++")
_SUBSTITUTE = _kw("substitute", r"\s*+:?+\s*+(?P<rest>)")
#: When a knight is played: `vor Wurf`, `vor dem Würfeln`, `vorm Würfeln`, `nach meinem Wurf`,
#: `before roll`, `after rolling`.
_TIMING = (
    r"(?P<timing>(?:vor|nach)(?: dem| meinem| dem eigenen| eigenem)? (?:wurf|wuerfeln|wurfeln)|"
    r"(?:vorm|nachm) (?:wurf|wuerfeln|wurfeln)|"
    r"(?:before|after)(?: the| my)? (?:rolling|roll|dice roll|dice|the dice)|"
    r"pre-roll|post-roll)"
)
_KNIGHT = _kw(
    "knight",
    r"(?: ?karte| card)?+\s*+[:,(]?+\s*+" + _TIMING + r"?+\s*+\)?+" + _REST,
)
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
    r"^(handel|handle|trade|tausch|tausche|tauschen|swap|exchange)(?![a-z])(?:\s*+:\s*+|\s++)"
    r"(?:(?:mit|with|an|zu) )?+(?:(?:der|dem|den|the) )?+(?P<partner>[a-z]++)" + _REST + "$"
)
# Was `\s*:?\s+`, which needs the last blank for its `\s+`: "blanks, a colon, at least one
# blank" or "at least one blank", each possessive.
_PATTERNS["road"] = _kw("road", r"(?:\s*+:\s++|\s++)(?P<rest>.*)")
_PATTERNS["buy"] = re.compile(rf"^{_KW['buy']}[.!]?(?P<rest>)$")
#: A bank trade led by its rate: `4:1 Holz gegen Erz`, `3:1-Hafen: 3W gegen 1G`,
#: `2:1 H-Hafen: …`.
_RATE = re.compile(
    r"^(?P<rate>[2-4]):1(?:\s*+-?+\s*+(?:(?P<kind>[a-z])\s*+-?+\s*+)?(?:hafen|harbou?r|port)"
    # `2:1W: 2W gegen 1E`: the map's harbour name, the letter without the word.
    r"|-?+(?P<mapkind>[a-z])(?=\s*+:))?+"
    r"\s*+:?+\s*+(?P<rest>.*)$"
)
# Only the first blank of a run may start a match: from each further one `\s+` would scan the
# run again (quadratic in its length). The first succeeds whenever a later one would.
_OR = re.compile(
    r"(?<![\s,;])(?:\s*+[,;]\s*+|\s++)(oder|or else|or|sonst|ansonsten|andernfalls|alternativ|"
    r"alternatively|otherwise|else)(?:\s*+[:,])?+\s++"
)
#: The word before the victims; `[,;]?\s*` before it is added by `_keyword_span`. "steal from"
#: before "steal", or "from" would be read as a colour.
_STEAL = re.compile(
    r"\b(raube|rauben|beraube|berauben|stehle|stehlen|stiehl|bestehle|klaue|klau|klauen|"
    r"beklaue|beklauen|ziehe|ziehen|nimm|nehme|von|steal from|steal|rob|take from)\b\s*+"
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
    }
)
#: Words between a robber's victims: `oder` too (a priority list: the first one that can be
#: robbed), and the prepositions of `klau bei blau`, `steal from blue`.
_VICTIM_FILLERS = _FILLERS | {"oder", "or", "sonst", "bei", "von", "from", "den", "dem", "the"}
#: Words that make a list of resources an alternative: never read as "and".
#: Words of politeness before an order's own words (`bitte gebe …`, `please give …`).
_POLITE = frozenset({"bitte", "please", "pls", "ich", "i", "mit", "with"})
_OR_WORDS = frozenset({"oder", "or", "sonst", "else", "otherwise", "alternativ"})
#: No hand ever holds more of one resource than this; larger counts are typing errors.
MAX_COUNT = 99
#: Card purchases on one line (`2 Entwicklungskarten`).
MAX_CARDS_A_LINE = 9


def _board_free(text: str, kron: bool) -> tuple[Text, str, Item | None]:
    """The first steps of reading a line, which need no board: the line tidied and folded
    (remarks cut after the password and table lines), and its item when it is a header, a
    password, a message/absence/time-zone line, a confirmation or a round line. Shared by
    `parse_line` and `scan_line`, so that both read those lines alike."""
    if len(text) > MAX_LINE_CHARS:
        # Refused unread: no order is that long, and nothing of it is looked at.
        raise NotationError.make("line_too_long", length=len(text), max=MAX_LINE_CHARS)
    t = _tidy(Text(text))
    f = t.folded.strip()
    if not f:
        raise NotationError.make("empty_line")
    for key in ("game", "name", "colours"):
        m = _HEADER[key].match(f)
        if m:
            return t, f, _header(key, t, m)
    m = _PASSWORD.match(f)
    if m and (m.group("sep") or _one_value(m.group("rest"))):
        return t, f, _password(t, m)
    # Before remarks are cut: a message's first line is the player's text as written.
    table = _table_line(t, f)
    if table is not None:
        return t, f, table
    t = _without_remark(t, kron)
    # A full stop at the end of an order line is forgiven (not in passwords, read above), and
    # so are `!` and `?`.
    stripped = t.original.rstrip().rstrip("!?").rstrip()
    if stripped.endswith(".") and not stripped.endswith(".."):
        stripped = stripped[:-1]
    t = Text(stripped)
    f = t.folded.strip()
    m = _CONFIRM.match(f)
    if m:
        return t, f, _confirmation(t, m)
    m = _ROUND.match(f)
    if m:
        return t, f, _round(t, m.group("rest"), m.start("rest"))
    round_at = _round_heading(f)
    if round_at is not None:
        start, end = round_at
        return t, f, _round(t, f[start:end], start)
    return t, f, None


#: `Hilfe Schiffe`, `Hilfe: Handel`, `Hilfe zum Handel`, `Help on ships`, `Help all`: help on a
#: chapter of the player guide (or all of it). One to four words of letters: a sentence that
#: starts with `Hilfe` is no command.
_HELP_TOPIC = re.compile(
    r"^(?:hilfe|help)(?: ?+:)? ++(?:(?:zu|zum|zur|on|about|for|with) ++)?+"
    r"(?P<topic>[a-z][a-z'-]*+(?: [a-z][a-z'-]*+){0,3}+)$"
)


def _command(f: str) -> Command | None:
    for pattern, name in _COMMANDS:
        if pattern.match(f):
            return Command(name)
    m = _HELP_TOPIC.match(f)
    if m is not None and len(m.group("topic")) <= _MAX_TOPIC:
        return Command("help", m.group("topic"))
    return None


#: The longest topic of `Hilfe …` read (a chapter's word is far shorter).
_MAX_TOPIC = 40


def scan_line(text: str) -> Item | None:
    """What a line says that needs no board: a header (`Spiel:`, `Name:`, `Farben:`), a
    password, a message, absence or time-zone line, a confirmation, a round line or a command;
    None for anything else (an order, a heading, a line not understood). Read as `parse_line`
    reads it, at a fraction of the cost: a mail is scanned so before its sender is known to be
    a player (`scan_mail`), and only a mail with a right password is read in full. Raises the
    errors of those lines, as `parse_line` does."""
    _, f, item = _board_free(text, kron=False)
    if item is not None:
        return item
    if _FOR_A_SEVEN.match(f):
        return None
    kind = heading_kind(f)
    if kind in ("substitute", "main") or _SUBSTITUTE.match(f):
        return None
    if kind == "plain" and not _names_an_order(f, False):
        return None
    colon = f.find(":")
    if colon > 0 and f[colon + 1 :].strip() and heading_kind(f[: colon + 1]) == "substitute":
        return None  # `Ersatzbau: …` (`_headed`): an order
    return _command(f)


def parse_line(text: str, ctx: Context) -> Item:
    """The item a (cleaned) line stands for; raises an OrderError subclass otherwise.

    A line refused for a good's letters where the bank or a card takes resources only
    (`Seehandel 4 St gegen 1H`: Stoff, a good; Stein is `S`), or for a letter of two with a
    blank after its count (`gebe 4 St`: Stoff or Stein?), is refused with a question back
    that names the line to copy for each card it may mean (`_asked_back`)."""
    try:
        return _parse_line(text, ctx)
    except NotationError as e:
        if not ctx.kron or ctx.read_as or e.key not in _ASKED_BACK:
            raise
        asked = _asked_back(text, ctx, e)
        if asked is None:
            raise
        raise asked from None


#: The refusals that may be asked back with the lines to copy, by what refused the line.
_ASKED_BACK = {
    "goods_not_with_bank": "bank",
    "monopoly_no_goods": "monopoly",
    "letters_with_count": "letters",
    "letters_by_name": "letters",
}


def _twins(lang: str) -> dict[str, int]:
    """A good's letters that begin a resource's name in the game's language, with that
    resource: German `St` (Stoff) and Stein, English `Br` (bread) and brick."""
    letters = vocab.letters(lang, True)
    out = {}
    for g in GOODS:
        low = letters[g].lower()
        for r in range(N_KRON_RESOURCES):
            if len(low) > 1 and fold(vocab.resource_name(r, lang))[0].startswith(low):
                out[low] = r
    return out


#: Kronlande's letters of two (both languages'), folded.
_LETTERS_OF_TWO = sorted(
    {x.lower() for lang in ("de", "en") for x in vocab.letters(lang, True) if len(x) == 2}
)
#: Those letters as a word of a line (folded): not inside a word, no full stop after (`St.`
#: is Stück).
_CARD_LETTERS = {w: re.compile(rf"(?<![a-z]){w}(?![\w.])") for w in _LETTERS_OF_TWO}


def _card_letters(folded: str, w: str, blank: bool) -> tuple[int, int] | None:
    """Where the letters `w` stand as a card's in a folded line, with their count before them
    (`4St`, `4 St`), or None. `blank`: only with a count and a blank (`4 St`)."""
    for m in _CARD_LETTERS[w].finditer(folded):
        start = m.start()
        spaced = start >= 2 and folded[start - 1] == " " and folded[start - 2].isdecimal()
        if blank and not spaced:
            continue
        start -= 1 if spaced else 0
        while start > 0 and folded[start - 1].isdecimal():
            start -= 1
        return start, m.end()
    return None


def _asked_back(text: str, ctx: Context, error: NotationError) -> NotationError | None:
    """The question back for a line `error` refused (`parse_line`), or None when the line
    reads no better with its letters taken as a card."""
    from .format import format_item

    kind = _ASKED_BACK[error.key or ""]
    folded, index = fold(text)
    letters = [x.lower() for x in vocab.letters(ctx.lang, True)]
    twins = _twins(ctx.lang)
    if kind == "letters":
        # A letter of two after its count and a blank (`4 St`): alone, or with a full stop
        # (`2 St. Holz`, two pieces of wood), it may be an ordinary word, and the refusal says
        # how to write a card instead.
        candidates = [w for w in letters if len(w) > 1]
        blank = True
    else:
        # A good's letters where the bank or a monopoly takes resources only, however spaced.
        candidates, blank = list(twins), False
    found = [(w, at) for w in candidates if (at := _card_letters(folded, w, blank)) is not None]
    if not found:
        return None
    shown, (start, end) = found[0]
    shown_text = text[index[start] : index[end - 1] + 1]
    readings = [(shown, letters.index(shown))] if kind == "letters" else []
    readings += [(shown, twins[shown])] if shown in twins else []
    lines: list[tuple[int, str]] = []
    for w, r in readings:
        try:
            item = _parse_line(text, replace(ctx, read_as=((w, r),)))
        except OrderError:
            continue
        if isinstance(item, MaritimeTrade) and item.give == item.get:
            continue  # `Seehandel 4St gegen 1S`: no trade either way
        lines.append((r, format_item(item, ctx)))
    if not lines:
        return None
    name = vocab.resource_name
    if kind == "letters" and len(lines) == 2:
        (first, first_line), (second, second_line) = lines
        return NotationError.make(
            "letters_ask_two",
            shown=shown_text,
            first=name(first, ctx.lang),
            first_line=first_line,
            second=name(second, ctx.lang),
            second_line=second_line,
            column=error.column,
        )
    (card, line), *_ = lines
    if kind == "letters":
        return NotationError.make(
            "letters_ask_one",
            shown=shown_text,
            name=name(card, ctx.lang),
            line=line,
            column=error.column,
        )
    good, resource = name(letters.index(shown), ctx.lang), name(card, ctx.lang)
    if kind == "monopoly":
        return NotationError.make(
            "good_in_monopoly_ask",
            shown=shown_text,
            good=good,
            resource=resource,
            line=line,
            column=error.column,
        )
    return NotationError.make(
        "good_at_bank_ask",
        shown=shown_text,
        good=good,
        resource=resource,
        line=line,
        column=error.column,
    )


def _parse_line(text: str, ctx: Context) -> Item:
    t, f, item = _board_free(text, ctx.kron)
    if item is not None:
        return item
    m = _FOR_A_SEVEN.match(f)
    if m:
        return _for_a_seven(t.sub(m.end()), ctx)
    kind = heading_kind(f)
    if kind == "substitute" or _SUBSTITUTE.match(f):
        return SubstituteHeader()
    if kind == "main" or (kind == "plain" and not _names_an_order(f, ctx.kron)):
        return Heading()
    headed = _headed(t, ctx)
    if headed is not None:
        return headed
    command = _command(f)
    if command is not None:
        return command
    if _is_pass(f, ctx.kron):
        return Pass()
    rest = _or_prefix(t)
    if rest is not None:
        if ctx.phase == "setup":
            return _setup_line(rest, ctx)
        return OrElse(_one_build(rest, ctx))
    if kind == "unknown" and not _starts_with_keyword(f, ctx.kron):
        raise NotationError.make("unknown_heading", shown=text.strip(), column=t.col(0))
    return _order(_without_verb(t), ctx)


#: `Bei einer 7:`, `Falls ich eine 7 würfle:`, `If I roll a 7:`, `On a 7:` before a robber order
#: or a discard list (which are for a 7 anyway).
_FOR_A_SEVEN = re.compile(
    r"(?:if|when|on|for|falls|wenn|bei|fuer|im fall)\b[a-z ]{0,30}?\b(?:7|sieben|seven)\b"
    r"[a-z ]{0,24}?[:,]\s*+"
)


def _for_a_seven(rest: Text, ctx: Context) -> Item:
    item = _order(_strip_words(_without_verb(rest), _HEX_ARTICLES), ctx)
    if not isinstance(item, (RobberOrder, DiscardPreference)):
        raise NotationError.make("seven_only_robber", column=rest.col(0))
    return item


#: Where a condition clause may start: `…, falls noch was übrig ist`, `… if I've got the
#: lumber for it`.
_CONDITION_CLAUSE = re.compile(
    r"(?:,\s*+|(?<![\s,])\s++)(?:falls|wenn|sofern|soweit|if|when|as long as|provided)(?![a-z])"
)
#: A clause that only says what every build order says anyway (`if I can afford it`):
#: none of these words may stand in it.
_CLAUSE_STOP = frozenset(["oder", "or", "sonst", "else", "otherwise", "nicht", "not", "no", "kein"])


def _without_condition(t: Text, kron: bool) -> Text:
    """A trailing clause on whether the player can pay (`, falls dann noch was übrig ist`, `if
    I've got the lumber for it`) is dropped: every build runs only when it can be paid. A
    clause naming a number, a colour, an order word or another choice is kept (and the line
    then refused), since it may change the order."""
    f = t.folded
    m = _CONDITION_CLAUSE.search(f)
    if m is None or m.start() == 0:
        return t
    comma = f.find(",", m.end())
    # `…, wenn das Holz reicht, eine Siedlung …`: a clause between commas; else to the end.
    end = len(f) if comma < 0 else comma
    clause = f[m.start() : end]
    if any(ch.isdigit() or ch in ":()" for ch in clause):
        return t
    words = _letter_words(clause)
    starts, keywords = _build_starts(kron), _keyword_words(kron)
    if not _is_can_pay(words, kron) or any(
        w in vocab.COLOUR_WORDS or w in starts or w in keywords or w in _CLAUSE_STOP for w in words
    ):
        return t
    if comma < 0:
        return t.sub(0, m.start())
    return t.rewritten([(m.start(), comma, "")])


#: Besides the order keywords and build words, what makes a line ending in `:` an order,
#: never a heading to pass over (`Buy a card:`).
_ORDER_NOUNS = frozenset(["card"])


def _names_an_order(f: str, kron: bool) -> bool:
    """`Spiele Ritter vor dem Wurf:`, `Kaufe Entwicklungskarte:`, `Build a city:`: a line in
    heading form that names an order (read as one, and refused if it is not complete)."""
    starts, keywords = _build_starts(kron), _keyword_words(kron)
    return _starts_with_keyword(f, kron) or any(
        w in starts or w in keywords or w in _ORDER_NOUNS for w in _letter_words(f)
    )


#: `Karte …` / `card …` (also `die Karte`, `the card`) before the card played.
_CARD_LEAD = re.compile(r"(?:(?:die|the) )?+(?:karte|card)(?:\s*+:\s*+|\s++)")
#: The cards a line plays (knight, monopoly, year of plenty, road building, Kronlande's project
#: cards): after `Karte`/`card` they are that card, never a card bought.
_PLAYED_CARDS = (
    "monopoly",
    "plenty",
    "road_building",
    "builders_hut",
    "harbour_privilege",
    "feast",
)


def _without_card_word(t: Text) -> Text:
    """`Karte Hafenprivileg spielen`, `Play card Feast: bread`, `Spiele Karte Erfindung: Holz,
    Erz`: the word `Karte`/`card` before a card that is played names that card (its verb is
    gone already), so it is passed over, never read as a card purchase. `Karte kaufen, …`,
    `Karte, Erfindung …` keep it: a purchase, then the card."""
    f = t.folded
    lead = len(f) - len(f.lstrip())
    m = _CARD_LEAD.match(f, lead)
    if m is None:
        return t
    rest = f[m.end() :]
    if _KNIGHT.match(rest) or any(_PATTERNS[k].match(rest) for k in _PLAYED_CARDS):
        return t.sub(m.end())
    return t


def _order(t: Text, ctx: Context) -> Item:
    """An order line without its header words: knight, robber, discard, trade, monopoly, or
    build lines (setup placements in the setup)."""
    t = _without_card_word(_without_condition(t, ctx.kron))
    f = t.folded.strip()
    m = _KNIGHT.match(f)
    if m:
        return _knight(t, m, ctx)
    m = _PATTERNS["robber"].match(f)
    if m:
        return _robber(t.sub(m.start("rest")), ctx)
    m = _PATTERNS["pirate"].match(f)
    if m:
        return _pirate(t.sub(m.start("rest")), ctx)
    m = _PATTERNS["discard"].match(f)
    if m:
        return DiscardPreference(
            tuple(_resource_list(t.sub(m.start("rest")), ctx, max_total=MAX_COUNT))
        )
    trade = _trade_or_bank(t, ctx)
    if trade is not None:
        return trade
    m = _PATTERNS["monopoly"].match(f)
    if m:
        return _monopoly(t.sub(m.start("rest")), ctx)
    m = _PATTERNS["gold"].match(f)
    if m and ctx.phase != "setup":
        return _gold(t, m, ctx)
    if ctx.phase == "setup":
        return _setup_line(t, ctx)
    return _build_line(t, ctx)


# -- what is around the order -------------------------------------------------------------------


def _tidy(t: Text) -> Text:
    """The line with list markers (`- `, `* `, `• `, `1.`, `1)`) and markup (`*fett*`,
    `_kursiv_`) blanked, and a remark after ` #` or ` -- ` cut off (all in one pass; the
    columns stay those of the line)."""
    f = t.folded
    marks: list[int] = []
    lead = len(f) - len(f.lstrip())
    # A list marker: a bullet, or up to two digits (or one letter) and `.` or `)`, then a blank.
    end = lead
    if (
        f[lead : lead + 1] in ("-", "*", "\u2022", "\u00b7", "\u2023", "+")
        and f[lead + 1 : lead + 2].isspace()
    ):
        marks.append(lead)
        end = lead + 1
    else:
        digits = lead
        while digits < len(f) and digits - lead < 2 and f[digits].isdecimal():
            digits += 1
        if (
            digits > lead
            and f[digits : digits + 1] in (".", ")")
            and f[digits + 1 : digits + 2].isspace()
        ):
            marks.extend(range(lead, digits + 1))
            end = digits + 1
    # Markup: a `*` or `_` at the edge of a word.
    for i in range(end, len(f)):
        ch = f[i]
        if ch not in "*_":
            continue
        before = f[i - 1] if i > 0 else " "
        after = f[i + 1] if i + 1 < len(f) else " "
        if before.isspace() or before in "*_" or after.isspace() or after in "*_:,.!;":
            marks.append(i)
    # A remark: from ` #` or ` -- ` to the end.
    cut = len(f)
    hash_at = f.find(" #", end)
    if hash_at > end:
        cut = hash_at
    dashes = f.find(" -- ", end)
    if end < dashes < cut:
        cut = dashes
    if not marks and cut == len(f):
        return t
    if any(w in _REMARK_TROUBLE for w in _letter_words(f[cut:])):
        # `Siedlung A -- oder Stadt B`: what follows the dashes would change the order.
        raise NotationError.make(
            "remark_unclear", shown=t.sub(cut).original.strip(), column=t.col(cut + 1)
        )
    spans = [(i, i + 1, "") for i in marks if i < cut]
    return t.rewritten([*spans, (cut, len(f), "")])


#: What a remark in brackets may not say: it would change the order ("(oder 8H 3E 4H)").
_REMARK_TROUBLE = frozenset(
    [
        "oder",
        "or",
        "sonst",
        "else",
        "otherwise",
        "statt",
        "instead",
        "nicht",
        "not",
        "kein",
        "keine",
        "no",
        "ersatz",
        "alternativ",
        "alternative",
        "stattdessen",
        "nur",
        "only",
    ]
)
#: Words that name hexes: brackets of only these are the canonical echo, checked.
_HEX_WORDS = frozenset(
    [
        "meer",
        "sea",
        "wasser",
        "water",
        "ozean",
        "ocean",
        "wueste",
        "wuste",
        "desert",
        "hafen",
        "harbor",
        "harbour",
        "port",
    ]
)


#: Words in a remark that may change what the order says: how often, on what condition, when.
_REMARK_CONDITIONS = frozenset(
    [
        "falls",
        "wenn",
        "sofern",
        "sobald",
        "erst",
        "nach",
        "bevor",
        "after",
        "before",
        "if",
        "unless",
        "when",
        "once",
        "zweimal",
        "dreimal",
        "viermal",
        "twice",
        "thrice",
        "times",
        "mal",
        "x2",
        "x3",
        "ausser",
        "except",
        "auch",
        "also",
        "plus",
        "und",
        "and",
        "noch",
        "more",
        "mehr",
        "another",
    ]
)
#: A condition only on whether the player can pay (`falls es reicht`, `if I can afford it`,
#: `if I've got the lumber for it`): every build runs only then anyway.
_PAY_WORDS = frozenset(
    [
        "reicht",
        "reichen",
        "reichts",
        "uebrig",
        "ubrig",
        "afford",
        "affordable",
        "enough",
        "genug",
        "leisten",
        "bezahlen",
        "zahlen",
        "pay",
    ]
)
_HAVE_WORDS = frozenset(["got", "have", "habe", "hab", "hast", "haben", "da", "there"])
#: Words that turn a "can pay" clause into something else (`wenn ich zu viele Karten habe`).
_NOT_PAY = frozenset(["viele", "many", "much", "zu", "too", "nicht", "not", "kein", "keine", "no"])


def _is_can_pay(words: list[str], kron: bool) -> bool:
    if any(w in _NOT_PAY for w in words):
        return False
    return any(w in _PAY_WORDS for w in words) or (
        any(w in _HAVE_WORDS for w in words)
        and any(_is_resource_word(w, kron) or w in ("rohstoffe", "resources") for w in words)
    )


def _may_change_the_order(words: list[str], f: str, kron: bool) -> bool:
    """Whether a remark in brackets may change the order: a choice, a negation, a condition
    other than paying, a count, a colour (except the writer's after `Runde 7`), an order word,
    a resource (except in a harbour's name)."""
    if any(w in _REMARK_TROUBLE for w in words):
        return True
    if _is_can_pay(words, kron):
        return False
    starts, keywords = _build_starts(kron), _keyword_words(kron)
    harbour = any(w in ("hafen", "harbour", "harbor", "port") for w in words)
    round_line = f.lstrip().startswith(("runde", "round", "zug ", "orders", "zuege"))
    return any(
        w in _REMARK_CONDITIONS
        or (w in vocab.COLOUR_WORDS and not round_line)
        or w in vocab.NUMBER_WORDS
        or w in starts
        or w in keywords
        or (_is_resource_word(w, kron) and not harbour)
        for w in words
    )


def _is_resource_word(word: str, kron: bool) -> bool:
    """A resource's full name in either language (`Holz`, `ore`); single letters are not. In a
    Kronlande game also Stein, Fisch and the goods (`Fisch`, `bread`); in any other game those
    words are nothing (`(Fisch!)` is a remark there, as it always was)."""
    if len(word) < 3:
        return False
    return word in (vocab.KRON_WORDS if kron else vocab.RESOURCE_WORDS)


def _without_remark(t: Text, kron: bool) -> Text:
    """The line without a remark in closing brackets (`(wichtig!)`, `(falls es reicht)`): no
    digit and a word that names no hex. A bracket that would change the order (`(oder …)`,
    `(nicht …)`) is refused; brackets naming places are the echo, checked later."""
    f = t.folded.rstrip()
    while f and f[-1] in ".!?":
        f = f[:-1].rstrip()
    if not f.endswith(")"):
        return t
    close = len(f) - 1
    start = f.find("(", f.rfind(")", 0, close) + 1, close)
    if start < 0:
        return t
    inner = f[start + 1 : close]
    if any(ch.isdigit() for ch in inner):
        return t
    words = _letter_words(inner)
    if not words or all(w in _HEX_WORDS for w in words):
        return t
    # A colour in brackets may name a victim or a partner; a count, a resource, a condition
    # or an order word may change the order: all refused, never dropped as a remark.
    if _may_change_the_order(words, f, kron):
        raise NotationError.make(
            "remark_unclear", shown=t.sub(start, close + 1).original, column=t.col(start)
        )
    return t.sub(0, start)


def _letter_words(s: str) -> list[str]:
    return [w for w in re.split(r"[^a-z]+", s) if w]


#: Verbs and articles before an order: `Baue eine Siedlung`, `Play knight`, `Ich spiele …`.
_VERBS = frozenset(
    [
        "put",
        "move",
        "versetze",
        "stelle",
        "baue",
        "bau",
        "bauen",
        "build",
        "spiele",
        "spiel",
        "spielen",
        "play",
        "setze",
        "place",
        "lege",
        "nutze",
        "use",
    ]
)
_ARTICLES = frozenset(
    ["eine", "einen", "ein", "a", "an", "the", "den", "die", "das", "meine", "meinen", "my", "mein"]
)


#: Words before an order that only place it in the mail: `Zum Schluss noch …`, `Finally …`,
#: `Dann …`, `Diesmal …`.
_LEAD_FILLERS = frozenset(
    [
        "zum",
        "schluss",
        "zuletzt",
        "noch",
        "dann",
        "danach",
        "anschliessend",
        "ausserdem",
        "diesmal",
        "zuerst",
        "erst",
        "finally",
        "lastly",
        "then",
        "also",
        "next",
        "first",
        "this",
        "time",
        "turn",
    ]
)


#: Between the subject and the verb: `Ich möchte gern bauen`, `I'd like to build`.
_WISH_WORDS = frozenset(
    [
        "moechte",
        "moechten",
        "will",
        "wuerde",
        "gern",
        "gerne",
        "like",
        "to",
        "want",
        "would",
        "also",
        "noch",
        "dann",
    ]
)


def _without_verb(t: Text) -> Text:
    f = t.folded
    if _PATTERNS["move_ship"].match(f.lstrip()):
        return t  # `Move ship …`, `Versetze Schiff …`: the verb is the order's own word
    words = [(m.start(), m.end(), m.group(0)) for m in re.finditer(r"[^\s:,]+", f)]
    i = 0
    while i < len(words) and i < 4 and words[i][2] in _LEAD_FILLERS:
        i += 1  # `Zum Schluss noch eine Entwicklungskarte`, `Finally buy a card`
    polite = i > 0
    if i < len(words) and words[i][2] in ("bitte", "please", "pls", "plz"):
        polite = True
        i += 1  # `Please buy a development card`, `Bitte Straße 6L 5L`
    if i < len(words) and words[i][2] in ("ich", "i", "i'll", "i'd", "we"):
        i += 1
        # `Ich möchte gern …`, `I'd like to build …`, `I want to …`
        wished = i
        while i < len(words) and i < 8 and words[i][2] in _WISH_WORDS:
            i += 1
        if i > wished and i < len(words) and words[i][2] not in _VERBS:
            # `I want to buy a card`, `Ich möchte gern eine Entwicklungskarte kaufen`
            if words[i][2] in _ARTICLES and i + 1 < len(words):
                i += 1
            return t.sub(words[i][0])
    if i < len(words) and words[i][2] in _VERBS:
        i += 1
        while i < len(words) and i < 10 and words[i][2] in _LEAD_FILLERS:
            i += 1  # `Ich baue diesmal eine Straße …`
        if i < len(words) and words[i][2] in _ARTICLES:
            i += 1
    elif not polite:
        return t
    if i >= len(words):
        return t
    return t.sub(words[i][0])


# -- headers: password, confirmation, game, round ----------------------------------------------


def _table_line(t: Text, f: str) -> Press | Away | TimeZone | None:
    """Messages, absence and time zone (issue 15); None for any other line."""
    m = _PRESS_GM.match(f)
    if m:
        first = t.sub(m.start("rest")).original.strip() if m.group("rest") else ""
        return Press("gm", first)
    m = _PRESS.match(f)
    if m:
        word = m.group("to")
        to = "all" if word in _ALL else vocab.colour(word, column=t.col(m.start("to")))
        first = t.sub(m.start("rest")).original.strip() if m.group("rest") else ""
        return Press(to, first, anonymous=bool(m.group("anon")))
    m = _TO_GM.match(f)
    if m:
        first = t.sub(m.start("rest")).original.strip() if m.group("rest") else ""
        return Press("gm", first)
    m = _AWAY.match(f)
    if m:
        return Away(_date(t, m))
    m = _ZONE.match(f)
    if m:
        rest = t.sub(m.start("rest"))
        name = rest.original.strip()
        if len(name) > MAX_ZONE or not _is_zone(name):
            raise NotationError.make("timezone_expected", shown=name, column=rest.col(0))
        return TimeZone(name)
    return None


def _is_zone(name: str) -> bool:
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_+\-/]*+", name) or ".." in name:
        return False
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return False
    return True


def _date(t: Text, m: re.Match[str]) -> date:
    """The date of `Urlaub bis …`: 2026-12-24 or 24.12.2026."""
    rest = t.sub(m.start("rest"))
    text = rest.original.strip()
    iso, german = _ISO_DATE.fullmatch(text), _GERMAN_DATE.fullmatch(text.rstrip("."))
    try:
        if iso:
            return date(int(iso.group(1)), int(iso.group(2)), int(iso.group(3)))
        if german:
            return date(int(german.group(3)), int(german.group(2)), int(german.group(1)))
    except ValueError:
        pass
    raise NotationError.make("date_expected", shown=text, column=rest.col(0))


def _value_expected(t: Text, m: re.Match[str], group: int | str = 1) -> NotationError:
    word = m.group(group) if group != 1 else m.group(1)
    return NotationError.make(
        "value_expected",
        word=word,
        shown=t.sub(m.start(group), m.end(group)).original,
        column=t.col(m.end()),
    )


def _first_token(value: str) -> str:
    """The first word of a value, up to a blank or a comma: a password or a code never holds
    either, and what follows ("(aus der Mail)", ", Runde 4") is the player's comment."""
    words = value.replace(",", " ").split(maxsplit=1)
    return words[0] if words else ""


#: Around a password: quotes, markup, brackets; after it: punctuation.
_AROUND = "\"'*_«»„“”<>()[]`"


def _secret(value: str) -> str:
    word = _first_token(value).strip(_AROUND)
    while word and word[-1] in ".,;:!?":
        word = word[:-1].rstrip(_AROUND)
    return word


def _one_value(rest: str) -> bool:
    """`Kennwort xyz` (no colon): a password line only when xyz is all that follows (or a
    remark in brackets)."""
    words = rest.split(maxsplit=1)
    return len(words) == 1 or (len(words) == 2 and words[1].startswith(("(", "#")))


def _password(t: Text, m: re.Match[str]) -> Password:
    value = _secret(t.sub(m.start("rest")).original.strip())
    if not value:
        word = m.group(0)[: m.start("sep")].split()[-1]
        raise NotationError.make(
            "value_expected",
            word=word,
            shown=t.sub(m.start("sep") - len(word), m.start("sep")).original,
            column=t.col(m.end("sep")),
        )
    return Password(value)


def _header(key: str, t: Text, m: re.Match[str]) -> Item:
    value = t.sub(m.start("rest")).original.strip()
    if not value:
        raise _value_expected(t, m)
    if key == "game":
        return GameName(value)
    if key == "name":
        return PlayerName(value)
    rest = t.sub(m.start("rest"))
    colours = []
    for w in re.finditer(r"[^\s,;/]+", rest.folded):
        if w.group(0) in _FILLERS or w.group(0) in ("oder", "or"):
            continue
        try:
            colours.append(vocab.colour(w.group(0)))
        except NotationError:
            shown = rest.sub(w.start(), w.end()).original
            raise NotationError.make(
                "colour_expected", shown=shown, column=rest.col(w.start())
            ) from None
    return ColourPreference(tuple(colours))


def _confirmation(t: Text, m: re.Match[str]) -> Confirmation:
    rest = t.sub(m.start("rest"))
    token = _first_token(rest.original.strip())
    if not token:
        raise _value_expected(t, m)
    if len(token) > MAX_TOKEN or not _TOKEN.fullmatch(token):
        lead = len(rest.folded) - len(rest.folded.lstrip())
        raise NotationError.make(
            "token_expected", shown=token, max=MAX_TOKEN, column=rest.col(lead)
        )
    return Confirmation(token)


def _significant(digits: str) -> str:
    """A run of decimal digits without its leading zeros (any script's zeros; one digit
    stays)."""
    start = 0
    while start < len(digits) - 1 and unicodedata.decimal(digits[start]) == 0:
        start += 1
    return digits[start:]


def _number(digits: str) -> int | None:
    r"""The value of a run of decimal digits (`\d`), or None beyond `MAX_DIGITS` significant
    digits: `int()` is only ever given a few."""
    significant = _significant(digits)
    return int(significant) if len(significant) <= MAX_DIGITS else None


def _round(t: Text, digits: str, start: int) -> RoundGuard:
    n = _number(digits)
    if n is None:
        raise NotationError.make(
            "number_too_long",
            digits=len(_significant(digits)),
            max=MAX_DIGITS,
            column=t.col(start),
        )
    return RoundGuard(n)


#: Words of a round heading: `Zug für Runde 7:`, `Meine Züge für Runde 7`, `Orders for round
#: 7:`, `Zugformular für Runde 7:`.
_ROUND_LEAD = frozenset(
    [
        "zug",
        "zuege",
        "zuge",
        "spielzug",
        "spielzuege",
        "befehle",
        "orders",
        "order",
        "moves",
        "turn",
        "zugformular",
        "form",
        "mein",
        "meine",
        "my",
        "unsere",
        "unser",
        "hier",
        "sind",
        "here",
        "are",
        "is",
        "die",
        "der",
        "the",
        "fuer",
        "for",
        "in",
        "of",
    ]
)
_ROUND_TAIL = frozenset(["zuege", "zuge", "befehle", "orders", "moves", "turn"])


def _round_heading(f: str) -> tuple[int, int] | None:
    """Where the round number of a round heading stands in `f`, or None."""
    m = _DIGITS.search(f)
    if m is None:
        return None
    before = f[: m.start()]
    words = _letter_words(before)
    if not words or len(words) > 8:
        return None
    while words and words[-1] in ("nr", "no", "nummer"):
        words.pop()
    if not words or words[-1] not in ("runde", "round"):
        return None
    if any(w not in _ROUND_LEAD for w in words[:-1]):
        return None
    between = before[before.rfind("rund") :]
    if any(ch not in "abcdefghijklmnopqrstuvwxyz .:#" for ch in between):
        return None
    after = f[m.end() :]
    if any(ch not in " .:!" and not "a" <= ch <= "z" for ch in after):
        return None
    if any(w not in _ROUND_TAIL for w in _letter_words(after)):
        return None
    return m.start(), m.end()


# -- headings, passing, alternatives on their own line -------------------------------------------

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
    ]
)
_OR_ELSE_PAIRS = frozenset({("falls", "nicht"), ("wenn", "nicht"), ("if", "not"), ("or", "else")})


def _or_prefix(t: Text) -> Text | None:
    """The rest of a line that starts with `oder`, `sonst`, `alternativ`, `falls nicht:`, …"""
    f = t.folded
    words = [(m.start(), m.end(), m.group(0)) for m in re.finditer(r"[a-z']+", f[:40])]
    if not words or f[: words[0][0]].strip():
        return None
    n = 0
    if len(words) > 1 and (words[0][2], words[1][2]) in _OR_ELSE_PAIRS:
        n = 2
    elif words[0][2] in _OR_ELSE_WORDS:
        n = 1
    if not n:
        return None
    pos = words[n - 1][1]
    while pos < len(f) and f[pos] in " :,-":
        pos += 1
    if pos >= len(f):
        return None
    return t.sub(pos)


def _headed(t: Text, ctx: Context) -> Item | None:
    """`Ersatzbau: Entwicklungskarte`: a substitute heading with a build on its own line; `Sonst:
    Straße …`, `Falls nicht: …`: an alternative to the line above (None: neither)."""
    f = t.folded
    colon = f.find(":")
    if colon <= 0 or not f[colon + 1 :].strip() or heading_kind(f[: colon + 1]) != "substitute":
        return None
    rest = t.sub(colon + 1)
    if _or_prefix(t) is not None:
        return None  # `sonst: …`: read as an alternative by the caller
    if ctx.phase == "setup":
        return _setup_line(rest, ctx)
    build = _build_line(rest, ctx)
    if isinstance(build, SubstituteHeader):
        return build
    return SubstituteHeader(build)


#: Words around a pass (`Ich passe diese Runde.`, `Nothing this round, please`).
_PASS_FILLERS = frozenset(
    [
        "ich",
        "i",
        "diese",
        "dieser",
        "diesmal",
        "runde",
        "round",
        "this",
        "bitte",
        "please",
        "mal",
        "heute",
        "mache",
        "do",
        "will",
        "ll",
        "fuer",
        "for",
        "in",
        "der",
        "the",
        "nun",
        "jetzt",
        "now",
        "also",
        "leider",
        "sorry",
        "gar",
        "ueberhaupt",
        "erstmal",
        "einfach",
        "just",
        "simply",
        "tue",
        "tu",
        "am",
        "from",
        "me",
        "von",
        "mir",
    ]
)
_PASS_CORES = frozenset(
    {
        ("passe",),
        ("pass",),
        ("passen",),
        ("passing",),
        ("nichts",),
        ("nix",),
        ("nothing",),
        ("keine", "zuege"),
        ("keine", "zuge"),
        ("keine", "befehle"),
        ("keine", "aktion"),
        ("keine", "aktionen"),
        ("no", "orders"),
        ("no", "moves"),
        ("no", "actions"),
        ("setze", "aus"),
        ("aussetzen",),
        ("skip",),
        ("skipping",),
    }
)


def _is_pass(f: str, kron: bool) -> bool:
    """`Ich passe`, `keine Züge diesmal`, also with a remark after a comma or a full stop
    (`No orders from me this round, I'm saving up.`) that names no order, colour or number."""
    if len(f) > 120 or any(ch.isdigit() for ch in f):
        return False
    cut = min((i for i in (f.find(c) for c in ",.;(!") if i > 0), default=len(f))
    core = tuple(w for w in _letter_words(f[:cut]) if w not in _PASS_FILLERS)
    if core not in _PASS_CORES:
        return False
    remark = _letter_words(f[cut:])
    starts, keywords = _build_starts(kron), _keyword_words(kron)
    return not any(w in starts or w in keywords or w in vocab.COLOUR_WORDS for w in remark)


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
    ]
)
_KEYWORD_WORDS_KRON = _KEYWORD_WORDS | _KRON_KEYWORD_WORDS


def _keyword_words(kron: bool) -> frozenset[str]:
    """Every keyword's first word in a game: Kronlande's too in a Kronlande game."""
    return _KEYWORD_WORDS_KRON if kron else _KEYWORD_WORDS


def _starts_with_keyword(f: str, kron: bool) -> bool:
    words = _letter_words(f[:40])
    return bool(words) and words[0] in _keyword_words(kron)


# -- build lines -----------------------------------------------------------------------------


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
        "maritime",
        "development",
        "dev",
        "year",
        "buy",
        "kaufe",
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
    ]
)
_BUILD_STARTS_KRON = _BUILD_STARTS | _KRON_BUILD_STARTS


def _build_starts(kron: bool) -> frozenset[str]:
    """The first words of a build in a game: Kronlande's too in a Kronlande game."""
    return _BUILD_STARTS_KRON if kron else _BUILD_STARTS


#: Words before a build word that make it part of the same build (`Stadt bei Siedlung`).
_NOT_A_CUT = frozenset(
    [
        "bei",
        "at",
        "aus",
        "an",
        "auf",
        "on",
        "statt",
        "from",
        "eine",
        "einen",
        "ein",
        "a",
        "an",
        "the",
        "den",
        "die",
        "das",
        "der",
        "dem",
        "my",
        "meine",
        "meiner",
        "meinem",
        "baue",
        "build",
        "buy",
        "kaufe",
        "spiele",
        "play",
    ]
)
#: Words that join two builds (`Straße … und Siedlung …`, `…, dann Straße …`).
_JOINERS = frozenset(
    ["und", "and", "dann", "then", "danach", "sowie", "plus", "&", "+", "und_dann"]
)


#: Articles a build may start with in a sentence (`… und danach eine Siedlung …`).
_CUT_ARTICLES = frozenset(["eine", "einen", "ein", "a", "an"])


#: Seafarers: the pieces of road building are named by kind (`Straßenbau: Straße A, Schiff B`).
_PIECE_WORDS = frozenset(["schiff", "ship", "strasse", "str", "s", "road"])
#: `Move ship …`, `Versetze das Schiff …`: the ship word is part of the order, no second build.
_MOVE_LEADS = frozenset(["move", "moving", "versetze", "the", "das"])


def _split_builds(t: Text, sea: bool = False, kron: bool = False) -> list[Text]:
    """A line of several builds, cut before each build word after the first (`Straße A und
    Siedlung B`, `Siedlung A Straße B`, `Stadt A, Karte kaufen`), joining words dropped.
    `sea`: a Seafarers board, where road building names its pieces' kinds; `kron`: a
    Kronlande board, whose build words cut too."""
    starts = _build_starts(kron)
    f = t.folded
    words = [(m.start(), m.end(), m.group(0).strip(",;:.!")) for m in re.finditer(r"\S+", f)]
    words = [w for w in words if w[2]]  # a comma standing alone is no word
    # others[k]: how many of the first k words are neither a build word nor a joiner, so
    # "only such words from a to b" is one subtraction (the line stays linear).
    others = [0]
    for w in words:
        others.append(others[-1] + (w[2] not in starts and w[2] not in _JOINERS))
    cuts: list[tuple[int, int]] = []  # (end of the previous build, start of the next)
    build_start = 0  # the first word of the build being read
    for i in range(1, len(words)):
        start, _, word = words[i]
        nxt = words[i + 1][2] if i + 1 < len(words) else ""
        is_card = word in ("karte", "karten") and nxt in ("", "kaufen")
        is_count = (word.isdecimal() or word in vocab.NUMBER_WORDS or word.endswith("x")) and (
            nxt.startswith(("entwicklungskarte", "projektkarte", "karte", "dev", "card"))
        )
        if not (word in starts or is_card or is_count):
            continue
        before = words[i - 1][2]
        if word in ("schiff", "ship") and before in _MOVE_LEADS:
            continue
        if (
            sea
            and word in _PIECE_WORDS
            and _PATTERNS["road_building"].match(f[words[build_start][0] :])
        ):
            continue
        if (
            before in _CUT_ARTICLES
            and i - 2 > build_start
            and words[i - 2][2] not in _NOT_A_CUT
            and others[i - 1] - others[build_start] > 0
        ):
            # `… und danach eine Siedlung …`, `…, then a settlement …`: the build starts at
            # its article.
            build_start = i - 1
            j = i - 1
            while j > 1 and words[j - 1][2] in _JOINERS:
                j -= 1
            cuts.append((words[j - 1][1], words[i - 1][0]))
            continue
        if (
            before in _NOT_A_CUT
            or before in _OR_ELSE_WORDS
            or _is_count_word(before)
            or (is_count and before in ("buy", "kaufe"))
        ):
            continue
        if word in ("development", "dev") and words[i - 1][2] in starts:
            continue
        if others[i] - others[build_start] == 0:
            # `Siedlung Straße 6L`: no build before the word, so no second build either.
            continue
        build_start = i
        j = i
        while j > 1 and words[j - 1][2] in _JOINERS:
            j -= 1
        end = words[j - 1][1]
        cuts.append((end, start))
    if not cuts:
        return [t]
    parts, start = [], 0
    for end, nxt_start in cuts:
        piece = t.sub(start, end)
        parts.append(_trim_joiner(piece))
        start = nxt_start
    parts.append(t.sub(start))
    return parts


def _is_count_word(word: str) -> bool:
    return (
        word.isdecimal()
        or word in vocab.NUMBER_WORDS
        or (word.endswith("x") and word[:-1].isdecimal())
    )


def _trim_joiner(t: Text) -> Text:
    f = t.folded.rstrip()
    while f and f[-1] in ",;+&":
        f = f[:-1].rstrip()
    return t.sub(0, len(f))


def _build_line(t: Text, ctx: Context) -> BuildAction | Alternatives | Builds:
    parts = _split_or(t)
    if _PATTERNS["plenty"].match(t.folded.strip()) and not all(
        _starts_a_build(p, ctx.kron) for p in parts[1:]
    ):
        # `Erfindung Erz oder Getreide`: a choice inside the card, refused as such; `Erfindung
        # H H oder Siedlung …` is two options.
        return _build_action(t, ctx, None)[0]
    pieces = _split_builds(t, ctx.board.has_areas, ctx.kron)
    if len(parts) > 1 and len(pieces) > 1:
        raise NotationError.make("or_and_mixed", column=t.col(0))
    if len(parts) > 1:
        options: list[BuildAction] = []
        kind: str | None = None
        for p in parts:
            action, kind = _build_action(p, ctx, kind)
            if isinstance(action, Builds):
                raise NotationError.make("option_one_build", column=p.col(0))
            options.append(action)
        return Alternatives(tuple(options))
    if len(pieces) > 1:
        actions: list[BuildAction] = []
        for p in pieces:
            piece = _strip_words(_without_verb(p), tuple(_CUT_ARTICLES))
            action, _ = _build_action(piece, ctx, None)
            actions.extend(action.actions if isinstance(action, Builds) else (action,))
        return Builds(tuple(actions))
    return _build_action(t, ctx, None)[0]


def _starts_a_build(t: Text, kron: bool) -> bool:
    words = _letter_words(t.folded[:40])
    return bool(words) and words[0] in _build_starts(kron)


def _one_build(t: Text, ctx: Context) -> BuildAction | Alternatives:
    """The build of an `oder …` line: one build or alternatives."""
    line = _build_line(_without_verb(t), ctx)
    if isinstance(line, Builds):
        raise NotationError.make("option_one_build", column=t.col(0))
    return line


#: What a card purchase is called (folded), after its verb and count.
_CARD_WORDS = frozenset(
    [
        "entwicklungskarte",
        "projektkarte",
        "karte",
        "entwicklungs-karte",
        "development-card",
        "devcard",
    ]
)
_CARD_PHRASES = frozenset(
    {
        ("entwicklungskarte",),
        ("projektkarte",),
        ("karte",),
        ("entwicklungs", "karte"),
        ("development", "card"),
        ("dev", "card"),
        ("devcard",),
        ("card",),
    }
)


def _buy_count(f: str) -> int | None:
    """How many cards a purchase line buys (`Entwicklungskarte`, `Karte kaufen`, `Buy a
    development card`, `2 Entwicklungskarten`, `zwei Karten kaufen`, `2x Entwicklungskarte`);
    None when the line is no purchase. Plural without a count raises."""
    words = [w.strip(".,!:;()") for w in f.split()]
    words = [w for w in words if w]
    if words[:1] in (["ich"], ["i"]):
        words = words[1:]
    if words[:1] in (["kaufe"], ["kauf"], ["buy"], ["purchase"]):
        words = words[1:]
    while words and words[-1] in ("kaufen", "bitte", "please", "buy"):
        words = words[:-1]
    count: int | None = None
    if words and (words[0].isdecimal() or words[0] in vocab.NUMBER_WORDS):
        count = _small_count(words[0])
        words = words[1:]
    elif words and words[0][:-1].isdecimal() and words[0].endswith("x"):
        count = _small_count(words[0][:-1])
        words = words[1:]
    if words[:1] == ["x"] and count is not None:
        words = words[1:]
    if words and words[0] in ("neue", "new", "noch", "another", "weitere"):
        words = words[1:]
    if words and words[-1] in ("x1", "x2", "x3", "x4", "x5") and count is None:
        count = _small_count(words[-1][1:])
        words = words[:-1]
    plural = False
    if words and words[-1] in ("entwicklungskarten", "projektkarten", "karten", "cards"):
        plural = True
        words[-1] = {"cards": "card"}.get(words[-1], words[-1][:-1])
    if tuple(words) not in _CARD_PHRASES:
        return None
    if count is None:
        if plural:
            raise NotationError.make("buy_how_many")
        return 1
    return count


def _small_count(word: str) -> int:
    n = vocab.NUMBER_WORDS.get(word)
    if n is None:
        n = _number(word) if word.isdecimal() else None
    if n is None or n > MAX_CARDS_A_LINE:
        raise NotationError.make("count_too_high", count=_significant(word) if n is None else n)
    if n < 1:
        raise NotationError.make("buy_how_many")
    return n


#: The first words of each order kind (folded), for "did you mean" and for the form to write.
_NEAR = {
    "siedlung": "settlement",
    "settlement": "settlement",
    "stadt": "city",
    "city": "city",
    "strasse": "road",
    "road": "road",
    "entwicklungskarte": "buy",
    "projektkarte": "buy",
    "raeuber": "robber",
    "bandit": "robber",
    "robber": "robber",
    "pirat": "pirate",
    "pirate": "pirate",
    "handel": "trade",
    "trade": "trade",
    "seehandel": "maritime",
    "maritime": "maritime",
    "ritter": "knight",
    "knight": "knight",
    "monopol": "monopoly",
    "monopoly": "monopoly",
    "tribut": "monopoly",
    "erfindung": "plenty",
    "gluecksfund": "plenty",
    "strassenbau": "road_building",
    "bautrupp": "road_building",
    "schiff": "ship",
    "ship": "ship",
    "abwurf": "discard",
    "discard": "discard",
    "ersatzbau": "substitute",
    "substitute": "substitute",
    "kennwort": "password",
    "password": "password",
    "runde": "round",
}
#: Kronlande's order words, for "did you mean" in a Kronlande game only.
_NEAR_KRON = {
    "schmiede": "smithy",
    "smithy": "smithy",
    "weberei": "weaving_mill",
    "baeckerei": "bakery",
    "bakery": "bakery",
    "herstellen": "make",
    "burg": "castle",
    "castle": "castle",
    "residenz": "residence",
    "residence": "residence",
    "bauhuette": "builders_hut",
    "hafenprivileg": "harbour_privilege",
    "festmahl": "feast",
    "feast": "feast",
}


def _build_action(
    t: Text, ctx: Context, inherit: str | None
) -> tuple[BuildAction | Builds, str | None]:
    """One build (or several card purchases), and its kind; `inherit`: the kind of the option
    before it, for an option written without its keyword (`Siedlung … oder 8H 3E 4H`)."""
    f = t.folded.strip()
    lead = len(t.folded) - len(t.folded.lstrip())
    n = _buy_count(f)
    if n is not None:
        return (BuyCard() if n == 1 else Builds((BuyCard(),) * n)), "buy"
    m = _RATE.match(f)
    if m:
        return _maritime(t.sub(lead), ctx), "maritime"
    m = _ROADS.match(f)
    if m:
        return _roads(t.sub(lead + m.end()), ctx), "road"
    for kind in (
        "maritime",
        "plenty",
        "road_building",
        "move_ship",
        "ship",
        "settlement",
        "city",
        "road",
        *_KRON_KINDS,
    ):
        m = _PATTERNS[kind].match(f)
        if not m:
            continue
        rest = t.sub(lead + m.start("rest"))
        if kind in _KRON_KINDS:
            return _kron_build(kind, rest, t, lead, ctx), kind
        return _build_of(kind, rest, t, lead, ctx), kind
    if inherit in ("settlement", "city", "road", "maritime") and f[:1].isalnum():
        return _build_of(inherit, t, t, lead, ctx), inherit
    if inherit in ("castle", "residence", *_WORKSHOP_KIND) and f[:1].isalnum():
        return _kron_build(inherit, t, t, lead, ctx), inherit
    raise _not_an_order(t, ctx)


def _build_of(kind: str, rest: Text, t: Text, lead: int, ctx: Context) -> BuildAction:
    if kind == "maritime":
        return _maritime(rest, ctx)
    if kind == "plenty":
        a, b = _two_resources(rest, ctx)
        return YearOfPlenty(a, b)
    if kind == "road_building":
        return _road_building(rest, ctx)
    if kind in ("ship", "move_ship") and not ctx.board.has_areas:
        raise NotationError.make("ships_seafarers", column=t.col(lead))
    if kind == "ship":
        return Ship(_sea_path(rest, ctx))
    if kind == "move_ship":
        return _move_ship(rest, t, lead, ctx)
    if kind == "settlement":
        place = _strip_words(_strip_words(rest, _PLACE_WORDS), _PLACE_ARTICLES)
        return Settlement(_crossing(place, ctx))
    if kind == "city":
        # `Stadt bei meiner Siedlung …`, `City at the settlement …`: place, article, the word.
        place = _strip_words(_strip_words(rest, _CITY_WORDS), _PLACE_ARTICLES)
        place = _strip_words(place, ("siedlung", "settlement"))
        return City(_crossing(place, ctx))
    return Road(_path(rest, ctx))


#: Kronlande: the building a workshop, a Burg or a Residenz is named by (`Burg bei Stadt …`,
#: `Castle at the city …`, `Schmiede auf meiner Siedlung …`): passed over before the crossing.
_BUILDING_WORDS = (
    "siedlung",
    "settlement",
    "stadt",
    "city",
    "burg",
    "castle",
    "residenz",
    "residence",
)
#: After a project card's word: `Bauhütte ausspielen`, `Play harbour privilege card`.
_CARD_TAIL = frozenset(["karte", "card", "aus", "ausspielen", "spielen", "play"])


def _kron_build(kind: str, rest: Text, t: Text, lead: int, ctx: Context) -> BuildAction | Builds:
    """Kronlande's build lines: a workshop, `Herstellen 2 Brot`, a Burg, a Residenz, and the
    project cards Bauhütte, Hafenprivileg and `Festmahl Brot`. Refused outside Kronlande."""
    if not ctx.kron:
        word = t.sub(lead, lead + len(t.folded.strip().split()[0])).original
        raise NotationError.make("kronlande_only", word=word, column=t.col(lead))
    if kind in ("builders_hut", "harbour_privilege"):
        extra = [w for w in _letter_words(rest.folded) if w not in _CARD_TAIL]
        if extra:
            raise NotationError.make("card_alone", column=rest.col(0))
        return BuildersHut() if kind == "builders_hut" else HarbourPrivilege()
    if kind == "feast":
        return Feast(_one_item(rest, ctx))
    if kind == "make":
        return _make(rest, ctx)
    place = _strip_words(_strip_words(rest, _PLACE_WORDS), _PLACE_ARTICLES)
    place = _strip_words(_strip_words(place, _BUILDING_WORDS), _PLACE_WORDS)
    c = _crossing(place, ctx)
    if kind == "castle":
        return Castle(c)
    if kind == "residence":
        return Residence(c)
    return Workshop(_WORKSHOP_KIND[kind], c)


def _make(t: Text, ctx: Context) -> Make | Builds:
    """`Herstellen 2 Brot`, `Make bread`, `Herstellen 2 Brot, 1 Werkzeug`: goods made in the
    player's workshops, each good its own build in the order written."""
    if not t.folded.strip():
        raise NotationError.make("make_form", column=t.col(0))
    makes = []
    for good, n in _resource_groups(t, ctx, max_total=MAX_COUNT):
        if good not in GOODS:
            raise NotationError.make("make_goods", column=t.col(0))
        # Each entry its own make, in the order written (each all or none at resolution).
        makes.append(Make(good, n))
    return makes[0] if len(makes) == 1 else Builds(tuple(makes))


#: Before the card a Festmahl or a monopoly names: a separator (`Festmahl - Brot`,
#: `Monopol, Erz`), and then, after any preposition, a count of one (`Festmahl 1 Brot`,
#: `Feast: one bread`, `Festmahl 1Br`): one card is what either names, so a count of one says
#: nothing more; another count stays and is refused as before.
_CARD_SEPARATOR = re.compile(r"^\s*[,;:\-\u2013\u2014]\s*")
_COUNT_OF_ONE = re.compile(
    r"^\s*(?:1(?![\d.,])(?P<glued>(?=[a-z]))?\s*|(?:ein|eine|einen|one|a|an)\s+)(?=\S)"
)


def _one_card(t: Text, words: tuple[str, ...]) -> tuple[Text, bool]:
    """The text naming the one card of a Festmahl or a monopoly: separator, preposition and a
    count of one passed over (`_CARD_SEPARATOR`, `_COUNT_OF_ONE`); and whether that count was
    glued to the card (`1Br`: a letter of two is read so only, `vocab.resource`)."""
    m = _CARD_SEPARATOR.match(t.folded)
    rest = _strip_words(t.sub(m.end()) if m else t, words)
    m = _COUNT_OF_ONE.match(rest.folded)
    if m is None:
        return rest, False
    return rest.sub(m.end()), m.group("glued") is not None


def _one_item(t: Text, ctx: Context) -> int:
    """The resource or good a card names (`Festmahl Brot`, `Feast on bread`)."""
    rest, counted = _one_card(t, ("auf", "on", "of", "fuer", "for", "mit", "with"))
    f = rest.folded.strip()
    if not f:
        raise NotationError.make("feast_form", column=t.col(0))
    return _named_card(rest, ctx, counted=counted)


def _named_card(
    rest: Text, ctx: Context, goods_refused: bool = False, counted: bool = False
) -> int:
    """The one card a Festmahl or a monopoly names: a letter of one, or a name (a letter of two
    alone may be an ordinary word: its name is asked for), or any letter glued to a count of
    one (`counted`, `1Br`)."""
    f = rest.folded.strip()
    lead = len(rest.folded) - len(rest.folded.lstrip())
    shown = rest.sub(lead).original.strip()
    try:
        return vocab.resource(
            f,
            ctx.lang,
            rest.col(lead),
            ctx.kron,
            counted=counted,
            shown=shown,
            goods_refused=goods_refused,
            read_as=ctx.read_as,
        )
    except NotationError as e:
        if e.key != "letters_with_count":
            raise
        raise NotationError.make(
            "letters_by_name", shown=shown, name=e.params["name"], column=rest.col(lead)
        ) from None


#: A victory point card in both editions' words (`Wahrzeichen` in seed 002's): never played.
_VP_CARD_WORDS = frozenset(
    ["wahrzeichen", "siegpunkt", "siegpunktkarte", "siegpunktkarten", "victory", "vp"]
)


#: A card played named after a card purchase on one line (the cards that are no build line:
#: a year of plenty or road building after a purchase is read as builds of one line).
_PLAYED_CARD = re.compile(
    r"\b(monopol|monopoly|tribut|tribute|ritter|knight|festmahl|feast|bauhuette|builders|"
    r"hafenprivileg|harbou?r privilege)\b"
)


def _not_an_order(t: Text, ctx: Context) -> NotationError:
    """Why a line is no order: a keyword with the rest not understood (the form to write), a
    near miss (`Strase` → did you mean 'Straße'?), or a word that is no order."""
    f = t.folded
    lead = len(f) - len(f.lstrip())
    first = re.match(r"\S+", f[lead:])
    word = t.sub(lead, lead + first.end()).original if first else f
    letters = _letter_words(f[lead : lead + 40])
    folded = letters[0] if letters else ""
    if folded in ("strasse", "str", "s", "road") and first is not None:
        return NotationError.make("road_form", column=t.col(lead))
    if folded in _VP_CARD_WORDS:
        return NotationError.make("vp_card", column=t.col(lead))
    if folded in _CARD_WORDS or folded in ("buy", "kaufe", "karte"):
        if _PLAYED_CARD.search(f, lead):
            # `Karte kaufen und Monopol Erz spielen`: two orders on one line.
            return NotationError.make("buy_and_play", column=t.col(lead))
        return NotationError.make("buy_form", column=t.col(lead))
    if folded in _keyword_words(ctx.kron):
        return NotationError.make("keyword_rest", word=word, column=t.col(lead))
    words = {**_NEAR, **_NEAR_KRON} if ctx.kron else _NEAR
    near = difflib.get_close_matches(folded[:30], list(words), n=1, cutoff=0.75)
    if near and len(folded) >= 3:
        from .format import word as order_word

        return NotationError.make(
            "did_you_mean",
            word=word,
            suggestion=order_word(words[near[0]], ctx.lang).rstrip(":"),
            column=t.col(lead),
        )
    return NotationError.make("order_expected", word=word, column=t.col(lead))


#: Words before a crossing: `Siedlung an …`, `Settlement at …`.
_PLACE_WORDS = ("bei", "at", "auf", "on", "an", "am", "in", "zwischen", "between")
#: After a place word: `at the ore port …`, `auf dem Erzhafen …`.
_PLACE_ARTICLES = ("the", "dem", "der", "den", "my", "meiner", "meinem", "meine", "a", "einer")
_CITY_WORDS = (
    "bei siedlung",
    "at settlement",
    "aus siedlung",
    "statt siedlung",
    "from settlement",
    "an siedlung",
    *_PLACE_WORDS,
)


def _strip_words(t: Text, words: tuple[str, ...]) -> Text:
    f = t.folded
    lead = len(f) - len(f.lstrip())
    for w in words:
        if f[lead:].startswith(w + " "):
            return t.sub(lead + len(w) + 1)
    return t


def _without_echo(t: Text) -> Text:
    r"""Drop a bracketed second name (the canonical echo's token form) after checking it.

    The brackets end the text; the opening one is the first `(` after the last `)` before
    them — what `re.search(r"\((?P<inner>[^)]*)\)\s*$", …)` found, but that pattern scanned to
    the end from every `(` of the line (quadratic in a line of brackets).
    """
    f = t.folded.rstrip()
    if not f.endswith(")"):
        return t
    close = len(f) - 1
    start = f.find("(", f.rfind(")", 0, close) + 1, close)
    if start < 0:
        return t
    return t.sub(0, start)


def _crossing(t: Text, ctx: Context) -> int:
    main = _without_echo(t)
    c = crossing_from_names(ctx.board, tokenize_hexes(main.original, main.offset), ctx.lang)
    _check_echo(
        t,
        main,
        ctx,
        lambda x: crossing_from_names(ctx.board, tokenize_hexes(x.original, x.offset), ctx.lang),
        c,
    )
    return c


#: Words before a path (`Straße zwischen 6L und 5L`, `Road at …`, `Straße von 5L nach 10G`).
_PATH_WORDS = (
    "zwischen",
    "between",
    "von",
    "from",
    "an",
    "at",
    "auf",
    "on",
    "bei",
    "entlang",
    "dazu",
)
_PATH_TO = re.compile(r" (nach|bis|to|zu) ")


def _path(t: Text, ctx: Context, land_only: bool = True) -> int:
    t = _strip_words(t, _PATH_WORDS)
    to = _PATH_TO.search(t.folded)
    if to is not None and _PATH_TO.search(t.folded, to.end()) is None:
        # `von A nach B`: two hexes (the path between them) or two crossings.
        left, right = t.folded[: to.start()], t.folded[to.end() :]
        try:
            sides = len(tokenize_hexes(left)), len(tokenize_hexes(right))
        except OrderError:
            sides = (0, 0)
        if sides == (1, 1):
            t = t.replaced(to.start(), to.end(), " ")
        elif sides == (3, 3):
            t = t.replaced(to.start(), to.end(), " - ")
    main = _without_echo(t)
    e = _resolve_path(main, ctx, land_only)
    _check_echo(t, main, ctx, lambda x: _resolve_path(x, ctx, land_only), e)
    return e


def _resolve_path(t: Text, ctx: Context, land_only: bool = True) -> int:
    try:
        return resolve_path(ctx.board, t.original, ctx.lang, land_only)
    except OrderError as e:
        if e.column is not None:
            e.column += t.offset
        raise


def _check_echo(t: Text, main: Text, ctx: Context, resolve: object, expected: int) -> None:
    """A bracketed form must name the same place as the main form, else it is an error."""
    if main is t:
        return
    inner_start = len(main.folded) + t.folded[len(main.folded) :].index("(") + 1
    inner = t.sub(inner_start, len(t.folded.rstrip()) - 1)
    assert callable(resolve)
    try:
        other = resolve(inner)
    except OrderError:
        other = None
    if other == expected:
        return
    if any(w in _OR_WORDS for w in _letter_words(inner.folded)):
        # `Siedlung A (or B if that's taken)`: an alternative in brackets, to be written with
        # `oder` on the line.
        shown = t.sub(inner_start - 1, len(t.folded.rstrip())).original
        raise NotationError.make("remark_unclear", shown=shown, column=t.col(inner_start - 1))
    raise NotationError.make("brackets_differ", column=t.col(inner_start))


def _hex(t: Text, ctx: Context) -> int:
    main = _without_echo(t)
    h = _resolve_hex(main, ctx)
    _check_echo(t, main, ctx, lambda x: _resolve_hex(x, ctx), h)
    return h


def _resolve_hex(t: Text, ctx: Context) -> int:
    try:
        return resolve_hex(ctx.board, t.original, ctx.lang)
    except OrderError as e:
        if e.column is not None:
            e.column += t.offset
        raise


def _named_hexes(t: Text, ctx: Context) -> frozenset[int]:
    """Every hex a one-hex name can mean (`Meer`, `Wüste`, `9H`), without its bracketed echo;
    empty when it is not one name of this board (`_hex` then says what is wrong)."""
    try:
        names = tokenize_hexes(_without_echo(t).original)
        if len(names) != 1:
            return frozenset()
        return hex_candidates(ctx.board, names[0].name, ctx.lang)
    except OrderError:
        return frozenset()


def _seat(t: Text, start: int, end: int, ctx: Context) -> int:
    """The seat of the colour named at folded positions start..end of t."""
    word = t.folded[start:end]
    shown = t.sub(start, end).original
    column = t.col(start)
    try:
        c = vocab.colour(word, column)
    except NotationError:
        raise NotationError.make("colour_expected", shown=shown, column=column) from None
    if c not in ctx.colours:
        raise NotationError.make("colour_not_playing", shown=shown, column=column)
    return ctx.colours.index(c)


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


#: Before the robber's hex: `Räuber auf 9H`, `Räuber: 9H`, `Räuber → 9H`, `Robber to 9L`.
_ROBBER_PLACE_WORDS = ("auf", "nach", "an", "zu", "on", "onto", "to", "at", "in")
#: Verbs before the robber in a knight line (`Ritter vor Wurf: setze Räuber …`, `move robber
#: to …`).
_MOVE_WORDS = ("move", "moving", "put", "place", "set", "setze", "versetze", "stelle", "schiebe")
_VICTIM_SEPARATORS = ",;/"
#: `Räuber auf die 9H`, `robber on the 8 grain`.
_HEX_ARTICLES = ("die", "das", "den", "dem", "der", "the")


def _robber(t: Text, ctx: Context) -> RobberOrder:
    """`Räuber 9H, raube blau, rot`, also `Räuber: 9H / blau`, `Räuber auf 9H, klau bei blau`,
    `Räuber 3W, blau, gelb`, `Räuber 9H blau`: the hex, then the victims in priority order."""
    f = t.folded
    pos = 0
    while pos < len(f) and f[pos] in " :->,":
        pos += 1
    t, f = t.sub(pos), f[pos:]
    m = _keyword_span(_STEAL, f)
    seps = [i for i in (f.find(c) for c in _VICTIM_SEPARATORS) if i >= 0]
    if m is not None and not (seps and min(seps) < m[0]):
        place_end, victims_at = m
    elif seps:
        # `Räuber 9H, raube blau`, also `Räuber auf die 9H, bei rot klauen`: the hex ends at
        # the first separator, the victims follow with their verb anywhere.
        place_end = min(seps)
        victims_at = place_end + 1
    else:
        place_end = victims_at = _colours_at_end(f)
    place = _strip_words(_strip_words(t.sub(0, place_end), _ROBBER_PLACE_WORDS), _HEX_ARTICLES)
    place_f = place.folded.rstrip()
    for joiner in (" und", " and"):
        # `robber on 8 grain and steal from blue`
        if place_f.endswith(joiner):
            place = place.sub(0, len(place_f) - len(joiner))
            break
    place_f = place.folded.strip().rstrip(",;/")
    if not place_f:
        raise NotationError.make("robber_hex_expected", column=t.col(0))
    shown = place.sub(0, len(place.folded.rstrip().rstrip(",;/").rstrip()))
    hexes = ctx.board.hexes
    named = _named_hexes(shown, ctx)
    if named and all(hexes[x].terrain == Terrain.SEA for x in named):
        # `Räuber Meer`: the robber never goes to sea (docs/rules-decisions.md); in Seafarers
        # the pirate does. Said before the name's many sea hexes would be listed to choose.
        if ctx.board.has_areas:
            raise NotationError.make("robber_at_sea_pirate", column=place.col(0))
        raise NotationError.make("robber_at_sea", column=place.col(0))
    if named and all(hexes[x].number is None for x in named):
        # The desert (a scenario has several): never a place for the robber either.
        raise NotationError.make(
            "robber_no_number", name=shown.original.strip(), column=place.col(0)
        )
    h = _hex(shown, ctx)
    if hexes[h].number is None:
        raise NotationError.make(
            "robber_no_number", name=shown.original.strip(), column=place.col(0)
        )
    victims: list[int] = []
    for w in re.finditer(r"[a-z]+", f[victims_at:]):
        word = w.group(0)
        if word in _VICTIM_FILLERS or _STEAL.fullmatch(word):
            continue
        seat = _seat(t, victims_at + w.start(), victims_at + w.end(), ctx)
        if seat not in victims:
            victims.append(seat)
    return RobberOrder(h, tuple(victims))


def _colours_at_end(f: str) -> int:
    """Where colour words at the end of a robber line start (`Räuber 9H blau gelb`), or the
    end of the line."""
    end = len(f.rstrip())
    start = end
    for m in reversed(list(re.finditer(r"\S+", f[:end]))):
        word = m.group(0).strip(",;")
        if word in vocab.COLOUR_WORDS or word in _VICTIM_FILLERS:
            start = m.start()
            continue
        break
    return start


def _knight(t: Text, m: re.Match[str], ctx: Context) -> Knight:
    timing = m.group("timing")
    if not timing:
        raise NotationError.make("knight_timing", column=t.col(m.end(1)))
    rest = t.sub(m.start("rest"))
    skip = 0
    while skip < len(rest.folded) and rest.folded[skip] in " ,;:-":
        skip += 1  # `Ritter nach Wurf, Räuber 6L`
    rest = _strip_words(rest.sub(skip), _MOVE_WORDS)
    when = Timing.BEFORE_ROLL if timing.startswith(("vor", "before", "pre")) else Timing.AFTER_ROLL
    pm = _PATTERNS["pirate"].match(rest.folded.strip())
    if pm:
        lead = len(rest.folded) - len(rest.folded.lstrip())
        return Knight(when, _pirate(rest.sub(lead + pm.start("rest")), ctx))
    rm = _PATTERNS["robber"].match(rest.folded.strip())
    if rm:
        lead = len(rest.folded) - len(rest.folded.lstrip())
        rest = rest.sub(lead + rm.start("rest"))
    return Knight(when, _robber(rest, ctx))


def _pirate(t: Text, ctx: Context) -> RobberOrder:
    """Seafarers: `Pirat D5`, `Pirat auf D5`, `Pirate to D5`: a sea hex and nothing else (the
    pirate robs every ship owner next to it, so no victims are named)."""
    if not ctx.board.has_areas:
        raise NotationError.make("pirate_seafarers", column=t.col(0))
    f = t.folded
    pos = 0
    while pos < len(f) and f[pos] in " :->,":
        pos += 1
    t, f = t.sub(pos), f[pos:]
    seps = [i for i in (f.find(c) for c in _VICTIM_SEPARATORS) if i >= 0]
    end = min([*seps, _colours_at_end(f)])
    if _keyword_span(_STEAL, f) is not None or f[end:].strip(" ,;/"):
        raise NotationError.make("pirate_no_victims", column=t.col(end))
    place = _strip_words(_strip_words(t.sub(0, end), _ROBBER_PLACE_WORDS), _HEX_ARTICLES)
    if not place.folded.strip():
        raise NotationError.make("pirate_hex_expected", column=t.col(0))
    shown = place.sub(0, len(place.folded.rstrip()))
    named = _named_hexes(shown, ctx)
    if named and all(ctx.board.hexes[x].terrain != Terrain.SEA for x in named):
        # `Pirat Wüste` in a scenario with several deserts: no list of them to choose from.
        raise NotationError.make("pirate_on_sea", name=shown.original.strip(), column=place.col(0))
    h = _hex(shown, ctx)
    if ctx.board.hexes[h].terrain != Terrain.SEA:
        raise NotationError.make("pirate_on_sea", name=shown.original.strip(), column=place.col(0))
    return RobberOrder(h, (), True)


def _monopoly(t: Text, ctx: Context) -> Monopoly:
    rest, counted = _one_card(t, ("auf", "on", "of", "fuer", "for", "alle", "all"))
    f = rest.folded.strip()
    if not f:
        raise NotationError.make("resources_expected", column=t.col(0))
    r = _named_card(rest, ctx, goods_refused=True, counted=counted)
    if r in GOODS:
        # Kronlande: a monopoly names a resource (Stein and Fisch too), never a good.
        lead = len(rest.folded) - len(rest.folded.lstrip())
        raise NotationError.make("monopoly_no_goods", column=rest.col(lead))
    return Monopoly(r)


def _counted(t: Text) -> Text:
    """Counts written as words or with an `x` (`zwei Wolle`, `2x W`, `2 x W`) as digits, in
    place (the columns stay)."""
    f = t.folded
    spans: list[tuple[int, int, str]] = []
    words = list(re.finditer(r"[^\s,;]+", f))
    for i, w in enumerate(words):
        word = w.group(0)
        if word in vocab.NUMBER_WORDS and i + 1 < len(words):
            spans.append((w.start(), w.end(), str(vocab.NUMBER_WORDS[word])))
        elif (
            len(word) > 1
            and word.endswith(("x", "*"))
            and word[:-1].isdecimal()
            and i + 1 < len(words)
        ):
            spans.append((w.end() - 1, w.end(), ""))
        elif word in ("x", "*") and i > 0 and words[i - 1].group(0).rstrip("x*").isdecimal():
            spans.append((w.start(), w.end(), ""))
    return t.rewritten(spans) if spans else t


def _resource_list(
    t: Text,
    ctx: Context,
    allow_empty: bool = False,
    max_total: int | None = None,
    goods_refused: bool = False,
) -> list[int]:
    """`W W G`, `2W G`, `2 W, 1 G`, `Holz und Erz`, `zwei Wolle`, `2x W`: resources, one entry
    per card. `oder` makes it an alternative: refused, never read as "and".

    `max_total`: the most cards the list may hold. A discard list is echoed card by card, so
    without it one line of `99W 99W …` would be echoed as some 50,000 characters.
    `goods_refused`: the caller refuses goods (`vocab.resource`).
    """
    groups = _resource_groups(t, ctx, allow_empty, max_total, goods_refused)
    return [r for r, n in groups for _ in range(n)]


def _resource_groups(
    t: Text,
    ctx: Context,
    allow_empty: bool = False,
    max_total: int | None = None,
    goods_refused: bool = False,
) -> list[tuple[int, int]]:
    """The cards of a list as written: (resource, count) for each entry (`2 Brot, 1 Werkzeug,
    1 Brot` is three entries), as `_resource_list` reads them."""
    t = _counted(t)
    out: list[tuple[int, int]] = []
    total = 0
    count: int | None = None
    for w in re.finditer(r"[^\s,;]+", t.folded):
        word = w.group(0)
        if word in _OR_WORDS:
            raise NotationError.make("or_in_list", word=word, column=t.col(w.start()))
        if word in _FILLERS:
            continue
        if allow_empty and word in ("nichts", "nothing", "-") and not out:
            continue
        digits, letters = _split_count(word)
        if digits:
            n = _number(digits)
            # Beyond MAX_DIGITS the digits are shown as written (without leading zeros).
            shown: int | str = _significant(digits) if n is None else n
            if n is None or n > MAX_COUNT:
                raise NotationError.make("count_too_high", count=shown, column=t.col(w.start()))
            count, word = n, letters
        if not word:
            continue  # "2 H": the resource follows as the next word
        try:
            # Kronlande's letters of two are cards only right after their count (`2St`).
            r = vocab.resource(
                word,
                ctx.lang,
                t.col(w.start()),
                ctx.kron,
                counted=bool(digits),
                shown=t.sub(w.start(), w.end()).original,
                goods_refused=goods_refused,
                read_as=ctx.read_as,
            )
        except NotationError as e:
            if e.key == "letters_with_count":
                raise
            shown = t.sub(w.start(), w.end()).original
            raise NotationError.make(
                "resource_expected",
                letters="/".join(vocab.letters(ctx.lang, ctx.kron)),
                shown=shown,
                column=t.col(w.start()),
            ) from None
        n = 1 if count is None else count
        out.append((r, n))
        total += n
        count = None
        if max_total is not None and total > max_total:
            raise NotationError.make(
                "too_many_cards", count=total, max=max_total, column=t.col(w.start())
            )
    if count is not None:
        raise NotationError.make("resource_after_number", column=t.col(0))
    if not out and not allow_empty:
        raise NotationError.make("resources_expected", column=t.col(0))
    return out


def _split_count(word: str) -> tuple[str, str]:
    """A word's leading decimal digits and the rest: `12W` → ("12", "w")."""
    end = 0
    while end < len(word) and word[end].isdecimal():
        end += 1
    return word[:end], word[end:]


def _two_resources(t: Text, ctx: Context) -> tuple[int, int]:
    rs = _resource_list(t, ctx, goods_refused=True)
    if len(rs) != 2:
        raise NotationError.make("two_resources", count=len(rs), column=t.col(0))
    if any(r in GOODS for r in rs):
        # Kronlande: the bank gives resources only (Stein and Fisch too), never goods.
        raise NotationError.make("goods_not_with_bank", column=t.col(0))
    return rs[0], rs[1]


def _counts(t: Text, ctx: Context) -> Counts:
    """The cards of one side of a trade: five counts, in Kronlande ten (goods too)."""
    out = [0] * (KRON_WIDTH if ctx.kron else N_RESOURCES)
    for r in _resource_list(t, ctx, allow_empty=True):
        out[r] += 1
    return tuple(out)


# -- trades ------------------------------------------------------------------------------------

_GIVE = re.compile(r"\b(gebe|gib|geben|biete|give|offer|gives|ich gebe|i give)\b\s*+:?+\s*+")
#: After `[,;]?\s*`, added by `_keyword_span` (see there).
_GET = re.compile(
    r"\b(bekomme|erhalte|kriege|will|get|receive|want|for|fuer|gegen)\b"
    r"\s*+:?+\s*+"
)
#: The words of what one gets, and of what stands between two halves of a trade.
_WANT = re.compile(
    r"\b(bekomme|bekommen|erhalte|kriege|will|moechte|get|receive|want)\b\s*+:?+\s*+"
)
_FOR = re.compile(r"\b(gegen|fuer|for|against)\b\s*+:?+\s*+|->\s*+|=>\s*+")


#: `An der Bank: 4 Lehm gegen 1 Holz`, `With the bank: …`, `To the bank: …`.
_AT_THE_BANK = re.compile(r"(?:an|mit|with|at|to|bei) (?:(?:der|the|die) )?+bank\s*+:\s*+")


def _trade_or_bank(t: Text, ctx: Context) -> Item | None:
    """A trade with a player (`Handel gelb: …`, `Handel mit gelb: 2 Holz gegen 1 Erz`, `Tausche
    mit weiß: …`, `Trade with yellow: …`) or with the bank (`Tausche mit der Bank …`, `Seehandel
    …`); None when the line is neither."""
    f = t.folded.strip()
    m = _AT_THE_BANK.match(f)
    if m:
        return _maritime(t.sub(len(t.folded) - len(t.folded.lstrip()) + m.end()), ctx)
    m = _PATTERNS["trade"].match(f)
    trade_word = re.match(r"(handel|handle|trade)(?![a-z])", f)
    if m:
        partner = m.group("partner")
        if partner == "bank":
            return _maritime(t.sub(m.start("rest")), ctx)
        if partner in vocab.COLOUR_WORDS or (
            trade_word and partner not in ("gebe", "give", "bekomme", "get", "ich", "i")
        ):
            if not m.group("rest").strip() and not trade_word:
                return None
            return _trade(t, m, ctx)
    if trade_word:
        raise NotationError.make("trade_form", column=t.col(0))
    m = _PATTERNS["maritime"].match(f)
    if m:
        if len(_split_or(t)) > 1:
            # `Seehandel … oder Siedlung …`: options of one build step.
            return None
        return _maritime(t.sub(m.start("rest")), ctx)
    return None


def _trade(t: Text, m: re.Match[str], ctx: Context) -> TradeOffer:
    """`gebe …, bekomme …` in either order, or `… gegen …` (what one gives first)."""
    partner = _seat(t, m.start("partner"), m.end("partner"), ctx)
    rest = t.sub(m.start("rest"))
    f = rest.folded
    g = _keyword_span(_GIVE, f)
    r = _keyword_span(_WANT, f)
    first = min((k[0] for k in (g, r) if k), default=None)
    lead_words = [w for w in _letter_words(f[: first or 0]) if w not in _POLITE]
    if first is not None and (lead_words or re.search(r"\d", f[:first])):
        # Words between the partner and `gebe`/`bekomme` are never dropped: `Handel blau oder
        # weiß: gebe …` names two partners, and a trade has one.
        words = lead_words
        if any(w in vocab.COLOUR_WORDS for w in words):
            raise NotationError.make("trade_one_partner", column=rest.col(0))
        raise NotationError.make("trade_form", column=rest.col(0))
    if g and r:
        if g[0] < r[0]:
            give, get = (g[1], r[0]), (r[1], len(f))
        else:
            get, give = (r[1], g[0]), (g[1], len(f))
    elif g:
        s = _keyword_span(_FOR, f, g[1])
        if s is None:
            raise NotationError.make("trade_form", column=rest.col(0))
        give, get = (g[1], s[0]), (s[1], len(f))
    elif r:
        s = _keyword_span(_FOR, f, r[1])
        if s is None:
            raise NotationError.make("trade_form", column=rest.col(0))
        get, give = (r[1], s[0]), (s[1], len(f))
    else:
        s = _keyword_span(_FOR, f)
        if s is None or not f[: s[0]].strip():
            raise NotationError.make("trade_form", column=rest.col(0))
        give, get = (0, s[0]), (s[1], len(f))
    gives, gets = _counts(rest.sub(*give), ctx), _counts(rest.sub(*get), ctx)
    if any(a and b for a, b in zip(gives, gets, strict=True)):
        # `gebe 2W, bekomme 2W`: no trade at all, whatever the position.
        raise NotationError.make("trade_same_resource", column=rest.col(0))
    return TradeOffer(partner, gives, gets)


_MARITIME_SEPARATORS = ("gegen", "fuer", "for", "zu", "in", "->", "=>", ">", "-")


def _is_letter(c: str) -> bool:
    return "a" <= c <= "z"  # `[a-z]`: the folded keyword and resource letters


# What `\s`, `\d` and `[a-z]` match, for the hand-written matching below.
_BLANK, _DIGIT, _LETTER = str.isspace, str.isdecimal, _is_letter


def _skip(f: str, pos: int, test: Callable[[str], bool]) -> int:
    """The end of the run of characters passing `test` that starts at `pos`."""
    while pos < len(f) and test(f[pos]):
        pos += 1
    return pos


def _skip_back(f: str, end: int, test: Callable[[str], bool]) -> int:
    """The start of the run of characters passing `test` that ends at `end`."""
    while end > 0 and test(f[end - 1]):
        end -= 1
    return end


def _maritime_split(f: str) -> tuple[int, int] | None:
    r"""Where a (folded, stripped) bank trade splits into `<give> <separator> <get>`: the end of
    the give part and the start of the get part, each `\d*\s*[a-z]+`.

    The split the regex `^(?P<give>\d*\s*[a-z]+)\s*(gegen|…|in|…|-)\s*(?P<get>\d*\s*[a-z]+)$`
    chose (the longest give part first, the separators in that order), found without it: that
    regex tried every end of the give letters and scanned the rest of the line from each —
    quadratic on `ininin…`. Whether a get part can start at a position is known at once from
    the end of the line: anywhere from the digits before the last letters on.
    """
    # The give part: digits, blanks, then at least one letter.
    letters_start = _skip(f, _skip(f, 0, _DIGIT), _BLANK)
    letters_end = _skip(f, letters_start, _LETTER)
    # The get part: it may start anywhere from `get_from` to the last letter.
    last_letters = _skip_back(f, len(f), _LETTER)
    if last_letters == len(f):
        return None
    get_from = _skip_back(f, _skip_back(f, last_letters, _BLANK), _DIGIT)
    for give_end in range(letters_end, letters_start, -1):
        # Before a letter, `\s*` matches nothing; after the last one, all the blanks.
        sep_at = _skip(f, give_end, _BLANK) if give_end == letters_end else give_end
        for sep in _MARITIME_SEPARATORS:
            if f.startswith(sep, sep_at):
                get_start = _skip(f, sep_at + len(sep), _BLANK)
                if get_from <= get_start < len(f):
                    return give_end, get_start
    return None


#: Before a bank trade's terms: `Tausche mit der Bank …`, `Seehandel: …`, `with the bank`.
_BANK_WORDS = ("mit der bank", "with the bank", "mit bank", "with bank", "bank", "der bank")


def _maritime(t: Text, ctx: Context) -> MaritimeTrade:
    """`4H gegen 1E`, `4 Holz für 1 Erz`, `vier Holz gegen ein Erz`, and with the rate first:
    `4:1 Holz gegen Erz`, `3:1: 3W gegen 1G`, `2:1 H-Hafen: 2H gegen 1L`."""
    t = _strip_words(t, _BANK_WORDS)
    f0 = t.folded.strip()
    lead0 = len(t.folded) - len(t.folded.lstrip())
    rate: int | None = None
    harbour: str | None = None
    m = _RATE.match(f0)
    if m:
        rate = _number(m.group("rate"))
        harbour = m.group("kind") or m.group("mapkind")
        t = t.sub(lead0 + m.start("rest"))
    t = _counted(t)
    f = t.folded.strip().rstrip(".")
    lead = len(t.folded) - len(t.folded.lstrip())
    split = _maritime_split(f)
    if split is None:
        raise NotationError.make("maritime_form", column=t.col(lead))

    def one(start: int, end: int) -> tuple[int, int | None]:
        written = f[start:end].strip()
        digits, word = _split_count("".join(written.split()))
        # A count beyond MAX_DIGITS digits is too many, like any above MAX_COUNT.
        n = _number(digits) if digits else None
        if digits and n is None:
            n = MAX_COUNT + 1
        # `4St` is counted, `4 St` not (Kronlande's letters of two: `vocab.resource`).
        counted = bool(digits) and not written[len(digits) : len(digits) + 1].isspace()
        shown = t.sub(lead + start, lead + end).original
        column = t.col(lead + start)
        card = vocab.resource(word, ctx.lang, column, ctx.kron, counted, shown, True, ctx.read_as)
        return card, n

    give, give_n = one(0, split[0])
    get, got_n = one(split[1], len(f))
    if give in GOODS or get in GOODS:
        # Kronlande: goods are traded between players only.
        raise NotationError.make("goods_not_with_bank", column=t.col(lead))
    get_n = 1 if got_n is None else got_n
    if rate is not None:
        if harbour is not None and harbour != vocab.letters(ctx.lang, ctx.kron)[give].lower():
            raise NotationError.make("maritime_rate", rate=f"{rate}:1", column=t.col(lead))
        if give_n is None:
            give_n = rate * get_n
        elif give_n != rate * get_n:
            raise NotationError.make("maritime_rate", rate=f"{rate}:1", column=t.col(lead))
    if give_n is None:
        give_n = 1
    if max(give_n, get_n) > MAX_COUNT:
        raise NotationError.make("maritime_too_many", max=MAX_COUNT, column=t.col(lead))
    if give_n < 1 or get_n < 1:
        raise NotationError.make("maritime_at_least_one", column=t.col(lead))
    return MaritimeTrade(give, give_n, get, get_n)


#: `Straßen 6L 5L und 5L 11G`, `Roads: …`: several roads, built in the order written.
_ROADS = re.compile(r"(?:strassen|roads)(?![a-z])\s*+:?+\s*+")
#: The most roads one `Straßen` line may hold (a player has 15).
_MAX_ROADS = 5


def _path_list(t: Text, ctx: Context) -> list[int]:
    """Paths separated by `,`, `;`, `und` or `and`."""
    f = t.folded
    spans, pos = [], 0
    for sep in re.finditer(r"[,;]|\bund\b|\band\b", f):
        spans.append((pos, sep.start()))
        pos = sep.end()
    spans.append((pos, len(f)))
    return [_path(t.sub(a, b), ctx) for a, b in spans if f[a:b].strip()]


def _roads(t: Text, ctx: Context) -> Road | Builds:
    paths = _path_list(t, ctx)
    if not 1 <= len(paths) <= _MAX_ROADS:
        raise NotationError.make("road_form", column=t.col(0))
    if len(paths) == 1:
        return Road(paths[0])
    return Builds(tuple(Road(p) for p in paths))


def _road_building(t: Text, ctx: Context) -> RoadBuilding:
    if ctx.board.has_areas:
        return _sea_road_building(t, ctx)
    paths = _path_list(t, ctx)
    if not 1 <= len(paths) <= 2:
        raise NotationError.make("road_building_paths", column=t.col(0))
    return RoadBuilding(paths[0], paths[1] if len(paths) > 1 else None)


#: A piece of road building named by its kind: `Straßenbau: Schiff D4 D5, Straße E5 E6`.
# Possessive blanks: ` *:? *` before a run of blanks that then fails tried every split of it.
_PIECE = re.compile(rf"^ *+(?:{_KW['ship']}|{_KW['road']})(?![a-z0-9]) *+:?+ *+")


def _sea_road_building(t: Text, ctx: Context) -> RoadBuilding:
    """Seafarers: each piece a road unless it says `Schiff`/`Ship` (a path at sea, with no
    word, is a ship too)."""
    f = t.folded
    spans, pos = [], 0
    for sep in re.finditer(r"[,;]|\bund\b|\band\b", f):
        spans.append((pos, sep.start()))
        pos = sep.end()
    spans.append((pos, len(f)))
    pieces: list[tuple[int, bool]] = []
    for a, b in spans:
        if not f[a:b].strip():
            continue
        part = t.sub(a, b)
        m = _PIECE.match(part.folded)
        ship = m is not None and _KW_SHIP.match(part.folded.strip()) is not None
        if m is not None:
            part = part.sub(m.end())
        if ship:
            e = _sea_path(part, ctx)
        else:
            try:
                e = _path(part, ctx)
            except OrderError:
                if m is not None:
                    raise
                e, ship = _sea_path(part, ctx), True
        pieces.append((e, ship))
    if not 1 <= len(pieces) <= 2:
        raise NotationError.make("road_building_paths", column=t.col(0))
    if len(pieces) == 1:
        return RoadBuilding(pieces[0][0], None, pieces[0][1])
    return RoadBuilding(pieces[0][0], pieces[1][0], pieces[0][1], pieces[1][1])


_KW_SHIP = re.compile(rf"^{_KW['ship']}(?![a-z0-9])")


def _sea_path(t: Text, ctx: Context) -> int:
    """A ship's path: as `_path`, but sea sides too (two sea hexes, or a coast)."""
    return _path(t, ctx, land_only=False)


#: `nach`/`to` between the two paths of a ship move.
_MOVE_TO = re.compile(r" (nach|to|auf|onto) ")


def _move_ship(rest: Text, t: Text, lead: int, ctx: Context) -> MoveShip:
    """`Schiff versetzen D4 D5 nach E5 E6` / `Move ship D4 D5 to E5 E6`."""
    rest = _strip_words(rest, ("von", "from"))
    f = rest.folded
    cuts = list(_MOVE_TO.finditer(f))
    if len(cuts) != 1:
        raise NotationError.make("move_ship_form", column=t.col(lead))
    cut = cuts[0]
    source = _sea_path(rest.sub(0, cut.start()), ctx)
    target = _sea_path(rest.sub(cut.end()), ctx)
    return MoveShip(source, target)


def _gold(t: Text, m: re.Match[str], ctx: Context) -> GoldPreference:
    """`Gold: Erz, Holz` / `Gold: ore, lumber` / `Gold: E E G`."""
    if not ctx.board.has_areas:
        raise NotationError.make("gold_seafarers", column=t.col(0))
    rest = t.sub(m.start("rest"))
    if not rest.folded.strip():
        raise NotationError.make("gold_form", column=t.col(0))
    return GoldPreference(tuple(_resource_list(rest, ctx, max_total=MAX_COUNT)))


# -- setup placements --------------------------------------------------------------------------

_SETUP_HEAD = re.compile(rf"^ ?{_KW['settlement']}(?![a-z]) ?:? ?")
#: The road keyword inside a placement: the first one after the crossing.
_SETUP_ROAD = re.compile(rf"[ ,;]{_KW['road']}(?![a-z0-9])(?: ?:)? ?")
#: Seafarers: the ship keyword inside a placement (a ship instead of the road).
_SETUP_SHIP = re.compile(rf"[ ,;]{_KW['ship']}(?![a-z0-9])(?: ?:)? ?")
#: Words between a placement's crossing and its road: `mit Straße`, `with road`, `und`.
_SETUP_JOINERS = ("mit", "with", "und", "and", "plus", "dann", "then")


def _setup_line(t: Text, ctx: Context) -> SetupPlacement | tuple[SetupPlacement, ...]:
    """A placement, or ranked placements joined by `oder`. An option that names no place on
    this board is left out when another one is good (a game master places the good one); an
    ambiguous option refuses the line, since the player's first choice is not known."""
    t = _without_setup_label(t)
    parts = _split_or(_without_verb(t))
    if len(parts) == 1:
        return _setup(parts[0], ctx)
    good: list[SetupPlacement] = []
    first_error: OrderError | None = None
    for p in parts:
        try:
            good.append(_setup(_without_verb(p), ctx))
        except AmbiguousError:
            raise
        except OrderError as e:
            first_error = first_error or e
    if not good:
        assert first_error is not None
        raise first_error
    return tuple(good) if len(good) > 1 else good[0]


_SETTLEMENT_WORD = re.compile(rf"(?<![a-z]){_KW['settlement']}(?![a-z])")


def _without_setup_label(t: Text) -> Text:
    """`Erste Wahl: Siedlung …`, `First choice: settlement …` (the label dropped) and `Meine
    zweite Siedlung: 8E 10G 4E, Straße …` (read from the keyword on)."""
    f = t.folded
    colon = f.find(":")
    label = f[:colon]
    if colon <= 0 or colon > 60 or any(ch.isdigit() for ch in label) or _SETUP_HEAD.match(f):
        return t
    inside = _SETTLEMENT_WORD.search(label)
    if inside is not None:
        return t.sub(inside.start())
    after = len(f) - len(f[colon + 1 :].lstrip())
    if _SETUP_HEAD.match(f[after:]):
        return t.sub(after)
    return t


def _setup(t: Text, ctx: Context) -> SetupPlacement:
    f = t.folded
    head = _SETUP_HEAD.match(f)
    start = head.end() if head else len(f) - len(f.lstrip())
    road = _SETUP_ROAD.search(f, start)
    ship = _SETUP_SHIP.search(f, start) if ctx.board.has_areas else None
    if ship is not None and (road is None or ship.start() < road.start()):
        road = ship
    else:
        ship = None
    if road is None or (head is None and not f[start : start + 1].isalnum()):
        lead = len(f) - len(f.lstrip())
        raise NotationError.make("setup_form", column=t.col(lead))
    crossing = t.sub(start, road.start())
    cf = crossing.folded.rstrip().rstrip(",;")
    for word in _SETUP_JOINERS:
        if cf.endswith(" " + word):
            cf = cf[: -len(word) - 1].rstrip().rstrip(",;")
            break
    c = _crossing(crossing.sub(0, len(cf)), ctx)
    e = _path(t.sub(road.end()), ctx, land_only=ship is None)
    if c not in ctx.board.path_crossings[e]:
        # The board alone shows it: the road must start at the settlement.
        raise NotationError.make(
            "setup_road_apart",
            road=path_text(ctx.board, e, ctx.lang),
            settlement=crossing_text(ctx.board, c, ctx.lang),
            column=t.col(road.end()),
        )
    return SetupPlacement(c, e, ship is not None)
