"""One line of a mail → one typed item: an order, a preference, a header or a command.

Keywords are matched on folded text (case, umlauts, dashes forgiven), German and English alike;
resource letters are the game language's. Places are resolved against the board (`names.py`).
Errors carry the column in the line as the player wrote it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pbm.rules.board import Board
from pbm.rules.orders import (
    Alternatives,
    BuildAction,
    BuyCard,
    City,
    DiscardPreference,
    Knight,
    MaritimeTrade,
    Monopoly,
    Road,
    RoadBuilding,
    RobberOrder,
    Settlement,
    SetupPlacement,
    Timing,
    TradeOffer,
    YearOfPlenty,
)

from . import vocab
from .errors import NotationError, OrderError
from .names import crossing_from_names, resolve_hex, resolve_path, tokenize_hexes
from .text import fold


@dataclass(frozen=True)
class Password:
    secret: str


@dataclass(frozen=True)
class GameName:
    name: str


@dataclass(frozen=True)
class RoundGuard:
    round: int


@dataclass(frozen=True)
class Command:
    """A command that is not an order: join, help, status, resign, back, observe."""

    name: str


@dataclass(frozen=True)
class PlayerName:
    name: str


@dataclass(frozen=True)
class ColourPreference:
    colours: tuple[str, ...]


@dataclass(frozen=True)
class SubstituteHeader:
    pass


Item = (
    Password | GameName | RoundGuard | Command | PlayerName | ColourPreference
    | SubstituteHeader | RobberOrder | DiscardPreference | Knight | Monopoly | TradeOffer
    | BuildAction | Alternatives | SetupPlacement | tuple[SetupPlacement, ...]
)


@dataclass(frozen=True)
class Context:
    board: Board
    lang: str = "de"
    #: Seat colours (canonical German names), to turn colours into seats.
    colours: tuple[str, ...] = ("rot", "blau", "gelb", "weiss")
    phase: str = "round"


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
        b = (self._index[end - 1] + 1) if end is not None and end > start else (
            len(self.original) if end is None else a)
        return Text(self.original[a:b], self.offset + a)


_COMMANDS = [
    (re.compile(r"^(anmeldung|anmelden|join|sign ?up|register)\b"), "join"),
    (re.compile(r"^(hilfe|help|\?)$"), "help"),
    (re.compile(r"^(status|stand)$"), "status"),
    (re.compile(r"^(aufgeben|ich gebe auf|resign|i resign|give up)$"), "resign"),
    (re.compile(r"^((ich bin )?zurueck|(i'?m|i am) back|back)[.!]*$"), "back"),
    (re.compile(r"^(beobachten|zuschauen|observe|watch)$"), "observe"),
]

_KW = {
    "password": r"(kennwort|passwort|password|pw)",
    "game": r"(spiel|game)",
    "round": r"(runde|round)",
    "name": r"(name)",
    "colours": r"(farben|farbe|colou?rs?)",
    "substitute": r"(ersatzbau(ten)?|ersatz|substitutes?( builds?)?)",
    "knight": r"(ritter|knight)",
    "robber": r"(raeuber|rauber|robber|bandit)",
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
}


def _kw(name: str, rest: str = r"\s*:?\s*(?P<rest>.*)") -> re.Pattern[str]:
    return re.compile(rf"^{_KW[name]}(?![a-z]){rest}$")


_HEADER = {k: _kw(k, r"\s*[:=]\s*(?P<rest>.*)") for k in ("password", "game", "name", "colours")}
_PASSWORD_LOOSE = _kw("password", r"\s+(?P<rest>\S+)")
_ROUND = _kw("round", r"\s*:?\s*(?P<rest>\d+)\.?")
_SUBSTITUTE = _kw("substitute", r"\s*:?\s*(?P<rest>)")
_KNIGHT = _kw(
    "knight",
    r"\s*(?P<timing>(vor|nach)( dem| meinem)? wurf|(before|after)( the| my)? roll)?"
    r"\s*:?\s*(?P<rest>.*)",
)
_LINE_KINDS = [
    "robber", "discard", "trade", "maritime", "monopoly", "plenty", "road_building", "buy",
    "ship", "settlement", "city", "road",
]
_PATTERNS = {k: _kw(k) for k in _LINE_KINDS}
_PATTERNS["trade"] = _kw(
    "trade", r"\s+(?:(?:mit|with) )?(?P<partner>[a-z]+)\s*:?\s*(?P<rest>.*)")
_PATTERNS["road"] = _kw("road", r"\s*:?\s+(?P<rest>.*)")
_PATTERNS["buy"] = re.compile(rf"^{_KW['buy']}[.!]?(?P<rest>)$")
_OR = re.compile(r"\s+(oder|or)\s+")
_STEAL = re.compile(r"[,;]?\s*\b(raube|rauben|beraube|stehle|klaue|von|steal|steal from|rob)\b\s*")
_COUNT = re.compile(r"^(\d+)\s*(.+)$")
#: Words between list items that carry no meaning ("rot und gelb", "Holz and Erz").
_FILLERS = frozenset({"und", "and", "oder", "or", "dann", "then", "&", "+"})
#: No hand ever holds more of one resource than this; larger counts are typing errors.
MAX_COUNT = 99


def parse_line(text: str, ctx: Context) -> Item:
    """The item a (cleaned) line stands for; raises an OrderError subclass otherwise."""
    t = Text(text)
    f = t.folded.strip()
    if not f:
        raise NotationError.make("empty_line")
    for key in ("password", "game", "name", "colours"):
        m = _HEADER[key].match(f)
        if m:
            return _header(key, t, m)
    m = _PASSWORD_LOOSE.match(f)
    if m:
        return _header("password", t, m)
    # A full stop at the end of an order line is forgiven (not in passwords, read above).
    stripped = text.rstrip()
    if stripped.endswith(".") and not stripped.endswith(".."):
        t = Text(stripped[:-1])
        f = t.folded.strip()
    m = _ROUND.match(f)
    if m:
        return RoundGuard(int(m.group("rest")))
    if _SUBSTITUTE.match(f):
        return SubstituteHeader()
    for pattern, name in _COMMANDS:
        if pattern.match(f):
            return Command(name)
    m = _KNIGHT.match(f)
    if m:
        return _knight(t, m, ctx)
    m = _PATTERNS["robber"].match(f)
    if m:
        return _robber(t.sub(m.start("rest")), ctx)
    m = _PATTERNS["discard"].match(f)
    if m:
        return DiscardPreference(tuple(_resource_list(t.sub(m.start("rest")), ctx)))
    m = _PATTERNS["trade"].match(f)
    if m and not _PATTERNS["maritime"].match(f):
        return _trade(t, m, ctx)
    m = _PATTERNS["monopoly"].match(f)
    if m:
        rest = t.sub(m.start("rest"))
        return Monopoly(vocab.resource(rest.folded.strip(), ctx.lang, rest.col(0)))
    # Only build lines and setup placements have alternatives.
    parts = _split_or(t)
    if len(parts) > 1:
        if ctx.phase == "setup":
            return tuple(_setup(p, ctx) for p in parts)
        return Alternatives(tuple(_build_action(p, ctx) for p in parts))
    if ctx.phase == "setup":
        return _setup(t, ctx)
    return _build_action(t, ctx)


def _header(key: str, t: Text, m: re.Match[str]) -> Item:
    value = t.sub(m.start("rest")).original.strip()
    if not value:
        raise NotationError.make("value_expected", word=m.group(1),
                                 shown=t.sub(m.start(1), m.end(1)).original,
                                 column=t.col(m.end()))
    if key == "password":
        return Password(value)
    if key == "game":
        return GameName(value)
    if key == "name":
        return PlayerName(value)
    rest = t.sub(m.start("rest"))
    colours = []
    for w in re.finditer(r"[^\s,;/]+", rest.folded):
        if w.group(0) in _FILLERS:
            continue
        try:
            colours.append(vocab.colour(w.group(0)))
        except NotationError:
            shown = rest.sub(w.start(), w.end()).original
            raise NotationError.make("colour_expected", shown=shown,
                                     column=rest.col(w.start())) from None
    return ColourPreference(tuple(colours))


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


def _build_action(t: Text, ctx: Context) -> BuildAction:
    f = t.folded.strip()
    lead = len(t.folded) - len(t.folded.lstrip())
    for kind in ("maritime", "plenty", "road_building", "buy", "ship", "settlement", "city",
                 "road"):
        m = _PATTERNS[kind].match(f)
        if not m:
            continue
        rest = t.sub(lead + m.start("rest"))
        if kind == "maritime":
            return _maritime(rest, ctx)
        if kind == "plenty":
            a, b = _two_resources(rest, ctx)
            return YearOfPlenty(a, b)
        if kind == "road_building":
            return _road_building(rest, ctx)
        if kind == "buy":
            return BuyCard()
        if kind == "ship":
            raise NotationError.make("ships_seafarers", column=t.col(lead))
        if kind == "settlement":
            return Settlement(_crossing(_strip_words(rest, ("bei", "at", "auf", "on")), ctx))
        if kind == "city":
            place = _strip_words(rest, ("bei siedlung", "at settlement", "aus siedlung",
                                        "bei", "at", "auf", "on"))
            return City(_crossing(place, ctx))
        return Road(_path(rest, ctx))
    first = re.match(r"\S+", t.folded[lead:])
    word = t.sub(lead, lead + first.end()).original if first else f
    raise NotationError.make("order_expected", word=word, column=t.col(lead))


def _strip_words(t: Text, words: tuple[str, ...]) -> Text:
    f = t.folded
    lead = len(f) - len(f.lstrip())
    for w in words:
        if f[lead:].startswith(w + " "):
            return t.sub(lead + len(w) + 1)
    return t


def _without_echo(t: Text) -> Text:
    """Drop a bracketed second name (the canonical echo's token form) after checking it."""
    m = re.search(r"\((?P<inner>[^)]*)\)\s*$", t.folded)
    if not m:
        return t
    return t.sub(0, m.start())


def _crossing(t: Text, ctx: Context) -> int:
    main = _without_echo(t)
    c = crossing_from_names(ctx.board, tokenize_hexes(main.original, main.offset), ctx.lang)
    _check_echo(t, main, ctx, lambda x: crossing_from_names(
        ctx.board, tokenize_hexes(x.original, x.offset), ctx.lang), c)
    return c


def _path(t: Text, ctx: Context) -> int:
    main = _without_echo(t)
    e = _resolve_path(main, ctx)
    _check_echo(t, main, ctx, lambda x: _resolve_path(x, ctx), e)
    return e


def _resolve_path(t: Text, ctx: Context) -> int:
    try:
        return resolve_path(ctx.board, t.original, ctx.lang)
    except OrderError as e:
        if e.column is not None:
            e.column += t.offset
        raise


def _check_echo(t: Text, main: Text, ctx: Context, resolve: object, expected: int) -> None:
    """A bracketed form must name the same place as the main form, else it is an error."""
    if main is t:
        return
    inner_start = len(main.folded) + t.folded[len(main.folded):].index("(") + 1
    inner = t.sub(inner_start, len(t.folded.rstrip()) - 1)
    assert callable(resolve)
    try:
        other = resolve(inner)
    except OrderError:
        raise NotationError.make("brackets_differ", column=t.col(inner_start)) from None
    if other != expected:
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


def _robber(t: Text, ctx: Context) -> RobberOrder:
    f = t.folded
    m = _STEAL.search(f)
    place = t.sub(0, m.start()) if m else t
    place = _strip_words(place, ("auf", "nach", "on", "to"))
    place_f = place.folded.strip().rstrip(",;")
    if not place_f:
        raise NotationError.make("robber_hex_expected", column=t.col(0))
    h = _hex(place.sub(0, len(place.folded.rstrip().rstrip(",;"))), ctx)
    victims: list[int] = []
    if m:
        pos = m.end()
        for w in re.finditer(r"[a-z]+", f[pos:]):
            if w.group(0) not in _FILLERS:
                victims.append(_seat(t, pos + w.start(), pos + w.end(), ctx))
    return RobberOrder(h, tuple(victims))


def _knight(t: Text, m: re.Match[str], ctx: Context) -> Knight:
    timing = m.group("timing")
    if not timing:
        raise NotationError.make("knight_timing", column=t.col(m.end(1)))
    rest = t.sub(m.start("rest"))
    rm = _PATTERNS["robber"].match(rest.folded.strip())
    if rm:
        lead = len(rest.folded) - len(rest.folded.lstrip())
        rest = rest.sub(lead + rm.start("rest"))
    when = Timing.BEFORE_ROLL if timing.startswith(("vor", "before")) else Timing.AFTER_ROLL
    return Knight(when, _robber(rest, ctx))


def _resource_list(t: Text, ctx: Context, allow_empty: bool = False) -> list[int]:
    """`W W G`, `2W G`, `2 W, 1 G`, `Holz und Erz`: resources, one entry per card."""
    out: list[int] = []
    count: int | None = None
    for w in re.finditer(r"[^\s,;]+", t.folded):
        word = w.group(0)
        if word in _FILLERS:
            continue
        if allow_empty and word in ("nichts", "nothing", "-") and not out:
            continue
        cm = _COUNT.match(word)
        if word.isdigit():
            count, word = int(word), ""
        elif cm:
            count, word = int(cm.group(1)), cm.group(2)
        if count is not None and count > MAX_COUNT:
            raise NotationError.make("count_too_high", count=count, column=t.col(w.start()))
        if not word:
            continue  # "2 H": the resource follows as the next word
        try:
            r = vocab.resource(word, ctx.lang)
        except NotationError:
            shown = t.sub(w.start(), w.end()).original
            raise NotationError.make(
                "resource_expected", letters="/".join(vocab.letters(ctx.lang)), shown=shown,
                column=t.col(w.start())) from None
        out.extend([r] * (1 if count is None else count))
        count = None
    if count is not None:
        raise NotationError.make("resource_after_number", column=t.col(0))
    if not out and not allow_empty:
        raise NotationError.make("resources_expected", column=t.col(0))
    return out


def _two_resources(t: Text, ctx: Context) -> tuple[int, int]:
    rs = _resource_list(t, ctx)
    if len(rs) != 2:
        raise NotationError.make("two_resources", count=len(rs), column=t.col(0))
    return rs[0], rs[1]


def _counts(t: Text, ctx: Context) -> tuple[int, int, int, int, int]:
    out = [0, 0, 0, 0, 0]
    for r in _resource_list(t, ctx, allow_empty=True):
        out[r] += 1
    return (out[0], out[1], out[2], out[3], out[4])


_GIVE = re.compile(r"\b(gebe|gib|geben|biete|give|offer|gives)\b\s*:?\s*")
_GET = re.compile(r"[,;]?\s*\b(bekomme|erhalte|kriege|will|get|receive|want|for|fuer|gegen)\b"
                  r"\s*:?\s*")


def _trade(t: Text, m: re.Match[str], ctx: Context) -> TradeOffer:
    partner = _seat(t, m.start("partner"), m.end("partner"), ctx)
    rest = t.sub(m.start("rest"))
    f = rest.folded
    g = _GIVE.search(f)
    r = _GET.search(f, g.end() if g else 0)
    if not g or not r:
        raise NotationError.make("trade_form", column=rest.col(0))
    give = _counts(rest.sub(g.end(), r.start()), ctx)
    get = _counts(rest.sub(r.end()), ctx)
    return TradeOffer(partner, give, get)


_MARITIME_BODY = re.compile(
    r"^(?P<give>\d*\s*[a-z]+)\s*(gegen|fuer|for|zu|in|->|=>|>|-)\s*(?P<get>\d*\s*[a-z]+)$")


def _maritime(t: Text, ctx: Context) -> MaritimeTrade:
    f = t.folded.strip()
    lead = len(t.folded) - len(t.folded.lstrip())
    m = _MARITIME_BODY.match(f)
    if not m:
        raise NotationError.make("maritime_form", column=t.col(lead))

    def one(group: str) -> tuple[int, int]:
        text = m.group(group).replace(" ", "")
        cm = _COUNT.match(text)
        n, word = (int(cm.group(1)), cm.group(2)) if cm else (1, text)
        return vocab.resource(word, ctx.lang, t.col(lead + m.start(group))), n

    give, give_n = one("give")
    get, get_n = one("get")
    if max(give_n, get_n) > MAX_COUNT:
        raise NotationError.make("maritime_too_many", max=MAX_COUNT, column=t.col(lead))
    if give_n < 1 or get_n < 1:
        raise NotationError.make("maritime_at_least_one", column=t.col(lead))
    return MaritimeTrade(give, give_n, get, get_n)


def _road_building(t: Text, ctx: Context) -> RoadBuilding:
    f = t.folded
    spans, pos = [], 0
    for sep in re.finditer(r"[,;]|\bund\b|\band\b", f):
        spans.append((pos, sep.start()))
        pos = sep.end()
    spans.append((pos, len(f)))
    paths = [_path(t.sub(a, b), ctx) for a, b in spans if f[a:b].strip()]
    if not 1 <= len(paths) <= 2:
        raise NotationError.make("road_building_paths", column=t.col(0))
    return RoadBuilding(paths[0], paths[1] if len(paths) > 1 else None)


_SETUP_HEAD = re.compile(rf"^ ?{_KW['settlement']}(?![a-z]) ?:? ?")
#: The road keyword inside a placement: the first one after the crossing.
_SETUP_ROAD = re.compile(rf"[ ,;]{_KW['road']}(?![a-z0-9])(?: ?:)? ?")


def _setup(t: Text, ctx: Context) -> SetupPlacement:
    f = t.folded
    head = _SETUP_HEAD.match(f)
    road = _SETUP_ROAD.search(f, head.end()) if head else None
    if not head or not road:
        lead = len(f) - len(f.lstrip())
        raise NotationError.make("setup_form", column=t.col(lead))
    c = _crossing(t.sub(head.end(), road.start()), ctx)
    e = _path(t.sub(road.end()), ctx)
    return SetupPlacement(c, e)
