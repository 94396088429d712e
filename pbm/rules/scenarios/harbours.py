"""Harbour tiles shared by the scenario boards."""

from __future__ import annotations

from ..resources import ERZ, GETREIDE, HOLZ, LEHM, WOLLE

#: One 2:1 harbour of each resource.
BASE_HARBORS: tuple[int | None, ...] = (HOLZ, LEHM, WOLLE, GETREIDE, ERZ)
