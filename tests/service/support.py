"""Helpers for the service tests: mails as raw bytes, passwords from the welcome mails, and
players who write their orders with the autopilot (so every order is legal and sensible)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from email.message import EmailMessage
from typing import Any

from sqlmodel import Session, col, select

from pbm.notation import Context
from pbm.notation.format import format_setup_orders, format_turn_orders
from pbm.rules import GameState, Phase, autopilot
from pbm.rules.setup import setup_player
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.games import create_game, get_game, load_state
from pbm.service.ingest import IngestResult, ingest
from pbm.service.tick import resolve_if_ready, tick
from pbm.store.db import transaction
from pbm.store.models import Game, InboundMail, OrderSet, Outbox, Player, RoundRecord

GM = "gm@pbm.test"
_PASSWORD = re.compile(r"Kennwort: (\S+)|Password: (\S+)")


def raw_mail(
    sender: str, subject: str, body: str, message_id: str, headers: dict[str, str] | None = None
) -> bytes:
    m = EmailMessage()
    m["From"] = sender
    m["To"] = GM
    m["Subject"] = subject
    m["Message-ID"] = message_id
    for k, v in (headers or {}).items():
        m[k] = v
    m.set_content(body)
    return m.as_bytes()


class Mailer:
    """Feeds mails to `ingest`, each with a fresh Message-ID, as the IMAP poller would."""

    def __init__(self, svc: Service) -> None:
        self.svc = svc
        self.n = 0
        self.last_id = ""

    def raw(
        self, sender: str, subject: str, body: str, headers: dict[str, str] | None = None
    ) -> bytes:
        self.n += 1
        self.last_id = f"<m{self.n}.{id(self)}@players.test>"
        return raw_mail(sender, subject, body, self.last_id, headers)

    def send(
        self,
        sender: str,
        subject: str,
        body: str,
        headers: dict[str, str] | None = None,
        resolve: bool = True,
    ) -> IngestResult:
        """Ingest one mail; like `pbm serve`, resolve the round at once when all are in."""
        result = ingest(self.svc, self.raw(sender, subject, body, headers))
        if resolve and result.game:
            resolve_if_ready(self.svc, result.game)
        return result


# -- reading the database -----------------------------------------------------------------------


def game_state(svc: Service, name: str) -> tuple[Game, GameState]:
    with Session(svc.engine) as s:
        game = get_game(s, name)
        return game, load_state(game)


def game_row(svc: Service, name: str) -> Game:
    with Session(svc.engine) as s:
        return get_game(s, name)


def seated(svc: Service, name: str) -> dict[int, Player]:
    """The seated players by seat (not replaced, not observers)."""
    with Session(svc.engine) as s:
        game = get_game(s, name)
        rows = s.exec(
            select(Player).where(
                Player.game_id == game.id, col(Player.status).not_in(("replaced", "observer"))
            )
        )
        return {p.seat: p for p in rows if p.seat is not None}


def outbox(
    svc: Service, kind: str | None = None, to: str | None = None, status: str | None = None
) -> list[Outbox]:
    with Session(svc.engine) as s:
        query = select(Outbox).order_by(col(Outbox.id))
        if kind:
            query = query.where(Outbox.kind == kind)
        if status:
            query = query.where(Outbox.status == status)
        rows = list(s.exec(query))
    if to:
        rows = [r for r in rows if to in r.recipients.split(",")]
    return rows


def replies_to(svc: Service, message_id: str, kind: str | None = None) -> list[Outbox]:
    return [o for o in outbox(svc, kind) if o.in_reply_to == message_id]


def records(svc: Service, name: str) -> list[RoundRecord]:
    with Session(svc.engine) as s:
        game = get_game(s, name)
        return list(
            s.exec(
                select(RoundRecord)
                .where(RoundRecord.game_id == game.id)
                .order_by(col(RoundRecord.step))
            )
        )


def order_sets(svc: Service, name: str) -> list[OrderSet]:
    with Session(svc.engine) as s:
        game = get_game(s, name)
        return list(
            s.exec(select(OrderSet).where(OrderSet.game_id == game.id).order_by(col(OrderSet.id)))
        )


def inbound(svc: Service, message_id: str | None = None) -> list[InboundMail]:
    with Session(svc.engine) as s:
        query = select(InboundMail).order_by(col(InboundMail.id))
        if message_id:
            query = query.where(InboundMail.message_id == message_id)
        return list(s.exec(query))


def passwords(svc: Service) -> dict[str, str]:
    """Each address's password, from the newest welcome mail sent to it."""
    out: dict[str, str] = {}
    for o in outbox(svc, "welcome"):
        # The stored body holds a placeholder; the password waits in `secret` until sent.
        if o.secret:
            out[o.recipients] = o.secret
            continue
        m = _PASSWORD.search(o.body)
        assert m, o.body
        out[o.recipients] = m.group(1) or m.group(2)
    return out


