"""CPU time per deal of each stage of a batch of generated deals, one thread: generation (the
reader's work), chunk assembly, solving (the core and its Python), writing JSON lines, summary.
Everything but the core's search holds the GIL, so these say how much of a run two solving
threads must take in turn (Amdahl's law on two cores).

    python benchmarks/bench_batch_stages.py [--deals 5000] [--preset racehorse]

Prints one JSON line of microseconds a deal.  Run it beside another build
(``PYTHONPATH=OTHER python benchmarks/bench_batch_stages.py``) in alternation for a comparison.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=5000)
    ap.add_argument("--preset", default="racehorse")
    args = ap.parse_args()
    from bideuchre import batch as B
    from bideuchre.batch.chunks import ChunkTask, _Chunk, solve_chunk
    from bideuchre.rules import get_preset

    p, n = get_preset(args.preset), args.deals
    size = B.default_chunk_size(p.deck, "thread")
    t = time.process_time()
    src = B.generate_records(n, 1, p.deck)
    recs = [r for batch in src.batches() for r in src.take(src.work(batch))]
    generate = time.process_time() - t
    t = time.process_time()
    chunks = [_Chunk(i, recs[k:k + size], p.deck) for i, k in enumerate(range(0, n, size))]
    chunk = time.process_time() - t
    tasks = [ChunkTask(c.index, p, p.deck, c.counts, c.dealers, c.totals, None, False, False,
                       B.batch_tt_bits(p.deck)) for c in chunks]
    t = time.process_time()
    results = [solve_chunk(x) for x in tasks]
    solve = time.process_time() - t
    with tempfile.TemporaryDirectory() as tmp:
        w = B.open_writer("jsonl", os.path.join(tmp, "o.jsonl"), p)
        t = time.process_time()
        for c, r in zip(chunks, results):
            w.write(c, r)
        write = time.process_time() - t
        w.close()
    s = B.Summary(p, p.deck)
    t = time.process_time()
    for c, r in zip(chunks, results):
        s.add(r.tables, r.par, alone=r.alone, counts=c.counts)
    summary = time.process_time() - t
    print(json.dumps({k: round(v / n * 1e6, 1) for k, v in
                      dict(generate=generate, chunk=chunk, solve=solve, write=write, summary=summary).items()}))


if __name__ == "__main__":
    main()
