"""Coverage-guided fuzzing of every parser and entry point with atheris (issue 14, "Keep it so").

One target per parser or entry point; a target fails when anything but a
``bideuchre.BidEuchreError`` escapes (a ValueError, TypeError, AttributeError, RecursionError,
...), or, for the command line, when a run ends in a traceback or with an exit code other than
0 (ok) and 2 (bad input).  The quick, derandomized sibling in the suite is
``tests/test_fuzz.py`` (hypothesis).

    pip install atheris
    python benchmarks/fuzz_atheris.py TARGET -runs=1000000 [libFuzzer options]
    python benchmarks/fuzz_atheris.py --list

Run the targets one after another (each is CPU-bound on one core), e.g.::

    for t in $(python benchmarks/fuzz_atheris.py --list); do
        python benchmarks/fuzz_atheris.py $t -runs=1000000 -print_final_stats=1 2>&1 | tail -n 3
    done

libFuzzer prints ``Done N runs`` when a target finishes without a failure; a failure stops it
with the traceback and writes the input to ``crash-*`` in the current folder.
"""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

with atheris.instrument_imports(include=["bideuchre"]):
    from bideuchre.analysis.auction import Auction, parse_bid
    from bideuchre.notation import Deal, Position, parse_cards, parse_hand
    from bideuchre.records import parse_ptn, parse_records
    from bideuchre.rules import (DECKS, PRESETS, BidEuchreError, Card, get_preset, parse_seat,
                                 parse_strain, read_int)
    from bideuchre.search.solve import dd_table, solve_position

DECK_NAMES = list(DECKS)
PRESET_NAMES = list(PRESETS)
SEATS = ["N", "E", "S", "W"]


def _text(fdp: atheris.FuzzedDataProvider, n: int = 200) -> str:
    return fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, n))


def _value(fdp: atheris.FuzzedDataProvider, depth: int = 0):
    """A value of any of the kinds a caller might pass: ints (in and out of range), bools,
    floats, None, text, lists and tuples of those."""
    kind = fdp.ConsumeIntInRange(0, 9 if depth < 2 else 6)
    if kind == 0:
        return fdp.ConsumeIntInRange(-3, 30)
    if kind == 1:
        return fdp.ConsumeInt(8)
    if kind == 2:
        return fdp.ConsumeBool()
    if kind == 3:
        return fdp.ConsumeFloat()
    if kind == 4:
        return None
    if kind in (5, 6):
        return _text(fdp, 12)
    if kind == 7:
        return [_value(fdp, depth + 1) for _ in range(fdp.ConsumeIntInRange(0, 8))]
    if kind == 8:
        return tuple(_value(fdp, depth + 1) for _ in range(fdp.ConsumeIntInRange(0, 8)))
    return {"k": _value(fdp, depth + 1)}


# ---------------------------------------------------------------------------------------------
# Targets: each takes the fuzzer's bytes; BidEuchreError is the one allowed exception

