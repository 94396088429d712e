"""The end-to-end scenario shared by the loopback and the Dovecot tests: players with real
mailboxes join by mail, read their welcome mails over IMAP, place their setup and send their
round-1 orders, and everyone receives the report."""

from __future__ import annotations

import asyncio
import email
import email.policy
import re
from collections.abc import Callable
from email.message import EmailMessage

import aiosmtplib
from sqlmodel import Session

from pbm.mail.imap import ImapConfig, ImapInbox
from pbm.notation import Context
from pbm.notation.format import format_setup_orders, format_turn_orders
from pbm.rules import Phase, autopilot
from pbm.rules.setup import setup_player
from pbm.rules.state import GameState
from pbm.service.context import Service
from pbm.service.games import get_game, load_state, players_of

GM = "gm@pbm.test"


class MailPlayer:
    """A player with a real mailbox: writes over SMTP, reads over IMAP."""

    def __init__(
        self,
        address: str,
        smtp_port: int,
        imap_port: int,
        imap_password: str,
        diagnose: Callable[[], str] = lambda: "",
    ) -> None:
        self.address, self.smtp_port, self.imap_port = address, smtp_port, imap_port
        self.imap_password = imap_password
        self.diagnose = diagnose
        self.password = ""  # the game's Kennwort, from the welcome mail
        self.seen: list[EmailMessage] = []
        self.n = 0

    async def send(self, subject: str, body: str) -> None:
        self.n += 1
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = self.address, GM, subject
        msg["Message-ID"] = f"<{self.n}.{self.address}>"
        msg.set_content(body)
        await aiosmtplib.send(msg, hostname="127.0.0.1", port=self.smtp_port)

    async def read(self) -> list[EmailMessage]:
        box = ImapInbox(
            ImapConfig(
                port=self.imap_port, user=self.address, password=self.imap_password, idle=False
            )
        )
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
        raise AssertionError(f"{self.address}: no mail with {subject_part!r}\n" + self.diagnose())


def text_of(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())


async def play_to_round_two(
    svc: Service,
    game: str,
    players: list[MailPlayer],
    check_welcome: Callable[[EmailMessage], None] = lambda _m: None,
) -> None:
    """Run the scenario against a service that `serve` is running for."""
    for i, p in enumerate(players):
        await p.send("Anmeldung", f"Spiel: {game}\nName: Spieler {i}\nFarben: rot, blau\n")
    for p in players:
        welcome = await p.wait_for("Willkommen")
        assert welcome["Auto-Submitted"] == "auto-generated"
        check_welcome(welcome)
        match = re.search(r"Kennwort: (\S+)", text_of(welcome))
        assert match
        p.password = match.group(1)

    def state_now() -> GameState:
        with Session(svc.engine) as session:
            return load_state(get_game(session, game))

    by_seat: dict[int, MailPlayer] = {}
    with Session(svc.engine) as session:
        for row in players_of(session, get_game(session, game)):
            assert row.seat is not None
            by_seat[row.seat] = next(p for p in players if p.address == row.address)
    for _ in range(2 * len(players)):
        st = state_now()
        seat = setup_player(st)
        ctx = Context(st.board, "de", st.colours, "setup")
        p = by_seat[seat]
        orders = format_setup_orders(autopilot.setup_orders(st, seat), ctx)
        await p.send("Aufstellung", f"Kennwort: {p.password}\n" + "\n".join(orders))
        ack = await p.wait_for("Aufstellung erhalten")
        assert ack["In-Reply-To"] == f"<{p.n}.{p.address}>"
        assert ack["Auto-Submitted"] == "auto-replied"
        for _ in range(100):
            if state_now().setup_step > st.setup_step:
                break
            await asyncio.sleep(0.1)
    st = state_now()
    assert st.phase == Phase.ROUNDS and st.round == 1
    ctx = Context(st.board, "de", st.colours, "round")
    for seat, p in by_seat.items():
        lines = format_turn_orders(autopilot.turn_orders(st, seat), ctx)
        await p.send("Runde 1", f"Kennwort: {p.password}\nRunde: 1\n" + "\n".join(lines))
    for p in players:
        report = await p.wait_for("Bericht Runde 1")
        assert "Wurf für" in text_of(report)
    assert state_now().round == 2
