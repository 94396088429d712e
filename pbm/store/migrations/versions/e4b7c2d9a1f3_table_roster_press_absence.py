"""the table: anonymous games, press, absence waits; players' time zones and absences

Revision ID: e4b7c2d9a1f3
Revises: d7a41c9e0b52
Create Date: 2026-12-10 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = 'e4b7c2d9a1f3'
down_revision = 'd7a41c9e0b52'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("anonymous", sa.Boolean(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("press", sqlmodel.sql.sqltypes.AutoString(), nullable=False,
                                   server_default="normal"))
        batch.add_column(sa.Column("away_wait_days", sa.Integer(), nullable=False,
                                   server_default="0"))
    with op.batch_alter_table("player") as batch:
        batch.add_column(sa.Column("timezone", sqlmodel.sql.sqltypes.AutoString(), nullable=False,
                                   server_default=""))
        batch.add_column(sa.Column("away_until", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
        batch.add_column(sa.Column("away_waited", sa.Boolean(), nullable=False,
                                   server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("player") as batch:
        batch.drop_column("away_waited")
        batch.drop_column("away_until")
        batch.drop_column("timezone")
    with op.batch_alter_table("game") as batch:
        batch.drop_column("away_wait_days")
        batch.drop_column("press")
        batch.drop_column("anonymous")
