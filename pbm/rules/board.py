"""Board geometry: hexes, crossings (vertices), paths (edges) and their adjacency.

Hexes are pointy-topped and laid in horizontal rows. A hex sits at "doubled" coordinates
(row, x): neighbours in the same row differ by 2 in x, neighbours in the rows above and below
by 1. Every hex carries its label (docs/rules-decisions.md, "The board"): the row letter from
the top and its position in that row from the left (`D3`), sea frame included.

A crossing is where three hexes of the map meet, a path is the side two hexes share; both are
identified by their hexes, which is also how players name them. Crossings and paths are numbered
by the sorted hex ids of their hexes, and hex ids follow the label order, so the numbering is a
pure function of the layout: never of hashing or of dict order.

The board is immutable; a layout (which hex has what) is data, see `layouts.py`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from .resources import FISCH, KRON_LETTERS_DE, STEIN


class Terrain(StrEnum):
    LAND = "land"
    DESERT = "desert"
    SEA = "sea"
    GOLD = "gold"
    FOG = "fog"


#: Terrains a settlement may stand next to (a crossing touching one of them is buildable).
#: Fog (Oceania) is neither land nor sea until it is discovered: a road needs a known land hex
#: beside it and a ship a known sea hex (seed 002, "Weite See").
SETTLEABLE: Final = frozenset({Terrain.LAND, Terrain.DESERT, Terrain.GOLD})

#: Probability weight of each number token (dots printed on the token).
PIPS: Final = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}


@dataclass(frozen=True, slots=True)
class Harbor:
    """A harbour on a sea hex. `resource` None is the generic 3:1 harbour."""

    resource: int | None
    #: The hex id of the land hex the harbour faces; its two crossings on that side trade.
    faces: int

    @property
    def rate(self) -> int:
        return 3 if self.resource is None else 2

    def code(self) -> str:
        """`3:1` or `2:1 E` (German letters, as in the board JSON)."""
        return "3:1" if self.resource is None else f"2:1 {KRON_LETTERS_DE[self.resource]}"


@dataclass(frozen=True, slots=True)
class HexSpec:
    """What a layout says about one hex."""

    row: int
    x: int
    terrain: Terrain
    resource: int | None = None
    number: int | None = None
    harbor_resource: int | None = None
    #: (row, x) of the land hex a harbour faces; None when the hex has no harbour.
    harbor_faces: tuple[int, int] | None = None
    #: The island (or part of one) a land hex belongs to, numbered by its scenario; None on
    #: the base islands and on sea.
    area: int | None = None


@dataclass(frozen=True, slots=True)
class Hex:
    id: int
    label: str
    row: int
    x: int
    terrain: Terrain
    resource: int | None
    number: int | None
    harbor: Harbor | None
    area: int | None = None

    @property
    def is_land(self) -> bool:
        return self.terrain in SETTLEABLE

    @property
    def pips(self) -> int:
        return PIPS.get(self.number, 0) if self.number is not None else 0


def hex_neighbours(c: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """The six hexes around hex c = (row, x), in doubled coordinates: left, right, then the
    two above and the two below (the one order every layout and scenario is laid by)."""
    row, x = c
    return (
        (row, x - 2),
        (row, x + 2),
        (row - 1, x - 1),
        (row - 1, x + 1),
        (row + 1, x - 1),
        (row + 1, x + 1),
    )


def row_letter(row: int) -> str:
    return chr(ord("A") + row) if row < 26 else "A" + chr(ord("A") + row - 26)


def _vertex_keys(row: int, x: int) -> list[tuple[tuple[int, int], ...]]:
    """The six corners of hex (row, x), each as the sorted coordinates of its three hexes."""
    up_l, up_r = (row - 1, x - 1), (row - 1, x + 1)
    dn_l, dn_r = (row + 1, x - 1), (row + 1, x + 1)
    left, right, me = (row, x - 2), (row, x + 2), (row, x)
    corners = [
        (me, up_l, up_r),  # top
        (me, up_r, right),  # upper right
        (me, right, dn_r),  # lower right
        (me, dn_r, dn_l),  # bottom
        (me, dn_l, left),  # lower left
        (me, left, up_l),  # upper left
    ]
    return [tuple(sorted(c)) for c in corners]


@dataclass(frozen=True)
class _Geometry:
    crossing_hexes: tuple[tuple[int, int, int], ...]
    path_hexes: tuple[tuple[int, int], ...]
    path_crossings: tuple[tuple[int, int], ...]
    crossing_id: dict[tuple[int, ...], int]
    path_id: dict[tuple[int, int], int]
    crossing_paths: tuple[tuple[int, ...], ...]
    crossing_neighbors: tuple[tuple[int, ...], ...]
    hex_crossings: tuple[tuple[int, ...], ...]
    #: By hex: (the neighbouring hex, the path they share) for each of its sides that is a path,
    #: in path order.
    hex_sides: tuple[tuple[tuple[int, int], ...], ...]
    #: The hexes on the edge of the map (fewer than six neighbours on it).
    frame: frozenset[int]


@functools.lru_cache(maxsize=64)
def _geometry(coords: tuple[tuple[int, int], ...]) -> _Geometry:
    """Crossings and paths of a set of hex positions (sorted); shared by boards of one shape."""
    coord_id = {c: i for i, c in enumerate(coords)}
    keys: set[tuple[int, ...]] = set()
    for row, x in coords:
        for corner_coords in _vertex_keys(row, x):
            if all(c in coord_id for c in corner_coords):
                keys.add(tuple(sorted(coord_id[c] for c in corner_coords)))
    crossings = sorted(keys)
    hex_crossings: list[list[int]] = [[] for _ in coords]
    for i, corner in enumerate(crossings):
        for hid in corner:
            hex_crossings[hid].append(i)
    # A path is the side shared by two hexes; it exists when both its end crossings do.
    path_keys: dict[tuple[int, int], list[int]] = {}
    for i, (a, b, d) in enumerate(crossings):
        for pair in ((a, b), (a, d), (b, d)):
            path_keys.setdefault(pair, []).append(i)
    paths = sorted(k for k, ends in path_keys.items() if len(ends) == 2)
    path_crossings = tuple((path_keys[p][0], path_keys[p][1]) for p in paths)
    cp: list[list[int]] = [[] for _ in crossings]
    cn: list[list[int]] = [[] for _ in crossings]
    for e, (u, v) in enumerate(path_crossings):
        cp[u].append(e)
        cp[v].append(e)
        cn[u].append(v)
        cn[v].append(u)
    sides: list[list[tuple[int, int]]] = [[] for _ in coords]
    for e, (a, b) in enumerate(paths):
        sides[a].append((b, e))
        sides[b].append((a, e))
    return _Geometry(
        crossing_hexes=tuple((c[0], c[1], c[2]) for c in crossings),
        path_hexes=tuple(paths),
        path_crossings=path_crossings,
        crossing_id={c: i for i, c in enumerate(crossings)},
        path_id={p: i for i, p in enumerate(paths)},
        crossing_paths=tuple(tuple(x) for x in cp),
        crossing_neighbors=tuple(tuple(x) for x in cn),
        hex_crossings=tuple(tuple(x) for x in hex_crossings),
        hex_sides=tuple(tuple(x) for x in sides),
        frame=frozenset(
            i
            for i, (row, x) in enumerate(coords)
            if sum(
                (row + dr, x + dx) in coord_id
                for dr, dx in ((0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1))
            )
            < 6
        ),
    )


def shape_crossings(
    coords: tuple[tuple[int, int], ...],
) -> tuple[tuple[tuple[int, int, int], ...], tuple[tuple[int, ...], ...]]:
    """The crossings of a board of these hex positions (sorted), numbered as a `Board` of them
    numbers them: each one's three hexes (indexes into `coords`) and its neighbouring
    crossings. For a generator that judges many draws before it builds the board it keeps."""
    g = _geometry(coords)
    return g.crossing_hexes, g.crossing_neighbors


class Board:
    """An immutable board. Index-based tables make the rules' hot loops cheap."""

    def __init__(
        self,
        specs: list[HexSpec],
        name: str = "custom",
        pirate_start: tuple[int, int] | None = None,
    ) -> None:
        self.name = name
        specs = sorted(specs, key=lambda s: (s.row, s.x))
        coord_id: dict[tuple[int, int], int] = {}
        for i, s in enumerate(specs):
            if (s.row, s.x) in coord_id:
                raise ValueError(f"two hexes at row {s.row}, x {s.x}")
            coord_id[(s.row, s.x)] = i
        hexes: list[Hex] = []
        pos_in_row: dict[int, int] = {}
        for i, s in enumerate(specs):
            pos_in_row[s.row] = pos_in_row.get(s.row, 0) + 1
            harbor = None
            if s.harbor_faces is not None:
                harbor = Harbor(s.harbor_resource, coord_id[s.harbor_faces])
            label = f"{row_letter(s.row)}{pos_in_row[s.row]}"
            hexes.append(Hex(i, label, s.row, s.x, s.terrain, s.resource, s.number, harbor, s.area))
        self.hexes: tuple[Hex, ...] = tuple(hexes)
        self.label_index: dict[str, int] = {h.label: h.id for h in hexes}
        g = _geometry(tuple((s.row, s.x) for s in specs))
        self.crossing_hexes: tuple[tuple[int, int, int], ...] = g.crossing_hexes
        self.path_hexes: tuple[tuple[int, int], ...] = g.path_hexes
        self.path_crossings: tuple[tuple[int, int], ...] = g.path_crossings
        self.crossing_id: dict[tuple[int, ...], int] = g.crossing_id
        self.path_id: dict[tuple[int, int], int] = g.path_id
        self.crossing_paths: tuple[tuple[int, ...], ...] = g.crossing_paths
        self.crossing_neighbors: tuple[tuple[int, ...], ...] = g.crossing_neighbors
        self.hex_crossings: tuple[tuple[int, ...], ...] = g.hex_crossings
        self.hex_sides: tuple[tuple[tuple[int, int], ...], ...] = g.hex_sides
        #: The frame: hexes on the edge of the map (fewer than six neighbours on it).
        self.frame: frozenset[int] = g.frame
        #: The sea hex the pirate starts on (Seafarers); None on the base islands.
        self.pirate_start: int | None = None if pirate_start is None else coord_id[pirate_start]
        self._fill_content()
        self._fill_sea()

    def _fill_content(self) -> None:
        crossings = self.crossing_hexes
        paths = self.path_hexes
        land = [h.is_land for h in self.hexes]
        self.crossing_land: tuple[bool, ...] = tuple(
            land[a] or land[b] or land[c] for a, b, c in crossings
        )
        self.path_land: tuple[bool, ...] = tuple(land[a] or land[b] for a, b in paths)
        harbors: list[Harbor | None] = [None] * len(crossings)
        for h in self.hexes:
            if h.harbor is not None:
                pair = (min(h.id, h.harbor.faces), max(h.id, h.harbor.faces))
                for ci in self.path_crossings[self.path_id[pair]]:
                    harbors[ci] = h.harbor
        self.crossing_harbor: tuple[Harbor | None, ...] = tuple(harbors)
        by_number: dict[int, list[int]] = {}
        for h in self.hexes:
            if h.number is not None:
                by_number.setdefault(h.number, []).append(h.id)
        self.number_hexes: dict[int, tuple[int, ...]] = {
            n: tuple(v) for n, v in sorted(by_number.items())
        }
        #: Production's view of each number: (hex, its resource or None, its crossings) for
        #: each hex with the number, looked up once here rather than at every roll.
        self.number_yields: dict[int, tuple[tuple[int, int | None, tuple[int, ...]], ...]] = {
            n: tuple((h, self.hexes[h].resource, self.hex_crossings[h]) for h in v)
            for n, v in self.number_hexes.items()
        }
        self.producing_hexes: tuple[int, ...] = tuple(
            h.id for h in self.hexes if h.number is not None and h.terrain != Terrain.SEA
        )
        # Seed 000: the robber goes onto a number token on a land hex (so never the desert).
        self.robber_hexes: tuple[int, ...] = tuple(
            h.id for h in self.hexes if h.is_land and h.number is not None
        )
        deserts = [h.id for h in self.hexes if h.terrain == Terrain.DESERT]
        self.robber_start: int | None = deserts[0] if deserts else None
        # What a crossing earns: land hexes, and (Kronlande) the fishing grounds.
        pips = [
            h.pips if h.terrain != Terrain.SEA or h.resource is not None else 0 for h in self.hexes
        ]
        self.crossing_pips: tuple[int, ...] = tuple(
            pips[a] + pips[b] + pips[c] for a, b, c in crossings
        )
        #: Kronlande: the quarries (land, Stein) and fishing grounds (sea, Fisch); () else.
        self.quarries: tuple[int, ...] = tuple(
            h.id for h in self.hexes if h.resource == STEIN and h.is_land
        )
        self.fishing_grounds: tuple[int, ...] = tuple(
            h.id for h in self.hexes if h.resource == FISCH and h.terrain == Terrain.SEA
        )

    def _fill_sea(self) -> None:
        """What the Seafarers rules ask of the board: ship sides, areas, the frame."""
        sea = [h.terrain == Terrain.SEA for h in self.hexes]
        #: A ship may stand on a side that touches sea: between two sea hexes or on a coast.
        self.path_sea: tuple[bool, ...] = tuple(sea[a] or sea[b] for a, b in self.path_hexes)
        self.has_areas: bool = any(h.area is not None for h in self.hexes)
        #: The areas (islands, parts of one) each crossing touches, sorted; () on sea and on
        #: boards without areas.
        self.crossing_areas: tuple[tuple[int, ...], ...] = (
            tuple(
                tuple(sorted({a for h in c if (a := self.hexes[h].area) is not None}))
                for c in self.crossing_hexes
            )
            if self.has_areas
            else ((),) * len(self.crossing_hexes)
        )
        #: Oceania: the hexes still in the fog, in label order, and per crossing whether it
        #: touches one (no settlement stands there, and a piece reaching it discovers them).
        self.fog: tuple[int, ...] = tuple(h.id for h in self.hexes if h.terrain == Terrain.FOG)
        fog = frozenset(self.fog)
        self.crossing_fog: tuple[bool, ...] = (
            tuple(any(h in fog for h in c) for c in self.crossing_hexes)
            if fog
            else (False,) * len(self.crossing_hexes)
        )

    # -- names -------------------------------------------------------------------------------

    def hex_by_label(self, label: str) -> Hex:
        return self.hexes[self.label_index[label.upper()]]

    def crossing_label(self, c: int) -> str:
        return " ".join(self.hexes[h].label for h in self.crossing_hexes[c])

    def path_label(self, p: int) -> str:
        return " ".join(self.hexes[h].label for h in self.path_hexes[p])

    def crossing_by_labels(self, labels: list[str]) -> int:
        ids = tuple(sorted(self.label_index[x.upper()] for x in labels))
        return self.crossing_id[ids]

    def path_by_labels(self, labels: list[str]) -> int:
        a, b = sorted(self.label_index[x.upper()] for x in labels)
        return self.path_id[(a, b)]

    def path_between(self, c1: int, c2: int) -> int | None:
        for e in self.crossing_paths[c1]:
            if c2 in self.path_crossings[e]:
                return e
        return None

    # -- output -------------------------------------------------------------------------------

    def to_json(self) -> dict[str, object]:
        out = self._base_json()
        if self.has_areas or self.pirate_start is not None:
            # Seafarers boards only, so the base boards' JSON stays as it was.
            hexes = out["hexes"]
            assert isinstance(hexes, list)
            for h, d in zip(self.hexes, hexes, strict=True):
                d["area"] = h.area
            out["pirate"] = (
                None if self.pirate_start is None else self.hexes[self.pirate_start].label
            )
        return out

    def _base_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "hexes": [
                {
                    "label": h.label,
                    "terrain": str(h.terrain),
                    "resource": None if h.resource is None else KRON_LETTERS_DE[h.resource],
                    "number": h.number,
                    "harbor": h.harbor.code() if h.harbor else None,
                    "harbor_faces": self.hexes[h.harbor.faces].label if h.harbor else None,
                }
                for h in self.hexes
            ],
            "crossings": [
                {
                    "hexes": [self.hexes[h].label for h in c],
                    "harbor": (hb.code() if (hb := self.crossing_harbor[i]) else None),
                }
                for i, c in enumerate(self.crossing_hexes)
            ],
            "paths": [{"hexes": [self.hexes[h].label for h in p]} for p in self.path_hexes],
        }
