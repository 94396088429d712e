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
        "held_subject": "[{game}] Spiel angehalten",
        "held_body": (
            "Das Spiel {game} ist nach einem Fehler angehalten, bis die Spielleitung "
            "es repariert hat. Deine Mail ist aufbewahrt und wird dann gelesen; du "
            "musst sie nicht noch einmal schicken.\n"
        ),
        "bad_password": "Kennwort fehlt oder ist falsch.",
        "password_alert_subject": "[{game}] Falsche Kennwörter für {colour}",
        "password_alert_body": (
            "Für den Platz {colour} im Spiel {game} kamen seit der letzten angenommenen Mail "
            "{count} Mails mit falschem Kennwort.\n\nWaren sie nicht von dir, rät jemand: "
            "es hat nichts geändert, dein Kennwort gilt weiter, und die Spielleitung weiß "
            "Bescheid. Hast du dein Kennwort verloren, bitte die Spielleitung um ein neues.\n"
        ),
        "observe_already": "Du beobachtest dieses Spiel schon.\n",
        "observe_seated": "Du spielst in diesem Spiel mit und bekommst die Berichte ohnehin.",
        "observe_confirm_subject": "[{game}] Beobachten bestätigen",
        "observe_confirm_body": (
            "Jemand möchte, dass diese Adresse die Berichte des Spiels {game} bekommt.\n\n"
            "Warst du das, antworte mit dieser Zeile:\n\n  Bestätigen: {token}\n\n"
            "Sonst tu nichts: ohne Bestätigung kommt keine Mail mehr.\n"
        ),
        "observe_bad_token": (
            "Dieser Code passt nicht. Schreibe zuerst 'Beobachten' und "
            "antworte dann mit der Zeile 'Bestätigen: …' aus der Mail."
        ),
        "observe_confirmed": (
            "Du bekommst ab jetzt die Berichte. Mit 'Beobachten beenden' hört das auf.\n"
        ),
        "observe_not": "Diese Adresse beobachtet das Spiel nicht.",
        "observe_stopped": "Du bekommst keine Berichte dieses Spiels mehr.\n",
        "broken_subject": "[{game}] Spiel angehalten: Fehler",
        "broken_body": (
            "pbm hat das Spiel {game} nach einem Fehler angehalten; die anderen "
            "Spiele laufen weiter.\n\nFehler: {reason}\n\nMails für das Spiel "
            "werden aufbewahrt. Nach der Reparatur: pbm game resume {game}\n"
        ),
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
        "held_subject": "[{game}] Game stopped",
        "held_body": (
            "The game {game} is stopped after an error until the game master has "
            "repaired it. Your mail is kept and will be read then; you need not send "
            "it again.\n"
        ),
        "bad_password": "The password is missing or wrong.",
        "password_alert_subject": "[{game}] Wrong passwords for {colour}",
        "password_alert_body": (
            "Since the last accepted mail, {count} mails came for the seat {colour} in the "
            "game {game} with a wrong password.\n\nIf they were not yours, somebody is "
            "guessing: nothing was changed, your password still works, and the game master "
            "knows. If you lost your password, ask the game master for a new one.\n"
        ),
        "observe_already": "You observe this game already.\n",
        "observe_seated": "You play in this game and get the reports anyway.",
        "observe_confirm_subject": "[{game}] Confirm observing",
        "observe_confirm_body": (
            "Somebody asked that this address receive the reports of the game {game}.\n\n"
            "If that was you, reply with this line:\n\n  Confirm: {token}\n\n"
            "Otherwise do nothing: without a confirmation no more mail comes.\n"
        ),
        "observe_bad_token": (
            "This code does not match. Write 'Observe' first, then reply "
            "with the line 'Confirm: …' from the mail."
        ),
        "observe_confirmed": (
            "You will get the reports from now on. 'Stop observing' ends that.\n"
        ),
        "observe_not": "This address does not observe the game.",
        "observe_stopped": "You will get no more reports of this game.\n",
        "broken_subject": "[{game}] Game stopped: error",
        "broken_body": (
            "pbm stopped the game {game} after an error; the other games go on."
            "\n\nError: {reason}\n\nMails for the game are kept. After the "
            "repair: pbm game resume {game}\n"
        ),
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
