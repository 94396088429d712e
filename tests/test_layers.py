"""The layers of docs/architecture.md hold: the import contracts of pyproject.toml
([tool.importlinter]) are checked here, as `lint-imports` checks them."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def logging_kept() -> Iterator[None]:
    """lint-imports configures logging with `dictConfig`, which disables every logger that
    exists (`pbm` among them): a later test in the same worker then saw no log record at all
    (`caplog.text == ""`). Every logger's state is put back as it was."""
    loggers = [logging.getLogger()] + [
        lg for lg in logging.Logger.manager.loggerDict.values() if isinstance(lg, logging.Logger)
    ]
    kept = [(lg, lg.disabled, lg.level, lg.propagate, list(lg.handlers)) for lg in loggers]
    try:
        yield
    finally:
        for lg, disabled, level, propagate, handlers in kept:
            lg.disabled, lg.propagate = disabled, propagate
            lg.setLevel(level)
            lg.handlers[:] = handlers


def test_the_import_contracts_are_kept(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.chdir(ROOT)
    with logging_kept():
        code = lint_imports(config_filename=os.fspath(ROOT / "pyproject.toml"), no_cache=True)
    out = capsys.readouterr().out
    assert code == 0, out
    # Every contract was read and checked (a contract the tool cannot read is not "kept").
    assert "8 kept, 0 broken" in out, out
    # pbm's log is heard after the check as before it.
    logging.getLogger("pbm").error("still heard")
    assert "still heard" in caplog.text
