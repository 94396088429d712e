"""What a mail asks for: a command of the registry, or orders.

Like GNU Mailman's email commands, each command is a small object with its words, arguments,
description and a `process` function, so `Hilfe`/`Help` is generated from the registry. Every
mail gets at most one answer, queued in the mail's own transaction. Orders and player commands
need the player's password, whatever the From address says; answers that concern a seat go to
its registered address, never to an unknown sender.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, select

from pbm.mail.inbound import Inbound
from pbm.notation import Context, parse_mail
from pbm.notation.checks import check_receipt
from pbm.notation.clean import clean_lines
from pbm.notation.mail import ParsedMail
from pbm.reports import notices
from pbm.reports.guide_text import guide_for_mail
from pbm.rules.layouts import generate_board
from pbm.store.models import Game, InboundMail, Player

from . import answers, texts
from .context import Service
from .games import ServiceError, deadline_text, load_state, players_of, settings_of
from .limits import BAD_PASSWORD, bad_passwords_last_hour, may_answer
from .outbox import enqueue, notify
from .rounds import set_autopilot, submit_orders
from .secrets import masked_raw, verify_password
from .setup_phase import submit_setup
from .signup import join

_GAME_LINE = re.compile(r"^\s*(spiel|game)\s*[:=]\s*(?P<name>\S.*?)\s*$", re.IGNORECASE)
_SUBJECT_GAME = re.compile(r"\[(?P<name>[^\]]+)\]")


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

    @property
    def lang(self) -> str:
        return self.game.lang

    def _may_answer(self, address: str) -> bool:
        if not address or not may_answer(self.svc, self.session, address):
            self.mail.error = self.mail.error or "not answered: rate limit"
            return False
        return True

    def reply(self, kind: str, subject: str, body: str, to: str | None = None) -> None:
        """The one answer to this mail, as plain text (dropped when the address is over its
        hourly limit)."""
        address = to or self.inbound.sender
        if self._may_answer(address):
            enqueue(self.svc, self.session, kind, [address], subject, body,
                    game_id=self.game.id, in_reply_to=self.inbound.message_id)

    def answer(self, kind: str, subject: str, data: dict[str, Any], to: str | None = None,
               template: str = "") -> None:
        """The one answer to this mail, from `templates/<template or kind>`."""
        address = to or self.inbound.sender
        if self._may_answer(address):
            notify(self.svc, self.session, kind, [address], self.game, subject, data,
                   template=template, in_reply_to=self.inbound.message_id)

    def refuse(self, reason: str, to: str | None = None) -> None:
        """An error answer: why, and that nothing was changed."""
        self.answer("error", texts.t(self.lang, "error_subject", game=self.game.name),
                    notices.error(reason, self.lang), to=to)


@dataclass(frozen=True)
class MailCommand:
    name: str
    words: dict[str, str]
    args: dict[str, str]
    description: dict[str, str]
    needs_password: bool
    process: Callable[[Request], str | None]


def _join(r: Request) -> str | None:
    try:
        join(r.svc, r.session, r.game, r.inbound.sender, r.parsed.name or r.inbound.sender,
             r.parsed.colours, reply_to=r.inbound.message_id)
    except ServiceError as e:
        r.refuse(str(e))
    return None


def _help(r: Request) -> str | None:
    """The commands in short, then the whole player guide in the game's language."""
    orders = answers.ORDER_HELP[notices.lang_code(r.lang)]
    r.answer("help", texts.t(r.lang, "help_subject", game=r.game.name),
             notices.help_(r.lang, command_lines(r.lang), orders,
                           guide_for_mail(player_guide(r.lang))))
    return None


def player_guide(lang: str) -> str:
    from importlib.resources import files

    name = f"player-guide.{'en' if lang == 'en' else 'de'}.md"
    return files("pbm").joinpath("guides", name).read_text(encoding="utf-8")


def _status(r: Request) -> str | None:
    to = r.player.address if r.player else None
    r.reply("status", f"[{r.game.name}] Status",
            answers.status_body(r.session, r.game, r.player), to=to)
    return None


def _resign(r: Request) -> str | None:
    assert r.player is not None
    r.player.status = "resigned"
    set_autopilot(r.svc, r.session, r.game, r.player, True)
    return None


def _back(r: Request) -> str | None:
    assert r.player is not None
    if r.player.status == "resigned":
        r.player.status = "active"
    set_autopilot(r.svc, r.session, r.game, r.player, False)
    return _orders(r) if r.parsed.has_orders() else None


def _observe(r: Request) -> str | None:
    exists = r.session.exec(select(Player).where(
        Player.game_id == r.game.id, Player.address == r.inbound.sender)).first()
    if exists is None:
        r.session.add(Player(game_id=r.game.id or 0, address=r.inbound.sender,
                             name=r.inbound.sender, status="observer",
                             joined_at=r.svc.clock.now()))
    r.reply("ack", f"[{r.game.name}] OK", "Du bekommst ab jetzt die Berichte.\n"
            if r.lang == "de" else "You will get the reports from now on.\n")
    return None


