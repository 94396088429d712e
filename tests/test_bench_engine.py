"""`pbm bench engine` measures pbm's engine in a process of its own: its peak RSS is that
process's, not the (larger) peak of the process that runs the bench."""

from __future__ import annotations

import json
import resource
import subprocess
import sys

import pytest

from pbm.bench.engine import main


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_pbm_side_reports_its_own_peak_rss(capsys: pytest.CaptureFixture[str]) -> None:
    # Make this process's peak clearly larger than any engine run: 200 MB touched.
    ballast = bytearray(200 * 1024 * 1024)
    for i in range(0, len(ballast), 4096):
        ballast[i] = 1
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss > 200 * 1024
    del ballast

    assert main(["--games", "2", "--skip-catanatron", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["pbm_games"] == 2 and result["pbm_rolls"] > 0
    assert result["catanatron_rss_mb"] is None and result["catanatron_rolls_per_s"] is None
    assert result["pbm_imports"] == ["pbm"]
    # A bare interpreter with the engine is some 15-25 MB; inherited, it would be over 200.
    assert 5 < result["pbm_rss_mb"] < 80, result
    assert result["rss_mb"] == result["pbm_rss_mb"]
    assert "RUSAGE_SELF" in result["rss_measure"]

    sim = json.loads(
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pbm",
                "sim",
                "--games",
                "2",
                "--players",
                "4",
                "--seed",
                "1",
                "--bot",
                "random",
                "--json",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    assert result["pbm_digest"] == sim["digest"], "the bench plays what `pbm sim` plays"
