"""What a mail asks for: a command (join, help, status, resign, back, observe) or orders.

Every answer goes into the outbox in the mail's own transaction. Orders and player commands
need the player's password, whatever the From address says; answers about a player's orders go
to the player's registered address.
"""

from __future__ import annotations

import re

from sqlmodel import Session, select

from pbm.mail.inbound import Inbound
from pbm.notation import Context, parse_mail
from pbm.notation.checks import check_receipt
from pbm.notation.clean import clean_lines
from pbm.notation.mail import ParsedMail
from pbm.rules.layouts import generate_board
from pbm.store.models import Game, InboundMail, Player

from . import texts
from .context import Service
from .games import ServiceError, load_state, players_of, settings_of
from .outbox import enqueue
from .rounds import set_autopilot, submit_orders
from .secrets import verify_password
from .setup_phase import submit_setup
from .signup import join

_GAME_LINE = re.compile(r"^\s*(spiel|game)\s*[:=]\s*(?P<name>\S.*?)\s*$", re.IGNORECASE)
_SUBJECT_GAME = re.compile(r"\[(?P<name>[^\]]+)\]")

HELP = {
    "de": ("Befehle (Betreff oder erste Zeile): Anmeldung, Hilfe, Status, Aufgeben, "
           "Ich bin zurück, Beobachten.\nZüge: Kennwort: …, dann eine Zeile je Befehl, z.B.\n"
           "  Räuber 6E, raube rot\n  Siedlung 6E 4W 5H oder Siedlung C3 C4 D4\n"
           "  Straße 6E 4W\n  Ersatzbau:\n  Entwicklungskarte\n"),
    "en": ("Commands (subject or first line): Join, Help, Status, Resign, I'm back, Observe.\n"
           "Orders: Password: …, then one line per order, e.g.\n  Robber 6O, steal red\n"
           "  Settlement 6O 4W 5L or Settlement C3 C4 D4\n  Road 6O 4W\n  Substitute:\n"
           "  Buy card\n"),
}


def _named_game(inbound: Inbound) -> str | None:
    for _, line in clean_lines(inbound.text):
        m = _GAME_LINE.match(line)
        if m:
            return m.group("name")
    m = _SUBJECT_GAME.search(inbound.subject)
    return m.group("name").strip() if m else None


def find_game(session: Session, inbound: Inbound, joining: bool) -> Game | None:
    name = _named_game(inbound)
    if name:
        game = session.exec(select(Game).where(Game.name == name)).first()
        if game is not None:
            return game
    mine = {
        p.game_id for p in session.exec(select(Player).where(Player.address == inbound.sender))
    }
    running = [g for g in session.exec(select(Game).where(Game.phase != "ended"))
               if g.id in mine]
    if len(running) == 1:
        return running[0]
    if joining:
        open_games = list(session.exec(select(Game).where(Game.phase == "signup")))
        if len(open_games) == 1:
            return open_games[0]
    return None


def _context(game: Game) -> Context:
    settings = settings_of(game)
    if game.state:
        state = load_state(game)
        phase = "setup" if game.phase == "setup" else "round"
        return Context(state.board, game.lang, state.colours, phase)
    return Context(generate_board(settings.size, game.seed), game.lang)


def _reply(svc: Service, session: Session, mail: InboundMail, inbound: Inbound, kind: str,
           subject: str, body: str, game: Game | None = None, to: str | None = None) -> None:
    enqueue(svc, session, kind, [to or inbound.sender], subject, body,
            game_id=game.id if game else None, in_reply_to=inbound.message_id)


def handle(svc: Service, session: Session, mail: InboundMail, inbound: Inbound) -> str | None:
    """Act on one mail; returns the game's name when orders for an open round came in."""
    if inbound.no_reply:
        mail.status = "ignored"
        mail.error = inbound.no_reply
        return None
    probe = parse_mail(inbound.text, Context(generate_board("medium", 0)), inbound.subject)
    joining = "join" in probe.commands
    game = find_game(session, inbound, joining)
    lang = game.lang if game else ("en" if re.search(r"\b(join|help)\b", inbound.subject,
                                                     re.IGNORECASE) else "de")
    if game is None:
        names = ", ".join(g.name for g in session.exec(select(Game).where(
            Game.phase != "ended")))
        _reply(svc, session, mail, inbound, "error", "pbm",
               ("Welches Spiel? Schreibe 'Spiel: <Name>'. Laufende Spiele: " if lang == "de"
                else "Which game? Write 'Game: <name>'. Games: ") + (names or "-") + "\n")
        return None
    mail.game_id = game.id
    parsed = parse_mail(inbound.text, _context(game), inbound.subject)
    if "help" in parsed.commands:
        _reply(svc, session, mail, inbound, "help", f"[{game.name}] Hilfe" if lang == "de"
               else f"[{game.name}] Help", HELP[lang], game)
        return None
    if "join" in parsed.commands:
        try:
            join(svc, session, game, inbound.sender, parsed.name or inbound.sender,
                 parsed.colours, reply_to=inbound.message_id)
        except ServiceError as e:
            _reply(svc, session, mail, inbound, "error",
                   texts.t(lang, "error_subject", game=game.name), f"{e}\n", game)
        return None
    if "observe" in parsed.commands:
        _observe(svc, session, mail, inbound, game)
        return None
    if "status" in parsed.commands and parsed.password is None:
        _reply(svc, session, mail, inbound, "status", f"[{game.name}] Status",
               _status(session, game), game)
        return None
    player = _authenticate(session, game, parsed, inbound)
    if player is None:
        _reply(svc, session, mail, inbound, "error",
               texts.t(lang, "error_subject", game=game.name),
               "Kennwort fehlt oder ist falsch. Nichts wurde geändert.\n" if lang == "de" else
               "The password is missing or wrong. Nothing was changed.\n", game)
        return None
    return _player_mail(svc, session, mail, inbound, game, player, parsed)


