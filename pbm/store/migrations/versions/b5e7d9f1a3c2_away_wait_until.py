"""away wait until: the deadline that waits for a player's absence (issue 15)

Revision ID: b5e7d9f1a3c2
Revises: a8d2c6e4f190
Create Date: 2026-12-01 19:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "b5e7d9f1a3c2"
down_revision = "a8d2c6e4f190"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Waits granted before this column: none is known, so none is held (the autopilot plays
    # an absent seat, as it did for a capped wait before).
    with op.batch_alter_table("player") as batch:
        batch.add_column(
            sa.Column("away_wait_until", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True)
        )


def downgrade() -> None:
    with op.batch_alter_table("player") as batch:
        batch.drop_column("away_wait_until")
