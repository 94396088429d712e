"""`pbm demo`: a whole game by real mail over loopback servers, with bots."""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING, Annotated

import typer

from pbm.rules.state import GameState, Phase

if TYPE_CHECKING:
    from rich.console import Console

    from pbm.demo import DemoResult


def demo(
    players: Annotated[int, typer.Option(min=3, max=6, help="Bot players.")] = 4,
    seed: Annotated[int, typer.Option(help="Fixes board, draw and dice.")] = 1,
    workdir: Annotated[str | None, typer.Option("--dir", help="Work folder (default: new)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON summary.")] = False,
    scenario: Annotated[
        str | None,
        typer.Option(
            help="Seafarers: neue-ufer, vier-inseln, ozeanien, wueste, neue-welt or ueberfahrt"
            " (3-4 players; ueberfahrt 4)."
        ),
    ] = None,
    kronlande: Annotated[
        bool, typer.Option("--kronlande", help="Kronlande on the large island (3-6 players).")
    ] = False,
    lang: Annotated[
        str, typer.Option("--lang", help="Game language: the order words the bots write.")
    ] = "de",
) -> None:
    """Play a whole game by real mail over loopback: IMAP and SMTP servers, bots, reports."""
    from rich.console import Console

    from pbm.i18n import languages

    if lang not in languages():
        raise typer.BadParameter(f"lang must be one of {', '.join(languages())}")
    if kronlande and scenario is not None:
        raise typer.BadParameter("--kronlande and --scenario exclude each other")
    if scenario is not None:
        from pbm.rules.scenarios import PLAYER_COUNTS, SCENARIOS, game_refusal

        # Refused before any server starts: the game would be refused at its creation.
        if scenario not in SCENARIOS:
            raise typer.BadParameter(f"scenario must be one of {', '.join(SCENARIOS)}")
        if players not in PLAYER_COUNTS:
            raise typer.BadParameter("a Seafarers scenario is for 3 or 4 players")
        why = game_refusal(scenario, players)
        if why is not None:
            raise typer.BadParameter(why)

    from pbm.demo import result_json, run_demo
    from pbm.notation.vocab import colour_name

    console = Console(stderr=True)
    last: list[tuple[str, int]] = [("", -1)]

    def progress(state: GameState) -> None:
        now = (str(state.phase), state.round if state.phase != Phase.SETUP else state.setup_step)
        if now != last[0] and not as_json:
            last[0] = now
            what = (
                f"setup: placement {state.setup_step + 1}"
                if state.phase == Phase.SETUP
                else f"round {state.round}"
            )
            vp = " ".join(
                f"{colour_name(c, lang)}:{state.vp(p)}" for p, c in enumerate(state.colours)
            )
            console.print(f"[bold]{what}[/bold]  {vp}")

    result = run_demo(players, seed, workdir, progress, scenario, kronlande, lang)
    if as_json:
        typer.echo(result_json(result))
        return
    print_closing(console, result)


def print_closing(console: Console, result: DemoResult) -> None:
    """The demo's last lines: who won, the mails, the work folder and a command to try. The
    command stands on a line of its own, never wrapped (a narrow terminal broke it in two),
    its folder quoted where the shell needs it, so that it can be copied as it stands."""
    console.print(f"[green]winner:[/green] {result.winner} after {result.rounds} rounds")
    console.print(f"mails in {result.mails_in}, mails out {result.mails_out}, {result.seconds} s")
    console.print(
        f"work folder: {result.dir} (index.html, mails/, pbm.toml)", soft_wrap=True, markup=False
    )
    console.print("try:")
    config = shlex.quote(f"{result.dir}/pbm.toml")
    console.print(f"  pbm --config {config} game show demo", soft_wrap=True, markup=False)
