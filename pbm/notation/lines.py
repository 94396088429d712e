"""One line of a mail → one typed item: an order, a preference, a header or a command.

Keywords are matched on folded text (case, umlauts, dashes forgiven), German and English alike;
resource letters are the game language's. Places are resolved against the board (`names.py`).
Errors carry the column in the line as the player wrote it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
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
from .limits import MAX_DIGITS, MAX_LINE_CHARS
from .names import crossing_from_names, resolve_hex, resolve_path, tokenize_hexes
from .text import fold


@dataclass(frozen=True)
class Password:
    secret: str


@dataclass(frozen=True)
class Confirmation:
    """`Bestätigen: <code>` / `Confirm: <code>`: the code of a confirmation mail, sent back."""

    token: str


@dataclass(frozen=True)
class GameName:
    name: str


@dataclass(frozen=True)
class RoundGuard:
    round: int


@dataclass(frozen=True)
class Command:
    """A command that is not an order: join, help, status, resign, back, observe,
    unobserve."""

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
    Password
    | Confirmation
    | GameName
    | RoundGuard
    | Command
    | PlayerName
    | ColourPreference
    | SubstituteHeader
    | RobberOrder
    | DiscardPreference
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


# Every pattern below runs in time linear in the line (tests/test_notation_linear.py feeds each
# 100,000 characters made to hurt): a quantifier that can run far is possessive (`*+`, `++`,
# `?+`) or the last thing matched, so a failed match never tries again with fewer characters;
# and a pattern searched through the line does not start with such a quantifier (see `_OR`,
# `_keyword_span`), or each start would scan the same run again.
_COMMANDS = [
    (re.compile(r"^(anmeldung|anmelden|join|sign ?up|register)\b"), "join"),
    (re.compile(r"^(hilfe|help|\?)$"), "help"),
    (re.compile(r"^(status|stand)$"), "status"),
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


#: After a keyword: blanks, a colon, blanks, the rest. Possessive, since `\s*:?\s*` can split a
#: run of blanks between its two `\s*` in as many ways as the run is long.
_REST = r"\s*+:?+\s*+(?P<rest>.*)"


def _kw(name: str, rest: str = _REST) -> re.Pattern[str]:
    return re.compile(rf"^{_KW[name]}(?![a-z]){rest}$")


_HEADER = {k: _kw(k, r"\s*+[:=]\s*+(?P<rest>.*)") for k in ("password", "game", "name", "colours")}
_PASSWORD_LOOSE = _kw("password", r"\s++(?P<rest>\S++)")
_CONFIRM = _kw("confirm", r"\s*+[:=]?+\s*+(?P<rest>.*)")
#: A confirmation code: the service's codes are letters, digits and dashes.
_TOKEN = re.compile(r"[A-Za-z0-9-]+")
MAX_TOKEN = 40
#: The digits are taken however many, and bounded in `_round` (for a clear refusal).
_ROUND = _kw("round", r"\s*+:?+\s*+(?P<rest>\d++)\.?")
_SUBSTITUTE = _kw("substitute", r"\s*+:?+\s*+(?P<rest>)")
_KNIGHT = _kw(
    "knight",
    r"\s*+(?P<timing>(vor|nach)( dem| meinem)? wurf|(before|after)( the| my)? roll)?" + _REST,
)
_LINE_KINDS = [
    "robber",
    "discard",
    "trade",
    "maritime",
    "monopoly",
    "plenty",
    "road_building",
    "buy",
    "ship",
    "settlement",
    "city",
    "road",
]
_PATTERNS = {k: _kw(k) for k in _LINE_KINDS}
_PATTERNS["trade"] = _kw("trade", r"\s++(?:(?:mit|with) )?(?P<partner>[a-z]++)" + _REST)
# Was `\s*:?\s+`, which needs the last blank for its `\s+`: "blanks, a colon, at least one
# blank" or "at least one blank", each possessive.
_PATTERNS["road"] = _kw("road", r"(?:\s*+:\s++|\s++)(?P<rest>.*)")
_PATTERNS["buy"] = re.compile(rf"^{_KW['buy']}[.!]?(?P<rest>)$")
# Only the first blank of a run may start a match: from each further one `\s+` would scan the
# run again (quadratic in its length). The first succeeds whenever a later one would.
_OR = re.compile(r"(?<!\s)\s++(oder|or)\s++")
#: The word before the victims; `[,;]?\s*` before it is added by `_keyword_span`. "steal from"
#: before "steal", or "from" would be read as a colour.
_STEAL = re.compile(r"\b(raube|rauben|beraube|stehle|klaue|von|steal from|steal|rob)\b\s*+")
#: Words between list items that carry no meaning ("rot und gelb", "Holz and Erz").
_FILLERS = frozenset({"und", "and", "oder", "or", "dann", "then", "&", "+"})
#: No hand ever holds more of one resource than this; larger counts are typing errors.
MAX_COUNT = 99


def parse_line(text: str, ctx: Context) -> Item:
    """The item a (cleaned) line stands for; raises an OrderError subclass otherwise."""
    if len(text) > MAX_LINE_CHARS:
        # Refused unread: no order is that long, and nothing of it is looked at.
        raise NotationError.make("line_too_long", length=len(text), max=MAX_LINE_CHARS)
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
    m = _CONFIRM.match(f)
    if m:
        return _confirmation(t, m)
    m = _ROUND.match(f)
    if m:
        return _round(t, m)
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
        return DiscardPreference(
            tuple(_resource_list(t.sub(m.start("rest")), ctx, max_total=MAX_COUNT))
        )
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


def _value_expected(t: Text, m: re.Match[str]) -> NotationError:
    return NotationError.make(
        "value_expected",
        word=m.group(1),
        shown=t.sub(m.start(1), m.end(1)).original,
        column=t.col(m.end()),
    )


def _first_token(value: str) -> str:
    """The first word of a value, up to a blank or a comma: a password or a code never holds
    either, and what follows ("(aus der Mail)", ", Runde 4") is the player's comment."""
    words = value.replace(",", " ").split(maxsplit=1)
    return words[0] if words else ""


