"""`pbm demo`: a whole game by real mail over loopback, reproducible by seed."""

from __future__ import annotations

import email
import email.policy
import json
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.e2e
@pytest.mark.slow
@pytest.mark.timeout(240)
def test_demo_plays_a_game_by_mail_and_leaves_its_mails(tmp_path: Path) -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pbm",
            "demo",
            "--players",
            "3",
            "--seed",
            "2",
            "--json",
            "--dir",
            str(tmp_path / "demo"),
        ],
        capture_output=True,
        text=True,
        timeout=230,
        check=True,
    )
    summary = json.loads(out.stdout.strip().splitlines()[-1])
    assert summary["winner"]
    assert summary["rounds"] >= 6  # past the lazy bot's NMR rounds and its return
    assert summary["mails_in"] > 20 and summary["mails_out"] > 20
    work = Path(summary["dir"])
    assert (work / "index.html").exists() and (work / "pbm.toml").exists()
    emls = list((work / "mails").glob("*.eml"))
    assert len(emls) >= summary["mails_in"] + summary["mails_out"]
    assert list((work / "mails").glob("*.html"))
    subjects = [
        str(email.message_from_bytes(p.read_bytes(), policy=email.policy.default)["Subject"])
        for p in emls
    ]
    # The lazy bot's NMRs, the autopilot taking its seat, and its return are all in the mail.
    assert any("Keine Züge erhalten" in s for s in subjects)
    assert any("Der Autopilot spielt für dich" in s for s in subjects)
    assert any("Willkommen zurück" in s for s in subjects)
    assert any("Spielende" in s for s in subjects)
    # The GM commands work on the finished demo game.
    show = subprocess.run(
        [sys.executable, "-m", "pbm", "--config", str(work / "pbm.toml"), "game", "replay", "demo"],
        capture_output=True,
        text=True,
    )
    assert show.returncode == 0, show.stdout + show.stderr
