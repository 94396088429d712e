"""Time-driven work: deadlines, reminders and early resolution, one game per transaction.

Each game is locked (`FOR UPDATE` on PostgreSQL, the write lock on SQLite) and its condition
checked again under the lock, so two workers never resolve the same round twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlmodel import Session, col, select

from pbm.reports import notices
from pbm.store.db import transaction
from pbm.store.models import Game

from . import texts
from .context import Service
from .faults import crashpoint
from .games import deadline_text, get_game
from .outbox import notify
from .rounds import ready, resolve, waiting_for
from .setup_phase import advance_setup


@dataclass
class TickResult:
    resolved: list[str] = field(default_factory=list)
    placed: list[str] = field(default_factory=list)
    reminded: list[str] = field(default_factory=list)


def _candidates(svc: Service) -> list[str]:
    """The running games with something to do now, found in one transaction; each is then
    locked and checked again on its own. (Locking every game each tick would take the write
    lock a thousand times a minute in a large installation.)"""
    now = svc.clock.now()
    with Session(svc.engine) as session:
        games = session.exec(select(Game).where(
            col(Game.phase).in_(("setup", "rounds")), Game.paused == False,  # noqa: E712
        ))
        return sorted(g.name for g in games if _has_work(svc, session, g, now))


def _has_work(svc: Service, session: Session, game: Game, now: datetime) -> bool:
    if game.deadline is not None and now >= game.deadline:
        return True
    if game.phase != "rounds":
        return False
    if game.deadline is not None and not game.reminded and game.reminder_hours > 0 and \
            now >= game.deadline - timedelta(hours=game.reminder_hours * svc.config.time_scale):
        return True
    # Orders normally resolve a complete round on arrival; this catches a round completed
    # otherwise (a resignation, the GM switching on the autopilot).
    return game.early_resolve and ready(session, game)


def tick(svc: Service) -> TickResult:
    """Do whatever is due now in every running game."""
    out = TickResult()
    for name in _candidates(svc):
        resolved_now = False
        with transaction(svc.engine) as session:
            game = get_game(session, name, lock=True)
            if game.paused or game.phase not in ("setup", "rounds"):
                continue
            now = svc.clock.now()
            due = game.deadline is not None and now >= game.deadline
            if game.phase == "setup":
                if due:
                    advance_setup(svc, session, game, timeout=True)
                    out.placed.append(name)
                continue
            if due or (game.early_resolve and ready(session, game)):
                resolve(svc, session, game)
                out.resolved.append(name)
                resolved_now = True
            elif _remind(svc, session, game):
                out.reminded.append(name)
        if resolved_now:
            crashpoint("resolved")
    return out


def resolve_if_ready(svc: Service, name: str) -> bool:
    """After orders came in: resolve at once if the game resolves early and all are in."""
    with transaction(svc.engine) as session:
        game = get_game(session, name, lock=True)
        if game.paused or not game.early_resolve or not ready(session, game):
            return False
        resolve(svc, session, game)
        return True


def _remind(svc: Service, session: Session, game: Game) -> bool:
    if game.deadline is None or game.reminded or game.reminder_hours <= 0:
        return False
    at = game.deadline - timedelta(hours=game.reminder_hours * svc.config.time_scale)
    if svc.clock.now() < at:
        return False
    game.reminded = True
    for p in waiting_for(session, game):
        notify(svc, session, "reminder", [p.address], game,
               texts.t(game.lang, "reminder_subject", game=game.name, round=game.round),
               notices.reminder(game.lang, game.round, deadline_text(game)))
    return True
