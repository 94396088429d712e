"""The round report's JSON attachment through the service (issue 27): every report and game-end
mail, as the sender builds it for each recipient, carries `runde-N.json` / `round-N.json`,
valid against `pbm/schemas/round-report.schema.json`, with the recipient's own hand and cards
under `you` and nothing a player may not see: no other seat's hand or cards, no hidden victory
point, no password, codebook key or address, no hex under the fog; and the HTML part's "Write
orders" link writes to the game's address with the game's tag and the order form, never the
password.

Whole games are played by mail (every seat sends the autopilot's orders, as `pbm demo`'s bots
do) and every mail goes out through `send_pending` to the in-memory SMTP server, so what is
checked is what a player receives.
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass, field
from email.message import EmailMessage
from html.parser import HTMLParser
from typing import Any
from urllib.parse import unquote, urlsplit

import jsonschema
import pytest
from databases import game_row, game_state, passwords, records, seated
from harness import GM, Games, Mailer, play_round
from sqlalchemy import update
from sqlmodel import Session, col

from pbm.mail.memory import MemorySmtp, Sent
from pbm.reports import report_json
from pbm.reports.codebook import CARD_NAMES
from pbm.reports.report_data import order_form
from pbm.rules import GameState, Phase, state_from_json
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.sending import send_pending
from pbm.store.models import Outbox, Player

VALIDATOR = jsonschema.Draft202012Validator(
    report_json.schema(), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
)
WATCHER = "watcher@fans.test"
#: The keys of a player's row: counts, pieces and points; at the end, the revealed cards.
PUBLIC_KEYS = {
    "seat",
    "colour",
    "colour_name",
    "name",
    "vp",
    "titles",
    "special_vp",
    "cards_in_hand",
    "development_cards",
    "knights_played",
    "road_length",
    "settlements",
    "cities",
    "castles",
    "residences",
    "workshops",
    "roads",
    "ships",
}
CARD_IDS = set(CARD_NAMES["de"])
CARD_WORDS = {name for lang in ("de", "en") for name in CARD_NAMES[lang].values()}


@dataclass
class Checked:
    reports: int = 0
    documents: int = 0
    observers: int = 0
    fog_hexes: int = 0
    ended: int = 0
    rounds: set[int] = field(default_factory=set)


def attachments(msg: EmailMessage) -> list[EmailMessage]:
    return [p for p in msg.iter_attachments() if isinstance(p, EmailMessage)]


def json_of(msg: EmailMessage) -> tuple[str, dict[str, Any], bytes]:
    """(file name, document, bytes) of the message's one JSON attachment."""
    (part,) = attachments(msg)
    assert part.get_content_type() == "application/json"
    assert part.get_content_disposition() == "attachment"
    data = part.get_payload(decode=True)
    assert isinstance(data, bytes)
    return part.get_filename() or "", json.loads(data), data


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href")
        if tag == "a" and href:
            self.hrefs.append(href)


def mailto_links(msg: EmailMessage) -> list[str]:
    part = msg.get_body(preferencelist=("html",))
    assert isinstance(part, EmailMessage)
    parser = _Links()
    parser.feed(str(part.get_content()))
    return [h for h in parser.hrefs if h.startswith("mailto:")]


def _strings(value: Any, path: str = "") -> list[tuple[str, str]]:
    """Every string of a document with its path (`players.2.name`)."""
    if isinstance(value, str):
        return [(path, value)]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in _strings(v, f"{path}.{k}".strip("."))]
    if isinstance(value, list):
        return [s for i, v in enumerate(value) for s in _strings(v, f"{path}.{i}".strip("."))]
    return []


