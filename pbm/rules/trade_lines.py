"""Trade lines of The Great Crossing (seed 001, scene 13–14; spec `seafarers.md`, "Special
victory points"): one VP for each line between the buildings of the two islands.

A trade line joins a building (settlement or city) on one of the two start islands (Catanien)
and a building on the other (Transcatanien) through a chain of ships and roads, whoever owns
them, that passes no building on its way: a line ends at a building (seed example 3), so a
chain through a building is two chains. Pieces join wherever they meet at a crossing without a
building, a ship and a road too (seed example 2: ships that reach an opponent's road). Two
buildings make one line however many chains join them; its chain is the shortest (fewest
pieces; among equally short ones the first found in path order). A chain that branches joins
more than one pair of buildings, so it makes more than one line (seed example 5).

Who scores a line: the owners of its two end buildings claim it ("from his own building",
seed examples 1–4). The claimant with more pieces in the chain holds it (seed: "whoever has
contributed more ships, or ships and roads"); a claimant without a piece in it holds nothing.
A tie goes to the one who closed it: the holder before the step keeps it, else the player whose
step made the line, else the tied claimant who builds first in the round. Pieces of a third
player count for no one.

The lines are worked out again from the board after every piece and building placed in the
rounds (and every ship moved), by `update`, so a point comes with the step that makes a line and
goes with the step that cuts it (a front ship moved away, seed example 4; a settlement between
its ends), each with an event (`TradeLineGained`, `TradeLineLost`). docs/rules-decisions.md,
"The Great Crossing", lists the decisions taken here where the seed is silent.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from .board import Board
from .events import Event
from .scenarios import areas_of, scenario
from .sea import SeaState
from .sea_events import TradeLineGained, TradeLineLost
from .state import GameState, Phase


@dataclass(frozen=True, slots=True)
class Line:
    """A chain of pieces between a building on the first island and one on the second."""

    #: The end crossing on the first island and the one on the second.
    start: int
    end: int
    #: The paths of the chain, from `start` to `end`.
    chain: tuple[int, ...]


def in_play(state: GameState) -> bool:
    """Whether the game scores trade lines (The Great Crossing, in the rounds)."""
    sea = state.sea
    return (
        sea is not None
        and state.phase == Phase.ROUNDS
        and scenario(sea.scenario).special == "trade_lines"
    )


def islands(state: GameState, sea: SeaState) -> tuple[int, int]:
    """The areas of the two start islands, in area order (Catanien, Transcatanien)."""
    seed = state.board_seed if state.board_seed is not None else state.seed
    info = areas_of(sea.scenario, state.settings.players, seed)
    starts = sorted(a for a, area in info.items() if area.start)
    if len(starts) != 2:
        raise ValueError(f"{sea.scenario}: trade lines need two start islands, not {starts}")
    return starts[0], starts[1]


def piece_owners(state: GameState, sea: SeaState) -> list[int]:
    """Per path: the seat of the road or ship on it, or -1."""
    ship = sea.ship
    return [r if r >= 0 else ship[e] for e, r in enumerate(state.road)]


def find_lines(
    board: Board, owner: Sequence[int], piece: Sequence[int], pair: tuple[int, int]
) -> list[Line]:
    """Every trade line of a board: `owner` per crossing (-1 free), `piece` per path (the seat
    of its road or ship, -1 free), `pair` the two islands' areas. Sorted by (start, end)."""
    first, second = pair
    areas = board.crossing_areas
    lines: list[Line] = []
    for a in range(len(owner)):
        if owner[a] < 0 or first not in areas[a]:
            continue
        # Breadth first from a over pieces, through crossings without a building only.
        prev: dict[int, tuple[int, int]] = {a: (-1, -1)}
        queue = deque([a])
        ends: list[int] = []
        while queue:
            c = queue.popleft()
            for e in board.crossing_paths[c]:
                if piece[e] < 0:
                    continue
                u, v = board.path_crossings[e]
                nxt = v if u == c else u
                if nxt in prev:
                    continue
                prev[nxt] = (c, e)
                if owner[nxt] >= 0:
                    if second in areas[nxt]:
                        ends.append(nxt)
                    continue  # a line ends at a building
                queue.append(nxt)
        for b in sorted(ends):
            chain: list[int] = []
            c = b
            while c != a:
                c, e = prev[c]
                chain.append(e)
            lines.append(Line(a, b, tuple(reversed(chain))))
    return lines


