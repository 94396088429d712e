"""`pbm codebook` (a player's table, from the database) and `pbm decode` (a sealed notice
opened with a player's key, no database)."""

from __future__ import annotations

from typing import Annotated

import typer

from .common import reader, refusals
from .output import echo


def codebook_cmd(name: str, colour: str) -> None:
    """A player's codebook, for the GM to send to a player who lost it."""
    from pbm.service import admin

    svc = reader()
    with refusals():
        lines = admin.codebook(svc, name, colour)
    for line in lines:
        echo(line)


def decode_cmd(
    token: str,
    key: Annotated[str, typer.Option("--key", help="The key from your welcome mail.")],
) -> None:
    """Read a sealed notice of a card purchase with the player's key (no database needed)."""
    from pbm.reports import codebook

    card = codebook.unseal(key, token)
    if card is None:
        echo("error: this key does not open this notice", err=True)
        raise typer.Exit(1)
    echo(f"{codebook.CARD_NAMES['de'][card]} / {codebook.CARD_NAMES['en'][card]}")
