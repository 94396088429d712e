"""What is kept of mail pbm sent (`retention.forget_sent`, `[service] sent_mail_days`): after
that many days a sent mail keeps its text part, subject, recipients and dates and loses its
HTML part, pictures and JSON file; a mail not yet sent keeps everything."""

from __future__ import annotations

import asyncio

from databases import outbox
from harness import Games, Mailer, play_round

from pbm.mail.memory import MemorySmtp
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.retention import forget_strangers
from pbm.service.sending import send_pending
from pbm.service.tick import tick


def test_a_sent_report_keeps_its_text_and_loses_its_pictures_after_sent_mail_days(
    svc: Service, clock: FakeClock, mailer: Mailer, games: Games
) -> None:
    games.start("alpha", round_=2)
    play_round(mailer, clock, "alpha")
    while asyncio.run(send_pending(svc, MemorySmtp().sender)).sent:
        pass
    play_round(mailer, clock, "alpha")  # round 3's reports wait in the outbox, unsent
    sent = outbox(svc, "report", status="sent")
    pending = outbox(svc, "report", status="pending")
    assert sent and pending
    assert all(r.image and r.html and r.attachment for r in sent + pending)

    newest = max(r.sent_at for r in sent if r.sent_at is not None)
    days = svc.config.service.sent_mail_days
    clock.advance(seconds=(newest - clock.now()).total_seconds() + (days - 1) * 86400)
    forget_strangers(svc, force=True)
    assert all(r.image and r.html for r in outbox(svc, "report", status="sent"))

    clock.advance(days=2)
    tick(svc)  # the clock does it, once an hour
    after = {r.id: r for r in outbox(svc, "report")}
    for row in sent:
        kept = after[row.id]
        assert (kept.image, kept.chart, kept.html, kept.attachment) == (None, None, "", "")
        assert (kept.body, kept.subject, kept.recipients) == (row.body, row.subject, row.recipients)
        assert kept.sent_at == row.sent_at
    for row in pending:
        assert after[row.id].image == row.image and after[row.id].html == row.html
