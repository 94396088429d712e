"""Helpers for the mail fault tests: a service on a fresh SQLite file, a TCP proxy that can
"kill" the server behind it (every connection cut, the port closed) and bring it back on the
same port, and small polling helpers.

pymap's `stop()` closes the listening socket but keeps existing connections alive (asyncio's
`Server.close` does that on Python 3.11), so a real server death, where every client sees its
connection go away, is simulated by the proxy in front of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlmodel import Session, col, select

from pbm.mail.loopback import free_port
from pbm.notation import Context
from pbm.service.clock import FakeClock
from pbm.service.context import Service, ServiceConfig
from pbm.service.games import create_game, get_game, load_state
from pbm.service.ingest import ingest
from pbm.service.secrets import hash_password
from pbm.service.tick import tick
from pbm.store.db import make_engine, transaction
from pbm.store.migrate import upgrade
from pbm.store.models import Game, OrderSet, Player, RoundRecord

GM = "gm@pbm.test"

ANNA = "anna.mueller@web.test"
BERND = "bernd.schaefer@firma.test"
CARLA = "carla.rossi@gmail.test"
DIETER = "dieter.kuehn@icloud.test"
#: The players of game "alpha" (medium board, seed 7): password and preferred colour. With
#: these preferences Dieter sits at seat 0 (weiss), Bernd 1 (gelb), Carla 2 (blau), Anna 3 (rot).
PLAYERS = {
    ANNA: ("tulpe-482913", "rot"),
    BERND: ("ahorn-771204", "gelb"),
    CARLA: ("kiesel-305518", "blau"),
    DIETER: ("birke-640027", "weiss"),
}
#: An order line each player may send in round 1 (it passes the checks at receipt).
A_ROAD = {
    ANNA: "Straße 4H 5W",
    BERND: "Straße C3 D4",
    CARLA: "Straße 8L 4L",
    DIETER: "Straße 10H 3W",
}


def make_service(tmp_path: Path, clock: FakeClock | None = None, **config: object) -> Service:
    url = f"sqlite:///{tmp_path / 'pbm.db'}"
    upgrade(url)
    return Service(make_engine(url), clock or FakeClock(), ServiceConfig(address=GM, **config))  # type: ignore[arg-type]


def round_one(svc: Service, clock: FakeClock, name: str = "alpha") -> Context:
    """Game `name` with the four PLAYERS, signed up by mail, set up by the deadlines, at the
    start of round 1; their passwords are those of PLAYERS. Returns the notation context."""
    with transaction(svc.engine) as s:
        create_game(svc, s, name, players=4, seed=7)
    for i, (address, (_, colour)) in enumerate(PLAYERS.items()):
        body = f"Spiel: {name}\r\nName: Spieler {i}\r\nFarben: {colour}\r\n"
        raw = (
            f"From: {address}\r\nTo: {GM}\r\nSubject: Anmeldung\r\n"
            f"Message-ID: <join{i}.{name}@players.test>\r\n\r\n{body}"
        ).encode()
        assert ingest(svc, raw).status == "done"
    while True:
        with Session(svc.engine) as s:
            game = get_game(s, name)
        if game.phase != "setup":
            break
        assert game.deadline is not None
        clock.advance(seconds=(game.deadline - clock.now()).total_seconds() + 60)
        tick(svc)
    with transaction(svc.engine) as s:
        game = get_game(s, name)
        for p in s.exec(select(Player).where(Player.game_id == game.id)):
            p.password_hash = hash_password(PLAYERS[p.address][0])
        assert game.phase == "rounds" and game.round == 1
        state = load_state(game)
    return Context(state.board, "de", state.colours, "round")


async def eventually(
    check: Callable[[], bool], timeout: float = 20.0, what: str = "condition"
) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(0.05)


class KillableProxy:
    """Listens on `port` and forwards every connection to `target_port` on 127.0.0.1.

    `kill(bye=...)` is the server dying: optionally an untagged `* BYE` first (a clean
    shutdown), then every connection is cut and the port stops listening. `revive(target)`
    listens again on the same port, forwarding to a (new) server.
    """

    def __init__(self, target_port: int, port: int = 0) -> None:
        self.target_port = target_port
        self.port = port or free_port()
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        #: Connections accepted, and IDLE commands seen from clients, so far.
        self.connections = 0
        self.idles = 0

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", self.port)

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return
        self._writers |= {writer, up_writer}

        async def pump(
            src: asyncio.StreamReader, dst: asyncio.StreamWriter, from_client: bool
        ) -> None:
            try:
                while data := await src.read(65536):
                    if from_client and b" IDLE\r\n" in data:
                        self.idles += 1
                    dst.write(data)
                    await dst.drain()
            except (OSError, asyncio.CancelledError):
                pass
            finally:
                with contextlib.suppress(Exception):
                    dst.close()

        tasks = [
            asyncio.create_task(pump(reader, up_writer, True)),
            asyncio.create_task(pump(up_reader, writer, False)),
        ]
        self._tasks.update(tasks)
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.difference_update(tasks)
        self._writers -= {writer, up_writer}

    async def kill(self, bye: bool = False, keep_listening: bool = False) -> None:
        """Cut every connection; unless `keep_listening`, stop listening as well."""
        if self._server is not None and not keep_listening:
            self._server.close()
            self._server = None
        for w in list(self._writers):
            if bye and w.get_extra_info("peername")[1] != self.target_port:
                with contextlib.suppress(Exception):
                    w.write(b"* BYE server shutting down\r\n")
                    await w.drain()
            with contextlib.suppress(Exception):
                w.transport.abort()
        for t in list(self._tasks):
            t.cancel()
        self._writers.clear()
        await asyncio.sleep(0)

    async def revive(self, target_port: int) -> None:
        self.target_port = target_port
        await self.start()


def game_snapshot(svc: Service) -> tuple[Any, ...]:
    """What a mail must not change unless it is accepted: games, players, order sets, records."""
    with Session(svc.engine) as s:
        return (
            [
                (g.name, g.phase, g.round, g.paused, g.deadline, g.state)
                for g in s.exec(select(Game).order_by(col(Game.id)))
            ],
            [
                (p.id, p.address, p.seat, p.status, p.autopilot, p.nmr_count, p.password_hash)
                for p in s.exec(select(Player).order_by(col(Player.id)))
            ],
            [
                (o.id, o.player_id, o.superseded)
                for o in s.exec(select(OrderSet).order_by(col(OrderSet.id)))
            ],
            [r.id for r in s.exec(select(RoundRecord))],
        )
