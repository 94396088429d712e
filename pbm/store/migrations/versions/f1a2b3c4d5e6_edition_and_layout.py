"""editions and layouts: a game's words (klassisch or modern) and its island's setup
(variable or beginner)

Revision ID: f1a2b3c4d5e6
Revises: e3f9a1c4b6d2
Create Date: 2026-12-09 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "f1a2b3c4d5e6"
down_revision = "e3f9a1c4b6d2"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Every game stored so far was played in the classic words on the variable setup.
    with op.batch_alter_table("game") as batch:
        batch.add_column(
            sa.Column(
                "edition",
                sqlmodel.sql.sqltypes.AutoString(),
                nullable=False,
                server_default="klassisch",
            )
        )
        batch.add_column(
            sa.Column(
                "layout",
                sqlmodel.sql.sqltypes.AutoString(),
                nullable=False,
                server_default="variable",
            )
        )


def downgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.drop_column("layout")
        batch.drop_column("edition")
