"""A flood of strangers' mail before a deadline costs no player their orders (`pbm serve`, in
memory and over real IMAP and SMTP servers on 127.0.0.1).

The mailbox holds 30 mails of about 250 KB from nobody (naming the game, with a wrong
password, as a red team sent 130 of them), the on-time orders of three players (89 s before the
deadline, after the flood) and the late orders of the fourth (30 s after it). The service
comes to them only after the deadline has passed, as it does after an outage or behind a
backlog. Before, the clock resolved the round at once and the three on-time players were
NMRs; now the round waits until the mailbox is read past its deadline, the on-time orders
count, the late ones are refused as late, and every player gets the report.

The dates are the mailbox's own (IMAP's INTERNALDATE, set by APPEND), on the service's clock.
"""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta

import pytest
from databases import game_row, game_state, outbox, passwords, records, replies_to, seated
from databases import inbound as stored_mails
from harness import Games, Mailer, eventually, orders_text, pass_deadline, set_service

from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.serve import serve
from pbm.store import codec

from .servers import Mailroom

#: The red team sent 130; 30 take the service many ticks to read (each is parsed, masked and
#: stored), which is what let the clock resolve the round before the on-time orders were read.
FLOOD = 30
STRANGERS = [f"nobody{n}@elsewhere.test" for n in range(7)]


def _flood_body(n: int) -> str:
    """About 250 KB: the game named, a wrong password, 300 long lines of order words."""
    words = [
        "Siedlung",
        "Stadt",
        "Straße",
        "Handel",
        "Räuber",
        "Wald",
        "Weide",
        "6E",
        "4W",
        "5H",
        "blau",
        "rot",
        "gebe",
    ]
    row = " ".join(words[(i + n) % len(words)] for i in range(140))[:800]
    return "Spiel: alpha\nKennwort: rot-bada-bada-bada-bada-bada\n" + "\n".join([row] * 310) + "\n"


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_flood_before_the_deadline_costs_no_player_their_orders(
    svc: Service, clock: FakeClock, mailer: Mailer, games: Games, mailroom: Mailroom
) -> None:
    games.start("alpha")
    pw = passwords(svc)
    players = seated(svc, "alpha")
    deadline = game_row(svc, "alpha").deadline
    assert deadline is not None
    _, st = game_state(svc, "alpha")
    flood = [
        (mailer.raw(STRANGERS[n % len(STRANGERS)], "Züge", _flood_body(n)), n) for n in range(FLOOD)
    ]
    assert len(flood[0][0]) > 240_000
    before = len(records(svc, "alpha"))
    orders = {
        seat: mailer.mail(p.address, "Züge Runde 1", orders_text(st, seat, pw[p.address]))
        for seat, p in players.items()
    }

    async def run() -> float:
        await mailroom.start([p.address for p in players.values()])
        try:
            for raw, n in flood:
                await mailroom.deliver(
                    raw, deadline - timedelta(seconds=99) + timedelta(seconds=n * 0.07)
                )
            for seat in (0, 1, 2):
                await mailroom.deliver(orders[seat][1], deadline - timedelta(seconds=89))
            await mailroom.deliver(orders[3][1], deadline + timedelta(seconds=30))
            # The service comes up a minute after the deadline, with all of that unread.
            clock.advance(seconds=(deadline - clock.now()).total_seconds() + 60)
            stop = asyncio.Event()
            started = time.monotonic()
            task = asyncio.create_task(
                serve(
                    mailroom.configure(svc, tick_seconds=0.1, send_seconds=0.1),
                    stop,
                    mailroom.transports,
                )
            )
            try:
                await eventually(lambda: len(records(svc, "alpha")) == before + 1, 240, "the round")
                took = time.monotonic() - started
                report_to = {p.address for p in players.values()}
                await eventually(
                    lambda: (
                        report_to
                        <= {r for rs, raw in mailroom.sent if b"Runde 1" in raw for r in rs}
                    ),
                    60,
                    "the reports",
                )
            finally:
                stop.set()
                await asyncio.wait_for(task, 30)
            return took
        finally:
            await mailroom.stop()

    took = asyncio.run(run())
    print(f"\n{FLOOD} flood mails and 4 orders taken in, round resolved: {took:.1f} s")
    used = codec.loads(records(svc, "alpha")[-1].orders)
    assert [o is not None for o in used] == [True, True, True, False]
    for seat in (0, 1, 2):
        acks = replies_to(svc, orders[seat][0], "ack")
        assert len(acks) == 1 and not replies_to(svc, orders[seat][0], "error")
        assert not outbox(svc, "nmr", to=players[seat].address)
    late = replies_to(svc, orders[3][0], "error")
    assert len(late) == 1 and "Frist" in late[0].body
    # Nobody answers the strangers.
    for stranger in STRANGERS:
        assert not outbox(svc, to=stranger)


