"""End to end against real system mail servers: Dovecot (IMAP, LMTP) and OpenSMTPD (SMTP,
relaying to Dovecot's LMTP), private instances on 127.0.0.1 (see pbm/devservers/realservers.py).
The same scenario as test_loopback_e2e.py: three players join by mail, read their welcome mails
over IMAP, place their setup and send their round-1 orders, and everyone receives the report.

Skips when the servers are not installed (`bash .ci/realservers.sh` installs them), except
under CI (CI set), where that is a failure.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbm.config.model import ImapSection, ServiceSection, Settings
from pbm.devservers import realservers
from pbm.mail.imap import ImapInbox
from pbm.service.context import Service
from pbm.service.games import create_game
from pbm.service.serve import serve
from pbm.store.db import make_engine, transaction
from pbm.store.migrate import upgrade

from .servers import GM, MailPlayer, play_to_round_two

GAME = "dc"


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[realservers.MailServers]:
    reason = realservers.available()
    if reason:
        message = f"Dovecot/OpenSMTPD end-to-end test: {reason}"
        if _in_ci():
            pytest.fail(message + " (CI must install them: .ci/realservers.sh)")
        pytest.skip(message + " (`bash .ci/realservers.sh` installs them)")
    users = {GM: "gm-secret", **{f"p{i}@pbm.test": f"imap-{i}" for i in range(3)}}
    with realservers.start(tmp_path, users) as s:
        yield s


@pytest.mark.e2e
@pytest.mark.slow
@pytest.mark.timeout(90)
def test_join_setup_round_over_dovecot_and_opensmtpd(
    tmp_path: Path, servers: realservers.MailServers
) -> None:
    asyncio.run(_play(tmp_path, servers))


async def _play(tmp_path: Path, servers: realservers.MailServers) -> None:
    url = f"sqlite:///{tmp_path / 'pbm.db'}"
    upgrade(url)
    svc = Service(make_engine(url), config=Settings(service=ServiceSection(address=GM)))
    with transaction(svc.engine) as session:
        create_game(svc, session, GAME, players=3, seed=5)
    svc.config = svc.config.updated(
        imap={
            "port": servers.imap_port,
            "user": GM,
            "password": servers.users[GM],
            "processed_folder": "Processed",
        },
        smtp={"port": servers.smtp_port, "from": GM},
        service={"poll_seconds": 2, "tick_seconds": 0.5, "send_seconds": 0.2},
    )
    stop = asyncio.Event()
    server = asyncio.create_task(serve(svc, stop))
    try:
        players = [
            MailPlayer(
                f"p{i}@pbm.test",
                servers.smtp_port,
                servers.imap_port,
                servers.users[f"p{i}@pbm.test"],
                servers.logs,
            )
            for i in range(3)
        ]

        def through_opensmtpd_and_lmtp(welcome: EmailMessage) -> None:
            # It really went through OpenSMTPD and Dovecot's LMTP.
            received = " ".join(str(h) for h in welcome.get_all("Received", []))
            assert "OpenSMTPD" in received and "LMTP" in received, received

        await play_to_round_two(svc, GAME, players, through_opensmtpd_and_lmtp)
    finally:
        stop.set()
        await asyncio.wait_for(server, 20)

    # The GM's inbox: everything handled was moved to Processed (Dovecot offers MOVE).
    box = ImapInbox(
        ImapSection(
            port=servers.imap_port,
            user=GM,
            password=servers.users[GM],
            folder="Processed",
            idle=False,
        )
    )
    await box.connect()
    try:
        assert len(await box.unseen()) == 0
        response = await box._call(box.client.search("ALL"))  # type: ignore[union-attr]
        handled = [
            x
            for line in response.lines[:-1]
            if isinstance(line, bytes | bytearray)
            for x in bytes(line).split()
            if x.isdigit()
        ]
        # Joins, confirmations, setup (six placements in five mails: the last seat's two turns
        # in a row take one mail of ranked placements), round-1 orders.
        assert len(handled) == 3 + 3 + 5 + 3
    finally:
        await box.close()
