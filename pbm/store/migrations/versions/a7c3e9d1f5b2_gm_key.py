"""gm key: the hash of the game master's password for mail commands (issue 28)

Revision ID: a7c3e9d1f5b2
Revises: c8e2f4a6b1d3
Create Date: 2026-12-08 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "a7c3e9d1f5b2"
down_revision = "c8e2f4a6b1d3"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # No password yet: mail from a GM address can answer a forwarded player mail (its token)
    # until `pbm gm password` sets one; mail commands need it.
    op.create_table(
        "gmkey",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("password_hash", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )


def downgrade() -> None:
    op.drop_table("gmkey")