REGISTRY: list[MailCommand] = [
    MailCommand("join", {"de": "Anmeldung", "en": "Join"},
                {"de": "Name: <Name>, Farben: <Farbe>, …", "en": "Name: <name>, Colours: …"},
                {"de": "an einem Spiel teilnehmen, das Mitspieler sucht",
                 "en": "join a game that is open for signup"}, False, _join),
    MailCommand("help", {"de": "Hilfe", "en": "Help"}, {"de": "", "en": ""},
                {"de": "diese Hilfe", "en": "this help"}, False, _help),
    MailCommand("status", {"de": "Status", "en": "Status"}, {"de": "", "en": ""},
                {"de": "Runde, Frist, ob deine Züge da sind (mit Kennwort: welche)",
                 "en": "round, deadline, whether your orders are in (with password: which)"},
                False, _status),
    MailCommand("resign", {"de": "Aufgeben", "en": "Resign"}, {"de": "", "en": ""},
                {"de": "aufgeben; der Autopilot spielt deinen Platz zu Ende",
                 "en": "resign; the autopilot plays your seat to the end"}, True, _resign),
    MailCommand("back", {"de": "Ich bin zurück", "en": "I'm back"}, {"de": "", "en": ""},
                {"de": "wieder selbst spielen (Autopilot aus)",
                 "en": "play yourself again (autopilot off)"}, True, _back),
    MailCommand("observe", {"de": "Beobachten", "en": "Observe"}, {"de": "", "en": ""},
                {"de": "die Berichte mitlesen", "en": "receive the reports"}, False, _observe),
]
COMMANDS = {c.name: c for c in REGISTRY}


def command_lines(lang: str) -> list[notices.CommandLine]:
    """The registry's commands for the help mail, in the game's language."""
    lang = notices.lang_code(lang)
    return [notices.CommandLine(c.words[lang], c.args[lang], c.description[lang],
                                c.needs_password) for c in REGISTRY]


# -- finding the game and the player ----------------------------------------------------------


def _named_game(inbound: Inbound, scan_chars: int) -> str | None:
    # Only the first `scan_chars` are read: a mail over the size limit is refused unread.
    for _, line in clean_lines(inbound.text[:scan_chars]):
        m = _GAME_LINE.match(line)
        if m:
            return m.group("name")
    m = _SUBJECT_GAME.search(inbound.subject)
    return m.group("name").strip() if m else None


def find_games(session: Session, inbound: Inbound, joining: Callable[[], bool],
               scan_chars: int) -> list[Game]:
    """The game the mail is for, or the candidates when it does not say and several fit.
    `joining()`: whether the mail asks to join (asked only when that decides)."""
    name = _named_game(inbound, scan_chars)
    if name:
        game = session.exec(select(Game).where(Game.name == name)).first()
        # A named game that does not exist is not guessed at: the answer lists the choices.
        return [game] if game is not None else []
    mine = {p.game_id for p in session.exec(select(Player).where(
        Player.address == inbound.sender, Player.status != "replaced"))}
    running = [g for g in session.exec(select(Game).where(Game.phase != "ended"))
               if g.id in mine]
    if running:
        return running
    if joining():
        return list(session.exec(select(Game).where(Game.phase == "signup")))
    return []


def _context(game: Game) -> Context:
    if game.state:
        state = load_state(game)
        phase = "setup" if game.phase == "setup" else "round"
        return Context(state.board, game.lang, state.colours, phase)
    return Context(generate_board(settings_of(game).size, game.seed), game.lang)


def _authenticate(r: Request) -> Player | None:
    if not r.parsed.password:
        return None
    candidates = [p for p in players_of(r.session, r.game) if p.password_hash]
    # The sender's own seat first: one hash check in the usual case.
    candidates.sort(key=lambda p: p.address != r.inbound.sender)
    for p in candidates:
        if verify_password(r.parsed.password, p.password_hash):
            return p
    return None


# -- the mail -----------------------------------------------------------------------------------


