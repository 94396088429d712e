"""`pbm sim`: complete games played by bots, with speed figures (no database)."""

from __future__ import annotations

import json
import time
from typing import Annotated

import typer


def sim(
    games: Annotated[int, typer.Option(min=1, help="Games to play.")] = 100,
    players: Annotated[int, typer.Option(min=3, max=6, help="Bot players per game.")] = 4,
    seed: Annotated[int, typer.Option(help="Seed of the first game's derivation.")] = 1,
    bot: Annotated[str, typer.Option(help="autopilot or random.")] = "autopilot",
    size: Annotated[str | None, typer.Option(help="Island size (default by players).")] = None,
    scenario: Annotated[
        str | None,
        typer.Option(
            help="A Seafarers scenario (neue-ufer, vier-inseln, ozeanien, wueste, neue-welt,"
            " ueberfahrt)."
        ),
    ] = None,
    kronlande: Annotated[
        bool, typer.Option("--kronlande", help="Kronlande on the large (or --size huge) island.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Play complete games with bots and print speed figures and a digest of all events."""
    # Imported here: `pbm serve` loads every command's module, and never plays a bot game.
    from pbm.rules.sim import BOTS, simulate

    if bot not in BOTS:
        raise typer.BadParameter(f"bot must be one of {', '.join(BOTS)}")
    if scenario is not None:
        from pbm.rules.scenarios import PLAYER_COUNTS, SCENARIOS

        if scenario not in SCENARIOS:
            raise typer.BadParameter(f"scenario must be one of {', '.join(SCENARIOS)}")
        if players not in PLAYER_COUNTS:
            raise typer.BadParameter("a Seafarers scenario is for 3 or 4 players")
        if size is not None:
            raise typer.BadParameter("--size and --scenario exclude each other")
    if kronlande:
        if scenario is not None:
            raise typer.BadParameter("--kronlande and --scenario exclude each other")
        if size not in (None, "large", "huge"):
            raise typer.BadParameter("Kronlande is played on the large or the huge island")
    start = time.perf_counter()
    result = simulate(games, players, seed, bot, size, scenario, kronlande)
    seconds = time.perf_counter() - start
    finished = [g for g in result.games if g.winner >= 0]
    summary = {
        "games": games,
        "finished": len(finished),
        "rounds_mean": round(sum(g.rounds for g in finished) / len(finished), 2)
        if finished
        else None,
        "rolls": result.rolls,
        "seconds": round(seconds, 4),
        "rolls_per_s": round(result.rolls / seconds, 1) if seconds else None,
        "wins": {str(k): v for k, v in result.wins().items()},
        "digest": result.digest(),
    }
    if as_json:
        typer.echo(json.dumps(summary))
        return
    wins = result.wins()
    for key, value in summary.items():
        if key == "wins":
            # Seat → games won, in words (the JSON keeps the object).
            value = ", ".join(f"seat {k}: {v}" for k, v in wins.items()) if wins else "none"
        elif value is None:
            value = "-"  # no game finished: no mean; no time measured: no rate
        typer.echo(f"{key:12} {value}")
