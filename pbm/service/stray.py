"""Mail that no running game takes: a game that does not exist, a seat that went to someone
else, a game that has ended, or a sender whose game is not clear. Answered in the language of
the sender's games when they all have one, else in every language (no game, so no language),
within the hourly limit."""

from __future__ import annotations

from collections.abc import Callable

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
    said = _said_in(list(games.values()))
    lines = said(key, **values)
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
        lines += said("your_games", names=", ".join(playing))
    else:
        lines += _how_to_join(session, said)
    # The game the answer is about in the subject, as every other answer has it: the seat
    # that went to someone else, the game that has ended.
    about = replaced or ended
    lang = _shared_lang(list(games.values()))
    subject = "pbm"
    if not named and len(about) == 1 and lang is not None:
        subject = texts.t(lang, "error_subject", game=about[0])
    enqueue(
        svc,
        session,
        "stray",
        [inbound.sender],
        subject,
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
        lines = _how_to_join(session, texts.in_every_language)
    else:
        names = ", ".join(g.name for g in games) or "-"
        lines = _said_in(games)("which_game", names=names)
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


#: A text of `texts` by key, as the lines of an answer.
Said = Callable[..., list[str]]


def _shared_lang(games: list[Game]) -> str | None:
    """The language `games` share; None for none or several."""
    langs = {g.locale for g in games}
    return next(iter(langs)) if len(langs) == 1 else None


def _said_in(games: list[Game]) -> Said:
    """How an answer about `games` (the sender's own) speaks: in their language when they
    share one (a player who got a name wrong reads their game's language), else in every
    language."""
    lang = _shared_lang(games)
    if lang is None:
        return texts.in_every_language
    return lambda key, **kw: [texts.t(lang, key, **kw)]


def _how_to_join(session: Session, said: Said) -> list[str]:
    """The games open for signup and how to join one, or that none is open."""
    names = ", ".join(
        g.name for g in session.exec(select(Game).where(Game.phase == GamePhase.SIGNUP))
    )
    if not names:
        return said("none_open")
    return said("how_to_join", names=names)
