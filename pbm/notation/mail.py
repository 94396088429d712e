"""A whole mail → line results and the orders they add up to.

One bad line never hides the others: every line gets its own result, and the orders are built
from the good lines only. Build lines after `Ersatzbau:` (or a heading of its family) form the
substitute block; build lines under a heading that is not understood are refused, never taken
as main builds. At most `MAX_MAIL_LINES` lines are read (see `limits.py`).

Each line is also read with the other language's resource letters: a line that fits only those
is refused with its reading in the game's letters to copy, and when a mail shows such letters,
a line that reads differently with them (`L`: Lehm or Lumber) is refused too.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field, replace
from datetime import date

from pbm.rules.orders import (
    Alternatives,
    BuildAction,
    BuildersHut,
    BuildLine,
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
    SetupOrders,
    SetupPlacement,
    Ship,
    SubstituteBlock,
    TradeOffer,
    TurnOrders,
    Workshop,
    YearOfPlenty,
)

from . import vocab
from .clean import iter_clean_lines
from .errors import NotationError, OrderError
from .format import format_item, word
from .limits import MAX_LINE_CHARS, MAX_MAIL_LINES
from .lines import (
    Away,
    Builds,
    ColourPreference,
    Command,
    Confirmation,
    Context,
    GameName,
    Heading,
    Item,
    OrElse,
    Pass,
    Password,
    PlayerName,
    Press,
    RoundGuard,
    SubstituteHeader,
    TimeZone,
    parse_line,
    scan_line,
    starts_a_message,
)
from .press import message_text

_BUILD_TYPES = (
    Settlement,
    City,
    Road,
    Ship,
    MoveShip,
    BuyCard,
    MaritimeTrade,
    YearOfPlenty,
    RoadBuilding,
    Workshop,
    Make,
    Castle,
    Residence,
    BuildersHut,
    HarbourPrivilege,
    Feast,
    Alternatives,
    Builds,
    OrElse,
)
#: Items that are no orders: a mail of only these replaces no earlier orders.
_NOT_ORDERS = (
    Password,
    Press,
    Away,
    TimeZone,
    Confirmation,
    GameName,
    RoundGuard,
    Command,
    PlayerName,
    ColourPreference,
    SubstituteHeader,
    Heading,
)
#: Orders a pass contradicts (a robber order or a discard list may stand beside it).
_ACTING = (*_BUILD_TYPES, TradeOffer, Knight, Monopoly)


@dataclass
class LineResult:
    line: int
    text: str
    item: Item | None = None
    canonical: str | None = None
    error: OrderError | None = None
    #: True for build lines of the `Ersatzbau` block.
    substitute: bool = False
    #: The block the line stands in: "main", "substitute" (the `Ersatzbau` block: its heading
    #: and its build lines) or "setup" (every line of a setup mail).
    block: str = "main"

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_json(self, lang: str = "en") -> dict[str, object]:
        """The line for `pbm orders check --json`: `error` in the game's language `lang`,
        `error_en` in English and `key` the error's stable key (for scripts); `block` the block
        the line stands in; `password` whether the line gave the password, whose text and
        canonical form then show `****`, never the password."""
        password = self.ok and isinstance(self.item, Password)
        text = self.text
        if password and isinstance(self.item, Password):
            text = text.replace(self.item.secret, "****")
        return {
            "line": self.line,
            "text": text,
            "ok": self.ok,
            "canonical": self.canonical,
            "block": self.block,
            "password": password,
            "error": self.error.localized(lang) if self.error else None,
            "error_en": str(self.error.message) if self.error else None,
            "key": self.error.key if self.error else None,
            "column": self.error.column if self.error else None,
            "candidates": list(self.error.candidates) if self.error else [],
        }


@dataclass
class ParsedMail:
    lines: list[LineResult] = field(default_factory=list)
    password: str | None = None
    #: The code of a `Bestätigen:` / `Confirm:` line.
    confirm: str | None = None
    game: str | None = None
    round: int | None = None
    commands: list[str] = field(default_factory=list)
    #: What `Hilfe Schiffe` asks help on (folded; "" for the overview): the first such line's.
    help_topic: str = ""
    name: str | None = None
    colours: tuple[str, ...] = ()
    #: A message to a colour, to all or to the GM (issue 15), and its text: the rest of the
    #: mail after the `Nachricht an …` line, which is not read as orders.
    press: Press | None = None
    press_text: str = ""
    #: `Urlaub bis …`: the last day of the absence.
    away: date | None = None
    #: `Zeitzone: …`: the IANA name.
    timezone: str | None = None
    #: The reading stopped at a forwarded mail, which is never read (`clean.iter_clean_lines`):
    #: the answer says so, as orders may have stood in it.
    forwarded: bool = False

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.lines)

    def items(self) -> list[LineResult]:
        return [r for r in self.lines if r.ok and r.item is not None]

    def has_orders(self) -> bool:
        """Whether the mail holds an order: also `Ich passe`, an explicit empty order set."""
        return any(not isinstance(r.item, _NOT_ORDERS) for r in self.items())

    def turn_orders(self) -> TurnOrders:
        """The round orders of the good lines (later robber/discard/card lines were refused)."""
        robbers: list[RobberOrder] = []
        discard: DiscardPreference | None = None
        gold: GoldPreference | None = None
        knight: Knight | None = None
        monopoly: Monopoly | None = None
        trades: list[TradeOffer] = []
        builds: list[BuildLine] = []
        subs: list[BuildLine] = []
        for r in self.items():
            it = r.item
            if isinstance(it, RobberOrder):
                robbers.append(it)  # the robber's and the pirate's, in the mail's order
            elif isinstance(it, DiscardPreference):
                discard = it
            elif isinstance(it, GoldPreference):
                gold = it
            elif isinstance(it, Knight):
                knight = it
            elif isinstance(it, Monopoly):
                monopoly = it
            elif isinstance(it, TradeOffer):
                trades.append(it)
            elif isinstance(it, Builds):
                (subs if r.substitute else builds).extend(it.actions)
            elif isinstance(it, _BUILD_TYPES) and not isinstance(it, OrElse):
                (subs if r.substitute else builds).append(it)
        return TurnOrders(
            robbers[0] if robbers else None,
            discard,
            knight,
            monopoly,
            tuple(trades),
            tuple(builds),
            SubstituteBlock(tuple(subs)),
            gold.resources if gold is not None else (),
            robbers[1] if len(robbers) > 1 else None,
        )

    def setup_orders(self) -> SetupOrders:
        placements: list[SetupPlacement] = []
        for r in self.items():
            if isinstance(r.item, SetupPlacement):
                placements.append(r.item)
            elif isinstance(r.item, tuple):
                placements.extend(r.item)
        return SetupOrders(tuple(placements))


#: One of each per mail; the key of the message refusing a second one.
_SINGLE: dict[object, str] = {
    RobberOrder: "second_robber",
    "pirate": "second_pirate",
    DiscardPreference: "second_discard",
    GoldPreference: "second_gold",
    Knight: "second_knight",
    Monopoly: "second_monopoly",
}


def _shown(text: str) -> str:
    """A line as its result shows it: an over-long one cut at the cap, so that the answer to a
    mail never repeats a huge line."""
    return text if len(text) <= MAX_LINE_CHARS else text[:MAX_LINE_CHARS] + "…"


@dataclass
class _Read:
    """A line as read in the game's language, and with the other language's letters."""

    result: LineResult
    item: Item | None
    error: OrderError | None
    #: The line read with the other language's resource letters, when that reading is another
    #: order than the game's (None: the same, or nothing). Read at once for a refused line
    #: only: an accepted line needs it only in a mail with a refused line that fits the other
    #: letters (`_other_letters`), which most mails are not, and a second reading of every
    #: line was some 40 % of a mail's parsing.
    other: Item | None = None
    #: The line as read (cleaned), for that later reading.
    line: str = ""


def _other_context(ctx: Context) -> Context:
    """The game read with the other language's resource letters (H L W G E ⇄ L B W G O)."""
    return replace(ctx, lang="de" if vocab.letters(ctx.lang) == vocab.letters("en") else "en")


