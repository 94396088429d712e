"""What a mail asks for: a command of the registry, or orders.

Like GNU Mailman's email commands, each command is a small object with its words, arguments,
description and a `process` function, so `Hilfe`/`Help` is generated from the registry. Every
mail gets at most one answer, queued in the mail's own transaction. Orders and player commands
need the player's password, whatever the From address says; answers that concern a seat go to
its registered address, never to an unknown sender.

A mail is read in two steps (see `ingest.process_mail`): `read_mail` finds its game and parses
it without the write lock; `handle` then acts on it under the lock, after checking that the
game is still as it was read (else the mail is read again: `Reread`).
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session, col, select

from pbm.i18n import N_, translator
from pbm.mail.inbound import Inbound
from pbm.notation import Context, parse_mail
from pbm.notation.checks import check_receipt, check_setup_receipt
from pbm.notation.format import word
from pbm.notation.mail import ParsedMail, scan_mail
from pbm.reports import notices
from pbm.reports.guide_text import player_guide as player_guide  # kept importable from here
from pbm.rules.layouts import generate_board
from pbm.rules.state import GameState
from pbm.store.models import Game, InboundMail, Player
from pbm.store.statuses import OBSERVING, PENDING, GamePhase, MailStatus, PlayerStatus

from . import answers, gm_mail, texts
from .broken import break_game
from .context import Service
from .games import (
    GAME_NAME,
    ServiceError,
    load_state,
    observers_of,
    players_of,
    settings_of,
)
from .gm_mail import GmReading
from .limits import BAD_PASSWORD, bad_passwords_last_hour, may_answer
from .outbox import enqueue, notify
from .retention import is_stranger
from .rounds import ready, set_autopilot, submit_orders
from .secrets import (
    MASK,
    Masker,
    colour_tag,
    hash_password,
    masked_data,
    masked_raw,
    masked_text,
    needs_rehash,
    password_values,
    verify_password,
)
from .setup_phase import setup_outcome, submit_setup
from .signup import confirm_join, password_word, request_join
from .table import local_deadline, roster_rows

#: Commands that need no password but say more to a player who gives the right one.
_PASSWORD_OPTIONAL = ("status", "players")

#: A game name is never longer than this; a longer value names no game.
GAME_NAME_MAX = 100
#: The commands a pending request (`PENDING`) routes to its game when the mail names none.
_ABOUT_REQUESTS = frozenset({"join", "observe", "unobserve"})
#: Checks a mail may cost at most: the seats of one game (a game has at most six).
MAX_PASSWORD_CHECKS = 6


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


@dataclass
class Handled:
    """What became of a mail under the write lock."""

    #: The game whose open round got orders from the mail, if any.
    game: str | None = None
    #: Those orders made the round complete (all in, read in the mail's own transaction) and
    #: the game resolves early: the caller resolves it now (`tick.resolve_if_ready`, which
    #: checks again under the lock). A round completed otherwise is found by the clock.
    complete: bool = False
    #: The game the mail was found to be for (`InboundMail.game_id`).
    game_id: int | None = None
    #: Held for a broken game: its bytes stay as they came (read again when it resumes).
    held: bool = False
    #: The mail gave a seat's right password.
    authenticated: bool = False
    #: The password values of the mail (its password lines', right or wrong) and every value
    #: masked in what pbm made of it (`Request.masked`): none stays in the stored mail.
    secrets: set[str] = field(default_factory=set)
    #: The stored mail was changed (masked, or cut): its bytes as they came are in SQLite's
    #: WAL until `store.db.scrub` (the caller's to call, once the transaction is committed).
    masked: bool = False


@dataclass
class Request:
    """One mail being handled: what every command's `process` gets."""

    svc: Service
    session: Session
    mail: InboundMail
    inbound: Inbound
    game: Game
    parsed: ParsedMail
    player: Player | None = None
    #: The game's state as read with the mail (unchanged under the lock), if it has one.
    state: GameState | None = None
    #: What the mail did besides orders (a message sent, an absence, a time zone), for the
    #: answer.
    notes: list[str] = field(default_factory=list)
    handled: Handled = field(default_factory=Handled)
    #: Password checks already made for this mail (`Reading.checked`).
    checked: dict[tuple[int, str], bool] = field(default_factory=dict)
    _seated: list[Player] | None = None
    _lang: str = ""
    _masker: Masker | None = None

    @property
    def lang(self) -> str:
        # The game's language and edition do not change while a mail is handled.
        if not self._lang:
            self._lang = self.game.locale
        return self._lang

    def seated(self) -> list[Player]:
        """The game's seated players (`players_of`), read once per mail: nothing a mail does
        changes who sits where (a signup reads them itself), and the rows are the session's
        own objects, so changes made to them (the autopilot, an absence) are seen."""
        if self._seated is None:
            self._seated = players_of(self.session, self.game)
        return self._seated

    def masked(self, text: str, stored: bool = False) -> str:
        """The mail's text (or a part of it) without any password (`secrets.Masker`): ****
        where it is `stored`, else a note in the game's language where a password stood.
        One masker a mail: its hash checks are counted and remembered across the texts."""
        if self._masker is None:
            seats = {
                password_word(p.colour, self.lang): p.password_hash
                for p in self.seated()
                if p.colour and p.password_hash
            }
            known = {*self.handled.secrets, self.parsed.password or ""}
            self._masker = Masker(known, seats, found=self.handled.secrets)
        mark = MASK if stored else texts.t(self.lang, "password_removed")
        return self._masker.text(text, mark)

    def _may_answer(self, address: str) -> bool:
        if self.player is not None and address == self.player.address:
            # A mail with the seat's right password is always answered: forged mails that
            # use up an address's hourly answers cannot silence the player.
            return True
        if not address or not may_answer(self.svc, self.session, address):
            self.mail.error = self.mail.error or "not answered: rate limit"
            return False
        return True

    def reply(self, kind: str, subject: str, body: str, to: str | None = None) -> None:
        """The one answer to this mail, as plain text (dropped when the address is over its
        hourly limit)."""
        address = to or self.inbound.sender
        if self._may_answer(address):
            enqueue(
                self.svc,
                self.session,
                kind,
                [address],
                subject,
                body,
                game_id=self.game.id,
                in_reply_to=self.inbound.message_id,
                limited=self.player is None,
            )

    def answer(
        self,
        kind: str,
        subject: str,
        data: dict[str, Any],
        to: str | None = None,
        template: str = "",
    ) -> None:
        """The one answer to this mail, from `templates/<template or kind>`. An
        acknowledgement or an error quotes the mail: its data is masked."""
        address = to or self.inbound.sender
        if kind in ("ack", "error"):
            data = masked_data(data, self.masked)
        if self._may_answer(address):
            notify(
                self.svc,
                self.session,
                kind,
                [address],
                self.game,
                subject,
                data,
                template=template,
                in_reply_to=self.inbound.message_id,
                limited=self.player is None,
            )

    def refuse(self, reason: str, to: str | None = None) -> None:
        """An error answer: why, and that nothing was changed (and that a forwarded mail in
        this one was not read: the password or orders the player meant may stand there)."""
        if self.parsed.forwarded:
            reason = f"{reason}\n\n{forwarded_not_read(self.lang)}"
        self.answer(
            "error",
            texts.t(self.lang, "error_subject", game=self.game.name),
            notices.error(reason, self.lang),
            to=to,
        )


