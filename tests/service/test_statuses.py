"""Statuses and phases are the enums of `pbm/store/statuses.py`: their values are the strings
the databases already hold, the tables still match the migrations on SQLite and PostgreSQL,
and the service names every status it compares or sets."""

from __future__ import annotations

import ast
from datetime import UTC, datetime
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlmodel import Session, SQLModel, col, select

from pbm.rules import Phase
from pbm.store.db import transaction
from pbm.store.models import Game, Outbox
from pbm.store.statuses import GamePhase, MailStatus, OutboxStatus, PlayerStatus

ROOT = Path(__file__).resolve().parents[2]
#: Where a status is never a bare string.
SCANNED = [ROOT / "pbm" / "service", ROOT / "pbm" / "store"]
NAMED = {"status", "phase"}


def test_the_values_are_the_stored_strings() -> None:
    """Renaming a value would need a data migration: these are what databases hold."""
    assert list(GamePhase) == ["signup", "setup", "rounds", "ended"]
    assert list(PlayerStatus) == [
        "active",
        "resigned",
        "replaced",
        "observer",
        "observer_pending",
        "signup_pending",
    ]
    assert list(MailStatus) == ["new", "done", "ignored", "quarantined", "held"]
    assert list(OutboxStatus) == ["pending", "sent", "failed", "dropped"]
    assert {str(p) for p in Phase} <= set(GamePhase)


def test_the_tables_match_the_migrations(engine: Engine) -> None:
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        assert compare_metadata(context, SQLModel.metadata) == []


def test_statuses_are_stored_as_their_strings_and_read_as_members(engine: Engine) -> None:
    now = datetime.now(UTC)
    with transaction(engine) as s:
        s.add(Game(name="alpha", settings="{}", seed=1, created_at=now))
        s.add(
            Outbox(
                kind="ack",
                recipients="a@b.test",
                subject="s",
                body="b",
                message_id="<1@pbm.test>",
                status=OutboxStatus.SENT,
                created_at=now,
            )
        )
    with engine.connect() as conn:
        stored = conn.execute(text("SELECT phase FROM game")).scalar_one()
        assert stored == "signup" and type(stored) is str
        assert conn.execute(text("SELECT status FROM outbox")).scalar_one() == "sent"
    with Session(engine) as s:
        game = s.exec(select(Game)).one()
        assert game.phase is GamePhase.SIGNUP
        row = s.exec(select(Outbox).where(Outbox.status == "sent")).one()
        assert row.status is OutboxStatus.SENT
        assert list(s.exec(select(Outbox).where(col(Outbox.status).in_(["pending"])))) == []
    # A value written by hand is read as it is, not refused (the other rows stay readable).
    with transaction(engine) as s:
        s.connection().execute(text("UPDATE outbox SET status = 'odd'"))
    with Session(engine) as s:
        assert s.exec(select(Outbox)).one().status == "odd"


def _bare(node: ast.expr) -> list[str]:
    """The string constants a status is compared with or set to (also in a tuple or list)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [s for e in node.elts for s in _bare(e)]
    return []


def _names_a_status(node: ast.expr) -> bool:
    """`x.status`, `x.phase`, or `col(X.status)`."""
    if isinstance(node, ast.Call) and node.args:
        node = node.args[0]
    return isinstance(node, ast.Attribute) and node.attr in NAMED


def _bare_statuses(tree: ast.AST) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        pairs: list[tuple[ast.expr, ast.expr]] = []
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            pairs = [(a, b) for a in sides for b in sides if a is not b]
        elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            pairs = [(t, node.value) for t in targets]
        elif isinstance(node, ast.Call):
            pairs = [
                (ast.Attribute(ast.Name("_"), k.arg), k.value)
                for k in node.keywords
                if k.arg in NAMED
            ]
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in {"in_", "not_in", "notin_"}:
                pairs += [(func.value, a) for a in node.args]
        for status, value in pairs:
            if _names_a_status(status):
                found += [(getattr(node, "lineno", 0), s) for s in _bare(value)]
    return sorted(found)


def test_the_scan_sees_bare_statuses() -> None:
    code = """
if game.phase == "rounds": pass
if "held" != mail.status: pass
if p.status in ("observer", "x"): pass
row.status = "sent"
Player(status="active")
col(Player.status).in_(("replaced",))
ok = game.phase == GamePhase.ROUNDS and name == "x"
"""
    assert [s for _, s in _bare_statuses(ast.parse(code))] == [
        "rounds",
        "held",
        "observer",
        "x",
        "sent",
        "active",
        "replaced",
    ]


def test_no_status_is_a_bare_string() -> None:
    found = []
    for folder in SCANNED:
        for path in sorted(folder.rglob("*.py")):
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            found += [f"{path.relative_to(ROOT)}:{n}: {s!r}" for n, s in _bare_statuses(tree)]
    assert not found, "use the enums of pbm/store/statuses.py:\n" + "\n".join(found)