def _read_other(
    line: str, item: Item | None, error: OrderError | None, other: Context
) -> Item | None:
    if isinstance(item, (*_NOT_ORDERS, Pass)) or (
        error is not None and error.key == "line_too_long"
    ):
        return None
    try:
        alt = parse_line(line, other)
    except OrderError:
        return None
    return None if alt == item or isinstance(alt, (*_NOT_ORDERS, Pass)) else alt


def parse_mail(body: str, ctx: Context, subject: str | None = None) -> ParsedMail:
    """Parse a mail body (and a subject that may hold a command) line by line.

    Never raises: every problem is a line result. Reads at most `MAX_MAIL_LINES` lines; when
    there are more, one further result refuses the rest, which is not looked at.
    """
    out = ParsedMail()
    if subject:
        _subject(subject, ctx, out)
    other = _other_context(ctx)
    read: list[_Read] = []
    stops: list[str] = []
    for count, (number, line) in enumerate(iter_clean_lines(body, stops)):
        text = _shown(line)
        result = LineResult(number, text)
        if count == MAX_MAIL_LINES:
            rest = NotationError.make("rest_not_read", max=MAX_MAIL_LINES)
            read.append(_Read(result, None, rest))
            break
        item: Item | None = None
        error: OrderError | None = None
        try:
            item = parse_line(line, ctx)
        except OrderError as e:
            error = e
        alt = _read_other(line, item, error, other) if error is not None else None
        read.append(_Read(result, item, error, alt, line))
        if isinstance(item, Press):
            # The rest of the mail is the message: not orders, not read as such.
            out.press_text = message_text(item.first, body, number)
            break
        if error is not None and starts_a_message(line):
            # A message to someone not understood (`Nachricht an Carol: …`): refused, and the
            # rest is still the message, never orders.
            break
    out.forwarded = "forwarded" in stops
    _other_letters(read, ctx, other)
    _assemble(read, ctx, out)
    return out


