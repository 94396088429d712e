"""`pbm observer …`: who gets a game's reports without a seat."""

from __future__ import annotations

from typing import Any

import typer

from .clean import cleaned
from .common import reader, refusals, service
from .output import JsonOpt, echo, show, when

app = typer.Typer(
    help="Observers of a game: who gets the reports without a seat.", no_args_is_help=True
)


@app.command("list")
def observer_list(name: str, as_json: JsonOpt = False) -> None:
    """Observers of a game: confirmed (`observer`) and asked but not confirmed
    (`observer_pending`, no reports yet)."""
    from pbm.service import admin

    svc = reader()
    with refusals():
        rows: list[dict[str, Any]] = cleaned(admin.list_observers(svc, name))

    def text() -> None:
        if not rows:
            echo(f"{name}: no observers")
        for r in rows:
            echo(f"{r['address']:40} {r['status']:16} since {when(r['since'])}")

    show(rows, as_json, text)


@app.command("remove")
def observer_remove(name: str, address: str) -> None:
    """Stop an observer's reports (confirmed or pending)."""
    from pbm.service import admin

    svc = service()
    with refusals():
        shown = admin.drop_observer(svc, name, address)
    echo(f"{name}: {shown} no longer observes")
