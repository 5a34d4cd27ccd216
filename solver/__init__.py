"""bideuchre: the double-dummy solver and hand analyser for Bid Euchre.

The public API, importable from the top (``from bideuchre import Deal, dd_table``):

- rules and notation (:mod:`bideuchre.rules`, :mod:`bideuchre.notation`): ``Card``, ``Seat``,
  ``Side``, ``Strain``, ``Preset``, ``PRESETS``, ``get_preset``, ``Deal``, ``Position``, and the
  errors ``BidEuchreError`` (the base of every error the API raises for bad input),
  ``NotationError``, ``IllegalPlayError``, ``RulesError``, ``ArgumentError``;
- the search (:mod:`bideuchre.search`): ``dd_table`` (the DD table, a ``DDTable``),
  ``solve_position`` (tricks per side from a position);
- analyses (:mod:`bideuchre.analysis`): ``lone_table`` (lone bids with their best exchange),
  ``card_values`` and ``explain`` (every card's value, the principal variation),
  ``analyse_play`` (a played hand card by card), ``par`` (the double-dummy auction),
  ``advise`` (what to bid with one hand, by sampling the unseen cards), ``play_advice`` (what
  to lead or play from one seat's view, single dummy);
- records (:mod:`bideuchre.records`): ``HandRecord``, ``read_records``, ``load_record``.

Names load on first use (PEP 562), so ``import bideuchre`` and the command line start fast;
``bideuchre.batch`` (many deals, all cores) is imported by name.
"""

from __future__ import annotations

import sys as _sys

# Run as the ``bideuchre`` script, this is the first of bideuchre's code: from here a Ctrl-C,
# SIGTERM or SIGHUP is held (recorded) until the command line's main() has its own handlers,
# which send it again (bideuchre.cli.app), so it ends the command with its one line and exit
# code instead of a KeyboardInterrupt traceback from an import or a kill with no line.  The
# builtin ``_signal`` module costs nothing to import.  A program importing bideuchre keeps
# its own handlers: only the script's name turns this on.
# SIGHUP stays ignored when the process was started ignoring it (``nohup``: the command
# outlives its terminal); a multiprocessing worker (spawned with the script's argv) is left
# alone.
_HELD: list = []
if (_sys.argv and "multiprocessing" not in _sys.modules
        and _sys.argv[0].replace("\\", "/").rsplit("/", 1)[-1] in (
            "bideuchre", "bideuchre.exe", "bideuchre-script.py", "bideuchre-script.pyw")):
    import _signal

    def _hold(signum, frame) -> None:
        _HELD.append(signum)

    for _name in ("SIGINT", "SIGTERM", "SIGHUP"):
        if hasattr(_signal, _name):
            try:
                if _name != "SIGHUP" or _signal.getsignal(_signal.SIGHUP) is not _signal.SIG_IGN:
                    _signal.signal(getattr(_signal, _name), _hold)
            except (ValueError, OSError):
                pass



def pop_held_signal() -> int:
    """For the command line (bideuchre.cli.app): the number of the first signal held while the
    ``bideuchre`` script started, taken off the list; 0 for none (always 0 when bideuchre was
    imported by another program)."""
    return _HELD.pop(0) if _HELD else 0


from importlib import import_module  # noqa: E402
from typing import TYPE_CHECKING, Any  # noqa: E402

__version__ = "0.8.6"

# public name -> module that defines it (relative to this package)
_EXPORTS = {
    "BidEuchreError": ".rules", "NotationError": ".rules", "IllegalPlayError": ".rules",
    "RulesError": ".rules", "ArgumentError": ".rules", "Card": ".rules", "Seat": ".rules",
    "Side": ".rules",
    "Strain": ".rules", "Preset": ".rules", "PRESETS": ".rules", "get_preset": ".rules",
    "Deal": ".notation", "Position": ".notation",
    "DDTable": ".search.solve", "dd_table": ".search.solve", "solve_position": ".search.solve",
    "lone_table": ".analysis.lone", "LoneTable": ".analysis.lone", "LoneResult": ".analysis.lone",
    "card_values": ".analysis.explain", "explain": ".analysis.explain",
    "analyse_play": ".analysis.explain", "par": ".analysis.par", "ParResult": ".analysis.par",
    "advise": ".analysis.advice", "Advice": ".analysis.advice",
    "play_advice": ".analysis.play", "PlayAdvice": ".analysis.play", "review_play": ".analysis.play",
    "HandRecord": ".records", "read_records": ".records", "load_record": ".records",
}

__all__ = sorted(_EXPORTS) + ["__version__"]

if TYPE_CHECKING:  # for type checkers and IDEs; at run time the names load lazily
    from .analysis.advice import Advice, advise
    from .analysis.explain import analyse_play, card_values, explain
    from .analysis.lone import LoneResult, LoneTable, lone_table
    from .analysis.par import ParResult, par
    from .analysis.play import PlayAdvice, play_advice, review_play
    from .notation import Deal, Position
    from .records import HandRecord, load_record, read_records
    from .rules import (PRESETS, ArgumentError, BidEuchreError, Card, IllegalPlayError,
                        NotationError, Preset, RulesError, Seat, Side, Strain, get_preset)
    from .search.solve import DDTable, dd_table, solve_position


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'bideuchre' has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
