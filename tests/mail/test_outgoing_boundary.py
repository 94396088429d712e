"""The MIME boundaries of the service's mails are set when the message is built: random,
"=_"-prefixed (never in base64 or quoted-printable), one per multipart part, so the standard
generator writes them as they are instead of searching the whole message for a free one."""

from __future__ import annotations

import email
import email.generator
import email.policy
import re
from datetime import UTC, datetime
from email.message import EmailMessage

import pytest

from pbm.mail.outgoing import boundary, build_message

#: A text that holds what boundaries look like, the way a player could quote them.
TRICKY = "Hallo ä\n--=_pbm_\n--=_pbm_00000000000000000000000000000000\n=_ =3D =\n--\n"


def _report(body: str = TRICKY) -> EmailMessage:
    return build_message(
        from_address="gm@pbm.test",
        from_name="Spielleitung",
        recipients=["anna@example.org"],
        subject="Runde 3",
        body=body,
        html="<p>Runde 3</p><img src='cid:board@pbm'>",
        message_id="<r3@pbm.test>",
        in_reply_to="",
        date=datetime(2026, 1, 3, 12, 0, tzinfo=UTC),
        image=b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40,
        chart=b"\x89PNG\r\n\x1a\nchart",
    )


def test_every_multipart_part_has_its_own_random_boundary() -> None:
    msg = _report()
    marks = [p.get_boundary() for p in msg.walk() if p.is_multipart()]
    assert len(marks) == 2  # alternative, and related inside it
    assert all(re.fullmatch(r"=_pbm_[0-9a-f]{32}", b or "") for b in marks)
    assert len(set(marks)) == 2
    assert boundary() != boundary()


def test_the_message_is_written_without_searching_for_a_boundary(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def searched(*_args: object) -> None:
        raise AssertionError("the generator made a boundary of its own")

    monkeypatch.setattr(email.generator.Generator, "_make_boundary", classmethod(searched))
    raw = _report().as_bytes()
    assert raw.count(b"--=_pbm_") >= 5


def test_the_parts_read_back_as_built() -> None:
    raw = _report().as_bytes()
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    text = msg.get_body(preferencelist=("plain",))
    html = msg.get_body(preferencelist=("html",))
    assert text is not None and html is not None
    assert text.get_content() == TRICKY
    assert "cid:board@pbm" in html.get_content()
    images = [p for p in msg.walk() if p.get_content_type() == "image/png"]
    assert [p.get_content() for p in images] == [
        b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40,
        b"\x89PNG\r\n\x1a\nchart",
    ]


def test_a_plain_mail_has_no_boundary() -> None:
    msg = build_message(
        from_address="gm@pbm.test",
        from_name="Spielleitung",
        recipients=["anna@example.org"],
        subject="Hilfe",
        body="Nur Text.\n",
        html="",
        message_id="<h@pbm.test>",
        in_reply_to="",
        date=datetime(2026, 1, 3, 12, 0, tzinfo=UTC),
    )
    assert not msg.is_multipart() and b"=_pbm_" not in msg.as_bytes()
