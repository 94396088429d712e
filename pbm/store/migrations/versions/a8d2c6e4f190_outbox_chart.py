"""outbox chart: the game-end mail's VP chart as PNG, a second inline picture (issue 15)

Revision ID: a8d2c6e4f190
Revises: f1a2b3c4d5e6
Create Date: 2026-12-10 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "a8d2c6e4f190"
down_revision = "f1a2b3c4d5e6"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Rows stored so far carry no chart: their mails go out as before.
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("chart", sa.LargeBinary(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("chart")
