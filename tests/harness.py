"""The test harness behind the fixtures of tests/conftest.py: one mail player and one game factory.

- `Mailer`, the mail player: raw mails with fresh Message-IDs, fed to `ingest` as the IMAP
  poller would (and the round resolved when that completed it, as `pbm serve` does).
- `setup_text` / `orders_text`: a seat's orders written by the autopilot, in the game's
  language, so every order is legal and sensible.
- `start_game`, the game factory: a game created, signed up by mail, set up (by mail or by the
  deadlines) and played by mail to round N, with the players' passwords known: read from their
  welcome mails, or the cast's (`PLAYERS`), four named players with fixed passwords and colours.
- `make_service` on a fresh SQLite file, and `eventually` for loops running in the background.

The databases themselves, and the readers of what they hold, are in tests/databases.py.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import itertools
import re
import secrets
import time
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any, Generic, TypeVar

from databases import (
    Rows,
    SqliteCopy,
    game_row,
    game_state,
    is_empty,
    passwords,
    seated,
    sharing_compiled_statements,
    sqlite_database,
)
from sqlmodel import Session, col, select

from pbm.config.model import ArchiveSection, ServiceSection, Settings
from pbm.notation import Context
from pbm.notation.format import format_setup_orders, format_turn_orders
from pbm.rules import GameState, Phase, autopilot
from pbm.rules.setup import setup_player
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.games import create_game, get_game
from pbm.service.ingest import IngestResult, ingest
from pbm.service.secrets import hash_password
from pbm.service.tick import resolve_if_ready, tick
from pbm.store.db import make_engine, transaction
from pbm.store.migrate import database_heads
from pbm.store.models import Outbox, Player

GM = "gm@pbm.test"
T = TypeVar("T")

# -- the cast: four named players with known passwords -------------------------------------------

ANNA = "anna.mueller@web.test"
BERND = "bernd.schaefer@firma.test"
CARLA = "carla.rossi@gmail.test"
DIETER = "dieter.kuehn@icloud.test"
#: Password and preferred colour. In game "alpha" (medium board, seed 7) Dieter sits at seat 0
#: (weiss), Bernd 1 (gelb), Carla 2 (blau), Anna 3 (rot).
PLAYERS = {
    ANNA: ("tulpe-482913", "rot"),
    BERND: ("ahorn-771204", "gelb"),
    CARLA: ("kiesel-305518", "blau"),
    DIETER: ("birke-640027", "weiss"),
}
#: An order line each of them may send in round 1 of "alpha" (it passes the checks at receipt).
A_ROAD = {
    ANNA: "Straße 4H 5W",
    BERND: "Straße C3 D4",
    CARLA: "Straße 8L 4L",
    DIETER: "Straße 10H 3W",
}


def make_service(
    tmp_path: Path,
    clock: FakeClock | None = None,
    archive: ArchiveSection | None = None,
    **service: Any,
) -> Service:
    """The service on a fresh SQLite file in `tmp_path`, with the `[service]` values given."""
    url = sqlite_database(tmp_path / "pbm.db")
    settings = Settings(
        service=ServiceSection(address=GM, **service), archive=archive or ArchiveSection()
    )
    return Service(sharing_compiled_statements(make_engine(url)), clock or FakeClock(), settings)


def set_service(svc: Service, **values: Any) -> None:
    """Change `[service]` values of a running service (its settings are frozen, as read)."""
    svc.config = svc.config.model_copy(
        update={"service": svc.config.service.model_copy(update=values)}
    )


def set_archive(svc: Service, **values: Any) -> None:
    """Change `[archive]` values of a running service. Only the archive's writer and the
    history answer read them: a game started before is the game that would have been started
    with them (and is the one `start_game` remembers for every other test)."""
    svc.config = svc.config.model_copy(update={"archive": ArchiveSection(**values)})


# -- the mail player ----------------------------------------------------------------------------


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


#: One sequence for every Mailer of the process: two never make the same Message-ID.
_MAIL_NUMBERS = itertools.count(1)
_RUN = secrets.token_hex(3)


class Mailer:
    """Writes raw mails with fresh Message-IDs and feeds them to `ingest`, as the IMAP poller
    would. `svc` may be None for a player who only writes (`mail`, `raw`)."""

    def __init__(self, svc: Service | None = None) -> None:
        self._svc = svc
        self.last_id = ""

    @property
    def svc(self) -> Service:
        assert self._svc is not None, "this Mailer has no service"
        return self._svc

    def mail(
        self,
        sender: str,
        subject: str,
        body: str,
        headers: dict[str, str] | None = None,
        message_id: str | None = None,
    ) -> tuple[str, bytes]:
        """(Message-ID, raw bytes) of a new mail to the GM."""
        self.last_id = message_id or f"<m{next(_MAIL_NUMBERS)}.{_RUN}@players.test>"
        return self.last_id, raw_mail(sender, subject, body, self.last_id, headers)

    def raw(
        self, sender: str, subject: str, body: str, headers: dict[str, str] | None = None
    ) -> bytes:
        return self.mail(sender, subject, body, headers)[1]

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


#: The words of an order mail's first lines, by game language.
WORDS = {
    "de": {"password": "Kennwort", "round": "Runde", "help": "Hilfe", "game": "Spiel"},
    "en": {"password": "Password", "round": "Round", "help": "Help", "game": "Game"},
    "da": {"password": "Adgangskode", "round": "Runde", "help": "Hjælp", "game": "Spil"},
}


def setup_text(
    state: GameState, seat: int, password: str, alternatives: int = 3, lang: str = "de"
) -> str:
    """The autopilot's ranked setup placements for `seat`, as a mail body."""
    ctx = Context(state.board, lang, state.colours, "setup")
    lines = format_setup_orders(autopilot.setup_orders(state, seat, alternatives), ctx)
    return f"{WORDS[lang]['password']}: {password}\n" + "\n".join(lines) + "\n"


