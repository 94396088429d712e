"""The `pbm` command line. Thin: each command parses its arguments, calls the service (or the
engine) and prints; one module per command group:

- game.py, rounds.py, player.py, observer.py: `pbm game|round|player|observer …`
- mail.py, outbox.py: `pbm mail …`, `pbm outbox …`
- db.py: `pbm init`, `pbm db upgrade`, `pbm config check`, `pbm config example`
- gm.py: `pbm gm password`
- mailbox.py: `pbm mailbox login|check`
- serve.py: `pbm serve`, `pbm poll`
- bench.py: `pbm bench …`
- board.py, sim.py, orders.py, demo.py: the engine's tools
- codebook.py: `pbm codebook`, `pbm decode`

common.py opens the config and the service, output.py prints, clean.py cleans what a player
could have written. The database, the service and the mail stack are imported inside the
commands: `pbm sim`, `pbm board`, `pbm orders check` and `pbm --help` load none of them
(tests/test_cli_imports.py). The commands use pbm.service.admin and friends, never a table or
a session (tests/service/test_cli_thin.py).
"""

from __future__ import annotations

from typing import Annotated

import typer

from pbm import __version__
from pbm.files import private_umask

from . import (
    bench,
    board,
    codebook,
    db,
    demo,
    game,
    gm,
    mail,
    mailbox,
    observer,
    orders,
    outbox,
    player,
    rounds,
    serve,
    sim,
)
from .common import close_services, set_config

app = typer.Typer(
    help="pbm: a play-by-email game master for the island trading game Settler.",
    no_args_is_help=True,
    add_completion=True,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"pbm {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print version.")
    ] = False,
    config: Annotated[
        str | None, typer.Option("--config", "-c", help="Config file (default ./pbm.toml).")
    ] = None,
) -> None:
    """Run games of Settler by mail."""
    set_config(config)
    ctx.call_on_close(close_services)


app.command("board")(board.board)
app.command("sim")(sim.sim)
app.add_typer(orders.app, name="orders")
app.command("demo")(demo.demo)
app.add_typer(bench.app, name="bench")
app.command("init")(db.init_cmd)
app.command("serve")(serve.serve_cmd)
app.command("codebook")(codebook.codebook_cmd)
app.command("decode")(codebook.decode_cmd)
app.command("poll")(serve.poll_cmd)
app.add_typer(game.app, name="game")
app.add_typer(rounds.app, name="round")
app.add_typer(player.app, name="player")
app.add_typer(mail.app, name="mail")
app.add_typer(outbox.app, name="outbox")
app.add_typer(db.db_app, name="db")
app.add_typer(observer.app, name="observer")
app.add_typer(db.config_app, name="config")
app.add_typer(gm.app, name="gm")
app.add_typer(mailbox.app, name="mailbox")


#: A file the GM named that cannot be read or written: a one-line refusal, not a traceback.
FILE_PROBLEMS = (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError)


def main() -> None:
    # Before anything is opened: every file pbm or a library creates (the database's -wal,
    # -shm and -journal files too) is its owner's alone (docs/security.md, "File modes").
    private_umask()
    try:
        app()
    except FILE_PROBLEMS as e:
        typer.echo(f"error: {file_problem(e)}", err=True)
        raise SystemExit(2) from None
    except Exception as e:
        from pbm.service.games import ServiceError

        # A refusal outside a command's own `refusals()` (a game whose stored state cannot
        # be read, met deep in a command): one line too.
        problem = str(e) if isinstance(e, ServiceError) else database_problem(e)
        if problem is None:
            raise
        typer.echo(f"error: {problem}", err=True)
        raise SystemExit(2) from None


def database_problem(e: Exception) -> str | None:
    """A database that cannot be opened or reached (a wrong `[database] url`, a server that is
    down, a folder that does not exist): one line saying so, not a traceback. None for any
    other error."""
    if type(e).__name__ not in ("OperationalError", "InterfaceError"):
        return None
    if not type(e).__module__.startswith(("sqlalchemy", "sqlite3", "psycopg")):
        return None
    # SQLAlchemy's text is the driver's first line, then the statement and a link.
    said = str(getattr(e, "orig", None) or e).strip().splitlines()
    return (
        f"the database cannot be used: {said[0] if said else type(e).__name__} "
        "(check `[database] url` in the config: `pbm config check`)"
    )


def file_problem(e: OSError) -> str:
    """`No such file or directory: x.eml` (what the system says, and the file)."""
    what = e.strerror or type(e).__name__
    return f"{what}: {e.filename}" if e.filename else what