def check_report(
    msg: Sent,
    state: GameState,
    round_: int,
    lang: str,
    game: str,
    seats: dict[str, int],
    secrets: list[str],
    addresses: list[str],
    checked: Checked,
) -> None:
    """One report as one recipient got it: the JSON attachment and the "Write orders" link."""
    message = msg.message
    (recipient,) = msg.rcpt_tos
    name, doc, data = json_of(message)
    assert name == (f"runde-{round_}.json" if lang == "de" else f"round-{round_}.json")
    errors = sorted(VALIDATOR.iter_errors(doc), key=lambda e: list(e.path))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors[:5]]
    ended = state.winner >= 0
    assert doc["game"] == game and doc["round"] == round_ and doc["ended"] == ended
    text = msg.text
    # The log says what the report says.
    for line in doc["log"]:
        assert line in text, line
    # The board as the state has it, the fog as fog.
    hexes = doc["board"]["hexes"]
    assert [h["label"] for h in hexes] == [h.label for h in state.board.hexes]
    fog = [h for h in hexes if h["terrain"] == "fog"]
    assert len(fog) == len(state.board.fog)
    assert all(h["resource"] is None and h["number"] is None for h in fog)
    checked.fog_hexes += len(fog)
    # Every player: public counts, visible points; their cards only at the end.
    for p, row in enumerate(doc["players"]):
        extra = {"final_vp", "revealed_cards"} if ended else set()
        assert set(row) == PUBLIC_KEYS | extra, set(row) ^ (PUBLIC_KEYS | extra)
        assert row["seat"] == p
        assert row["cards_in_hand"] == sum(state.hands[p])
        assert row["development_cards"] == len(state.cards[p])
        assert row["knights_played"] == state.knights[p]
        assert row["vp"] == state.visible_vp(p)
        if ended:
            assert row["final_vp"] == state.vp(p)
            assert sorted(row["revealed_cards"]) == sorted(c for c, _ in state.cards[p])
    # The reader's own seat, and only theirs.
    you = doc["you"]
    if recipient in seats:
        seat = seats[recipient]
        assert you["seat"] == seat
        hand = state.hands[seat]
        assert [you["hand"][k] for k in report_json.RESOURCE_IDS[: len(hand)]] == hand
        assert [(c["card"], c["bought_in_round"]) for c in you["development_cards"]] == [
            (c, r) for c, r in state.cards[seat]
        ]
        assert you["vp_total"] == state.vp(seat)
    else:
        assert you is None
        checked.observers += 1
    # Card types only in the reader's own cards, the end's revealed cards, and the log lines
    # the report prints (a card played).
    for path, value in _strings(doc):
        if path.startswith("you.development_cards") or ".revealed_cards." in path:
            continue
        if path.startswith("log."):
            continue
        assert value not in CARD_IDS and value not in CARD_WORDS, (path, value)
    # No password, codebook key or address; no seal nonce before the end.
    raw = data.decode("utf-8")
    for secret in secrets:
        assert secret not in raw
    for address in addresses:
        assert address not in raw
    # The link that writes the next round's orders: a player's, never an observer's.
    links = mailto_links(message)
    if ended or recipient not in seats:
        assert not links
    else:
        assert links
        for href in links:
            assert len(href) < 2000
            url = urlsplit(href)
            assert unquote(url.path) == GM
            query = dict(part.split("=", 1) for part in url.query.split("&"))
            subject, body = unquote(query["subject"]), unquote(query["body"])
            assert subject.startswith(f"[{game}] ")
            assert body == "".join(f"{line}\r\n" for line in order_form(state, lang))
            for secret in secrets:
                assert secret not in href and secret not in body
        orders_to = "Send your orders to: " if lang == "en" else "Schicke deine Züge an: "
        assert f"{orders_to}{GM}\n" in text
    checked.documents += 1
    checked.rounds.add(round_)
    checked.ended += ended


def check_sent(svc: Service, smtp: MemorySmtp, name: str, secrets: list[str]) -> Checked:
    """Every report and game-end mail the server took for game `name`."""
    game = game_row(svc, name)
    with Session(svc.engine) as s:
        rows = {
            o.message_id: o
            for o in s.exec(
                Outbox.__table__.select().where(  # type: ignore[attr-defined]
                    col(Outbox.kind).in_(("report", "end")), Outbox.game_id == game.id
                )
            )
        }
        players = list(s.exec(Player.__table__.select().where(Player.game_id == game.id)))  # type: ignore[attr-defined]
    by_step = {r.step: r for r in records(svc, name)}
    seats = {p.address: p.seat for p in players if p.seat is not None}
    addresses = sorted({p.address for p in players} | {WATCHER})
    checked = Checked()
    for sent in smtp.accepted:
        row = rows.get(str(sent.message["Message-ID"]))
        if row is None:
            continue
        record = by_step[row.step]
        state = state_from_json(json.loads(record.state_after))
        check_report(sent, state, record.round, game.lang, name, seats, secrets, addresses, checked)
        checked.reports += 1
    return checked


