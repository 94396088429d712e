"""Mail end to end, beside the transport alone, on loopback servers (pymap and aiosmtpd).

End to end: N order mails for 50 running games go by SMTP into the IMAP inbox, then the
service fetches, stores, parses, checks and acknowledges them (acks out by SMTP). Transport
alone: the same N mails sent, fetched over IMAP and answered over SMTP with no processing.
Both are timed from the first send to the last answer sent.

    pbm bench mail --mails 500 [--json]
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
from datetime import timedelta
from email.message import EmailMessage

import aiosmtplib

from pbm.mail.imap import ImapConfig, ImapInbox
from pbm.mail.loopback import LoopbackMail
from pbm.notation import Context
from pbm.notation.format import format_turn_orders
from pbm.rules import Phase, Settings, autopilot
from pbm.rules.sim import play_game
from pbm.service.clock import FakeClock
from pbm.service.context import Service, ServiceConfig
from pbm.service.games import create_game, save_state
from pbm.service.secrets import hash_password
from pbm.service.sending import send_pending
from pbm.service.serve import read_inbox
from pbm.store.db import make_engine, transaction
from pbm.store.migrate import upgrade
from pbm.store.models import Player

GM = "gm@bench.test"
SINK = "sink@bench.test"
PASSWORD = "bench-000000"
GAMES = 50


def _prepare(svc: Service) -> list[tuple[str, str]]:
    """50 games in round 1; returns one (address, orders body) per seat. Every seat has a
    password hash of its own, as in real games (the first check of each costs the full scrypt
    work; later ones in the same process are remembered)."""
    seats: list[tuple[str, str]] = []
    for i in range(GAMES):
        state = None
        for state, _ in play_game(Settings.for_players(4), i, "autopilot"):
            if state.phase == Phase.ROUNDS:
                break
        assert state is not None
        ctx = Context(state.board, "de", state.colours, "round")
        with transaction(svc.engine) as session:
            game = create_game(svc, session, f"g{i}", players=4, seed=i, early_resolve=False)
            save_state(game, state)
            game.deadline = svc.clock.now() + timedelta(days=2)
            for seat, colour in enumerate(state.colours):
                address = f"p{seat}@g{i}.test"
                session.add(Player(game_id=game.id or 0, address=address, name=address,
                                   colour=colour, seat=seat,
                                   password_hash=hash_password(PASSWORD),
                                   joined_at=svc.clock.now()))
                lines = format_turn_orders(autopilot.turn_orders(state, seat), ctx)
                seats.append((address, f"Spiel: g{i}\nKennwort: {PASSWORD}\nRunde: 1\n"
                                       + "\n".join(lines) + "\n"))
    return seats


def _mail(sender: str, to: str, n: int, body: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, f"Züge {n}"
    msg["Message-ID"] = f"<{n}.{sender}>"
    msg.set_content(body)
    return msg


async def _send_all(lb: LoopbackMail, mails: list[EmailMessage]) -> None:
    sem = asyncio.Semaphore(8)

    async def one(m: EmailMessage) -> None:
        async with sem:
            await aiosmtplib.send(m, hostname="127.0.0.1", port=lb.smtp_port)

    await asyncio.gather(*(one(m) for m in mails))


async def _wait_inbox(box: ImapInbox, n: int) -> None:
    for _ in range(6000):
        if len(await box.unseen()) >= n:
            return
        await asyncio.sleep(0.01)


async def measure(n: int) -> dict[str, object]:
    tmp = tempfile.mkdtemp(prefix="pbm-bench-mail-")
    url = f"sqlite:///{os.path.join(tmp, 'bench.db')}"
    upgrade(url)
    svc = Service(make_engine(url), FakeClock(), ServiceConfig(
        address=GM, rate_limit_per_hour=10**6))
    seats = _prepare(svc)
    lb = LoopbackMail(catch_all=SINK)
    await lb.start()
    await lb.add_user(GM, "pw")
    await lb.add_user(SINK, "pw")
    from pbm.mail.smtp import SmtpConfig

    smtp = SmtpConfig(port=lb.smtp_port, from_address=GM)
    box = ImapInbox(ImapConfig(port=lb.imap.port, user=GM, password="pw", idle=False))
    await box.connect()
    try:
        # End to end.
        mails = [_mail(*seats[k % len(seats)][:1], GM, k, seats[k % len(seats)][1])
                 for k in range(n)]
        start = time.perf_counter()
        await _send_all(lb, mails)
        await _wait_inbox(box, n)
        read = await read_inbox(svc, box)
        sent = await send_pending(svc, smtp, limit=n + 10)
        e2e = time.perf_counter() - start
        assert read == n, (read, n)
        # The transport alone: the same mails in, fetched, answered; no service at all.
        raw = [_mail(*seats[k % len(seats)][:1], GM, n + k, seats[k % len(seats)][1])
               for k in range(n)]
        start = time.perf_counter()
        await _send_all(lb, raw)
        await _wait_inbox(box, n)
        answers = []
        for uid in await box.unseen():
            data = await box.fetch(uid)
            await box.done(uid)
            assert data is not None
            answers.append(_mail(GM, "p0@g0.test", 0, "ok\n"))
        for m in answers:
            del m["Message-ID"]
        await _send_all(lb, answers)
        raw_s = time.perf_counter() - start
    finally:
        await box.close()
        await lb.stop()
    return {
        "mails": n, "mails_per_s": round(n / e2e, 1), "raw_per_s": round(n / raw_s, 1),
        "ratio": round(raw_s / e2e, 3), "acks_sent": len(sent.sent),
        "rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "cores": os.cpu_count(), "python": platform.python_version(),
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--mails", type=int, default=500)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    result = asyncio.run(measure(args.mails))
    if args.json:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print(f"{k:12} {v}")


if __name__ == "__main__":
    main()
