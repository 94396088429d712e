"""The game master by mail (issue 28): mail from a GM address (`[service] gm`, `gm_address`).

Such a mail is never read as a player's orders, even when the GM also plays (the GM plays from
another address). It is one of:

- **A reply to a forwarded player mail** (`An Spielleitung: …`, mail kind `press_gm`): its text
  goes to that player, in the player's thread with the GM, marked as from the game master
  (`press.gm_message`). A From header can be forged, so the reply must show that its writer
  read the GM's copy: it answers that mail's own Message-ID (In-Reply-To or References: 96
  random bits that only the GM's copy carried), or it holds the GM password.
- **Commands**, with the GM password (`Kennwort:` / `Password:` and the password `pbm gm
  password` printed): `Nachricht an gelb: …` / `Message to yellow: …` (or `alle` / `all`),
  `Ankündigung: …` / `Announce: …`, `Pause`, `Weiter` / `Resume`, `Verlängern: 24` /
  `Extend: 24` with `Grund: …` / `Why: …`, `Hilfe` / `Help`. The words of either language are
  read in every game. A mail with a line that is none of these does nothing; one command
  refused does nothing of the mail (a savepoint), and the GM is told why.
- Anything else gets an answer saying what the GM can do by mail.

Every answer goes to the sending GM address only: a forged mail tells the real GM that someone
tried, within the hourly answer limit. Only the GM password's hash is stored (`GmKey`), as a
player's; what else a GM must do (end a game, roll back, replace a player) stays with `pbm` on
the server. docs/gm-guide.md ("The game master by mail") is the GM's description.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sqlmodel import Session, col, select

from pbm.i18n import N_, mail_languages, translator
from pbm.mail.inbound import Inbound
from pbm.notation import vocab
from pbm.notation.clean import iter_clean_lines
from pbm.notation.errors import OrderError
from pbm.notation.limits import MAX_MAIL_LINES
from pbm.notation.lines import Command, GameName, Password, Press, scan_line
from pbm.notation.press import message_text
from pbm.notation.text import simple
from pbm.reports.render import Rendered, render, render_message
from pbm.store.db import transaction
from pbm.store.models import Game, GmKey, InboundMail, Outbox
from pbm.store.statuses import GamePhase, MailStatus

from . import texts
from .context import Service
from .games import ServiceError, get_game
from .limits import may_answer
from .outbox import enqueue
from .secrets import (
    hash_password,
    masked_text,
    new_password,
    verify_password,
)

if TYPE_CHECKING:
    from .request import Handled

#: The colour tag of the GM password (`gm-kadu-mepi-rosa-tule-wibo`): its shape is a seat
#: password's, so that it is masked wherever a mail holds it (`secrets.masked_text`).
GM_TAG = "gm"
#: The most hours one `Verlängern:` line moves a deadline by.
MAX_EXTEND_HOURS = 2000

_PAUSE = re.compile(r"^(?:pause|pausieren|anhalten)[.!]?$")
_RESUME = re.compile(r"^(?:weiter|fortsetzen|resume|continue|unpause)[.!]?$")
_EXTEND = re.compile(
    r"^(?:frist\s+)?(?:verlaengern|verlaengere|extend(?:\s+(?:the\s+)?deadline)?)"
    r"(?:\s*:\s*|\s+)(?:um\s+|by\s+)?\+?(?P<hours>\d{1,5}(?:[.,]\d{1,2})?)\s*"
    r"(?:h|std\.?|stunden?|hours?)?\.?$"
)
_WHY = re.compile(r"^(?:grund|warum|why|reason)\s*:")
_ANNOUNCE = re.compile(r"^(?:ankuendigung|bekanntmachung|announcement|announce)(?:\s*:|\s|$)")
#: The thread a `press_gm` mail belongs to (`press.thread_id`): the player's colour.
_GM_THREAD = re.compile(r"^<press\.(\d+)\.gm-([a-z]+)@")
#: A msg-id in an In-Reply-To or References header.
_MSG_IDS = re.compile(r"<[^<>\s]{1,250}>")


@dataclass
class Order:
    """One command of a GM mail."""

    kind: str  # message, announce, pause, resume, extend, help
    to: str = ""
    text: str = ""
    hours: float = 0.0


@dataclass
class GmReading:
    """What is read of a GM mail before the write lock (`read`)."""

    #: The GM password given was right (True), wrong (False), or none was given (None).
    password: bool | None = None
    #: A password was given but none is set (`pbm gm password`).
    unset: bool = False
    #: The forwarded player mail (`press_gm`) this one answers: its outbox row's id.
    forwarded: int | None = None
    #: The game the mail names (`Spiel:` line or `[name]` in the subject).
    game: str = ""
    orders: list[Order] = field(default_factory=list)
    #: Lines that are no command (the text of a reply, or mistakes).
    other: list[str] = field(default_factory=list)
    #: The reason of `Verlängern:` (`Grund:` line).
    why: str = ""
    #: The mail's text as a reply to a player (without the password line).
    reply: str = ""
    #: Why the mail is not read at all (too big, too many parts): `dispatch.refusal_of`.
    refused: str = ""


# -- the GM password ----------------------------------------------------------------------------


def new_gm_password(svc: Service, keep: bool = False) -> str:
    """A new GM password: its hash replaces the stored one; the password is returned (to be
    shown once) and kept nowhere. `keep`: only if none is stored ("" when one is)."""
    password = new_password(GM_TAG)
    with transaction(svc.engine) as session:
        stored = list(session.exec(select(GmKey)))
        if keep and stored:
            return ""
        for row in stored:
            session.delete(row)
        session.add(GmKey(password_hash=hash_password(password), created_at=svc.clock.now()))
    return password


def _stored_key(session: Session) -> GmKey | None:
    return session.exec(select(GmKey).order_by(col(GmKey.id).desc())).first()


# -- reading ------------------------------------------------------------------------------------


def _rest(line: str) -> str:
    """What follows a command word: after its colon, else after its first word."""
    if ":" in line:
        return line.split(":", 1)[1].strip()
    parts = line.split(None, 1)
    return parts[1].strip() if len(parts) > 1 else ""


def _hours(value: str) -> float:
    return float(value.replace(",", "."))


def read(
    svc: Service, session: Session, inbound: Inbound, refused: str, secrets: set[str]
) -> GmReading:
    """Everything about a GM mail that needs no write lock: its commands, whether its password
    is right (one hash check), and the forwarded mail it answers. `secrets`: the values of
    its password lines, which no forwarded text keeps."""
    out = GmReading(refused=refused)
    if refused:
        return out
    body = inbound.text
    password = ""
    for count, (number, line) in enumerate(iter_clean_lines(body)):
        if count == MAX_MAIL_LINES:
            out.other.append("…")
            break
        try:
            item = scan_line(line)
        except OrderError:
            item = None
        folded = simple(line)
        if isinstance(item, Password):
            password = item.secret
        elif isinstance(item, GameName):
            out.game = out.game or item.name
        elif isinstance(item, Press) and item.to != "gm":
            text = message_text(item.first, body, number)
            out.orders.append(Order("message", to=item.to, text=text))
            break  # the rest of the mail is the message
        elif isinstance(item, Command) and item.name == "help":
            out.orders.append(Order("help"))
        elif _PAUSE.match(folded):
            out.orders.append(Order("pause"))
        elif _RESUME.match(folded):
            out.orders.append(Order("resume"))
        elif m := _EXTEND.match(folded):
            out.orders.append(Order("extend", hours=_hours(m.group("hours"))))
        elif _WHY.match(folded):
            out.why = _rest(line)
        elif _ANNOUNCE.match(folded):
            out.orders.append(Order("announce", text=message_text(_rest(line), body, number)))
            break
        else:
            out.other.append(line)
    if not out.game:
        from .mail_lookup import bracketed

        out.game = bracketed(inbound.subject).strip()
    out.reply = _reply_text(body)
    if password:
        secrets.add(password)
        key = _stored_key(session)
        out.unset = key is None
        out.password = key is not None and verify_password(password, key.password_hash)
    out.forwarded = _answered(session, inbound)
    masked = [v for v in secrets if v]
    out.reply = masked_text(out.reply, masked)
    for order in out.orders:
        order.text = masked_text(order.text, masked)
    out.why = masked_text(out.why, masked)
    return out


def _reply_text(body: str) -> str:
    """The GM's text of a reply: the mail without the quoted mail, the signature and the
    password line (`press.message_text`)."""
    text = message_text("", body, 0)
    kept = []
    for line in text.split("\n"):
        try:
            item = scan_line(line.strip()) if line.strip() else None
        except OrderError:
            item = None
        if not isinstance(item, Password):
            kept.append(line)
    return "\n".join(kept).strip("\n")


def _answered(session: Session, inbound: Inbound) -> int | None:
    """The forwarded player mail (`press_gm`) this mail answers, by the Message-ID only the
    GM's copy carried: In-Reply-To first, then References from the newest."""
    ids = _MSG_IDS.findall(inbound.headers.get("in-reply-to", ""))
    ids += reversed(_MSG_IDS.findall(inbound.headers.get("references", "")))
    for mid in list(dict.fromkeys(ids))[:20]:
        row = session.exec(
            select(Outbox.id).where(Outbox.message_id == mid, Outbox.kind == "press_gm")
        ).first()
        if row is not None:
            return row
    return None