def _only_other_letters(game_lang: str, suggestion: str, kron: bool = False) -> NotationError:
    """A line that reads only with the other language's resource letters (Kronlande's ten
    letters in a Kronlande game)."""
    english_game = vocab.letters(game_lang) == vocab.letters("en")
    if kron and english_game:
        return NotationError.make("german_letters_kron", suggestion=suggestion)
    if kron:
        return NotationError.make("english_letters_kron", suggestion=suggestion)
    if english_game:
        return NotationError.make("german_letters", suggestion=suggestion)
    return NotationError.make("english_letters", suggestion=suggestion)


def _other_letters_elsewhere(game_lang: str, mine: str, theirs: str) -> NotationError:
    """A line that reads differently with the other language's letters, in a mail that uses
    them elsewhere."""
    if vocab.letters(game_lang) == vocab.letters("en"):
        return NotationError.make("german_letters_elsewhere", mine=mine, theirs=theirs)
    return NotationError.make("english_letters_elsewhere", mine=mine, theirs=theirs)


#: Refusals of a line read in the game's letters, for what it says: never put down to the other
#: language's letters (`Seehandel 4St gegen 1W` in a German game names Stoff, which no bank
#: takes; with the English letters it would be another order, 4 Stein).
_READ_IN_THE_GAMES_LETTERS = frozenset(
    [
        "rest_not_read",
        "goods_not_with_bank",
        "monopoly_no_goods",
        "make_goods",
        # Asked back with the lines to copy already (`lines.parse_line`).
        "letters_ask_two",
        "letters_ask_one",
        "good_at_bank_ask",
        "good_in_monopoly_ask",
    ]
)


def _other_letters(read: list[_Read], ctx: Context, other: Context) -> None:
    """A line that fits only the other language's letters is refused with its reading to copy;
    if the mail has such a line, a line that reads differently with those letters is refused
    too (the player may mean either). `other`: the game read with those letters."""
    foreign = False
    for r in read:
        if (
            r.error is not None
            and r.other is not None
            and r.error.key not in _READ_IN_THE_GAMES_LETTERS
        ):
            suggestion = format_item(r.other, ctx)
            r.error = _only_other_letters(ctx.lang, suggestion, ctx.kron)
            foreign = True
    if not foreign:
        return
    for r in read:
        if r.error is None and r.item is not None:
            r.other = _read_other(r.line, r.item, None, other)
        if r.error is None and r.other is not None and r.item is not None:
            r.error = _other_letters_elsewhere(
                ctx.lang,
                format_item(r.item, ctx),
                format_item(r.other, ctx),
            )
            r.item = None


def _options(line: BuildAction | Alternatives) -> tuple[BuildAction, ...]:
    return line.options if isinstance(line, Alternatives) else (line,)


