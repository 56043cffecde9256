"""`footnote bench ingest`: how close the pipeline runs to the embedding model's own speed.

Embedding is the floor on ingest time, so the figure that matters is the ratio of pipeline
throughput (chunks stored per second, everything included: reading, parsing, chunking,
embedding, writing) to raw embedding throughput on exactly the same chunk texts, measured in
the same run on the same machine. The machine may be shared, so `repeat` runs both
measurements several times, alternating which goes first, and reports medians (the ratio is the
median of each run's own ratio, its two halves measured back to back). Each run uses a fresh
scratch database so the user's corpus is never touched.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import psycopg

from ingest import bench_cpu
from store import inventory
from store.databases import create_database, database_size, drop_database


def run_bench(settings, folder: Path, *, limit: int | None, out: Path, workers: int = 1, repeat: int = 1,
              compare_runtime: str | None = None, runtime: str | None = None,
              baseline: Path | None = None) -> int:  # fmt: skip
    """`runtime`: the one measured (default: the configured one). `compare_runtime` (e.g. "torch")
    measures the local model on that runtime too, in the same run and alternating with it, and
    reports both and the speed-up. `baseline`: another source tree (e.g. main's) whose own
    `bench ingest` runs once per repeat, alternating with these runs, on the same filings and
    runtime; its medians are reported beside."""
    from store.embedding import make_embedder

    folder = Path(folder)
    if not (folder / "filings").is_dir():
        print(f"bench ingest: skipped, {folder} is not a corpus in SEC's layout (no filings/ folder)")
        return 0
    runtime = runtime or settings.embedding_runtime
    embedders = {runtime: make_embedder(settings.embedding_options(), runtime=runtime)}
    if compare_runtime and compare_runtime not in embedders:
        embedders[compare_runtime] = make_embedder(settings.embedding_options(), runtime=compare_runtime)
    for embedder in embedders.values():
        embedder.embed(["warm-up: load the model before the clock starts"])
    load_before = os.getloadavg()
    runs: dict[str, list[dict]] = {name: [] for name in embedders}
    texts: dict[str, list[str] | None] = {name: None for name in embedders}
    baseline_runs: list[dict] = []
    for i in range(max(1, repeat)):
        if baseline is not None and i % 2 == 1:
            baseline_runs.append(_baseline_run(baseline, folder, limit, workers, runtime))
        order = list(embedders) if i % 2 == 0 else list(reversed(embedders))
        for name in order:
            run, texts[name] = _one_run(settings, embedders[name], folder, limit, workers, texts[name], raw_first=i % 2 == 1)
            runs[name].append(run)
        if baseline is not None and i % 2 == 0:
            baseline_runs.append(_baseline_run(baseline, folder, limit, workers, runtime))
    load_after = os.getloadavg()
    every = {name: _figures(runs[name], len(texts[name] or []), folder=folder, limit=limit, workers=workers,
                            model=embedders[name].model_name, loads=(load_before, load_after))
             for name in embedders}  # fmt: skip
    primary, *others = list(embedders)
    figures = {**every[primary], "embedding_runtime": primary}
    for name in others:
        base = every[name]
        figures[f"compared_{name}"] = base
        if base["chunks_per_second"]:
            figures[f"pipeline_speedup_vs_{name}"] = round(figures["chunks_per_second"] / base["chunks_per_second"], 2)
        if base["raw_embedding_chunks_per_second"]:
            figures[f"raw_speedup_vs_{name}"] = round(
                figures["raw_embedding_chunks_per_second"] / base["raw_embedding_chunks_per_second"], 2)
    if baseline_runs:
        figures["baseline"] = _baseline_figures(baseline, baseline_runs)
        if figures["baseline"]["chunks_per_second"]:
            figures["pipeline_speedup_vs_baseline"] = round(
                figures["chunks_per_second"] / figures["baseline"]["chunks_per_second"], 3)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(figures, indent=2) + "\n")
    for key, value in figures.items():
        if key == "failures":
            continue
        if key.startswith(("compared_", "baseline")) and isinstance(value, dict):
            for inner in ("chunks", "chunks_per_second", "raw_embedding_chunks_per_second", "ratio_pipeline_to_raw",
                          "pipeline_seconds", "embed_seconds_in_pipeline", "parse_worker_cpu_seconds",
                          "cpu_beside_embedder_seconds", "cpu_bound_ratio"):  # fmt: skip
                print(f"{key}.{inner}: {value.get(inner)}")
            continue
        print(f"{key}: {value}")
    for reason in figures["failures"]:
        print(f"FAILED: {reason}")
    print(f"written to {out}")
    return 0


def _one_run(settings, embedder, folder: Path, limit, workers: int, texts: list[str] | None, *, raw_first: bool):
    """One pipeline run and one raw embedding of its chunks, back to back (the order alternates)."""
    raw_first = raw_first and texts is not None  # alternate, so drift in load favours neither
    raw = _time_embedding(embedder, texts) if raw_first else None
    run, run_texts = _pipeline_run(settings, embedder, folder, limit, workers)
    if texts is not None and run_texts != texts:
        raise RuntimeError("bench ingest: the pipeline produced different chunks from one run to the next")
    run["raw_s"], run["raw_cpu_s"] = raw if raw_first else _time_embedding(embedder, run_texts)
    return run, run_texts


def _pipeline_run(settings, embedder, folder: Path, limit: int | None, workers: int) -> tuple[dict, list[str]]:
    """One full ingest into a fresh scratch database: its timings and the chunk texts it embedded."""
    from ingest.parse_worker import ParseWorkers
    from ingest.pipeline import ingest_folder

    # As `footnote ingest` does: the parse workers start first, while the database starts.
    with ParseWorkers(workers) as started, _scratch_database(settings, embedder) as (db, pgdata):
        cpu0, server0 = bench_cpu.own_cpu(), bench_cpu.server_cpu(pgdata)
        summary = ingest_folder(db, embedder, folder, limit=limit, progress=True, workers=workers, parse_workers=started)
        cpu1, server1 = bench_cpu.own_cpu(), bench_cpu.server_cpu(pgdata)
        warm_up = started.warm_up_cpu_s()  # before the clock, as the database's start is
        with db.connection() as conn:
            texts = [f"{c}\n{t}" for c, t in inventory.chunk_texts(conn)]
            db_bytes = database_size(conn)
            n_filings = inventory.filing_count(conn)
    run = {"summary": summary, "db_bytes": db_bytes, "n_filings": n_filings, "main_cpu_s": cpu1 - cpu0,
           "server_cpu_s": None if server0 is None or server1 is None else server1 - server0,
           # a worker reports its warm-up with its first document; one that parsed nothing reports nothing
           "worker_cpu_s": summary.parse_cpu_s - warm_up if summary.parse_cpu_s else 0.0, "warm_up_cpu_s": warm_up}
    return run, texts


def _baseline_run(tree: Path, folder: Path, limit: int | None, workers: int, runtime: str) -> dict:
    """One run (repeat 1) of `tree`'s own `bench ingest`, in a subprocess started in that tree (so
    its packages are the ones imported), with this process's environment: its figures."""
    with tempfile.TemporaryDirectory(prefix="bench-baseline-") as tmp:
        out = Path(tmp) / "ingest.json"
        argv = [sys.executable, "-m", "bot.cli", "bench", "ingest", "--from", str(Path(folder).resolve()),
                "--repeat", "1", "--workers", str(workers), "--runtime", runtime, "--out", str(out)]  # fmt: skip
        if limit is not None:
            argv += ["--limit", str(limit)]
        subprocess.run(argv, cwd=Path(tree).resolve(), check=True, stdout=subprocess.DEVNULL)
        return json.loads(out.read_text())


