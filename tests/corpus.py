"""Reading the corpus files of positions/ (format: positions/README.md)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bideuchre.notation import Deal, Position, parse_cards
from bideuchre.rules import get_preset, parse_seat
from bideuchre.search.solve import first_leader

POSITIONS = Path(__file__).resolve().parent.parent / "positions"


@dataclass
class CorpusLine:
    file: str
    line: int
    id: str
    position: Position
    expected: tuple[int, int]
    source: str


def load_corpus() -> list[CorpusLine]:
    """Every position of every positions/*.txt file."""
    out = []
    for path in sorted(POSITIONS.glob("*.txt")):
        for no, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not raw.strip() or raw.lstrip().startswith("#"):
                continue
            fields = [f.strip() for f in raw.split(" | ")]
            assert len(fields) == 10, f"{path.name}:{no}: expected 10 fields, got {len(fields)}"
            pid, preset, deck, deal, strain, leader, played, lone, expected, source = fields
            p = get_preset(preset)
            p.check_strain(strain)      # a line the CLI would refuse is a bad line
            d = Deal.from_pbn(deal, deck)
            if leader.startswith("dealer"):
                leader = first_leader(p, 0, parse_seat(leader.split()[1]))
            pos = Position(d, strain,
                           leader, parse_cards(played) if played != "-" else (),
                           None if lone == "-" else lone)
            ns, ew = (int(x) for x in expected.split())
            out.append(CorpusLine(path.name, no, pid, pos, (ns, ew), source))
    return out
