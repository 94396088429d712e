"""The modes of the files pbm writes (docs/security.md, "File modes"): everything private, 0600
and folders 0700, whatever the umask; the web archive alone is published, 0644 and 0755.

Each test runs under a umask of 000 (the worst a GM's shell may have) and of 022 (the usual
one): the modes must come from pbm, not from the umask. `pbm` itself sets 0o077 first of all
(`pbm.cli.main`); the in-process runs here (CliRunner, the service's code) do not go through
it, so they check the modes pbm gives explicitly.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import stat
import sys
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest
from harness import GM, Games, eventually, join_through_inbox
from sqlmodel import Session, select
from typer.testing import CliRunner

from pbm.cli import app, main
from pbm.config.model import ServiceSection, Settings
from pbm.files import make_dirs, private_dir, write_private
from pbm.mail.memory import MemoryMailbox, MemorySmtp
from pbm.mail.transport import Transports
from pbm.service.archive import write_archive
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.serve import serve
from pbm.store.db import make_engine, scrub
from pbm.store.migrate import upgrade
from pbm.store.models import Outbox
from pbm.store.statuses import OutboxStatus

UMASKS = [0o000, 0o022]


@pytest.fixture(params=UMASKS, ids=lambda m: f"umask{m:03o}")
def umask(request: pytest.FixtureRequest) -> Iterator[int]:
    old = os.umask(request.param)
    try:
        yield request.param
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def modes(root: Path) -> dict[str, int]:
    """Every file and folder below `root` (not `root` itself) → its mode."""
    return {str(p.relative_to(root)): mode(p) for p in sorted(root.rglob("*"))}


def not_private(root: Path) -> dict[str, str]:
    """What below `root` others could read: files not 0600, folders not 0700."""
    return {
        name: oct(m)
        for name, m in modes(root).items()
        if m != (0o700 if (root / name).is_dir() else 0o600)
    }


def test_the_pbm_command_sets_a_private_umask(monkeypatch: pytest.MonkeyPatch) -> None:
    old = os.umask(0o000)
    try:
        monkeypatch.setattr(sys, "argv", ["pbm", "--version"])
        with pytest.raises(SystemExit):
            main()
        assert os.umask(0o000) == 0o077
    finally:
        os.umask(old)


def test_pbm_init_writes_private_files(
    umask: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["init"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "pbm.toml").exists() and (tmp_path / "pbm.db").exists()
    assert not_private(tmp_path) == {}
    # A command that writes: a game created, the database opened and closed again.
    result = CliRunner().invoke(app, ["game", "create", "alpha", "--players", "4"])
    assert result.exit_code == 0, result.output
    assert not_private(tmp_path) == {}


def test_the_database_and_its_companions_are_private_while_a_game_is_served(
    umask: int, tmp_path: Path
) -> None:
    """A new database (made by the migration), served with the in-memory mail: players join,
    their welcome mails go out. While the engine is open, the database's -wal and -shm files
    (made by SQLite, after pbm made the database) are private too."""
    url = f"sqlite:///{tmp_path / 'data' / 'pbm.db'}"
    private_dir(tmp_path / "data")
    upgrade(url)
    clock = FakeClock()
    svc = Service(make_engine(url), clock, Settings(service=ServiceSection(address=GM)))
    mailbox, smtp = MemoryMailbox(), MemorySmtp(from_address=GM)
    transports = Transports(inbox=mailbox.inbox, sender=smtp.sender)
    from pbm.service import admin

    admin.new_game(svc, "alpha", players=4, seed=7)

    async def run() -> None:
        stop = asyncio.Event()
        periods = {"poll_seconds": 0.1, "tick_seconds": 0.1, "send_seconds": 0.1}
        svc.config = svc.config.updated(service=periods)
        task = asyncio.create_task(serve(svc, stop, transports))
        try:
            for i in range(4):
                body = f"Name: S{i}\nFarben: rot, blau\n"
                await join_through_inbox(svc, mailbox.append, f"p{i}@players.test", "alpha", body)

            def welcomed() -> bool:
                with Session(svc.engine) as s:
                    rows = s.exec(select(Outbox).where(Outbox.kind == "welcome")).all()
                return len(rows) == 4 and all(r.status == OutboxStatus.SENT for r in rows)

            await eventually(welcomed, 30, "the welcome mails sent")
            files = modes(tmp_path / "data")
            assert {"pbm.db", "pbm.db-wal", "pbm.db-shm"} <= set(files), files
            assert not_private(tmp_path) == {}
        finally:
            stop.set()
            await asyncio.wait_for(task, 20)

    asyncio.run(run())
    scrub(svc.engine)
    assert not_private(tmp_path) == {}
    svc.engine.dispose()
    assert not_private(tmp_path) == {}


def test_a_database_others_could_read_is_made_private(
    umask: int, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A database of an older pbm (0644, its -wal and -shm too): opened, all are 0600."""
    db = tmp_path / "pbm.db"
    upgrade(f"sqlite:///{db}")
    with closing(sqlite3.connect(db)) as other:  # holds the -wal and -shm open
        other.execute("CREATE TABLE t (x)")
        other.commit()
        for name in ("pbm.db", "pbm.db-wal", "pbm.db-shm"):
            os.chmod(tmp_path / name, 0o644)
        with caplog.at_level(logging.WARNING, logger="pbm"):
            engine = make_engine(f"sqlite:///{db}")
        assert not_private(tmp_path) == {}
        assert "pbm.db was readable by others" in caplog.text
        with engine.connect():
            pass
        engine.dispose()
    assert not_private(tmp_path) == {}