def orders_text(
    state: GameState, seat: int, password: str, round_: int | None = None, lang: str = "de"
) -> str:
    """The autopilot's orders for `seat` this round, as a mail body (with the round guard)."""
    ctx = Context(state.board, lang, state.colours, "round")
    lines = format_turn_orders(autopilot.turn_orders(state, seat), ctx)
    w = WORDS[lang]
    guard = f"{w['round']}: {state.round if round_ is None else round_}\n"
    return f"{w['password']}: {password}\n{guard}" + "\n".join(lines) + "\n"


# -- the game factory ---------------------------------------------------------------------------


def new_game(svc: Service, name: str = "alpha", **kw: Any) -> None:
    kw.setdefault("seed", 7)
    with transaction(svc.engine) as s:
        create_game(svc, s, name, **kw)


#: The line of a confirmation request that carries its code, in either language.
CONFIRM_LINE = re.compile(r"^  (?:Bestätigen|Confirm|Bekræft): (\S+)$", re.M)


def confirmation_code(svc: Service, address: str) -> str:
    """The code of the newest confirmation request (sign-up or observing) mailed to
    `address`."""
    with Session(svc.engine) as s:
        rows = s.exec(
            select(Outbox)
            .where(col(Outbox.kind).in_(("signup_confirm", "observe_confirm")))
            .order_by(col(Outbox.id).desc())
        )
        for row in rows:
            if address in row.recipients.split(","):
                m = CONFIRM_LINE.search(row.body)
                assert m, row.body
                return m.group(1)
    raise AssertionError(f"no confirmation request to {address}")


def join_by_mail(
    mailer: Mailer, address: str, game: str, body: str = "", subject: str = "Anmeldung"
) -> IngestResult:
    """A sign-up as a player makes it: the request (`body` under `Spiel:`), then the reply
    with the code the service mailed to the address. Returns the reply's result."""
    r = mailer.send(address, subject, f"Spiel: {game}\n{body}")
    assert r.status == "done", r
    code = confirmation_code(mailer.svc, address)
    return mailer.send(address, f"Re: [{game}] Anmeldung", f"Bestätigen: {code}\n")


def signup(
    mailer: Mailer,
    name: str,
    players: int = 4,
    colours: list[str] | None = None,
    addresses: list[str] | None = None,
) -> list[str]:
    """Join `players` players by mail (p0@…, p1@… unless `addresses` are given), with the
    colour wishes `colours` (one string per player), each confirming with the code mailed to
    it; returns their addresses."""
    addrs = addresses or [f"p{i}@players.test" for i in range(players)]
    for i, a in enumerate(addrs):
        prefs = colours[i] if colours else "rot, blau, gelb"
        r = join_by_mail(mailer, a, name, f"Name: Spieler {i}\nFarben: {prefs}\n")
        assert r.status == "done", r
    return addrs


