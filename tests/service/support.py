"""The old name of the service tests' helpers, kept for tests that still import it: they are in
tests/harness.py and tests/databases.py (the fixtures in tests/conftest.py). `to_round` is
`start_game` giving the addresses."""

from __future__ import annotations

from typing import Any

from databases import (
    count_by,
    game_row,
    game_state,
    inbound,
    order_sets,
    outbox,
    passwords,
    records,
    replies_to,
    seated,
)
from harness import (
    GM,
    Mailer,
    new_game,
    orders_text,
    pass_deadline,
    play_round,
    play_setup_by_mail,
    raw_mail,
    send_orders,
    setup_by_deadline,
    setup_text,
    signup,
    start_game,
)

from pbm.service.clock import FakeClock


def to_round(
    mailer: Mailer, clock: FakeClock, name: str, players: int = 4, by_mail: bool = False, **kw: Any
) -> list[str]:
    return start_game(mailer, clock, name, players, by_mail=by_mail, **kw).addresses


__all__ = [
    "GM",
    "Mailer",
    "count_by",
    "game_row",
    "game_state",
    "inbound",
    "new_game",
    "order_sets",
    "orders_text",
    "outbox",
    "pass_deadline",
    "passwords",
    "play_round",
    "play_setup_by_mail",
    "raw_mail",
    "records",
    "replies_to",
    "seated",
    "send_orders",
    "setup_by_deadline",
    "setup_text",
    "signup",
    "start_game",
    "to_round",
]
