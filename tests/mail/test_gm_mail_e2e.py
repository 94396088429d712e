"""The game master by mail end to end (issue 28): real IMAP (pymap) and SMTP (aiosmtpd) servers
on 127.0.0.1, the real `serve` loop, a player and the GM with mailboxes of their own. The GM
answers a forwarded `An Spielleitung:` mail from a mail program (a reply: In-Reply-To and
References of the forwarded mail), and the player reads the answer in the thread; a forged
reply reaches nobody; a command with the GM password pauses the game."""

from __future__ import annotations

import asyncio
import email
import email.policy
from email.message import EmailMessage
from pathlib import Path

import aiosmtplib
import pytest
from harness import CARLA, PLAYERS, Mailer, make_service, start_game
from sqlmodel import Session, select

from pbm.devservers.loopback import LoopbackMail
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.games import get_game
from pbm.service.gm_mail import new_gm_password
from pbm.service.serve import poll_once, serve
from pbm.store.db import transaction
from pbm.store.models import Outbox

from .servers import GM, MailPlayer, Mailroom, text_of

DESK = "spielleitung@pbm.test"
FORGER = "forger@pbm.test"


@pytest.mark.e2e
@pytest.mark.slow
@pytest.mark.timeout(120)
def test_the_gm_answers_a_player_by_mail_over_real_servers(tmp_path: Path) -> None:
    clock = FakeClock()
    svc = make_service(tmp_path, clock, gm_address=DESK)
    start_game(Mailer(svc), clock, cast=True)
    with transaction(svc.engine) as s:
        for row in s.exec(select(Outbox)):
            row.status = "sent"  # the game's start is not what this test is about
    password = new_gm_password(svc)
    asyncio.run(_play(svc, password))
    svc.engine.dispose()


async def _send(port: int, sender: str, subject: str, body: str, **headers: str) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, GM, subject
    msg["Message-ID"] = f"<{abs(hash((sender, subject, body)))}@{sender.split('@')[1]}>"
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    msg.set_content(body)
    await aiosmtplib.send(msg, hostname="127.0.0.1", port=port)


async def _play(svc: Service, password: str) -> None:
    lb = LoopbackMail()
    await lb.start()
    for user in (GM, DESK, CARLA, FORGER):
        await lb.add_user(user, "pw")
    svc.config = svc.config.updated(
        imap={"port": lb.imap.port, "user": GM, "password": "pw"},
        smtp={"port": lb.smtp_port, "from": GM},
        service={"poll_seconds": 0.5, "tick_seconds": 0.5, "send_seconds": 0.2},
    )
    stop = asyncio.Event()
    server = asyncio.create_task(serve(svc, stop))
    try:
        carla = MailPlayer(CARLA, lb.smtp_port, lb.imap.port, "pw")
        desk = MailPlayer(DESK, lb.smtp_port, lb.imap.port, "pw")
        await carla.send(
            "Frage", f"Kennwort: {PLAYERS[CARLA][0]}\nAn Spielleitung: Ich bin krank.\n"
        )
        forwarded = await desk.wait_for("An die Spielleitung von")
        assert "Ich bin krank." in text_of(forwarded)
        await carla.wait_for("OK")  # the player is told it went to the GM
        # The GM's mail program replies: In-Reply-To and References name the forwarded mail.
        await _send(
            lb.smtp_port,
            DESK,
            f"Re: {forwarded['Subject']}",
            "Gute Besserung!\n\nAm Montag schrieb pbm:\n> Ich bin krank.\n",
            In_Reply_To=forwarded["Message-ID"],
            References=f"{forwarded['References']} {forwarded['Message-ID']}",
        )
        answer = await carla.wait_for("Nachricht der Spielleitung")
        assert "Gute Besserung!" in text_of(answer) and "Ich bin krank" not in text_of(answer)
        # In the player's thread with the GM: the thread the forwarded mail belongs to.
        assert answer["In-Reply-To"] == forwarded["In-Reply-To"]
        assert answer["References"] == forwarded["In-Reply-To"]
        assert DESK not in str(answer["From"]) and GM in str(answer["From"])
        done = await desk.wait_for("Erledigt")
        assert "Deine Antwort ging an blau (" in text_of(done)
        # A forged reply: From the GM's address, answering the thread's root (which anyone who
        # saw a message of the thread knows), not the forwarded mail itself.
        await _send(
            lb.smtp_port,
            DESK,
            f"Re: {forwarded['Subject']}",
            "Du bist raus.\n",
            In_Reply_To=forwarded["In-Reply-To"],
        )
        refused = await desk.wait_for("Die Spielleitung per Mail")
        assert "nicht zuordnen" in text_of(refused)
        # A command with the GM password: everybody learns the game is paused.
        await _send(lb.smtp_port, DESK, "Pause", f"Kennwort: {password}\nSpiel: alpha\nPause\n")
        paused = await carla.wait_for("Spiel pausiert")
        assert "pausiert" in text_of(paused)
        await desk.wait_for("Erledigt")
        with Session(svc.engine) as s:
            assert get_game(s, "alpha").paused
        # Nothing else reached the player: the forged reply was not forwarded.
        await asyncio.sleep(1.0)
        await carla.read()
        assert not any("Du bist raus" in text_of(m) for m in carla.seen)
    finally:
        stop.set()
        await asyncio.wait_for(server, 20)
        await lb.stop()


