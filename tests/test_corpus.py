"""Every position of positions/*.txt: the Cython solver and the reference solver both give the
hand-checked answer."""

import pytest

from bideuchre.search.reference import reference_tricks
from bideuchre.rules import Side
from bideuchre.search.solve import solve_position

from corpus import load_corpus

CORPUS = load_corpus()


def test_corpus_is_large_enough():
    core = [c for c in CORPUS if c.file == "core.txt"]
    assert len(core) >= 25
    assert len({c.id for c in CORPUS}) == len(CORPUS), "corpus ids must be unique"


@pytest.mark.parametrize("case", CORPUS, ids=[f"{c.file}:{c.id}" for c in CORPUS])
def test_corpus_position(case):
    fast = solve_position(case.position)
    ref = reference_tricks(case.position)
    assert (fast[Side.NS], fast[Side.EW]) == case.expected, case.source
    assert (ref[Side.NS], ref[Side.EW]) == case.expected, case.source