def handle(svc: Service, session: Session, mail: InboundMail, inbound: Inbound) -> str | None:
    """Act on one mail; returns the game's name when orders for an open round came in."""
    if inbound.no_reply:
        mail.status = "ignored"
        mail.error = inbound.no_reply
        return None
    too_big = len(inbound.text.encode()) > svc.config.max_mail_kb * 1024
    probed: list[ParsedMail] = []

    def probe() -> ParsedMail:
        """The mail read before its game is known (commands and password only matter), only
        when the game must be guessed: most mails name theirs or come from a player."""
        if not probed:
            probed.append(parse_mail("" if too_big else inbound.text,
                                     Context(generate_board("medium", 0)), inbound.subject))
        return probed[0]

    games = find_games(session, inbound, lambda: "join" in probe().commands,
                       svc.config.max_mail_kb * 1024)
    if len(games) != 1:
        if not games and probe().password:
            mail.raw = masked_raw(mail.raw, probe().password or "")
            # Orders from an address no game knows, naming no game: spoofing or a player
            # writing from elsewhere. Never answered (no backscatter, no game list).
            mail.error = "no game for this sender"
            return None
        _which_game(svc, session, mail, inbound, games)
        return None
    # The game row is locked for the whole mail: a resolution or a signup by another worker
    # waits, so orders are never stored for a round that was resolved meanwhile.
    # (populate_existing: the row is read again under the lock, not taken from the session.)
    game = session.exec(select(Game).where(Game.id == games[0].id).with_for_update()
                        .execution_options(populate_existing=True)).one()
    mail.game_id = game.id
    if too_big:
        r = Request(svc, session, mail, inbound, game, ParsedMail())
        r.refuse(answers.too_big(game.lang, svc.config.max_mail_kb))
        return None
    r = Request(svc, session, mail, inbound, game, parse_mail(inbound.text, _context(game),
                                                               inbound.subject))
    # No password, right or wrong, is kept in the stored mail. (In this transaction: a mail
    # that fails and is quarantined keeps its bytes for requeue.)
    r.mail.raw = masked_raw(r.mail.raw, r.parsed.password or "")
    for name in r.parsed.commands:
        command = COMMANDS[name]
        if not command.needs_password and not (name == "status" and r.parsed.password):
            return command.process(r)
    r.player = _authenticate(r)
    if r.player is None:
        _bad_password(r)
        return None
    for name in r.parsed.commands:
        if name != "status" or not r.parsed.has_orders():
            return COMMANDS[name].process(r)
    return _orders(r)


def _which_game(svc: Service, session: Session, mail: InboundMail, inbound: Inbound,
                games: list[Game]) -> None:
    if not may_answer(svc, session, inbound.sender):
        return
    if not games:
        # A stranger learns only the games open for signup, not who plays where.
        games = list(session.exec(select(Game).where(Game.phase == "signup")))
    names = ", ".join(g.name for g in games) or "-"
    enqueue(svc, session, "error", [inbound.sender], "pbm",
            f"Welches Spiel? Schreibe 'Spiel: <Name>'. In Frage kommen: {names}\n"
            f"Which game? Write 'Game: <name>'. Candidates: {names}\n",
            in_reply_to=inbound.message_id)


def _bad_password(r: Request) -> None:
    """Nothing changes. The answer goes only to an address registered in this game, and stops
    after five wrong passwords from it in an hour."""
    registered = {p.address for p in players_of(r.session, r.game)}
    sender = r.inbound.sender
    # Counted before this mail is marked: the first `bad_password_limit` are answered.
    earlier = bad_passwords_last_hour(r.svc, r.session, sender)
    r.mail.error = BAD_PASSWORD
    if sender not in registered or earlier >= r.svc.config.bad_password_limit:
        return
    r.refuse("Kennwort fehlt oder ist falsch." if r.lang == "de" else
             "The password is missing or wrong.")


def _orders(r: Request) -> str | None:
    assert r.player is not None
    game, lang, player = r.game, r.lang, r.player
    refuse = answers.refusal(r.svc, game, r.parsed)
    if refuse:
        r.refuse(refuse, to=player.address)
        return None
    if game.phase == "rounds":
        check_receipt(r.parsed, load_state(game), player.seat if player.seat is not None else 0,
                      game.lang)
    if not r.parsed.has_orders():
        # Nothing usable: earlier orders are not replaced by nothing (a mail of typos, or a
        # password line alone, must not wipe valid orders).
        r.answer("error", texts.t(lang, "error_subject", game=game.name),
                 notices.ack(r.parsed, r.inbound.text, lang, replaced=False,
                             round_=game.round if game.phase == "rounds" else None,
                             deadline=deadline_text(game), stored=False),
                 template="ack", to=player.address)
        return None
    if game.phase == "rounds":
        replaced = submit_orders(r.svc, r.session, game, player, r.parsed, r.inbound.text,
                                 r.mail)
        r.answer("ack", texts.t(lang, "ack_subject", game=game.name, round=game.round),
                 notices.ack(r.parsed, r.inbound.text, lang, replaced=replaced,
                             round_=game.round, deadline=deadline_text(game)),
                 to=player.address)
        return game.name
    replaced, step = submit_setup(r.svc, r.session, game, player, r.parsed, r.inbound.text,
                                  r.mail)
    if step is None:
        r.refuse("Du hast alle deine Siedlungen der Aufstellung gesetzt." if lang == "de" else
                 "You have placed all your setup settlements.", to=player.address)
        return None
    r.answer("ack", texts.t(lang, "setup_ack_subject", game=game.name),
             notices.ack(r.parsed, r.inbound.text, lang, replaced=replaced, round_=None,
                         deadline=deadline_text(game)), to=player.address)
    return None
