"""A mail whose letters were UTF-8 read as Windows-1252 before it was sent (`StraÃŸe 6L 5L`,
`RÃ¸ver`): its orders are read with the letters put back; a mail without such sequences,
and letters a player may have written (`Ö`, `Å` before a quote), are left as they are."""

from __future__ import annotations

import email
import email.policy

import pytest

from pbm.mail.inbound import body_text
from pbm.mail.mojibake import repaired
from pbm.notation import Context, parse_mail
from pbm.rules.layouts import generate_board


def _garbled(text: str) -> str:
    return text.encode("utf-8").decode("cp1252")


@pytest.mark.parametrize(
    "text",
    [
        "Straße 6L 5L",
        "Räuber 11G, raube Weiß",
        "Røver 11K, røv blå; Æble, år",
        "Siedlung bei Öl: „Gut“ – 5 €",
        "Ich übergebe: été, à la carte",
    ],
)
def test_utf8_read_as_windows_1252_is_put_back(text: str) -> None:
    assert repaired(_garbled(text)) == text


@pytest.mark.parametrize(
    "text",
    [
        "Ärger über Öl",
        "PÅ” sagte er",
        "SØ\xa0Hafen",
        "Ã  la carte",  # a lone `Ã` and a blank: no sequence
        "plain ascii",
    ],
)
def test_what_a_player_may_write_is_left_alone(text: str) -> None:
    assert repaired(text) == text


def test_a_garbled_order_mail_is_read_as_meant() -> None:
    body = "Kennwort: blau-kadu-mepi\nStraße 6L 5L\nRäuber 11G, raube Weiß\n"
    raw = (
        "From: a@example.org\nTo: gm@example.org\nSubject: Züge\n"
        "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n"
    ).encode() + _garbled(body).encode("utf-8")
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    text = body_text(msg)
    assert text == body
    ctx = Context(generate_board("medium", 1), "de", ("rot", "blau", "gelb", "weiss"), "round")
    parsed = parse_mail(text, ctx)
    assert [r.ok for r in parsed.lines] == [True, True, True], [r.error for r in parsed.lines]