def count_by(items: Iterable[Any], key: str) -> dict[Any, int]:
    out: dict[Any, int] = {}
    for it in items:
        out[getattr(it, key)] = out.get(getattr(it, key), 0) + 1
    return out


# -- players ------------------------------------------------------------------------------------


def new_game(svc: Service, name: str = "alpha", **kw: Any) -> None:
    kw.setdefault("seed", 7)
    with transaction(svc.engine) as s:
        create_game(svc, s, name, **kw)


def signup(
    mailer: Mailer, name: str, players: int = 4, colours: list[str] | None = None
) -> list[str]:
    """Join `players` players by mail; returns their addresses (p0@…, p1@…)."""
    addrs = [f"p{i}@players.test" for i in range(players)]
    for i, a in enumerate(addrs):
        prefs = colours[i] if colours else "rot, blau, gelb"
        r = mailer.send(a, "Anmeldung", f"Spiel: {name}\nName: Spieler {i}\nFarben: {prefs}\n")
        assert r.status == "done", r
    return addrs


def setup_text(state: GameState, seat: int, password: str, alternatives: int = 3) -> str:
    ctx = Context(state.board, "de", state.colours, "setup")
    lines = format_setup_orders(autopilot.setup_orders(state, seat, alternatives), ctx)
    return f"Kennwort: {password}\n" + "\n".join(lines) + "\n"


def orders_text(state: GameState, seat: int, password: str, round_: int | None = None) -> str:
    ctx = Context(state.board, "de", state.colours, "round")
    lines = format_turn_orders(autopilot.turn_orders(state, seat), ctx)
    guard = f"Runde: {state.round if round_ is None else round_}\n"
    return f"Kennwort: {password}\n{guard}" + "\n".join(lines) + "\n"


def play_setup_by_mail(mailer: Mailer, name: str) -> None:
    svc = mailer.svc
    pw = passwords(svc)
    while True:
        _, st = game_state(svc, name)
        if st.phase != Phase.SETUP:
            return
        seat = setup_player(st)
        p = seated(svc, name)[seat]
        r = mailer.send(p.address, "Aufstellung", setup_text(st, seat, pw[p.address]))
        assert r.status == "done", r


def pass_deadline(svc: Service, clock: FakeClock, name: str) -> None:
    """Move the clock one minute past the game's deadline."""
    deadline = game_row(svc, name).deadline
    assert deadline is not None
    if clock.now() < deadline:
        clock.advance(seconds=(deadline - clock.now()).total_seconds())
    clock.advance(minutes=1)


def setup_by_deadline(svc: Service, clock: FakeClock, name: str) -> None:
    """Let every setup deadline pass: the service places for everyone (no password checks)."""
    while game_row(svc, name).phase == "setup":
        pass_deadline(svc, clock, name)
        tick(svc)


def send_orders(
    mailer: Mailer,
    name: str,
    seats: Iterable[int],
    resolve: bool = True,
    pw: dict[str, str] | None = None,
) -> dict[int, IngestResult]:
    svc = mailer.svc
    pw = pw or passwords(svc)
    _, st = game_state(svc, name)
    players = seated(svc, name)
    out = {}
    for seat in seats:
        p = players[seat]
        out[seat] = mailer.send(
            p.address,
            f"Züge Runde {st.round}",
            orders_text(st, seat, pw[p.address]),
            resolve=resolve,
        )
        assert out[seat].status == "done", out[seat]
    return out


def play_round(
    mailer: Mailer,
    clock: FakeClock,
    name: str,
    skip: Iterable[int] = (),
    pw: dict[str, str] | None = None,
) -> bool:
    """Every seat not in `skip` (and not on autopilot) sends orders; if the round is then still
    open, its deadline passes. Returns whether the round was resolved early."""
    svc = mailer.svc
    _, st = game_state(svc, name)
    assert st.phase == Phase.ROUNDS
    players = seated(svc, name)
    seats = [
        s for s in range(st.settings.players) if s not in set(skip) and not players[s].autopilot
    ]
    send_orders(mailer, name, seats, pw=pw)
    if game_row(svc, name).round != st.round or game_row(svc, name).phase != "rounds":
        return True
    pass_deadline(svc, clock, name)
    assert name in tick(svc).resolved
    return False


def to_round(
    mailer: Mailer,
    clock: FakeClock,
    name: str,
    players: int = 4,
    by_mail: bool = False,
    **game_kw: Any,
) -> list[str]:
    """A new game, signed up and set up, at the start of round 1."""
    new_game(mailer.svc, name, players=players, **game_kw)
    addrs = signup(mailer, name, players)
    if by_mail:
        play_setup_by_mail(mailer, name)
    else:
        setup_by_deadline(mailer.svc, clock, name)
    assert game_row(mailer.svc, name).phase == "rounds"
    return addrs