def _authenticate(session: Session, game: Game, parsed: ParsedMail,
                  inbound: Inbound) -> Player | None:
    if not parsed.password:
        return None
    candidates = [p for p in players_of(session, game) if p.password_hash]
    # The sender's own seat first: one hash check in the usual case.
    candidates.sort(key=lambda p: p.address != inbound.sender)
    for p in candidates:
        if verify_password(parsed.password, p.password_hash):
            return p
    return None


def _player_mail(svc: Service, session: Session, mail: InboundMail, inbound: Inbound,
                 game: Game, player: Player, parsed: ParsedMail) -> str | None:
    lang = game.lang
    subject_error = texts.t(lang, "error_subject", game=game.name)
    if "resign" in parsed.commands:
        player.status = "resigned"
        set_autopilot(svc, session, game, player, True)
        return None
    if "back" in parsed.commands:
        if player.status == "resigned":
            player.status = "active"
        set_autopilot(svc, session, game, player, False)
        if not parsed.has_orders():
            return None
    if "status" in parsed.commands and not parsed.has_orders():
        _reply(svc, session, mail, inbound, "status", f"[{game.name}] Status",
               _status(session, game), game, to=player.address)
        return None
    if game.paused or game.phase not in ("setup", "rounds"):
        _reply(svc, session, mail, inbound, "error", subject_error,
               "Das Spiel nimmt gerade keine Züge an.\n" if lang == "de" else
               "The game takes no orders now.\n", game, to=player.address)
        return None
    if game.phase == "rounds":
        if parsed.round is not None and parsed.round != game.round:
            _reply(svc, session, mail, inbound, "error", subject_error,
                   (f"Diese Züge sind für Runde {parsed.round}, offen ist Runde {game.round}. "
                    "Nichts wurde geändert.\n") if lang == "de" else
                   (f"These orders are for round {parsed.round}; round {game.round} is open. "
                    "Nothing was changed.\n"), game, to=player.address)
            return None
        if game.deadline is not None and svc.clock.now() > game.deadline:
            _reply(svc, session, mail, inbound, "error", subject_error,
                   "Die Frist dieser Runde ist abgelaufen; die Züge gelten nicht.\n"
                   if lang == "de" else
                   "The deadline of this round has passed; the orders do not count.\n",
                   game, to=player.address)
            return None
        check_receipt(parsed, load_state(game), player.seat if player.seat is not None else 0)
        replaced = submit_orders(svc, session, game, player, parsed, inbound.text, mail)
        _reply(svc, session, mail, inbound, "ack",
               texts.t(lang, "ack_subject", game=game.name, round=game.round),
               texts.ack_body(parsed, lang, replaced), game, to=player.address)
        return game.name
    replaced, _ = submit_setup(svc, session, game, player, parsed, inbound.text, mail)
    _reply(svc, session, mail, inbound, "ack",
           texts.t(lang, "ack_subject", game=game.name, round=0),
           texts.ack_body(parsed, lang, replaced), game, to=player.address)
    return None


def _observe(svc: Service, session: Session, mail: InboundMail, inbound: Inbound,
             game: Game) -> None:
    exists = session.exec(select(Player).where(
        Player.game_id == game.id, Player.address == inbound.sender)).first()
    if exists is None:
        session.add(Player(game_id=game.id or 0, address=inbound.sender, name=inbound.sender,
                           status="observer", joined_at=svc.clock.now()))
    _reply(svc, session, mail, inbound, "ack", f"[{game.name}] OK",
           "Du bekommst ab jetzt die Berichte.\n" if game.lang == "de" else
           "You will get the reports from now on.\n", game)


def _status(session: Session, game: Game) -> str:
    lines = [f"{game.name}: {game.phase}, round {game.round}"]
    if game.deadline:
        lines.append(f"deadline {game.deadline:%Y-%m-%d %H:%M} UTC")
    if game.state:
        lines += texts.public_summary(load_state(game), game.lang)
    return "\n".join(lines) + "\n"
