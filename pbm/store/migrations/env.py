"""Alembic environment: the URL comes from the caller (`pbm db upgrade`), never a global."""

from __future__ import annotations

from typing import Any

from alembic import context
from alembic.autogenerate.api import AutogenContext
from sqlmodel import SQLModel

from pbm.store import models  # noqa: F401  (registers the tables)
from pbm.store.db import make_engine
from pbm.store.models import EnumString

config = context.config
target_metadata = SQLModel.metadata


def render_item(kind: str, obj: Any, autogen: AutogenContext) -> str | bool:
    """A status column is a plain VARCHAR in the database: a generated migration says so
    rather than importing the enum it holds."""
    if kind == "type" and isinstance(obj, EnumString):
        return "sa.String()"
    return False


def run_migrations_online() -> None:
    url = config.get_main_option("sqlalchemy.url") or ""
    engine = make_engine(url)
    with engine.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=url.startswith("sqlite"),
            render_item=render_item,
        )
        with context.begin_transaction():
            context.run_migrations()


def run_migrations_offline() -> None:
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=target_metadata,
        literal_binds=True,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
