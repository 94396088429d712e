"""Typed orders: one class per order kind of docs/order-language.md.

Crossings, paths and hexes are board ids, players are seat numbers, resources are the ints of
`resources.py`. The notation layer turns text into these and back; the engine only sees these.
Orders are frozen and hashable, so `parse(format(order)) == order` can be tested directly.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TypeGuard, get_args

from .resources import Counts


class Timing(StrEnum):
    BEFORE_ROLL = "before"
    AFTER_ROLL = "after"


@dataclass(frozen=True, slots=True)
class SetupPlacement:
    crossing: int
    path: int
    #: Seafarers: a ship on `path` instead of a road.
    ship: bool = False


@dataclass(frozen=True, slots=True)
class Settlement:
    crossing: int


@dataclass(frozen=True, slots=True)
class City:
    crossing: int


@dataclass(frozen=True, slots=True)
class Road:
    path: int


@dataclass(frozen=True, slots=True)
class Ship:
    """Seafarers: a ship built on a path touching sea."""

    path: int


@dataclass(frozen=True, slots=True)
class MoveShip:
    """Seafarers: the front ship of an open line moved from `source` to `target`."""

    source: int
    target: int


@dataclass(frozen=True, slots=True)
class BuyCard:
    pass


@dataclass(frozen=True, slots=True)
class RobberOrder:
    """Where the robber goes and whom to rob, in priority order. Seafarers: with `pirate` the
    order moves the pirate to the sea hex `hex` instead (no victims: it robs every ship owner
    next to it)."""

    hex: int
    victims: tuple[int, ...] = ()
    pirate: bool = False


@dataclass(frozen=True, slots=True)
class Knight:
    timing: Timing
    robber: RobberOrder


@dataclass(frozen=True, slots=True)
class Monopoly:
    resource: int


@dataclass(frozen=True, slots=True)
class YearOfPlenty:
    first: int
    second: int


@dataclass(frozen=True, slots=True)
class RoadBuilding:
    first: int
    second: int | None = None
    #: Seafarers: the first (second) piece is a ship rather than a road.
    first_ship: bool = False
    second_ship: bool = False


# -- Kronlande (issue 19; docs/kronlande-model.md) ----------------------------------------------


@dataclass(frozen=True, slots=True)
class Workshop:
    """A workshop of `kind` (`kron.SCHMIEDE`, `WEBEREI`, `BAECKEREI`) on the player's own
    building at `crossing` (`Schmiede D3 E4 E5`)."""

    kind: int
    crossing: int


@dataclass(frozen=True, slots=True)
class Make:
    """`Herstellen 2 Brot`: `count` of `good` (`resources.WERKZEUG`, `STOFF`, `BROT`) made in
    the player's workshop, all or none."""

    good: int
    count: int = 1


@dataclass(frozen=True, slots=True)
class Castle:
    """A Burg: the player's city at `crossing` upgraded."""

    crossing: int


@dataclass(frozen=True, slots=True)
class Residence:
    """A Residenz: the player's Burg at `crossing` upgraded."""

    crossing: int


@dataclass(frozen=True, slots=True)
class BuildersHut:
    """Project card Bauhütte played: 1 Werkzeug and 1 Brot."""


@dataclass(frozen=True, slots=True)
class HarbourPrivilege:
    """Project card Hafenprivileg played: the player's later bank trades this round at 2:1."""


@dataclass(frozen=True, slots=True)
class Feast:
    """Project card Festmahl played: every other player holding `item` (a resource or a good)
    gives the player one."""

    item: int


@dataclass(frozen=True, slots=True)
class DiscardPreference:
    """Resources (in Kronlande also goods) in the order the player gives them up when over the
    card limit."""

    resources: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GoldPreference:
    """Seafarers: `Gold: Erz, Holz`, the resources gold rivers pay, left to right, repeating."""

    resources: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TradeOffer:
    """One side of a domestic trade: what `self` gives `partner` and gets back."""

    partner: int
    give: Counts
    get: Counts