def _message(raw: bytes) -> EmailMessage:
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def _reply(to: EmailMessage, sender: str, body: str, message_id: str) -> bytes:
    """What the GM's mail program sends when the GM answers `to`."""
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, GM, f"Re: {to['Subject']}"
    msg["Message-ID"] = message_id
    msg["In-Reply-To"] = to["Message-ID"]
    msg["References"] = f"{to['References']} {to['Message-ID']}"
    msg.set_content(body)
    return msg.as_bytes()


@pytest.mark.timeout(90)
def test_the_gms_reply_through_the_transports(tmp_path: Path, mailroom: Mailroom) -> None:
    """The same through `pbm poll`'s pass over the in-memory transports (and, marked e2e, the
    loopback servers): the forwarded mail as sent, the GM's reply to it, the player's answer
    as sent."""
    clock = FakeClock()
    svc = make_service(tmp_path, clock, gm_address=DESK)
    start_game(Mailer(svc), clock, cast=True)
    with transaction(svc.engine) as s:
        for row in s.exec(select(Outbox)):
            row.status = "sent"
    players = Mailer()

    async def run() -> None:
        await mailroom.start((DESK, CARLA))
        mailroom.configure(svc, poll_seconds=0.2, tick_seconds=0.2, send_seconds=0.2)
        try:
            body = f"Kennwort: {PLAYERS[CARLA][0]}\nAn Spielleitung: Ich bin krank.\n"
            await mailroom.deliver(players.raw(CARLA, "Frage", body))
            await poll_once(svc, mailroom.transports)
            (forwarded,) = [_message(raw) for to, raw in mailroom.sent if to == [DESK]]
            reply = _reply(
                forwarded, DESK, "Gute Besserung!\n\n> Ich bin krank.\n", "<r1@pbm.test>"
            )
            await mailroom.deliver(reply)
            await poll_once(svc, mailroom.transports)
            answers = [
                _message(raw)
                for to, raw in mailroom.sent
                if to == [CARLA] and "Spielleitung schreibt" in str(_message(raw).get_body())
            ]
            (answer,) = answers
            assert answer["In-Reply-To"] == forwarded["In-Reply-To"]
            text = answer.get_body(preferencelist=("plain",))
            assert text is not None and "Gute Besserung!" in str(text.get_content())
            assert "Ich bin krank" not in str(text.get_content())
            (done,) = [_message(raw) for to, raw in mailroom.sent if to == [DESK]][1:]
            assert done["In-Reply-To"] == "<r1@pbm.test>" and "Erledigt" in str(done["Subject"])
        finally:
            await mailroom.stop()

    asyncio.run(run())
    svc.engine.dispose()