def t_card(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    text = _text(fdp, 40)
    try:
        c = Card.parse(text)
        assert Card.parse(str(c)) == c
    except BidEuchreError:
        pass
    try:
        parse_cards(text)
    except BidEuchreError:
        pass


def t_hand(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    try:
        parse_hand(_text(fdp, 120))
    except BidEuchreError:
        pass


def t_deal(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    deck = fdp.PickValueInList(DECK_NAMES)
    dealer = fdp.PickValueInList(SEATS + [None])
    try:
        d = Deal.from_pbn(_text(fdp, 300), deck, dealer)
        assert Deal.from_pbn(d.pbn(), deck, d.dealer) == d
    except BidEuchreError:
        pass


def t_records(data: bytes) -> None:
    try:
        parse_records(data.decode("utf-8", "replace"), "fuzz")
    except BidEuchreError:
        pass


def t_ptn(data: bytes) -> None:
    try:
        parse_ptn(data.decode("utf-8", "replace"), "fuzz")
    except BidEuchreError:
        pass


def t_auction(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    preset = fdp.PickValueInList(PRESET_NAMES)
    dealer = fdp.PickValueInList(SEATS)
    try:
        auc = Auction.parse(_text(fdp, 80), preset, dealer)
        auc.legal_actions()
    except BidEuchreError:
        pass
    try:
        parse_bid(_text(fdp, 20), preset)
    except BidEuchreError:
        pass
    try:
        read_int(_text(fdp, 20), "fuzz")
    except BidEuchreError:
        pass


def t_api(data: bytes) -> None:
    """Deal and Position constructors, solve_position, dd_table and preset options, from
    values of every kind."""
    fdp = atheris.FuzzedDataProvider(data)
    try:
        deal = Deal(_value(fdp), _value(fdp) if fdp.ConsumeBool() else fdp.PickValueInList(DECK_NAMES),
                    _value(fdp) if fdp.ConsumeBool() else None)
    except BidEuchreError:
        deal = Deal.from_pbn("N:AJ9.K.AT. K.T.J9.AK T.AJ..JT9 Q.Q9.KQ.Q")
    try:
        parse_seat(_value(fdp))
    except BidEuchreError:
        pass
    try:
        parse_strain(_value(fdp))
    except BidEuchreError:
        pass
    try:
        pos = Position(deal, _value(fdp), _value(fdp), _value(fdp),
                       _value(fdp) if fdp.ConsumeBool() else None)
        if len(deal.hands[0]) <= 6:
            solve_position(pos)
    except BidEuchreError:
        pass
    try:
        solve_position(_value(fdp))
    except BidEuchreError:
        pass
    try:
        preset = get_preset(fdp.PickValueInList(PRESET_NAMES))
        name = fdp.PickValueInList(["min_bid", "max_bid", "target", "hands", "set_penalty",
                                    "stick", "first_lead", "strains", "deck", "nonsense"])
        p = preset.with_options(**{name: _value(fdp)})
        if len(deal.hands[0]) <= 6 and deal.deck == p.deck:
            dd_table(deal, p)
    except BidEuchreError:
        pass


def t_cli(data: bytes) -> None:
    """The command line's argument handling: argv of known options with fuzzed values (and
    fuzzed words), run in process; exit 0 or 2, never a traceback or an internal error."""
    fdp = atheris.FuzzedDataProvider(data)
    argv = _cli_argv(fdp)
    code, output = _run_cli(argv)
    if code not in (0, 2) or "Traceback" in output or "internal error" in output:
        raise RuntimeError(f"bideuchre {argv!r}: exit {code}\n{output}")


# the options and words the hypothesis test of the command line draws from (one list for both)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from test_fuzz import CLI_OPTIONS, CLI_WORDS  # noqa: E402


def _cli_argv(fdp: atheris.FuzzedDataProvider) -> list[str]:
    cmd = fdp.PickValueInList(list(CLI_OPTIONS))
    argv = [cmd]
    for _ in range(fdp.ConsumeIntInRange(0, 6)):
        kind = fdp.ConsumeIntInRange(0, 3)
        if kind == 0:
            argv.append(fdp.PickValueInList(CLI_OPTIONS[cmd]))
        elif kind == 1:
            argv.append(fdp.PickValueInList(CLI_WORDS))
        else:
            argv.append(_text(fdp, 30))
    # the argument handling is fuzzed here, not the advice or the tables' drawing: one sampled
    # deal for bid, and JSON output (a run that draws tables costs 5-15 ms, a million of them
    # hours; the drawing has its own tests)
    if cmd == "bid":
        argv += ["--samples", "1"]
    argv.append("--json")
    return argv


_RUNNER = None


def _run_cli(argv: list[str]) -> tuple[int, str]:
    """Run ``bideuchre ARGV`` in process through :func:`bideuchre.cli.app.main` (the console
    script's entry point, with its error handling), stdin empty; the exit code and what it
    printed on stdout and stderr."""
    global _RUNNER
    from typer.testing import CliRunner

    from bideuchre.cli.app import main
    if _RUNNER is None:
        _RUNNER = CliRunner()
    with _RUNNER.isolation(input="") as streams:
        try:
            main(argv)
            code = 0
        except SystemExit as exc:
            code = exc.code
        except BaseException as exc:  # noqa: BLE001 - reported as the failure
            import traceback
            return 1, "Traceback\n" + "".join(traceback.format_exception(exc))
        out = b"".join(s.getvalue() for s in streams if s is not None and hasattr(s, "getvalue"))
    return code, out.decode("utf-8", "replace")


TARGETS = {name[2:]: fn for name, fn in dict(globals()).items() if name.startswith("t_")}


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in TARGETS:
        if len(sys.argv) >= 2 and sys.argv[1] == "--list":
            print("\n".join(TARGETS))
            return
        sys.exit(f"usage: fuzz_atheris.py TARGET [libFuzzer options]; targets: {' '.join(TARGETS)}")
    target = TARGETS[sys.argv[1]]
    atheris.Setup([sys.argv[0]] + sys.argv[2:], target)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
