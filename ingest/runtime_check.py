"""A corpus embedded on one runtime is searched with another's vectors only once they are proven equal.

PyTorch and ONNX Runtime run the same weights, but an export or a runtime can drift (a changed
graph, another precision). Before an embedder on a runtime other than the corpus's own writes to
it or searches it, a sample of stored chunks is embedded again and compared: every cosine must be
at least MIN_COSINE, or Footnote refuses with a clear message. The proof is recorded, so it costs
one model load once per corpus; a corpus with the same runtime (or no vectors yet) costs one read.
"""

from __future__ import annotations

import logging

import numpy as np

from store import embedding_runtime as meta
from store.errors import EmbeddingMismatch

log = logging.getLogger(__name__)

MIN_COSINE = 0.99
SAMPLE = 24


def check_runtime(db, embedder, *, writing: bool = False) -> None:
    """Pass, record, or raise EmbeddingMismatch. `writing`: an empty corpus takes this runtime."""
    runtime = getattr(embedder, "runtime", None)
    if runtime is None:  # one way to compute the vectors (OpenAI, a test double): nothing to prove
        return
    with db.connection() as conn:
        recorded = meta.recorded_runtime(conn)
        if recorded is None:
            if writing:
                meta.record_runtime(conn, runtime)
            return
        if recorded == runtime or meta.proven_equivalent(conn, runtime):
            return
        texts, stored = meta.sample(conn, SAMPLE)
    from ingest.chunking import embedding_input

    fresh = embedder.embed([embedding_input(c, t) for c, t in texts])
    cosines = np.sum(fresh * stored, axis=1) / np.maximum(
        np.linalg.norm(fresh, axis=1) * np.linalg.norm(stored, axis=1), 1e-12
    )
    worst = float(cosines.min()) if len(cosines) else 1.0
    if worst < MIN_COSINE:
        raise EmbeddingMismatch(
            f"This corpus was embedded with {embedder.model_name} on {recorded}, and {runtime} does not "
            f"reproduce its vectors (cosine {worst:.3f} < {MIN_COSINE} on {len(cosines)} chunks). Set "
            f"FOOTNOTE_EMBEDDING_RUNTIME={recorded}, or point FOOTNOTE_DATA_DIR/DATABASE_URL at a new "
            "database and ingest again."
        )
    with db.connection() as conn:
        meta.record_equivalent(conn, runtime, worst)
    log.info("%s on %s reproduces this corpus's %s vectors (lowest cosine %.4f on %d chunks)",
             embedder.model_name, runtime, recorded, worst, len(cosines))  # fmt: skip
