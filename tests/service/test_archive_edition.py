"""The archive of a game in the modern edition speaks its words (issue 21 with issue 15)."""

from __future__ import annotations

from pathlib import Path

from harness import Games

from pbm.service.archive import write_archive
from pbm.service.context import Service


def test_the_archive_of_a_modern_game_says_bandit(
    svc: Service, games: Games, tmp_path: Path
) -> None:
    games.start("alpha", edition="modern", round_=6)
    files = write_archive(svc, "alpha", tmp_path / "arch")
    text = "".join(f.read_text(encoding="utf-8") for f in files if f.suffix == ".html")
    assert "Räuber" not in text
    # The players' table of every page: the modern words, the German abbreviation of VP.
    assert "Entw." not in text
    assert "<th>Projektkarten</th>" in text and "<th>SP</th>" in text and "<th>VP</th>" not in text