def _send(svc: Service, smtp: MemorySmtp) -> None:
    while asyncio.run(send_pending(svc, smtp.sender)).sent:
        pass


def _observe(mailer: Mailer, name: str) -> None:
    """WATCHER observes the game (asked and confirmed by mail)."""
    from harness import confirmation_code

    mailer.send(WATCHER, "Beobachten", f"Spiel: {name}\nBeobachten\n")
    code = confirmation_code(mailer.svc, WATCHER)
    mailer.send(WATCHER, "Re", f"Spiel: {name}\nBestätigen: {code}\n")


def _secrets(svc: Service, name: str) -> list[str]:
    """Every password and codebook key of the game, and its seal nonce."""
    out = list(passwords(svc).values())
    out += [p.codebook_secret for p in seated(svc, name).values() if p.codebook_secret]
    game = game_row(svc, name)
    return [*out, *([game.seal_nonce] if game.seal_nonce else [])]


def test_every_report_carries_its_readers_json_and_a_link_to_write_orders(
    svc: Service, clock: FakeClock, mailer: Mailer, games: Games
) -> None:
    games.start("alpha", round_=2)
    _observe(mailer, "alpha")
    secrets = _secrets(svc, "alpha")
    pw = passwords(svc)
    _send(svc, MemorySmtp())  # what went before: welcome mails, round 1's report
    smtp = MemorySmtp()
    for _ in range(2):
        play_round(mailer, clock, "alpha", pw=pw)
    _send(svc, smtp)
    checked = check_sent(svc, smtp, "alpha", secrets)
    # Four players and the observer, rounds 2 and 3 (round 1's report went before).
    assert checked.reports == checked.documents == 10
    assert checked.observers == 2
    assert checked.rounds == {2, 3}


def test_orders_written_from_the_link_with_the_file_still_attached_are_read(
    svc: Service, clock: FakeClock, mailer: Mailer, games: Games
) -> None:
    """A player who writes orders from the report (the link's subject, the form filled in)
    and whose mail program keeps the report's JSON file attached: the file is not read, the
    orders are."""
    from email.utils import make_msgid

    from databases import order_sets
    from harness import orders_text

    from pbm.service.ingest import ingest

    games.start("alpha", round_=2)
    pw = passwords(svc)
    play_round(mailer, clock, "alpha", pw=pw)
    smtp = MemorySmtp()
    _send(svc, smtp)
    _, state = game_state(svc, "alpha")
    player = seated(svc, "alpha")[1]
    report = next(
        m.message
        for m in smtp.accepted
        if m.rcpt_tos == [player.address] and attachments(m.message)
    )
    (href,) = set(mailto_links(report))
    query = dict(part.split("=", 1) for part in urlsplit(href).query.split("&"))
    reply = EmailMessage()
    reply["From"] = player.address
    reply["To"] = GM
    reply["Subject"] = unquote(query["subject"])
    reply["Message-ID"] = make_msgid(domain="players.test")
    reply.set_content(orders_text(state, 1, pw[player.address]))
    name, _, data = json_of(report)
    reply.add_attachment(data, maintype="application", subtype="json", filename=name)
    result = ingest(svc, reply.as_bytes())
    assert result.status == "done", result
    mine = [o for o in order_sets(svc, "alpha") if o.player_id == player.id]
    assert [o.round for o in mine][-1] == state.round


