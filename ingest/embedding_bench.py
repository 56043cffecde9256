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
import statistics
import time
from pathlib import Path

import numpy as np

from ingest.chunking import embedding_input
from ingest.runtime_check import MIN_COSINE, PROBES, cosines
from store import embedding_runtime as meta


def run_embedding_bench(settings, *, runtime: str, reference: str | None, sample: int, questions: list[Path],
                        out: Path, recipes: list[str] = (), repeat: int = 1) -> int:  # fmt: skip
    """`reference`: the runtime to compare with (default: the one that embedded the corpus).
    `recipes`: int8 recipes (store/onnx_export.py RECIPES) measured as well, each as "int8:<name>".
    `repeat`: timed runs of every runtime, alternating their order; medians are reported."""
    from store.cli import open_for
    from store.embedding import LocalEmbedder, make_embedder
    from store.onnx_export import RECIPES, recipe_tag

    with open_for(settings) as db, db.connection() as conn:
        recorded = meta.recorded_runtime(conn)
        reference = reference or (recorded or settings.embedding_runtime).partition("@")[0]
        rows, stored = meta.sample(conn, sample)
    chunks = [embedding_input(c, t) for c, t in rows]
    asked = list(dict.fromkeys([*PROBES, *_questions(questions)]))
    options = settings.embedding_options()
    figures: dict = {"runtime": runtime, "reference": reference, "recorded_runtime": recorded, "chunks": len(chunks),
                     "questions": len(asked), "repeat": max(1, repeat),
                     "load_average_before": [round(x, 2) for x in os.getloadavg()]}  # fmt: skip
    embedders = {name: make_embedder(options, runtime=name) for name in dict.fromkeys([reference, runtime])}
    for name in recipes:
        embedders[f"int8:{name}"] = LocalEmbedder("onnx-int8", model_dir=options.model_dir, recipe=RECIPES[name])
        figures[f"int8:{name}_recipe"] = {"tag": recipe_tag(RECIPES[name]), **RECIPES[name]}
    for embedder in embedders.values():
        embedder.embed(["warm-up: load the model before the clock starts"])
    timings: dict[str, list[tuple[float, float]]] = {name: [] for name in embedders}
    vectors = {}
    for i in range(max(1, repeat)):
        for name in list(embedders) if i % 2 == 0 else reversed(list(embedders)):
            wall, cpu = time.perf_counter(), time.process_time()
            vectors[name] = embedders[name].embed(chunks)
            timings[name].append((time.perf_counter() - wall, time.process_time() - cpu))
    for name, embedder in embedders.items():
        walls, cpus = [w for w, _ in timings[name]], [c for _, c in timings[name]]
        figures[f"{name}_chunks_per_second"] = _rate(len(chunks), statistics.median(walls))
        figures[f"{name}_chunks_per_second_runs"] = [_rate(len(chunks), w) for w in walls]
        figures[f"{name}_chunks_per_cpu_second"] = _rate(len(chunks), statistics.median(cpus))
        vectors[name, "questions"] = embedder.embed(asked)
    for name in embedders:
        if name == reference:
            continue
        prefix = "" if name == runtime else f"{name}_"
        figures[f"{prefix}cosine_chunks"] = _spread(vectors[name], vectors[reference])
        figures[f"{prefix}cosine_chunks_to_stored"] = _spread(vectors[name], stored)
        figures[f"{prefix}cosine_questions"] = _spread(vectors[name, "questions"], vectors[reference, "questions"])
        figures[f"{prefix}cosine_probes_min"] = round(float(cosines(vectors[name, "questions"][: len(PROBES)],
                                                                    vectors[reference, "questions"][: len(PROBES)]).min()), 4)  # fmt: skip
        each = cosines(vectors[name, "questions"], vectors[reference, "questions"])
        figures[f"{prefix}questions_below_bar"] = [(round(float(c), 4), asked[i]) for i, c in enumerate(each) if c < MIN_COSINE]
        if figures.get(f"{reference}_chunks_per_second"):
            figures[f"{prefix}speedup"] = round(figures[f"{name}_chunks_per_second"] / figures[f"{reference}_chunks_per_second"], 2)
        if figures.get(f"{reference}_chunks_per_cpu_second"):
            figures[f"{prefix}speedup_cpu"] = round(figures[f"{name}_chunks_per_cpu_second"] / figures[f"{reference}_chunks_per_cpu_second"], 2)
    figures["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(figures, indent=2) + "\n")
    for key, value in figures.items():
        if not key.endswith(("_recipe", "_runs")):
            print(f"{key}: {value}")
    print(f"written to {out}")
    return 0


def _rate(n: int, seconds: float) -> float | None:
    return round(n / seconds, 2) if seconds else None


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
