"""Subjects of the service's mails and the few phrases outside templates, in the game's
language. Bodies are Jinja templates (`pbm/templates/`), rendered from `pbm.reports` data."""

from __future__ import annotations

from pbm.notation import vocab
from pbm.rules.state import GameState

_T = {
    "de": {
        "welcome_subject": "[{game}] Willkommen, {colour}",
        "joined_subject": "[{game}] Anmeldung erhalten",
        "ack_subject": "[{game}] Züge erhalten (Runde {round})",
        "setup_ack_subject": "[{game}] Aufstellung erhalten",
        "error_subject": "[{game}] Nicht angenommen",
        "help_subject": "[{game}] Hilfe",
        "setup_subject": "[{game}] Du bist dran: Siedlung und Straße setzen",
        "placed_subject": "[{game}] Aufstellung",
        "setup_failed_subject": "[{game}] Aufstellung nicht möglich",
        "report_subject": "[{game}] Bericht Runde {round}",
        "round_open_subject": "[{game}] Runde 1 beginnt",
        "hands": "Karten auf der Hand:",
        "vp": "Siegpunkte:",
        "next": "Nächste Runde {round}, Frist: {deadline}",
        "reminder_subject": "[{game}] Erinnerung: Züge für Runde {round}",
        "nmr_subject": "[{game}] Keine Züge erhalten (Runde {round})",
        "autopilot_on_subject": "[{game}] Der Autopilot spielt für dich",
        "autopilot_off_subject": "[{game}] Willkommen zurück",
        "digest_subject": "[{game}] Spielleitung: Runde {round}",
        "end_subject": "[{game}] Spielende",
        "no_deadline": "keine (die Spielleitung löst auf)",
    },
    "en": {
        "welcome_subject": "[{game}] Welcome, {colour}",
        "joined_subject": "[{game}] Signup received",
        "ack_subject": "[{game}] Orders received (round {round})",
        "setup_ack_subject": "[{game}] Setup placement received",
        "error_subject": "[{game}] Not accepted",
        "help_subject": "[{game}] Help",
        "setup_subject": "[{game}] Your turn: place a settlement and a road",
        "placed_subject": "[{game}] Setup",
        "setup_failed_subject": "[{game}] Setup placement not possible",
        "report_subject": "[{game}] Report round {round}",
        "round_open_subject": "[{game}] Round 1 begins",
        "hands": "Cards in hand:",
        "vp": "Victory points:",
        "next": "Next round {round}, deadline: {deadline}",
        "reminder_subject": "[{game}] Reminder: orders for round {round}",
        "nmr_subject": "[{game}] No moves received (round {round})",
        "autopilot_on_subject": "[{game}] The autopilot plays for you",
        "autopilot_off_subject": "[{game}] Welcome back",
        "digest_subject": "[{game}] GM digest, round {round}",
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
