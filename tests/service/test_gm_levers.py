"""GM levers for everyday trouble: a lost password, a mail that failed to go out."""

from __future__ import annotations

import pytest
from databases import game_state, order_sets, outbox, passwords, replies_to, seated
from harness import Games, Mailer, orders_text
from sqlmodel import Session

from pbm.service import gm
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.games import ServiceError, get_game
from pbm.store.db import transaction
from pbm.store.models import Outbox


def test_a_lost_password_is_replaced_at_the_same_address(
    svc: Service, mailer: Mailer, clock: FakeClock, games: Games
) -> None:
    games.start("alpha")
    player = seated(svc, "alpha")[1]
    old = passwords(svc)[player.address]
    with transaction(svc.engine) as s:
        gm.new_password_for(svc, s, get_game(s, "alpha"), player.colour or "")
    welcomes = outbox(svc, "welcome", to=player.address)
    assert len(welcomes) == 2  # the first welcome and the new password
    new = passwords(svc)[player.address]
    assert new != old
    _, st = game_state(svc, "alpha")
    before = len(order_sets(svc, "alpha"))
    mailer.send(player.address, "Züge", orders_text(st, 1, old))
    assert len(order_sets(svc, "alpha")) == before  # the old password no longer works
    assert replies_to(svc, mailer.last_id, "error")
    mailer.send(player.address, "Züge", orders_text(st, 1, new))
    assert len(order_sets(svc, "alpha")) == before + 1


def test_a_failed_mail_can_be_sent_again(
    svc: Service, mailer: Mailer, clock: FakeClock, games: Games
) -> None:
    games.start("alpha")
    row = outbox(svc)[0]
    with transaction(svc.engine) as s:
        failed = s.get(Outbox, row.id)
        assert failed is not None
        failed.status, failed.last_error = "failed", "550 no such user"
    with transaction(svc.engine) as s:
        gm.retry_mail(svc, s, row.id or 0)
    with Session(svc.engine) as s:
        again = s.get(Outbox, row.id)
        assert again is not None
        assert (again.status, again.last_error) == ("pending", "")
        assert again.next_attempt is not None
    with transaction(svc.engine) as s:
        sent = s.get(Outbox, row.id)
        assert sent is not None
        sent.status = "sent"
    try:
        with transaction(svc.engine) as s:
            gm.retry_mail(svc, s, row.id or 0)
    except ServiceError as e:
        assert "sent already" in str(e)
    else:
        raise AssertionError("a sent mail must not be sent again")


def test_a_dropped_mail_is_not_sent_again(svc: Service, games: Games) -> None:
    """A report dropped by a rollback (or a reminder of a round resolved) must never reach
    the players: `pbm outbox retry` refuses it."""
    games.start("alpha")
    row = outbox(svc)[-1]
    with transaction(svc.engine) as s:
        dropped = s.get(Outbox, row.id)
        assert dropped is not None
        dropped.status, dropped.secret = "dropped", ""
    with (
        pytest.raises(ServiceError, match=r"was dropped .*: it is not to be sent"),
        transaction(svc.engine) as s,
    ):
        gm.retry_mail(svc, s, row.id or 0)
    assert outbox(svc)[-1].status == "dropped"


def test_a_mail_waiting_out_its_back_off_is_hurried_and_shown(
    svc: Service, games: Games, clock: FakeClock
) -> None:
    """After the GM fixed the cause of a failed try, `pbm outbox retry` sends it at the next
    pass instead of after up to six hours; `pbm outbox list --json` shows when it is due."""
    from datetime import timedelta

    from pbm.service import admin

    games.start("alpha")
    row = outbox(svc)[0]
    later = clock.now() + timedelta(hours=6)
    with transaction(svc.engine) as s:
        waiting = s.get(Outbox, row.id)
        assert waiting is not None
        waiting.status, waiting.attempts, waiting.next_attempt = "pending", 3, later
        waiting.last_error = "421 try again later"
    (listed,) = [r for r in admin.outbox_rows(svc) if r["id"] == row.id]
    assert listed["next_attempt"] is not None and listed["attempts"] == 3
    admin.retry_outbox(svc, row.id or 0)
    (listed,) = [r for r in admin.outbox_rows(svc) if r["id"] == row.id]
    due = listed["next_attempt"]
    assert due.replace(tzinfo=None) <= clock.now().replace(tzinfo=None)
    # Never tried yet: it is waiting already, nothing to hurry.
    fresh = outbox(svc)[1]
    with pytest.raises(ServiceError, match="waiting to be sent already"):
        admin.retry_outbox(svc, fresh.id or 0)
