"""The heap of the long-running `pbm serve`: one malloc arena, large blocks mapped on their
own, and the objects of its startup frozen out of the garbage collector's passes.

glibc gives each thread that allocates while another holds the heap's lock an arena of its
own, and memory freed in one arena is not used by another. `pbm serve` allocates in the event
loop (the outbox) and in worker threads (the tick, the mails taken in) at once, so each kept
its own high-water mark: with one arena, the process's peak was 2.6 MB lower (`pbm bench
serve`). The threads take turns under the GIL anyway, so the shared arena's lock costs nothing
measurable.
"""

from __future__ import annotations

import ctypes
import gc
import sys
from collections.abc import Callable
from typing import cast

#: mallopt's parameters (glibc's malloc.h): the most arenas, and the size from which a block
#: is mapped on its own.
M_ARENA_MAX = -8
M_MMAP_THRESHOLD = -3
#: Blocks of 1 MB and more (a board picture's buffers when it is drawn in RGB, which the palette
#: drawing falls back to where texts lie over each other; a large report's) are mapped on their
#: own, so what is freed goes back to the system. glibc would otherwise raise the threshold to
#: the largest block freed, and the next such buffer would come from the heap and stay there
#: after `picture.release`. Smaller blocks (a mail, the palette's lookup table) reuse the heap.
MMAP_THRESHOLD = 1 << 20


def _mallopt() -> Callable[[int, int], int] | None:
    """glibc's mallopt, or None (not Linux, or a C library without it, such as musl's)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return None
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return cast(Callable[[int, int], int], mallopt)


def one_arena() -> bool:
    """Limit glibc's malloc to one arena for every thread; False where that is not possible
    (not Linux, or a C library without mallopt, such as musl's)."""
    mallopt = _mallopt()
    return mallopt is not None and bool(mallopt(M_ARENA_MAX, 1))


def map_large_blocks() -> bool:
    """Blocks of `MMAP_THRESHOLD` and more mapped on their own, always; False where that is
    not possible."""
    mallopt = _mallopt()
    return mallopt is not None and bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))


def freeze_startup() -> int:
    """Moves every object made so far (the modules, the config, the service) out of the
    garbage collector's reach; returns how many. They live as long as the process anyway, and
    a full collection then walks only what the loops made since: a tick over 1,000 games spent
    0.6 s in collections without it, and the collector's own passes run more often and cost
    less, so the garbage of a round's resolution (and the free lists a full collection
    empties) does not pile up between them (`pbm serve`'s peak 0.4 MB lower)."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
