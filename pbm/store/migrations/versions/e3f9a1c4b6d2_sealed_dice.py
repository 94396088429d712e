"""sealed dice: game seeds of any size (stored as text), the corrections of rolled-back rounds

Revision ID: e3f9a1c4b6d2
Revises: e4b7c2d9a1f3
Create Date: 2026-12-08 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = 'e3f9a1c4b6d2'
down_revision = 'e4b7c2d9a1f3'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A new game's seed has 128 bits (its SHA-256 is the dice seal); a BIGINT holds 63. The
    # seeds stored so far keep their value, written as decimal digits.
    with op.batch_alter_table("game") as batch:
        batch.alter_column(
            "seed",
            existing_type=sa.BigInteger(),
            type_=sa.Text(),
            existing_nullable=False,
            postgresql_using="seed::text",
        )
        batch.add_column(sa.Column("corrections", sa.Text(), nullable=False, server_default=""))


def downgrade() -> None:
    # Only games with seeds below 2**63 can go back (the older pbm's integer column).
    with op.batch_alter_table("game") as batch:
        batch.drop_column("corrections")
        batch.alter_column(
            "seed",
            existing_type=sa.Text(),
            type_=sa.BigInteger(),
            existing_nullable=False,
            postgresql_using="seed::bigint",
        )
