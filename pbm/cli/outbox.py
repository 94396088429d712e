"""`pbm outbox …`: outgoing mail."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from .clean import cleaned
from .common import reader, refusals, service
from .output import JsonOpt, echo, show, when

app = typer.Typer(help="Outgoing mail.", no_args_is_help=True)


@app.command("list")
def outbox_list(
    status: Annotated[str | None, typer.Option(help="pending, sent, failed, dropped")] = None,
    as_json: JsonOpt = False,
) -> None:
    from pbm.service import admin

    svc = reader()
    with refusals():
        rows: list[dict[str, Any]] = cleaned(admin.outbox_rows(svc, status))

    def text() -> None:
        if not rows:
            echo(f"no {status} mail in the outbox" if status else "the outbox is empty")
        for r in rows:
            echo(f"{r['id']:5} {r['status']:8} {r['kind']:10} {r['to'][:40]:40} {r['subject']}")
            if r["status"] == "pending" and r["attempts"]:
                # Waiting after a failed try: when it is tried next, and why it failed.
                echo(f"      next try {when(r['next_attempt'])}: {r['last_error']}")

    show(rows, as_json, text)


@app.command("retry")
def outbox_retry(row_id: int) -> None:
    """Send a failed outbox mail again; one waiting after a failed try goes at the next outbox
    pass (a dropped one is refused)."""
    from pbm.service import admin

    svc = service()
    with refusals():
        admin.retry_outbox(svc, row_id)
    echo(f"outbox {row_id}: pending again")