@dataclass(frozen=True, slots=True)
class MaritimeTrade:
    """With the bank: `give_count` of one resource for `get_count` of another."""

    give: int
    give_count: int
    get: int
    get_count: int = 1


#: A single build-step action.
BuildAction = (
    Settlement
    | City
    | Road
    | BuyCard
    | YearOfPlenty
    | RoadBuilding
    | MaritimeTrade
    | Ship
    | MoveShip
    | Workshop
    | Make
    | Castle
    | Residence
    | BuildersHut
    | HarbourPrivilege
    | Feast
)
#: The same classes as a tuple, for `isinstance` (one list: this union is it).
BUILD_ACTIONS: tuple[type, ...] = get_args(BuildAction)


def is_build_action(item: object) -> TypeGuard[BuildAction]:
    """Whether `item` is a single build-step action (one of `BUILD_ACTIONS`)."""
    return isinstance(item, BUILD_ACTIONS)


@dataclass(frozen=True, slots=True)
class Alternatives:
    """`a oder b oder c`: the first option that can be carried out is done."""

    options: tuple[BuildAction, ...]


BuildLine = BuildAction | Alternatives


@dataclass(frozen=True, slots=True)
class SubstituteBlock:
    """`Ersatzbau:` lines, run only if at least one main build line failed."""

    lines: tuple[BuildLine, ...]
    #: A main build line of the mail was refused when it came in (it can never be built, or
    #: was not understood): it failed, so the block runs whatever the other main lines do.
    main_refused: bool = False


@dataclass(frozen=True, slots=True)
class TurnOrders:
    """Everything one player sent for one round, as the engine uses it."""

    robber: RobberOrder | None = None
    discard: DiscardPreference | None = None
    knight: Knight | None = None
    monopoly: Monopoly | None = None
    trades: tuple[TradeOffer, ...] = ()
    builds: tuple[BuildLine, ...] = ()
    substitutes: SubstituteBlock = SubstituteBlock(())
    #: Seafarers: the `Gold:` preference, resources used left to right, repeating.
    gold: tuple[int, ...] = ()
    #: Seafarers: a second robber order (the pirate's when `robber` is the robber's, or the
    #: other way round), used on a 7 when `robber` cannot be carried out.
    robber_else: RobberOrder | None = None


@dataclass(frozen=True, slots=True)
class SetupOrders:
    """Ranked setup placements: the first legal one is placed."""

    placements: tuple[SetupPlacement, ...]


def options(line: BuildLine) -> tuple[BuildAction, ...]:
    return line.options if isinstance(line, Alternatives) else (line,)


#: An order that can fail on its own in a round: what `OrderFailed.action` names.
CodedOrder = BuildAction | RobberOrder | Knight | Monopoly


