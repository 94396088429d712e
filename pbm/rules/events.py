"""Typed events: everything that happened, chance outcomes included, in order.

A round's events are the whole truth of its resolution: reports are rendered from them and a
replay must reproduce them exactly. Every event serialises to a flat JSON object whose `kind`
names its class, and back.

Events are never changed once made. They are not `frozen` dataclasses only because a frozen
dataclass is three times slower to construct, and resolution makes dozens per roll.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, ClassVar

from .reasons import Reason
from .resources import Counts

_GETTERS: dict[type, Callable[[Any], Any]] = {}


def _added(default: Any) -> Any:
    """A field added after games were stored: left out of the JSON while it has its default,
    and its default when a stored event lacks it."""
    return dataclasses.field(default=default, metadata={"added": True})


@dataclass(slots=True)
class Event:
    kind: ClassVar[str] = "event"

    def values(self) -> tuple[Any, ...]:
        """(kind, field values…): a cheap, deterministic key for digests."""
        getter = _GETTERS.get(type(self))
        if getter is None:
            names: tuple[str, ...] = self.__slots__
            getter = _GETTERS[type(self)] = attrgetter(names[0], *names[1:])
        return (self.kind, getter(self))

    def to_json(self) -> dict[str, Any]:
        """The flat JSON object. A field added later (`_added`) is left out while it has its
        default, so the events of older games, and of rules 1, stay exactly as they were
        stored."""
        out: dict[str, Any] = {"kind": self.kind}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if f.metadata.get("added") and v == f.default:
                continue
            out[f.name] = list(v) if isinstance(v, tuple) else v
        return out


@dataclass(slots=True)
class RoundStarted(Event):
    kind: ClassVar[str] = "round_started"
    round: int
    seed: int
    build_order: tuple[int, ...]


@dataclass(slots=True)
class SetupPlaced(Event):
    kind: ClassVar[str] = "setup_placed"
    player: int
    crossing: int
    path: int
    #: True when the service placed it for a player who missed the deadline.
    automatic: bool
    #: The rank of the placement used among the ones the player sent (0 = first).
    rank: int


@dataclass(slots=True)
class SetupFailed(Event):
    kind: ClassVar[str] = "setup_failed"
    player: int
    rank: int
    reason: Reason


@dataclass(slots=True)
class Rolled(Event):
    kind: ClassVar[str] = "rolled"
    player: int
    die1: int
    die2: int

    @property
    def total(self) -> int:
        return self.die1 + self.die2


@dataclass(slots=True)
class Produced(Event):
    """`player` received `amount` of `resource` from `hex` (setup income has hex per card)."""

    kind: ClassVar[str] = "produced"
    player: int
    hex: int
    resource: int
    amount: int


@dataclass(slots=True)
class ProductionBlocked(Event):
    """A hex with the rolled number paid nothing because the robber stands on it."""

    kind: ClassVar[str] = "production_blocked"
    hex: int


@dataclass(slots=True)
class BankShort(Event):
    """The classic bank could not pay everyone owed `resource`: see seed 002's shortage rule."""

    kind: ClassVar[str] = "bank_short"
    resource: int
    owed: int
    available: int
    #: Who received the rest (the only one owed), or -1 when nobody got any.
    paid_to: int


@dataclass(slots=True)
class Discarded(Event):
    kind: ClassVar[str] = "discarded"
    player: int
    cards: Counts
    #: How many of them were chosen at random (the preference list ran out).
    at_random: int


@dataclass(slots=True)
class RobberMoved(Event):
    kind: ClassVar[str] = "robber_moved"
    player: int
    hex: int
    #: "seven", "knight", or "nmr" (placed by the NMR rule).
    cause: str


@dataclass(slots=True)
class NmrRobberRoll(Event):
    """A roll of the NMR robber rule to choose the hex (a 7 or an unsettled number rerolls)."""

    kind: ClassVar[str] = "nmr_robber_roll"
    player: int
    die1: int
    die2: int
    #: Why the roll is rolled again (rules 4, `robber.REROLL_REASONS`): ("seven",), ("no_hex",)
    #: for a number no hex has, else for each hex with the number, in board order, what keeps
    #: the robber off it: "unsettled" (no building next to it), "own" (only the roller's own
    #: buildings, while a hex with an opponent can take it) or a `Reason` value
    #: ("robber_must_move": the robber stands there). () for the roll that counts, and in
    #: games of older rules.
    why: tuple[str, ...] = _added(())


