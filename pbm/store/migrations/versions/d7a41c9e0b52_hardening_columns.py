"""hardening: broken games, password failures per seat, observer confirmation, truncated and
digested mails, outbox secrets and rate-limit flag

Revision ID: d7a41c9e0b52
Revises: c5d1e8a2f7b3
Create Date: 2026-12-01 14:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = 'd7a41c9e0b52'
down_revision = 'c5d1e8a2f7b3'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("broken", sa.Text(), nullable=False, server_default=""))
    with op.batch_alter_table("player") as batch:
        batch.add_column(sa.Column("failed_passwords", sa.Integer(), nullable=False,
                                   server_default="0"))
        batch.add_column(sa.Column("confirm_token", sqlmodel.sql.sqltypes.AutoString(), nullable=False,
                                   server_default=""))
    with op.batch_alter_table("inboundmail") as batch:
        batch.add_column(sa.Column("truncated", sa.Boolean(), nullable=False,
                                   server_default="0"))
        batch.add_column(sa.Column("digest", sqlmodel.sql.sqltypes.AutoString(), nullable=False, server_default=""))
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("secret", sqlmodel.sql.sqltypes.AutoString(), nullable=False, server_default=""))
        batch.add_column(sa.Column("limited", sa.Boolean(), nullable=False,
                                   server_default="1"))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("limited")
        batch.drop_column("secret")
    with op.batch_alter_table("inboundmail") as batch:
        batch.drop_column("digest")
        batch.drop_column("truncated")
    with op.batch_alter_table("player") as batch:
        batch.drop_column("confirm_token")
        batch.drop_column("failed_passwords")
    with op.batch_alter_table("game") as batch:
        batch.drop_column("broken")
