"""Password hashes are a salted BLAKE2b in a PHC-like string (`$pbm-blake2b$v=1$salt$hash`):
pbm's passwords are 63 random bits, which no slow hash makes safer. Hashes of before (argon2id
PHC strings, and before them `scrypt$salt$key`) still verify, and the next mail with the right
password replaces them in its own transaction. A wrong password never does."""

from __future__ import annotations

import base64
import os

import pytest
from argon2 import PasswordHasher
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt
from databases import game_state, passwords, seated
from harness import Mailer, orders_text, start_game
from sqlmodel import Session

from pbm.service import secrets
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.secrets import hash_password, needs_rehash, normalized, verify_password
from pbm.store.db import transaction
from pbm.store.models import Player

PASSWORD = "blau-kadu-mepi-rosa-tule-wibo"
#: Made by the scrypt code pbm used before argon2 (N=2**13, r=8, p=1), for PASSWORD.
OLD_HASH = "scrypt$Kgc4UV7RDKM+KUvU58pFfg==$lKCn//us+q64//7o+rlmKI13IEtsAF8HQEdo9qYL4Xg="
CURRENT = "$pbm-blake2b$v=1$"
#: The argon2id parameters of issue 20, before the fast hash.
ARGON2 = "$argon2id$v=19$m=8192,t=1,p=1$"


def old_format(password: str) -> str:
    """A hash as pbm stored them before PHC strings."""
    salt = os.urandom(16)
    key = Scrypt(salt=salt, length=32, n=2**13, r=8, p=1).derive(normalized(password).encode())
    return f"scrypt${base64.b64encode(salt).decode()}${base64.b64encode(key).decode()}"


def weaker(password: str) -> str:
    """An argon2id hash with parameters below issue 20's."""
    return PasswordHasher(time_cost=1, memory_cost=4096, parallelism=1).hash(normalized(password))


def argon2(password: str) -> str:
    """An argon2id hash as pbm stored them before the fast hash."""
    return PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1).hash(normalized(password))


# -- the hashes ---------------------------------------------------------------------------------


def test_new_hashes_are_salted_blake2b_in_a_phc_like_string() -> None:
    import hashlib

    stored = hash_password(PASSWORD)
    assert stored.startswith(CURRENT) and PASSWORD not in stored
    assert stored != hash_password(PASSWORD), "a new salt each time"
    assert verify_password(PASSWORD, stored)
    assert verify_password(" Blau–kadu-mepi-rosa-tule-wibo ", stored)  # phone and copy forgiven
    assert not verify_password(PASSWORD[:-1] + "x", stored)
    assert not needs_rehash(stored)
    # The format, as docs/security.md writes it: anyone can check a hash by hand.
    salt_b64, hash_b64 = stored[len(CURRENT) :].split("$")
    salt = base64.b64decode(salt_b64 + "==")
    expected = hashlib.blake2b(
        PASSWORD.encode(), digest_size=32, salt=salt, person=b"pbm-password"
    ).digest()
    assert base64.b64decode(hash_b64 + "=") == expected and len(salt) == 16


def test_argon2_hashes_of_before_verify_and_ask_for_a_rehash() -> None:
    stored = argon2(PASSWORD)
    assert stored.startswith(ARGON2)
    assert verify_password(PASSWORD, stored)
    assert not verify_password(PASSWORD + "x", stored)
    assert needs_rehash(stored)


def test_old_format_hashes_verify_and_ask_for_a_rehash() -> None:
    assert verify_password(PASSWORD, OLD_HASH)
    assert verify_password(" Blau–kadu-mepi-rosa-tule-wibo ", OLD_HASH)  # phone and copy forgiven
    assert not verify_password("blau-kadu-mepi-rosa-tule-wibx", OLD_HASH)
    assert needs_rehash(OLD_HASH)
    fresh = old_format("rot-bada-bada-bada-bada-bada")
    assert verify_password("rot-bada-bada-bada-bada-bada", fresh) and needs_rehash(fresh)


def test_other_parameters_verify_and_ask_for_a_rehash() -> None:
    stored = weaker(PASSWORD)
    assert stored.startswith("$argon2id$v=19$m=4096,t=1,p=1$")
    assert verify_password(PASSWORD, stored)
    assert not verify_password(PASSWORD + "x", stored)
    assert needs_rehash(stored)