@dataclass(frozen=True)
class MailCommand:
    """A command players write; its word in each language is the order word `name`
    (`notation.format.word`), its arguments and description are English msgids."""

    name: str
    args: str
    description: str
    needs_password: bool
    process: Callable[[Request], str | None]


def _join(r: Request) -> str | None:
    """A sign-up by mail is a request: the seat is taken only when the address confirms with
    the token mailed to it (`_confirm`); a forged From costs the victim one mail."""
    if r.parsed.confirm is not None:
        # A reply that quotes `Anmeldung` beside its `Bestätigen:` line confirms.
        return _confirm(r)
    try:
        pending = request_join(
            r.svc,
            r.session,
            r.game,
            r.inbound.sender,
            r.parsed.name or "",
            r.parsed.colours,
        )
    except ServiceError as e:
        r.refuse(str(e))
        return None
    r.answer(
        "signup_confirm",
        texts.t(r.lang, "signup_confirm_subject", game=r.game.name),
        notices.signup_confirm(r.lang, pending.confirm_token),
    )
    return None


def _help(r: Request) -> str | None:
    """A short overview for this game's kind, or the chapter of the player guide the mail
    names (`Hilfe Schiffe`), or the whole guide (`Hilfe alles`): `service.help`."""
    from .help import help_answer

    data = help_answer(r.game, r.state, r.parsed.help_topic, command_lines(r.lang))
    r.answer("help", texts.t(r.lang, "help_subject", game=r.game.name), data)
    return None


