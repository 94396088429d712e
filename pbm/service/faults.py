"""Crash points for the fault tests: `PBM_CRASH_AT=<name>` kills the process there (SIGKILL),
so tests can prove that a crash at any step leaves a state the service recovers from."""

from __future__ import annotations

import os
import signal


def crashpoint(name: str) -> None:
    if os.environ.get("PBM_CRASH_AT") == name:
        os.kill(os.getpid(), signal.SIGKILL)
