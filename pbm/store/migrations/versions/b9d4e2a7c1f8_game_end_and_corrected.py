"""game end and corrected rounds: the GM's reason for ending a game, and the rounds corrected
after their report went out, for the archive (issue 28)

Revision ID: b9d4e2a7c1f8
Revises: d3a7f9b2c4e6
Create Date: 2026-12-13 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "b9d4e2a7c1f8"
down_revision = "d3a7f9b2c4e6"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Games ended and rounds corrected before this column: no reason and no correction is
    # known, so the archive says the game master ended the game and marks no round.
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("ended_why", sa.Text(), nullable=False, server_default=""))
        batch.add_column(sa.Column("corrected", sa.Text(), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.drop_column("corrected")
        batch.drop_column("ended_why")