def _status(r: Request) -> str | None:
    to = r.player.address if r.player else None
    r.reply(
        "status",
        texts.t(r.lang, "status_subject", game=r.game.name),
        answers.status_body(r.session, r.game, r.player, r.svc.clock.now()),
        to=to,
    )
    return None


def _players(r: Request) -> str | None:
    """Who plays whom: colours and names, and the addresses for a player who gave the password
    (never in an anonymous game, never to a stranger)."""
    if r.game.phase == GamePhase.SIGNUP:
        r.refuse(texts.t(r.lang, "no_roster_yet"))
        return None
    to = r.player.address if r.player else None
    r.answer(
        "players",
        texts.t(r.lang, "players_subject", game=r.game.name),
        notices.players_(
            r.lang, roster_rows(r.session, r.game, addresses=r.player is not None), r.game.anonymous
        ),
        to=to,
    )
    return None


#: Reports a `Verlauf` answer holds when no archive is on the web.
HISTORY_REPORTS = 3


def _history(r: Request) -> str | None:
    """The past rounds: links into the web archive when `[archive] url` is set, else the last
    `HISTORY_REPORTS` reports as one mail."""
    from .history import history_body

    assert r.player is not None
    r.reply(
        "history",
        texts.t(r.lang, "history_subject", game=r.game.name),
        history_body(r.svc, r.session, r.game, HISTORY_REPORTS),
        to=r.player.address,
    )
    return None


def _resign(r: Request) -> str | None:
    assert r.player is not None
    r.player.status = PlayerStatus.RESIGNED
    set_autopilot(r.svc, r.session, r.game, r.player, True, why="resigned")
    return None


def _back(r: Request) -> str | None:
    assert r.player is not None
    if r.player.status == PlayerStatus.RESIGNED:
        r.player.status = PlayerStatus.ACTIVE
    was_away = r.player.away_until is not None and r.player.away_until > r.svc.clock.now()
    if was_away:
        from .absence import announce_back

        announce_back(r.svc, r.session, r.game, r.player)
    # An absence ends with the player's return (`Urlaub bis …` is then forgotten).
    r.player.away_until = None
    if not r.player.autopilot and was_away and not r.parsed.has_orders():
        r.reply(
            "ack",
            texts.t(r.lang, "ok_subject", game=r.game.name),
            translator(r.lang).gettext("Welcome back: your absence is over.") + "\n",
        )
    set_autopilot(r.svc, r.session, r.game, r.player, False)
    return _orders(r) if r.parsed.has_orders() else None


def _observe(r: Request) -> str | None:
    """Observing needs the observing address's own word: a token goes to it, and only a mail
    back with `Bestätigen: TOKEN` makes it an observer (nobody can sign up someone else)."""
    if any(p.address == r.inbound.sender for p in r.seated()):
        r.refuse(texts.t(r.lang, "observe_seated"))
        return None
    here = next((p for p in observers_of(r.session, r.game) if p.address == r.inbound.sender), None)
    if here is not None and here.status == PlayerStatus.OBSERVER:
        r.reply(
            "ack",
            texts.t(r.lang, "ok_subject", game=r.game.name),
            texts.t(r.lang, "observe_already"),
        )
        return None
    token = secrets.token_hex(6)
    if here is None:
        here = Player(
            game_id=r.game.id or 0,
            address=r.inbound.sender,
            name=r.inbound.sender,
            status=PlayerStatus.OBSERVER_PENDING,
            joined_at=r.svc.clock.now(),
        )
        r.session.add(here)
    here.confirm_token = token
    r.reply(
        "observe_confirm",
        texts.t(r.lang, "observe_confirm_subject", game=r.game.name),
        texts.t(r.lang, "observe_confirm_body", game=r.game.name, token=token),
    )
    return None


