"""`pbm serve` (the service until SIGTERM) and `pbm poll` (one pass, for cron), and the logging
`pbm serve` runs with."""

from __future__ import annotations

import logging
from typing import Annotated, TextIO

import typer

from .common import config, service
from .output import JsonOpt, echo, show

#: Third-party loggers held at WARNING, with `pbm serve -v` too: at DEBUG aioimaplib logs every
#: IMAP line (LOGIN with the password, FETCH with whole mails), aiosmtplib every SMTP line (AUTH,
#: DATA), aiosmtpd ("mail.log") and pymap their sessions, sqlalchemy statements with parameters;
#: httpx2 and Authlib each request to the OAuth2 token endpoint.
QUIET_LOGGERS = (
    "aioimaplib",
    "aiosmtplib",
    "httpx2",
    "httpcore2",
    "authlib",
    "aiosmtpd",
    "mail.log",
    "pymap",
    "asyncio",
    "sqlalchemy",
)


def configure_logging(verbose: bool, stream: TextIO | None = None) -> None:
    """Logging for `pbm serve`: INFO lines to stderr (or `stream`); `verbose` lowers only the
    "pbm" logger to DEBUG, never the mail or database libraries' (QUIET_LOGGERS)."""
    logging.basicConfig(format="%(asctime)s %(levelname)s %(message)s", stream=stream)
    # basicConfig sets no level when the root logger has a handler already.
    logging.getLogger().setLevel(logging.INFO)
    logging.getLogger("pbm").setLevel(logging.DEBUG if verbose else logging.INFO)
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)


def serve_cmd(
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="Log pbm's debug lines.")
    ] = False,
) -> None:
    """Run the service: the IMAP inbox, deadlines and the SMTP outbox, until SIGTERM."""
    import asyncio

    from pbm.service.heap import freeze_startup, map_large_blocks, one_arena
    from pbm.service.serve import serve

    cfg = config()  # a config that cannot be used stops here, before the first log line
    configure_logging(verbose)
    one_arena()  # before the loops start their threads
    map_large_blocks()
    svc = service(cfg=cfg, apart=True)
    freeze_startup()  # what is loaded by now lives as long as the process
    asyncio.run(serve(svc))
    # At a clean stop (SIGTERM, SIGINT) the command ends here: `common.close_services` then
    # writes the WAL back and cuts it (`store.db.scrub`), so no old page with a password stays
    # in pbm.db-wal, and closes the database.


def poll_cmd(as_json: JsonOpt = False) -> None:
    """One pass of everything (stored mails, the inbox, deadlines, the outbox), then exit."""
    import asyncio

    from pbm.service.serve import poll_once

    cfg = config()
    # Closed with the WAL written back and cut when the command ends (`common.close_services`).
    result = asyncio.run(poll_once(service(cfg=cfg, apart=True)))
    show(result, as_json, lambda: echo(" ".join(f"{k}={v}" for k, v in result.items())))
    if result["inbox_failed"]:
        # The rest of the pass was done; a cron job's monitoring sees the inbox was not read.
        raise typer.Exit(1)