# -- acting -------------------------------------------------------------------------------------


def handle(
    svc: Service,
    session: Session,
    mail: InboundMail,
    inbound: Inbound,
    gm: GmReading,
    out: Handled,
) -> None:
    """Act on a GM mail under the write lock; every answer goes to the sending address."""
    mail.status = MailStatus.DONE
    answer = _Answer(svc, session, mail, inbound)
    # The game the mail names sets the answer's language, whatever else becomes of it.
    named = _named(session, gm.game)
    if gm.refused:
        mail.error = f"gm: refused ({gm.refused})"
        answer.help(named, ("refused", {}))
        return
    if gm.password is False:
        mail.error = "gm: wrong password"
        answer.help(named, ("unset" if gm.unset else "wrong_password", {}))
        return
    out.authenticated = answer.trusted = bool(gm.password) or gm.forwarded is not None
    commands = [o for o in gm.orders if o.kind != "help"]
    if gm.password and commands:
        _commands(answer, gm, commands, out)
    elif gm.forwarded is not None:
        _reply(answer, gm, out)
    elif gm.orders and not commands and not gm.other:
        # `Hilfe` alone (with the password, or without: the help is no secret).
        answer.help(_named(session, gm.game), None)
    else:
        mail.error = "gm: not placed"
        if gm.password:
            problem: Problem = ("not_understood", {"lines": gm.other})
        elif commands:
            problem = ("needs_password", {})
        else:
            problem = ("not_placed", {})
        answer.help(_named(session, gm.game), problem)