def _confirm(r: Request) -> str | None:
    """`Bestätigen: CODE` from the address itself completes what it asked for in this game: a
    pending observation or a pending sign-up (`PENDING`), whichever the code belongs to."""
    pending = r.session.exec(
        select(Player).where(
            Player.game_id == r.game.id,
            Player.address == r.inbound.sender,
            col(Player.status).in_(PENDING),
        )
    ).all()
    token = (r.parsed.confirm or "").strip().lower().encode()
    match = next(
        (
            p
            for p in pending
            if p.confirm_token and hmac.compare_digest(token, p.confirm_token.encode())
        ),
        None,
    )
    if match is None:
        r.refuse(texts.t(r.lang, "confirm_bad_token", game=r.game.name))
        return None
    if match.status == PlayerStatus.SIGNUP_PENDING:
        try:
            confirm_join(
                r.svc,
                r.session,
                r.game,
                match,
                r.parsed.name or "",
                r.parsed.colours,
                reply_to=r.inbound.message_id,
            )
        except ServiceError as e:
            r.refuse(str(e))
        return None
    match.status = PlayerStatus.OBSERVER
    match.confirm_token = ""
    r.reply(
        "ack", texts.t(r.lang, "ok_subject", game=r.game.name), texts.t(r.lang, "observe_confirmed")
    )
    return None


def _unobserve(r: Request) -> str | None:
    row = r.session.exec(
        select(Player).where(
            Player.game_id == r.game.id,
            Player.address == r.inbound.sender,
            col(Player.status).in_(OBSERVING),
        )
    ).first()
    if row is None:
        r.refuse(texts.t(r.lang, "observe_not"))
        return None
    r.session.delete(row)
    r.reply(
        "ack", texts.t(r.lang, "ok_subject", game=r.game.name), texts.t(r.lang, "observe_stopped")
    )
    return None


REGISTRY: list[MailCommand] = [
    MailCommand(
        "join",
        N_("Name: <name>, Colours: …"),
        N_("join a game that is open for signup"),
        False,
        _join,
    ),
    MailCommand("help", "", N_("this help"), False, _help),
    MailCommand(
        "status",
        "",
        N_("round, deadline, whether your orders are in (with password: which)"),
        False,
        _status,
    ),
    MailCommand(
        "players",
        "",
        N_("who plays which colour (with password: their addresses, unless anonymous)"),
        False,
        _players,
    ),
    MailCommand(
        "history",
        "",
        N_("the past rounds: links to the game's web archive, or the last reports"),
        True,
        _history,
    ),
    MailCommand(
        "resign", "", N_("resign; the autopilot plays your seat to the end"), True, _resign
    ),
    MailCommand("back", "", N_("play yourself again (autopilot off)"), True, _back),
    MailCommand(
        "observe", "", N_("receive the reports (after a confirmation by mail)"), False, _observe
    ),
    MailCommand(
        "confirm",
        N_("Confirm: <code from the mail>"),
        N_("confirm a signup or observing"),
        False,
        _confirm,
    ),
    MailCommand("unobserve", "", N_("stop receiving the reports"), False, _unobserve),
]
COMMANDS = {c.name: c for c in REGISTRY}


def command_lines(lang: str) -> list[notices.CommandLine]:
    """The registry's commands for the help mail, in the game's language."""
    _ = translator(lang).gettext
    return [
        notices.CommandLine(
            word(c.name, lang), _(c.args) if c.args else "", _(c.description), c.needs_password
        )
        for c in REGISTRY
    ]


# -- finding the game and the player ----------------------------------------------------------


def _named_game(inbound: Inbound, scan: ParsedMail) -> str | None:
    """The game a mail names: its first `Spiel:` line (as scanned), else a `[name]` in the
    subject."""
    name = scan.game or _bracketed(inbound.subject).strip()
    return name if name and len(name) <= GAME_NAME_MAX else None


