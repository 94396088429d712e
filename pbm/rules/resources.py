"""Resources, their letters in every game language, and building costs.

Resources are small integers (indices into hands) so that hands and the bank are plain lists:
the hot paths of production and building stay cheap.

A base game's hand has 5 entries (H L W G E) and its classic bank 5. A Kronlande game's hand
has 10 (`KRON_WIDTH`): the 7 resources (the five, Stein, Fisch) and the 3 goods (Werkzeug,
Stoff, Brot), since goods are cards that count in the hand; its classic bank holds the 7
resources only (goods are unlimited and never traded with the bank). Counts (costs, trades,
discards) have the width of the game's hands; a shorter one means zeros for the rest, so the
base costs serve both games. In a Kronlande hand, Fisch pays for missing Getreide in any cost
(`can_pay`, `missing`, `payment`), never in a trade between players (`holds`).
"""

from __future__ import annotations

from typing import Final

from pbm import languages

HOLZ: Final = 0  # lumber
LEHM: Final = 1  # brick
WOLLE: Final = 2  # wool
GETREIDE: Final = 3  # grain
ERZ: Final = 4  # ore
# Kronlande (issue 19): two resources and three goods.
STEIN: Final = 5  # stone, from quarries
FISCH: Final = 6  # fish, from fishing grounds
WERKZEUG: Final = 7  # tools (Schmiede: Holz + Erz)
STOFF: Final = 8  # cloth (Weberei: 2 Wolle)
BROT: Final = 9  # bread (Bäckerei: Getreide + Fisch)

RESOURCES: Final = (HOLZ, LEHM, WOLLE, GETREIDE, ERZ)
N_RESOURCES: Final = 5

#: Kronlande: the resources (bank, production, bank trades) and the goods (players only).
KRON_RESOURCES: Final = (HOLZ, LEHM, WOLLE, GETREIDE, ERZ, STEIN, FISCH)
N_KRON_RESOURCES: Final = 7
GOODS: Final = (WERKZEUG, STOFF, BROT)
#: Entries of a Kronlande hand: the seven resources and the three goods.
KRON_WIDTH: Final = 10

#: The letters by game language, base game and Kronlande, indexed by resource (or good): each
#: language's file says them (`pbm/languages/<lang>.toml`, `[letters]`; spec kronlande.md,
#: "Notation"; the notation layer owns what players may write, these are the canonical
#: forms). Kronlande's never extend the base game's: in a base game `S` or `St` is no
#: resource at all. A language without letters (a catalogue added before its order words)
#: writes the default language's.
LETTERS: Final[dict[str, tuple[str, ...]]] = {
    lang: ws for lang, ws in languages.by_language("letters", "base").items()
}
KRON_LETTERS: Final[dict[str, tuple[str, ...]]] = {
    lang: ws for lang, ws in languages.by_language("letters", "kronlande").items()
}
#: The canonical (German) letters, indexed by resource: boards, scenarios and the archive
#: write these whatever the game's language.
LETTERS_DE: Final = LETTERS[languages.DEFAULT]
KRON_LETTERS_DE: Final = KRON_LETTERS[languages.DEFAULT]
NAMES_DE: Final = ("Holz", "Lehm", "Wolle", "Getreide", "Erz")
NAMES_EN: Final = ("Lumber", "Brick", "Wool", "Grain", "Ore")
KRON_NAMES_DE: Final = (*NAMES_DE, "Stein", "Fisch", "Werkzeug", "Stoff", "Brot")
KRON_NAMES_EN: Final = (*NAMES_EN, "Stone", "Fish", "Tools", "Cloth", "Bread")


def letters_of(lang: str, kron: bool = False) -> tuple[str, ...]:
    """The letters of a game language (`de@modern` is German's): five, or Kronlande's ten."""
    table = KRON_LETTERS if kron else LETTERS
    return table.get(languages.base(lang), table[languages.DEFAULT])


Hand = list[int]
#: Immutable counts, used in orders and events: (H, L, W, G, E) in a base game, the ten
#: entries of `KRON_WIDTH` in a Kronlande game; shorter counts mean zeros for the rest.
Counts = tuple[int, ...]

ZERO: Final[Counts] = (0, 0, 0, 0, 0)

COST_ROAD: Final[Counts] = (1, 1, 0, 0, 0)
COST_SETTLEMENT: Final[Counts] = (1, 1, 1, 1, 0)
COST_CITY: Final[Counts] = (0, 0, 0, 2, 3)
COST_CARD: Final[Counts] = (0, 0, 1, 1, 1)
COST_SHIP: Final[Counts] = (1, 0, 1, 0, 0)

