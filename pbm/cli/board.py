"""`pbm board`: a seeded board, as the reports draw it or as JSON (no database)."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from pbm.rules.layouts import SIZES, default_size, generate_board


def board(
    seed: Annotated[int, typer.Option(help="Board seed (a game's seed gives its board).")] = 0,
    players: Annotated[int, typer.Option(min=3, max=6, help="Players (picks the size).")] = 4,
    size: Annotated[str | None, typer.Option(help="small, medium, large or huge.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the board as JSON.")] = False,
    lang: Annotated[str, typer.Option(help="de, en or da: the map's letters and legend.")] = "de",
    layout: Annotated[
        str, typer.Option(help="variable (seeded), or beginner: the rule book's fixed start.")
    ] = "variable",
    scenario: Annotated[
        str | None,
        typer.Option(
            help="A Seafarers scenario (neue-ufer, vier-inseln, ozeanien, wueste, neue-welt,"
            " ueberfahrt)."
        ),
    ] = None,
    kronlande: Annotated[
        bool,
        typer.Option("--kronlande", help="The Kronlande island (--size large or huge)."),
    ] = False,
) -> None:
    """Print the seeded board: the text map of the reports, or JSON with hexes, crossings
    and paths. `--layout beginner`: the beginner board with its starting pieces (the map).
    `--kronlande`: the Kronlande island with its quarries and fishing grounds."""
    if layout not in ("variable", "beginner"):
        raise typer.BadParameter("layout must be variable or beginner")
    from pbm import i18n

    if lang not in i18n.languages():
        # As `pbm game create` refuses it: a board for a language with no words of its own
        # would show another's letters.
        raise typer.BadParameter(f"lang must be one of {', '.join(i18n.languages())}")
    if seed < 0:
        raise typer.BadParameter("seed must be 0 or more")
    if kronlande:
        if scenario is not None:
            raise typer.BadParameter("--kronlande and --scenario exclude each other")
        _kron_board(players, seed, as_json, lang, layout, size)
        return
    if scenario is not None:
        _scenario_board(scenario, players, seed, as_json, lang, layout, size)
        return
    size = size or default_size(players)
    if size not in SIZES:
        raise typer.BadParameter(f"size must be one of {', '.join(SIZES)}")
    if layout == "beginner":
        from pbm.rules.beginner import beginner_board, check_beginner

        problem = check_beginner(players, size)
        if problem:
            raise typer.BadParameter(problem)
        b = beginner_board()
    else:
        b = generate_board(size, seed)
    if as_json:
        typer.echo(json.dumps(b.to_json(), ensure_ascii=False))
    else:
        from pbm.reports.text_map import draw
        from pbm.rules.state import Settings, new_game

        state = new_game(Settings.for_players(players, size), seed, board=b)
        if layout == "beginner":
            from pbm.rules.beginner import beginner_start

            state = beginner_start(state)[0]
        typer.echo(draw(state, _map_lang(lang)))


def _scenario_board(
    key: str, players: int, seed: int, as_json: bool, lang: str, layout: str, size: str | None
) -> None:
    """`pbm board --scenario NAME`: the scenario's board laid by the seed."""
    from pbm.rules.scenarios import PLAYER_COUNTS, SCENARIOS

    if key not in SCENARIOS:
        raise typer.BadParameter(f"scenario must be one of {', '.join(SCENARIOS)}")
    if players not in PLAYER_COUNTS:
        raise typer.BadParameter("a Seafarers scenario is for 3 or 4 players")
    if layout != "variable" or size is not None:
        raise typer.BadParameter("--scenario excludes --layout and --size")
    from pbm.rules.state import Settings, board_for, new_game

    settings = Settings.for_scenario(key, players)
    if as_json:
        # The board a new game of the scenario gets (`board_for`, as the text map's game).
        typer.echo(json.dumps(board_for(settings, seed).to_json(), ensure_ascii=False))
        return
    from pbm.reports.text_map import draw

    state = new_game(settings, seed)
    typer.echo(draw(state, _map_lang(lang)))


def _kron_board(
    players: int, seed: int, as_json: bool, lang: str, layout: str, size: str | None
) -> None:
    """`pbm board --kronlande [--size large|huge]`: the Kronlande island laid by the seed."""
    from pbm.rules.kron_board import generate_kron_board
    from pbm.rules.layouts import KRON_ISLANDS

    size = size or "large"
    if size not in KRON_ISLANDS:
        raise typer.BadParameter(
            f"Kronlande is played on the large or the huge island (--size large or huge), "
            f"not {size}"
        )
    if layout != "variable":
        raise typer.BadParameter("--kronlande excludes --layout beginner")
    b = generate_kron_board(size, seed)
    if as_json:
        typer.echo(json.dumps(b.to_json(), ensure_ascii=False))
        return
    from pbm.reports.text_map import draw
    from pbm.rules.state import Settings, new_game

    state = new_game(Settings.for_kronlande(players, size), seed)
    typer.echo(draw(state, _map_lang(lang)))


def _map_lang(lang: str) -> str:
    """The map's language: a game language, or German for any other (`pbm board` takes
    what it is given, as it did when it knew two)."""
    from pbm.i18n import DEFAULT, languages

    return lang if lang in languages() else DEFAULT
