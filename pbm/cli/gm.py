"""`pbm gm …`: the game master's own settings."""

from __future__ import annotations

import typer

from .common import service
from .output import echo

app = typer.Typer(help="The game master: the password for mail commands.", no_args_is_help=True)


@app.command("password")
def gm_password() -> None:
    """Make a new GM password for mail commands and print it once; only its hash is stored,
    and the old password stops working. Mail from a `[service] gm` address with this
    password in a line `Password: …` may pause, resume, extend a deadline, announce and
    message players (docs/gm-guide.md, "The game master by mail")."""
    from pbm.service import admin

    password = admin.gm_password(service())
    echo(f"GM password: {password}")
    echo("Keep it: only its hash is stored. `pbm gm password` makes a new one.")
