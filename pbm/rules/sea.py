"""What a Seafarers game adds to the game state: ships, the pirate, home islands, special VP.

A base game has no `SeaState` (`GameState.sea` is None) and serialises exactly as before. Like
`GameState`, this is a plain mutable record the rules change in place on their own copies.
"""

from __future__ import annotations

from typing import Any

from .board import Board

MAX_SHIPS = 15


class SeaState:
    __slots__ = (
        "built",
        "fog",
        "home",
        "lines",
        "moved",
        "pirate",
        "scenario",
        "ship",
        "ships",
        "specials",
    )

    #: The scenario key (`scenarios.SCENARIOS`).
    scenario: str
    #: Per path: the seat whose ship stands there, or -1.
    ship: list[int]
    #: Per path: the round its ship was built or moved there (setup: 0), -1 without a ship.
    built: list[int]
    #: Per seat: the last round the seat moved a ship, -1 if never.
    moved: list[int]
    #: The pirate's hex, or -1 (played without the pirate).
    pirate: int
    #: Per seat: the areas of their start settlements (home islands), sorted; () before.
    home: list[tuple[int, ...]]
    #: Per seat: special VP earned, as (crossing, area, vp) in the order earned.
    specials: list[list[tuple[int, int, int]]]
    #: The Great Crossing: the trade lines that score, as (crossing on the first island,
    #: crossing on the second, holder), sorted (`trade_lines.py`); [] in other scenarios.
    lines: list[tuple[int, int, int]]
    #: Oceania: the fog hexes discovered, in order, as (hex, tile, token): the tile a resource's
    #: German letter, `$` gold, `-` desert or `~` sea, the token None where none was laid
    #: (`fog.py`); [] elsewhere.
    fog: list[tuple[int, str, int | None]]
    #: Index derived from `ship`: per seat the paths of their ships (never serialised).
    ships: list[list[int]]

    def copy(self) -> SeaState:
        new = SeaState.__new__(SeaState)
        new.scenario = self.scenario
        new.ship = self.ship[:]
        new.built = self.built[:]
        new.moved = self.moved[:]
        new.pirate = self.pirate
        new.home = self.home[:]
        new.specials = [x[:] for x in self.specials]
        new.lines = self.lines[:]
        new.fog = self.fog[:]
        new.ships = [x[:] for x in self.ships]
        return new

    def rebuild(self, players: int) -> None:
        self.ships = [[] for _ in range(players)]
        for e, p in enumerate(self.ship):
            if p >= 0:
                self.ships[p].append(e)

    def reindex(self, owner: list[int], players: int) -> None:
        """`parts.StatePart`: the ships by seat."""
        self.rebuild(players)

    def extra_vp(self, p: int) -> int:
        """`parts.StatePart`: the special and trade-line points."""
        return self.special_vp(p)

    def special_vp(self, p: int) -> int:
        return sum(vp for _, _, vp in self.specials[p]) + self.line_vp(p)

    def line_vp(self, p: int) -> int:
        """The Great Crossing: one VP for each trade line p holds."""
        return sum(1 for _, _, q in self.lines if q == p)

    def to_json(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "ships": [[e, p, self.built[e]] for e, p in enumerate(self.ship) if p >= 0],
            "moved": self.moved[:],
            "pirate": self.pirate,
            "home": [list(h) for h in self.home],
            "specials": [[list(x) for x in s] for s in self.specials],
            # Only where there are lines, so the other scenarios' states stay as they were.
            **({"lines": [list(x) for x in self.lines]} if self.lines else {}),
            **({"fog": [list(x) for x in self.fog]} if self.fog else {}),
        }

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SeaState) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]


def new_sea(board: Board, scenario: str, players: int, pirate: bool = True) -> SeaState:
    s = SeaState.__new__(SeaState)
    s.scenario = scenario
    n = len(board.path_hexes)
    s.ship = [-1] * n
    s.built = [-1] * n
    s.moved = [-1] * players
    start = board.pirate_start
    s.pirate = start if pirate and start is not None else -1
    s.home = [() for _ in range(players)]
    s.specials = [[] for _ in range(players)]
    s.lines = []
    s.fog = []
    s.rebuild(players)
    return s


def sea_from_json(d: dict[str, Any], board: Board, players: int) -> SeaState:
    s = new_sea(board, d["scenario"], players, pirate=False)
    for e, p, built in d["ships"]:
        s.ship[e] = p
        s.built[e] = built
    s.moved = list(d["moved"])
    s.pirate = d["pirate"]
    s.home = [tuple(h) for h in d["home"]]
    s.specials = [[(c, a, vp) for c, a, vp in sp] for sp in d["specials"]]
    s.lines = [(a, b, p) for a, b, p in d.get("lines", [])]
    s.fog = [(h, tile, token) for h, tile, token in d.get("fog", [])]
    s.rebuild(players)
    return s
