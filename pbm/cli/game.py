"""`pbm game …`: create games and run them."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from .clean import cleaned, with_names_cut
from .common import reader, refusals, service
from .output import JsonOpt, echo, echo_text, player_table, show, when

app = typer.Typer(help="Create and run games.", no_args_is_help=True)


@app.command("create")
def game_create(
    name: Annotated[
        str,
        typer.Argument(
            help="The game's name, which players write in 'Spiel:': letters, digits, -, _ and"
            " . (not at its end; at most 32)."
        ),
    ],
    players: Annotated[
        int, typer.Option(min=3, max=6, help="Seats at the table (a Seafarers scenario: 3-4).")
    ] = 4,
    size: Annotated[
        str | None,
        typer.Option(
            help="small, medium, large, huge (default: medium, large for 5-6 players; Kronlande"
            " large)."
        ),
    ] = None,
    bank: Annotated[
        str | None,
        typer.Option(
            help="classic (19 of each resource, 24 large, 30 huge: a roll can find it short) or"
            " unlimited (default: the edition's: unlimited if modern, else classic)."
        ),
    ] = None,
    deadline: Annotated[str, typer.Option(help="normal, relaxed, fast or off")] = "normal",
    lang: Annotated[str, typer.Option(help="de, en or da")] = "de",
    seed: Annotated[int | None, typer.Option(help="Fixes board and dice.")] = None,
    early: Annotated[bool, typer.Option(help="Resolve when all orders are in.")] = True,
    card_limit: Annotated[
        int,
        typer.Option(
            help="A 7 makes a player holding more than this many cards discard half (0-99)."
        ),
    ] = 7,
    newcomer_protection: Annotated[
        bool,
        typer.Option(
            help="The robber may not go next to a player with 2 visible victory points or less."
        ),
    ] = False,
    vp_target: Annotated[
        int | None,
        typer.Option(
            help="Victory points to win, 3-30 (default: the island's, the scenario's or"
            " Kronlande's)."
        ),
    ] = None,
    nmr_autopilot: Annotated[
        int,
        typer.Option(
            help="Rounds in a row without orders (NMRs) before the autopilot plays a seat (1-99)."
        ),
    ] = 3,
    anonymous: Annotated[
        bool, typer.Option("--anonymous", help="Never show players' addresses.")
    ] = False,
    press: Annotated[
        str, typer.Option(help="Player messages: normal, anonymous (unsigned allowed) or none.")
    ] = "normal",
    away_wait: Annotated[
        int,
        typer.Option(help="Days a deadline waits for an absent player, once (0: the autopilot)."),
    ] = 0,
    edition: Annotated[
        str,
        typer.Option(
            help="klassisch, or modern: the modern edition's words in a German game (Bandit,"
            " Projektkarte, …) and its unlimited bank."
        ),
    ] = "klassisch",
    layout: Annotated[
        str, typer.Option(help="variable, or beginner: the rule book's fixed start, no setup.")
    ] = "variable",
    scenario: Annotated[
        str | None,
        typer.Option(
            help="Seafarers: neue-ufer, vier-inseln, ozeanien, wueste, neue-welt or ueberfahrt"
            " (3-4 players; ueberfahrt 4)."
        ),
    ] = None,
    pirate: Annotated[bool, typer.Option(help="Seafarers: play with the pirate.")] = True,
    kronlande: Annotated[
        bool,
        typer.Option(
            "--kronlande",
            help="Kronlande: stone, fish, goods, castles (--size large or huge, 3-6 players).",
        ),
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Create a game and open its signup."""
    from pbm.service import admin

    svc = service()
    with refusals():
        data = admin.new_game(
            svc,
            name,
            players=players,
            size=size,
            bank=bank,
            deadline=deadline,
            lang=lang,
            seed=seed,
            early_resolve=early,
            card_limit=card_limit,
            newcomer_protection=newcomer_protection,
            vp_target=vp_target,
            nmr_autopilot_after=nmr_autopilot,
            anonymous=anonymous,
            press=press,
            away_wait_days=away_wait,
            edition=edition,
            layout=layout,
            scenario=scenario,
            pirate=pirate,
            kronlande=kronlande,
        )
    show(data, as_json, lambda: echo(f"created {name}: signup open"))