def _named(session: Session, name: str) -> Game | None:
    if not name:
        return None
    try:
        return get_game(session, name)  # in any case, as the GM's commands
    except ServiceError:
        return None


def _game_names(session: Session) -> str:
    names = session.exec(
        select(Game.name).where(Game.phase != GamePhase.ENDED).order_by(col(Game.id))
    )
    return ", ".join(names) or "-"


def _commands(answer: _Answer, gm: GmReading, commands: list[Order], out: Handled) -> None:
    """A command mail with the right GM password: all of it, or (one command refused)
    nothing."""
    svc, session = answer.svc, answer.session
    if not gm.game:
        answer.help(None, ("no_game", {"games": _game_names(session)}))
        return
    try:
        game = get_game(session, gm.game, lock=True)
    except ServiceError:
        answer.help(None, ("no_game", {"games": _game_names(session)}))
        return
    out.game_id = game.id
    if gm.other:
        answer.help(game, ("not_understood", {"lines": gm.other}))
        return
    if any(o.kind == "extend" for o in commands) and not gm.why.strip():
        answer.help(game, ("why_needed", {}))
        return
    try:
        with session.begin_nested():
            done = [_run(svc, session, game, order, gm.why) for order in commands]
    except ServiceError as exc:
        session.refresh(game)
        answer.help(game, ("refused_command", {"reason": str(exc)}))
        return
    answer.done(game, done)


