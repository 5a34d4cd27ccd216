"""Helpers the tests share (imported by name: ``from helpers import real_deals``): the real
deals, random deals and positions, the batch command run in process, a failing chunk solver."""

from __future__ import annotations

import random
from pathlib import Path

from bideuchre.notation import Deal, Position
from bideuchre.rules import DECKS, Seat, Strain

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "positions" / "sources"


def real_deals(n: int | None = None) -> list[str]:
    """The first n lines of the real single24 deals (positions/sources)."""
    lines = (SOURCES / "real_deals_single24.txt").read_text().split("\n")
    lines = [ln for ln in lines if ln.strip()]
    return lines if n is None else lines[:n]


def random_deal(rng: random.Random, deck: str = "single24", cards: int | None = None) -> Deal:
    """A uniform random deal of ``deck``; with ``cards``, each hand cut to that many (a
    partial deal: the rest are out of play)."""
    form = DECKS[deck]
    pack = [c for c in form.card_ids for _ in range(form.copies)]
    rng.shuffle(pack)
    n = form.hand
    hands = [pack[i * n:(i + 1) * n] for i in range(4)]
    if cards is not None:
        hands = [h[:cards] for h in hands]
    return Deal(hands, form)


def random_position(rng: random.Random, deck: str = "single24", cards: int | None = None,
                    lone: bool = False, max_played: int = 11, strains=tuple(Strain)) -> Position:
    """A random position: random deal, strain, first leader (and lone seat), then a random
    number of random legal cards played (possibly stopping mid-trick)."""
    d = random_deal(rng, deck, cards)
    lone_seat = Seat(rng.randrange(4)) if lone else None
    pos = Position(d, rng.choice(strains), Seat(rng.randrange(4)), lone=lone_seat)
    total = len(d.hands[0]) * pos.trick_size
    k = min(rng.randrange(0, max(1, total - 2)), rng.choice([0, 1, 2, 3, 4, 5, 7, 8, 11, max_played]))
    for _ in range(k):
        pos.play(rng.choice(pos.legal_cards()))
    return pos


def batch_cli(*args: str, **kw):
    """``bideuchre batch ARGS`` run in process (Typer's test runner): the result."""
    from typer.testing import CliRunner
    from bideuchre.cli.app import app
    return CliRunner().invoke(app, ["batch", *args], **kw)


def read_jsonl(path: Path) -> list[dict]:
    """The records of a JSON-lines file."""
    import json
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def failing_at(solve_table_chunk, index: int):
    """``solve_table_chunk`` that raises RuntimeError("injected worker failure") on chunk ``index``:
    a worker failing in the middle of a batch."""
    def failing(task):
        if task.index == index:
            raise RuntimeError("injected worker failure")
        return solve_table_chunk(task)
    return failing
