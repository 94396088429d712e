"""Time-driven work: deadlines, reminders and early resolution, one game per transaction.

Each game is locked (`FOR UPDATE` on PostgreSQL, the write lock on SQLite) and its condition
checked again under the lock, so two workers never resolve the same round twice. A game whose
work raises (a state that cannot be read, a resolution that fails) is marked broken and left
alone; the other games go on (`broken.py`). Database errors are not a game's fault: they go up
to the loop, which waits them out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import bindparam, func
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import defer
from sqlmodel import Session, col, select

from pbm.reports import notices
from pbm.store.db import transaction
from pbm.store.models import Game, OrderSet, Player
from pbm.store.statuses import GamePhase

from . import texts
from .absence import unattended
from .broken import mark_broken
from .context import Service
from .faults import crashpoint
from .games import NOT_SEATED, get_game
from .intake import may_close
from .outbox import notify
from .retention import forget_strangers
from .rounds import ready, resolve, waiting_for
from .setup_phase import advance_setup
from .table import local_deadline


@dataclass
class TickResult:
    resolved: list[str] = field(default_factory=list)
    placed: list[str] = field(default_factory=list)
    reminded: list[str] = field(default_factory=list)
    #: Games whose work raised this time: marked broken, the others went on.
    broken: list[str] = field(default_factory=list)


#: What `_candidates` does not read: the states and settings (read again under the lock for
#: the games with work). A thousand games' states at once were the most a tick held.
#: (sqlmodel types a field with a Column of its own as Mapped, which `defer` takes.)
_UNREAD = (defer(Game.state), defer(Game.settings))  # type: ignore[arg-type]
#: Games read and checked this many at a time: the ones checked are let go (the session holds
#: its objects weakly). All at once, a tick that found nothing due over 1,000 games left `pbm
#: serve` 2.9 MB larger; 100 at a time 0.7 MB, in the same CPU time.
_CHECKED_AT_ONCE = 100


def _candidates(svc: Service, among: list[str] | None = None) -> list[str]:
    """The running games with something to do now, found in one transaction; each is then
    locked and checked again on its own. (Locking every game each tick would take the write
    lock a thousand times a minute in a large installation.) `among`: only these games (the
    ones a tick passed over)."""
    now = svc.clock.now()
    query = (
        select(Game)
        .options(*_UNREAD)
        .execution_options(yield_per=_CHECKED_AT_ONCE)
        .where(
            col(Game.phase).in_((GamePhase.SETUP, GamePhase.ROUNDS)),
            Game.paused == False,  # noqa: E712
            Game.broken == "",
        )
    )
    if among is not None:
        query = query.where(col(Game.name).in_(among))
    with Session(svc.engine) as session:
        games = session.exec(query)
        names: list[str] = []
        for chunk in games.partitions():
            rounds = _round_rows(session, [g for g in chunk if g.phase == GamePhase.ROUNDS])
            names += (g.name for g in chunk if _may_have_work(svc, session, g, now, rounds))
        return sorted(names)


#: The seated players and the live order sets' senders of a set of games, read for all of
#: them at once (`_round_rows`).
_SEATED_OF = select(Player).where(
    col(Player.game_id).in_(bindparam("ids", expanding=True)),
    col(Player.status).not_in(NOT_SEATED),
)
_SENT_OF = (
    select(OrderSet.game_id, OrderSet.player_id)
    .join(Game, (col(Game.id) == OrderSet.game_id) & (col(Game.round) == OrderSet.round))
    .where(
        col(OrderSet.game_id).in_(bindparam("ids", expanding=True)),
        OrderSet.superseded == False,  # noqa: E712  (SQL comparison)
    )
)
_Rounds = dict[int, tuple[list[Player], set[int]]]


def _round_rows(session: Session, games: list[Game]) -> _Rounds:
    """Each game's seated players and the ids of those whose orders for the open round are
    in, by two queries for all `games`: `ready` read them by two queries a game, 20,000 a
    tick over 10,000 running games (`pbm bench rounds --games 10000`), every tick."""
    ids = [g.id for g in games if g.early_resolve and g.id is not None]
    if not ids:
        return {}
    out: _Rounds = {i: ([], set()) for i in ids}
    for player in session.exec(_SEATED_OF, params={"ids": ids}):
        out[player.game_id][0].append(player)
    for game_id, player_id in session.exec(_SENT_OF, params={"ids": ids}):
        out[game_id][1].add(player_id)
    return out


def next_deadline(svc: Service) -> datetime | None:
    """The earliest deadline still ahead of a running game (not paused, not broken): the
    clock loop wakes for it instead of sleeping out `tick_seconds`, so a deadline acts when it
    passes, not up to half a minute later."""
    now = svc.clock.now()
    with Session(svc.engine) as session:
        moment = session.exec(
            select(func.min(Game.deadline)).where(
                col(Game.phase).in_((GamePhase.SETUP, GamePhase.ROUNDS)),
                Game.paused == False,  # noqa: E712
                Game.broken == "",
                col(Game.deadline) > now,
            )
        ).one()
    if moment is not None and moment.tzinfo is None:
        moment = moment.replace(tzinfo=now.tzinfo)  # SQLite gives naive datetimes back
    return moment


def _may_have_work(
    svc: Service, session: Session, game: Game, now: datetime, rounds: _Rounds | None = None
) -> bool:
    """`_has_work`, and True for a game whose rows cannot even be read for it (a corrupt
    column): `_tick_game` then meets the fault and marks that game broken, and the others go
    on."""
    try:
        return _has_work(svc, session, game, now, rounds)
    except DBAPIError:
        raise
    except Exception:
        return True


def _has_work(
    svc: Service, session: Session, game: Game, now: datetime, rounds: _Rounds | None = None
) -> bool:
    """`rounds`: the seated players and senders of the game's chunk (`_round_rows`); a game
    not in it reads its own."""
    if game.deadline is not None and now >= game.deadline:
        return True
    if game.phase != GamePhase.ROUNDS:
        return False
    if (
        game.deadline is not None
        and not game.reminded
        and game.reminder_hours > 0
        and now
        >= game.deadline - timedelta(hours=game.reminder_hours * svc.config.service.time_scale)
    ):
        return True
    # Orders normally resolve a complete round on arrival; this catches a round completed
    # otherwise (a resignation, the GM switching on the autopilot).
    if not game.early_resolve:
        return False
    seats, sent = (rounds or {}).get(game.id or 0, (None, None))
    return ready(session, game, now, seats, sent)


def tick(svc: Service) -> TickResult:
    """Do whatever is due now in every running game; a game that fails is marked broken.

    On PostgreSQL a game locked by someone else (another worker resolving it, a mail being
    handled) is passed over (`SKIP LOCKED`) instead of waited for: two workers then split the
    due games between them instead of queueing behind each other's locks game after game.
    The games passed over that still have work once the others are done are taken then,
    waiting for their lock. SQLite has one writer at a time whatever the workers do: there
    every game is waited for, as before."""
    out = TickResult()
    forget_strangers(svc)
    passed: list[str] | None = [] if svc.engine.dialect.name == "postgresql" else None
    for name in _candidates(svc):
        _guarded(svc, name, out, passed)
    if passed:
        # Most were done by whoever held them: one read of those finds the few that still
        # have work (not of every game again: with two workers some game is passed over in
        # almost every tick).
        still = set(_candidates(svc, passed))
        for name in passed:
            if name in still:
                _guarded(svc, name, out, None)
    return out


def _guarded(svc: Service, name: str, out: TickResult, passed: list[str] | None) -> None:
    """`_tick_game`; a game whose work raises is marked broken (the others go on)."""
    try:
        _tick_game(svc, name, out, passed)
    except DBAPIError:
        raise
    except Exception as exc:
        mark_broken(svc, name, exc)
        out.broken.append(name)


#: A game locked for its tick, or nothing when someone else holds its lock (PostgreSQL).
_GAME_UNLESS_LOCKED = (
    select(Game)
    .where(Game.name == bindparam("name"))
    .with_for_update(skip_locked=True)
    .execution_options(populate_existing=True)
)


def _tick_game(svc: Service, name: str, out: TickResult, passed: list[str] | None = None) -> None:
    """The game's due work under its lock. `passed`: where a game locked by someone else is
    put instead of waited for (None: wait for the lock)."""
    resolved_now = False
    with transaction(svc.engine) as session:
        if passed is None:
            game = get_game(session, name, lock=True)
        else:
            found = session.exec(_GAME_UNLESS_LOCKED, params={"name": name}).first()
            if found is None:  # locked elsewhere (or gone: the second pass then says so)
                passed.append(name)
                return
            game = found
        if game.paused or game.broken or game.phase not in (GamePhase.SETUP, GamePhase.ROUNDS):
            return
        now = svc.clock.now()
        due = game.deadline is not None and now >= game.deadline
        if due and not may_close(svc, session, game, now):
            # Mail that came before the deadline may be unread yet: the deadline waits for it.
            return
        if game.phase == GamePhase.SETUP:
            if due:
                advance_setup(svc, session, game, timeout=True)
                out.placed.append(name)
            return
        if (due or (game.early_resolve and ready(session, game, now))) and unattended(
            svc, session, game
        ):
            # Every seat on autopilot: paused, the GM told, nothing played (absence.py).
            return
        if due or (game.early_resolve and ready(session, game, now)):
            resolve(svc, session, game)
            out.resolved.append(name)
            resolved_now = True
        elif _remind(svc, session, game):
            out.reminded.append(name)
    if resolved_now:
        crashpoint("resolved")


def resolve_if_ready(svc: Service, name: str) -> bool:
    """After orders came in: resolve at once if the game resolves early and all are in. A
    resolution that raises marks the game broken (the mail that completed the round is
    stored and answered already)."""
    try:
        with transaction(svc.engine) as session:
            game = get_game(session, name, lock=True)
            ready_now = ready(session, game, svc.clock.now())
            if game.paused or game.broken or not game.early_resolve or not ready_now:
                return False
            resolve(svc, session, game)
            return True
    except DBAPIError:
        raise
    except Exception as exc:
        mark_broken(svc, name, exc)
        return False


def _remind(svc: Service, session: Session, game: Game) -> bool:
    if game.deadline is None or game.reminded or game.reminder_hours <= 0:
        return False
    at = game.deadline - timedelta(hours=game.reminder_hours * svc.config.service.time_scale)
    if svc.clock.now() < at:
        return False
    game.reminded = True
    for p in waiting_for(session, game, svc.clock.now()):
        notify(
            svc,
            session,
            "reminder",
            [p.address],
            game,
            texts.t(game.locale, "reminder_subject", game=game.name, round=game.round),
            notices.reminder(game.locale, game.round, local_deadline(game, p)),
        )
    return True
