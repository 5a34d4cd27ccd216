"""The batch summary as a figure (``bideuchre batch --plot FILE.png|.svg``).

:func:`plot_summary` draws, from :meth:`bideuchre.batch.Summary.to_json`, the distribution of
the declaring side's DD tricks per strain (percent of the summary's rows, one bar per strain at
each trick count), one panel for all deals, or with ``--by`` one panel per value of the feature.
matplotlib is imported only here and only when a plot is asked for; it comes with the ``plot``
extra (``pip install 'bideuchre[plot]'``).  No pyplot: a bare ``Figure`` (no display, no global
state), written to a temporary file and renamed, so a failed plot leaves no half file.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

from ..notation import counted
from ..textio import check_path
from .base import BatchError

PLOT_FORMATS = (".png", ".svg")
_COLOURS = {"S": "#2b2b2b", "H": "#d62728", "D": "#ff7f0e", "C": "#2ca02c", "NT": "#1f77b4", "NTL": "#9467bd"}
_LABELS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "NT": "NT", "NTL": "NT↓"}
MAX_PANELS = 30       # a feature with more values is drawn in its first 30 groups (by value)


def figure_class():
    try:
        from matplotlib.figure import Figure
    except ModuleNotFoundError as exc:
        if exc.name is not None and exc.name.split(".")[0] != "matplotlib":
            raise
        raise BatchError("--plot needs matplotlib, which comes with the plot extra: "
                         "pip install 'bideuchre[plot]'") from None
    return Figure


def check_plot(path: str | os.PathLike) -> Path:
    """Check a ``--plot`` target before any work: a ``.png`` or ``.svg`` name in an existing
    directory, not a directory, and matplotlib installed.  Returns the path.  Raises BatchError
    naming what is wrong."""
    check_path(path)
    p = Path(path)
    if p.suffix.lower() not in PLOT_FORMATS:
        raise BatchError(f"--plot {str(path)!r}: give a .png or .svg file name")
    if p.is_dir():
        raise BatchError(f"--plot {str(path)!r} is a directory; give a file name")
    if not p.resolve().parent.is_dir():
        raise BatchError(f"--plot {str(path)!r}: its directory does not exist")
    figure_class()
    return p


def _panels(obj: dict) -> list[tuple[str, dict, int]]:
    """(title, summary-like object with "strains", deals) per panel."""
    by = obj.get("by")
    if not by:
        return [(f"all deals · {obj['deals']:,}", obj, obj["deals"])]
    out = []
    for g in by["groups"][:MAX_PANELS]:
        value = g["value"]
        if by.get("kind") == "condition":
            label = f"{by['feature']}: {'yes' if value else 'no'}"
        else:
            label = f"{by['feature']} = {value}"
        out.append((f"{label} · {counted(g['deals'], 'deal')}", g, g["deals"]))
    return out


_TITLE_CHARS_PER_INCH = 11      # characters of 11-point text an inch holds, with room to spare
_TITLE_LINES = 4                # a longer title is cut with an ellipsis


def _wrapped(text: str, width: float, lines: int) -> str:
    """``text`` broken into lines of at most ``width`` characters (at spaces; a word longer
    than a line is broken), at most ``lines`` of them, the last cut with "…" if need be: the
    title fits the figure instead of running off its right edge."""
    import textwrap
    out = textwrap.wrap(text, max(20, int(width)), break_long_words=True, break_on_hyphens=False)
    if len(out) > lines:
        out = out[:lines]
        out[-1] = out[-1][:max(1, len(out[-1]) - 1)] + "…"
    return "\n".join(out)


def plot_summary(obj: dict, path: str | os.PathLike, *, title: str | None = None) -> Path:
    """Draw the DD trick distribution of a summary (``Summary.to_json()``) into ``path`` (.png
    at 120 dpi or .svg).  Returns the path.  Raises BatchError for a bad path or without
    matplotlib."""
    p = check_plot(path)
    fig = summary_figure(obj, title=title)
    tmp = p.with_name(p.name + ".tmp")
    try:
        fig.savefig(tmp, format=p.suffix.lower()[1:], dpi=120)
        os.replace(tmp, p)
    finally:
        if tmp.exists():
            tmp.unlink()
    return p


def summary_figure(obj: dict, *, title: str | None = None):
    """The matplotlib Figure :func:`plot_summary` saves (one panel per group, the legend below
    them, the title wrapped to the figure's width)."""
    Figure = figure_class()
    panels = _panels(obj)
    strains = list(obj["strains"])
    tricks = len(next(iter(obj["strains"].values()))["distribution"])
    ncols = min(3, len(panels))
    nrows = math.ceil(len(panels) / ncols)
    fig = Figure(figsize=(4.4 * ncols, 3.0 * nrows + 0.9), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False, sharex=True, sharey=True)
    width = 0.8 / len(strains)
    per_deal = max(1, len(obj.get("declarers", "NESW")))
    for k, (label, data, deals) in enumerate(panels):
        ax = axes[k // ncols][k % ncols]
        rows = max(1, deals * per_deal)
        for j, st in enumerate(strains):
            dist = data["strains"][st]["distribution"]
            xs = [int(t) + (j - (len(strains) - 1) / 2) * width for t in dist]
            ys = [100 * v / rows for v in dist.values()]
            ax.bar(xs, ys, width=width, color=_COLOURS.get(st, None), label=_LABELS.get(st, st))
        ax.set_title(label, fontsize=10)
        ax.set_xticks(range(tricks))
        ax.grid(axis="y", alpha=0.3)
        if k % ncols == 0:
            ax.set_ylabel("% of rows")
        if k + ncols >= len(panels):       # no panel below: its own x labels (sharex hides them)
            ax.set_xlabel("DD tricks of the declaring side")
            ax.tick_params(labelbottom=True)
    for k in range(len(panels), nrows * ncols):
        axes[k // ncols][k % ncols].set_visible(False)
    handles, labels = axes[0][0].get_legend_handles_labels()
    # the legend below the panels: at the top it covered the title
    fig.legend(handles, labels, loc="outside lower center", ncols=len(strains), fontsize=9)
    seats = obj.get("declarers", ["N", "E", "S", "W"])
    who = "4 declarers" if len(seats) == 4 else ("declarer " if len(seats) == 1 else "declarers ") + " ".join(seats)
    where = f" · where {obj['where']['condition']}" if obj.get("where") else ""
    text = title or f"DD tricks per strain · preset {obj['preset']} · {who}{where}"
    fig.suptitle(_wrapped(text, _TITLE_CHARS_PER_INCH * 4.4 * ncols, _TITLE_LINES),
                 fontsize=11, x=0.01, ha="left")
    return fig
