"""Whole games through the service by mail (SQLite), recorded for the privacy tests.

Built on tests/service/support.py: players sign up, place and send their orders by mail (the
autopilot writes them), one seat is handed to a new person mid-game, one player asks for help,
and somebody who is not a player mails orders with another player's password.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

# tests/ is on sys.path (pytest's rootdir insertion for the package tests/reports).
from service.support import (
    GM,
    Mailer,
    game_row,
    game_state,
    new_game,
    pass_deadline,
    seated,
    signup,
)
from sqlmodel import Session, col, select

from pbm.notation import Context
from pbm.notation.format import format_setup_orders, format_turn_orders
from pbm.rules import Phase, autopilot
from pbm.rules.setup import setup_player
from pbm.service import gm
from pbm.service.clock import FakeClock
from pbm.service.context import Service, ServiceConfig
from pbm.service.games import get_game
from pbm.service.tick import tick
from pbm.store.db import make_engine, transaction
from pbm.store.migrate import upgrade
from pbm.store.models import InboundMail, Outbox, Player, RoundRecord

GM_DIGEST = "boss@pbm.test"
NEWCOMER = "newcomer@players.test"
INTRUDER = "intruder@elsewhere.test"
PASSWORD = re.compile(r"(?:Kennwort|Password): (\S+)")
WORDS = {
    "de": {"password": "Kennwort", "round": "Runde", "help": "Hilfe"},
    "en": {"password": "Password", "round": "Round", "help": "Help"},
}


@dataclass
class OrderMail:
    seat: int
    round: int
    address: str
    message_id: str
    text: str


@dataclass
class Played:
    """One whole game, as the database holds it afterwards."""

    name: str
    lang: str
    outbox: list[Outbox]
    inbound: list[InboundMail]
    records: list[RoundRecord]
    players: list[Player]
    orders: list[OrderMail] = field(default_factory=list)
    replaced_seat: int = -1
    #: The card types the seat held when it was handed over.
    replaced_held: list[str] = field(default_factory=list)
    intruder_mail: str = ""

    def events(self, step: int | None) -> list[dict]:
        for r in self.records:
            if r.step == step:
                return json.loads(r.events)
        return []

    def all_events(self) -> list[tuple[int, dict]]:
        return [(r.step, e) for r in self.records for e in json.loads(r.events)]


def _passwords(svc: Service) -> dict[str, str]:
    out: dict[str, str] = {}
    with Session(svc.engine) as s:
        for o in s.exec(select(Outbox).where(Outbox.kind == "welcome").order_by(col(Outbox.id))):
            # The password waits in `secret` until the mail is sent (the body: a placeholder).
            m = PASSWORD.search(o.body)
            assert o.secret or m, o.body
            out[o.recipients] = o.secret or (m.group(1) if m else "")
    return out


def _orders_text(st, seat: int, password: str, lang: str) -> str:  # type: ignore[no-untyped-def]
    ctx = Context(st.board, lang, st.colours, "round")
    w = WORDS[lang]
    lines = format_turn_orders(autopilot.turn_orders(st, seat), ctx)
    return f"{w['password']}: {password}\n{w['round']}: {st.round}\n" + "\n".join(lines) + "\n"


def play_by_mail(
    tmp: Path,
    name: str,
    lang: str,
    seed: int,
    replace_round: int = 4,
    intruder_round: int = 3,
    max_rounds: int = 60,
) -> Played:
    url = f"sqlite:///{tmp}/{name}.db"
    upgrade(url)
    engine = make_engine(url)
    clock = FakeClock()
    svc = Service(engine, clock, ServiceConfig(address=GM, gm_address=GM_DIGEST))
    mailer = Mailer(svc)
    played = Played(name, lang, [], [], [], [])
    try:
        new_game(svc, name, players=4, seed=seed, lang=lang)
        signup(mailer, name, 4)
        pw = _passwords(svc)
        # The setup, placed by mail.
        while True:
            _, st = game_state(svc, name)
            if st.phase != Phase.SETUP:
                break
            seat = setup_player(st)
            p = seated(svc, name)[seat]
            ctx = Context(st.board, lang, st.colours, "setup")
            body = (
                f"{WORDS[lang]['password']}: {pw[p.address]}\n"
                + "\n".join(format_setup_orders(autopilot.setup_orders(st, seat, 2), ctx))
                + "\n"
            )
            r = mailer.send(p.address, "Aufstellung", body)
            assert r.status == "done", r
        while True:
            _, st = game_state(svc, name)
            if st.phase != Phase.ROUNDS or st.round > max_rounds:
                break
            players = seated(svc, name)
            if (
                played.replaced_seat < 0
                and st.round >= replace_round
                and (st.cards[2] or st.round >= replace_round + 10)
            ):
                # Preferably while the seat holds a card bought by the old player.
                played.replaced_seat = 2
                played.replaced_held = [card for card, _ in st.cards[2]]
                with transaction(engine) as s:
                    gm.replace_player(
                        svc, s, get_game(s, name, lock=True), players[2].colour or "", NEWCOMER
                    )
                pw = _passwords(svc)
                players = seated(svc, name)
            if st.round == intruder_round:
                # Not a player, but knows seat 1's password: the answer goes to seat 1.
                game_line = f"{'Game' if lang == 'en' else 'Spiel'}: {name}\n"
                text = game_line + _orders_text(st, 1, pw[players[1].address], lang)
                mailer.send(INTRUDER, "orders", text, resolve=False)
                played.intruder_mail = mailer.last_id
                played.orders.append(OrderMail(1, st.round, INTRUDER, mailer.last_id, text))
            if st.round == 2:
                mailer.send(players[0].address, WORDS[lang]["help"], "", resolve=False)
            for seat in range(4):
                p = players[seat]
                if p.autopilot:
                    continue
                text = _orders_text(st, seat, pw[p.address], lang)
                r = mailer.send(p.address, f"Züge {st.round}", text)
                played.orders.append(OrderMail(seat, st.round, p.address, mailer.last_id, text))
                assert r.status == "done", r
            if game_row(svc, name).round == st.round and game_row(svc, name).phase == "rounds":
                pass_deadline(svc, clock, name)
                tick(svc)
            clock.advance(hours=3)  # keep under the hourly answer limit
        with Session(engine) as s:
            played.outbox = list(s.exec(select(Outbox).order_by(col(Outbox.id))))
            played.inbound = list(s.exec(select(InboundMail).order_by(col(InboundMail.id))))
            played.records = list(s.exec(select(RoundRecord).order_by(col(RoundRecord.step))))
            played.players = list(s.exec(select(Player).order_by(col(Player.id))))
            for rows in (played.outbox, played.inbound, played.records, played.players):
                for row in rows:
                    s.expunge(row)
    finally:
        engine.dispose()
    return played
