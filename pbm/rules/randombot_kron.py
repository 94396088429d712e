"""The random player's Kronlande play (`randombot.RandomHooks`): workshops, goods (one at a
time, as far as the hand pays, like the bank trades), Burgen and Residenzen among its builds,
and the project cards among its cards. Registered on import (`randombot.py` imports this
module)."""

from __future__ import annotations

import random

from .layouts import BUILDERS_HUT, FEAST, HARBOUR_PRIVILEGE
from .legal import LegalMoves
from .orders import BuildersHut, BuildLine, Castle, Feast, HarbourPrivilege, Make, Residence
from .randombot import CARD_LINES, RANDOM_HOOKS, Candidate, RandomHooks
from .resources import RECIPES, can_pay
from .state import GameState


def _make_one(good: int) -> Make:
    return Make(good, 1)


class RandomKron(RandomHooks):
    def candidates(
        self, state: GameState, legal: LegalMoves, rng: random.Random, lines: list[BuildLine]
    ) -> list[Candidate]:
        if state.kron is None:
            return []
        workshops = legal.workshops()
        out: list[Candidate] = [(workshops.__getitem__, i) for i in range(len(workshops))]
        # Goods, like bank trades, only as far as the hand can pay for them now.
        hand = state.hands[legal.seat]
        out += [(_make_one, g) for g in legal.goods() if can_pay(hand, RECIPES[g])]
        out += [(Castle, c) for c in legal.castles()]
        out += [(Residence, c) for c in legal.residences()]
        return out


CARD_LINES.update(
    {
        BUILDERS_HUT: lambda state, p, rng: BuildersHut(),
        HARBOUR_PRIVILEGE: lambda state, p, rng: HarbourPrivilege(),
        FEAST: lambda state, p, rng: Feast(rng.randrange(len(state.hands[p]))),
    }
)
RANDOM_HOOKS.append(RandomKron())
