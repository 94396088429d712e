"""`pbm init`, `pbm db upgrade` and `pbm config …`: the config file and the database."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from .common import config, service
from .output import JsonOpt, echo, echo_text, show

db_app = typer.Typer(help="The database.", no_args_is_help=True)
config_app = typer.Typer(help="The config file: check it, see every key.", no_args_is_help=True)


def init_cmd(
    where: Annotated[
        str,
        typer.Argument(metavar="PATH", help="Where to write the config (a folder: its pbm.toml)."),
    ] = "pbm.toml",
    force: Annotated[bool, typer.Option(help="Overwrite an existing file.")] = False,
) -> None:
    """Write a commented pbm.toml (every key with its default) and create the database."""
    from pbm.config import example, masked_url
    from pbm.files import write_private
    from pbm.service.schema import upgrade

    path = Path(where)
    if where.endswith(("/", os.sep)) or path.is_dir():
        # `pbm init games/`: the folder's pbm.toml (made with the folder if it is not there).
        path.mkdir(parents=True, exist_ok=True)
        path = path / "pbm.toml"
    if path.exists() and not force:
        echo(f"error: {path} exists (use --force to overwrite)", err=True)
        raise typer.Exit(2)
    # pbm.toml holds the mailbox passwords: readable and writable by its owner alone (0600,
    # also over an existing file of another mode); the database is made 0600 too.
    write_private(path, example())
    cfg = config(path)
    upgrade(cfg.database_url)
    echo(f"wrote {path}; database ready at {masked_url(cfg.database_url)}")
    # The GM password for mail commands: shown once here, only its hash is stored.
    from pbm.service import admin

    password = admin.gm_password(service(cfg=cfg), keep=True)
    if password:
        echo(f"GM password for mail commands: {password}")
        echo("(shown once, only its hash is stored; `pbm gm password` makes a new one)")
    else:
        echo("the database has a GM password already (`pbm gm password` makes a new one)")


@db_app.command("upgrade")
def db_upgrade() -> None:
    """Create or migrate the database schema to the newest version."""
    from pbm.config import masked_url
    from pbm.service.schema import upgrade

    cfg = config()
    done = upgrade(cfg.database_url)
    # "database up to date" stays the line's start (scripts look for it); the bracket says
    # whether it was made now, migrated now, or already so.
    said = {"created": "created now", "upgraded": "migrated now", "current": "nothing to do"}
    echo(f"database up to date ({said[done]}): {masked_url(cfg.database_url)}")


@config_app.command("check")
def config_check(as_json: JsonOpt = False) -> None:
    """Check the config file and print the config in force: every section and key, defaults
    filled in, passwords masked. A file that cannot be used: one line per mistake, exit
    status 2."""
    from pbm.config import effective, effective_toml

    cfg = config()
    source = str(cfg.path) if cfg.path else None

    def text() -> None:
        echo(f"# {source}: valid" if source else "# no config file: the defaults")
        echo_text(effective_toml(cfg.settings).rstrip("\n"))

    show({"file": source, **effective(cfg.settings)}, as_json, text)


@config_app.command("example")
def config_example() -> None:
    """Print the commented config with every key and its default (what `pbm init` writes)."""
    from pbm.config import example

    typer.echo(example(), nl=False)