# Kronlande costs (spec kronlande.md), ten entries: H L W G E S F Wz St Br.
COST_WORKSHOP: Final[Counts] = (1, 1, 0, 0, 0, 1, 0, 0, 0, 0)
COST_CASTLE: Final[Counts] = (0, 0, 0, 0, 0, 3, 0, 1, 0, 1)
COST_RESIDENCE: Final[Counts] = (0, 0, 0, 0, 0, 2, 0, 1, 1, 2)
#: What one good costs to make, by good: Werkzeug H+E, Stoff 2W, Brot G+F.
RECIPES: Final[dict[int, Counts]] = {
    WERKZEUG: (1, 0, 0, 0, 1),
    STOFF: (0, 0, 2, 0, 0),
    BROT: (0, 0, 0, 1, 0, 0, 1),
}


def letter(resource: int, lang: str = "de") -> str:
    return letters_of(lang)[resource]


def resource_from_letter(text: str, lang: str = "de") -> int:
    """The resource for a game letter; raises KeyError for an unknown one."""
    letters = letters_of(lang)
    try:
        return letters.index(text.upper())
    except ValueError:
        raise KeyError(f"no resource letter {text!r}") from None


def counts(hand: Hand | Counts) -> Counts:
    """A hand as immutable counts of its own width."""
    return tuple(hand)


def widen(c: Counts, width: int) -> Counts:
    """Counts padded with zeros to `width` entries (never cut)."""
    return c if len(c) >= width else c + (0,) * (width - len(c))


def scaled(c: Counts, n: int) -> Counts:
    return tuple(x * n for x in c)


def can_pay(hand: Hand, cost: Counts) -> bool:
    if len(hand) != 5:
        return _can_pay_wide(hand, cost)
    return (
        hand[0] >= cost[0]
        and hand[1] >= cost[1]
        and hand[2] >= cost[2]
        and hand[3] >= cost[3]
        and hand[4] >= cost[4]
    )


def holds(hand: Hand, cards: Counts) -> bool:
    """Whether a hand holds these very cards: what a trade between players gives, where Fisch
    never stands in for Getreide (it does so only in a cost, `can_pay`)."""
    return all(hand[r] >= n for r, n in enumerate(cards) if n)


def _grain_and_fish(hand: Hand, cost: Counts) -> tuple[int, int]:
    """(Getreide, Fisch) a Kronlande hand pays for a cost: its Getreide first, then Fisch for
    the Getreide it lacks, besides the Fisch the cost asks itself."""
    grain = cost[GETREIDE]
    fish = cost[FISCH] if len(cost) > FISCH else 0
    from_hand = min(grain, hand[GETREIDE])
    return from_hand, fish + grain - from_hand


def _can_pay_wide(hand: Hand, cost: Counts) -> bool:
    for r, n in enumerate(cost):
        if n > hand[r] and r != GETREIDE and r != FISCH:
            return False
    return _grain_and_fish(hand, cost)[1] <= hand[FISCH]


def payment(hand: Hand, cost: Counts) -> Counts:
    """The cards a hand gives for a cost it can pay: the cost itself, except that in a
    Kronlande hand Fisch stands in for missing Getreide. A base hand pays the cost."""
    if len(hand) == 5:
        return cost
    out = list(widen(cost, len(hand)))
    out[GETREIDE], out[FISCH] = _grain_and_fish(hand, cost)
    return tuple(out)


def missing(hand: Hand, cost: Counts) -> Counts:
    """The cards a hand lacks for a cost (counted in the hand's width); in a Kronlande hand
    Fisch covers missing Getreide first, and what is still missing is named as Getreide (a
    Fisch the cost asks itself is named as Fisch)."""
    if len(hand) == 5:
        return (
            max(0, cost[0] - hand[0]),
            max(0, cost[1] - hand[1]),
            max(0, cost[2] - hand[2]),
            max(0, cost[3] - hand[3]),
            max(0, cost[4] - hand[4]),
        )
    out = [max(0, n - hand[r]) for r, n in enumerate(cost)]
    out += [0] * (len(hand) - len(out))
    grain = max(0, cost[GETREIDE] - hand[GETREIDE])
    fish = cost[FISCH] if len(cost) > FISCH else 0
    spare = max(0, hand[FISCH] - fish)
    out[GETREIDE] = max(0, grain - spare)
    out[FISCH] = max(0, fish - hand[FISCH])
    return tuple(out)


def parse_counts(text: str, lang: str = "de") -> Counts:
    """Counts from `2H 1L` (for fixtures); `-` or nothing is no cards."""
    out = [0, 0, 0, 0, 0]
    if text.strip() in ("", "-"):
        return counts(out)
    for part in text.split():
        out[resource_from_letter(part[-1], lang)] += int(part[:-1])
    return counts(out)