def _assemble(read: list[_Read], ctx: Context, out: ParsedMail) -> None:
    """The results in order: blocks, single orders, alternatives on their own line, passes."""
    in_substitutes = False
    #: The heading not understood that the following build lines stand under.
    unknown: LineResult | None = None
    seen: set[object] = set()
    #: The build line an `oder …` line adds an option to.
    anchor: LineResult | None = None
    setup = ctx.phase == "setup"
    for r in read:
        result, item = r.result, r.item
        error = r.error
        # Robber, discard, trade and card lines keep their meaning wherever they stand.
        result.block = (
            "setup"
            if setup
            else (
                "substitute"
                if in_substitutes and (item is None or isinstance(item, _BUILD_TYPES))
                else "main"
            )
        )
        if error is not None:
            result.error = error.at(result.line, result.text)
            out.lines.append(result)
            if error.key == "unknown_heading":
                unknown, in_substitutes = result, False
                result.block = "main"
            anchor = None
            continue
        assert item is not None
        if isinstance(item, Heading):
            # Only announces what follows: not read. It ends a substitute block (`Hauptzüge:`
            # after `Ersatzbau:`) and the reach of a heading not understood.
            in_substitutes, unknown, anchor = False, None, None
            continue
        if isinstance(item, SubstituteHeader):
            in_substitutes, unknown = True, None
            result.block = "setup" if setup else "substitute"
            if item.build is not None:
                # `Ersatz: Entwicklungskarte`: the heading, and the first substitute build.
                item_built: Item = item.build
                out.lines.append(result)
                _accept(result, item_built, ctx, out, seen, substitute=not setup)
                if result.ok:
                    result.canonical = f"{word('substitute', ctx.lang)} {result.canonical}"
                anchor = result if result.ok else None
                continue
            out.lines.append(result)
            _accept(result, item, ctx, out, seen, substitute=False)
            anchor = None
            continue
        out.lines.append(result)
        is_build = isinstance(item, _BUILD_TYPES)
        if is_build and unknown is not None and not setup:
            result.error = NotationError.make(
                "under_unknown_heading", line=unknown.line, shown=unknown.text
            ).at(result.line, result.text)
            anchor = None
            continue
        if isinstance(item, OrElse):
            _or_else(result, item, anchor, ctx)
            continue
        _accept(result, item, ctx, out, seen, substitute=in_substitutes and is_build)
        anchor = result if result.ok and isinstance(item, (*_BUILD_TYPES,)) else None
        if isinstance(item, Builds):
            anchor = None
    _passes(out)


def _accept(
    result: LineResult,
    item: Item,
    ctx: Context,
    out: ParsedMail,
    seen: set[object],
    substitute: bool,
) -> None:
    # The robber's and the pirate's orders are one of each (Seafarers: in priority order).
    kind: object = "pirate" if isinstance(item, RobberOrder) and item.pirate else type(item)
    if kind in _SINGLE and kind in seen:
        result.error = NotationError.make(_SINGLE[kind]).at(result.line, result.text)
        return
    seen.add(kind)
    if ctx.phase == "setup" and isinstance(item, (*_BUILD_TYPES, Pass)):
        result.error = NotationError.make("setup_placements_only").at(result.line, result.text)
        return
    result.item = item
    result.substitute = substitute
    result.canonical = format_item(item, ctx)
    if isinstance(item, Password):
        out.password = item.secret
    elif isinstance(item, Confirmation):
        out.confirm = item.token
    elif isinstance(item, GameName):
        out.game = item.name
    elif isinstance(item, RoundGuard):
        out.round = item.round
    elif isinstance(item, Command):
        _take_command(item, out)
    elif isinstance(item, PlayerName):
        out.name = item.name
    elif isinstance(item, Press):
        out.press = item
    elif isinstance(item, Away):
        out.away = item.until
    elif isinstance(item, TimeZone):
        out.timezone = item.name
    elif isinstance(item, ColourPreference):
        out.colours = item.colours


def _or_else(result: LineResult, item: OrElse, anchor: LineResult | None, ctx: Context) -> None:
    """`oder …` on a line of its own: one more option of the build line just above (which then
    stands for all of them); refused without one."""
    if ctx.phase == "setup":
        result.error = NotationError.make("setup_placements_only").at(result.line, result.text)
        return
    target = anchor.item if anchor is not None else None
    if anchor is None or not isinstance(target, (*BUILD_ACTIONS, Alternatives)):
        result.error = NotationError.make("or_else_without_build").at(result.line, result.text)
        return
    anchor.item = Alternatives((*_options(target), *_options(item.option)))
    result.block = anchor.block
    result.canonical = format_item(item, ctx)


#: The single builds an `oder …` line may add an option to.
BUILD_ACTIONS = (
    Settlement,
    City,
    Road,
    BuyCard,
    MaritimeTrade,
    YearOfPlenty,
    RoadBuilding,
    Workshop,
    Make,
    Castle,
    Residence,
    BuildersHut,
    HarbourPrivilege,
    Feast,
)