def _run(svc: Service, session: Session, game: Game, order: Order, why: str) -> str:
    """Carry out one command; the line that tells the GM what was done."""
    from .broken import _unpause
    from .gm import extend
    from .press import gm_message, names_all
    from .table import as_utc, shared_deadline
    from .tell import tell

    _ = translator(game.locale).gettext
    if order.kind == "message":
        if not order.text.strip():
            raise ServiceError(_("The message is empty."))
        if not names_all(order.to) and not _plays(session, game, order.to):
            # Said in the game's language (the command line's refusal is English).
            raise ServiceError(
                _("Nobody plays {colour} in {game}.").format(
                    colour=vocab.colour_name(order.to, game.locale), game=game.name
                )
            )
        addresses = gm_message(svc, session, game, order.to, order.text)
        return (
            translator(game.locale)
            .ngettext(
                "Your message went to {count} player.",
                "Your message went to {count} players.",
                len(addresses),
            )
            .format(count=len(addresses))
        )
    if order.kind == "announce":
        if not order.text.strip():
            raise ServiceError(_("The announcement is empty."))
        row = tell(svc, session, game, "announce", text=order.text)
        count = len(row.recipients.split(",")) if row else 0
        return (
            translator(game.locale)
            .ngettext(
                "Your announcement went to {count} player or observer.",
                "Your announcement went to {count} players and observers.",
                count,
            )
            .format(count=count)
        )
    if order.kind == "pause":
        if game.phase == GamePhase.ENDED:
            raise ServiceError(_("The game has ended: there is nothing to pause."))
        if game.paused:
            return _("The game was paused already.")
        game.paused = True
        tell(svc, session, game, "paused")
        return _("The game is paused; the players are told.")
    if order.kind == "resume":
        if game.broken:
            raise ServiceError(
                _(
                    "{game} was stopped after an error ({error}); after the repair, "
                    "`pbm game resume {game}` on the server runs it again and reads the "
                    "mails held for it."
                ).format(game=game.name, error=game.broken)
            )
        if not game.paused:
            return _("The game was not paused.")
        _unpause(svc, session, game)
        return _("The game runs again; the players are told.")
    assert order.kind == "extend"
    if game.phase not in (GamePhase.SETUP, GamePhase.ROUNDS):
        raise ServiceError(_("The game has no open round or setup turn: no deadline to move."))
    if not 0 < order.hours <= MAX_EXTEND_HOURS:
        raise ServiceError(
            _("A deadline is moved by mail by 1 to {hours} hours.").format(hours=MAX_EXTEND_HOURS)
        )
    hours = order.hours
    now = svc.clock.now()
    if game.deadline is not None and as_utc(game.deadline) < now:
        # A deadline that has passed (during a pause, say) is moved from now: the GM on a
        # phone writes the hours the players get, not the hours since.
        late = (now - as_utc(game.deadline)).total_seconds() / 3600
        hours += late / svc.config.service.time_scale
    extend(svc, session, game, hours, why)
    return _("New deadline: {deadline}; the players are told, with your reason.").format(
        deadline=shared_deadline(session, game, room=200)
    )


def _plays(session: Session, game: Game, colour: str) -> bool:
    """Whether a seated player plays the colour named (in any spelling)."""
    from .gm import colour_player

    try:
        colour_player(session, game, colour)
    except ServiceError:
        return False
    return True


def _reply(answer: _Answer, gm: GmReading, out: Handled) -> None:
    """The GM's reply to a forwarded player mail goes to that player, in their thread."""
    from .gm import colour_player
    from .press import gm_message
    from .table import label

    svc, session = answer.svc, answer.session
    row = session.get(Outbox, gm.forwarded)
    assert row is not None and row.game_id is not None
    game = session.get(Game, row.game_id)
    assert game is not None
    game = get_game(session, game.name, lock=True)
    out.game_id = game.id
    thread = _GM_THREAD.match(row.in_reply_to)
    if not gm.reply.strip() or thread is None:
        answer.help(game, ("empty", {}))
        return
    try:
        player = colour_player(session, game, thread.group(2))
        gm_message(svc, session, game, thread.group(2), gm.reply)
    except ServiceError as exc:
        answer.help(game, ("refused_command", {"reason": str(exc)}))
        return
    _ = translator(game.locale).gettext
    answer.done(game, [_("Your answer went to {player}.").format(player=label(game, player))])


