"""A forwarded mail inside a player's mail is never read (it may be a report or another
player's mail); the answer says so, whether the mail is refused for it or its own lines are
taken."""

from __future__ import annotations

from databases import replies_to
from harness import Games, Mailer

HINT_DE = "Die weitergeleitete Mail in deiner Nachricht wurde nicht gelesen"
HINT_EN = "A forwarded mail in yours was not read"
#: Below orders that were read: what was left unread, not "paste your orders above it".
BELOW_DE = "Die weitergeleitete Mail unter deinen Zügen wurde nicht gelesen"
BELOW_EN = "The forwarded mail below your orders was not read"

GMAIL_FORWARD = """Hallo, das ging an die falsche Adresse:

---------- Forwarded message ---------
Von: Spieler <p0@players.test>
Date: Mo., 4. Mai 2026 um 09:00 Uhr
Subject: Runde 1
To: <falsch@example.de>

Kennwort: {password}
Entwicklungskarte
"""

APPLE_FORWARD = """Kennwort: {password}
Entwicklungskarte

Anfang der weitergeleiteten Nachricht:

Von: Spieler <p0@players.test>
Betreff: Runde 1

Straße 6L 5L
"""


def _answer(mailer: Mailer, games: Games, body: str, kind: str | None = None) -> str:
    """The one answer to seat 0's mail `body` (its password put in) in a new game."""
    t = games.start()
    sender = t.addresses[0]
    r = mailer.send(sender, "Runde 1", body.format(password=t.passwords[sender]))
    assert r.status == "done"
    (answer,) = replies_to(mailer.svc, mailer.last_id, kind)
    return answer.body if kind else f"{answer.kind}: {answer.body}"


def test_orders_only_in_a_forwarded_mail_are_not_read_and_the_answer_says_so(
    mailer: Mailer, games: Games
) -> None:
    answer = _answer(mailer, games, GMAIL_FORWARD)
    assert answer.startswith("error: ") and HINT_DE in answer, answer


def test_a_forwarded_part_below_the_orders_is_named_in_the_ack(
    mailer: Mailer, games: Games
) -> None:
    ack = _answer(mailer, games, APPLE_FORWARD, "ack")
    said = " ".join(ack.split())
    assert BELOW_DE in said and HINT_DE not in said and "Entwicklungskarte" in ack, ack
    assert "Straße" not in ack.split("Die weitergeleitete")[0].split("Angenommen:")[-1]


def test_in_english(mailer: Mailer, games: Games) -> None:
    t = games.start("beta", lang="en")
    sender = t.addresses[0]
    body = f"Password: {t.passwords[sender]}\nBuy card\n\nBegin forwarded message:\n\nRoad 6B 5B\n"
    assert mailer.send(sender, "Round 1", body).status == "done"
    (ack,) = replies_to(mailer.svc, mailer.last_id, "ack")
    assert BELOW_EN in " ".join(ack.body.split()), ack.body


def test_a_quoted_original_is_no_forward(mailer: Mailer, games: Games) -> None:
    body = (
        "Kennwort: {password}\nEntwicklungskarte\n\n"
        "-----Ursprüngliche Nachricht-----\nVon: Spielleitung\n\nBericht …\n"
    )
    assert HINT_DE not in _answer(mailer, games, body, "ack")