def _bracketed(subject: str) -> str:
    """The first non-empty `[…]` of a subject (as `[game] Re: …`), found with `find` in one
    pass: a subject of many `[` costs no more than its length."""
    start = subject.find("[")
    while start >= 0:
        end = subject.find("]", start + 1)
        if end < 0:
            return ""
        if end > start + 1:
            return subject[start + 1 : end]
        start = subject.find("[", end + 1)
    return ""


def find_games(
    session: Session,
    inbound: Inbound,
    named: str | None,
    scan: ParsedMail,
    lock: bool = False,
) -> list[Game]:
    """The game the mail is for, or the candidates when it does not say and several fit.
    `scan`: what the mail says that needs no board (a mail that asks to join, naming no
    game, is for the games open for signup). `lock`: a game the mail names is read again
    and locked (`FOR UPDATE`), as `handle` needs it."""
    if named:
        query = select(Game).where(Game.name == named)
        if lock:
            query = query.with_for_update().execution_options(populate_existing=True)
        game = session.exec(query).first()
        # A named game that does not exist is not guessed at: the answer lists the choices.
        return [game] if game is not None else []
    rows = session.exec(
        select(Player.game_id, Player.status).where(
            Player.address == inbound.sender, Player.status != PlayerStatus.REPLACED
        )
    ).all()
    mine = {game_id for game_id, status in rows if status not in PENDING}
    # A request not yet confirmed (which a forged From can make) takes only the mails about
    # it: the address's other mails are not drawn into that game.
    asked = {game_id for game_id, status in rows if status in PENDING}
    games = [
        g
        for g in session.exec(
            select(Game).where(Game.phase != GamePhase.ENDED).order_by(col(Game.id))
        )
        if g.id in mine or g.id in asked
    ]
    running = [g for g in games if g.id in mine]
    if running:
        return running
    if asked and (scan.confirm is not None or _ABOUT_REQUESTS.intersection(scan.commands)):
        return [g for g in games if g.id in asked]
    if "join" in scan.commands:
        query = select(Game).where(Game.phase == GamePhase.SIGNUP).order_by(col(Game.id))
        return list(session.exec(query))
    return []


def _context(game: Game) -> tuple[Context, GameState | None]:
    if game.state:
        state = load_state(game)
        phase = "setup" if game.phase == GamePhase.SETUP else "round"
        return Context(state.board, game.locale, state.colours, phase), state
    if game.layout == "beginner":
        from pbm.rules.beginner import beginner_board

        return Context(beginner_board(), game.locale), None
    settings = settings_of(game)
    if settings.kronlande:
        # Before the seats are drawn: the Kronlande island of the seed (quarries, fishing
        # grounds), so that its words and hexes are read already.
        from pbm.rules.state import board_for

        return Context(board_for(settings, game.seed), game.locale), None
    return Context(generate_board(settings.size, game.seed), game.locale), None


def refusal_of(svc: Service, inbound: Inbound, truncated: bool) -> str:
    """Why a mail is refused unread: its size, its parts, its text."""
    if inbound.refused:
        return inbound.refused
    if truncated:
        return "too_big"
    if len(inbound.text.encode()) > svc.config.max_mail_kb * 1024:
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
    if svc.config.is_gm(inbound.sender):
        reading.gm = gm_mail.read(svc, session, inbound, refused, reading.secret_values)
        return reading
    scan = ParsedMail() if refused else scan_mail(inbound.text, inbound.subject)
    reading.probe = scan
    reading.named = _named_game(inbound, scan)
    games = find_games(session, inbound, reading.named, scan)
    reading.game_ids = [g.id or 0 for g in games]
    if len(games) != 1:
        return reading
    game = games[0]
    reading.snapshot = (game.phase, game.state)
    if game.broken or refused:
        return reading
    reading.parsed = scan
    seats = [p for p in players_of(session, game) if p.password_hash]
    found = scan.password and _verified(
        seats, scan.password, inbound.sender, game.locale, reading.checked
    )
    if not found:
        return reading
    try:
        context, reading.state = _context(game)
    except Exception as exc:  # the stored state cannot be read: the game is broken
        reading.fault = exc
        return reading
    reading.parsed = parse_mail(inbound.text, context, inbound.subject)
    return reading


