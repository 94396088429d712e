"""The `pbm` command line. Thin: parses arguments, calls the library, prints."""

from __future__ import annotations

import json
import time
from typing import Annotated

import typer

# gm_cli imports the database and the mail stack only inside its commands: `pbm sim`, `pbm board`
# and `pbm orders check` load none of them (tests/test_cli_imports.py).
from . import __version__
from .gm_cli import clean, cleaned, register, set_config
from .notation import Context, parse_mail
from .rules.layouts import SIZES, default_size, generate_board
from .rules.sim import BOTS, simulate
from .rules.state import DEFAULT_COLOURS, GameState

app = typer.Typer(
    help="pbm: a play-by-email game master for the island trading game Settler.",
    no_args_is_help=True,
    add_completion=True,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"pbm {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print version.")
    ] = False,
    config: Annotated[
        str | None, typer.Option("--config", "-c", help="Config file (default ./pbm.toml).")
    ] = None,
) -> None:
    """Run games of Settler by mail."""
    set_config(config)


@app.command()
def board(
    seed: Annotated[int, typer.Option(help="Board seed (a game's seed gives its board).")] = 0,
    players: Annotated[int, typer.Option(min=3, max=6, help="Players (picks the size).")] = 4,
    size: Annotated[str | None, typer.Option(help="small, medium, large or huge.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the board as JSON.")] = False,
    lang: Annotated[str, typer.Option(help="de or en: the map's letters and legend.")] = "de",
) -> None:
    """Print the seeded board: the text map of the reports, or JSON with hexes, crossings
    and paths."""
    size = size or default_size(players)
    if size not in SIZES:
        raise typer.BadParameter(f"size must be one of {', '.join(SIZES)}")
    b = generate_board(size, seed)
    if as_json:
        typer.echo(json.dumps(b.to_json(), ensure_ascii=False))
    else:
        from .reports.text_map import draw
        from .rules.state import Settings, new_game

        state = new_game(Settings.for_players(players, size), seed, board=b)
        typer.echo(draw(state, "en" if lang == "en" else "de"))


@app.command()
def sim(
    games: Annotated[int, typer.Option(min=1, help="Games to play.")] = 100,
    players: Annotated[int, typer.Option(min=3, max=6)] = 4,
    seed: Annotated[int, typer.Option(help="Seed of the first game's derivation.")] = 1,
    bot: Annotated[str, typer.Option(help="autopilot or random.")] = "autopilot",
    size: Annotated[str | None, typer.Option(help="Island size (default by players).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Play complete games with bots and print speed figures and a digest of all events."""
    if bot not in BOTS:
        raise typer.BadParameter(f"bot must be one of {', '.join(BOTS)}")
    start = time.perf_counter()
    result = simulate(games, players, seed, bot, size)
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
    for key, value in summary.items():
        typer.echo(f"{key:12} {value}")


orders_app = typer.Typer(help="Work with order mails.", no_args_is_help=True)
app.add_typer(orders_app, name="orders")


@orders_app.command("check")
def orders_check(
    file: Annotated[typer.FileText, typer.Argument(help="A mail body (or - for stdin).")],
    seed: Annotated[int, typer.Option(help="Board seed, as for `pbm board`.")] = 0,
    players: Annotated[int, typer.Option(min=3, max=6)] = 4,
    size: Annotated[str | None, typer.Option(help="Island size (default by players).")] = None,
    phase: Annotated[str, typer.Option(help="setup or round.")] = "round",
    lang: Annotated[str, typer.Option(help="Game language: de or en.")] = "de",
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
) -> None:
    """Parse an order mail against a seeded board and print each line's result.

    Exit status 0 when every line is understood, 1 otherwise."""
    if phase not in ("setup", "round"):
        raise typer.BadParameter("phase must be setup or round")
    if lang not in ("de", "en"):
        raise typer.BadParameter("lang must be de or en")
    b = generate_board(size or default_size(players), seed)
    ctx = Context(b, lang, DEFAULT_COLOURS[:players], phase)
    parsed = parse_mail(file.read(), ctx)
    # The mail is a player's text: what is printed of it is cleaned of control characters.
    if as_json:
        typer.echo(json.dumps(cleaned([r.to_json() for r in parsed.lines]), ensure_ascii=False))
    else:
        for r in parsed.lines:
            if r.ok:
                typer.echo(f"{r.line:4}  ok     {clean(r.canonical)}")
            else:
                assert r.error is not None
                col = f", column {r.error.column}" if r.error.column else ""
                typer.echo(
                    f"{r.line:4}  error  {clean(r.text)}\n            {clean(r.error.message)}{col}"
                )
                for cand in r.error.candidates:
                    typer.echo(f"            candidate: {clean(cand)}")
    raise typer.Exit(0 if parsed.ok else 1)


@app.command()
def demo(
    players: Annotated[int, typer.Option(min=3, max=6, help="Bot players.")] = 4,
    seed: Annotated[int, typer.Option(help="Fixes board, draw and dice.")] = 1,
    workdir: Annotated[str | None, typer.Option("--dir", help="Work folder (default: new)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON summary.")] = False,
) -> None:
    """Play a whole game by real mail over loopback: IMAP and SMTP servers, bots, reports."""
    from rich.console import Console

    from .demo import result_json, run_demo

    console = Console(stderr=True)
    last: list[tuple[str, int]] = [("", -1)]

    def progress(state: GameState) -> None:
        now = (str(state.phase), state.round if state.phase != "setup" else state.setup_step)
        if now != last[0] and not as_json:
            last[0] = now
            what = (
                f"setup: placement {state.setup_step + 1}"
                if state.phase == "setup"
                else f"round {state.round}"
            )
            vp = " ".join(f"{c}:{state.vp(p)}" for p, c in enumerate(state.colours))
            console.print(f"[bold]{what}[/bold]  {vp}")

    result = run_demo(players, seed, workdir, progress)
    if as_json:
        typer.echo(result_json(result))
        return
    console.print(f"[green]winner:[/green] {result.winner} after {result.rounds} rounds")
    console.print(f"mails in {result.mails_in}, mails out {result.mails_out}, {result.seconds} s")
    console.print(
        f"work folder: {result.dir} (index.html, mails/, pbm.toml; try "
        f"`pbm --config {result.dir}/pbm.toml game show demo`)"
    )


register(app)


def main() -> None:
    app()