@app.command("list")
def game_list(as_json: JsonOpt = False) -> None:
    """Every game with its phase and round; a game the service stopped shows why."""
    from pbm.service import admin

    rows: list[dict[str, Any]] = cleaned(admin.list_games(reader()))

    def text() -> None:
        if not rows:
            echo("no games yet (`pbm game create NAME` makes one)")
        for r in rows:
            paused = " (paused)" if r["paused"] else ""
            broken = f" (broken: {r['broken']})" if r["broken"] else ""
            # An ended game is at no round any more (`--json` keeps its last one).
            at = "" if r["phase"] == "ended" else f"round {r['round']:3}"
            echo(
                f"{r['name']:20} {r['phase']:8} {at:9} "
                f"{r['players']}/{r['seats'] or '?'} players, {_played(r)}{paused}{broken}"
            )

    show(rows, as_json, text)


def _played(row: dict[str, Any]) -> str:
    """What a game plays, for its `pbm game list` line: the Seafarers scenario, Kronlande on
    its island, or the base island."""
    if row["seats"] is None:
        return "settings unreadable"
    if row["scenario"]:
        return f"{row['scenario']}" + ("" if row["pirate"] else " (no pirate)")
    return f"Kronlande {row['size']}" if row["kronlande"] else f"{row['size']} island"


@app.command("show")
def game_show(name: str, as_json: JsonOpt = False) -> None:
    """A game's settings, deadline and players; a game the service stopped shows why."""
    from pbm.service import admin

    svc = reader()
    with refusals():
        data: dict[str, Any] = cleaned(admin.show_game(svc, name))
    data["players_list"] = with_names_cut(data["players_list"])

    show(data, as_json, lambda: _show_text(data))


def _plays(d: dict[str, Any]) -> str:
    """What a game plays, in words, for `pbm game show`."""
    from pbm.reports.identity_sea import scenario_name

    if d["seats"] is None:
        return "settings unreadable"
    if d["scenario"]:
        pirate = "with the pirate" if d["pirate"] else "without the pirate"
        return f"Seafarers: {scenario_name(d['scenario'], 'en')} ({d['scenario']}), {pirate}"
    if d["kronlande"]:
        return f"Kronlande on the {d['size']} island"
    layout = ", beginner setup" if d["layout"] == "beginner" else ""
    return f"base game on the {d['size']} island{layout}"


def _bank(d: dict[str, Any]) -> str:
    """The bank for `pbm game show`, and whether it is the edition's own."""
    own = "unlimited" if d["edition"] == "modern" else "classic"
    return f"{d['bank']}" + (
        " (the edition's)" if d["bank"] == own else f" (not the edition's {own})"
    )


def _card_limit(limit: int) -> str:
    return f"{limit}: a 7 makes a player holding more than {limit} cards discard half"


def _show_text(d: dict[str, Any]) -> None:
    """`pbm game show` for people: one line per setting in words, then the players as a
    table; what does not apply (no deadline, a nonce not yet revealed) is said or left out,
    never printed as None."""
    phase = str(d["phase"])
    if phase in ("setup", "rounds"):
        phase += f", round {d['round']}"
    if d["paused"]:
        phase += ", paused"
    away = d["away_wait_days"]
    lines = [
        ("name", d["name"]),
        ("phase", phase),
        ("players", f"{d['players']} of {d['seats'] if d['seats'] is not None else '?'} seats"),
        ("plays", _plays(d)),
    ]
    if d["seats"] is not None:
        lines += [
            ("goal", f"{d['vp_target']} victory points"),
            ("bank", _bank(d)),
            ("card limit", _card_limit(d["card_limit"])),
            (
                "newcomers",
                "protected: the robber never goes next to 2 visible victory points or less"
                if d["newcomer_protection"]
                else "not protected",
            ),
        ]
    nmrs = d["nmr_autopilot_after"]
    lines += [
        ("deadline", f"{when(d['deadline'])} (preset {d['deadline_preset']})"),
        (
            "early resolve",
            "on: a round resolves once every seat's orders are in"
            if d["early_resolve"]
            else "off: a round resolves at its deadline",
        ),
        ("autopilot", f"after {nmrs} round{'s' if nmrs != 1 else ''} in a row without orders"),
        ("language", f"{d['lang']}, edition {d['edition']}, layout {d['layout']}"),
        ("press", d["press"]),
        ("addresses", "never shown (anonymous)" if d["anonymous"] else "shown to the players"),
        (
            "away wait",
            f"{away} days, once per player" if away else "none: the autopilot plays an absent seat",
        ),
        ("seed", d["seed"]),
    ]
    if d["seal_nonce"]:
        lines.append(("seal nonce", d["seal_nonce"]))
    if d["broken"]:
        lines.append(("broken", d["broken"]))  # nothing to say about a game that is fine
    for key, value in lines:
        echo(f"{key:16} {value}")
    echo("")
    rows = d["players_list"]
    if not rows:
        echo("no players seated yet")
        return
    for line in player_table(rows):
        echo(line)


