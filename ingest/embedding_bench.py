"""`footnote bench embedding`: how close another runtime's vectors come to the corpus's, and at what speed.

Before a runtime (int8 above all) is trusted with a corpus, the figures that decide it are the
cosines of its vectors to the reference runtime's, on the texts that matter: the corpus's own
chunks (a sample read from the configured database, never written) and short question-like
texts (the runtime check's probes, plus any question files given), each as lowest, 1st
percentile and median; and the raw throughput of both runtimes on the same chunk texts, as wall
time and as CPU time (on a shared machine the CPU time is the steadier of the two).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import numpy as np

from ingest.chunking import embedding_input
from ingest.runtime_check import MIN_COSINE, PROBES, cosines
from store import embedding_runtime as meta


def run_embedding_bench(settings, *, runtime: str, reference: str | None, sample: int, questions: list[Path],
                        out: Path) -> int:  # fmt: skip
    """`reference`: the runtime to compare with (default: the one that embedded the corpus)."""
    from store.cli import open_for
    from store.embedding import make_embedder

    with open_for(settings) as db, db.connection() as conn:
        reference = reference or meta.recorded_runtime(conn) or settings.embedding_runtime
        rows, stored = meta.sample(conn, sample)
    chunks = [embedding_input(c, t) for c, t in rows]
    asked = list(dict.fromkeys([*PROBES, *_questions(questions)]))
    options = settings.embedding_options()
    figures: dict = {"runtime": runtime, "reference": reference, "chunks": len(chunks), "questions": len(asked),
                     "load_average_before": [round(x, 2) for x in os.getloadavg()]}  # fmt: skip
    vectors = {}
    for name in dict.fromkeys([reference, runtime]):
        embedder = make_embedder(options, runtime=name)
        embedder.embed(["warm-up: load the model before the clock starts"])
        wall, cpu = time.perf_counter(), time.process_time()
        vectors[name] = embedder.embed(chunks)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        figures[f"{name}_chunks_per_second"] = round(len(chunks) / wall, 2) if wall else None
        figures[f"{name}_chunks_per_cpu_second"] = round(len(chunks) / cpu, 2) if cpu else None
        vectors[name, "questions"] = embedder.embed(asked)
    figures["cosine_chunks"] = _spread(vectors[runtime], vectors[reference])
    figures["cosine_chunks_to_stored"] = _spread(vectors[runtime], stored)
    figures["cosine_questions"] = _spread(vectors[runtime, "questions"], vectors[reference, "questions"])
    each = cosines(vectors[runtime, "questions"], vectors[reference, "questions"])
    figures["questions_below_bar"] = [(round(float(c), 4), asked[i]) for i, c in enumerate(each) if c < MIN_COSINE]
    if figures.get(f"{reference}_chunks_per_cpu_second"):
        figures["speedup_cpu"] = round(figures[f"{runtime}_chunks_per_cpu_second"] / figures[f"{reference}_chunks_per_cpu_second"], 2)
    figures["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(figures, indent=2) + "\n")
    for key, value in figures.items():
        print(f"{key}: {value}")
    print(f"written to {out}")
    return 0


def _questions(paths: list[Path]) -> list[str]:
    """The questions (and thread turns) of JSON-lines question files."""
    found: list[str] = []
    for path in paths:
        for line in Path(path).read_text().splitlines():
            if not line.strip():
                continue
            item = json.loads(line)
            found += [item["question"]] if item.get("question") else []
            found += [t if isinstance(t, str) else t.get("text", "") for t in item.get("turns") or []]
    return [q for q in found if q]


def _spread(a: np.ndarray, b: np.ndarray) -> dict:
    c = cosines(a, b)
    if not len(c):
        return {}
    return {"min": round(float(c.min()), 4), "p1": round(float(np.percentile(c, 1)), 4), "median": round(float(np.median(c)), 4)}
