"""The header factory of outgoing mail keeps what repeats and nothing of one message's own.

A header object keeps its parse tree (some kilobytes): kept for values that come back (From,
the MIME headers, Auto-Submitted), it saves building them again; kept for a Message-ID, a
Date or a multipart boundary, it is memory no later message asks for (3 MB of `pbm serve`
after a tick over a thousand games, docs/performance.md).
"""

from __future__ import annotations

import email.policy
from datetime import UTC, datetime, timedelta

import pytest

from pbm.mail import outgoing
from pbm.mail.headers import KEPT_HEADERS, OWN_VALUES, POLICY, CachedHeaders


def _message(n: int) -> bytes:
    msg = outgoing.build_message(
        from_address="gm@example.org",
        from_name="Spielleitung",
        recipients=[f"p{n}@example.org"],
        subject=f"Züge {n} erhalten",
        body=f"Runde {n}\n",
        html=f"<p>Runde {n}</p>",
        message_id=f"<{n}.ack@example.org>",
        in_reply_to=f"<{n}@player.example>",
        date=datetime(2026, 12, 7, tzinfo=UTC) + timedelta(minutes=n),
        image=b"\x89PNG\r\n\x1a\n" + bytes([n % 256]) * 64,
    )
    return msg.as_bytes(policy=POLICY)


def _kept() -> dict[tuple[str, str], object]:
    factory = POLICY.header_factory
    assert isinstance(factory, CachedHeaders)
    return factory._made


def test_no_header_of_one_message_is_kept_and_the_store_stays_bounded() -> None:
    for n in range(3 * KEPT_HEADERS):
        _message(n)
        kept = _kept()
        assert len(kept) <= KEPT_HEADERS
        assert not [name for name, _ in kept if name.lower() in OWN_VALUES]
        assert not [value for _, value in kept if "boundary=" in value]


def test_what_repeats_is_made_once() -> None:
    _message(1)
    from_headers = [h for (name, _), h in _kept().items() if name.lower() == "from"]
    assert from_headers
    factory = POLICY.header_factory
    assert factory("From", "Spielleitung <gm@example.org>") is factory(
        "From", "Spielleitung <gm@example.org>"
    )
    assert factory("Message-ID", "<1@x>") is not factory("Message-ID", "<1@x>")


def test_the_bytes_are_those_of_the_default_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same message built with the standard policy: the same bytes, kept headers or not."""
    for n in (1, 2, 700, 1):
        built = []
        for policy in (POLICY, email.policy.default):
            monkeypatch.setattr(outgoing, "POLICY", policy)
            marks = (f"=_b{k}" for k in range(10))
            monkeypatch.setattr(outgoing, "boundary", marks.__next__)
            msg = outgoing.build_message(
                from_address="gm@example.org",
                from_name="Spielleitung Æøå",
                recipients=[f"p{n}@example.org", "other@example.org"],
                subject=f"Züge {n} erhalten " + "lang " * 20,
                body="Runde\n",
                html="<p>Runde</p>",
                message_id=f"<{n}.ack@example.org>",
                in_reply_to=f"<{n}@player.example>",
                date=datetime(2026, 12, 7, tzinfo=UTC),
                image=b"\x89PNG\r\n\x1a\n",
            )
            built.append(msg.as_bytes(policy=policy))
        assert built[0] == built[1]