def counts(line: Line, piece: Sequence[int], players: int) -> list[int]:
    """The pieces of each seat in the line's chain."""
    out = [0] * players
    for e in line.chain:
        out[piece[e]] += 1
    return out


def holder(
    line: Line,
    owner: Sequence[int],
    piece: Sequence[int],
    players: int,
    before: int,
    actor: int,
    order: Sequence[int],
) -> int:
    """Who scores the line, or -1: the end owner with more pieces in it; on a tie the holder
    `before` the step, else the `actor` whose step made it, else the first in build `order`."""
    n = counts(line, piece, players)
    claimants = sorted({owner[line.start], owner[line.end]})
    best = max(n[q] for q in claimants)
    if best == 0:
        return -1
    top = [q for q in claimants if n[q] == best]
    if len(top) == 1:
        return top[0]
    for q in (before, actor):
        if q in top:
            return q
    return min(top, key=order.index)


def scored(
    state: GameState, sea: SeaState, actor: int, before: dict[tuple[int, int], int]
) -> list[tuple[Line, int]]:
    """The lines of the board now with their holders (lines without one left out)."""
    piece = piece_owners(state, sea)
    players = state.settings.players
    order = state.build_order()
    out = []
    for line in find_lines(state.board, state.owner, piece, islands(state, sea)):
        key = (line.start, line.end)
        p = holder(line, state.owner, piece, players, before.get(key, -1), actor, order)
        if p >= 0:
            out.append((line, p))
    return out


def update(state: GameState, actor: int, events: list[Event]) -> None:
    """After a step of `actor` that placed or moved a piece or a building: the lines again,
    with an event for each point lost (first) and gained."""
    if not in_play(state):
        return
    sea = state.sea
    assert sea is not None
    before = {(a, b): p for a, b, p in sea.lines}
    now = scored(state, sea, actor, before)
    after = {(line.start, line.end): p for line, p in now}
    for (a, b), p in before.items():
        if after.get((a, b)) != p:
            events.append(TradeLineLost(p, a, b))
    piece = piece_owners(state, sea)
    for line, p in now:
        if before.get((line.start, line.end)) != p:
            own = sum(1 for e in line.chain if piece[e] == p)
            events.append(TradeLineGained(p, line.start, line.end, len(line.chain), own))
    sea.lines = [(line.start, line.end, p) for line, p in now]


def building_reach(board: Board, owner: Sequence[int], piece: Sequence[int]) -> dict[int, set[int]]:
    """Per crossing without a building that pieces touch: the buildings a chain from it reaches
    (pieces joined at crossings without a building), for the bots' plans."""
    parent = list(range(len(piece)))

    def root(e: int) -> int:
        while parent[e] != e:
            parent[e] = parent[parent[e]]
            e = parent[e]
        return e

    touched: dict[int, list[int]] = {}
    for e, q in enumerate(piece):
        if q >= 0:
            for c in board.path_crossings[e]:
                touched.setdefault(c, []).append(e)
    for c, es in touched.items():
        if owner[c] < 0:
            for f in es[1:]:
                parent[root(f)] = root(es[0])
    ends: dict[int, set[int]] = {}
    for c, es in touched.items():
        if owner[c] >= 0:
            for e in es:
                ends.setdefault(root(e), set()).add(c)
    return {c: ends.get(root(es[0]), set()) for c, es in sorted(touched.items()) if owner[c] < 0}


def held_chains(state: GameState, sea: SeaState, p: int) -> set[int]:
    """The paths of the chains of the lines p holds (a bot keeps these ships where they are)."""
    if not sea.lines or all(q != p for _, _, q in sea.lines):
        return set()
    mine = {(a, b) for a, b, q in sea.lines if q == p}
    piece = piece_owners(state, sea)
    out: set[int] = set()
    for line in find_lines(state.board, state.owner, piece, islands(state, sea)):
        if (line.start, line.end) in mine:
            out.update(line.chain)
    return out