def seat_candidates(seats: list[Player], password: str, sender: str, lang: str) -> list[Player]:
    """The seats a password may be for: the one its colour names, else every seat with a
    password (the sender's first). At most `MAX_PASSWORD_CHECKS`."""
    seats = [p for p in seats if p.password_hash]
    tag = colour_tag(password)
    named = [p for p in seats if p.colour and password_word(p.colour, lang) == tag]
    if named:
        return named[:1]
    seats.sort(key=lambda p: p.address != sender)
    return seats[:MAX_PASSWORD_CHECKS]


def _verified(
    seats: list[Player],
    password: str,
    sender: str,
    lang: str,
    checked: dict[tuple[int, str], bool],
) -> Player | None:
    """The seat the password is right for, if any. `checked`: outcomes by (seat, hash), kept
    from the mail's first read so that its handling checks no hash twice (a wrong guess is
    costly by design: it is never remembered beyond the mail)."""
    for p in seat_candidates(seats, password, sender, lang):
        key = (p.id or 0, p.password_hash)
        if key not in checked:
            checked[key] = verify_password(password, p.password_hash)
        if checked[key]:
            return p
    return None


def _authenticate(r: Request) -> Player | None:
    if not r.parsed.password:
        return None
    p = _verified(r.seated(), r.parsed.password, r.inbound.sender, r.lang, r.checked)
    if p is not None and needs_rehash(p.password_hash):
        # An old format or cost, upgraded while the password is at hand (this mail's
        # transaction: a mail that is read again does it again).
        p.password_hash = hash_password(r.parsed.password)
    return p


# -- the mail -----------------------------------------------------------------------------------


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
        kept = svc.config.no_password_kept_kb * 1024
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
    games = find_games(session, inbound, reading.named, reading.probe, lock=True)
    if [g.id for g in games] != reading.game_ids:
        raise Reread
    if len(games) != 1:
        if not games and _stray(svc, session, mail, inbound, reading.named):
            return None
        if not games and reading.probe.password:
            # Orders from an address no game knows, naming no game: spoofing or a player
            # writing from elsewhere. Never answered (no backscatter, no game list).
            mail.error = "no game for this sender"
            return None
        _which_game(svc, session, mail, inbound, games)
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
        r.refuse(answers.refused(game.locale, reading.refused, svc.config))
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
    if r.parsed.confirm is not None and "confirm" not in commands:
        commands.append("confirm")
    for name in commands:
        command = COMMANDS[name]
        if not command.needs_password and not (name in _PASSWORD_OPTIONAL and r.parsed.password):
            return command.process(r)
    r.player = _authenticate(r)
    if r.player is None:
        _bad_password(r)
        return None
    out.authenticated = True
    r.player.failed_passwords = 0
    _table_requests(r)
    for name in commands:
        if name not in _PASSWORD_OPTIONAL or not r.parsed.has_orders():
            return COMMANDS[name].process(r)
    if r.notes and not r.parsed.has_orders():
        # A message, an absence or a time zone alone: told what became of it.
        r.reply("ack", texts.t(r.lang, "ok_subject", game=r.game.name), "\n".join(r.notes) + "\n")
        return None
    return _orders(r)


def _on_turn(r: Request, player: Player) -> bool:
    """Whether it is the player's turn to place in the setup now."""
    from pbm.rules.setup import setup_player

    state = r.state or load_state(r.game)
    return player.seat is not None and setup_player(state) == player.seat


def forwarded_not_read(lang: str) -> str:
    """Said in the answer to a mail whose reading stopped at a forwarded mail."""
    _ = translator(lang).gettext
    return _(
        "A forwarded mail in yours was not read (it may be a report or another player's "
        "mail): write your orders in the mail itself, or paste them above the forwarded part."
    )


