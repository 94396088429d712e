"""The engine benchmark's Kronlande row: pbm alone (catanatron has no Kronlande).

The affordable player of `pbm.bench.affordable` knows the base game's five resources and
builds only; a Kronlande game also has stone, fish and goods, workshops, castles and
residences. So this row is played by `pbm sim --bot random` (`pbm.rules.randombot`), which
uses all of them: each round it writes a few lines drawn among all legal builds whatever they
cost, so many fail on the cost and it does less work a roll than the affordable player. Its
figures compare Kronlande with itself from one version to the next, not with the base row.
"""

from __future__ import annotations

import hashlib
import time
from operator import countOf

from pbm.rules.events import Rolled
from pbm.rules.rng import derive_seed
from pbm.rules.sim import play_game
from pbm.rules.state import Settings

#: Said in the benchmark's output: who plays the Kronlande row.
POLICY = (
    "pbm's random bot (pbm sim --bot random): a few lines a round drawn among all legal "
    "builds, Kronlande's included, whatever they cost; the affordable player knows the base "
    "five resources only"
)
#: The board the row plays on unless asked: the island Kronlande is made for.
DEFAULT_SIZE = "large"


def measure(games: int, seed: int, size: str = DEFAULT_SIZE, players: int = 4) -> dict[str, object]:
    """Plays `games` Kronlande games (the seeds of `pbm sim --seed`), each timed in CPU seconds
    from the new state to the last round, the orders included; the figures count finished
    games only, as the other rows do."""
    settings = Settings.for_kronlande(players, size)
    lines: list[str] = []
    rolls = finished = 0
    seconds = 0.0
    for i in range(games):
        game_seed = derive_seed(seed, "sim", i)
        t0 = time.process_time()
        game_rolls = 0
        state = None
        for after, events in play_game(settings, game_seed, "random"):
            game_rolls += countOf(map(type, events), Rolled)  # in C: the timed loop's own cost
            state = after
        spent = time.process_time() - t0
        assert state is not None
        lines.append(f"{game_seed}:{state.winner}:{state.round}:{game_rolls}")
        if state.winner >= 0:
            finished += 1
            rolls += game_rolls
            seconds += spent
    return {
        "games": games,
        "finished": finished,
        "rolls": rolls,
        "seconds": seconds,
        "rolls_per_s": rolls / seconds if seconds else None,
        "games_per_s": finished / seconds if seconds else None,
        "digest": hashlib.sha256("\n".join(lines).encode()).hexdigest(),
        "size": size,
        "players": players,
    }
