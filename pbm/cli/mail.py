"""`pbm mail …`: inbound mail fed by hand, quarantined, read again."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from .clean import cleaned
from .common import reader, refusals, service
from .output import JsonOpt, echo, show

app = typer.Typer(help="Inbound mail: feed, quarantine, requeue.", no_args_is_help=True)


@app.command("ingest")
def mail_ingest(
    file: Annotated[
        Path | None, typer.Argument(help="A raw mail (.eml); - or none: standard input.")
    ] = None,
) -> None:
    """Feed one raw mail to the service, as the IMAP poller would (also for a local MTA's pipe)."""
    from pbm.service import admin

    # "-" is standard input, as for other tools; a file of that name is "./-".
    raw = sys.stdin.buffer.read() if file is None or str(file) == "-" else file.read_bytes()
    result = admin.take_in(service(), raw)
    echo(f"mail {result.mail_id}: {result.status}")


@app.command("quarantine")
def mail_quarantine(as_json: JsonOpt = False) -> None:
    """Mails whose processing failed, kept with their error."""
    from pbm.service import admin

    rows: list[dict[str, Any]] = cleaned(admin.quarantined(reader()))

    def text() -> None:
        if not rows:
            echo("no mail in quarantine")
        for r in rows:
            echo(f"{r['id']:5} {r['sender']:30} {r['subject'][:30]:30} {r['error']}")

    show(rows, as_json, text)


@app.command("requeue")
def mail_requeue(mail_id: int) -> None:
    """Process a quarantined mail again (or one held for a broken game); a mail that was
    processed is refused: it is never processed twice."""
    from pbm.service import admin

    svc = service()
    with refusals():
        result = admin.requeue_mail(svc, mail_id)
    echo(f"mail {mail_id}: {result.status}")