def _passes(out: ParsedMail) -> None:
    """`Ich passe` beside builds, trades or a card: the player says two things; the pass is
    refused, with what to do (the other lines stand as written)."""
    acting = any(isinstance(r.item, _ACTING) for r in out.items())
    if not acting:
        return
    for r in out.lines:
        if r.ok and isinstance(r.item, Pass):
            r.error = NotationError.make("pass_with_orders").at(r.line, r.text)
            r.item = None
            r.canonical = None


def _subject(subject: str, ctx: Context, out: ParsedMail) -> None:
    """A subject may be a command (`Anmeldung`, `Hilfe`) or `Spiel: name`; replies' `Re:`
    prefixes are dropped. Anything else in the subject is not an order and is ignored, and so
    is a subject longer than a line may be. A confirmation code is never taken from it: an
    auto-reply repeats the subject of the mail it answers."""
    text = _subject_text(subject)
    try:
        item = parse_line(text, ctx) if text else None
    except OrderError:
        return
    _subject_item(item, out)


def _subject_text(subject: str) -> str:
    """A subject without its `Re:` prefixes ("" when it is longer than a line may be)."""
    text = subject.strip()
    if len(text) > MAX_LINE_CHARS:
        return ""
    # Cut at an index, not by splitting the rest again for each prefix: `Re: ` may repeat.
    start = 0
    while text[start : start + 4].lower().startswith(("re:", "aw:", "fwd:", "wg:", "fw:")):
        start = text.index(":", start) + 1
        while start < len(text) and text[start].isspace():
            start += 1
    return text[start:]


def _subject_item(item: Item | None, out: ParsedMail) -> None:
    if isinstance(item, Command):
        _take_command(item, out)
    elif isinstance(item, GameName):
        out.game = item.name


def _take_command(item: Command, out: ParsedMail) -> None:
    out.commands.append(item.name)
    if item.topic and not out.help_topic:
        out.help_topic = item.topic


def scan_mail(body: str, subject: str | None = None) -> ParsedMail:
    """What a mail says that needs no board: its commands, password, confirmation code, game,
    round, name and colour wishes (`scan_line`), as `parse_mail` reads them, but no orders
    (`lines` stays empty). This is all that is read of a mail before its password is known to
    be right: a stranger's mail costs a scan, never a parse against a board."""
    out = ParsedMail()
    if subject:
        text = _subject_text(subject)
        with contextlib.suppress(OrderError):
            _subject_item(scan_line(text) if text else None, out)
    stops: list[str] = []
    for count, (_, line) in enumerate(iter_clean_lines(_short_lines(body), stops)):
        if count == MAX_MAIL_LINES:
            break
        try:
            item = scan_line(line)
        except OrderError:
            if starts_a_message(line):
                break  # the rest is a message, never read as anything else
            continue
        if isinstance(item, Press):
            break  # the rest of the mail is the message
        if item is not None:
            _take(item, out)
    out.forwarded = "forwarded" in stops
    return out


#: What of a line `scan_line` reads: more than any line it looks for needs (a password, a
#: name of at most 40 characters, a game of at most 100, colour wishes, a command).
SCAN_CHARS = 160


def _short_lines(body: str) -> str:
    """The body with every line cut to its first `SCAN_CHARS` characters: cleaning a long line
    costs many times what a stranger's mail may cost, and nothing `scan_line` reads needs more
    of it. (A line cut so may read as what the whole line is not, `Hilfe` and blanks before
    junk; the scan may then answer what it should not have, never take a seat or an order:
    a password it finds is checked, and a mail with a right one is read in full.)"""
    lines = body.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return "\n".join(line if len(line) <= SCAN_CHARS else line[:SCAN_CHARS] for line in lines)


def _take(item: Item, out: ParsedMail) -> None:
    """A scanned line's item into the mail's fields, as `_accept` puts them."""
    if isinstance(item, Password):
        out.password = item.secret
    elif isinstance(item, Confirmation):
        out.confirm = item.token
    elif isinstance(item, GameName):
        out.game = out.game or item.name  # the first names the game the mail is for
    elif isinstance(item, RoundGuard):
        out.round = item.round
    elif isinstance(item, Command):
        _take_command(item, out)
    elif isinstance(item, PlayerName):
        out.name = item.name
    elif isinstance(item, ColourPreference):
        out.colours = item.colours