def _table_requests(r: Request) -> None:
    """A time zone, an absence and a message (issue 15), done before the orders; each adds a
    line to the answer (`Request.notes`)."""
    from .absence import set_away
    from .press import send_press

    assert r.player is not None
    _ = translator(r.lang).gettext
    if r.parsed.timezone is not None:
        r.player.timezone = r.parsed.timezone
        r.notes.append(
            _("Your time zone: {zone}. Deadlines in mails to you alone are shown in it.").format(
                zone=r.parsed.timezone
            )
        )
    over = r.game.phase == GamePhase.ENDED
    if over and (r.parsed.away is not None or r.parsed.press is not None):
        # The game is over: nobody is told of an absence, no message is forwarded.
        r.notes.append(_("This game has ended: nothing was sent."))
        return
    if r.parsed.away is not None:
        r.notes.append(set_away(r.svc, r.session, r.game, r.player, r.parsed.away))
    if r.parsed.press is not None:
        text = r.masked(r.parsed.press_text)
        r.notes.append(send_press(r.svc, r.session, r.game, r.player, r.parsed.press, text))
        if text != r.parsed.press_text:
            r.notes.append(texts.t(r.lang, "password_removed_note"))


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
        )


#: What a game's name can look like when a stray mail's answer repeats it: what
#: `pbm game create` accepts.
_PLAUSIBLE_NAME = GAME_NAME