@dataclass(slots=True)
class Stole(Event):
    """The stolen card is public (seed 003: the GM draws it and tells it)."""

    kind: ClassVar[str] = "stole"
    thief: int
    victim: int
    resource: int


@dataclass(slots=True)
class NothingToSteal(Event):
    kind: ClassVar[str] = "nothing_to_steal"
    thief: int
    hex: int


@dataclass(slots=True)
class TradeDone(Event):
    kind: ClassVar[str] = "trade_done"
    first: int
    second: int
    #: What `first` gave `second`, and what `second` gave `first`.
    first_gives: Counts
    second_gives: Counts


@dataclass(slots=True)
class TradeFailed(Event):
    kind: ClassVar[str] = "trade_failed"
    player: int
    partner: int
    gives: Counts
    gets: Counts
    reason: Reason


@dataclass(slots=True)
class MaritimeTraded(Event):
    kind: ClassVar[str] = "maritime_traded"
    player: int
    give: int
    give_count: int
    get: int
    get_count: int


@dataclass(slots=True)
class Built(Event):
    """kind_of is "settlement", "city" or "road"; `where` a crossing or a path id."""

    kind: ClassVar[str] = "built"
    player: int
    piece: str
    where: int
    free: bool = False


@dataclass(slots=True)
class OrderFailed(Event):
    """An order that was not carried out, with the rule that stopped it."""

    kind: ClassVar[str] = "order_failed"
    player: int
    #: Where in the player's orders: "build 2", "substitute 1", "knight", "robber", …
    line: str
    rule: Reason
    #: A note in English beside the rule (stored with the event; reports do not show it).
    reason: str
    #: What failed, as `orders.action_code` writes it ("city:40", "knight:before:9,2"); "" in
    #: games of rules 1, whose reports name the line instead.
    action: str = _added("")
    #: The cards missing for it when the rule is `cannot_afford` or `cards_not_held`.
    missing: tuple[int, ...] = _added(())


@dataclass(slots=True)
class CardBought(Event):
    """The card type is secret until played; reports show only the buyer's code."""

    kind: ClassVar[str] = "card_bought"
    player: int
    card: str
    #: 1 for the player's first purchase, 2 for the second, …: the codebook row.
    number: int


@dataclass(slots=True)
class CardPlayed(Event):
    kind: ClassVar[str] = "card_played"
    player: int
    card: str


@dataclass(slots=True)
class MonopolyTaken(Event):
    kind: ClassVar[str] = "monopoly_taken"
    player: int
    victim: int
    resource: int
    amount: int


@dataclass(slots=True)
class PlentyTaken(Event):
    kind: ClassVar[str] = "plenty_taken"
    player: int
    cards: Counts


@dataclass(slots=True)
class TitleChanged(Event):
    """title is "longest_road" or "largest_army"; -1 means nobody (set aside)."""

    kind: ClassVar[str] = "title_changed"
    title: str
    old: int
    new: int
    length: int


@dataclass(slots=True)
class NoOrders(Event):
    """NMR: the player sent no valid orders for this round."""

    kind: ClassVar[str] = "no_orders"
    player: int


@dataclass(slots=True)
class GameWon(Event):
    kind: ClassVar[str] = "game_won"
    player: int
    vp: int
    round: int


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        RoundStarted,
        SetupPlaced,
        SetupFailed,
        Rolled,
        Produced,
        ProductionBlocked,
        BankShort,
        Discarded,
        RobberMoved,
        NmrRobberRoll,
        Stole,
        NothingToSteal,
        TradeDone,
        TradeFailed,
        MaritimeTraded,
        Built,
        OrderFailed,
        CardBought,
        CardPlayed,
        MonopolyTaken,
        PlentyTaken,
        TitleChanged,
        NoOrders,
        GameWon,
    )
}


_REASONS = frozenset(Reason)


def event_from_json(data: dict[str, Any]) -> Event:
    """The event of `to_json`. Reasons come back as `Reason` members; a string that is none
    (a game stored by another version) stays as it was, so every stored game loads."""
    cls = EVENT_TYPES[data["kind"]]
    kwargs = {}
    for f in dataclasses.fields(cls):
        if f.name not in data and f.default is not dataclasses.MISSING:
            continue  # left out while it has its default (`Event.to_json`)
        v = data[f.name]
        if isinstance(v, list):
            v = tuple(v)
        elif f.type == "Reason" and v in _REASONS:
            v = Reason(v)
        kwargs[f.name] = v
    return cls(**kwargs)
