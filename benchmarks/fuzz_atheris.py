"""Coverage-guided fuzzing of every parser and entry point with atheris (issue 14, "Keep it so").

One target per parser or entry point; a target fails when anything but a
``bideuchre.BidEuchreError`` escapes (a ValueError, TypeError, AttributeError, RecursionError,
...), or, for the command line, when a run ends in a traceback or with an exit code other than
0 (ok) and 2 (bad input).  The quick, derandomized sibling in the suite is
``tests/test_fuzz.py`` (hypothesis).

    pip install atheris
    python benchmarks/fuzz_atheris.py TARGET -runs=1000000 [libFuzzer options]
    python benchmarks/fuzz_atheris.py --list
    python benchmarks/fuzz_atheris.py --tally TARGET -runs=N    # count failures, do not stop

``--tally`` runs a target to the end and prints, at exit, each kind of failure (exception type
and the first words of its message) with how often it came and one input that gave it, instead
of stopping at the first: a survey of what a target finds.

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
    from bideuchre.analysis.conditions import ConditionError, parse_condition
    from bideuchre.batch import load
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


# the words of the condition language, for inputs near valid ones
WHERE_WORDS = ["trumps", "bowers", "length", "has", "top", "aces", "and", "or", "not", "true",
               "false", "(", ")", ",", "==", "!=", "<=", ">=", "<", ">", "+", "-", "N", "E", "S",
               "W", "NS", "EW", "H", "spades", "♥", "HJ", "10H", "JD", "0", "1", "2", "3", "7",
               " ", "\t"]


def t_where(data: bytes) -> None:
    """The condition language (``batch --where`` / ``--by``): text near valid expressions or
    raw; an accepted expression evaluates on a block of deals, its canonical form reads back
    to itself and gives the same values; ConditionError is the one allowed exception."""
    import numpy as np
    fdp = atheris.FuzzedDataProvider(data)
    deck = fdp.PickValueInList(DECK_NAMES)
    want = fdp.PickValueInList([None, "condition", "number"])
    if fdp.ConsumeBool():
        text = "".join(fdp.PickValueInList(WHERE_WORDS) for _ in range(fdp.ConsumeIntInRange(0, 40)))
    else:
        text = _text(fdp, 300)
    try:
        c = parse_condition(text, deck, what="--where", want=want)
    except ConditionError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("--where at column ")
        return
    again = parse_condition(c.canonical(), deck, want=want)
    assert again.canonical() == c.canonical(), (c.canonical(), again.canonical())
    counts = _where_counts(deck)
    assert (again.evaluate_counts(counts) == c.evaluate_counts(counts)).all()
    lo, hi = c.bounds
    values = c.evaluate_counts(counts).astype(np.int64)
    assert lo <= values.min() and values.max() <= hi, (text, c.bounds, values.min(), values.max())


_COUNTS: dict = {}


def _where_counts(deck: str):
    """Card counts (n, 4, 24) of 64 random full deals of ``deck`` (made once)."""
    if deck not in _COUNTS:
        import numpy as np
        from bideuchre.batch import generate_records
        deals = [r.deal for r in generate_records(64, 5, deck)]
        _COUNTS[deck] = np.array([d.counts() for d in deals], dtype=np.int64)
    return _COUNTS[deck]


_SAMPLES: dict = {}
_TMP = None


def _sample_output(fmt: str) -> bytes:
    """The bytes of a small batch output of ``fmt`` (3 deals, lone and par columns, a carried
    key), made once with the batch itself."""
    if fmt not in _SAMPLES:
        import tempfile
        from bideuchre.cli.app import main
        folder = Path(tempfile.mkdtemp(prefix="fuzz-load-"))
        src = folder / "in.jsonl"
        src.write_text('{"deal": "N:AJ9.K.AT. K.T.J9.AK T.AJ..JT9 Q.Q9.KQ.Q", "tag": 1}\n'
                       '{"deal": "N:JT.Q.J9.J Q.JT..KQT AK9.K.AQ. .A9.KT.A9", "tag": "x"}\n'
                       '{"deal": "N:AJ9.K.AT. K.T.J9.AK T.AJ..JT9 Q.Q9.KQ.Q", "tag": [1, 2]}\n')
        out = folder / f"out.{fmt}"
        try:
            main(["batch", str(src), "-o", str(out), "--alone", "--par", "--no-summary", "-j", "1"])
        except SystemExit:
            pass
        _SAMPLES[fmt] = out.read_bytes()
    return _SAMPLES[fmt]


def t_load(data: bytes) -> None:
    """``bideuchre.batch.load`` on damaged outputs of every format: a real output cut short,
    with bytes overwritten or inserted, or raw bytes under the format's name.  Every failure
    must be a BidEuchreError naming the file."""
    global _TMP
    import tempfile
    fdp = atheris.FuzzedDataProvider(data)
    fmt = fdp.PickValueInList(["jsonl", "csv", "npz", "parquet"])
    how = fdp.ConsumeIntInRange(0, 3)
    if how == 3:
        body = fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 4000))
    else:
        body = bytearray(_sample_output(fmt))
        if how == 0:
            del body[fdp.ConsumeIntInRange(0, len(body)):]
        for _ in range(fdp.ConsumeIntInRange(1, 8)):
            at = fdp.ConsumeIntInRange(0, len(body))
            chunk = fdp.ConsumeBytes(fdp.ConsumeIntInRange(1, 16))
            if how == 1:
                body[at:at + len(chunk)] = chunk
            else:
                body[at:at] = chunk
        body = bytes(body)
    if _TMP is None:
        _TMP = Path(tempfile.mkdtemp(prefix="fuzz-load-", dir="/dev/shm" if Path("/dev/shm").is_dir() else None))
    path = _TMP / f"x.{fmt}"
    path.write_bytes(body)
    try:
        load(str(path))
    except BidEuchreError as exc:
        assert str(path) in str(exc) or path.name in str(exc), str(exc)


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


_TALLY: dict = {}


def _tallied(target, name: str):
    """``target`` that counts its failures by kind (type and first words) instead of raising;
    each new kind is printed at once, and every kind with its count is rewritten to
    ``fuzz-tally-NAME.txt`` (libFuzzer ends the process without Python's exit hooks)."""
    import re
    runs = [0]

    def report() -> None:
        lines = [f"tally after {runs[0]:,} runs: {sum(n for n, _ in _TALLY.values()):,} failures, "
                 f"{len(_TALLY)} kinds"]
        for key, (n, first) in sorted(_TALLY.items(), key=lambda kv: -kv[1][0]):
            lines.append(f"  {n:8d}  {key}  (first input {first[:60]!r})")
        Path(f"fuzz-tally-{name}.txt").write_text("\n".join(lines) + "\n")

    def run(data: bytes) -> None:
        runs[0] += 1
        if runs[0] % 20000 == 0:
            report()
        try:
            target(data)
        except Exception as exc:  # noqa: BLE001 - counted, the survey's point
            words = re.sub(r"[0-9]+", "N", re.sub(r"/[^ :']*", "PATH", " ".join(str(exc).split())))[:50]
            words = re.sub(r"'\\x..'|0x..", "BYTE", words)
            key = f"{type(exc).__module__}.{type(exc).__name__}: {words}"
            n, first = _TALLY.get(key, (0, data))
            _TALLY[key] = (n + 1, first)
            if n == 0:
                print(f"tally: new kind at run {runs[0]:,}: {key}", file=sys.stderr)
                report()
    return run


def main() -> None:
    tally = len(sys.argv) >= 2 and sys.argv[1] == "--tally"
    if tally:
        del sys.argv[1]
    if len(sys.argv) < 2 or sys.argv[1] not in TARGETS:
        if len(sys.argv) >= 2 and sys.argv[1] == "--list":
            print("\n".join(TARGETS))
            return
        sys.exit(f"usage: fuzz_atheris.py TARGET [libFuzzer options]; targets: {' '.join(TARGETS)}")
    target = TARGETS[sys.argv[1]]
    if tally:
        target = _tallied(target, sys.argv[1])
    atheris.Setup([sys.argv[0]] + sys.argv[2:], target)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
