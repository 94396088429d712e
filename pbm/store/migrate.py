"""Schema migrations with alembic, run from code: `pbm db upgrade`."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

MIGRATIONS = Path(__file__).parent / "migrations"


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    # configparser interpolates "%": a URL-encoded password must reach alembic as it is.
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def upgrade(url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)


def revision(url: str, message: str) -> None:
    """Write a new migration from the difference between the models and the database."""
    command.revision(alembic_config(url), message=message, autogenerate=True)
