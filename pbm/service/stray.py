"""Mail that no running game takes: a game that does not exist, a seat that went to someone
else, a game that has ended, or a sender whose game is not clear. Answered in every language
(no game, so no language), within the hourly limit."""

from __future__ import annotations

from sqlmodel import Session, col, select

from pbm.mail.inbound import Inbound
from pbm.store.models import Game, InboundMail, Player
from pbm.store.statuses import PENDING, GamePhase, PlayerStatus

from . import texts
from .context import Service
from .games import GAME_NAME
from .limits import may_answer
from .outbox import enqueue

#: What a game's name can look like when a stray mail's answer repeats it: what
#: `pbm game create` accepts.
PLAUSIBLE_NAME = GAME_NAME


def stray(
    svc: Service, session: Session, mail: InboundMail, inbound: Inbound, named: str | None
) -> bool:
    """A mail no running game takes (issue 15): naming a game that does not exist, from a
    player whose seat went to someone else, or about a game that has ended. Answered in every
    language with why (within the hourly limit); True when it was one of these."""
    mine = list(session.exec(select(Player).where(Player.address == inbound.sender)))
    games = {
        g.id: g
        for g in session.exec(select(Game).where(col(Game.id).in_({p.game_id for p in mine})))
    }
    replaced = sorted(
        {
            games[p.game_id].name
            for p in mine
            if p.status == PlayerStatus.REPLACED and p.game_id in games
        }
    )
    ended = sorted(
        {
            games[p.game_id].name
            for p in mine
            if p.game_id in games
            and games[p.game_id].phase == GamePhase.ENDED
            and p.status != PlayerStatus.REPLACED
            and p.status not in PENDING
        }
    )
    if named:
        if not PLAUSIBLE_NAME.fullmatch(named):
            # Not a game's name anyone gave (a subject tag, a spammer's text): never echoed
            # back to an address that may be forged.
            mail.error = "stray: no_such_game (not answered)"
            return True
        key, values = "no_such_game", {"name": named}
    elif replaced:
        key, values = "seat_replaced", {"games": ", ".join(replaced)}
    elif ended:
        key, values = "game_over", {"games": ", ".join(ended)}
    else:
        return False
    mail.error = f"stray: {key}"
    if not may_answer(svc, session, inbound.sender):
        return True
    lines = texts.in_every_language(key, **values)
    playing = sorted(
        {
            games[p.game_id].name
            for p in mine
            if p.game_id in games
            and games[p.game_id].phase != GamePhase.ENDED
            and p.status != PlayerStatus.REPLACED
            and p.status not in PENDING
        }
    )
    if named and playing:
        # A player who got the name wrong: their own games, not an invitation to sign up.
        lines += texts.in_every_language("your_games", names=", ".join(playing))
    else:
        lines += _how_to_join(session)
    enqueue(
        svc,
        session,
        "stray",
        [inbound.sender],
        "pbm",
        "".join(f"{line}\n" for line in lines),
        in_reply_to=inbound.message_id,
    )
    return True


def which_game(
    svc: Service, session: Session, mail: InboundMail, inbound: Inbound, games: list[Game]
) -> None:
    if not may_answer(svc, session, inbound.sender):
        return
    if not games:
        # A stranger learns only the games open for signup (and how to join them), not who
        # plays where.
        lines = _how_to_join(session)
    else:
        names = ", ".join(g.name for g in games) or "-"
        lines = texts.in_every_language("which_game", names=names)
    enqueue(
        svc,
        session,
        "error",
        [inbound.sender],
        "pbm",
        # No game, so no language: the answer in every language pbm speaks.
        "".join(f"{line}\n" for line in lines),
        in_reply_to=inbound.message_id,
    )


def _how_to_join(session: Session) -> list[str]:
    """The games open for signup and how to join one, or that none is open."""
    names = ", ".join(
        g.name for g in session.exec(select(Game).where(Game.phase == GamePhase.SIGNUP))
    )
    if not names:
        return texts.in_every_language("none_open")
    return texts.in_every_language("how_to_join", names=names)
