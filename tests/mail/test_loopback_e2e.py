"""End to end on loopback: real IMAP (pymap) and SMTP (aiosmtpd) servers on 127.0.0.1, the real
`serve` loop, and players who write and read their mail over those servers."""

from __future__ import annotations

import asyncio
import email
import email.policy
import re
from email.message import EmailMessage
from pathlib import Path

import aiosmtplib
import pytest
from sqlmodel import Session

from pbm.mail.imap import ImapConfig, ImapInbox
from pbm.mail.loopback import LoopbackMail
from pbm.mail.smtp import SmtpConfig
from pbm.notation import Context
from pbm.notation.format import format_setup_orders, format_turn_orders
from pbm.rules import Phase, autopilot
from pbm.rules.setup import setup_player
from pbm.service.context import Service, ServiceConfig
from pbm.service.games import create_game, get_game, load_state
from pbm.service.serve import ServeConfig, serve
from pbm.store.db import make_engine, transaction
from pbm.store.migrate import upgrade

GM = "gm@pbm.test"


class Player:
    def __init__(self, lb: LoopbackMail, address: str) -> None:
        self.lb, self.address = lb, address
        self.password = ""
        self.seen: list[EmailMessage] = []
        self.n = 0

    async def send(self, subject: str, body: str) -> None:
        self.n += 1
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = self.address, GM, subject
        msg["Message-ID"] = f"<{self.n}.{self.address}>"
        msg.set_content(body)
        await aiosmtplib.send(msg, hostname="127.0.0.1", port=self.lb.smtp_port)

    async def read(self) -> list[EmailMessage]:
        box = ImapInbox(ImapConfig(port=self.lb.imap.port, user=self.address,
                                   password="pw", idle=False))
        await box.connect()
        new = []
        for uid in await box.unseen():
            raw = await box.fetch(uid)
            assert raw is not None
            new.append(email.message_from_bytes(raw, policy=email.policy.default))
            await box.done(uid)
        await box.close()
        self.seen += new
        return new

    async def wait_for(self, subject_part: str, timeout: float = 20) -> EmailMessage:
        """The oldest mail not taken yet whose subject contains `subject_part`."""
        for _ in range(int(timeout * 10)):
            await self.read()
            for m in self.seen:
                if subject_part in str(m["Subject"]):
                    self.seen.remove(m)
                    return m
            await asyncio.sleep(0.1)
        raise AssertionError(f"{self.address}: no mail with {subject_part!r}")


def text_of(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())


@pytest.mark.timeout(120)
def test_join_setup_round_over_real_mail(tmp_path: Path) -> None:
    asyncio.run(_play(tmp_path))


async def _play(tmp_path: Path) -> None:
    lb = LoopbackMail()
    await lb.start()
    await lb.add_user(GM, "pw")
    url = f"sqlite:///{tmp_path / 'pbm.db'}"
    upgrade(url)
    svc = Service(make_engine(url), config=ServiceConfig(address=GM))
    with transaction(svc.engine) as session:
        create_game(svc, session, "lb", players=3, seed=5)
    cfg = ServeConfig(
        imap=ImapConfig(port=lb.imap.port, user=GM, password="pw",
                        processed_folder="Processed"),
        smtp=SmtpConfig(port=lb.smtp_port, from_address=GM),
        poll_seconds=2, tick_seconds=0.5, send_seconds=0.2,
    )
    stop = asyncio.Event()
    server = asyncio.create_task(serve(svc, cfg, stop))
    try:
        players = [Player(lb, f"p{i}@pbm.test") for i in range(3)]
        for p in players:
            await lb.add_user(p.address, "pw")
        for i, p in enumerate(players):
            await p.send("Anmeldung", f"Spiel: lb\nName: Spieler {i}\nFarben: rot, blau\n")
        for p in players:
            welcome = await p.wait_for("Willkommen")
            assert welcome["Auto-Submitted"] == "auto-generated"
            match = re.search(r"Kennwort: (\S+)", text_of(welcome))
            assert match
            p.password = match.group(1)

        def state_now():  # type: ignore[no-untyped-def]
            with Session(svc.engine) as session:
                return load_state(get_game(session, "lb"))

        by_colour = {}
        with Session(svc.engine) as session:
            from pbm.service.games import players_of

            for row in players_of(session, get_game(session, "lb")):
                by_colour[row.seat] = next(p for p in players if p.address == row.address)
        for _ in range(6):
            st = state_now()
            seat = setup_player(st)
            ctx = Context(st.board, "de", st.colours, "setup")
            p = by_colour[seat]
            orders = format_setup_orders(autopilot.setup_orders(st, seat), ctx)
            await p.send("Aufstellung", f"Kennwort: {p.password}\n" + "\n".join(orders))
            ack = await p.wait_for("Züge erhalten")
            assert ack["In-Reply-To"] == f"<{p.n}.{p.address}>"
            assert ack["Auto-Submitted"] == "auto-replied"
            for _ in range(100):
                if state_now().setup_step > st.setup_step:
                    break
                await asyncio.sleep(0.1)
        st = state_now()
        assert st.phase == Phase.ROUNDS and st.round == 1
        ctx = Context(st.board, "de", st.colours, "round")
        for seat, p in by_colour.items():
            lines = format_turn_orders(autopilot.turn_orders(st, seat), ctx)
            await p.send("Runde 1", f"Kennwort: {p.password}\nRunde: 1\n" + "\n".join(lines))
        for p in players:
            report = await p.wait_for("Bericht Runde 1")
            assert "Wurf für" in text_of(report)
        assert state_now().round == 2
    finally:
        stop.set()
        await asyncio.wait_for(server, 20)
        await lb.stop()
