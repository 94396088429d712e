"""The layers of docs/architecture.md hold: the import contracts of pyproject.toml
([tool.importlinter]) are checked here, as `lint-imports` checks them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parent.parent


def test_the_import_contracts_are_kept(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(ROOT)
    code = lint_imports(config_filename=os.fspath(ROOT / "pyproject.toml"), no_cache=True)
    out = capsys.readouterr().out
    assert code == 0, out
    # Every contract was read and checked (a contract the tool cannot read is not "kept").
    assert "8 kept, 0 broken" in out, out
