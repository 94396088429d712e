"""Resources, their letters in both game languages, and building costs.

Resources are small integers (indices into 5-element hands) so that hands and the bank are
plain lists: the hot paths of production and building stay cheap.
"""

from __future__ import annotations

from typing import Final

HOLZ: Final = 0  # lumber
LEHM: Final = 1  # brick
WOLLE: Final = 2  # wool
GETREIDE: Final = 3  # grain
ERZ: Final = 4  # ore

RESOURCES: Final = (HOLZ, LEHM, WOLLE, GETREIDE, ERZ)
N_RESOURCES: Final = 5

#: The canonical (German) letters, indexed by resource.
LETTERS_DE: Final = ("H", "L", "W", "G", "E")
#: English game-language letters: Lumber, Brick, Wool, Grain, Ore.
LETTERS_EN: Final = ("L", "B", "W", "G", "O")
NAMES_DE: Final = ("Holz", "Lehm", "Wolle", "Getreide", "Erz")
NAMES_EN: Final = ("Lumber", "Brick", "Wool", "Grain", "Ore")

Hand = list[int]
#: Immutable resource counts, used in orders and events: (H, L, W, G, E).
Counts = tuple[int, int, int, int, int]

ZERO: Final[Counts] = (0, 0, 0, 0, 0)

COST_ROAD: Final[Counts] = (1, 1, 0, 0, 0)
COST_SETTLEMENT: Final[Counts] = (1, 1, 1, 1, 0)
COST_CITY: Final[Counts] = (0, 0, 0, 2, 3)
COST_CARD: Final[Counts] = (0, 0, 1, 1, 1)
COST_SHIP: Final[Counts] = (1, 0, 1, 0, 0)


def letter(resource: int, lang: str = "de") -> str:
    return (LETTERS_EN if lang == "en" else LETTERS_DE)[resource]


def resource_from_letter(text: str, lang: str = "de") -> int:
    """The resource for a game letter; raises KeyError for an unknown one."""
    letters = LETTERS_EN if lang == "en" else LETTERS_DE
    try:
        return letters.index(text.upper())
    except ValueError:
        raise KeyError(f"no resource letter {text!r}") from None


def counts(hand: Hand | Counts) -> Counts:
    """A hand as an immutable 5-tuple."""
    return (hand[0], hand[1], hand[2], hand[3], hand[4])


def can_pay(hand: Hand, cost: Counts) -> bool:
    return (
        hand[0] >= cost[0]
        and hand[1] >= cost[1]
        and hand[2] >= cost[2]
        and hand[3] >= cost[3]
        and hand[4] >= cost[4]
    )


def parse_counts(text: str, lang: str = "de") -> Counts:
    """Counts from `2H 1L` (for fixtures); `-` or nothing is no cards."""
    out = [0, 0, 0, 0, 0]
    if text.strip() in ("", "-"):
        return counts(out)
    for part in text.split():
        out[resource_from_letter(part[-1], lang)] += int(part[:-1])
    return counts(out)
