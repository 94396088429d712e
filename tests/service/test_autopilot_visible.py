"""The autopilot's play is visible to the players (QA, a Danish game): a player who wrote `Væk
indtil 10.12.` had her seat played by the autopilot, and the round report said "rød (Mette)
bygger by C2 C3 D3" as if she had built it (only the GM's digest said autopilot). What the
autopilot's orders did is marked in the report now; and her `Jeg er tilbage` is answered with
the rounds the autopilot played for her, the round that is open and its deadline, not only
"Velkommen tilbage: dit fravær er slut."."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from databases import game_row, game_state, outbox, records, seated
from harness import Games, Mailer, orders_text, send_orders
from mail_text import report_log

from pbm.notation import vocab
from pbm.reports.describe import ordered_by, player_label
from pbm.rules.events import event_from_json
from pbm.service.clock import FakeClock
from pbm.service.context import Service

#: What a player writes in each game language, and how the report marks the autopilot's lines.
WRITES = {
    "de": {"password": "Kennwort", "away": "Urlaub bis", "back": "Ich bin zurück"},
    "en": {"password": "Password", "away": "Away until", "back": "I'm back"},
    "da": {"password": "Adgangskode", "away": "Væk indtil", "back": "Jeg er tilbage"},
}
MARK = {"de": " (Autopilot)", "en": " (autopilot)", "da": " (autopilot)"}
#: The answer to the return: the welcome back, the rounds played for the player, the open round.
BACK = {
    "de": (
        "Willkommen zurück: deine Abwesenheit ist beendet.",
        "Während du weg warst, hat der Autopilot deinen Platz in {played} gespielt.",
        "Runde {round} ist offen: schicke deine Züge bis {deadline}.",
    ),
    "en": (
        "Welcome back: your absence is over.",
        "While you were away, the autopilot played your seat in {played}.",
        "Round {round} is open: send your orders by {deadline}.",
    ),
    "da": (
        "Velkommen tilbage: dit fravær er slut.",
        "Mens du var væk, spillede autopiloten din plads i {played}.",
        "Runde {round} er åben: send dine ordrer senest {deadline}.",
    ),
}
ROUNDS = {"de": ("Runde", "den Runden"), "en": ("round", "rounds"), "da": ("runde", "runderne")}
#: The seat that goes away.
AWAY = 2


def _away(
    svc: Service, mailer: Mailer, clock: FakeClock, table_pw: dict[str, str], lang: str
) -> str:
    me = seated(svc, "alpha")[AWAY].address
    until = (clock.now() + timedelta(days=30)).date().isoformat()
    w = WRITES[lang]
    mailer.send(me, "Ferie", f"{w['password']}: {table_pw[me]}\n{w['away']} {until}\n")
    assert seated(svc, "alpha")[AWAY].away_until is not None, "the absence is recorded"
    return me


def _play_until_the_autopilot_acts(svc: Service, mailer: Mailer, pw: dict[str, str]) -> int:
    """Rounds played by the others (the absent seat is not waited for) until one in which the
    autopilot's orders for it did something; returns that round's step."""
    for _ in range(6):
        round_ = game_row(svc, "alpha").round
        send_orders(mailer, "alpha", [s for s in range(4) if s != AWAY], pw=pw)
        assert game_row(svc, "alpha").round == round_ + 1, "the round resolved without her"
        record = records(svc, "alpha")[-1]
        events = [event_from_json(e) for e in json.loads(record.events)]
        if any(ordered_by(e) == AWAY for e in events):
            return record.step
    raise AssertionError("the autopilot did nothing for the seat in six rounds")


@pytest.mark.parametrize("lang", ["de", "en", "da"])
def test_the_report_marks_what_the_autopilot_did_for_an_absent_player(
    svc: Service, mailer: Mailer, games: Games, clock: FakeClock, lang: str
) -> None:
    table = games.start("alpha", lang=lang)
    _away(svc, mailer, clock, table.passwords, lang)
    step = _play_until_the_autopilot_acts(svc, mailer, table.passwords)
    record = records(svc, "alpha")[-1]
    acted = [e for e in map(event_from_json, json.loads(record.events)) if ordered_by(e) == AWAY]
    (report,) = [o for o in outbox(svc, "report") if o.step == step]
    log = report_log(report.body)
    marked = [line for line in log if line.endswith(MARK[lang])]
    # One marked line for each thing the autopilot's orders did, each about the absent seat.
    assert len(marked) == len(acted), (acted, log)
    # Named as the report names a player who acts: "blå (Spieler 0)".
    labels = {
        s: player_label(vocab.colour_name(p.colour or "", lang), p.name)
        for s, p in seated(svc, "alpha").items()
    }
    for line in marked:
        assert labels[AWAY] in line, line
        # The seats whose players sent their orders are not marked.
        assert not any(labels[s] in line for s in range(4) if s != AWAY), line


@pytest.mark.parametrize("lang", ["de", "en", "da"])
def test_back_from_an_absence_names_the_rounds_played_and_the_open_round(
    svc: Service, mailer: Mailer, games: Games, clock: FakeClock, lang: str
) -> None:
    table = games.start("alpha", lang=lang)
    me = _away(svc, mailer, clock, table.passwords, lang)
    for _ in range(2):
        send_orders(mailer, "alpha", [s for s in range(4) if s != AWAY], pw=table.passwords)
    game = game_row(svc, "alpha")
    assert game.round == 3 and game.deadline is not None
    w = WRITES[lang]
    mailer.send(me, "Tilbage", f"{w['password']}: {table.passwords[me]}\n{w['back']}\n")
    (answer,) = [o for o in outbox(svc, "ack", to=me) if o.in_reply_to == mailer.last_id]
    welcome, played, open_round = BACK[lang]
    deadline = f"{game.deadline:%Y-%m-%d %H:%M} UTC"
    said = " ".join(answer.body.split())
    assert said == " ".join(
        [
            welcome,
            played.format(played=f"{ROUNDS[lang][1]} 1–2"),
            open_round.format(round=3, deadline=deadline),
        ]
    ), answer.body


def test_back_counts_only_the_rounds_the_autopilot_played(
    svc: Service, mailer: Mailer, games: Games, clock: FakeClock
) -> None:
    """A round the player played herself before going away is not counted; one round away is
    said in the singular."""
    table = games.start("alpha")
    send_orders(mailer, "alpha", range(4), pw=table.passwords)  # round 1: everyone's own
    me = _away(svc, mailer, clock, table.passwords, "de")
    send_orders(mailer, "alpha", [s for s in range(4) if s != AWAY], pw=table.passwords)
    mailer.send(me, "Zurück", f"Kennwort: {table.passwords[me]}\nIch bin zurück\n")
    (answer,) = [o for o in outbox(svc, "ack", to=me) if o.in_reply_to == mailer.last_id]
    said = " ".join(answer.body.split())
    assert "hat der Autopilot deinen Platz in Runde 2 gespielt." in said, answer.body
    assert "Runde 3 ist offen" in said


def test_back_with_orders_says_the_rounds_in_the_answer_to_them(
    svc: Service, mailer: Mailer, games: Games, clock: FakeClock
) -> None:
    table = games.start("alpha")
    me = _away(svc, mailer, clock, table.passwords, "de")
    send_orders(mailer, "alpha", [s for s in range(4) if s != AWAY], pw=table.passwords)
    _, st = game_state(svc, "alpha")
    body = orders_text(st, AWAY, table.passwords[me]) + "Ich bin zurück\n"
    mailer.send(me, "Züge", body)
    (answer,) = [o for o in outbox(svc, "ack", to=me) if o.in_reply_to == mailer.last_id]
    said = " ".join(answer.body.split())
    assert "Willkommen zurück: deine Abwesenheit ist beendet." in said
    assert "hat der Autopilot deinen Platz in Runde 1 gespielt." in said, answer.body
