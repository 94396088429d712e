"""the outbox's rows under a lease: a partial index for the claim's look for those of a
process that has ended (issue 30)

Revision ID: a6c3e9f1d2b4
Revises: b9d4e2a7c1f8
Create Date: 2026-12-07 15:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "a6c3e9f1d2b4"
down_revision = "b9d4e2a7c1f8"
branch_labels = None
depends_on = None

#: `pbm.store.models.LEASED`, as it was when this revision was written.
LEASED = "claimed_by != ''"


def upgrade() -> None:
    op.create_index(
        "ix_outbox_leased",
        "outbox",
        ["status", "next_attempt"],
        sqlite_where=sa.text(LEASED),
        postgresql_where=sa.text(LEASED),
    )


def downgrade() -> None:
    op.drop_index("ix_outbox_leased", table_name="outbox")