def play_setup_by_mail(mailer: Mailer, name: str, lang: str = "de", alternatives: int = 3) -> None:
    svc = mailer.svc
    pw = passwords(svc)
    while True:
        _, st = game_state(svc, name)
        if st.phase != Phase.SETUP:
            return
        seat = setup_player(st)
        p = seated(svc, name)[seat]
        body = setup_text(st, seat, pw[p.address], alternatives, lang)
        r = mailer.send(p.address, "Aufstellung", body)
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
    """The autopilot's orders for `seats`, each mailed by its player."""
    svc = mailer.svc
    pw = pw or passwords(svc)
    _, st = game_state(svc, name)
    players = seated(svc, name)
    # Each player writes in the game's language, as its mails ask them to.
    lang = game_row(svc, name).lang
    out = {}
    for seat in seats:
        p = players[seat]
        out[seat] = mailer.send(
            p.address,
            f"Züge Runde {st.round}",
            orders_text(st, seat, pw[p.address], lang=lang),
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


@dataclass
class Table:
    """A game started by `start_game`."""

    name: str
    addresses: list[str]
    #: Each player's password (address → password).
    passwords: dict[str, str]
    #: The notation context of the open round (board, language, colours).
    ctx: Context
    seats: dict[int, str] = field(default_factory=dict)


def start_game(
    mailer: Mailer,
    clock: FakeClock,
    name: str = "alpha",
    players: int = 4,
    *,
    round_: int = 1,
    by_mail: bool = False,
    cast: bool = False,
    **settings: Any,
) -> Table:
    """The game factory: game `name` created (seed 7 unless `settings` say otherwise), signed
    up by mail, set up by mail (`by_mail`) or by the setup deadlines, at the start of round
    `round_` (the rounds before it played by mail with the autopilot's orders).

    The players are p0@players.test, p1@… with the passwords of their welcome mails, or with
    `cast` the four `PLAYERS` with their colours and, from round 1 on, their passwords.

    On an empty database the result is remembered: the next test asking for the same game
    (same service settings, same clock) gets a copy of the rows and the clock moved on as the
    first one did (see `_Snapshot`), without playing it all again."""
    return prepared(
        mailer,
        clock,
        ("start_game", name, players, round_, by_mail, cast, sorted_items(settings)),
        lambda: _start_game(mailer, clock, name, players, round_, by_mail, cast, settings),
    )


def sorted_items(values: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """Keyword arguments as part of a `prepared` key."""
    return tuple(sorted((k, repr(v)) for k, v in values.items()))


def prepared(mailer: Mailer, clock: FakeClock, key: Hashable, build: Callable[[], T]) -> T:
    """`build()` (which fills the database of `mailer`'s service, on `clock`), remembered when
    it ran on an empty database: the next test whose empty database, service settings and
    clock are the same, and that asks for the same `key`, gets a copy of the rows and the
    clock moved on as the first one did (see `_Snapshot`), without doing it all again. A
    fixture that fills a database the same way for many tests builds it once per process."""
    svc = mailer.svc
    # The schema's revision too: an empty database of an older schema is not the same start.
    full = (
        svc.engine.dialect.name,
        database_heads(svc.engine),
        repr(svc.config),
        clock.now(),
        key,
    )
    pristine = is_empty(svc.engine)
    if pristine and full in _SNAPSHOTS:
        return _SNAPSHOTS[full].restore(mailer, clock)
    value = build()
    if pristine:
        elapsed = clock.now() - full[3]
        rows = SqliteCopy if svc.engine.dialect.name == "sqlite" else Rows
        _SNAPSHOTS[full] = _Snapshot(rows.take(svc.engine), elapsed, value, mailer.last_id)
    return value


def _start_game(
    mailer: Mailer,
    clock: FakeClock,
    name: str,
    players: int,
    round_: int,
    by_mail: bool,
    cast: bool,
    settings: dict[str, Any],
) -> Table:
    svc = mailer.svc
    if round_ > 1:
        # The game one round earlier (remembered, as every round of it is, for the next test
        # that asks for it or for a later round), and its open round played.
        before = start_game(
            mailer, clock, name, players, round_=round_ - 1, by_mail=by_mail, cast=cast, **settings
        )
        play_round(mailer, clock, name, pw=before.passwords)
        return _table(svc, name, round_, before.addresses, before.passwords)
    new_game(svc, name, players=players, **settings)
    if cast:
        assert players == 4
        addresses = signup(
            mailer, name, 4, [c for _, c in PLAYERS.values()], addresses=list(PLAYERS)
        )
    else:
        addresses = signup(mailer, name, players)
    if by_mail:
        # In the game's language: its resource letters are the game's.
        play_setup_by_mail(mailer, name, lang=game_row(svc, name).lang)
    else:
        setup_by_deadline(svc, clock, name)
    if cast:
        with transaction(svc.engine) as s:
            game = get_game(s, name)
            for p in s.exec(select(Player).where(Player.game_id == game.id)):
                p.password_hash = hash_password(PLAYERS[p.address][0])
        known = {a: pw for a, (pw, _) in PLAYERS.items()}
    else:
        known = passwords(svc)
    return _table(svc, name, round_, addresses, {a: known[a] for a in addresses})


def _table(
    svc: Service, name: str, round_: int, addresses: list[str], known: dict[str, str]
) -> Table:
    """The started game `name`, at the start of round `round_`, as `start_game` returns it."""
    game, state = game_state(svc, name)
    assert game.phase == "rounds" and game.round == round_, (game.phase, game.round)
    return Table(
        name,
        list(addresses),
        dict(known),
        Context(state.board, game.lang, state.colours, "round"),
        {seat: p.address for seat, p in seated(svc, name).items()},
    )


@dataclass
class _Snapshot(Generic[T]):
    """A filled database: every table's rows (SQLite: a copy of its pages), the clock's time it
    took, what `build` returned
    (a Table for a started game). Restored into the test's empty database, the test sees what
    doing it again would have left, but for the random parts (passwords, codebook keys,
    Message-IDs), which are those of the first time."""

    rows: Rows | SqliteCopy
    elapsed: timedelta
    value: T
    last_id: str

    def restore(self, mailer: Mailer, clock: FakeClock) -> T:
        self.rows.restore(mailer.svc.engine)
        clock.advance(seconds=self.elapsed.total_seconds())
        mailer.last_id = self.last_id
        return _copy(self.value)


def _copy(value: T) -> T:
    """A copy of what `build` returned for the test to change: a Table's lists and dicts (its
    Context is read only), a tuple's items, anything else deep."""
    if isinstance(value, Table):
        return dataclasses.replace(  # type: ignore[return-value]
            value,
            addresses=list(value.addresses),
            passwords=dict(value.passwords),
            seats=dict(value.seats),
        )
    if type(value) is tuple:
        return tuple(_copy(v) for v in value)  # type: ignore[return-value]
    return copy.deepcopy(value)


_SNAPSHOTS: dict[tuple[Any, ...], _Snapshot[Any]] = {}


@dataclass
class Games:
    """The game factory of the `games` fixture: `start_game` with the test's mailer and clock."""

    mailer: Mailer
    clock: FakeClock

    def start(self, name: str = "alpha", players: int = 4, **kw: Any) -> Table:
        """See `start_game`: `games.start("beta", round_=3, by_mail=True, lang="en")`."""
        return start_game(self.mailer, self.clock, name, players, **kw)


# -- loops in the background --------------------------------------------------------------------


async def eventually(
    check: Callable[[], bool], timeout: float = 20.0, what: str = "condition"
) -> None:
    """Wait until `check()` holds (looked at every 50 ms), else fail after `timeout` s."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(0.05)


async def join_through_inbox(
    svc: Service, deliver: Callable[[bytes], Any], address: str, game: str, body: str = ""
) -> None:
    """A sign-up as a player makes it, to a running `serve`: the request (`body` under
    `Spiel:`) into the inbox (`deliver`, e.g. `MemoryMailbox.append`), then, once the service
    has mailed the code, the reply with it."""
    deliver(Mailer().raw(address, "Anmeldung", f"Spiel: {game}\n{body}"))

    def asked() -> bool:
        try:
            confirmation_code(svc, address)
        except AssertionError:
            return False
        return True

    await eventually(asked, 30, f"the confirmation request to {address}")
    code = confirmation_code(svc, address)
    deliver(Mailer().raw(address, f"Re: [{game}] Anmeldung", f"Bestätigen: {code}\n"))
