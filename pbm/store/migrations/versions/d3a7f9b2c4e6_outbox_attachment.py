"""outbox attachment: a report's JSON attachment, its public part and each seat's own part

Revision ID: d3a7f9b2c4e6
Revises: a7c3e9d1f5b2
Create Date: 2026-12-12 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "d3a7f9b2c4e6"
down_revision = "a7c3e9d1f5b2"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Rows stored so far carry no attachment: a report queued before the upgrade goes out
    # as it was written.
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("attachment", sa.Text(), nullable=False, server_default=""))


def downgrade() -> None:
    # The older pbm sends no attachment: a report still unsent goes out without its JSON.
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("attachment")
