"""Password hashes: scrypt, never the password; verified pairs remembered per process, wrong
guesses never."""

from __future__ import annotations

import pytest

from pbm.service import secrets
from pbm.service.secrets import hash_password, verify_password


def test_a_hash_verifies_its_password_only() -> None:
    stored = hash_password("blau-123456")
    assert stored.startswith("scrypt$") and "blau-123456" not in stored
    assert verify_password("blau-123456", stored)
    assert verify_password(" blau-123456 ", stored)  # copied with spaces around
    assert not verify_password("blau-123457", stored)
    assert not verify_password("blau-123456", hash_password("blau-123456x"))


def test_damaged_hashes_verify_nothing() -> None:
    for stored in ("", "scrypt$", "md5$a$b", "scrypt$!!$??", "scrypt$YWJj$"):
        assert not verify_password("x", stored)


def test_only_successes_are_remembered(monkeypatch: pytest.MonkeyPatch) -> None:
    stored = hash_password("rot-654321")
    calls = 0
    real = secrets.Scrypt

    def counting(**kw: int | bytes) -> object:
        nonlocal calls
        calls += 1
        return real(**kw)  # type: ignore[arg-type]

    monkeypatch.setattr(secrets, "Scrypt", counting)
    for _ in range(3):
        assert not verify_password("rot-000000", stored)
    assert calls == 3, "every wrong guess pays the full scrypt work"
    assert verify_password("rot-654321", stored)
    assert verify_password("rot-654321", stored)
    assert calls == 4, "a verified pair is not derived again"
    # A new password for the seat (a new hash): the old pair does not open it.
    renewed = hash_password("rot-111111")
    assert not verify_password("rot-654321", renewed)
    assert verify_password("rot-111111", renewed)
