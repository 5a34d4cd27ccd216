"""Deal numbers on a benchmark's command line: ``0,2-4,9`` -> ``[0, 2, 3, 4, 9]``.

Shared by ``check_exact.py nodes`` and ``compare_builds.py`` (no import of the package, so the
latter can drive other builds)."""

from __future__ import annotations


LIMIT = 10_000      # the real single24 deals number 10,000 (0-9999); random deals likewise


def parse_deals(text: str, limit: int = LIMIT) -> list[int]:
    """Deal numbers from comma-separated numbers and ranges ``lo-hi`` (both ends included),
    each below ``limit``.

    Raises ValueError naming the part that is neither, or the number out of range."""
    which: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        if not (lo.isdigit() and (hi.isdigit() or not hi)) or (hi and int(hi) < int(lo)):
            raise ValueError(f"{part!r} is not a deal number or a range such as 2-4")
        if int(hi or lo) >= limit:
            raise ValueError(f"{part!r}: deal numbers go from 0 to {limit - 1}")
        which += list(range(int(lo), int(hi or lo) + 1))
    return which
