"""Answers to players' mails outside templates: the order language in short, refusals, status."""

from __future__ import annotations

from sqlmodel import Session

from pbm.notation.mail import ParsedMail
from pbm.store import codec
from pbm.store.models import Game, Player

from . import texts
from .context import Service, ServiceConfig
from .games import deadline_text, load_state
from .records import current_orders

ORDER_HELP = {
    "de": (
        "Züge: die Zeile 'Kennwort: …', dann eine Zeile je Befehl, z.B.\n"
        "  Räuber 6E, raube rot\n  Abwurf: W W G\n  Handel gelb: gebe 2H, bekomme 1E\n"
        "  Siedlung 6E 4W 5H oder Siedlung C3 C4 D4\n  Straße 6E 4W\n"
        "  Stadt bei Siedlung 10L 3G Meer\n  Seehandel 4H gegen 1E\n"
        "  Ritter vor Wurf: Räuber C4, raube blau\n  Ersatzbau:\n  Entwicklungskarte\n"
        "Felder: Bezeichnung (C3), Zahl und Rohstoff (6E), Meer, Wüste, G-Hafen, 3:1-Hafen."
    ),
    "en": (
        "Orders: the line 'Password: …', then one line per order, e.g.\n"
        "  Robber 6O, steal red\n  Discard: W W G\n  Trade yellow: give 2L, get 1O\n"
        "  Settlement 6O 4W 5L or Settlement C3 C4 D4\n  Road 6O 4W\n"
        "  City 10B 3G Sea\n  Maritime 4L for 1O\n"
        "  Knight before roll: robber C4, steal blue\n  Substitute:\n  Buy card\n"
        "Hexes: label (C3), number and resource (6O), Sea, Desert, G-Harbor, 3:1-Harbor."
    ),
}


def refusal(svc: Service, game: Game, parsed: ParsedMail) -> str:
    """Why orders cannot be taken now ("" when they can); nothing is changed then."""
    de = game.lang != "en"
    if game.paused or game.phase not in ("setup", "rounds"):
        return "Das Spiel nimmt gerade keine Züge an." if de else "The game takes no orders now."
    if game.phase != "rounds":
        return ""
    if parsed.round is not None and parsed.round != game.round:
        return (
            f"Diese Züge sind für Runde {parsed.round}, offen ist Runde {game.round}."
            if de
            else f"These orders are for round {parsed.round}; round {game.round} is open."
        )
    if game.deadline is not None and svc.clock.now() > game.deadline:
        return (
            "Die Frist dieser Runde ist abgelaufen; die Züge gelten nicht."
            if de
            else "The deadline of this round has passed; the orders do not count."
        )
    return ""


def status_body(session: Session, game: Game, player: Player | None) -> str:
    de = game.lang != "en"
    lines = [
        f"{game.name}: {game.phase}, " + (f"Runde {game.round}" if de else f"round {game.round}")
    ]
    if game.deadline:
        lines.append(("Frist: " if de else "Deadline: ") + deadline_text(game))
    if player is not None and game.phase == "rounds":
        row = current_orders(session, game, game.round).get(player.id or 0)
        if row is None:
            lines.append("Deine Züge: noch keine." if de else "Your orders: none yet.")
        else:
            lines.append("Deine Züge sind da:" if de else "Your orders are in:")
            lines += [f"  {line}" for line in _canonical(game, row.parsed)]
    if game.state:
        lines.append("")
        lines += texts.public_summary(load_state(game), game.lang)
    return "\n".join(lines) + "\n"


def _canonical(game: Game, parsed_json: str) -> list[str]:
    from pbm.notation import Context
    from pbm.notation.format import format_turn_orders

    state = load_state(game)
    return format_turn_orders(
        codec.loads(parsed_json), Context(state.board, game.lang, state.colours, "round")
    )


def too_big(lang: str, kb: int) -> str:
    return (
        f"Diese Mail ist größer als {kb} KB Text und wurde nicht gelesen.\n"
        if lang != "en"
        else f"This mail has more than {kb} KB of text and was not read.\n"
    )


def refused(lang: str, why: str, config: ServiceConfig) -> str:
    """Why a mail was not read: `why` is too_long (text), too_big (the whole mail) or
    too_many_parts."""
    de = lang != "en"
    if why == "too_long":
        return too_big(lang, config.max_mail_kb)
    if why == "too_many_parts":
        return (
            "Diese Mail hat zu viele Teile (Anhänge) und wurde nicht gelesen. Schicke "
            "die Züge als einfachen Text.\n"
            if de
            else "This mail has too many parts (attachments) and was not read. Send the orders "
            "as plain text.\n"
        )
    kb = config.max_stored_kb
    return (
        f"Diese Mail ist größer als {kb} KB und wurde nicht gelesen (nur ihr Anfang ist "
        "aufbewahrt). Schicke die Züge als einfachen Text ohne Anhänge.\n"
        if de
        else f"This mail is larger than {kb} KB and was not read (only its beginning is kept). "
        "Send the orders as plain text without attachments.\n"
    )
