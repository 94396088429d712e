"""Messages through pbm (issue 15): `Nachricht an gelb: …` / `Message to yellow: …` to one
colour, `Nachricht an alle` to everyone, `An Spielleitung:` / `To GM:` to the human GM
(`[service] gm_address`, else the `gm` addresses), and the GM's answer from the command line
(`pbm game message GAME [COLOUR|all] TEXT`) or by replying to the forwarded mail
(`gm_mail.py`: the forwarded mail's own Message-ID, which only the GM's copy carried, is the
reply's token).

Messages come from the game address and say which colour wrote them (unless the game allows
anonymous messages and the player sent one: `--press anonymous`); `--press none` allows only
messages to the GM. A message needs the sender's password. Like answers, a message counts toward
the recipient's hourly limit and is not sent beyond it (the sender is told). Messages between
the same two colours (or to all, or between a colour and the GM) share a thread: each refers to
the same root Message-ID, so mail programs show them as one conversation.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta

from sqlalchemy import func
from sqlmodel import Session, col, select

from pbm.i18n import translator
from pbm.notation import vocab
from pbm.notation.lines import Press
from pbm.reports import notices
from pbm.store.models import Game, Outbox, Player

from . import texts
from .context import Service
from .games import ServiceError, players_of
from .outbox import notify
from .table import label


def thread_id(svc: Service, game: Game, key: str) -> str:
    """The root Message-ID every message of one conversation refers to."""
    domain = svc.config.service.address.rsplit("@", 1)[-1] or "pbm.invalid"
    return f"<press.{game.id}.{key}@{domain}>"


def _pair(a: str, b: str) -> str:
    return "-".join(sorted((a, b)))


#: Messages one player may send to one recipient (a player, or the GM) in an hour. Counted per
#: sender and recipient, apart from the recipient's hourly answers: one player's flood never
#: silences the others (docs/service-decisions.md, "Press").
MESSAGES_PER_HOUR = 10


def _anonymous_key(sender: Player, recipient: Player) -> str:
    """The thread of one sender's anonymous messages to one recipient: an opaque token (a
    digest keyed by the sender's own secret), so the headers never name the sender."""
    secret = sender.codebook_secret or sender.password_hash or str(sender.id)
    digest = hashlib.sha256(f"{secret}:anon:{recipient.id}".encode()).hexdigest()
    return f"anon-{digest[:16]}"


def _sent_this_hour(svc: Service, session: Session, kind: str, address: str, thread: str) -> int:
    since = svc.clock.now() - timedelta(hours=1)
    count = session.exec(
        select(func.count())
        .select_from(Outbox)
        .where(
            Outbox.kind == kind,
            Outbox.recipients == address,
            Outbox.in_reply_to == thread,
            col(Outbox.created_at) >= since,
        )
    ).one()
    return int(count)


def send_press(
    svc: Service, session: Session, game: Game, sender: Player, press: Press, text: str
) -> str:
    """Forward a player's message; returns the line that tells the sender what became of it."""
    _ = translator(game.locale).gettext
    if not text.strip():
        return _("The message is empty: nothing was sent.")
    if press.to == "gm":
        return to_gm(svc, session, game, sender, text)
    if game.press == "none":
        return _("This game has no messages between players; 'To GM: …' reaches the game master.")
    if press.anonymous and game.press != "anonymous":
        return _("This game allows no anonymous messages: nothing was sent.")
    if press.to == sender.colour:
        return _("That is your own colour: nothing was sent.")
    seated = [p for p in players_of(session, game) if p.colour and p.id != sender.id]
    targets = seated if press.to == "all" else [p for p in seated if p.colour == press.to]
    if not targets:
        return _("No player has the colour {colour} in this game: nothing was sent.").format(
            colour=vocab.colour_name(press.to, game.locale)
        )
    author = "" if press.anonymous else label(game, sender)
    to_all = press.to == "all"
    subject = texts.t(
        game.locale,
        "press_all_subject" if to_all else "press_subject",
        game=game.name,
        author=author or texts.t(game.locale, "press_anonymous"),
    )
    sent, skipped = [], []
    for p in targets:
        if press.anonymous:
            key = _anonymous_key(sender, p)
        else:
            # Per sender: a message to all is one conversation of its author with the table.
            key = f"all-{sender.colour}" if to_all else _pair(sender.colour or "", p.colour or "")
        thread = thread_id(svc, game, key)
        colour = vocab.colour_name(p.colour or "", game.locale)
        if _sent_this_hour(svc, session, "press", p.address, thread) >= MESSAGES_PER_HOUR:
            skipped.append(colour)
            continue
        notify(
            svc,
            session,
            "press",
            [p.address],
            game,
            subject,
            notices.press(
                game.locale,
                author,
                text,
                to_all=to_all,
                reply=_reply_line(game, "all" if to_all else sender.colour or "", press.anonymous),
            ),
            in_reply_to=thread,
            limited=False,
        )
        sent.append(colour)
    lines = []
    if sent:
        lines.append(_("Your message went to: {colours}").format(colours=", ".join(sent)))
    if skipped:
        lines.append(
            _("Not sent (too many mails to them this hour; try later): {colours}").format(
                colours=", ".join(skipped)
            )
        )
    return "\n".join(lines)


