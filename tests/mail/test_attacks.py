"""Single hostile mails and faults against the running service: `pbm serve` and `pbm poll` over
the in-memory mailbox and SMTP server (the poison Message-ID also over real loopback servers,
pymap and aiosmtpd, marked e2e), and `ingest` for what a mail can cost.

- a game whose state cannot be read: the clock loop and `pbm poll` go on with the other games;
- a stranger's mail with a Unicode line separator in its Message-ID: answered, the outbox goes
  on (and a row that cannot be built fails alone, for `pbm outbox retry`);
- huge mails, MIME bombs, a round number of 5,000 digits, an order line followed by 200,000
  `(`: clear refusals, quickly, never a quarantined mail.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path

import pytest
from harness import (
    A_ROAD,
    ANNA,
    GM,
    PLAYERS,
    Mailer,
    eventually,
    make_service,
    set_service,
    start_game,
)
from sqlmodel import Session, col, select

from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.games import get_game
from pbm.service.ingest import ingest
from pbm.service.serve import poll_once, serve
from pbm.store.db import transaction
from pbm.store.models import Game, InboundMail, Outbox, Player

from .servers import Mailroom

STRANGER = "mallory@evil.test"


def _mail(
    sender: str,
    body: bytes,
    subject: bytes = b"Zuege",
    message_id: bytes = b"<a1@players.test>",
    extra: bytes = b"",
) -> bytes:
    return (
        b"From: "
        + sender.encode()
        + b"\r\nTo: "
        + GM.encode()
        + b"\r\nSubject: "
        + subject
        + b"\r\nMessage-ID: "
        + message_id
        + b"\r\n"
        + extra
        + b"Content-Type: text/plain; charset=utf-8\r\n\r\n"
        + body
    )


def _two_games(tmp_path: Path) -> tuple[Service, FakeClock]:
    clock = FakeClock()
    svc = make_service(tmp_path, clock, gm_address="boss@pbm.test")
    start_game(Mailer(svc), clock, "alpha", cast=True)
    start_game(Mailer(svc), clock, "beta", cast=True)
    with transaction(svc.engine) as s:
        for row in s.exec(select(Outbox)):
            row.status = "sent"
        get_game(s, "alpha").state = "{broken"
        for game in s.exec(select(Game)):
            game.deadline = clock.now()  # both due now
            # Alpha's seats went to the autopilot while beta was played, and a game of
            # autopilots only is paused (issue 15): its players are back.
            game.paused = False
        for player in s.exec(select(Player)):
            player.autopilot = False
    clock.advance(minutes=1)
    return svc, clock


def _game(svc: Service, name: str) -> Game:
    with Session(svc.engine) as s:
        return get_game(s, name)


#: Everyone the service may write to in these tests (the loopback SMTP server refuses others).
USERS = (*PLAYERS, STRANGER, "boss@pbm.test")
PERIODS = {"poll_seconds": 0.2, "tick_seconds": 0.2, "send_seconds": 0.2}


# -- one game's fault ------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.timeout(90)
def test_pbm_serve_goes_on_when_one_game_cannot_be_read(tmp_path: Path) -> None:
    svc, _ = _two_games(tmp_path)
    room = Mailroom("memory")

    async def run() -> None:
        await room.start(USERS)
        stop = asyncio.Event()
        server = asyncio.create_task(serve(room.configure(svc, **PERIODS), stop, room.transports))
        try:
            await eventually(lambda: _game(svc, "beta").round == 2, 30, "beta resolved")
            await eventually(lambda: bool(_game(svc, "alpha").broken), 30, "alpha marked")
            # A mail to the broken game is held; the loops are all still running.
            await room.deliver(
                _mail(
                    ANNA,
                    f"Spiel: alpha\r\nKennwort: {PLAYERS[ANNA][0]}\r\n{A_ROAD[ANNA]}\r\n".encode(),
                    message_id=b"<held@p.test>",
                ),
            )

            def held() -> bool:
                with Session(svc.engine) as s:
                    rows = s.exec(
                        select(InboundMail).where(InboundMail.message_id == "<held@p.test>")
                    ).all()
                    return [m.status for m in rows] == ["held"]

            await eventually(held, 30, "the mail held")
            await asyncio.sleep(0.6)  # a few more ticks
            assert not server.done(), server.exception() if server.done() else None
            with Session(svc.engine) as s:
                kinds = [
                    o.kind
                    for o in s.exec(select(Outbox).where(Outbox.recipients == "boss@pbm.test"))
                ]
            assert "broken" in kinds
        finally:
            stop.set()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(server, 20)
            await room.stop()

    asyncio.run(run())
    svc.engine.dispose()


@pytest.mark.timeout(90)
def test_pbm_poll_goes_on_when_one_game_cannot_be_read(tmp_path: Path) -> None:
    svc, _ = _two_games(tmp_path)
    room = Mailroom("memory")

    async def run() -> dict[str, int]:
        await room.start(USERS)
        return await poll_once(room.configure(svc, **PERIODS), room.transports)

    result = asyncio.run(run())
    assert result["resolved"] == 1 and result["broken"] == 1
    assert _game(svc, "beta").round == 2 and _game(svc, "alpha").broken
    svc.engine.dispose()


# -- poison rows -----------------------------------------------------------------------------------


@pytest.mark.timeout(90)
@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\u0085"])
def test_a_message_id_with_a_line_separator_poisons_nothing(
    tmp_path: Path, separator: str, mailroom: Mailroom
) -> None:
    clock = FakeClock()
    svc = make_service(tmp_path, clock)
    start_game(Mailer(svc), clock, cast=True)
    with transaction(svc.engine) as s:
        for row in s.exec(select(Outbox)):
            row.status = "sent"
    poison = ("<x" + separator + "y@evil.test>").encode()
    raw = _mail(
        STRANGER,
        b"Spiel: alpha\r\nHilfe\r\n",
        message_id=poison,
        subject=("Hilfe" + separator + "Bcc: victim@x.test").encode(),
    )

    async def run() -> dict[str, int]:
        await mailroom.start(USERS)
        mailroom.configure(svc, **PERIODS)
        try:
            await mailroom.deliver(raw)
            first = await poll_once(svc, mailroom.transports)
            # A second run does not die on it either.
            second = await poll_once(svc, mailroom.transports)
            assert second["read"] == 0
            return first
        finally:
            await mailroom.stop()

    result = asyncio.run(run())
    assert result["read"] == 1 and result["failed"] == 0 and result["sent"] == 1
    with Session(svc.engine) as s:
        mail = s.exec(select(InboundMail).order_by(col(InboundMail.id).desc())).first()
        assert mail is not None and separator not in mail.message_id
        assert mail.status == "done"
    svc.engine.dispose()


# -- what a mail can cost -------------------------------------------------------------------------


@pytest.fixture
def alpha(tmp_path: Path) -> Service:
    clock = FakeClock()
    svc = make_service(tmp_path, clock, max_stored_kb=512)
    start_game(Mailer(svc), clock, cast=True)
    return svc


def _answer(svc: Service, message_id: str) -> Outbox:
    with Session(svc.engine) as s:
        rows = list(s.exec(select(Outbox).where(Outbox.in_reply_to == message_id)))
    assert len(rows) == 1, rows
    return rows[0]


def _timed_ingest(svc: Service, raw: bytes) -> tuple[str, float]:
    start = time.perf_counter()
    result = ingest(svc, raw)
    return result.status, time.perf_counter() - start


def test_a_huge_mail_is_stored_cut_off_and_refused(alpha: Service) -> None:
    body = f"Kennwort: {PLAYERS[ANNA][0]}\r\n".encode() + b"x" * (2 * 1024 * 1024)
    status, seconds = _timed_ingest(alpha, _mail(ANNA, body, message_id=b"<huge@p.test>"))
    assert status == "done" and seconds < 10
    with Session(alpha.engine) as s:
        row = s.exec(select(InboundMail).where(InboundMail.message_id == "<huge@p.test>")).one()
    assert row.truncated and len(row.raw) <= 512 * 1024
    assert PLAYERS[ANNA][0].encode() not in row.raw
    assert "512 KB" in _answer(alpha, "<huge@p.test>").body


@pytest.mark.slow
def test_a_mail_of_200000_mime_parts_is_refused_quickly(alpha: Service) -> None:
    set_service(alpha, max_stored_kb=64 * 1024)
    parts = b"".join(b"--b\r\nContent-Type: text/plain\r\n\r\nx\r\n" for _ in range(200_000))
    raw = _mail(
        ANNA, parts + b"--b--\r\n", message_id=b"<bomb@p.test>", extra=b"MIME-Version: 1.0\r\n"
    )
    raw = raw.replace(
        b"Content-Type: text/plain; charset=utf-8\r\n\r\n",
        b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n',
        1,
    )
    status, seconds = _timed_ingest(alpha, raw)
    assert status == "done" and seconds < 10
    assert "zu viele Teile" in _answer(alpha, "<bomb@p.test>").body


@pytest.mark.parametrize(
    "body",
    [
        "Runde " + "9" * 5000,
        "Runde " + "9" * 300,
        "Straße 4H 5W" + "(" * 200_000,
        "Straße 4H 5W" + "(" * 300,
        "Siedlung " + "5" * 300 + "H 4W 6E",
        "Handel blau: gebe " + "1" * 300 + "H, bekomme 1W",
        "Seehandel " + "4" * 300 + "H gegen 1E",
    ],
    ids=[
        "round-5000-digits",
        "round-300-digits",
        "parentheses-200000",
        "parentheses-300",
        "settlement-digits",
        "trade-digits",
        "maritime-digits",
    ],
)
def test_overlong_numbers_and_lines_get_a_clear_refusal(alpha: Service, body: str) -> None:
    raw = _mail(
        ANNA, f"Kennwort: {PLAYERS[ANNA][0]}\r\n{body}\r\n".encode(), message_id=b"<long@p.test>"
    )
    status, seconds = _timed_ingest(alpha, raw)
    assert status == "done", status  # answered, never quarantined
    assert seconds < 10
    answer = _answer(alpha, "<long@p.test>")
    assert answer.kind == "error", answer.body
    rejected = answer.body.split("Abgelehnt:")[1]
    assert rejected.lstrip().startswith("2  "), answer.body  # line 2, with why
