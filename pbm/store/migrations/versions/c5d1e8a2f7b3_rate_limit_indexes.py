"""indexes for the hourly answer and wrong-password counts

Revision ID: c5d1e8a2f7b3
Revises: b036326bd7e4
Create Date: 2026-11-30 07:50:00
"""

from __future__ import annotations

from alembic import op

revision = 'c5d1e8a2f7b3'
down_revision = 'b036326bd7e4'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_outbox_recipients_created", "outbox", ["recipients", "created_at"])
    op.create_index("ix_inboundmail_sender_received", "inboundmail", ["sender", "received_at"])


def downgrade() -> None:
    op.drop_index("ix_inboundmail_sender_received", table_name="inboundmail")
    op.drop_index("ix_outbox_recipients_created", table_name="outbox")
