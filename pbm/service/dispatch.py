"""What a mail asks for: a command of the registry (`mail_commands`), or orders (`order_intake`).

Each command is a module of `mail_commands/` (its word, arguments, description and handler),
like GNU Mailman's email commands. A mail gets one answer for what it does (its orders, a
command, a time zone, or the lines it refused), and one for each question it asks beside that
(`Hilfe`, `Status`, `Mitspieler`, `Verlauf`: at most four, each once), all queued in the
mail's own transaction. Orders and player commands need the player's password, whatever the
From address says (`authentication`); answers that concern a seat go to its registered
address, never to an unknown sender. A mail for no running game is `stray`'s.

A mail is read in two steps (see `ingest.process_mail`): `read_mail` finds its game and parses
it without the write lock; `handle` then acts on it under the lock, after checking that the
game is still as it was read (else the mail is read again: `Reread`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlmodel import Session, select

from pbm.mail.inbound import Inbound
from pbm.notation import parse_mail
from pbm.notation.format import word
from pbm.notation.mail import ParsedMail, scan_mail
from pbm.rules.state import GameState
from pbm.store.models import Game, InboundMail
from pbm.store.statuses import GamePhase, MailStatus

from . import answers, gm_mail, texts
from .authentication import authenticate, bad_password, verified
from .broken import break_game
from .context import Service
from .games import players_of
from .gm_mail import GmReading
from .limits import may_answer
from .mail_commands import BESIDE_ORDERS, COMMANDS, PASSWORD_OPTIONAL
from .mail_lookup import echoes_request, find_games, implied_confirm, named_game, parse_context
from .order_intake import forget_signed_name, table_requests, take_orders
from .outbox import enqueue
from .request import Handled, Request
from .retention import is_stranger
from .secrets import masked_raw, masked_text, password_values
from .stray import stray, which_game


class Reread(Exception):
    """The game changed between reading a mail and acting on it: read the mail again."""


@dataclass
class Reading:
    """What is read of a mail before the write lock is taken: its game and its parse."""

    inbound: Inbound
    #: Why the mail is refused unread ("" when it is read): too_big, too_many_parts, too_long.
    refused: str = ""
    #: The game the mail names (`Spiel:` line or `[name]` in the subject), if any.
    named: str | None = None
    #: Every value of a password line in the mail, right or wrong (masked in the stored mail).
    secret_values: set[str] = field(default_factory=set)
    #: The ids of the games the mail may be for, as found.
    game_ids: list[int] = field(default_factory=list)
    #: The one game's phase and stored state as read: the mail is acted on only if unchanged.
    snapshot: tuple[str, str] | None = None
    #: The mail parsed against the one game's board.
    parsed: ParsedMail | None = None
    #: What the mail says that needs no board (`scan_mail`: commands, password, game, name):
    #: all that is read of a mail before its password is found right.
    probe: ParsedMail | None = None
    #: The password checks made while reading, by (seat, hash): `handle` makes none again.
    checked: dict[tuple[int, str], bool] = field(default_factory=dict)
    #: The one game's state, decoded once.
    state: GameState | None = None
    #: The one game's state could not be read: the game is broken.
    fault: BaseException | None = None
    #: A mail from a GM address, as read for `gm_mail` (never a player's orders).
    gm: GmReading | None = None


def refusal_of(svc: Service, inbound: Inbound, truncated: bool) -> str:
    """Why a mail is refused unread: its size, its parts, its text."""
    if inbound.refused:
        return inbound.refused
    if truncated:
        return "too_big"
    if len(inbound.text.encode()) > svc.config.service.max_mail_kb * 1024:
        return "too_long"
    return ""


def read_mail(svc: Service, session: Session, mail: InboundMail, inbound: Inbound) -> Reading:
    """Everything about the mail that needs no write lock: its game, its parse. `session`
    only reads (see `store.db.reading`).

    A mail is read against its game's board only when its password is right: anything else
    (a stranger's mail, a wrong password, a command) costs a scan of the lines that need no
    board (`scan_mail`) and at most one game's password checks. Nobody who is not a player
    can make the intake slow for the players."""
    refused = refusal_of(svc, inbound, mail.truncated)
    reading = Reading(
        inbound, refused, secret_values=password_values(inbound.text, inbound.subject)
    )
    if refused:
        # A mail refused unread has no text: its kept bytes are searched instead.
        reading.secret_values |= password_values(mail.raw.decode("utf-8", "replace"))
    if inbound.no_reply:
        return reading
    if svc.config.service.is_gm(inbound.sender):
        reading.gm = gm_mail.read(svc, session, inbound, refused, reading.secret_values)
        return reading
    scan = ParsedMail() if refused else scan_mail(inbound.text, inbound.subject)
    if not refused and scan.confirm is None and not scan.password:
        implied = implied_confirm(session, inbound)
        if implied is not None:
            scan.confirm, scan.confirm_held = implied
    elif scan.confirm is not None and echoes_request(inbound):
        scan.confirm_held = "quoted"  # pbm's request pasted back: asked for, not taken
    reading.probe = scan
    reading.named = named_game(inbound, scan)
    games = meant(
        session, inbound, find_games(session, inbound, reading.named, scan), scan, reading.checked
    )
    reading.game_ids = [g.id or 0 for g in games]
    if len(games) != 1:
        return reading
    game = games[0]
    reading.snapshot = (game.phase, game.state)
    if game.broken or refused:
        return reading
    reading.parsed = scan
    seats = [p for p in players_of(session, game) if p.password_hash]
    found = scan.password and verified(
        seats, scan.password, inbound.sender, game.locale, reading.checked
    )
    if not found:
        return reading
    try:
        context, reading.state = parse_context(game, seats)
    except Exception as exc:  # the stored state cannot be read: the game is broken
        reading.fault = exc
        return reading
    reading.parsed = parse_mail(inbound.text, context, inbound.subject)
    return reading


def meant(
    session: Session,
    inbound: Inbound,
    games: list[Game],
    scan: ParsedMail,
    checked: dict[tuple[int, str], bool],
) -> list[Game]:
    """Of a player's several games, the one a mail that names none is for: the one whose
    seat of the sender its password opens (passwords are drawn per seat: it opens one), else
    the one whose open round it names (`Runde: 11`); all of them when neither tells one. One
    password check a game the sender sits in, no more (`checked` keeps them for `handle`)."""
    if len(games) < 2:
        return games
    if scan.password:
        opened = [
            g
            for g in games
            if verified(
                [p for p in players_of(session, g) if p.address == inbound.sender],
                scan.password,
                inbound.sender,
                g.locale,
                checked,
            )
        ]
        if len(opened) == 1:
            return opened
        games = opened or games
    if scan.round is not None:
        in_round = [g for g in games if g.phase == GamePhase.ROUNDS and g.round == scan.round]
        if len(in_round) == 1:
            return in_round
    return games


def handle(svc: Service, session: Session, mail: InboundMail, reading: Reading) -> Handled:
    """Act on one mail under the write lock: the game's name when orders for an open round
    came in, and whether they completed it. Raises `Reread` if the game changed since
    `reading` was made."""
    out = Handled(secrets=set(reading.secret_values))
    out.game = _handle(svc, session, mail, reading, out)
    # The mail's own row is changed here, after the work, so that it is written in one UPDATE
    # with its status (each query in between would flush a change made before it).
    # No password, right or wrong, labelled or only shaped like one, is kept in the stored
    # mail, whatever becomes of the mail. (In this transaction: a mail that fails and is
    # quarantined keeps its bytes for requeue, and a mail held for a broken game keeps them
    # until it is read.)
    if not out.held:
        raw = masked_raw(mail.raw, out.secrets, deep=not reading.refused)
        subject = masked_text(mail.subject, out.secrets)
        # A stranger's mail that gave no right password is kept only as far as it shows what
        # it was: nobody fills the database by sending megabytes (`retention.py`).
        kept = svc.config.service.no_password_kept_kb * 1024
        if not out.authenticated and len(raw) > kept and is_stranger(svc, session, mail):
            raw = raw[:kept]
        out.masked = raw != mail.raw or subject != mail.subject
        mail.raw, mail.subject = raw, subject
    if out.game_id is not None:
        mail.game_id = out.game_id
    return out


def _handle(
    svc: Service, session: Session, mail: InboundMail, reading: Reading, out: Handled
) -> str | None:
    inbound = reading.inbound
    if inbound.no_reply:
        mail.status = MailStatus.IGNORED
        mail.error = inbound.no_reply
        return None
    if reading.gm is not None:
        gm_mail.handle(svc, session, mail, inbound, reading.gm, out)
        return None
    assert reading.probe is not None
    found = find_games(session, inbound, reading.named, reading.probe, lock=True)
    games = meant(session, inbound, found, reading.probe, reading.checked)
    if [g.id for g in games] != reading.game_ids:
        raise Reread
    if len(games) != 1:
        if not games and stray(svc, session, mail, inbound, reading.named):
            return None
        if not games and reading.probe.password:
            # Orders from an address no game knows, naming no game: spoofing or a player
            # writing from elsewhere. Never answered (no backscatter, no game list).
            mail.error = "no game for this sender"
            return None
        which_game(svc, session, mail, inbound, games, reading.probe)
        return None
    # The game row is locked for the whole mail: a resolution or a signup by another worker
    # waits, so orders are never stored for a round that was resolved meanwhile.
    # (populate_existing: the row is read again under the lock, not taken from the session.)
    # A game the mail names was read so by `find_games` already.
    game = (
        games[0]
        if reading.named
        else session.exec(
            select(Game)
            .where(Game.id == games[0].id)
            .with_for_update()
            .execution_options(populate_existing=True)
        ).one()
    )
    if (game.phase, game.state) != reading.snapshot:
        raise Reread
    out.game_id = game.id
    if game.broken or reading.fault is not None:
        if reading.fault is not None and not game.broken:
            break_game(svc, session, game, reading.fault)
        out.held = True
        _hold(svc, session, mail, inbound, game)
        return None
    if reading.refused:
        r = Request(svc, session, mail, inbound, game, ParsedMail(), handled=out)
        r.refuse(answers.refused(game.locale, reading.refused, svc.config.service))
        return None
    assert reading.parsed is not None
    r = Request(
        svc,
        session,
        mail,
        inbound,
        game,
        reading.parsed,
        state=reading.state,
        handled=out,
        checked=reading.checked,
    )
    commands = list(r.parsed.commands)
    if r.parsed.confirm is not None:
        # The code answers a request: it comes first, before a `Beobachten` / `Anmeldung` the
        # subject of the thread repeats (`Re: Beobachten`), which would ask for a new one.
        commands = ["confirm", *(c for c in commands if c != "confirm")]
    # The questions (`Hilfe`, `Status`, `Mitspieler`, `Verlauf`) change nothing: every one the
    # mail asks is answered, each once and in a mail of its own, after what the mail does
    # (its orders, a command, a time zone). A mail cannot ask for more than these four.
    questions = list(dict.fromkeys(n for n in commands if n in BESIDE_ORDERS))
    # What may be done or answered before the password is known: a command that needs none,
    # and `Status` / `Mitspieler` in a mail that gives none (with a password they wait for it:
    # the player gets the seat's view, or is told the password is wrong).
    free = [
        n
        for n in commands
        if not COMMANDS[n].needs_password and not (n in PASSWORD_OPTIONAL and r.parsed.password)
    ]
    free_questions = [n for n in questions if n in free]
    action = next((n for n in free if n not in BESIDE_ORDERS), None)
    if action is not None:
        # A sign-up, an observation or a confirmation: done as the mail's one command (a seat's
        # orders beside it are not read), the questions answered after it.
        taken = COMMANDS[action].process(r)
        _answer_questions(r, free_questions)
        return taken
    r.player = authenticate(r)
    if r.player is None:
        # Not known to be the player: the questions that need no password are answered (the
        # help; without a password also the status and the roster, in their public form),
        # each counted toward the address's hourly answers, so a forged From costs its owner
        # no more. What needed the password (a question or a command) is answered by the
        # refusal of the password; beside questions alone it is not sent (no more answers to
        # a sender not known to be the player than the questions asked).
        _answer_questions(r, free_questions)
        if not free_questions or any(n not in free for n in commands):
            bad_password(r)
        return None
    out.authenticated = True
    r.player.failed_passwords = 0
    forget_signed_name(r)
    table_requests(r)
    # Left for a seat's right password: `Aufgeben`, `Ich bin zurück` and the questions.
    acts = list(dict.fromkeys(n for n in commands if n not in BESIDE_ORDERS))
    if len(acts) > 1:
        # `Aufgeben` and `Ich bin zurück` in one mail say opposite things: neither is done,
        # nor anything else of the mail that waits on them (its orders).
        _contradiction(r, acts)
        _answer_questions(r, questions)
        return None
    command = acts[0] if acts else None
    refused = r.parsed.has_refused()
    if command is not None:
        taken = COMMANDS[command].process(r)  # with orders, `Ich bin zurück` takes them too
    elif r.parsed.has_orders() or refused:
        # Orders, or lines refused (a time zone that is none, a typo): the answer lists every
        # line and what became of it, beside what else the mail did (its notes).
        taken = take_orders(r)
    elif r.notes or r.changed:
        # A message, an absence or a time zone alone: told what became of it (under "not
        # accepted" when nothing came of it: an absence for a day that has passed). An
        # absence recorded has its own confirmation (`away_own`), and no second answer.
        _tell_notes(r)
        taken = None
    elif not questions:
        taken = take_orders(r)  # the password alone: told that the mail held no order
    else:
        taken = None  # questions only: their answers say it all
    _answer_questions(r, questions)
    return taken


def _answer_questions(r: Request, questions: list[str]) -> None:
    """Each question of the mail answered in a mail of its own, in the order it was asked."""
    for name in questions:
        COMMANDS[name].process(r)


def _contradiction(r: Request, acts: list[str]) -> None:
    """The refusal of a mail that gives two commands that contradict each other."""
    assert r.player is not None
    words = [f'"{word(name, r.lang)}"' for name in acts]
    reason = texts.t(r.lang, "commands_contradict", first=words[0], second=words[1])
    r.refuse("\n\n".join([reason, *r.notes]), to=r.player.address)


def _tell_notes(r: Request) -> None:
    """The answer to a mail that did only what it notes (a message, an absence, a time zone)."""
    if r.notes:
        subject = "ok_subject" if r.changed else "error_subject"
        body = "\n".join(r.notes) + "\n"
        r.reply("ack", texts.t(r.lang, subject, game=r.game.name), body)


def _hold(svc: Service, session: Session, mail: InboundMail, inbound: Inbound, game: Game) -> None:
    """A mail for a broken game is kept (status held) and read again when the game resumes;
    a seated sender is told so."""
    mail.status = MailStatus.HELD
    mail.error = "game broken"
    registered = {p.address for p in players_of(session, game)}
    if inbound.sender in registered and may_answer(svc, session, inbound.sender):
        enqueue(
            svc,
            session,
            "held",
            [inbound.sender],
            texts.t(game.locale, "held_subject", game=game.name),
            texts.t(game.locale, "held_body", game=game.name),
            game_id=game.id,
            in_reply_to=inbound.message_id,
            lang=game.locale,
        )