@app.command("start")
def game_start(name: str) -> None:
    """Close the signup early and draw seats with the players who joined (at least 3)."""
    from pbm.service import admin

    svc = service()
    with refusals():
        admin.start_game(svc, name)
    echo(f"{name}: seats drawn, setup begins")


@app.command("pause")
def game_pause(name: str) -> None:
    """Stop deadlines and orders until resume."""
    from pbm.service import admin

    svc = service()
    with refusals():
        changed = admin.pause_game(svc, name)
    echo(f"{name}: paused" if changed else f"{name}: paused already; nothing changed")


@app.command("resume")
def game_resume(name: str) -> None:
    """Restart deadlines and orders; a game the service marked broken runs again, and the
    mails held for it meanwhile are read now, oldest first."""
    from pbm.service.broken import resume

    svc = service()
    ran: list[bool] = []
    with refusals():
        held = resume(svc, name, ran)
    if ran == [True] and not held:
        echo(f"{name}: running already; nothing changed")
        return
    echo(f"{name}: running" + (f"; {len(held)} held mails read" if held else ""))


@app.command("end")
def game_end(
    name: str,
    why: Annotated[str, typer.Option(help="Why: every player reads it.")] = "",
) -> None:
    """End a game before its time: no more deadlines or orders; every player is told."""
    from pbm.service import admin

    svc = service()
    with refusals():
        admin.end_game(svc, name, why)
    echo(f"{name}: ended; the players are told")


#: `--file FILE` of `pbm game announce` and `pbm game message`: the text from a file, or from
#: standard input for `-` (several lines, no shell quoting).
FileOpt = Annotated[
    str | None,
    typer.Option("--file", "-f", metavar="FILE", help="Read the text from FILE ('-': stdin)."),
]


def _text(text: str | None, file: str | None) -> str:
    """The GM's text: the argument, else the file, else standard input (`-` as TEXT or FILE).
    Exactly one source; the file is read as UTF-8."""
    import sys

    if file is not None and text is not None:
        echo("error: give the text or --file, not both", err=True)
        raise typer.Exit(2)
    source = file if file is not None else text
    if source is None:
        echo("error: no text: give TEXT, --file FILE, or - for standard input", err=True)
        raise typer.Exit(2)
    if source == "-" and (file is not None or text == "-"):
        return sys.stdin.read()
    if file is None:
        return source
    try:
        return Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        echo(f"error: {file}: cannot read it ({exc.__class__.__name__})", err=True)
        raise typer.Exit(2) from None


@app.command("announce")
def game_announce(
    name: str,
    text: Annotated[str | None, typer.Argument(metavar="[TEXT|-]")] = None,
    file: FileOpt = None,
) -> None:
    """Mail TEXT from the game master to every player and observer of the game: the argument,
    `--file FILE`, or standard input with `-` (several lines)."""
    from pbm.service import admin

    body = _text(text, file)
    svc = service()
    with refusals():
        count = admin.announce(svc, name, body)
    echo(f"{name}: announcement queued to {_addresses(count)}")


@app.command("message")
def game_message(
    name: str,
    to: Annotated[str | None, typer.Argument(metavar="[COLOUR|all]")] = None,
    text: Annotated[str | None, typer.Argument(metavar="[TEXT|-]")] = None,
    file: FileOpt = None,
) -> None:
    """Mail TEXT from the game master to one colour (in that player's thread with the GM), or
    to all (the default: `pbm game message GAME TEXT`). The text: the argument, `--file
    FILE`, or standard input with `-` (several lines)."""
    from pbm.service import admin

    if text is None and file is None and to is not None and _names_a_recipient(to):
        # `pbm game message insel rot` with the text forgotten: never the word sent as one.
        echo(
            "error: no text: `pbm game message GAME COLOUR|all TEXT` (or `-`, `--file FILE`)",
            err=True,
        )
        raise typer.Exit(2)
    if text is None and (file is None or to is None):
        # `pbm game message GAME TEXT`, `pbm game message GAME -`, `… GAME --file F`.
        to, text = "all", to
    body = _text(text, file)
    svc = service()
    with refusals():
        addresses = admin.message(svc, name, to or "all", body)
    echo(f"{name}: message queued to {_addresses(len(addresses))}")


