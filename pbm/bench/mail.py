"""Mail end to end, beside the transport alone, on loopback servers (pymap and aiosmtpd), or
with `--dovecot` on private Dovecot (IMAP) and OpenSMTPD (SMTP, delivering by LMTP) instances.

End to end: N order mails for 50 running games go by SMTP into the IMAP inbox, then the
service fetches, stores, parses, checks and acknowledges them (acks out by SMTP). Transport
alone: the same N mails sent, fetched over IMAP and answered over SMTP with no processing,
each answer the bytes of the ack pbm sent for it (the same size and parts: the loopback
servers, which run in this process, parse and store each answer, and carrying pbm's acks is
the transport's work, not pbm's). A third phase answers with a bare "ok" instead
(`raw_ok_*`). Each is timed from the first send to the last answer sent. OpenSMTPD delivers
in the background, so every phase waits until all N mails are in the inbox before fetching
them. Beside the wall-clock rates, each phase's CPU time per mail (`e2e_cpu_ms`,
`raw_cpu_ms`, `raw_ok_cpu_ms`: this process's, every thread, the loopback servers included
when they run here): on a shared machine the wall-clock rates move with the load, the CPU
time much less.

    pbm bench mail --mails 500 [--dovecot] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import resource
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage

import aiosmtplib
import sqlalchemy as sa
from aiosmtplib.email import flatten_message
from sqlmodel import col

from pbm.config.model import ServiceSection
from pbm.config.model import Settings as PbmSettings
from pbm.devservers import realservers
from pbm.devservers.loopback import LoopbackMail
from pbm.mail.imap import ImapInbox
from pbm.mail.transport import Delivery
from pbm.notation import Context
from pbm.notation.format import format_turn_orders
from pbm.rules import Phase, Settings, autopilot
from pbm.rules.sim import play_game
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.games import create_game, save_state
from pbm.service.secrets import hash_password
from pbm.service.sending import send_pending
from pbm.service.serve import read_inbox
from pbm.store.db import make_engine, transaction
from pbm.store.migrate import upgrade
from pbm.store.models import Outbox, Player
from pbm.store.statuses import OutboxStatus

GM = "gm@bench.test"
SINK = "sink@bench.test"
PASSWORD = "bench-000000"
GAMES = 50
#: Seconds to wait for the N mails to arrive in the inbox.
ARRIVAL_TIMEOUT = 300.0


def _address(seat: int, game: int, dovecot: bool) -> str:
    """A player's address: the private Dovecot delivers only to its own domain's users."""
    if dovecot:
        return f"p{seat}.g{game}@{realservers.DOMAIN}"
    return f"p{seat}@g{game}.test"


def _prepare(
    svc: Service,
    dovecot: bool = False,
    games: int = GAMES,
    deadline: datetime | None = None,
) -> list[tuple[str, str]]:
    """`games` games in round 1 (deadline: `deadline`, else two days ahead); returns one
    (address, orders body) per seat, game by game. Every seat has a password hash of its own,
    as in real games (the first check of each costs the full hashing work; later ones in the
    same process are remembered)."""
    seats: list[tuple[str, str]] = []
    for i in range(games):
        state = None
        for state, _ in play_game(Settings.for_players(4), i, "autopilot"):
            if state.phase == Phase.ROUNDS:
                break
        assert state is not None
        ctx = Context(state.board, "de", state.colours, "round")
        with transaction(svc.engine) as session:
            game = create_game(svc, session, f"g{i}", players=4, seed=i, early_resolve=False)
            save_state(game, state)
            game.deadline = deadline or svc.clock.now() + timedelta(days=2)
            for seat, colour in enumerate(state.colours):
                address = _address(seat, i, dovecot)
                session.add(
                    Player(
                        game_id=game.id or 0,
                        address=address,
                        name=address,
                        colour=colour,
                        seat=seat,
                        password_hash=hash_password(PASSWORD),
                        joined_at=svc.clock.now(),
                    )
                )
                lines = format_turn_orders(autopilot.turn_orders(state, seat), ctx)
                seats.append(
                    (
                        address,
                        f"Spiel: g{i}\nKennwort: {PASSWORD}\nRunde: 1\n" + "\n".join(lines) + "\n",
                    )
                )
    return seats


def _mail(sender: str, to: str, n: int, body: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, f"Züge {n}"
    msg["Message-ID"] = f"<{n}.{sender}>"
    msg.set_content(body)
    return msg


#: A mail as it goes over SMTP: (envelope sender, recipients, the message's bytes).
Flat = tuple[str, list[str], bytes]


async def _send_all(port: int, mails: Sequence[EmailMessage | Flat], senders: int) -> None:
    """Each mail on a connection of its own, `senders` at a time (players write at once)."""
    sem = asyncio.Semaphore(senders)

    async def one(m: EmailMessage | Flat) -> None:
        async with sem:
            if isinstance(m, EmailMessage):
                await aiosmtplib.send(m, hostname="127.0.0.1", port=port)
            else:
                await aiosmtplib.send(
                    m[2], sender=m[0], recipients=m[1], hostname="127.0.0.1", port=port
                )

    await asyncio.gather(*(one(m) for m in mails))


class _Keep:
    """A sender (`transport.Sender`) that sends nothing and keeps each message's bytes, as
    the SMTP session would put them on the wire."""

    def __init__(self, from_address: str) -> None:
        self.from_address = from_address
        self.kept: list[Flat] = []

    async def deliver(self, msg: EmailMessage, sender: str, recipients: list[str]) -> Delivery:
        self.kept.append((sender, list(recipients), flatten_message(msg, cte_type="8bit")))
        return Delivery("sent")

    async def close(self) -> None:
        return None


async def _acks_again(svc: Service, n: int) -> list[Flat]:
    """The acks the service sent, built again as it built them (untimed): every row it sent
    is made due once more and sent to a `_Keep`."""
    with transaction(svc.engine) as session:
        session.connection().execute(
            sa.update(Outbox)
            .where(col(Outbox.status) == OutboxStatus.SENT)
            .values(status=OutboxStatus.PENDING, next_attempt=svc.clock.now(), delivered="")
        )
    keep = _Keep(svc.config.smtp.from_address)
    await send_pending(svc, lambda: keep, limit=n + 10)
    return keep.kept


@dataclass
class Timed:
    """A phase's wall-clock seconds and this process's CPU seconds."""

    seconds: float
    cpu: float


class ArrivalTimeout(Exception):
    """Fewer than N mails reached the inbox in time."""


async def _wait_inbox(box: ImapInbox, n: int, timeout: float = ARRIVAL_TIMEOUT) -> None:
    """Until n unseen mails are in the inbox (delivery may lag the SMTP answer)."""
    deadline = time.monotonic() + timeout
    while True:
        have = len(await box.unseen())
        if have >= n:
            return
        if time.monotonic() > deadline:
            raise ArrivalTimeout(f"only {have} of {n} mails reached the inbox in {timeout:g} s")
        await asyncio.sleep(0.01)


@dataclass
class _Servers:
    """Where the mail goes: the SMTP and IMAP ports, the GM's IMAP login, how to stop."""

    name: str
    smtp_port: int
    imap_port: int
    gm: str
    gm_password: str
    stop: Callable[[], Awaitable[None]]
    #: Concurrent SMTP clients. OpenSMTPD listens with a backlog of 5: a burst of 8 new
    #: connections loses SYNs there, and each lost one waits 1 s for its retransmission.
    senders: int = 8
    logs: Callable[[], str] = lambda: ""


