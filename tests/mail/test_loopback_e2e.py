"""End to end on loopback: real IMAP (pymap) and SMTP (aiosmtpd) servers on 127.0.0.1, the real
`serve` loop, and players who write and read their mail over those servers."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from pbm.config.model import ServiceSection, Settings
from pbm.devservers.loopback import LoopbackMail
from pbm.service.context import Service
from pbm.service.games import create_game
from pbm.service.serve import serve
from pbm.store.db import make_engine, transaction
from pbm.store.migrate import upgrade

from .servers import GM, MailPlayer, play_to_round_two


@pytest.mark.e2e
@pytest.mark.slow
@pytest.mark.timeout(120)
def test_join_setup_round_over_real_mail(tmp_path: Path) -> None:
    asyncio.run(_play(tmp_path))


async def _play(tmp_path: Path) -> None:
    lb = LoopbackMail()
    await lb.start()
    await lb.add_user(GM, "pw")
    url = f"sqlite:///{tmp_path / 'pbm.db'}"
    upgrade(url)
    svc = Service(make_engine(url), config=Settings(service=ServiceSection(address=GM)))
    with transaction(svc.engine) as session:
        create_game(svc, session, "lb", players=3, seed=5)
    svc.config = svc.config.updated(
        imap={"port": lb.imap.port, "user": GM, "password": "pw", "processed_folder": "Processed"},
        smtp={"port": lb.smtp_port, "from": GM},
        service={"poll_seconds": 2, "tick_seconds": 0.5, "send_seconds": 0.2},
    )
    stop = asyncio.Event()
    server = asyncio.create_task(serve(svc, stop))
    try:
        players = [MailPlayer(f"p{i}@pbm.test", lb.smtp_port, lb.imap.port, "pw") for i in range(3)]
        for p in players:
            await lb.add_user(p.address, "pw")
        await play_to_round_two(svc, "lb", players)
    finally:
        stop.set()
        await asyncio.wait_for(server, 20)
        await lb.stop()