def action_code(order: CodedOrder) -> str:
    """A short, flat text naming an order (board ids, seats, resource numbers), for events:
    `road:12`, `settlement:40`, `city:40`, `buy`, `maritime:0,4,3,1`, `plenty:1,2`,
    `road_building:3,4`, `robber:9,1,2` (hex, then the victims), `knight:before:9,1`,
    `monopoly:3`; Seafarers: `ship:12`, `move_ship:12,14`, a ship of road building as
    `s12` (`road_building:s3,4`), the pirate as `pirate:20` and `knight:after:p20`;
    Kronlande: `workshop:2,40` (kind, crossing), `make:9,2` (good, count), `castle:40`,
    `residence:40`, `builders_hut`, `harbour_privilege`, `feast:8`.
    `action_from_code` reads it back."""
    if isinstance(order, Road):
        return f"road:{order.path}"
    if isinstance(order, Ship):
        return f"ship:{order.path}"
    if isinstance(order, MoveShip):
        return f"move_ship:{order.source},{order.target}"
    if isinstance(order, Settlement):
        return f"settlement:{order.crossing}"
    if isinstance(order, City):
        return f"city:{order.crossing}"
    if isinstance(order, BuyCard):
        return "buy"
    if isinstance(order, MaritimeTrade):
        return f"maritime:{order.give},{order.give_count},{order.get},{order.get_count}"
    if isinstance(order, YearOfPlenty):
        return f"plenty:{order.first},{order.second}"
    if isinstance(order, RoadBuilding):
        first = f"s{order.first}" if order.first_ship else str(order.first)
        second = (
            "" if order.second is None else f",{'s' if order.second_ship else ''}{order.second}"
        )
        return f"road_building:{first}{second}"
    if isinstance(order, Workshop):
        return f"workshop:{order.kind},{order.crossing}"
    if isinstance(order, Make):
        return f"make:{order.good},{order.count}"
    if isinstance(order, Castle):
        return f"castle:{order.crossing}"
    if isinstance(order, Residence):
        return f"residence:{order.crossing}"
    if isinstance(order, BuildersHut):
        return "builders_hut"
    if isinstance(order, HarbourPrivilege):
        return "harbour_privilege"
    if isinstance(order, Feast):
        return f"feast:{order.item}"
    if isinstance(order, RobberOrder):
        if order.pirate:
            return f"pirate:{order.hex}"
        return "robber:" + ",".join(str(x) for x in (order.hex, *order.victims))
    if isinstance(order, Knight):
        if order.robber.pirate:
            return f"knight:{order.timing}:p{order.robber.hex}"
        return f"knight:{order.timing}:" + action_code(order.robber).removeprefix("robber:")
    if isinstance(order, Monopoly):
        return f"monopoly:{order.resource}"
    raise TypeError(f"no code for {order!r}")


def action_from_code(code: str) -> CodedOrder:
    """The order of `action_code`; raises ValueError for a code it does not know."""
    kind, _, rest = code.partition(":")
    if kind == "knight":
        timing, _, robber = rest.partition(":")
        if robber.startswith("p"):
            return Knight(Timing(timing), RobberOrder(int(robber[1:]), (), True))
        order = action_from_code(f"robber:{robber}")
        assert isinstance(order, RobberOrder)
        return Knight(Timing(timing), order)
    if kind == "road_building":
        parts = rest.split(",")
        ships = [x.startswith("s") for x in parts]
        paths = [int(x.removeprefix("s")) for x in parts]
        if len(paths) == 1:
            return RoadBuilding(paths[0], None, ships[0])
        return RoadBuilding(paths[0], paths[1], ships[0], ships[1])
    nums = [int(x) for x in rest.split(",")] if rest else []
    if kind == "road":
        return Road(nums[0])
    if kind == "settlement":
        return Settlement(nums[0])
    if kind == "city":
        return City(nums[0])
    if kind == "buy":
        return BuyCard()
    if kind == "maritime":
        return MaritimeTrade(nums[0], nums[1], nums[2], nums[3])
    if kind == "plenty":
        return YearOfPlenty(nums[0], nums[1])
    if kind == "ship":
        return Ship(nums[0])
    if kind == "move_ship":
        return MoveShip(nums[0], nums[1])
    if kind == "robber":
        return RobberOrder(nums[0], tuple(nums[1:]))
    if kind == "pirate":
        return RobberOrder(nums[0], (), True)
    if kind == "monopoly":
        return Monopoly(nums[0])
    if kind == "workshop":
        return Workshop(nums[0], nums[1])
    if kind == "make":
        return Make(nums[0], nums[1])
    if kind == "castle":
        return Castle(nums[0])
    if kind == "residence":
        return Residence(nums[0])
    if kind == "builders_hut":
        return BuildersHut()
    if kind == "harbour_privilege":
        return HarbourPrivilege()
    if kind == "feast":
        return Feast(nums[0])
    raise ValueError(f"unknown order code {code!r}")
