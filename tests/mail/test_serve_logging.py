"""`pbm serve -v` logs pbm's debug lines, never a mail body or a password.

At DEBUG, aioimaplib logs every IMAP line it sends and receives (LOGIN with the mailbox
password, FETCH with whole mails) and aiosmtplib every SMTP line (DATA with the answers). So
`-v` lowers only the "pbm" logger; `pbm.cli.serve.configure_logging` is what `pbm serve` runs.
Here it runs one real serve pass against loopback pymap and aiosmtpd with a player's order mail
(their password and a marker in its body), and every log record that logging lets through is
checked. A control pass with the root logger at DEBUG (what `-v` used to do) shows that the
check would see the leak.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from harness import A_ROAD, ANNA, GM, PLAYERS, Mailer, make_service, start_game
from sqlmodel import Session, select

from pbm.cli.serve import QUIET_LOGGERS, configure_logging
from pbm.devservers.loopback import LoopbackMail
from pbm.service.clock import FakeClock
from pbm.service.serve import serve
from pbm.store.db import transaction
from pbm.store.models import InboundMail, Outbox

IMAP_PASSWORD = "imap-Secret-7c41e"
BODY_MARKER = "BODYMARKER-93b2d0"
PLAYER_PASSWORD = PLAYERS[ANNA][0]


class Records(logging.Handler):
    """Every record that reaches the root logger's handlers, formatted as a handler would."""

    def __init__(self) -> None:
        super().__init__(logging.NOTSET)
        self.lines: list[str] = []
        self.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture
def logging_restored() -> Iterator[None]:
    """The logging set-up as it was: levels of every logger touched, the root's handlers."""
    root = logging.getLogger()
    names = ["pbm", *QUIET_LOGGERS]
    levels = {n: logging.getLogger(n).level for n in names}
    root_level, handlers = root.level, list(root.handlers)
    try:
        yield
    finally:
        for n, level in levels.items():
            logging.getLogger(n).setLevel(level)
        root.setLevel(root_level)
        for h in list(root.handlers):
            if h not in handlers:
                root.removeHandler(h)


def _order_mail() -> bytes:
    body = f"Kennwort: {PLAYER_PASSWORD}\r\nRunde: 1\r\n{A_ROAD[ANNA]}\r\n# {BODY_MARKER}\r\n"
    return (
        f"From: {ANNA}\r\nTo: {GM}\r\nSubject: Zuege\r\n"
        f"Message-ID: <serve-log@players.test>\r\n\r\n{body}"
    ).encode()


async def _one_pass(tmp_path: Path) -> None:
    """Serve until the order mail is processed and its answer sent."""
    clock = FakeClock()
    svc = make_service(tmp_path, clock)
    start_game(Mailer(svc), clock, cast=True)
    with transaction(svc.engine) as s:  # what the game sent so far is out of the way
        for row in s.exec(select(Outbox)):
            row.status = "sent"
    lb = LoopbackMail()
    await lb.start()
    await lb.add_user(GM, IMAP_PASSWORD)
    await lb.add_user(ANNA, "anna-imap")  # the answer is delivered, not refused
    svc.config = svc.config.updated(
        imap={"port": lb.imap.port, "user": GM, "password": IMAP_PASSWORD},
        smtp={"port": lb.smtp_port, "from": GM},
        service={"poll_seconds": 0.2, "tick_seconds": 60, "send_seconds": 0.2},
    )
    stop = asyncio.Event()
    server = asyncio.create_task(serve(svc, stop))

    def settled() -> bool:
        with Session(svc.engine) as s:
            mail = s.exec(
                select(InboundMail).where(InboundMail.message_id == "<serve-log@players.test>")
            ).first()
            sent = s.exec(
                select(Outbox).where(
                    Outbox.in_reply_to == "<serve-log@players.test>", Outbox.status == "sent"
                )
            ).first()
        return mail is not None and mail.status == "done" and sent is not None

    try:
        await lb.imap.append(GM, _order_mail())
        for _ in range(200):
            if server.done() or settled():
                break
            await asyncio.sleep(0.1)
        assert not server.done(), f"pbm serve ended: {server.exception()!r}"
        assert settled(), "the mail was not processed and answered"
    finally:
        stop.set()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(server, 20)
        await lb.stop()
        svc.engine.dispose()


def _leaks(lines: list[str]) -> list[str]:
    return [
        line
        for line in lines
        if BODY_MARKER in line or PLAYER_PASSWORD in line or IMAP_PASSWORD in line
    ]


def _run_logged(tmp_path: Path) -> list[str]:
    records = Records()
    logging.getLogger().addHandler(records)
    try:
        asyncio.run(_one_pass(tmp_path))
    finally:
        logging.getLogger().removeHandler(records)
    return records.lines


@pytest.mark.e2e
@pytest.mark.slow
@pytest.mark.timeout(90)
def test_serve_verbose_logs_no_mail_body_and_no_password(
    tmp_path: Path, logging_restored: None
) -> None:
    configure_logging(verbose=True)
    lines = _run_logged(tmp_path)
    assert any(line.startswith("pbm INFO mail ") for line in lines), lines
    assert logging.getLogger("pbm").isEnabledFor(logging.DEBUG)
    for name in ("aioimaplib.aioimaplib", "aiosmtplib", "mail.log", "sqlalchemy.engine"):
        assert not logging.getLogger(name).isEnabledFor(logging.INFO), name
    assert _leaks(lines) == []


@pytest.mark.e2e
@pytest.mark.slow
@pytest.mark.timeout(90)
def test_the_check_sees_the_leak_of_a_debug_root_logger(
    tmp_path: Path, logging_restored: None
) -> None:
    """The control: everything at DEBUG (the old `-v`) logs the IMAP password and the mail."""
    logging.getLogger().setLevel(logging.DEBUG)
    for name in ["pbm", *QUIET_LOGGERS]:
        logging.getLogger(name).setLevel(logging.NOTSET)
    leaks = _leaks(_run_logged(tmp_path))
    assert any(IMAP_PASSWORD in line for line in leaks), leaks[:5]
    assert any(BODY_MARKER in line for line in leaks), leaks[:5]