async def _loopback() -> _Servers:
    lb = LoopbackMail(catch_all=SINK)
    await lb.start()
    await lb.add_user(GM, "pw")
    await lb.add_user(SINK, "pw")
    return _Servers("pymap", lb.smtp_port, lb.imap.port, GM, "pw", lb.stop)


async def _dovecot(tmp: str, gm: str, seats: list[tuple[str, str]]) -> _Servers:
    users = {gm: "pw", **{address: "pw" for address, _ in seats}}
    try:
        servers = await asyncio.to_thread(realservers.start, tmp, users)
    except RuntimeError as exc:
        raise SystemExit(f"pbm bench mail --dovecot: the servers did not start: {exc}") from None

    async def stop() -> None:
        await asyncio.to_thread(servers.stop)

    return _Servers(
        "dovecot",
        servers.smtp_port,
        servers.imap_port,
        gm,
        "pw",
        stop,
        senders=4,
        logs=servers.logs,
    )


async def measure(n: int, dovecot: bool = False) -> dict[str, object]:
    tmp = tempfile.mkdtemp(prefix="pbm-bench-mail-")
    url = f"sqlite:///{os.path.join(tmp, 'bench.db')}"
    upgrade(url)
    gm = f"gm@{realservers.DOMAIN}" if dovecot else GM
    svc = Service(
        make_engine(url),
        FakeClock(),
        PbmSettings(service=ServiceSection(address=gm, rate_limit_per_hour=10**6)),
    )
    seats = _prepare(svc, dovecot)
    srv = await (_dovecot(tmp, gm, seats) if dovecot else _loopback())
    svc.config = svc.config.updated(
        imap={"port": srv.imap_port, "user": gm, "password": srv.gm_password, "idle": False},
        smtp={"port": srv.smtp_port, "from": gm},
    )
    box = ImapInbox(svc.config.imap)
    try:
        await box.connect()
        # End to end.
        mails = [
            _mail(*seats[k % len(seats)][:1], gm, k, seats[k % len(seats)][1]) for k in range(n)
        ]
        start, cpu = time.perf_counter(), time.process_time()
        await _send_all(srv.smtp_port, mails, srv.senders)
        await _wait_inbox(box, n)
        read = await read_inbox(svc, box)
        sent = await send_pending(svc, limit=n + 10)
        e2e = time.perf_counter() - start
        e2e_cpu = time.process_time() - cpu
        assert read == n, (read, n)
        # The acks sent (one a mail; one left for a retry or failed is not among them, and
        # is counted in `acks_retry`/`acks_failed`): the transport answers with them in turn.
        acks = await _acks_again(svc, n)
        if not acks:
            raise SystemExit(f"pbm bench mail: no ack was sent ({srv.name})\n{srv.logs()}")

        async def transport_alone(
            first: int, answer: Callable[[int], EmailMessage | Flat]
        ) -> Timed:
            """The same mails in, fetched, each answered by `answer(k)`; no service at all."""
            raw = [
                _mail(seats[k % len(seats)][0], gm, first + k, seats[k % len(seats)][1])
                for k in range(n)
            ]
            start, cpu = time.perf_counter(), time.process_time()
            await _send_all(srv.smtp_port, raw, srv.senders)
            await _wait_inbox(box, n)
            answers: list[EmailMessage | Flat] = []
            for k, uid in enumerate(await box.unseen()):
                data = await box.fetch(uid)
                await box.done(uid)
                assert data is not None
                answers.append(answer(k))
            await _send_all(srv.smtp_port, answers, srv.senders)
            return Timed(time.perf_counter() - start, time.process_time() - cpu)

        def ok(_k: int) -> EmailMessage:
            m = _mail(gm, seats[0][0], 0, "ok\n")
            del m["Message-ID"]
            return m

        raw = await transport_alone(n, lambda k: acks[k % len(acks)])
        raw_ok = await transport_alone(2 * n, ok)
        raw_s, raw_cpu = raw.seconds, raw.cpu
    except ArrivalTimeout as exc:
        raise SystemExit(f"pbm bench mail: {exc} ({srv.name})\n{srv.logs()}") from None
    finally:
        await box.close()
        await srv.stop()
    return {
        "mails": n,
        "mails_per_s": round(n / e2e, 1),
        "raw_per_s": round(n / raw_s, 1),
        "ratio": round(raw_s / e2e, 3),
        "e2e_cpu_ms": round(e2e_cpu / n * 1000, 2),
        "raw_cpu_ms": round(raw_cpu / n * 1000, 2),
        "raw_ok_per_s": round(n / raw_ok.seconds, 1),
        "raw_ok_ratio": round(raw_ok.seconds / e2e, 3),
        "raw_ok_cpu_ms": round(raw_ok.cpu / n * 1000, 2),
        "ack_bytes": round(sum(len(a[2]) for a in acks) / len(acks)),
        "acks_sent": len(sent.sent),
        # OpenSMTPD takes at most 100 mails per connection (`smtp limit max-mails`); the
        # service's SMTP session leaves the 101st for a retry a minute later.
        "acks_retry": len(sent.retry),
        "acks_failed": len(sent.failed),
        "rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "server": srv.name,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "load": round(os.getloadavg()[0], 2),
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--mails", type=int, default=500)
    ap.add_argument(
        "--dovecot",
        action="store_true",
        help="against private Dovecot (IMAP) and OpenSMTPD (SMTP) instances "
        "instead of pymap and aiosmtpd",
    )
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.dovecot:
        reason = realservers.available()
        if reason:
            raise SystemExit(f"pbm bench mail --dovecot: Dovecot/OpenSMTPD unusable here: {reason}")
    result = asyncio.run(measure(args.mails, args.dovecot))
    if args.json:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print(f"{k:12} {v}")


if __name__ == "__main__":
    main()
