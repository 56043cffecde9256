"""`footnote ingest --reembed`: the stored chunks embedded again on another runtime, nothing re-parsed.

A runtime (an int8 recipe above all) is judged by retrieval over a corpus embedded with it, and
parsing 130 filings again to get one costs most of an hour; the chunk texts are all in the
database already. Every vector is computed first and then written in one transaction with the
runtime the corpus records, so an interrupted run leaves the corpus as it was, and a finished one
is wholly the new runtime's (its old equivalence proofs dropped, cached answers invalidated).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from ingest.chunking import embedding_input
from ingest.runtime_check import runtime_of
from store import embedding_runtime as meta
from store import passages
from store.errors import FootnoteError

log = logging.getLogger(__name__)

WRITE_BATCH = 2000  # rows per UPDATE round: each statement well inside the statement timeout


@dataclass
class Reembedded:
    chunks: int
    runtime: str
    previous: str | None
    embed_s: float
    write_s: float

    def lines(self) -> list[str]:
        rate = self.chunks / self.embed_s if self.embed_s else 0.0
        return [f"re-embedded {self.chunks:,} chunks on {self.runtime} (were {self.previous or 'none'}): "
                f"{self.embed_s:.1f} s embedding ({rate:.1f} chunks/s), {self.write_s:.1f} s writing"]  # fmt: skip


def reembed(db, embedder, *, progress: bool = True) -> Reembedded:
    """Replace every stored vector with `embedder`'s and record its runtime as the corpus's."""
    runtime = runtime_of(embedder)
    if runtime is None:
        raise FootnoteError("--reembed needs the local model (its runtime is what the corpus records)")
    db.check_embedding(embedder.model_name, embedder.dim)
    with db.connection() as conn:
        previous = meta.recorded_runtime(conn)
        rows = meta.chunk_inputs(conn)
    ids = [r[0] for r in rows]
    t0 = time.perf_counter()
    vectors = embedder.embed([embedding_input(c, t) for _, c, t in rows], progress=progress)
    embed_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    with db.connection() as conn, conn.transaction():
        if meta.chunk_count(conn) != len(ids):
            raise FootnoteError("the corpus changed while it was re-embedded (an ingest ran?); nothing was written")
        for start in range(0, len(ids), WRITE_BATCH):
            meta.replace_vectors(conn, ids[start : start + WRITE_BATCH], vectors[start : start + WRITE_BATCH])
        meta.adopt_runtime(conn, runtime)
        passages.forget_all(conn)  # embedded on the old runtime: `footnote ingest --passages` embeds them again
        db.bump_corpus_version(conn)
    return Reembedded(len(ids), runtime, previous, embed_s, time.perf_counter() - t0)
