"""A flood of strangers' mail before a deadline costs no player their orders (`pbm serve`, in
memory and over real IMAP and SMTP servers on 127.0.0.1).

The mailbox holds 130 mails of about 250 KB from nobody (naming the game, with a wrong
password, as a red team sent them), the on-time orders of three players (89 s before the
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
from harness import Games, Mailer, eventually, orders_text

from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.serve import serve
from pbm.store import codec

from .servers import Mailroom

FLOOD = 130
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
                    svc,
                    mailroom.config(tick_seconds=0.1, send_seconds=0.1),
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
