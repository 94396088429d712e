"""Plain-text mails of the service, in the game's language.

Rendered from plain data; the Jinja templates of the reports issue replace these bodies with
richer ones (HTML part, board picture, codebook), keeping the same kinds and subjects.
"""

from __future__ import annotations

from pbm.notation import vocab
from pbm.reports.describe import describe_all
from pbm.rules.events import Event
from pbm.rules.state import GameState

_T = {
    "de": {
        "welcome_subject": "[{game}] Willkommen, {colour}",
        "joined_subject": "[{game}] Anmeldung erhalten",
        "joined": "Du bist angemeldet als {name}. Es fehlen noch {missing} Spieler.\n",
        "joined_full": ("Du bist angemeldet als {name}. Der Tisch ist voll: Farben und Plätze "
                        "werden gelost, dein Kennwort kommt mit der nächsten Mail.\n"),
        "ack_subject": "[{game}] Züge erhalten (Runde {round})",
        "ack_replaced": "Diese Mail ersetzt deine früheren Züge für diese Runde.\n",
        "error_subject": "[{game}] Nicht angenommen",
        "setup_subject": "[{game}] Du bist dran: Siedlung und Straße setzen",
        "setup": (
            "Setze deine {nth}. Siedlung mit Straße, zum Beispiel:\n"
            "  Kennwort: …\n  Siedlung C3 C4 D4 Straße C3 C4\n\nFrist: {deadline}\n"
        ),
        "placed_subject": "[{game}] Aufstellung",
        "report_subject": "[{game}] Bericht Runde {round}",
        "round_open_subject": "[{game}] Runde 1 beginnt",
        "round_open": ("Die Aufstellung ist fertig. Runde 1 beginnt.\nReihenfolge: {order}\n"
                       "Frist: {deadline}\nSchicke deine Züge (mit Kennwort und Räuberzug).\n"),
        "hands": "Karten auf der Hand:",
        "vp": "Siegpunkte:",
        "next": "Nächste Runde {round}, Frist: {deadline}",
        "reminder_subject": "[{game}] Erinnerung: Züge für Runde {round}",
        "reminder": "Für Runde {round} fehlen noch deine Züge. Frist: {deadline}\n",
        "nmr_subject": "[{game}] Keine Züge erhalten (Runde {round})",
        "nmr": "Für Runde {round} kamen keine Züge von dir (NMR {count} in Folge).\n",
        "autopilot_on_subject": "[{game}] Der Autopilot spielt für dich",
        "autopilot_on": (
            "Der Autopilot spielt jetzt für {colour}. Schreibe 'Ich bin zurück', "
            "um wieder selbst zu spielen.\n"
        ),
        "autopilot_off_subject": "[{game}] Willkommen zurück",
        "autopilot_off": "Du spielst wieder selbst ({colour}).\n",
        "end_subject": "[{game}] Spielende",
        "no_deadline": "keine (die Spielleitung löst auf)",
    },
    "en": {
        "welcome_subject": "[{game}] Welcome, {colour}",
        "joined_subject": "[{game}] Signup received",
        "joined": "You have joined as {name}. {missing} more players are needed.\n",
        "joined_full": ("You have joined as {name}. The table is full: colours and seats are "
                        "drawn, your password comes with the next mail.\n"),
        "ack_subject": "[{game}] Orders received (round {round})",
        "ack_replaced": "This mail replaces your earlier orders for this round.\n",
        "error_subject": "[{game}] Not accepted",
        "setup_subject": "[{game}] Your turn: place a settlement and a road",
        "setup": (
            "Place your settlement number {nth} with a road, for example:\n"
            "  Password: …\n  Settlement C3 C4 D4 Road C3 C4\n\nDeadline: {deadline}\n"
        ),
        "placed_subject": "[{game}] Setup",
        "report_subject": "[{game}] Report round {round}",
        "round_open_subject": "[{game}] Round 1 begins",
        "round_open": ("The setup is done. Round 1 begins.\nBuild order: {order}\n"
                       "Deadline: {deadline}\nSend your orders (with password and robber "
                       "order).\n"),
        "hands": "Cards in hand:",
        "vp": "Victory points:",
        "next": "Next round {round}, deadline: {deadline}",
        "reminder_subject": "[{game}] Reminder: orders for round {round}",
        "reminder": "Your orders for round {round} are missing. Deadline: {deadline}\n",
        "nmr_subject": "[{game}] No moves received (round {round})",
        "nmr": "No orders came from you for round {round} ({count} in a row).\n",
        "autopilot_on_subject": "[{game}] The autopilot plays for you",
        "autopilot_on": "The autopilot now plays {colour}. Write \"I'm back\" to play again.\n",
        "autopilot_off_subject": "[{game}] Welcome back",
        "autopilot_off": "You play {colour} yourself again.\n",
        "end_subject": "[{game}] Game over",
        "no_deadline": "none (the game master resolves)",
    },
}


def t(lang: str, key: str, **kw: object) -> str:
    return _T["en" if lang == "en" else "de"][key].format(**kw)


def public_summary(state: GameState, lang: str) -> list[str]:
    letters = vocab.letters(lang)
    lines = [t(lang, "hands")]
    for p, colour in enumerate(state.colours):
        hand = " ".join(f"{n}{letters[r]}" for r, n in enumerate(state.hands[p]) if n) or "-"
        lines.append(f"  {vocab.colour_name(colour, lang):8} {hand}")
    lines.append(t(lang, "vp"))
    for p, colour in enumerate(state.colours):
        lines.append(f"  {vocab.colour_name(colour, lang):8} {state.visible_vp(p)}")
    return lines


def report_body(events: list[Event], state: GameState, lang: str, footer: str = "") -> str:
    lines = describe_all(events, state, lang)
    lines.append("")
    lines.extend(public_summary(state, lang))
    lines.append("")
    lines.append(state.board.text_map())
    if footer:
        lines += ["", footer]
    return "\n".join(lines) + "\n"
