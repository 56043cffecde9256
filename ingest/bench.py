"""`footnote bench ingest`: how close the pipeline runs to the embedding model's own speed.

Embedding is the floor on ingest time, so the figure that matters is the ratio of pipeline
throughput (chunks stored per second, everything included: reading, parsing, chunking,
embedding, writing) to raw embedding throughput on exactly the same chunk texts, measured in
the same run on the same machine. The run uses a scratch database so the user's corpus is
never touched.
"""

from __future__ import annotations

import contextlib
import json
import resource
import tempfile
import time
import uuid
from pathlib import Path

import psycopg


def run_bench(settings, folder: Path, *, limit: int | None, out: Path, workers: int = 1) -> int:
    from ingest.embed import make_embedder
    from ingest.pipeline import ingest_folder

    folder = Path(folder)
    if not (folder / "filings").is_dir():
        print(f"bench ingest: skipped, {folder} is not a corpus in SEC's layout (no filings/ folder)")
        return 0
    embedder = make_embedder(settings)
    embedder.embed(["warm-up: load the model before the clock starts"])
    with _scratch_database(settings, embedder) as db:
        summary = ingest_folder(db, embedder, folder, limit=limit, progress=True, workers=workers)
        with db.connection() as conn:
            texts = [f"{c}\n{t}" for c, t in conn.execute("SELECT context, text FROM chunks ORDER BY id")]
            db_bytes = conn.execute("SELECT pg_database_size(current_database())").fetchone()[0]
            n_filings = conn.execute("SELECT count(*) FROM filings").fetchone()[0]
        t0 = time.perf_counter()
        if texts:
            embedder.embed(texts)
        raw_s = time.perf_counter() - t0
    n = len(texts)
    pipeline_cps = n / summary.elapsed_s if summary.elapsed_s else 0.0
    documents_cps = n / summary.filings_s if summary.filings_s else 0.0
    raw_cps = n / raw_s if raw_s else 0.0
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    figures = {
        "folder": str(folder),
        "limit": limit,
        "workers": workers,
        "embedding_model": embedder.model_name,
        "filings_ingested": len(summary.ingested),
        "filings_failed": len(summary.failed),
        "failures": [o.reason for o in summary.failed],
        "chunks": n,
        "facts": summary.facts,
        "pipeline_seconds": round(summary.elapsed_s, 2),
        "documents_seconds": round(summary.filings_s, 2),
        "companyfacts_loaded": summary.companyfacts_loaded,
        "embed_seconds_in_pipeline": round(summary.embed_s, 2),
        "waiting_for_parse_seconds": round(summary.parse_wait_s, 2),
        "write_seconds": round(summary.write_s, 2),
        "chunk_seconds_main_process": round(summary.chunk_s, 2),
        "filings_per_minute": round(len(summary.ingested) / summary.elapsed_s * 60, 2) if summary.elapsed_s else 0.0,
        "chunks_per_second": round(pipeline_cps, 2),
        "raw_embedding_seconds": round(raw_s, 2),
        "raw_embedding_chunks_per_second": round(raw_cps, 2),
        "ratio_pipeline_to_raw": round(pipeline_cps / raw_cps, 3) if raw_cps else None,
        "ratio_documents_to_raw": round(documents_cps / raw_cps, 3) if raw_cps else None,
        "peak_memory_mb": round(own / 1024, 1),
        "peak_memory_parse_worker_mb": round(children / 1024, 1),
        "db_bytes": db_bytes,
        "db_mb_per_filing": round(db_bytes / n_filings / 2**20, 2) if n_filings else None,
    }
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(figures, indent=2) + "\n")
    for key, value in figures.items():
        if key != "failures":
            print(f"{key}: {value}")
    for reason in figures["failures"]:
        print(f"FAILED: {reason}")
    print(f"written to {out}")
    return 0


@contextlib.contextmanager
def _scratch_database(settings, embedder):
    """A fresh migrated database on the configured server (or a throwaway embedded one), dropped after."""
    from store.db import Database, migrate, start_embedded

    server = None
    if settings.database_url:
        admin = settings.database_url
    else:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        server = start_embedded(Path(tempfile.mkdtemp(prefix="bench-pg-", dir=settings.data_dir)), cleanup_mode="delete")
        admin = server.get_uri()
    name = f"footnote_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = psycopg.conninfo.make_conninfo(admin, dbname=name)
    migrate(url, dim=embedder.dim, model=embedder.model_name)
    db = Database(url, max_size=2)
    try:
        yield db
    finally:
        db.close()
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