def test_the_web_archive_is_published(umask: int, tmp_path: Path, games: Games) -> None:
    """Made to be read by a web server of another user: files 0644, the folders pbm creates
    0755; a folder the GM made keeps its mode (a private one keeps the archive private)."""
    games.start("alpha", round_=2)
    svc = games.mailer.svc
    target = tmp_path / "www" / "games" / "alpha"
    written = write_archive(svc, "alpha", target)
    assert written
    assert {mode(p) for p in written} == {0o644}
    assert {mode(p) for p in target.iterdir()} == {0o644}, "no temporary file left"
    assert mode(target) == mode(target.parent) == mode(tmp_path / "www") == 0o755
    mine = tmp_path / "mine"
    mine.mkdir()
    mine.chmod(0o750)
    write_archive(svc, "alpha", mine)
    assert mode(mine) == 0o750
    assert {mode(p) for p in mine.iterdir()} == {0o644}


def test_the_board_picture_is_private(
    umask: int, tmp_path: Path, games: Games, sqlite_url: str
) -> None:
    games.start("alpha", round_=1)
    cfg = tmp_path / "pbm.toml"
    write_private(cfg, f'[database]\nurl = "{games.mailer.svc.engine.url}"\n')
    png = tmp_path / "board.png"
    result = CliRunner().invoke(
        app, ["--config", str(cfg), "game", "board", "alpha", "--png", str(png)]
    )
    assert result.exit_code == 0, result.output
    assert png.read_bytes().startswith(b"\x89PNG") and mode(png) == 0o600


def test_files_helpers_give_their_modes(umask: int, tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_text("old")
    path.chmod(0o666)
    write_private(path, "new")
    assert mode(path) == 0o600 and path.read_text() == "new"
    make_dirs(tmp_path / "a" / "b", 0o755)
    assert mode(tmp_path / "a") == mode(tmp_path / "a" / "b") == 0o755
    private_dir(tmp_path / "a" / "b" / "c" / "d")
    assert mode(tmp_path / "a" / "b") == 0o755, "an existing folder keeps its mode"
    assert mode(tmp_path / "a" / "b" / "c") == mode(tmp_path / "a" / "b" / "c" / "d") == 0o700