@pytest.mark.parametrize(
    "stored",
    [
        "",
        "scrypt$",
        "md5$a$b",
        "scrypt$!!$??",
        "scrypt$YWJj$",
        "$argon2id$",
        "$argon2id$v=19$m=19456,t=2,p=1$!!$??",
        ARGON2 + "c2FsdHNhbHRzYWx0$",
        "$argon2x$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaA",
        CURRENT,
        CURRENT + "c2FsdHNhbHRzYWx0$",
        CURRENT + "c2FsdHNhbHRzYWx0$!!",
        CURRENT + "c2FsdA$" + "A" * 43,  # a short salt
        CURRENT + "c2FsdHNhbHRzYWx0c2Fs$aGFzaA",  # a short hash
        CURRENT + "a$b$c",
    ],
)
def test_damaged_hashes_verify_nothing(stored: str) -> None:
    assert not verify_password("x", stored)
    assert needs_rehash(stored) or stored.startswith(CURRENT)


def test_only_successes_are_remembered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every wrong guess pays the hashing work; a verified pair does not pay it again."""
    calls: list[str] = []
    real = secrets._check

    def counting(candidate: bytes, stored: str) -> bool:
        calls.append(stored)
        return real(candidate, stored)

    monkeypatch.setattr(secrets, "_check", counting)
    for stored in (argon2("rot-kadu-mepi-rosa-tule-wibo"), old_format("rot-kadu")):
        calls.clear()
        for _ in range(3):
            assert not verify_password("rot-bada-bada-bada-bada-bada", stored)
        assert len(calls) == 3
        pw = "rot-kadu-mepi-rosa-tule-wibo" if stored.startswith("$") else "rot-kadu"
        assert verify_password(pw, stored) and verify_password(pw, stored)
        assert len(calls) == 4
    # A new hash of the seat (a new password): the old pair does not open it.
    renewed = argon2("rot-hilo-hilo-hilo-hilo-hilo")
    assert not verify_password("rot-kadu-mepi-rosa-tule-wibo", renewed)
    assert verify_password("rot-hilo-hilo-hilo-hilo-hilo", renewed)


# -- upgraded at the next right password --------------------------------------------------------


def _set_hash(svc: Service, player_id: int, stored: str) -> None:
    with transaction(svc.engine) as s:
        row = s.get(Player, player_id)
        assert row is not None
        row.password_hash = stored


def _hash_of(svc: Service, player_id: int) -> str:
    with Session(svc.engine) as s:
        row = s.get(Player, player_id)
        assert row is not None
        return row.password_hash


@pytest.mark.parametrize(
    "outdated", [old_format, weaker, argon2], ids=["scrypt", "weaker-argon2", "argon2"]
)
def test_an_outdated_hash_is_replaced_after_a_mail_with_the_right_password(
    svc: Service, clock: FakeClock, mailer: Mailer, outdated: object
) -> None:
    assert callable(outdated)
    start_game(mailer, clock, "alpha", by_mail=False)
    pw = passwords(svc)
    player = seated(svc, "alpha")[0]
    assert player.id is not None
    stored = outdated(pw[player.address])
    _set_hash(svc, player.id, stored)
    _, state = game_state(svc, "alpha")

    # A wrong password (the seat's colour, other syllables) changes nothing.
    colour = pw[player.address].split("-", 1)[0]
    wrong = orders_text(state, 0, f"{colour}-bada-bada-bada-bada-bada")
    assert mailer.send(player.address, "Züge", wrong, resolve=False).status == "done"
    assert _hash_of(svc, player.id) == stored

    result = mailer.send(
        player.address, "Züge", orders_text(state, 0, pw[player.address]), resolve=False
    )
    assert result.status == "done"
    upgraded = _hash_of(svc, player.id)
    assert upgraded != stored and upgraded.startswith(CURRENT)
    assert verify_password(pw[player.address], upgraded) and not needs_rehash(upgraded)

    # The next mail verifies against the new hash and leaves it as it is.
    mailer.send(player.address, "Züge", orders_text(state, 0, pw[player.address]), resolve=False)
    assert _hash_of(svc, player.id) == upgraded


def test_a_current_hash_is_left_as_it_is(svc: Service, clock: FakeClock, mailer: Mailer) -> None:
    start_game(mailer, clock, "alpha", by_mail=False)
    pw = passwords(svc)
    player = seated(svc, "alpha")[1]
    assert player.id is not None and player.password_hash.startswith(CURRENT)
    _, state = game_state(svc, "alpha")
    mailer.send(player.address, "Züge", orders_text(state, 1, pw[player.address]), resolve=False)
    assert _hash_of(svc, player.id) == player.password_hash
