"""The database as the GM's commands open it: migrated to the newest schema by the commands that
write, taken as it is by those that only read.

A command that only looks (`pbm game list`, `pbm round status`, …) must not change the schema
under a running `pbm serve` of an older pbm, nor take the write lock to do so: it checks the
schema's revision against the code's instead, and refuses with the way out (`pbm db upgrade`)
when they differ.
"""

from __future__ import annotations

import functools
import logging
from pathlib import Path

from sqlalchemy.engine import Engine, make_url

from pbm.config.model import Settings
from pbm.store.db import make_engine, reading, scrub
from pbm.store.migrate import (
    alembic_config,
    code_heads,
    database_heads,
    schema_current,
    upgrade_apart,
)
from pbm.store.migrate import upgrade as migrate

from .clock import Clock, SystemClock
from .context import Service
from .games import ServiceError


class SchemaError(ServiceError):
    """The database cannot be read by this pbm as it is."""


@functools.cache
def _heads() -> frozenset[str]:
    """The head revisions of this pbm's migration scripts (`code_heads`), read once a process:
    the scripts are part of the installed code."""
    return code_heads()


def _is_head(revisions: frozenset[str]) -> bool:
    """Whether a database's `revisions` are this pbm's one head revision: then alembic (its
    imports, its environment and every migration script loaded, about 40 ms a command) has
    nothing to do. Anything else (no tables, an older or unknown revision, several heads)
    goes to alembic as before."""
    heads = _heads()
    return len(heads) == 1 and revisions == heads


def _at_head(engine: Engine) -> bool:
    """`_is_head` of the database's revisions, read with plain SQL."""
    return _is_head(database_heads(engine))


def upgrade(url: str) -> str:
    """Create the database's tables or migrate them to the newest schema; returns what was
    done: "created" (no pbm tables before: a new database, or an empty one), "upgraded" or
    "current" (nothing to do)."""
    engine = make_engine(url)
    try:
        before = database_heads(engine)
    finally:
        engine.dispose()
    if _is_head(before):
        return "current"  # what alembic's upgrade would do: nothing
    migrate(url)
    if not before:
        return "created"
    return "current" if before == _heads() else "upgraded"


def _sqlite_file(url: str) -> Path | None:
    """The file of an SQLite URL (None for another database or one in memory)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database)


def _in_memory(url: str) -> bool:
    """An SQLite database in memory: only this process can migrate it."""
    parsed = make_url(url)
    return parsed.get_backend_name() == "sqlite" and parsed.database in (None, "", ":memory:")


def check(svc: Service) -> None:
    """Refuse (SchemaError) unless the database's schema is the one this pbm's code expects."""
    if _at_head(svc.engine):
        return
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config("sqlite://"))
    heads = set(script.get_heads())
    with reading(svc.engine) as session:
        current = set(MigrationContext.configure(session.connection()).get_current_heads())
    if current == heads:
        return
    upgrade_hint = "run `pbm db upgrade` (take a backup first)"
    if not current:
        raise SchemaError(f"the database has no pbm tables yet: {upgrade_hint}")
    known = {rev.revision for rev in script.walk_revisions()}
    unknown = sorted(current - known)
    if unknown:
        raise SchemaError(
            f"the database's schema ({', '.join(unknown)}) is newer than this pbm's "
            f"({', '.join(sorted(heads))}): upgrade pbm"
        )
    raise SchemaError(
        f"the database's schema ({', '.join(sorted(current))}) is older than this pbm's "
        f"({', '.join(sorted(heads))}): {upgrade_hint}"
    )


def open_service(
    url: str,
    config: Settings,
    *,
    write: bool = True,
    clock: Clock | None = None,
    apart: bool = False,
) -> Service:
    """The service on the database at `url`: migrated first when the command may `write`,
    else checked (SchemaError) and taken as it is. `apart` (`pbm serve`, `pbm poll`): the
    schema is compared with the code's without alembic, and migrated in a child process only
    when it differs, so alembic never stays in a long-running process; the WAL is written back
    and cut (`store.db.scrub`)."""
    if write and apart and _in_memory(url):
        upgrade(url)
    elif write and apart:
        engine = make_engine(url)
        try:
            if not schema_current(engine):
                upgrade_apart(url)
        except RuntimeError as exc:
            engine.dispose()
            raise SchemaError(str(exc)) from None
        # A process killed before (SIGKILL, a crash, a power cut) may have left old pages in
        # the WAL, a password emptied since among them: written back and cut at the start.
        scrub(engine)
        return Service(engine, clock or SystemClock(), config)
    elif write:
        upgrade(url)
    else:
        path = _sqlite_file(url)
        if path is not None and not path.exists():
            # Opening it would create an empty file.
            raise SchemaError(f"no database at {path}: run `pbm db upgrade` (or `pbm init`)")
    svc = Service(make_engine(url), clock or SystemClock(), config)
    if not write:
        try:
            check(svc)
        except BaseException:
            svc.engine.dispose()
            raise
    return svc


def close_service(svc: Service, scrub_wal: bool = True) -> None:
    """Close the service's database at the end of a command: with `scrub_wal`, SQLite's WAL
    written back and cut first (`store.db.scrub`: no old page, with a password emptied since,
    stays in the -wal file). A failure to scrub is logged; the connections are closed anyway."""
    try:
        if scrub_wal:
            scrub(svc.engine)
    except Exception as exc:  # the command's own outcome stands
        logging.getLogger("pbm").warning("the database's WAL was not written back: %s", exc)
    finally:
        svc.engine.dispose()
