"""What a Kronlande game adds to the game state: workshops, Burgen and Residenzen, the title
Baumeister and the round of a Hafenprivileg (docs/kronlande-model.md).

A base game has no `KronState` (`GameState.kron` is None) and serialises exactly as before.
Like `GameState`, this is a plain mutable record the rules change in place on their own copies.
A Burg stays a city in the state's indexes (`cities`, level 2, it yields 2); a Residenz is a
city of level 3 (it yields 3). `castle` tells them apart from a plain city.
"""

from __future__ import annotations

from typing import Any, Final

from .resources import BROT, STOFF, WERKZEUG

# Workshop kinds, and the good each makes.
SCHMIEDE: Final = 0  # smithy: Werkzeug
WEBEREI: Final = 1  # weaving mill: Stoff
BAECKEREI: Final = 2  # bakery: Brot
WORKSHOPS: Final = (SCHMIEDE, WEBEREI, BAECKEREI)
WORKSHOP_GOOD: Final = (WERKZEUG, STOFF, BROT)
#: The `Built.piece` of each workshop kind.
WORKSHOP_PIECES: Final = ("smithy", "weaving_mill", "bakery")

# `KronState.castle` per crossing.
NO_CASTLE: Final = 0
BURG: Final = 1
RESIDENZ: Final = 2

#: VP a Burg and a Residenz add to the city's 2 (3 and 5 in all), and the title's.
BURG_EXTRA_VP: Final = 1
RESIDENZ_EXTRA_VP: Final = 3
BUILDER_VP: Final = 2
#: The title Baumeister needs at least this many Burgen and Residenzen together.
BUILDER_MIN: Final = 2


def workshop_for(good: int) -> int:
    """The workshop kind that makes `good`; raises ValueError for anything else."""
    return WORKSHOP_GOOD.index(good)


class KronState:
    __slots__ = ("builder", "burgen", "castle", "privilege", "residenzen", "workshop", "workshops")

    #: Per crossing: the workshop kind on its building, or -1.
    workshop: list[int]
    #: Per crossing: NO_CASTLE, BURG or RESIDENZ.
    castle: list[int]
    #: The seat holding the title Baumeister, or -1.
    builder: int
    #: Per seat: the round the seat played a Hafenprivileg, -1 if never.
    privilege: list[int]
    # Indexes derived from `workshop`, `castle` and the state's owners (never serialised).
    #: Per seat: the crossing of each workshop kind, or -1.
    workshops: list[list[int]]
    #: Per seat: how many Burgen (not yet Residenzen), and how many Residenzen.
    burgen: list[int]
    residenzen: list[int]

    def copy(self) -> KronState:
        new = KronState.__new__(KronState)
        new.workshop = self.workshop[:]
        new.castle = self.castle[:]
        new.builder = self.builder
        new.privilege = self.privilege[:]
        new.workshops = [x[:] for x in self.workshops]
        new.burgen = self.burgen[:]
        new.residenzen = self.residenzen[:]
        return new

    def rebuild(self, owner: list[int], players: int) -> None:
        self.workshops = [[-1, -1, -1] for _ in range(players)]
        self.burgen = [0] * players
        self.residenzen = [0] * players
        for c, kind in enumerate(self.workshop):
            if kind >= 0:
                self.workshops[owner[c]][kind] = c
        for c, rank in enumerate(self.castle):
            if rank == BURG:
                self.burgen[owner[c]] += 1
            elif rank == RESIDENZ:
                self.residenzen[owner[c]] += 1

    def castles(self, p: int) -> int:
        """Burgen and Residenzen of seat p together (what the title Baumeister counts)."""
        return self.burgen[p] + self.residenzen[p]

    def reindex(self, owner: list[int], players: int) -> None:
        """`parts.StatePart`: the workshops, Burgen and Residenzen by seat."""
        self.rebuild(owner, players)

    def extra_vp(self, p: int) -> int:
        """What Kronlande adds to p's visible VP: Burgen, Residenzen beyond their city's 2,
        and the title Baumeister."""
        vp = BURG_EXTRA_VP * self.burgen[p] + RESIDENZ_EXTRA_VP * self.residenzen[p]
        return vp + BUILDER_VP if self.builder == p else vp

    def to_json(self) -> dict[str, Any]:
        return {
            "workshops": [[c, k] for c, k in enumerate(self.workshop) if k >= 0],
            "castles": [[c, r] for c, r in enumerate(self.castle) if r],
            "builder": self.builder,
            "privilege": self.privilege[:],
        }

    def __eq__(self, other: object) -> bool:
        return isinstance(other, KronState) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]


def new_kron(crossings: int, players: int) -> KronState:
    k = KronState.__new__(KronState)
    k.workshop = [-1] * crossings
    k.castle = [NO_CASTLE] * crossings
    k.builder = -1
    k.privilege = [-1] * players
    k.rebuild([-1] * crossings, players)
    return k


def kron_from_json(d: dict[str, Any], owner: list[int], players: int) -> KronState:
    k = new_kron(len(owner), players)
    for c, kind in d["workshops"]:
        k.workshop[c] = kind
    for c, rank in d["castles"]:
        k.castle[c] = rank
    k.builder = d["builder"]
    k.privilege = list(d["privilege"])
    k.rebuild(owner, players)
    return k
