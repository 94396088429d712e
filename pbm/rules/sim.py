"""Whole games played by bots, for the simulator, the benchmarks and the property tests."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from dataclasses import dataclass, field

from . import autopilot, randombot
from .events import Event, Rolled
from .orders import SetupOrders, TurnOrders
from .rng import derive_seed
from .round import resolve_round
from .setup import place_setup, place_setup_automatic, setup_player
from .state import RULES, GameState, Phase, Settings, new_game

BOTS = ("autopilot", "random")
#: A game still open after this many rounds counts as unfinished.
MAX_ROUNDS = 400


@dataclass
class GameResult:
    seed: int
    winner: int
    rounds: int
    rolls: int
    digest: str


@dataclass
class SimResult:
    games: list[GameResult] = field(default_factory=list)

    @property
    def finished(self) -> int:
        return sum(1 for g in self.games if g.winner >= 0)

    @property
    def rolls(self) -> int:
        return sum(g.rolls for g in self.games)

    def wins(self) -> dict[int, int]:
        out: dict[int, int] = {}
        for g in self.games:
            if g.winner >= 0:
                out[g.winner] = out.get(g.winner, 0) + 1
        return dict(sorted(out.items()))

    def digest(self) -> str:
        h = hashlib.sha256()
        for g in self.games:
            h.update(g.digest.encode())
        return h.hexdigest()


def bot_setup(state: GameState, bot: str, rng: random.Random) -> SetupOrders:
    p = setup_player(state)
    return (
        randombot.random_setup(state, rng) if bot == "random" else autopilot.setup_orders(state, p)
    )


def bot_orders(state: GameState, bot: str, rng: random.Random) -> dict[int, TurnOrders | None]:
    n = state.settings.players
    if bot == "random":
        return {p: randombot.random_orders(state, p, rng) for p in range(n)}
    return {p: autopilot.turn_orders(state, p) for p in range(n)}


def play_game(
    settings: Settings,
    seed: int,
    bot: str = "autopilot",
    max_rounds: int = MAX_ROUNDS,
    rules: int = RULES,
) -> Iterator[tuple[GameState, list[Event]]]:
    """Yields (state after, events) for every setup placement and every round. `rules`: an
    older rules version, to check that games of an older pbm still resolve as they did."""
    state = new_game(settings, seed, rules=rules)
    # The bots' own choices come from a generator apart from the game's, as players' would.
    rng = random.Random(derive_seed(seed, "bot"))
    while state.phase == Phase.SETUP:
        state, events, placed = place_setup(state, bot_setup(state, bot, rng))
        if not placed:
            state, more = place_setup_automatic(state)
            events += more
        yield state, events
    while state.phase == Phase.ROUNDS and state.round <= max_rounds:
        state, events = resolve_round(state, bot_orders(state, bot, rng))
        yield state, events


def simulate_game(settings: Settings, seed: int, bot: str = "autopilot") -> GameResult:
    h = hashlib.sha256()
    rolls = 0
    state = None
    for after, events in play_game(settings, seed, bot):
        h.update(repr([e.values() for e in events]).encode())
        rolls += sum(1 for e in events if type(e) is Rolled)
        state = after
    assert state is not None
    return GameResult(seed, state.winner, state.round, rolls, h.hexdigest())


def simulate(
    games: int,
    players: int,
    seed: int,
    bot: str = "autopilot",
    size: str | None = None,
    scenario: str | None = None,
    kronlande: bool = False,
) -> SimResult:
    """`scenario`: a Seafarers scenario (`scenarios.SCENARIOS`) instead of the base island;
    `kronlande`: a Kronlande game on `size` (large unless given)."""
    if kronlande:
        settings = Settings.for_kronlande(players, size or "large")
    elif scenario is not None:
        settings = Settings.for_scenario(scenario, players)
    else:
        settings = Settings.for_players(players, size)
    result = SimResult()
    for i in range(games):
        result.games.append(simulate_game(settings, derive_seed(seed, "sim", i), bot))
    return result
