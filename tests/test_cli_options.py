"""The options the commands share (cli/options.py), read once for every command."""

from __future__ import annotations

import pytest

from bideuchre.cli.common import BadInput
from bideuchre.cli.options import parse_known
from bideuchre.notation import parse_hand
from bideuchre.rules import Card, NotationError, Seat


def test_known_takes_either_separator_and_gathers_a_seat_given_twice():
    # play wrote SEAT=CARDS, bid SEAT:CARDS; both commands take both
    for items in (["E=SA HK", "w:C9"], ["e:SA HK", "W=C9"]):
        assert parse_known(items) == {Seat.E: "SA HK", Seat.W: "C9"}
    assert parse_known(["E=SA", "E:HK"]) == {Seat.E: "SA HK"}
    # the seat ends at the first separator: the cards keep what follows
    assert parse_known(["E=A:.."]) == {Seat.E: "A:.."}


def test_known_read_gives_cards_each_item_read_on_its_own():
    got = parse_known(["E:SA HK", "E=A...", "N:9..."], read=True)
    assert got == {Seat.E: [Card.SA, Card.HK, Card.SA], Seat.N: [Card.S9]}
    assert got[Seat.E] == parse_hand("SA HK") + parse_hand("A...")


def test_known_errors_name_the_item_the_seat_or_the_card():
    with pytest.raises(BadInput, match=r"cannot read --known 'E': expected SEAT=CARDS or SEAT:CARDS, like 'E=SA HK'"):
        parse_known(["E"])
    with pytest.raises(BadInput, match=r"expected SEAT:CARDS or SEAT=CARDS, like 'E:SA HK'"):
        parse_known(["ESA"], like="E:SA HK", read=True)
    with pytest.raises(NotationError, match="unknown seat 'X'"):
        parse_known(["X=SA"])
    with pytest.raises(NotationError, match="--known e"):
        parse_known(["e:S8"], read=True)


def test_a_short_flag_means_one_long_option_in_every_command():
    """``-k`` was ``--known`` in bid and play but ``--index`` in explain, board and replay: a
    short flag now names the same long option in every command that has it."""
    import typer.main
    from bideuchre.cli.app import app
    group = typer.main.get_command(app)
    meaning: dict = {}
    for name, cmd in group.commands.items():
        for param in cmd.params:
            longs = sorted(o for o in param.opts if o.startswith("--"))
            for short in (o for o in param.opts if not o.startswith("--")):
                meaning.setdefault(short, {}).setdefault(tuple(longs), []).append(name)
    clashes = {s: sorted(m) for s, m in meaning.items() if len(m) > 1}
    # kept on purpose: -j is the parallelism (--jobs of batch and match, --workers of bid and
    # play), -n the number of deals (--samples, match's --deals), and bid's -s its --seat (bid
    # has no --strain, so no command reads -s two ways)
    allowed = {"-j": [("--jobs",), ("--workers",)], "-n": [("--deals",), ("--samples",)],
               "-s": [("--seat",), ("--strain",)]}
    assert clashes == allowed, clashes
    assert not any("-s" in p.opts for p in group.commands["bid"].params if "--strain" in p.opts)
    assert ("--known",) in meaning["-k"] and ("--index",) in meaning["-i"]
