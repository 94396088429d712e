"""The tables. Times are timezone-aware UTC datetimes; JSON is stored as text so the same
schema runs on SQLite and PostgreSQL.

Statuses and phases are the enums of `statuses.py`, stored as their plain strings.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, TypeVar

from sqlalchemy import Column, Index, LargeBinary, Text, UniqueConstraint, text
from sqlalchemy.engine import Dialect
from sqlalchemy.types import String, TypeDecorator
from sqlmodel import Field, SQLModel

from .statuses import GamePhase, MailStatus, OutboxStatus, PlayerStatus

E = TypeVar("E", bound=StrEnum)


class EnumString(TypeDecorator[E]):
    """A VARCHAR holding a `StrEnum`'s values, read back as members: the column's Python type is
    the enum, so mypy refuses a bare or misspelt string set on it.

    The database sees the same type as a `str` column (no CHECK constraint, no native enum
    type), so the schema is unchanged, and values go to the driver as plain strings. A string
    outside the enum is passed through both ways, as a `str` column did: a GM's filter with a
    typo matches nothing, and a value written by hand does not make every query over its table
    fail.
    """

    impl = String
    cache_ok = True

    def __init__(self, enum: type[E]) -> None:
        super().__init__()
        self.enum = enum

    def process_bind_param(self, value: Any, dialect: Dialect) -> str | None:
        return None if value is None else str(value)

    def process_result_value(self, value: Any, dialect: Dialect) -> E | None:
        if value is None:
            return None
        try:
            return self.enum(value)
        except ValueError:
            return value  # type: ignore[no-any-return]


class IntText(TypeDecorator[int]):
    """An integer of any size, stored as its decimal digits: a game seed has 128 bits, more
    than any integer column holds on both SQLite and PostgreSQL."""

    impl = Text
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> str | None:
        return None if value is None else str(int(value))

    def process_result_value(self, value: Any, dialect: Dialect) -> int | None:
        return None if value is None else int(value)


class Game(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(index=True, unique=True)
    #: The engine's Settings as JSON.
    settings: str = Field(sa_column=Column(Text, nullable=False))
    #: The secret the board, the deck and every roll come from; with `seal_nonce` it makes the
    #: dice seal of the welcome mails, the game-end report reveals it (docs/fair-dice.md).
    seed: int = Field(sa_type=IntText, nullable=False)
    #: The dice seal's nonce: 128 random bits (32 hex digits) drawn with the game, so that the
    #: seal, SHA-256 of `SEED:NONCE`, hides even a seed that is easy to guess. Secret until the
    #: game ends, when the game-end report reveals it with the seed. "" for a game created
    #: before seal nonces: its seal is SHA-256 of the seed alone.
    seal_nonce: str = Field(
        default="", sa_column=Column(Text, nullable=False, default="", server_default="")
    )
    lang: str = "de"
    phase: GamePhase = Field(
        default=GamePhase.SIGNUP, sa_type=EnumString(GamePhase), nullable=False, index=True
    )
    paused: bool = False
    round: int = 0
    #: The engine state (serialised) after the last placement or resolution; empty in signup.
    state: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    deadline: datetime | None = Field(default=None, index=True)
    #: normal (48 h), relaxed (×2), fast (×½), off (the GM resolves)
    deadline_preset: str = "normal"
    #: Resolve as soon as every active player has valid orders.
    early_resolve: bool = True
    reminder_hours: float = 12.0
    reminded: bool = False
    nmr_autopilot_after: int = 3
    #: Why the service stopped acting on this game ("" while it runs): its stored state could
    #: not be read, or resolving it raised. The other games go on; `pbm game resume` clears it.
    broken: str = Field(
        default="", sa_column=Column(Text, nullable=False, default="", server_default="")
    )
    #: Addresses are never shown to the players (`pbm game create --anonymous`): they learn
    #: colours and names only and talk through pbm.
    anonymous: bool = Field(default=False, sa_column_kwargs={"server_default": "0"})
    #: Press between players: normal (signed with the colour), anonymous (may also be sent
    #: unsigned), none (only to the GM).
    press: str = Field(default="normal", sa_column_kwargs={"server_default": "normal"})
    #: `Urlaub bis …`: 0 means the autopilot plays the absent seat; N > 0 means the open
    #: deadline waits for the absent player up to N days, once per player and game.
    away_wait_days: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    #: Rounds rolled back and not yet resolved again ("" when none), as JSON by round number:
    #: the GM's reason, whether orders may change (`--reopen`), whether the report had gone
    #: out and the events it showed. The round's next resolution sends the correction and
    #: takes its entry out (`service/corrections.py`).
    corrections: str = Field(
        default="", sa_column=Column(Text, nullable=False, default="", server_default="")
    )
    #: The game master's reason for ending the game (`pbm game end --why`; "" for none, or a
    #: game that was won), kept for the archive (migration b9d4e2a7c1f8).
    ended_why: str = Field(
        default="", sa_column=Column(Text, nullable=False, default="", server_default="")
    )
    #: Rounds corrected after their report went out, as JSON by round number: a list of
    #: `{"why": str, "events": [...]}`, one per correction, with the events of the report the
    #: players had read before it (`service/corrections.py`, `note_corrected`); "" when none.
    #: The archive marks these rounds and says what changed.
    corrected: str = Field(
        default="", sa_column=Column(Text, nullable=False, default="", server_default="")
    )
    #: The words the players read (`pbm game create --edition`): "klassisch", or "modern" for
    #: seed 002's words ("Bandit", "Projektkarte", "Wegbereiter", …) where the language has a
    #: catalogue of them (`pbm/locale/de/modern.po`).
    edition: str = Field(default="klassisch", sa_column_kwargs={"server_default": "klassisch"})
    #: How the island is laid (`--layout`): "variable" (seed 000's seeded variable setup) or
    #: "beginner" (the rule book's fixed board with the starting pieces; no setup rounds).
    layout: str = Field(default="variable", sa_column_kwargs={"server_default": "variable"})
    created_at: datetime

    @property
    def locale(self) -> str:
        """The catalogue the game's mails come from: its language in its edition's words
        (`de@modern`), or the language itself (`pbm.i18n.variant`)."""
        from pbm.i18n import variant

        return variant(self.lang, self.edition)


class Player(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    address: str = Field(index=True)
    name: str
    #: Colour preferences as given at signup, comma-separated canonical names.
    preferences: str = ""
    colour: str | None = None
    seat: int | None = None
    password_hash: str = ""
    #: Hex of the per-player secret the dev-card codebook is derived from.
    codebook_secret: str = ""
    nmr_count: int = 0
    autopilot: bool = False
    status: PlayerStatus = Field(
        default=PlayerStatus.ACTIVE, sa_type=EnumString(PlayerStatus), nullable=False
    )
    #: Wrong passwords for this seat since its last right one (alerts, never a lock-out).
    failed_passwords: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    #: The confirmation token of a pending observer or sign-up (`PENDING`) while its address
    #: has not confirmed.
    confirm_token: str = Field(default="", sa_column_kwargs={"server_default": ""})
    #: The player's time zone (IANA name, `Zeitzone: Europe/Berlin`); "" is UTC.
    timezone: str = Field(default="", sa_column_kwargs={"server_default": ""})
    #: `Urlaub bis …`: the end (exclusive, UTC) of the player's absence, if any.
    away_until: datetime | None = None
    #: Whether the deadline has waited for this player's absence already (once per game).
    away_waited: bool = Field(default=False, sa_column_kwargs={"server_default": "0"})
    #: The deadline that waits for this player's absence (the seat is awaited, not played by
    #: the autopilot, until it passes).
    away_wait_until: datetime | None = None
    joined_at: datetime


class InboundMail(SQLModel, table=True):
    #: For the wrong-password count per address and hour.
    __table_args__ = (Index("ix_inboundmail_sender_received", "sender", "received_at"),)

    id: int | None = Field(default=None, primary_key=True)
    message_id: str = Field(index=True, unique=True)
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    received_at: datetime
    sender: str = ""
    subject: str = ""
    status: MailStatus = Field(
        default=MailStatus.NEW, sa_type=EnumString(MailStatus), nullable=False, index=True
    )
    error: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    game_id: int | None = Field(default=None, index=True)
    processed_at: datetime | None = None
    #: Only the first `max_stored_kb` of the mail were kept (the mail is refused).
    truncated: bool = Field(default=False, sa_column_kwargs={"server_default": "0"})
    #: SHA-256 of sender and body text: a second mail under a known Message-ID is a duplicate
    #: only when this matches (a stranger cannot squat on a player's Message-ID).
    digest: str = Field(default="", sa_column_kwargs={"server_default": ""})


class OrderSet(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    player_id: int = Field(foreign_key="player.id", index=True)
    #: The round these orders are for; 0 for setup placements (with `setup_step`).
    round: int = Field(index=True)
    setup_step: int = -1
    text: str = Field(sa_column=Column(Text, nullable=False))
    #: The typed orders as JSON (see pbm.store.codec).
    parsed: str = Field(sa_column=Column(Text, nullable=False))
    received_at: datetime
    superseded: bool = False
    mail_id: int | None = None


class RoundRecord(SQLModel, table=True):
    """One resolution (a round, or one setup placement): its events and the states around it."""

    __table_args__ = (UniqueConstraint("game_id", "step"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    #: Increasing per game: every placement and every round is one step.
    step: int
    round: int
    kind: str  # setup or round
    #: The orders the engine was given: per seat for a round (null = NMR), or for a setup
    #: step {"orders": …, "auto": bool}. Replay runs the engine on exactly these.
    orders: str = Field(sa_column=Column(Text, nullable=False))
    events: str = Field(sa_column=Column(Text, nullable=False))
    #: Each player's NMR count, autopilot and status before this step, for a rollback.
    players_before: str = Field(
        default="", sa_column=Column(Text, nullable=False, server_default="")
    )
    state_before: str = Field(sa_column=Column(Text, nullable=False))
    state_after: str = Field(sa_column=Column(Text, nullable=False))
    resolved_at: datetime


#: What a row under a lease is (the partial index `ix_outbox_leased`, and the query it serves
#: must say it in these words to be served by it).
LEASED = "claimed_by != ''"


class Outbox(SQLModel, table=True):
    __table_args__ = (
        #: For the answers per address and hour (every mail checks it).
        Index("ix_outbox_recipients_created", "recipients", "created_at"),
        #: The rows under a lease, which every claim looks through for those of a process
        #: that has ended (`service/sending.py`): a handful, among the thousands of a tick's
        #: reports still pending, which the status index alone made it read one by one
        #: (8 ms a claim with 5,000 pending; migration a6c3e9f1d2b4).
        #: Partial on PostgreSQL too (the migration says so there): naming `postgresql_where`
        #: here would import SQLAlchemy's PostgreSQL dialect into every process, 1.7 MB of
        #: `pbm serve` on SQLite; the comparison of the tables with the migrations does not
        #: read an index's condition.
        Index("ix_outbox_leased", "status", "next_attempt", sqlite_where=text(LEASED)),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: int | None = Field(default=None, index=True)
    #: The resolution step whose report this is (so a rollback can drop unsent reports).
    step: int | None = None
    #: ack, error, welcome, report, reminder, nmr, autopilot, help, status, end, …
    kind: str
    recipients: str  # comma-separated addresses
    subject: str
    body: str = Field(sa_column=Column(Text, nullable=False))
    html: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    #: A picture shown inline in the HTML part (the board), PNG.
    image: bytes | None = Field(default=None, sa_column=Column(LargeBinary, nullable=True))
    #: The game-end mail's VP chart, PNG: a second picture inline in the HTML part.
    chart: bytes | None = Field(default=None, sa_column=Column(LargeBinary, nullable=True))
    #: A report's JSON attachment ("" when none), as JSON: its file name, the part every
    #: recipient gets and each seat's own part by address; the sender joins them for each
    #: recipient (`reports/report_json.py`; migration d3a7f9b2c4e6).
    attachment: str = Field(
        default="", sa_column=Column(Text, nullable=False, default="", server_default="")
    )
    message_id: str = Field(index=True, unique=True)
    in_reply_to: str = ""
    #: A secret (a new password) the body carries only as `PASSWORD_PLACEHOLDER`: put in when
    #: the mail is built, and emptied once the mail is sent or dropped.
    secret: str = Field(default="", sa_column_kwargs={"server_default": ""})
    #: Whether this answer counts toward the recipient's hourly limit (answers to mails that
    #: carried a right password do not: forged mails cannot use them up).
    limited: bool = Field(default=True, sa_column_kwargs={"server_default": "1"})
    status: OutboxStatus = Field(
        default=OutboxStatus.PENDING, sa_type=EnumString(OutboxStatus), nullable=False, index=True
    )
    attempts: int = 0
    next_attempt: datetime | None = None
    last_error: str = ""
    created_at: datetime
    sent_at: datetime | None = None
    #: Recipients of a row of several who have their message from the attempt under way,
    #: comma-separated, written as each is served: a sender killed between two recipients
    #: leaves them here, and the next attempt goes only to the others. Emptied when the
    #: attempt is recorded (`service/sending.py`; migration c8e2f4a6b1d3).
    delivered: str = Field(default="", sa_column_kwargs={"server_default": ""})
    #: The process whose lease the row is under ("" when none): host, boot, pid namespace, pid
    #: and start time (`service/claimant.py`). A row whose claimant has ended on this host is
    #: taken again at once, not after the lease.
    claimed_by: str = Field(default="", sa_column_kwargs={"server_default": ""})


class GmKey(SQLModel, table=True):
    """The game master's password for mail (`pbm gm password`, `service/gm_mail.py`): only its
    hash, as a player's. The newest row counts; a new password replaces the others."""

    id: int | None = Field(default=None, primary_key=True)
    password_hash: str
    created_at: datetime