def _header(key: str, t: Text, m: re.Match[str]) -> Item:
    value = t.sub(m.start("rest")).original.strip()
    if key == "password":
        value = _first_token(value)
    if not value:
        raise _value_expected(t, m)
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


def _round(t: Text, m: re.Match[str]) -> RoundGuard:
    n = _number(m.group("rest"))
    if n is None:
        raise NotationError.make(
            "number_too_long",
            digits=len(_significant(m.group("rest"))),
            max=MAX_DIGITS,
            column=t.col(m.start("rest")),
        )
    return RoundGuard(n)


def _split_count(word: str) -> tuple[str, str]:
    """A word's leading decimal digits and the rest: `12W` → ("12", "w")."""
    end = 0
    while end < len(word) and word[end].isdecimal():
        end += 1
    return word[:end], word[end:]


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
    for kind in (
        "maritime",
        "plenty",
        "road_building",
        "buy",
        "ship",
        "settlement",
        "city",
        "road",
    ):
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
            place = _strip_words(
                rest, ("bei siedlung", "at settlement", "aus siedlung", "bei", "at", "auf", "on")
            )
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
    inner_start = len(main.folded) + t.folded[len(main.folded) :].index("(") + 1
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


def _robber(t: Text, ctx: Context) -> RobberOrder:
    f = t.folded
    m = _keyword_span(_STEAL, f)
    place = t.sub(0, m[0]) if m else t
    place = _strip_words(place, ("auf", "nach", "on", "to"))
    place_f = place.folded.strip().rstrip(",;")
    if not place_f:
        raise NotationError.make("robber_hex_expected", column=t.col(0))
    h = _hex(place.sub(0, len(place.folded.rstrip().rstrip(",;"))), ctx)
    victims: list[int] = []
    if m:
        pos = m[1]
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


def _resource_list(
    t: Text, ctx: Context, allow_empty: bool = False, max_total: int | None = None
) -> list[int]:
    """`W W G`, `2W G`, `2 W, 1 G`, `Holz und Erz`: resources, one entry per card.

    `max_total`: the most cards the list may hold. A discard list is echoed card by card, so
    without it one line of `99W 99W …` would be echoed as some 50,000 characters.
    """
    out: list[int] = []
    count: int | None = None
    for w in re.finditer(r"[^\s,;]+", t.folded):
        word = w.group(0)
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
            r = vocab.resource(word, ctx.lang)
        except NotationError:
            shown = t.sub(w.start(), w.end()).original
            raise NotationError.make(
                "resource_expected",
                letters="/".join(vocab.letters(ctx.lang)),
                shown=shown,
                column=t.col(w.start()),
            ) from None
        out.extend([r] * (1 if count is None else count))
        count = None
        if max_total is not None and len(out) > max_total:
            raise NotationError.make(
                "too_many_cards", count=len(out), max=max_total, column=t.col(w.start())
            )
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


_GIVE = re.compile(r"\b(gebe|gib|geben|biete|give|offer|gives)\b\s*+:?+\s*+")
#: After `[,;]?\s*`, added by `_keyword_span` (see there).
_GET = re.compile(
    r"\b(bekomme|erhalte|kriege|will|get|receive|want|for|fuer|gegen)\b"
    r"\s*+:?+\s*+"
)


def _trade(t: Text, m: re.Match[str], ctx: Context) -> TradeOffer:
    partner = _seat(t, m.start("partner"), m.end("partner"), ctx)
    rest = t.sub(m.start("rest"))
    f = rest.folded
    g = _GIVE.search(f)
    r = _keyword_span(_GET, f, g.end() if g else 0)
    if not g or not r:
        raise NotationError.make("trade_form", column=rest.col(0))
    give = _counts(rest.sub(g.end(), r[0]), ctx)
    get = _counts(rest.sub(r[1]), ctx)
    return TradeOffer(partner, give, get)


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


def _maritime(t: Text, ctx: Context) -> MaritimeTrade:
    f = t.folded.strip()
    lead = len(t.folded) - len(t.folded.lstrip())
    split = _maritime_split(f)
    if split is None:
        raise NotationError.make("maritime_form", column=t.col(lead))

    def one(start: int, end: int) -> tuple[int, int]:
        digits, word = _split_count("".join(f[start:end].split()))
        # A count beyond MAX_DIGITS digits is too many, like any above MAX_COUNT.
        n = _number(digits) if digits else 1
        if n is None:
            n = MAX_COUNT + 1
        return vocab.resource(word, ctx.lang, t.col(lead + start)), n

    give, give_n = one(0, split[0])
    get, get_n = one(split[1], len(f))
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
