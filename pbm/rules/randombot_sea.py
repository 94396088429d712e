"""The random player's Seafarers play (`randombot.RandomHooks`): a knight sends the pirate half
the time, ships are built and moved among the other builds, a ship or road that reaches the
fog is built first (Oceania), as is a ship that closes a trade line (The Great Crossing), and
every 7 names the robber and the pirate in a random order, with a random `Gold:` preference.
Registered on import (`randombot.py` imports this module)."""

from __future__ import annotations

import random
from dataclasses import replace

from .autopilot_fog import explore
from .autopilot_sea import line_view
from .fog import fog_reached
from .legal import LegalMoves
from .orders import BuildLine, Knight, MoveShip, Road, RobberOrder, Ship, TurnOrders
from .randombot import RANDOM_HOOKS, Candidate, RandomHooks, _pick
from .state import GameState


def _pirate(legal: LegalMoves, rng: random.Random, avoid: int = -1) -> RobberOrder | None:
    """A random sea hex for the pirate, not `avoid` (None without the pirate)."""
    hexes = [h for h in legal.pirate_hexes() if h != avoid]
    return RobberOrder(hexes[_pick(rng, len(hexes))], (), True) if hexes else None


class RandomSea(RandomHooks):
    def knight_robber(
        self, state: GameState, legal: LegalMoves, rng: random.Random, robber: RobberOrder | None
    ) -> RobberOrder | None:
        if state.sea is not None and rng.random() < 0.5:
            return _pirate(legal, rng) or robber
        return robber

    def candidates(
        self, state: GameState, legal: LegalMoves, rng: random.Random, lines: list[BuildLine]
    ) -> list[Candidate]:
        if state.sea is None:
            return []
        sites = legal.ships()
        moves: list[MoveShip] = legal.ship_moves()
        out: list[Candidate] = [(Ship, e) for e in sites]
        out += [(moves.__getitem__, i) for i in range(len(moves))]
        if state.board.fog:
            # Oceania: a ship or a road that reaches the fog is built first.
            board = state.board
            found: list[BuildLine] = [Ship(e) for e in legal.ships() if fog_reached(board, e)]
            found += [Road(e) for e in legal.roads() if fog_reached(board, e)]
            if found:
                lines.append(found[_pick(rng, len(found))])
            else:
                # Else the first piece of the autopilot's line towards it.
                towards = explore(state, legal, -1.0)
                if towards is not None:
                    ship, route = towards
                    lines.append(Ship(route[0]) if ship else Road(route[0]))
        # The Great Crossing: a ship that would close a trade line is built first.
        view = line_view(state, legal.seat)
        closing = [] if view is None else [e for e in sites if view.closes(state, e)]
        if closing:
            lines.append(Ship(closing[_pick(rng, len(closing))]))
        return out

    def finish(
        self,
        state: GameState,
        legal: LegalMoves,
        rng: random.Random,
        orders: TurnOrders,
        knight: Knight | None,
    ) -> TurnOrders:
        if state.sea is None:
            return orders
        # Never the pirate where the bot's own knight sends it this round.
        at_sea = knight.robber.hex if knight is not None and knight.robber.pirate else -1
        gold = tuple(_pick(rng, 5) for _ in range(_pick(rng, 3)))
        # The robber and the pirate in a random priority order (either may be left out).
        pair = [orders.robber, _pirate(legal, rng, at_sea)]
        rng.shuffle(pair)
        named = [x for x in pair if x is not None] + [None, None]
        return replace(orders, robber=named[0], gold=gold, robber_else=named[1])


RANDOM_HOOKS.append(RandomSea())
