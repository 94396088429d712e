"""The standard library's own test mails (`test/test_email/data/*`) through `ingest`.

They come from Debian's `libpython3.11-testsuite` package, which `.ci/run` installs; they are
read where Debian puts them (`/usr/lib/python3*/test/test_email/data`), not copied into the
repository. Without a Debian copy the running interpreter's own `test` package is used when it
has one (pyenv's builds do). Without either, the tests are skipped locally and fail when the
environment variable CI is set: CI must have the package.

The directory holds mails of every kind the email package's tests need (multipart, nested
message/rfc822, bounces, broken headers, odd charsets) and a few non-mail files (images,
sounds). Each goes through `ingest` on a service with a game in round 1: no exception, the mail
is stored (or, for a Message-ID seen before, recognised as that mail), its status is done or
ignored, it gets at most one answer, and no game, player, order set or resolution record changes.

A quarantined mail fails the test: quarantine means the handler raised (the service survives it,
but the mail is lost to the player until the game master requeues it), and the stored traceback
is the failure message. The crashes these files found have a minimal raw mail each at the end.
"""

from __future__ import annotations

import os
import re
import sysconfig
from collections.abc import Iterator
from pathlib import Path

import pytest
from databases import game_snapshot
from harness import GM, Mailer, make_service, start_game
from sqlalchemy import func
from sqlmodel import Session, col, select

from pbm.mail.inbound import parse_inbound
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.ingest import ingest
from pbm.store.models import InboundMail, Outbox

DEBIAN = Path("/usr/lib/python3.11/test/test_email/data")


def _debian_dir() -> Path | None:
    found = [DEBIAN, *sorted(Path("/usr/lib").glob("python3*/test/test_email/data"))]
    return next((d for d in found if d.is_dir() and any(d.iterdir())), None)


def _corpus_dir() -> tuple[Path | None, str]:
    """The directory, or None and why not."""
    debian = _debian_dir()
    if debian is not None:
        return debian, ""
    missing = f"{DEBIAN} is missing (Debian package libpython3.11-testsuite)"
    if os.environ.get("CI"):
        return None, missing
    own = Path(sysconfig.get_paths()["stdlib"]) / "test" / "test_email" / "data"
    if own.is_dir() and any(own.iterdir()):
        return own, ""
    return None, f"{missing}, and the interpreter has no {own}"


CORPUS, MISSING = _corpus_dir()
FILES = sorted(p.name for p in CORPUS.iterdir() if p.is_file()) if CORPUS else []


def _require_corpus() -> Path:
    if CORPUS is None:
        if os.environ.get("CI"):
            pytest.fail(f"{MISSING} (CI is set, so this is a failure, not a skip)")
        pytest.skip(MISSING)
    return CORPUS


def assert_not_quarantined(mail: InboundMail, what: str) -> None:
    """Quarantine is the service surviving a crash of its handler, not handling the mail: fail
    with the traceback the service stored."""
    if mail.status == "quarantined":
        pytest.fail(
            f"{what}: the handler crashed and the mail was quarantined; stored "
            f"traceback:\n{mail.error}",
            pytrace=False,
        )


@pytest.fixture(scope="module")
def svc(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    clock = FakeClock()
    service = make_service(tmp_path_factory.mktemp("stdlib_corpus"), clock)
    start_game(Mailer(service), clock, cast=True)
    yield service
    service.engine.dispose()


def test_the_corpus_is_there() -> None:
    corpus = _require_corpus()
    assert len([n for n in FILES if n.startswith("msg_")]) >= 40, (corpus, FILES)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", FILES or ["(no corpus)"])
def test_through_ingest(svc: Service, name: str) -> None:
    raw = (_require_corpus() / name).read_bytes()
    message_id = parse_inbound(raw, GM).message_id
    before = game_snapshot(svc)
    with Session(svc.engine) as s:
        first_new = (s.exec(select(func.max(Outbox.id))).one() or 0) + 1
    result = ingest(svc, raw)
    with Session(svc.engine) as s:
        mail = s.get(InboundMail, result.mail_id)
        assert mail is not None
        # This mail's answers: they refer to the Message-ID the mail carries.
        answers = list(
            s.exec(
                select(Outbox).where(col(Outbox.id) >= first_new, Outbox.in_reply_to == message_id)
            )
        )
    # Several of these files share a Message-ID. The same mail again (same sender and body) is
    # a duplicate of the first; another one is kept under its Message-ID with `#` and 16 hex
    # digits of its content's digest (a stranger cannot squat on a player's Message-ID).
    assert mail.message_id == message_id or re.fullmatch(
        re.escape(message_id) + "#[0-9a-f]{16}", mail.message_id
    ), (mail.message_id, message_id)
    if result.duplicate:
        assert result.status == "duplicate"
    else:
        assert mail.raw == raw
        assert result.status == mail.status
    assert_not_quarantined(mail, name)
    assert mail.status in ("done", "ignored"), mail.status
    if mail.status != "done":
        assert answers == []
    assert len(answers) <= 1, [(a.kind, a.recipients) for a in answers]
    sender = parse_inbound(mail.raw, GM).sender
    assert all(a.recipients == sender for a in answers), (
        [(a.kind, a.recipients) for a in answers],
        sender,
    )
    assert game_snapshot(svc) == before, "no game changes"


@pytest.mark.timeout(60)
def test_no_answer_goes_to_an_empty_address(tmp_path: Path) -> None:
    corpus = _require_corpus()
    clock = FakeClock()
    svc = make_service(tmp_path, clock)
    start_game(Mailer(svc), clock, cast=True)
    for name in FILES:
        ingest(svc, (corpus / name).read_bytes())
        clock.advance(minutes=10)
    with Session(svc.engine) as s:
        empty = [o.in_reply_to for o in s.exec(select(Outbox)) if not o.recipients.strip(", ")]
        crashed = list(s.exec(select(InboundMail).where(InboundMail.status == "quarantined")))
    svc.engine.dispose()
    for mail in crashed:
        assert_not_quarantined(mail, f"mail {mail.id} ({mail.message_id})")
    assert empty == []
