"""Alembic environment: the URL comes from the caller (`pbm db upgrade`), never a global."""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

from pbm.store import models  # noqa: F401  (registers the tables)
from pbm.store.db import make_engine

config = context.config
target_metadata = SQLModel.metadata


def run_migrations_online() -> None:
    url = config.get_main_option("sqlalchemy.url") or ""
    engine = make_engine(url)
    with engine.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=url.startswith("sqlite"),
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
