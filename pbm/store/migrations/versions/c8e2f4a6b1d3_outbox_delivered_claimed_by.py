"""outbox delivered and claimed_by: each recipient of a row of several recorded as served, and
the process holding a row's lease (the red-team pass)

Revision ID: c8e2f4a6b1d3
Revises: c8f2a6d4e1b7
Create Date: 2026-12-06 04:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "c8e2f4a6b1d3"
down_revision = "c8f2a6d4e1b7"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Rows stored so far: nobody recorded as served yet, no claimant known (a row under a
    # lease waits it out, as before).
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(
            sa.Column(
                "delivered", sqlmodel.sql.sqltypes.AutoString(), nullable=False, server_default=""
            )
        )
        batch.add_column(
            sa.Column(
                "claimed_by", sqlmodel.sql.sqltypes.AutoString(), nullable=False, server_default=""
            )
        )


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("claimed_by")
        batch.drop_column("delivered")