#: Why a GM mail did nothing: a key of `PROBLEMS` and its values.
Problem = tuple[str, dict[str, object]]

#: Why a GM mail did nothing, by key: the first lines of the answer.
PROBLEMS = {
    "refused": N_("Your mail was too big to be read: nothing was done."),
    "wrong_password": N_("The GM password is wrong: nothing was done."),
    "unset": N_(
        "No GM password is set yet: run `pbm gm password` on the server. Nothing was done."
    ),
    "needs_password": N_(
        "Commands need the GM password (a line 'Password: …'), and this mail answers no "
        "player mail that pbm forwarded to you: nothing was done."
    ),
    "not_placed": N_(
        "pbm could not place your mail: it answers no player mail that pbm forwarded to you, "
        "and it holds no command with the GM password. Nothing was sent."
    ),
    "not_understood": N_("These lines are no command, so nothing was done:"),
    "no_game": N_("Which game? Write 'Game: <name>'. The games: {games}"),
    "empty": N_("Your reply has no text of its own: nothing was sent."),
    "why_needed": N_(
        "A deadline moved by mail needs its reason, which the players read: add a line "
        "'Why: …'. Nothing was done."
    ),
    "refused_command": N_("Nothing was done: {reason}"),
}


class _Answer:
    """The one answer to a GM mail: to its sender, in the language of its game (without one,
    in every language pbm speaks). `trusted`: the mail gave the GM password or answered a
    forwarded mail; else the answer counts toward the address's hourly answers."""

    def __init__(self, svc: Service, session: Session, mail: InboundMail, inbound: Inbound) -> None:
        self.svc, self.session, self.mail, self.inbound = svc, session, mail, inbound
        self.trusted = False

    def _send(self, game: Game | None, data: dict[str, object]) -> None:
        sender = self.inbound.sender
        if not self.trusted and not may_answer(self.svc, self.session, sender):
            self.mail.error = (self.mail.error + "; " if self.mail.error else "") + "not answered"
            return
        langs = [game.locale] if game is not None else list(mail_languages())
        name = game.name if game is not None else ""
        parts = [gm_mail(lang, name, **data) for lang in langs]  # type: ignore[arg-type]
        subject = " / ".join(dict.fromkeys(s for s, _ in parts))
        if len(parts) == 1:
            mail = parts[0][1]
        else:
            joined = "\n\n".join(m.text.rstrip() for _, m in parts) + "\n"
            mail = render_message(subject, joined, langs[0], "")
        enqueue(
            self.svc,
            self.session,
            "gm_mail",
            [sender],
            subject,
            mail.text,
            html=mail.html,
            game_id=game.id if game is not None else None,
            in_reply_to=self.inbound.message_id,
            limited=not self.trusted,
        )

    def help(self, game: Game | None, problem: Problem | None) -> None:
        self._send(game, {"problem": problem, "senders": _senders(self.svc)})

    def done(self, game: Game, lines: list[str]) -> None:
        self._send(game, {"done": lines})


def _senders(svc: Service) -> str:
    return ", ".join(sorted(svc.config.service.gm_senders))


def gm_mail(
    lang: str,
    game: str,
    *,
    problem: Problem | None = None,
    senders: str = "",
    done: list[str] | None = None,
) -> tuple[str, Rendered]:
    """An answer to a GM mail (`templates/gm_mail.*.j2`), as (subject, mail): what was done
    (`done`, a line each), or why nothing was (`problem`) and what the GM can do by mail."""
    tr = translator(lang)
    text, lines = "", []
    if problem is not None:
        key, values = problem
        lines = [str(line) for line in values.get("lines", [])]  # type: ignore[attr-defined]
        text = tr.gettext(PROBLEMS[key]).format(**values)
    key = "gm_mail_done_subject" if done else "gm_mail_help_subject"
    subject = texts.t(lang, key, game=game) if game else texts.t(lang, f"{key}_no_game")
    data = {
        "lang": lang,
        "game": game,
        "problem": text,
        "lines": lines,
        "done": done or [],
        "help": not done,
        "senders": senders,
    }
    return subject, render("gm_mail", subject, data)
