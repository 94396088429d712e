"""A whole mail → line results and the orders they add up to.

One bad line never hides the others: every line gets its own result, and the orders are built
from the good lines only. Build lines after `Ersatzbau:` form the substitute block. At most
`MAX_MAIL_LINES` lines are read (see `limits.py`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbm.rules.orders import (
    Alternatives,
    BuildLine,
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
    SetupOrders,
    SetupPlacement,
    SubstituteBlock,
    TradeOffer,
    TurnOrders,
    YearOfPlenty,
)

from .clean import iter_clean_lines
from .errors import NotationError, OrderError
from .format import format_item
from .limits import MAX_LINE_CHARS, MAX_MAIL_LINES
from .lines import (
    ColourPreference,
    Command,
    Confirmation,
    Context,
    GameName,
    Item,
    Password,
    PlayerName,
    RoundGuard,
    SubstituteHeader,
    parse_line,
)

_BUILD_TYPES = (
    Settlement,
    City,
    Road,
    BuyCard,
    MaritimeTrade,
    YearOfPlenty,
    RoadBuilding,
    Alternatives,
)


@dataclass
class LineResult:
    line: int
    text: str
    item: Item | None = None
    canonical: str | None = None
    error: OrderError | None = None
    #: True for build lines of the `Ersatzbau` block.
    substitute: bool = False

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_json(self) -> dict[str, object]:
        return {
            "line": self.line,
            "text": self.text,
            "ok": self.ok,
            "canonical": self.canonical,
            "error": str(self.error.message) if self.error else None,
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
    name: str | None = None
    colours: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.lines)

    def items(self) -> list[LineResult]:
        return [r for r in self.lines if r.ok and r.item is not None]

    def has_orders(self) -> bool:
        return any(
            not isinstance(
                r.item,
                (
                    Password,
                    Confirmation,
                    GameName,
                    RoundGuard,
                    Command,
                    PlayerName,
                    ColourPreference,
                    SubstituteHeader,
                ),
            )
            for r in self.items()
        )

    def turn_orders(self) -> TurnOrders:
        """The round orders of the good lines (later robber/discard/card lines were refused)."""
        robber: RobberOrder | None = None
        discard: DiscardPreference | None = None
        knight: Knight | None = None
        monopoly: Monopoly | None = None
        trades: list[TradeOffer] = []
        builds: list[BuildLine] = []
        subs: list[BuildLine] = []
        for r in self.items():
            it = r.item
            if isinstance(it, RobberOrder):
                robber = it
            elif isinstance(it, DiscardPreference):
                discard = it
            elif isinstance(it, Knight):
                knight = it
            elif isinstance(it, Monopoly):
                monopoly = it
            elif isinstance(it, TradeOffer):
                trades.append(it)
            elif isinstance(it, _BUILD_TYPES):
                (subs if r.substitute else builds).append(it)
        return TurnOrders(
            robber,
            discard,
            knight,
            monopoly,
            tuple(trades),
            tuple(builds),
            SubstituteBlock(tuple(subs)),
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
_SINGLE = {
    RobberOrder: "second_robber",
    DiscardPreference: "second_discard",
    Knight: "second_knight",
    Monopoly: "second_monopoly",
}


def _shown(text: str) -> str:
    """A line as its result shows it: an over-long one cut at the cap, so that the answer to a
    mail never repeats a huge line."""
    return text if len(text) <= MAX_LINE_CHARS else text[:MAX_LINE_CHARS] + "…"


def parse_mail(body: str, ctx: Context, subject: str | None = None) -> ParsedMail:
    """Parse a mail body (and a subject that may hold a command) line by line.

    Never raises: every problem is a line result. Reads at most `MAX_MAIL_LINES` lines; when
    there are more, one further result refuses the rest, which is not looked at.
    """
    out = ParsedMail()
    if subject:
        _subject(subject, ctx, out)
    in_substitutes = False
    seen: set[type] = set()
    for count, (number, line) in enumerate(iter_clean_lines(body)):
        text = _shown(line)
        if count == MAX_MAIL_LINES:
            error = NotationError.make("rest_not_read", max=MAX_MAIL_LINES)
            out.lines.append(LineResult(number, text, error=error.at(number, text)))
            break
        result = LineResult(number, text)
        out.lines.append(result)
        try:
            item = parse_line(line, ctx)
        except OrderError as e:
            result.error = e.at(number, text)
            continue
        kind = type(item)
        if kind in _SINGLE and kind in seen:
            result.error = NotationError.make(_SINGLE[kind]).at(number, text)
            continue
        seen.add(kind)
        if ctx.phase == "setup" and isinstance(item, _BUILD_TYPES):
            result.error = NotationError.make("setup_placements_only").at(number, text)
            continue
        result.item = item
        result.substitute = in_substitutes and isinstance(item, _BUILD_TYPES)
        result.canonical = format_item(item, ctx)
        if isinstance(item, SubstituteHeader):
            in_substitutes = True
        elif isinstance(item, Password):
            out.password = item.secret
        elif isinstance(item, Confirmation):
            out.confirm = item.token
        elif isinstance(item, GameName):
            out.game = item.name
        elif isinstance(item, RoundGuard):
            out.round = item.round
        elif isinstance(item, Command):
            out.commands.append(item.name)
        elif isinstance(item, PlayerName):
            out.name = item.name
        elif isinstance(item, ColourPreference):
            out.colours = item.colours
    return out


def _subject(subject: str, ctx: Context, out: ParsedMail) -> None:
    """A subject may be a command (`Anmeldung`, `Hilfe`) or `Spiel: name`; replies' `Re:`
    prefixes are dropped. Anything else in the subject is not an order and is ignored, and so
    is a subject longer than a line may be. A confirmation code is never taken from it: an
    auto-reply repeats the subject of the mail it answers."""
    text = subject.strip()
    if len(text) > MAX_LINE_CHARS:
        return
    # Cut at an index, not by splitting the rest again for each prefix: `Re: ` may repeat.
    start = 0
    while text[start : start + 4].lower().startswith(("re:", "aw:", "fwd:", "wg:", "fw:")):
        start = text.index(":", start) + 1
        while start < len(text) and text[start].isspace():
            start += 1
    text = text[start:]
    try:
        item = parse_line(text, ctx) if text else None
    except OrderError:
        return
    if isinstance(item, Command):
        out.commands.append(item.name)
    elif isinstance(item, GameName):
        out.game = item.name
