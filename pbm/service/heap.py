"""The C heap of the long-running `pbm serve`.

glibc gives each thread that allocates while another holds the heap's lock an arena of its
own, and memory freed in one arena is not used by another. `pbm serve` allocates in the event
loop (the outbox) and in worker threads (the tick, the mails taken in) at once, so each kept
its own high-water mark: with one arena, the process's peak was 2.6 MB lower (`pbm bench
serve`). The threads take turns under the GIL anyway, so the shared arena's lock costs nothing
measurable.
"""

from __future__ import annotations

import ctypes
import sys

#: mallopt's parameter for the most arenas (glibc's malloc.h).
M_ARENA_MAX = -8


def one_arena() -> bool:
    """Limit glibc's malloc to one arena for every thread; False where that is not possible
    (not Linux, or a C library without mallopt, such as musl's)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_ARENA_MAX, 1))
