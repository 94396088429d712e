"""Typed orders: one class per order kind of docs/order-language.md.

Crossings, paths and hexes are board ids, players are seat numbers, resources are the ints of
`resources.py`. The notation layer turns text into these and back; the engine only sees these.
Orders are frozen and hashable, so `parse(format(order)) == order` can be tested directly.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .resources import Counts


class Timing(StrEnum):
    BEFORE_ROLL = "before"
    AFTER_ROLL = "after"


@dataclass(frozen=True, slots=True)
class SetupPlacement:
    crossing: int
    path: int


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
class BuyCard:
    pass


@dataclass(frozen=True, slots=True)
class RobberOrder:
    """Where the robber goes and whom to rob, in priority order."""

    hex: int
    victims: tuple[int, ...] = ()


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


@dataclass(frozen=True, slots=True)
class DiscardPreference:
    """Resources in the order the player gives them up when over the card limit."""

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
BuildAction = Settlement | City | Road | BuyCard | YearOfPlenty | RoadBuilding | MaritimeTrade


@dataclass(frozen=True, slots=True)
class Alternatives:
    """`a oder b oder c`: the first option that can be carried out is done."""

    options: tuple[BuildAction, ...]


BuildLine = BuildAction | Alternatives


@dataclass(frozen=True, slots=True)
class SubstituteBlock:
    """`Ersatzbau:` lines, run only if at least one main build line failed."""

    lines: tuple[BuildLine, ...]


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


@dataclass(frozen=True, slots=True)
class SetupOrders:
    """Ranked setup placements: the first legal one is placed."""

    placements: tuple[SetupPlacement, ...]


def options(line: BuildLine) -> tuple[BuildAction, ...]:
    return line.options if isinstance(line, Alternatives) else (line,)
