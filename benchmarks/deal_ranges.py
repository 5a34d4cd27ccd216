"""Deal numbers on a benchmark's command line: ``0,2-4,9`` -> ``[0, 2, 3, 4, 9]``.

Shared by ``check_exact.py nodes`` and ``compare_builds.py`` (no import of the package, so the
latter can drive other builds)."""

from __future__ import annotations


def parse_deals(text: str) -> list[int]:
    """Deal numbers from comma-separated numbers and ranges ``lo-hi`` (both ends included).

    Raises ValueError naming the part that is neither."""
    which: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        if not (lo.isdigit() and (hi.isdigit() or not hi)) or (hi and int(hi) < int(lo)):
            raise ValueError(f"{part!r} is not a deal number or a range such as 2-4")
        which += list(range(int(lo), int(hi or lo) + 1))
    return which