def _names_a_recipient(word: str) -> bool:
    """Whether a lone word is a colour (in any game language) or `all`: a recipient, never a
    whole message."""
    from pbm.notation import vocab
    from pbm.notation.text import simple
    from pbm.service.press import names_all

    return names_all(word) or simple(word.strip()) in vocab.COLOUR_WORDS


def _addresses(count: int) -> str:
    return f"{count} address" if count == 1 else f"{count} addresses"


@app.command("archive")
def game_archive(name: str, directory: Path) -> None:
    """Write the game's static web archive into DIRECTORY: an index page (players, standing,
    the VP chart, the rounds) and one page per round; only what was public, never a secret."""
    from pbm.service.archive import write_archive

    svc = reader()
    with refusals():
        files = write_archive(svc, name, directory)
    echo(f"{name}: {len(files)} files in {directory}")


@app.command("replay")
def game_replay(name: str, as_json: JsonOpt = False) -> None:
    """Rebuild the game from settings, seed and stored orders; compare with the stored events.
    Exit status 1 on any difference."""
    from pbm.service import admin

    svc = reader()
    with refusals():
        result = admin.replay_game(svc, name)
    data = {"steps": result.steps, "ok": result.ok, "mismatches": result.mismatches}
    show(
        data,
        as_json,
        lambda: echo(
            f"{result.steps} steps replayed: "
            + (
                "identical"
                if result.ok
                else "differences at steps " + ", ".join(str(m) for m in result.mismatches)
            )
        ),
    )
    raise typer.Exit(0 if result.ok else 1)


@app.command("verify")
def game_verify(name: str, as_json: JsonOpt = False) -> None:
    """Check the game's dice: the seal of the welcome mails against the seed, and every
    round's rolls against the seed, the records and every report sent (docs/fair-dice.md).
    Exit status 1 when anything differs."""
    from pbm.service import admin

    svc = reader()
    with refusals():
        result = admin.verify_game(svc, name)

    def text() -> None:
        if result.seal_ok is None:
            # A game with a nonce is one of today's: its welcome mails have not gone yet.
            why = "none has gone yet" if result.salted else "an older game"
            echo(f"seal    {result.seal} (shown in no welcome mail sent: {why})")
        else:
            state = "ok" if result.seal_ok else "WRONG"
            what = "seed and nonce" if result.salted else "seed"
            revealed = f", {what} revealed" if result.revealed else ""
            echo(f"seal    {result.seal}: {state} ({result.welcomes} welcome mails{revealed})")
        if result.salted:
            echo("        SHA-256 of SEED:NONCE")
        else:
            echo("        SHA-256 of the seed alone (a game created before seal nonces)")
        for line in result.seal_problems:
            echo(f"        {line}")
        reports = sum(r.reports for r in result.rounds)
        state = "ok" if result.rolls_ok else "WRONG"
        echo(f"rolls   {state} ({len(result.rounds)} rounds, {reports} reports compared)")
        for r in result.rounds:
            dice = ", ".join(f"{c} {a}+{b}" for c, a, b in r.rolls)
            mark = "" if r.sealed else " (before sealed dice: against its record only)"
            echo(f"  round {r.round:3}: {dice}{mark}")
            for line in r.problems:
                echo(f"             {line}")

    show(result.to_json(), as_json, text)
    raise typer.Exit(0 if result.rolls_ok and result.seal_ok is not False else 1)


@app.command("board")
def game_board(
    name: str,
    png: Annotated[Path | None, typer.Option("--png", help="Write the picture here.")] = None,
) -> None:
    """The board of a running game: a text map, or the PNG picture with `--png FILE`."""
    from pbm.files import write_private
    from pbm.service import admin

    svc = reader()
    with refusals():
        if png:
            write_private(png, admin.board_picture(svc, name))
        else:
            board = admin.board_map(svc, name)
    if png:
        echo(f"{png}: {png.stat().st_size} bytes")
    else:
        echo_text(board)


@app.command("tick")
def game_tick() -> None:
    """Do what is due now in every game (deadlines, reminders), once."""
    from pbm.service.tick import tick

    result = tick(service())

    def games(names: list[str]) -> str:
        return ", ".join(names) if names else "none"

    echo(
        f"resolved: {games(result.resolved)}; setup placed: {games(result.placed)};"
        f" reminded: {games(result.reminded)}"
    )
    if result.broken:
        echo(f"marked broken: {games(result.broken)} (`pbm game show` says why)")
