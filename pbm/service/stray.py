"""Mail that no running game takes: a game that does not exist, a seat that went to someone
else, a game that has ended, or a sender whose game is not clear. Answered in the language of
the sender's games when they all have one, else in every language (no game, so no language:
`texts.answer_languages`, the language the mail is written in first, then that of the games
the answer is about), within the hourly limit. The subject says what the answer is
(`pbm: Which game?`), in the answer's languages."""

from __future__ import annotations

import re
from itertools import islice

from sqlmodel import Session, col, select

from pbm.mail.inbound import Inbound
from pbm.notation import lexicon, vocab
from pbm.notation.clean import iter_clean_lines
from pbm.notation.format import word
from pbm.notation.mail import SCAN_CHARS, ParsedMail
from pbm.notation.text import fold
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
        lang=langs[0],
    )
    return True


def which_game(
    svc: Service,
    session: Session,
    mail: InboundMail,
    inbound: Inbound,
    games: list[Game],
    probe: ParsedMail | None = None,
) -> None:
    """The answer to a mail that names no game and is for none of the sender's games, or for
    several: the games open for signup, or the candidates. `probe`: what the mail says that
    needs no board (`scan_mail`): a stranger's mail that reads like a signup but has no
    `Anmeldung` line learns why it was not read as one, and the lines to send."""
    if not may_answer(svc, session, inbound.sender):
        return
    written = written_in(inbound.text, inbound.subject)
    if not games:
        # A stranger learns only the games open for signup (and how to join them), not who
        # plays where; in their languages first.
        open_games = _open_games(session)
        langs = _languages(open_games, written, own=False)
        if open_games and probe is not None and _signup_like(inbound, probe):
            lines = signup_lines(open_games, langs, inbound, probe)
        else:
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
        lang=langs[0],
    )


#: The words of the join command (`Anmeldung`, `Join`, `Tilmelding`, …), folded.
_JOIN_WORDS = re.compile(
    r"(?<![\w-])(?:" + "|".join(map(re.escape, lexicon.words("commands", "join"))) + r")(?![\w-])"
)
#: A name from a stranger's `Name:` line that the answer may repeat: words of letters (an
#: initial's full stop, a hyphen, an apostrophe), no address, no link, no digits. Anything
#: else is not echoed to an address that may be forged: the placeholder stands instead.
_PLAIN_NAME = re.compile(r"[^\W\d_]+(?:[ .'-]{1,2}[^\W\d_]+)*\.?")


def _signup_like(inbound: Inbound, probe: ParsedMail) -> bool:
    """Whether a mail that asks for no signup reads like one: a `Name:` or `Farben:` line, or
    the join command's word in a sentence (`Hi, anmeldung für insel bitte`) or the subject."""
    if "join" in probe.commands:
        return False
    if probe.name or probe.colours:
        return True
    return any(_JOIN_WORDS.search(fold(text)[0]) for text in _said(inbound))


#: How many of a stranger's lines are searched for the join command's word or a game's name,
#: and how much of each (as `notation.mail.scan_mail` reads them: a stranger's mail costs
#: little whatever its size).
MAX_SCANNED = 50


def _said(inbound: Inbound) -> list[str]:
    """The subject and the first `MAX_SCANNED` own lines of a mail (quotes and signature
    left out), each cut to `SCAN_CHARS`."""
    lines = islice((line for _, line in iter_clean_lines(inbound.text)), MAX_SCANNED)
    return [text[:SCAN_CHARS] for text in (inbound.subject, *lines)]


def signup_lines(
    open_games: list[Game], langs: tuple[str, ...], inbound: Inbound, probe: ParsedMail
) -> list[str]:
    """Why a mail that reads like a signup was not read as one, and the lines to send, with
    what it said: the game (the one open, or the one of them it names), the name and the
    colour wishes; in each of `langs`, a paragraph each."""
    game = open_games[0].name if len(open_games) == 1 else _named_open_game(open_games, inbound)
    name = probe.name if probe.name and _PLAIN_NAME.fullmatch(probe.name) else None
    out: list[str] = []
    for lang in langs:
        if out:
            out.append("")
        out.append(texts.t(lang, "not_read_as_signup", join=word("join", lang)))
        if game is not None:
            out.append(texts.t(lang, "signup_lines_one", game=game))
        else:
            names = ", ".join(g.name for g in open_games)
            out.append(
                texts.t(lang, "signup_lines_several", names=names, game_word=word("game", lang))
            )
        out.append("")
        out.append(f"  {word('game', lang)}: {game or texts.t(lang, 'game_name_placeholder')}")
        out.append(f"  {word('join', lang)}")
        out.append(f"  {word('name', lang)}: {name or texts.t(lang, 'your_name_placeholder')}")
        if probe.colours:
            wishes = ", ".join(vocab.colour_name(c, lang) for c in probe.colours)
            out.append(f"  {word('colours', lang)}: {wishes}")
    return out


def _named_open_game(open_games: list[Game], inbound: Inbound) -> str | None:
    """The one game open for signup whose name a mail's subject or lines hold as a word
    (`anmeldung für insel bitte`); None for none or several."""
    said = {
        w.strip(".")
        for text in _said(inbound)
        for w in re.findall(r"[a-z0-9][a-z0-9_.-]*", fold(text)[0])
    }
    named = [g.name for g in open_games if g.name.lower() in said]
    return named[0] if len(named) == 1 else None


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