def _reply_line(game: Game, to: str, anonymous: bool) -> str:
    """How to answer: the line to write (nothing for an anonymous message)."""
    from pbm.notation.format import word

    if anonymous:
        return ""
    who = word("all", game.locale) if to == "all" else vocab.colour_name(to, game.locale)
    return f"{word('message', game.locale)} {who}: …"


def to_gm(
    svc: Service, session: Session, game: Game, sender: Player, text: str, unverified: bool = False
) -> str:
    """Forward a player's message to the game master; returns the line for the sender.
    `unverified`: the mail came from the seat's address without its right password."""
    _ = translator(game.locale).gettext
    gm = svc.config.service.gm_inbox
    if not gm:
        return _("This game has no game master's address: nothing was sent.")
    thread = thread_id(svc, game, f"gm-{sender.colour}")
    if _sent_this_hour(svc, session, "press_gm", ",".join(gm), thread) >= MESSAGES_PER_HOUR:
        return _("The game master has had too many mails this hour; try later.")
    who = f"{label(game, sender)} <{sender.address}>"
    subject = texts.t(game.locale, "press_gm_subject", game=game.name, author=label(game, sender))
    notify(
        svc,
        session,
        "press_gm",
        gm,
        game,
        subject,
        # The colour in the game's words, as the mail speaks them (the command takes any).
        notices.press_gm(
            game.locale,
            who,
            text,
            game.name,
            vocab.colour_name(sender.colour or "", game.locale),
            unverified,
        ),
        in_reply_to=thread,
        limited=False,
    )
    return _("Your message went to the game master.")


def names_all(to: str) -> bool:
    """Whether the GM's recipient is everybody (`all`, `alle`), not one colour."""
    return to.strip().lower() in ("all", "alle")


def gm_message(svc: Service, session: Session, game: Game, to: str, text: str) -> list[str]:
    """The GM's message from the command line to one colour or to all; returns the addresses.
    Not counted toward anybody's hourly answers: the GM wrote it."""
    from .gm import colour_player

    if not text.strip():
        raise ServiceError("the message is empty")
    if names_all(to):
        targets, key = [p for p in players_of(session, game) if p.colour], "gm-all"
    else:
        player = colour_player(session, game, to)
        targets, key = [player], f"gm-{player.colour}"
    if not targets:
        raise ServiceError(f"{game.name} has no seated players")
    to_all = key == "gm-all"
    subject = texts.t(game.locale, "press_from_gm_subject", game=game.name)
    addresses = [p.address for p in targets]
    notify(
        svc,
        session,
        "press",
        addresses,
        game,
        subject,
        notices.press(
            game.locale, "", text, to_all=to_all, reply=_gm_reply_line(game), from_gm=True
        ),
        in_reply_to=thread_id(svc, game, key),
        limited=False,
    )
    return addresses


def _gm_reply_line(game: Game) -> str:
    from pbm.notation.format import word

    return f"{word('to_gm', game.locale)}: …"
