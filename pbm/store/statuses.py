"""The statuses and phases the tables keep, as enums: one name for each value.

The stored values are the members' strings (a `StrEnum` member equals its string), so the
columns stay plain VARCHARs, as in the migrations; `models.EnumString` gives a column its enum
as the Python type. No database import here: the command line may name a status cheaply.
"""

from __future__ import annotations

from enum import StrEnum


class GamePhase(StrEnum):
    """`Game.phase`. The last three are the engine's `pbm.rules.Phase` (same values)."""

    SIGNUP = "signup"
    SETUP = "setup"
    ROUNDS = "rounds"
    ENDED = "ended"


class PlayerStatus(StrEnum):
    """`Player.status`."""

    ACTIVE = "active"
    RESIGNED = "resigned"
    #: The seat went to someone else (`pbm player replace`); the row is kept for the record.
    REPLACED = "replaced"
    OBSERVER = "observer"
    #: Asked to observe by mail, not yet confirmed.
    OBSERVER_PENDING = "observer_pending"
    #: Asked for a seat by mail (`Anmeldung`), not yet confirmed from the address: holds no
    #: seat and gets no mail but the confirmation request (docs/service-decisions.md).
    SIGNUP_PENDING = "signup_pending"


#: Rows that watch a game without a seat.
OBSERVING = (PlayerStatus.OBSERVER, PlayerStatus.OBSERVER_PENDING)
#: Rows that wait for their address's `Bestätigen: CODE` (`Player.confirm_token`).
PENDING = (PlayerStatus.OBSERVER_PENDING, PlayerStatus.SIGNUP_PENDING)


class MailStatus(StrEnum):
    """`InboundMail.status`."""

    NEW = "new"
    DONE = "done"
    #: Stored and never answered (auto-replies, bounces, lists, our own mail).
    IGNORED = "ignored"
    #: Handling it raised; `pbm mail requeue` reads it again.
    QUARANTINED = "quarantined"
    #: For a broken game; read again when the game resumes.
    HELD = "held"


class OutboxStatus(StrEnum):
    """`Outbox.status`."""

    PENDING = "pending"
    SENT = "sent"
    FAILED = "failed"
    #: Not to be sent (a report dropped by a rollback).
    DROPPED = "dropped"
