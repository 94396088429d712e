"""Mail that no running game takes: a game that does not exist, a seat that went to someone
else, a game that has ended, or a sender whose game is not clear. Answered in the language of
the sender's games when they all have one, else in every language (no game, so no language:
`texts.answer_languages`, the language the mail is written in first, then that of the games
the answer is about), within the hourly limit. The subject says what the answer is
(`pbm: Which game?`), in the answer's languages."""

from __future__ import annotations

from sqlmodel import Session, col, select

from pbm.mail.inbound import Inbound
from pbm.notation.written import written_in
from pbm.store.models import Game, InboundMail, Player
from pbm.store.statuses import PENDING, GamePhase, PlayerStatus

from . import texts
from .context import Service
from .games import GAME_NAME, players_of
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
    written = written_in(inbound.text, inbound.subject)
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
    # A player who got the name wrong is shown their own games, not invited to sign up: the
    # answer is about the sender's games, else about the games open for signup.
    own_games = bool(named and playing)
    open_games = [] if own_games else _open_games(session)
    shown = list(games.values()) if games else open_games
    langs = _languages(shown, written, own=bool(games))
    lines = texts.in_languages(langs, key, **values)
    if own_games:
        lines += texts.in_languages(langs, "your_games", names=", ".join(playing))
    else:
        lines += _how_to_join(open_games, langs)
    # The game the answer is about in the subject, as every other answer has it: the seat
    # that went to someone else, the game that has ended.
    about = replaced or ended
    lang = _shared_lang(list(games.values()))
    if not named and len(about) == 1 and lang is not None:
        subject = texts.t(lang, "error_subject", game=about[0])
    else:
        subject = texts.no_game_subject(langs, f"{key}_subject", **values)
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
    written = written_in(inbound.text, inbound.subject)
    if not games:
        # A stranger learns only the games open for signup (and how to join them), not who
        # plays where; in their languages first.
        open_games = _open_games(session)
        langs = _languages(open_games, written, own=False)
        lines = _how_to_join(open_games, langs)
        key = "how_to_join_subject" if open_games else "none_open_subject"
    else:
        # The games the mail may be for, in their language when they share one (a sign-up
        # for one of the open games, or a player's games).
        names = ", ".join(g.name for g in games) or "-"
        langs = _languages(games, written, own=True)
        lines = texts.in_languages(langs, "which_game", names=names)
        if any(p.address == inbound.sender for g in games for p in players_of(session, g)):
            # A player of several games whose mail tells none (nor by its password, nor by its
            # round: `dispatch.meant`): nothing was done, and the answer says so.
            lines += texts.in_languages(langs, "which_game_not_read")
        key = "which_game_subject"
    enqueue(
        svc,
        session,
        "error",
        [inbound.sender],
        texts.no_game_subject(langs, key),
        "".join(f"{line}\n" for line in lines),
        in_reply_to=inbound.message_id,
    )


def _shared_lang(games: list[Game]) -> str | None:
    """The language `games` share; None for none or several."""
    langs = {g.locale for g in games}
    return next(iter(langs)) if len(langs) == 1 else None


def _languages(games: list[Game], written: str | None, own: bool) -> tuple[str, ...]:
    """The languages of an answer about `games`: the sender's `own` games' language when they
    share one (a player who got a name wrong reads their game's language), else every
    language (`texts.answer_languages`): the mail's own language first, then the games'."""
    lang = _shared_lang(games) if own else None
    if lang is not None:
        return (lang,)
    return texts.answer_languages([g.locale for g in games], written)


def _open_games(session: Session) -> list[Game]:
    return list(
        session.exec(select(Game).where(Game.phase == GamePhase.SIGNUP).order_by(col(Game.id)))
    )


def _how_to_join(open_games: list[Game], langs: tuple[str, ...]) -> list[str]:
    """The games open for signup (`_open_games`) and how to join one, or that none is open."""
    names = ", ".join(g.name for g in open_games)
    if not names:
        return texts.in_languages(langs, "none_open")
    return texts.in_languages(langs, "how_to_join", names=names)
