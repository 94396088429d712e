"""What reading a mail gives: a result for each line (`LineResult`) and the whole mail's
(`ParsedMail`: the orders, headers and commands it adds up to); the kinds of items that are
builds and that are no orders."""

from __future__ import annotations

from dataclasses import dataclass, field

from pbm.rules.orders import (
    BUILD_ACTIONS,
    Alternatives,
    BuildLine,
    DiscardPreference,
    GoldPreference,
    Knight,
    Monopoly,
    RobberOrder,
    SetupOrders,
    SetupPlacement,
    SubstituteBlock,
    TradeOffer,
    TurnOrders,
    is_build_action,
)

from .errors import OrderError
from .items import (
    Away,
    Builds,
    ColourPreference,
    Command,
    Confirmation,
    GameName,
    Heading,
    Item,
    LaterPlacement,
    OrElse,
    Password,
    PlayerName,
    Press,
    RoundGuard,
    SubstituteHeader,
    TimeZone,
)

#: The items that are build lines: a build-step order (the one list, `orders.BUILD_ACTIONS`),
#: its alternatives, two builds on a line and an `oder …` line.
_BUILD_TYPES: tuple[type, ...] = (*BUILD_ACTIONS, Alternatives, Builds, OrElse)

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
    #: Why options of an accepted ranked setup line were left out (in the game's language).
    left_out: list[str] = field(default_factory=list)
    #: The options of an accepted line of choices that can never be built while another can
    #: (`checks.check_receipt`): each option's canonical form and why, in the game's language.
    never_built: list[dict[str, str]] = field(default_factory=list)
    #: A setup choice's number in its label (`Alternativ 2: …`): the placements rank by it.
    rank: int | None = None
    #: A main build line refused (not understood, or refused at receipt: it can never be
    #: built): a failed main build, after which the `Ersatzbau` block runs.
    refused_build: bool = False

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
    #: The words after the first `Anmeldung` (folded): `Anmeldung golf` may name the game.
    join_words: tuple[str, ...] = ()
    name: str | None = None
    colours: tuple[str, ...] = ()
    #: The words of that `Farben:` line that are not colours, as written (`scan_mail`): the
    #: signup's answer names them.
    colours_unknown: tuple[str, ...] = ()
    #: A message to a colour, to all or to the GM (issue 15), and its text: the rest of the
    #: mail after the `Nachricht an …` line, which is not read as orders.
    press: Press | None = None
    press_text: str = ""
    #: `Urlaub bis …`: the last day of the absence.
    away: Away | None = None
    #: `Zeitzone: …`: the IANA name.
    timezone: str | None = None
    #: The reading stopped at a forwarded mail, which is never read (`clean.iter_clean_lines`):
    #: the answer says so, as orders may have stood in it.
    forwarded: bool = False
    #: `confirm` is a pending request's code the mail holds but not on a `Bestätigen:` line or
    #: alone on a line (`service.mail_lookup.implied_confirm`): asked for, not taken. Why:
    #: "quoted" (only in the quoted mail, or pbm's request pasted back), "sentence" (among
    #: other words of a line the player wrote); "" when taken.
    confirm_held: str = ""
    #: Lines the player wrote with a `#` before an order (the order form's lines filled in and
    #: left commented): (line, the order read without the `#`). Not read as orders; the answer
    #: says to delete the `#`.
    commented: list[tuple[int, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.lines)

    def items(self) -> list[LineResult]:
        return [r for r in self.lines if r.ok and r.item is not None]

    def has_refused(self) -> bool:
        """Whether a line of the mail was refused (a typo, a time zone that is none)."""
        return any(r.error is not None for r in self.lines)

    def substitutes_run_anyway(self) -> bool:
        """Whether the `Ersatzbau` block runs whatever the main lines do: a main build line
        was refused (`LineResult.refused_build`) and substitutes stand below it. What
        `turn_orders` stores as `SubstituteBlock.main_refused`."""
        return any(r.refused_build for r in self.lines) and any(
            r.ok and r.substitute for r in self.lines
        )

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
            elif is_build_action(it) or isinstance(it, Alternatives):
                (subs if r.substitute else builds).append(it)
        return TurnOrders(
            robbers[0] if robbers else None,
            discard,
            knight,
            monopoly,
            tuple(trades),
            tuple(builds),
            SubstituteBlock(tuple(subs), main_refused=bool(subs) and self.substitutes_run_anyway()),
            gold.resources if gold is not None else (),
            robbers[1] if len(robbers) > 1 else None,
        )

    def setup_orders(self) -> SetupOrders:
        """The placements for the next turn, ranked as written; lines whose labels number
        their choices (`Alternativ 2: …`, `Option 1: …`) by those numbers, a line without one
        after the numbered line above it."""
        ranked: list[tuple[int, SetupPlacement]] = []
        rank = 0
        for r in self.items():
            rank = r.rank if r.rank is not None else rank
            if isinstance(r.item, SetupPlacement):
                ranked.append((rank, r.item))
            elif isinstance(r.item, tuple):
                ranked.extend((rank, p) for p in r.item)
        ranked.sort(key=lambda rp: rp[0])  # stable: as written within one number
        return SetupOrders(tuple(p for _, p in ranked))

    def later_setup_orders(self) -> SetupOrders:
        """The placements labelled as the writer's second (`Zweite Siedlung: …`), ranked."""
        placements: list[SetupPlacement] = []
        for r in self.items():
            if isinstance(r.item, LaterPlacement):
                placements.extend(r.item.placements)
        return SetupOrders(tuple(placements))


@dataclass
class _Read:
    """A line as read in the game's language, and with another language's letters."""

    result: LineResult
    item: Item | None
    error: OrderError | None
    #: The line read with another language's resource letters, when that reading is another
    #: order than the game's, and that language (None: the same, or nothing). Read at once
    #: for a refused line only: an accepted line needs it only in a mail with a refused line
    #: that fits the other letters (`_other_letters`), which most mails are not, and a second
    #: reading of every line was some 40 % of a mail's parsing.
    other: tuple[Item, str] | None = None
    #: The line as read (cleaned), for that later reading.
    line: str = ""