def _baseline_figures(tree: Path, runs: list[dict]) -> dict:
    med = statistics.median

    def median_of(key):
        values = [r[key] for r in runs if r.get(key) is not None]
        return round(med(values), 3) if values else None

    figures = {"tree": str(Path(tree).resolve()), "repeat": len(runs), "chunks": runs[-1]["chunks"],
               "facts": runs[-1]["facts"]}  # fmt: skip
    for key in ("chunks_per_second", "raw_embedding_chunks_per_second", "pipeline_seconds", "raw_embedding_seconds",
                "embed_seconds_in_pipeline", "waiting_for_parse_seconds", "write_seconds", "parse_worker_cpu_seconds"):
        figures[key] = median_of(key)
    figures["ratio_pipeline_to_raw"] = median_of("ratio_pipeline_to_raw")
    figures["ratio_pipeline_to_raw_runs"] = [r["ratio_pipeline_to_raw"] for r in runs]
    figures["pipeline_seconds_runs"] = [r["pipeline_seconds"] for r in runs]
    return figures


def _time_embedding(embedder, texts: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of embedding `texts` in one call."""
    t0, cpu0 = time.perf_counter(), bench_cpu.own_cpu()
    if texts:
        embedder.embed(texts)
    return time.perf_counter() - t0, bench_cpu.own_cpu() - cpu0


def _figures(runs: list[dict], n: int, *, folder, limit, workers, model, loads) -> dict:
    med = statistics.median
    last = runs[-1]["summary"]

    def per_run(get) -> float:
        return med([get(r["summary"]) for r in runs])

    pipeline_s = per_run(lambda s: s.elapsed_s)
    documents_s = per_run(lambda s: s.filings_s)
    raw_s = med([r["raw_s"] for r in runs])
    ratios = [(r["raw_s"] / r["summary"].elapsed_s) if r["summary"].elapsed_s else 0.0 for r in runs]
    doc_ratios = [(r["raw_s"] / r["summary"].filings_s) if r["summary"].filings_s else 0.0 for r in runs]
    raw_cps = n / raw_s if raw_s else 0.0
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    db_bytes, n_filings = runs[-1]["db_bytes"], runs[-1]["n_filings"]
    return {
        "folder": str(folder),
        "limit": limit,
        "workers": workers,
        "repeat": len(runs),
        "embedding_model": model,
        "load_average_before": [round(x, 2) for x in loads[0]],
        "load_average_after": [round(x, 2) for x in loads[1]],
        "filings_ingested": len(last.ingested),
        "filings_failed": len(last.failed),
        "failures": [o.reason for o in last.failed],
        "chunks": n,
        "facts": last.facts,
        "pipeline_seconds": round(pipeline_s, 2),
        "pipeline_seconds_runs": [round(r["summary"].elapsed_s, 2) for r in runs],
        "documents_seconds": round(documents_s, 2),
        "companyfacts_loaded": last.companyfacts_loaded,
        "embed_seconds_in_pipeline": round(per_run(lambda s: s.embed_s), 2),
        "waiting_for_parse_seconds": round(per_run(lambda s: s.parse_wait_s), 2),
        "write_seconds": round(per_run(lambda s: s.write_s), 2),
        "index_seconds": round(per_run(lambda s: s.index_s), 2),
        "chunk_seconds_main_process": round(per_run(lambda s: s.chunk_s), 2),
        # what the embedder competes with for the cores: the parse worker's CPU, its imports included
        "parse_worker_cpu_seconds": round(per_run(lambda s: s.parse_cpu_s), 2),
        # chunks whose vector was not computed: a twin's in the same call (a fresh database has no
        # stored vectors to reuse), so 0 means every chunk on both sides of the ratio was embedded
        "reused_vectors": last.reused_vectors,
        "filings_per_minute": round(len(last.ingested) / pipeline_s * 60, 2) if pipeline_s else 0.0,
        "chunks_per_second": round(n / pipeline_s, 2) if pipeline_s else 0.0,
        "raw_embedding_seconds": round(raw_s, 2),
        "raw_embedding_seconds_runs": [round(r["raw_s"], 2) for r in runs],
        "raw_embedding_chunks_per_second": round(raw_cps, 2),
        "ratio_pipeline_to_raw": round(med(ratios), 3) if raw_cps else None,
        "ratio_pipeline_to_raw_runs": [round(x, 3) for x in ratios],
        "ratio_documents_to_raw": round(med(doc_ratios), 3) if raw_cps else None,
        # Both terms come from the same interval, so other load on the machine cancels out: the
        # share of the pipeline's time spent inside the embedding call (1.0: no overhead at all).
        "embedding_share_of_pipeline": round(per_run(lambda s: s.embed_s / s.elapsed_s if s.elapsed_s else 0.0), 3),
        **_cpu_figures(runs),
        "peak_memory_mb": round(own / 1024, 1),
        "peak_memory_parse_worker_mb": round(max(r["summary"].parse_peak_mb for r in runs), 1),
        "db_bytes": db_bytes,
        "db_mb_per_filing": round(db_bytes / n_filings / 2**20, 2) if n_filings else None,
    }


def _cpu_figures(runs: list[dict]) -> dict:
    """CPU-seconds per run (medians): raw embedding, and the pipeline's by where it was spent.

    `cpu_bound_ratio` is raw embedding's CPU over all the CPU in the pipeline's clock (this
    process, the parse worker after its warm-up, Postgres): the best ratio the pipeline can reach
    with both cores busy, and a figure that holds under load, unlike the wall-clock ratio.
    `cpu_beside_embedder_seconds` is that total less raw embedding's CPU.
    """
    med = statistics.median

    def total(r) -> float | None:
        return None if r["server_cpu_s"] is None else r["main_cpu_s"] + r["worker_cpu_s"] + r["server_cpu_s"]

    def median_of(get, digits: int = 2) -> float | None:
        values = [v for v in (get(r) for r in runs) if v is not None]
        return round(med(values), digits) if values else None

    return {
        "raw_embedding_cpu_seconds": median_of(lambda r: r["raw_cpu_s"]),
        "pipeline_main_process_cpu_seconds": median_of(lambda r: r["main_cpu_s"]),
        "writer_thread_cpu_seconds": median_of(lambda r: r["summary"].write_cpu_s),
        "parse_worker_cpu_seconds_in_clock": median_of(lambda r: r["worker_cpu_s"]),
        "parse_worker_warm_up_cpu_seconds": median_of(lambda r: r["warm_up_cpu_s"]),
        "postgres_cpu_seconds": median_of(lambda r: r["server_cpu_s"]),
        "cpu_beside_embedder_seconds": median_of(lambda r: total(r) - r["raw_cpu_s"] if total(r) else None),
        "cpu_bound_ratio": median_of(lambda r: r["raw_cpu_s"] / total(r) if total(r) else None, 3),
        "cpu_bound_ratio_runs": [round(r["raw_cpu_s"] / total(r), 3) for r in runs if total(r)],
    }


@contextlib.contextmanager
def _scratch_database(settings, embedder):
    """A fresh migrated database on the configured server (or a throwaway embedded one), dropped
    after: (the database, the embedded server's data folder or None)."""
    from store.db import Database, migrate, start_embedded

    server = pgdata = None
    if settings.database_url:
        admin = settings.database_url
    else:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(prefix="bench-pg-", dir=settings.data_dir)).resolve()
        server = start_embedded(scratch, cleanup_mode="delete")
        admin = server.get_uri()
        pgdata = scratch / "pg"  # where start_embedded keeps the server's files
    name = f"footnote_bench_{uuid.uuid4().hex[:8]}"
    create_database(admin, name)
    url = psycopg.conninfo.make_conninfo(admin, dbname=name)
    migrate(url, dim=embedder.dim, model=embedder.model_name)
    db = Database(url, max_size=2)
    try:
        yield db, pgdata
    finally:
        db.close()
        drop_database(admin, name)