def _stray(
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
        if not _PLAUSIBLE_NAME.fullmatch(named):
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
    open_games = ", ".join(
        g.name for g in session.exec(select(Game).where(Game.phase == GamePhase.SIGNUP))
    )
    lines = texts.in_every_language(key, **values)
    lines += texts.in_every_language("how_to_join", names=open_games or "-")
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


def _which_game(
    svc: Service, session: Session, mail: InboundMail, inbound: Inbound, games: list[Game]
) -> None:
    if not may_answer(svc, session, inbound.sender):
        return
    if not games:
        # A stranger learns only the games open for signup (and how to join them), not who
        # plays where.
        games = list(session.exec(select(Game).where(Game.phase == GamePhase.SIGNUP)))
        names = ", ".join(g.name for g in games) or "-"
        lines = texts.in_every_language("how_to_join", names=names)
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


def _accused_seat(r: Request) -> Player | None:
    """The seat a wrong password was tried on: the one its colour names, else the sender's."""
    seats = r.seated()
    tag = colour_tag(r.parsed.password or "")
    for p in seats:
        if p.colour and p.password_hash and password_word(p.colour, r.lang) == tag:
            return p
    return next((p for p in seats if p.address == r.inbound.sender and p.password_hash), None)


def _alert_due(failures: int, first: int) -> bool:
    """At `first` wrong passwords, at twice and at four times as many, then no more until a
    right password starts the count again: three alerts, however long the guessing goes on."""
    return first > 0 and failures in (first, 2 * first, 4 * first)


def _bad_password(r: Request) -> None:
    """Nothing changes. The seat's failures are counted (the player and the GM are told when
    they pile up; the player is never locked out). The answer goes only to an address
    registered in this game, and stops after five wrong passwords from it in an hour."""
    seat = _accused_seat(r) if r.parsed.password else None
    if seat is not None:
        seat.failed_passwords += 1
        if _alert_due(seat.failed_passwords, r.svc.config.password_alert_after):
            _password_alert(r, seat)
    registered = {p.address for p in r.seated()}
    sender = r.inbound.sender
    # Counted before this mail is marked: the first `bad_password_limit` are answered.
    earlier = bad_passwords_last_hour(r.svc, r.session, sender)
    r.mail.error = BAD_PASSWORD
    if sender not in registered and _was_replaced(r) and earlier < r.svc.config.bad_password_limit:
        # A player whose seat went to someone else learns why nothing counts (issue 15).
        r.refuse(texts.t(r.lang, "seat_replaced", games=r.game.name))
        return
    if sender not in registered or earlier >= r.svc.config.bad_password_limit:
        return
    r.refuse(texts.t(r.lang, "bad_password"))


def _was_replaced(r: Request) -> bool:
    return (
        r.session.exec(
            select(Player).where(
                Player.game_id == r.game.id,
                Player.address == r.inbound.sender,
                Player.status == PlayerStatus.REPLACED,
            )
        ).first()
        is not None
    )


def _password_alert(r: Request, seat: Player) -> None:
    from pbm.notation import vocab

    colour = vocab.colour_name(seat.colour or "", r.lang)
    subject = texts.t(r.lang, "password_alert_subject", game=r.game.name, colour=colour)
    body = texts.t(
        r.lang, "password_alert_body", game=r.game.name, colour=colour, count=seat.failed_passwords
    )
    if seat.failed_passwords == 4 * r.svc.config.password_alert_after:
        body += texts.t(r.lang, "password_alert_last")
    to = [seat.address, *r.svc.config.gm_inbox]
    for address in to:
        enqueue(
            r.svc,
            r.session,
            "password_alert",
            [address],
            subject,
            body,
            game_id=r.game.id,
            limited=False,
        )


def _orders(r: Request) -> str | None:
    assert r.player is not None
    game, lang, player = r.game, r.lang, r.player
    refuse = answers.refusal(game, r.parsed, r.mail.received_at)
    if refuse:
        r.refuse(refuse, to=player.address)
        return None
    if r.parsed.forwarded:
        r.notes.append(forwarded_not_read(lang))
    setup = game.phase == GamePhase.SETUP
    if setup or game.phase == GamePhase.ROUNDS:
        # What can never be carried out is refused now, with its reason, rather than found
        # out when the round resolves or the player's setup turn comes.
        check = check_setup_receipt if setup else check_receipt
        seat = player.seat if player.seat is not None else 0
        check(r.parsed, r.state or load_state(game), seat, game.locale)
    if not r.parsed.has_orders() or (setup and not r.parsed.setup_orders().placements):
        # Nothing usable: earlier orders are not replaced by nothing (a mail of typos, or a
        # password line alone, must not wipe valid orders; in the setup only a placement is
        # of use, so a discard or trade line alone is nothing either).
        if setup and _on_turn(r, player):
            r.notes.append(
                translator(lang)
                .gettext("It is your turn in the setup: send a placement by {deadline}.")
                .format(deadline=local_deadline(game, player))
            )
        r.answer(
            "error",
            texts.t(lang, "error_subject", game=game.name),
            notices.ack(
                r.parsed,
                r.inbound.text,
                lang,
                replaced=False,
                round_=game.round if game.phase == GamePhase.ROUNDS else None,
                deadline=local_deadline(game, player),
                stored=False,
                notes=r.notes,
            ),
            template="ack",
            to=player.address,
        )
        return None
    if game.phase == GamePhase.ROUNDS:
        sent: set[int] = set()
        text = r.masked(r.inbound.text, stored=True)
        replaced = submit_orders(r.svc, r.session, game, player, r.parsed, text, r.mail, sent=sent)
        # Whether these orders completed the round, from the orders just read: the caller
        # resolves only then (no further transaction for the mails that leave it open).
        r.handled.complete = (
            game.early_resolve
            and not game.paused
            and ready(r.session, game, r.svc.clock.now(), r.seated(), sent)
        )
        r.answer(
            "ack",
            texts.t(lang, "ack_subject", game=game.name, round=game.round),
            notices.ack(
                r.parsed,
                r.inbound.text,
                lang,
                replaced=replaced,
                round_=game.round,
                deadline=local_deadline(game, player),
                notes=r.notes,
            ),
            to=player.address,
        )
        return game.name
    text = r.masked(r.inbound.text, stored=True)
    before = load_state(game)
    replaced, step = submit_setup(r.svc, r.session, game, player, r.parsed, text, r.mail)
    if step is None:
        r.refuse(texts.t(lang, "all_placed"), to=player.address)
        return None
    placed, failed = setup_outcome(game, before, player.seat or 0, step)
    r.answer(
        "ack",
        texts.t(lang, "setup_ack_subject", game=game.name),
        notices.ack(
            r.parsed,
            r.inbound.text,
            lang,
            replaced=replaced,
            round_=None,
            deadline=local_deadline(game, player),
            notes=r.notes,
            placed=placed,
            setup_failed=failed,
        ),
        to=player.address,
    )
    return None
