"""End to end against real system mail servers: Dovecot (IMAP, LMTP) and OpenSMTPD (SMTP,
relaying to Dovecot's LMTP), private instances on 127.0.0.1 (see mailservers.py). The same
scenario as test_loopback_e2e.py: three players join by mail, read their welcome mails over
IMAP, place their setup and send their round-1 orders, and everyone receives the report.

Skips when the servers are not installed (`bash .ci/mailservers.sh` installs them), except
under CI (CI set), where that is a failure.
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import os
import re
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import aiosmtplib
import pytest
from sqlmodel import Session

from pbm.mail.imap import ImapConfig, ImapInbox
from pbm.mail.smtp import SmtpConfig
from pbm.notation import Context
from pbm.notation.format import format_setup_orders, format_turn_orders
from pbm.rules import Phase, autopilot
from pbm.rules.setup import setup_player
from pbm.rules.state import GameState
from pbm.service.context import Service, ServiceConfig
from pbm.service.games import create_game, get_game, load_state, players_of
from pbm.service.serve import ServeConfig, serve
from pbm.store.db import make_engine, transaction
from pbm.store.migrate import upgrade

from . import mailservers

GM = "gm@pbm.test"
GAME = "dc"


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[mailservers.MailServers]:
    reason = mailservers.available()
    if reason:
        message = f"Dovecot/OpenSMTPD end-to-end test: {reason}"
        if _in_ci():
            pytest.fail(message + " (CI must install them: .ci/mailservers.sh)")
        pytest.skip(message + " (`bash .ci/mailservers.sh` installs them)")
    users = {GM: "gm-secret", **{f"p{i}@pbm.test": f"imap-{i}" for i in range(3)}}
    with mailservers.start(tmp_path, users) as s:
        yield s


class Player:
    """A player with a real mailbox: writes over SMTP, reads over IMAP."""

    def __init__(self, servers: mailservers.MailServers, address: str) -> None:
        self.servers, self.address = servers, address
        self.password = ""  # the game's Kennwort, from the welcome mail
        self.seen: list[EmailMessage] = []
        self.n = 0

    async def send(self, subject: str, body: str) -> None:
        self.n += 1
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = self.address, GM, subject
        msg["Message-ID"] = f"<{self.n}.{self.address}>"
        msg.set_content(body)
        await aiosmtplib.send(msg, hostname="127.0.0.1", port=self.servers.smtp_port)

    async def read(self) -> list[EmailMessage]:
        box = ImapInbox(ImapConfig(port=self.servers.imap_port, user=self.address,
                                   password=self.servers.users[self.address], idle=False))
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
        for _ in range(int(timeout * 5)):
            await self.read()
            for m in self.seen:
                if subject_part in str(m["Subject"]):
                    self.seen.remove(m)
                    return m
            await asyncio.sleep(0.2)
        raise AssertionError(f"{self.address}: no mail with {subject_part!r}\n"
                             + self.servers.logs())


def text_of(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())


@pytest.mark.timeout(90)
def test_join_setup_round_over_dovecot_and_opensmtpd(
        tmp_path: Path, servers: mailservers.MailServers) -> None:
    asyncio.run(_play(tmp_path, servers))


async def _play(tmp_path: Path, servers: mailservers.MailServers) -> None:
    url = f"sqlite:///{tmp_path / 'pbm.db'}"
    upgrade(url)
    svc = Service(make_engine(url), config=ServiceConfig(address=GM))
    with transaction(svc.engine) as session:
        create_game(svc, session, GAME, players=3, seed=5)
    cfg = ServeConfig(
        imap=ImapConfig(port=servers.imap_port, user=GM, password=servers.users[GM],
                        processed_folder="Processed"),
        smtp=SmtpConfig(port=servers.smtp_port, from_address=GM),
        poll_seconds=2, tick_seconds=0.5, send_seconds=0.2,
    )
    stop = asyncio.Event()
    server = asyncio.create_task(serve(svc, cfg, stop))
    try:
        players = [Player(servers, f"p{i}@pbm.test") for i in range(3)]
        for i, p in enumerate(players):
            await p.send("Anmeldung", f"Spiel: {GAME}\nName: Spieler {i}\nFarben: rot, blau\n")
        for p in players:
            welcome = await p.wait_for("Willkommen")
            assert welcome["Auto-Submitted"] == "auto-generated"
            # It really went through OpenSMTPD and Dovecot's LMTP.
            received = " ".join(str(h) for h in welcome.get_all("Received", []))
            assert "OpenSMTPD" in received and "LMTP" in received, received
            match = re.search(r"Kennwort: (\S+)", text_of(welcome))
            assert match
            p.password = match.group(1)

        def state_now() -> GameState:
            with Session(svc.engine) as session:
                return load_state(get_game(session, GAME))

        by_colour: dict[int, Player] = {}
        with Session(svc.engine) as session:
            for row in players_of(session, get_game(session, GAME)):
                assert row.seat is not None
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

    # The GM's inbox: everything handled was moved to Processed (Dovecot offers MOVE).
    box = ImapInbox(ImapConfig(port=servers.imap_port, user=GM, password=servers.users[GM],
                               folder="Processed", idle=False))
    await box.connect()
    try:
        assert len(await box.unseen()) == 0
        response = await box._call(box.client.search("ALL"))  # type: ignore[union-attr]
        handled = [x for line in response.lines[:-1] if isinstance(line, bytes | bytearray)
                   for x in bytes(line).split() if x.isdigit()]
        assert len(handled) == 3 + 6 + 3  # joins, setup orders, round-1 orders
    finally:
        await box.close()
