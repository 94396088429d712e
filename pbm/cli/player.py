"""`pbm player …`: the players of a game: seated, and signed up but not yet confirmed."""

from __future__ import annotations

from typing import Annotated

import typer

from .clean import with_names_cut
from .common import reader, refusals, service
from .output import JsonOpt, colour_named, echo, player_table, show

app = typer.Typer(help="Players of a game.", no_args_is_help=True)


@app.command("list")
def player_list(name: str, as_json: JsonOpt = False) -> None:
    """The seated players, then, while the signup is open, the sign-ups by mail not yet
    confirmed (`signup_pending`, no seat)."""
    from pbm.service import admin

    svc = reader()
    with refusals():
        rows = with_names_cut(admin.list_players(svc, name))

    def text() -> None:
        if not rows:
            echo(f"{name}: no players yet")
            return
        for line in player_table(rows):
            echo(line)

    show(rows, as_json, text)


@app.command("add")
def player_add(
    name: str,
    address: str,
    player_name: Annotated[
        str, typer.Option("--name", help="The player's name (else the address).")
    ] = "",
    colours: Annotated[
        str, typer.Option("--colours", help="Colour wishes in order, as players write them.")
    ] = "",
) -> None:
    """Seat an address in a game open for signup, without a confirmation by mail (you vouch
    for it). A sign-up of the address waiting for its confirmation is confirmed. The player gets
    the signup mail; when the table is full the seats are drawn."""
    from pbm.service import admin

    svc = service()
    with refusals():
        row = with_names_cut([admin.add_player(svc, name, address, player_name, colours)])[0]
    echo(f"{name}: {row['address']} joined as {row['name']}")


@app.command("replace")
def player_replace(
    name: str,
    colour: str,
    address: str,
    player_name: Annotated[
        str, typer.Option("--name", help="The new player's name (else the address).")
    ] = "",
) -> None:
    """A new person takes a seat: new address and password, same seat and colour. The new
    player gets the hand, board, round and deadline; the leaving one and the others are told."""
    from pbm.service import admin

    svc = service()
    with refusals():
        admin.replace_player(svc, name, colour, address, player_name)
    echo(
        f"{name}: {colour_named(colour)} is now {address}; a welcome mail with the password is "
        "queued"
    )


@app.command("password")
def player_password(name: str, colour: str) -> None:
    """A new password for a player who lost theirs, mailed to their registered address."""
    from pbm.service import admin

    svc = service()
    with refusals():
        address = admin.new_password(svc, name, colour)
    echo(f"{name}: a new password for {colour_named(colour)} is queued to {address}")


@app.command("autopilot")
def player_autopilot(name: str, colour: str, state: str) -> None:
    """Switch the autopilot for a seat `on` or `off`."""
    from pbm.service import admin

    if state not in ("on", "off"):
        raise typer.BadParameter("on or off")
    svc = service()
    with refusals():
        changed = admin.set_autopilot(svc, name, colour, state == "on")
    if changed:
        echo(f"{name}: autopilot {state} for {colour_named(colour)}")
    else:
        echo(
            f"{name}: the autopilot was {state} for {colour_named(colour)} already; nothing changed"
        )
