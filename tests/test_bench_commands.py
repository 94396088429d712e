"""The benchmarks run and print the JSON keys issue 20 names (never a timing asserted: speed is
measured by `pbm bench`, not by tests)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def _bench(*args: str, timeout: float = 600) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-m", "pbm", "bench", *args, "--json"],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=True,
    )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert isinstance(result, dict)
    return result


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_bench_rounds_keys() -> None:
    result = _bench("rounds", "--games", "2")
    assert result["games"] == 2
    for key in ("seconds", "per_game_ms", "cpu_seconds", "rss_mb", "database", "load"):
        assert key in result, key


@pytest.mark.slow
@pytest.mark.e2e  # `pbm serve` against the loopback mail servers
@pytest.mark.timeout(600)
def test_bench_serve_keys() -> None:
    # --mix: one game of each kind (base, Seafarers, Kronlande).
    result = _bench("serve", "--games", "3", "--mix", "--discard", "--tick-seconds", "1")
    assert result["games"] == 3
    assert result["kinds"] == {"base": 1, "sea": 1, "kron": 1}
    for key in ("rss_mb", "rss_idle_mb", "seconds", "mails_sent", "serve_cpu_seconds"):
        assert key in result, key


@pytest.mark.slow
@pytest.mark.e2e  # `pbm serve` against the loopback mail servers
@pytest.mark.timeout(600)
def test_bench_latency_keys() -> None:
    result = _bench("latency", "--rates", "2", "--seconds", "2")
    runs = result["runs"]
    assert isinstance(runs, list) and len(runs) == 1
    run = runs[0]
    assert run["rate"] == 2 and run["serve_exit"] == 0
    for key in ("p50_ms", "p99_ms", "answered", "mails"):
        assert key in run, key
    assert result["serve"] == "pbm serve process"


@pytest.mark.slow
@pytest.mark.e2e  # `pbm serve` against the loopback mail servers
@pytest.mark.timeout(600)
def test_bench_latency_burst_keys() -> None:
    # Slow: `pbm serve` is given 10 s to start before the burst (20 by default,
    # `burst.START_SECONDS`; it starts in 2 to 5).
    result = _bench(
        "latency", "--burst", "--games", "2", "--interval", "0.05", "--start-seconds", "10"
    )
    assert result["games"] == 2 and result["mails"] == 8
    assert result["serve"] == "pbm serve process" and result["serve_exit"] == 0
    for key in (
        "answered",
        "p50_ms",
        "p99_ms",
        "max_ms",
        "reports",
        "reports_expected",
        "first_report_after_deadline_s",
        "all_reports_after_deadline_s",
        "load",
    ):
        assert key in result, key
    assert result["answered"] == 8 and result["reports"] == result["reports_expected"] == 8


@pytest.mark.slow
@pytest.mark.e2e
@pytest.mark.timeout(600)
def test_bench_mail_keys() -> None:
    """End to end and the transport alone on the loopback servers: every order mail is
    acknowledged, and the transport phase answers with the acks' own bytes."""
    result = _bench("mail", "--mails", "20")
    assert result["mails"] == 20
    assert result["acks_sent"] == 20 and result["acks_failed"] == 0
    for key in ("mails_per_s", "raw_per_s", "ratio", "e2e_cpu_ms", "raw_cpu_ms"):
        assert key in result, key
    for key in ("raw_ok_per_s", "raw_ok_ratio", "raw_ok_cpu_ms"):
        assert key in result, key
    ack_bytes = result["ack_bytes"]
    assert isinstance(ack_bytes, int) and ack_bytes > 1000  # a text and an HTML part