def test_an_attachment_that_cannot_be_read_leaves_the_report_without_it(
    svc: Service, clock: FakeClock, mailer: Mailer, games: Games
) -> None:
    """Nothing is lost: the report goes out without its file, and the log says so."""
    games.start("alpha", round_=2)
    play_round(mailer, clock, "alpha")
    with Session(svc.engine) as s:
        s.exec(update(Outbox).where(col(Outbox.kind) == "report").values(attachment="{broken"))
        s.commit()
    smtp = MemorySmtp()
    _send(svc, smtp)
    reports = [m for m in smtp.accepted if "Bericht Runde 2" in str(m.message["Subject"])]
    assert len(reports) == 4
    assert all(not attachments(m.message) for m in reports)


def _whole_game(
    svc: Service,
    clock: FakeClock,
    mailer: Mailer,
    games: Games,
    name: str,
    last_round: int = 60,
    **settings: Any,
) -> tuple[MemorySmtp, list[str]]:
    """The game `name` played to its end (or through `last_round`) by mail, every seat
    sending the autopilot's orders, with an observer; every mail sent."""
    games.start(name, **settings)
    _observe(mailer, name)
    secrets = _secrets(svc, name)
    # Read before the welcome mails go out (their password leaves the outbox then).
    pw = passwords(svc)
    smtp = MemorySmtp()
    while True:
        _, state = game_state(svc, name)
        if state.phase != Phase.ROUNDS or state.round > last_round:
            break
        play_round(mailer, clock, name, pw=pw)
        _send(svc, smtp)
        clock.advance(hours=3)  # keep under the hourly answer limit
    _send(svc, smtp)
    return smtp, secrets


@pytest.mark.slow
# Each language and each database once: the language's texts do not depend on the database,
# so English on PostgreSQL too would prove nothing the others do not.
@pytest.mark.parametrize(
    ("db_url", "lang"),
    [("sqlite", "de"), ("sqlite", "en"), pytest.param("postgresql", "de", marks=pytest.mark.pg)],
    indirect=["db_url"],
)
def test_a_whole_game_every_report_valid_and_private(
    svc: Service, clock: FakeClock, mailer: Mailer, games: Games, lang: str
) -> None:
    smtp, secrets = _whole_game(svc, clock, mailer, games, "ganz", lang=lang)
    _, state = game_state(svc, "ganz")
    assert state.phase == Phase.ENDED and state.winner >= 0, "the game must end"
    checked = check_sent(svc, smtp, "ganz", secrets)
    rounds = state.round
    assert checked.reports == 5 * rounds
    assert checked.rounds == set(range(1, rounds + 1))
    assert checked.ended == 5


@pytest.mark.slow
# SQLite alone: what the JSON shows does not depend on the database, and the whole games
# above run on PostgreSQL too.
@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_an_oceania_game_shows_no_hex_under_the_fog_in_its_json(
    svc: Service, clock: FakeClock, mailer: Mailer, games: Games
) -> None:
    """Oceania (seed 9: the autopilot's ships first discover fog in round 17 of 37), through
    round 17: the JSON's fog hexes are exactly the state's, with neither tile nor token;
    tests/service/test_fog_privacy.py compares every output of two games that differ only
    under the fog, the attachments too."""
    smtp, secrets = _whole_game(
        svc, clock, mailer, games, "nebel", last_round=17, seed=9, scenario="ozeanien"
    )
    checked = check_sent(svc, smtp, "nebel", secrets)
    assert checked.reports > 20 and checked.fog_hexes > 0
    first = next(m for m in smtp.accepted if attachments(m.message))
    last = [m for m in smtp.accepted if attachments(m.message)][-1]
    fog_first = sum(h["terrain"] == "fog" for h in json_of(first.message)[1]["board"]["hexes"])
    fog_last = sum(h["terrain"] == "fog" for h in json_of(last.message)[1]["board"]["hexes"])
    assert fog_last < fog_first, "the game must discover fog"
    found = [h for h in json_of(last.message)[1]["board"]["hexes"] if h["terrain"] != "fog"]
    assert re.fullmatch(r"ozeanien", json_of(last.message)[1]["scenario"] or "")
    assert found