@pytest.mark.timeout(120)
def test_a_mail_over_the_size_limit_is_never_fetched_whole(
    svc: Service, mailer: Mailer, mailroom: Mailroom, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 102 MB mail once took `pbm serve` from 72 to 390 MB: its size is asked first, and of a
    mail over `max_stored_kb` only that much (and a byte) is fetched; it is stored cut off and
    refused, and the mails beside it are read as usual."""
    from typing import Any

    from pbm.mail.imap import ImapInbox
    from pbm.service import serve as serve_module
    from pbm.service.serve import read_inbox

    set_service(svc, max_stored_kb=256)
    limit = svc.config.service.max_stored_kb * 1024
    seen: list[int] = []
    take_in = serve_module.take_in

    def spy(svc_: Service, raw: bytes, *args: Any) -> Any:
        seen.append(len(raw))
        return take_in(svc_, raw, *args)

    monkeypatch.setattr(serve_module, "take_in", spy)
    huge = mailer.raw("someone@players.test", "Bild", "Hallo\n" + "x" * 76 + "\n" * 1)
    huge = huge.replace(b"Hallo", b"Hallo\n" + (b"y" * 999 + b"\n") * 3000)  # 3 MB
    small = mailer.raw("other@players.test", "Hilfe", "Hilfe\n")

    async def run() -> int:
        await mailroom.start()
        try:
            await mailroom.deliver(huge)
            await mailroom.deliver(small)
            if mailroom.loopback is not None:
                box: Any = ImapInbox(mailroom.configure(svc).config.imap)
            else:
                box = mailroom.mailbox.inbox()
            await box.connect()
            try:
                return await read_inbox(svc, box)
            finally:
                await box.close()
        finally:
            await mailroom.stop()

    assert len(huge) > 3_000_000
    assert asyncio.run(run()) == 2
    assert sorted(seen) == [len(small), limit + 1]
    stored = {m.subject: m for m in stored_mails(svc)}
    assert stored["Bild"].truncated and len(stored["Bild"].raw) <= limit
    assert not stored["Hilfe"].truncated


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_a_deadline_that_passes_while_the_inbox_idles_is_kept_at_once(
    svc: Service, clock: FakeClock, games: Games, mailroom: Mailroom
) -> None:
    """Nothing new in the mailbox, the inbox in IDLE (which may last 29 minutes): the deadline
    passes. The clock asks the inbox for a pass at once (`Intake.want_pass`), and the round is
    resolved within seconds, not at the IDLE's end."""
    games.start("alpha")
    before = len(records(svc, "alpha"))

    async def run() -> float:
        await mailroom.start()
        stop = asyncio.Event()
        mailroom.configure(svc, poll_seconds=600, tick_seconds=0.1, send_seconds=0.1)
        task = asyncio.create_task(serve(svc, stop, mailroom.transports))
        try:
            await eventually(lambda: svc.intake.read_through is not None, 20, "a first pass")
            await asyncio.sleep(1.0)  # waiting for news now
            assert len(records(svc, "alpha")) == before
            pass_deadline(svc, clock, "alpha")
            started = time.monotonic()
            await eventually(lambda: len(records(svc, "alpha")) == before + 1, 30, "the round")
            return time.monotonic() - started
        finally:
            stop.set()
            await asyncio.wait_for(task, 30)
            await mailroom.stop()

    assert asyncio.run(run()) < 20
