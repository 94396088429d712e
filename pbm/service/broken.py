"""Games the service stopped acting on: one game's fault never stops the others.

A game whose stored state cannot be read, or whose resolution raises, is marked broken (the
reason in `Game.broken`), the GM is told by mail, and every loop goes on with the other games.
A broken game takes no resolution and no orders; mails for it are held (status "held") and read
again, in order, when the GM resumes it with `pbm game resume`.
"""

from __future__ import annotations

import logging
import traceback

from sqlmodel import Session, col, select

from pbm.store.db import scrub, transaction
from pbm.store.models import Game, InboundMail
from pbm.store.statuses import GamePhase, MailStatus

from . import texts
from .context import Service
from .games import StateUnreadable
from .outbox import enqueue

log = logging.getLogger("pbm")

#: Longest reason kept in the game row (the whole traceback goes to the log).
REASON_MAX = 500


def reason_of(exc: BaseException) -> str:
    if isinstance(exc, StateUnreadable) and exc.__cause__ is not None:
        exc = exc.__cause__  # what the state's reading said (`JSONDecodeError: …`)
    text = f"{type(exc).__name__}: {exc}".replace("\n", " ").replace("\x00", "")
    return text[:REASON_MAX]


def mark_broken(svc: Service, name: str, exc: BaseException) -> None:
    """Stop acting on the game `name` (in a transaction of its own) and alert the GM."""
    from .games import ServiceError, get_game

    with transaction(svc.engine) as session:
        try:
            game = get_game(session, name, lock=True)  # the GM's name in any case too
        except ServiceError:
            return
        break_game(svc, session, game, exc)


def break_game(svc: Service, session: Session, game: Game, exc: BaseException) -> None:
    """Mark a locked game broken in the caller's transaction, alerting the GM once."""
    log.error(
        "game %s: stopped after an error; the other games go on\n%s",
        game.name,
        "".join(traceback.format_exception(exc)).rstrip(),
    )
    if game.broken:
        return
    game.broken = reason_of(exc)
    if svc.config.service.gm_inbox:
        subject = texts.t(game.locale, "broken_subject", game=game.name)
        enqueue(
            svc,
            session,
            "broken",
            svc.config.service.gm_inbox,
            subject,
            texts.t(game.locale, "broken_body", game=game.name, reason=game.broken),
            game_id=game.id,
            lang=game.locale,
        )


def unreadable(game: Game) -> str:
    """What of the game cannot be read, with the error ("" when all can be): its settings, or
    its state. `pbm game list` and `show` show it as the game's `broken` (a damaged row stops
    no other game from being listed); the service marks such a game broken when it next acts
    on it."""
    from .games import load_state, settings_of

    try:
        settings_of(game)
    except Exception as exc:
        return f"settings cannot be read: {reason_of(exc)}"
    if game.state:
        try:
            load_state(game)
        except Exception as exc:
            return f"state cannot be read: {reason_of(exc)}"
    return ""


def broken_games(session: Session) -> list[Game]:
    return list(session.exec(select(Game).where(Game.broken != "").order_by(col(Game.id))))


def _unpause(svc: Service, session: Session, game: Game) -> None:
    """A paused game runs again and the players are told, with the deadline. A deadline that
    passed during the pause (orders were refused meanwhile) is set anew, the game's usual
    time from now (a setup turn's share in the setup): nobody is told a deadline that has
    passed, and the round does not resolve minutes later with everyone's orders missing."""
    from .games import set_deadline, turn_hours
    from .table import as_utc, shared_deadline
    from .tell import tell

    game.paused = False
    if game.phase in (GamePhase.SETUP, GamePhase.ROUNDS):
        if game.deadline is not None and as_utc(game.deadline) <= svc.clock.now():
            set_deadline(svc, game, turn_hours(svc, game, game.phase == GamePhase.SETUP))
        tell(svc, session, game, "resumed", deadline=shared_deadline(session, game, room=60))
    elif game.phase == GamePhase.SIGNUP:
        from .games import players_of, settings_of
        from .signup import draw

        # The table filled while paused: the draw that waited is made now.
        if len(players_of(session, game)) >= settings_of(game).players:
            draw(svc, session, game)


def resume(svc: Service, name: str, ran: list[bool] | None = None) -> list[int]:
    """The GM's `pbm game resume`: the game runs again (no longer paused or broken), and the
    mails held while it was broken are read now, oldest first. Returns their ids; `ran`, when
    given, gets whether the game was running already (neither paused nor broken)."""
    from .games import ServiceError, get_game
    from .ingest import process_mail

    with transaction(svc.engine) as session:
        game = get_game(session, name, lock=True)
        if game.phase == GamePhase.ENDED:
            raise ServiceError(f"{name} has ended: resume is for a game that goes on")
        if ran is not None:
            ran.append(not game.paused and not game.broken)
        if game.paused:
            _unpause(svc, session, game)
        game.broken = ""
        held = list(
            session.exec(
                select(InboundMail)
                .where(
                    InboundMail.game_id == game.id,
                    InboundMail.status == MailStatus.HELD,
                )
                .order_by(col(InboundMail.id))
            )
        )
        for mail in held:
            mail.status = MailStatus.NEW
            mail.error = ""
        ids = [m.id for m in held if m.id is not None]
    from .tick import resolve_if_ready

    for mail_id in ids:
        result = process_mail(svc, mail_id)
        if result.game:
            resolve_if_ready(svc, result.game)
    if ids:
        scrub(svc.engine)  # the held mails' kept bytes, their passwords masked now
    return ids
