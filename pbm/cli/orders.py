"""`pbm orders check`: an order mail parsed against a seeded board (no database)."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from pbm.i18n import languages
from pbm.notation import Context, NotationError, parse_mail, vocab
from pbm.notation.context import seat_names
from pbm.notation.text import fold
from pbm.rules.layouts import BOARD_VERSION, default_size, generate_board
from pbm.rules.state import DEFAULT_COLOURS

from .clean import clean, cleaned

app = typer.Typer(help="Work with order mails.", no_args_is_help=True)


@app.command("check")
def orders_check(
    file: Annotated[typer.FileText, typer.Argument(help="A mail body (or - for stdin).")],
    seed: Annotated[int, typer.Option(help="Board seed, as for `pbm board`.")] = 0,
    players: Annotated[int, typer.Option(min=3, max=6, help="Players (picks the size).")] = 4,
    size: Annotated[str | None, typer.Option(help="Island size (default by players).")] = None,
    phase: Annotated[str, typer.Option(help="setup or round.")] = "round",
    lang: Annotated[str, typer.Option(help="Game language: de, en or da.")] = "de",
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
    scenario: Annotated[
        str | None,
        typer.Option(help="A Seafarers scenario's board (neue-ufer, ozeanien, wueste, …)."),
    ] = None,
    kronlande: Annotated[
        bool,
        typer.Option("--kronlande", help="The Kronlande island (--size large or huge)."),
    ] = False,
    name: Annotated[
        list[str] | None,
        typer.Option(
            "--name",
            help="A player's name and colour, NAME=COLOUR (repeatable): a line that names a "
            "player (`raube Anna`, `Handel mit Bernd: …`) reads as the service reads it.",
        ),
    ] = None,
    board_version: Annotated[
        int,
        typer.Option(
            min=1,
            max=BOARD_VERSION,
            help="How the board was laid: 1 for a game started before the red tokens were "
            "spread (a base island) or before scenario board version 2 (New Shores, Through "
            "the Desert): its stored board has no version.",
        ),
    ] = BOARD_VERSION,
) -> None:
    """Parse an order mail against a seeded board and print each line's result.

    Exit status 0 when every line is understood, 1 otherwise."""
    if phase not in ("setup", "round"):
        raise typer.BadParameter("phase must be setup or round")
    if lang not in languages():
        raise typer.BadParameter(f"lang must be one of {', '.join(languages())}")
    if kronlande:
        from pbm.rules.kron_board import generate_kron_board
        from pbm.rules.layouts import KRON_ISLANDS

        if scenario is not None:
            raise typer.BadParameter("--kronlande and --scenario exclude each other")
        if (size or "large") not in KRON_ISLANDS:
            raise typer.BadParameter("Kronlande is played on the large or the huge island")
        b = generate_kron_board(size or "large", seed)
    elif scenario is not None:
        from pbm.rules.scenarios import PLAYER_COUNTS, SCENARIOS, scenario_board

        if scenario not in SCENARIOS:
            raise typer.BadParameter(f"scenario must be one of {', '.join(SCENARIOS)}")
        if players not in PLAYER_COUNTS or size is not None:
            raise typer.BadParameter("a Seafarers scenario is for 3 or 4 players, without --size")
        b = scenario_board(scenario, players, seed, board_version)
    else:
        b = generate_board(size or default_size(players), seed, board_version)
    ctx = Context(b, lang, DEFAULT_COLOURS[:players], phase, names=_names(name or [], players))
    parsed = parse_mail(file.read(), ctx)
    # The mail is a player's text: what is printed of it is cleaned of control characters.
    if as_json:
        typer.echo(json.dumps(cleaned([r.to_json(lang) for r in parsed.lines]), ensure_ascii=False))
    else:
        for r in parsed.lines:
            if r.ok:
                typer.echo(f"{r.line:4}  ok     {clean(r.canonical)}")
            else:
                assert r.error is not None
                col = f", column {r.error.column}" if r.error.column else ""
                message = clean(r.error.localized(lang))
                typer.echo(f"{r.line:4}  error  {clean(r.text)}\n            {message}{col}")
                for cand in r.error.candidates:
                    typer.echo(f"            candidate: {clean(cand)}")
    raise typer.Exit(0 if parsed.ok else 1)


def _names(given: list[str], players: int) -> tuple[tuple[str, int], ...]:
    """`NAME=COLOUR` options as the parser's name table (`Context.names`)."""
    pairs = []
    for item in given:
        player, sep, colour_word = item.rpartition("=")
        try:
            colour = vocab.colour(fold(colour_word.strip())[0]) if sep else ""
        except NotationError:
            colour = ""
        if not player.strip() or colour not in DEFAULT_COLOURS[:players]:
            raise typer.BadParameter(
                f"--name {item!r}: write NAME=COLOUR with the colour of one of the "
                f"{players} seats ({', '.join(DEFAULT_COLOURS[:players])})"
            )
        pairs.append((player, DEFAULT_COLOURS.index(colour)))
    return seat_names(pairs)
