"""What the GM's commands share: the config (`--config`), the service on its database (closed
when the command ends: `close_services`), and refusals as an error line with exit status 2.

The database and the service are imported inside the functions: `pbm sim`, `pbm board`,
`pbm orders check` and `pbm --help` load this module too and must stay free of SQLAlchemy, the
mail libraries, jinja2 and Pillow (tests/test_cli_imports.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from .output import echo

if TYPE_CHECKING:
    from pbm.config import Config
    from pbm.service.context import Service

#: The global option `--config FILE` (None: $PBM_CONFIG, else ./pbm.toml, else the defaults).
_config_path: list[str | None] = [None]

#: The services this command opened, and whether it may have written: closed at its end.
_opened: list[tuple[Service, bool]] = []


def set_config(path: str | None) -> None:
    _config_path[0] = path


def config(path: str | Path | None = None) -> Config:
    """The checked config (of `path`, else as `--config` says); a file that cannot be used is
    refused here, before anything runs: one line per mistake, exit status 2."""
    from pbm.config import ConfigError, load

    try:
        return load(path or _config_path[0])
    except ConfigError as e:
        for line in e.problems:
            echo(f"error: {line}", err=True)
        raise typer.Exit(2) from None


@contextmanager
def refusals() -> Iterator[None]:
    """A ServiceError is a refusal with a message, not a crash."""
    from pbm.service.games import ServiceError

    try:
        yield
    except ServiceError as e:
        echo(f"error: {e}", err=True)
        raise typer.Exit(2) from None


def service(write: bool = True, cfg: Config | None = None, apart: bool = False) -> Service:
    """The service on the configured database (`cfg`, else `config()`): migrated first for a
    command that writes; for one that only reads (`write=False`), taken as it is, and refused
    if its schema is not the code's (`pbm db upgrade` is the way out). `apart`: migrated in a
    child process, only if needed (`pbm serve`: alembic never stays in its memory)."""
    from pbm.service.schema import open_service

    cfg = cfg or config()
    with refusals():
        svc = open_service(cfg.database_url, cfg.settings, write=write, apart=apart)
    _opened.append((svc, write))
    return svc


def close_services() -> None:
    """When a command ends (the root callback has it called, after `pbm serve` returns on
    SIGTERM too): a command that may have written writes SQLite's WAL back and cuts it
    (`scrub`: no old page, with a password emptied since, stays in `pbm.db-wal`); then every
    connection is closed."""
    if not _opened:
        return  # `pbm sim`, `pbm board`: no database module is loaded (test_cli_imports.py)
    from pbm.service.schema import close_service

    while _opened:
        svc, wrote = _opened.pop()
        close_service(svc, scrub_wal=wrote)


def reader() -> Service:
    """The service for a command that only reads: no migration."""
    return service(write=False)
