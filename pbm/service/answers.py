"""The bodies of answers to players' mails: acknowledgements in sections, refusals, status."""

from __future__ import annotations

import textwrap

from sqlmodel import Session

from pbm.notation.clean import clean_lines
from pbm.notation.mail import ParsedMail
from pbm.store import codec
from pbm.store.models import Game, Player

from . import texts
from .context import Service
from .games import load_state
from .records import current_orders

ORDER_HELP = {
    "de": ("Züge: die Zeile 'Kennwort: …', dann eine Zeile je Befehl, z.B.\n"
           "  Räuber 6E, raube rot\n  Abwurf: W W G\n  Handel gelb: gebe 2H, bekomme 1E\n"
           "  Siedlung 6E 4W 5H oder Siedlung C3 C4 D4\n  Straße 6E 4W\n"
           "  Stadt bei Siedlung 10L 3G Meer\n  Seehandel 4H gegen 1E\n"
           "  Ritter vor Wurf: Räuber C4, raube blau\n  Ersatzbau:\n  Entwicklungskarte\n"
           "Felder: Bezeichnung (C3), Zahl und Rohstoff (6E), Meer, Wüste, G-Hafen, 3:1-Hafen."),
    "en": ("Orders: the line 'Password: …', then one line per order, e.g.\n"
           "  Robber 6O, steal red\n  Discard: W W G\n  Trade yellow: give 2L, get 1O\n"
           "  Settlement 6O 4W 5L or Settlement C3 C4 D4\n  Road 6O 4W\n"
           "  City 10B 3G Sea\n  Maritime 4L for 1O\n"
           "  Knight before roll: robber C4, steal blue\n  Substitute:\n  Buy card\n"
           "Hexes: label (C3), number and resource (6O), Sea, Desert, G-Harbor, 3:1-Harbor."),
}

_SECTIONS = {
    "de": ("Angenommen:", "Abgelehnt:", "Nicht gelesen:"),
    "en": ("Accepted:", "Rejected:", "Ignored:"),
}


def _deadline(game: Game) -> str:
    if game.deadline is None:
        return texts.t(game.lang, "no_deadline")
    return game.deadline.strftime("%Y-%m-%d %H:%M UTC")


def ack_body(parsed: ParsedMail, raw_text: str, game: Game, replaced: bool) -> str:
    """What was understood (canonical form), what was not (with why), what was not read."""
    lang = "en" if game.lang == "en" else "de"
    accepted, rejected, ignored = _SECTIONS[lang]
    out: list[str] = []
    if replaced:
        out.append(texts.t(lang, "ack_replaced"))
    good = [r for r in parsed.lines if r.ok]
    bad = [r for r in parsed.lines if not r.ok]
    out.append(accepted)
    out += [f"  {r.line:3}  {r.canonical}" for r in good] or ["  -"]
    if bad:
        out.append(rejected)
        for r in bad:
            assert r.error is not None
            col = f" (Spalte {r.error.column})" if lang == "de" and r.error.column else (
                f" (column {r.error.column})" if r.error.column else "")
            out.append(f"  {r.line:3}  {r.text}")
            out.append(f"       {r.error.message}{col}")
            out += [f"       → {c}" for c in r.error.candidates]
    total = len([x for x in raw_text.replace("\r\n", "\n").split("\n") if x.strip()])
    skipped = total - len(clean_lines(raw_text))
    if skipped > 0:
        out.append(ignored)
        out.append(f"  {skipped} " + ("Zeilen (Zitate, Kommentare, Signatur)" if lang == "de"
                                       else "lines (quotes, comments, signature)"))
    out.append("")
    if game.phase == "rounds":
        out.append(f"Runde {game.round}, Frist {_deadline(game)}." if lang == "de" else
                    f"Round {game.round}, deadline {_deadline(game)}.")
        out.append(textwrap.fill(
            "Bis dahin kannst du deine Züge mit einer neuen Mail ganz ersetzen. Kommen "
            "keine gültigen Züge, bekommst du nur deine Erträge (NMR): kein Handel, kein "
            "Bau; eine 7 für dich versetzt den Räuber nach der NMR-Regel." if lang == "de"
            else "Until then a new mail replaces these orders as a whole. Without valid "
            "orders you only receive your production (NMR): no trade, no building; a 7 "
            "rolled for you moves the robber by the NMR rule.", 72, break_on_hyphens=False))
    return "\n".join(out) + "\n"


def refusal(svc: Service, game: Game, parsed: ParsedMail) -> str:
    """Why orders cannot be taken now ("" when they can); nothing is changed then."""
    de = game.lang != "en"
    if game.paused or game.phase not in ("setup", "rounds"):
        return ("Das Spiel nimmt gerade keine Züge an. Nichts wurde geändert.\n" if de else
                "The game takes no orders now. Nothing was changed.\n")
    if game.phase != "rounds":
        return ""
    if parsed.round is not None and parsed.round != game.round:
        return (f"Diese Züge sind für Runde {parsed.round}, offen ist Runde {game.round}. "
                "Nichts wurde geändert.\n" if de else
                f"These orders are for round {parsed.round}; round {game.round} is open. "
                "Nothing was changed.\n")
    if game.deadline is not None and svc.clock.now() > game.deadline:
        return ("Die Frist dieser Runde ist abgelaufen; die Züge gelten nicht.\n" if de else
                "The deadline of this round has passed; the orders do not count.\n")
    return ""


def status_body(session: Session, game: Game, player: Player | None) -> str:
    de = game.lang != "en"
    lines = [f"{game.name}: {game.phase}, " + (f"Runde {game.round}" if de else
                                                f"round {game.round}")]
    if game.deadline:
        lines.append(("Frist: " if de else "Deadline: ") + _deadline(game))
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
    return format_turn_orders(codec.loads(parsed_json),
                              Context(state.board, game.lang, state.colours, "round"))


def too_big(lang: str, kb: int) -> str:
    return (f"Diese Mail ist größer als {kb} KB Text und wurde nicht gelesen.\n" if lang != "en"
            else f"This mail has more than {kb} KB of text and was not read.\n")
