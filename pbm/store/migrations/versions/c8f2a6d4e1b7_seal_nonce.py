"""seal nonce: the dice seal is SHA-256 of the seed and a 128-bit nonce drawn with the game

Revision ID: c8f2a6d4e1b7
Revises: b5e7d9f1a3c2
Create Date: 2026-12-10 10:00:00
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "c8f2a6d4e1b7"
down_revision = "b5e7d9f1a3c2"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("seal_nonce", sa.Text(), nullable=False, server_default=""))
    # A game past its signup has sent its seal (SHA-256 of the seed alone) in the welcome
    # mails: it keeps "" and that seal. A game still in signup has shown no seal yet: it gets
    # its nonce now, as a game created from now on gets one, so its seal hides its seed too
    # (docs/fair-dice.md, "Games created before seal nonces").
    bind = op.get_bind()
    waiting = bind.execute(sa.text("SELECT id FROM game WHERE phase = 'signup'")).scalars()
    for game_id in list(waiting):
        bind.execute(
            sa.text("UPDATE game SET seal_nonce = :nonce WHERE id = :id"),
            {"nonce": secrets.token_hex(16), "id": game_id},
        )


def downgrade() -> None:
    # The older pbm seals with the seed alone and reveals only the seed: a game whose welcome
    # mails showed a seal with a nonce, and whose end has not revealed it yet, would lose the
    # only thing that opens its seal. Such games stop the downgrade; a game in signup (no seal
    # shown) or ended (the end mail holds the nonce) does not.
    bind = op.get_bind()
    running = bind.execute(
        sa.text(
            "SELECT name FROM game WHERE seal_nonce != '' AND phase IN ('setup', 'rounds')"
        )
    ).scalars()
    names = sorted(running)
    if names:
        raise RuntimeError(
            "these games showed a dice seal with a nonce and have not ended; the older pbm "
            f"would lose their nonce: {', '.join(names)}"
        )
    with op.batch_alter_table("game") as batch:
        batch.drop_column("seal_nonce")
