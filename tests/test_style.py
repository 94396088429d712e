"""The house style, checked with the suite (so CI checks it): `ruff format` and `ruff check` on
the code and the tests, and `mypy --strict` on `pbm/` (the configuration is pyproject.toml's)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


def test_ruff_format_leaves_everything_as_it_is() -> None:
    result = _run("ruff", "format", "--check", "pbm", "tests")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_check_is_clean() -> None:
    result = _run("ruff", "check", "pbm", "tests")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow(seconds=12)
def test_mypy_strict_is_clean_on_pbm() -> None:
    result = _run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr
