"""A corpus embedded on one runtime is searched with another's vectors only once they are proven equal.

PyTorch and ONNX Runtime run the same weights, but an export or a runtime can drift (a changed
graph, another precision such as int8). Before an embedder on a runtime other than the corpus's
own writes to it or searches it, two samples are compared and every cosine must be at least
MIN_COSINE, or Footnote refuses with a clear message:

- stored chunks, embedded again: the new runtime's passage vectors against the stored ones;
- short question-like texts (PROBES), embedded on both runtimes: a query is a handful of words
  embedded alone, where a lower precision drifts most (measured for int8 against float32: filing
  chunks never below 0.992, greetings and thanks down to 0.971), and the corpus's own vectors
  cannot show that.

The proof is recorded (with the lowest cosine of each sample), so it costs one model load or two
once per corpus; a corpus with the same runtime (or no vectors yet) costs one read.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from store import embedding_runtime as meta
from store.errors import EmbeddingMismatch

if TYPE_CHECKING:
    import numpy as np  # only a check that embeds needs it; a cold numeric `ask` never does

log = logging.getLogger(__name__)

MIN_COSINE = 0.99
SAMPLE = 64  # stored chunks embedded again

# Written for this check: the shapes of what people ask about filings, short ones included.
PROBES = (
    "What are the main risk factors?",
    "Supplier concentration",
    "How does the company describe its competition?",
    "Who are its largest customers?",
    "cybersecurity incidents",
    "What did management say about liquidity?",
    "Does it depend on a single manufacturer?",
    "litigation and legal proceedings",
    "How many employees does it have?",
    "Describe the share repurchase program.",
    "interest rate risk",
    "What are the critical accounting estimates?",
    "goodwill impairment",
    "How is subscription revenue recognized?",
    "Why did gross margin fall last year?",
    "foreign exchange exposure",
    "tariffs and trade restrictions",
    "Is there any going concern doubt?",
    "debt covenants",
    "Where are its data centers?",
)


def check_runtime(db, embedder, *, writing: bool = False) -> None:
    """Pass, record, or raise EmbeddingMismatch. `writing`: an empty corpus takes this runtime."""
    runtime = runtime_of(embedder)
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

    chunks = _lowest(embedder.embed([embedding_input(c, t) for c, t in texts]), stored)
    queries = _probe(embedder, recorded)
    failed = [f"{what} (lowest cosine {worst:.3f} on {n})" for what, worst, n in
              (("its stored chunks", chunks, len(texts)), ("short questions", queries, len(PROBES)))
              if worst is not None and worst < MIN_COSINE]  # fmt: skip
    if failed:
        raise EmbeddingMismatch(
            f"This corpus was embedded with {embedder.model_name} on {recorded}, and {runtime} does not "
            f"reproduce its vectors closely enough (cosine >= {MIN_COSINE} needed): {'; '.join(failed)}. "
            f"Set FOOTNOTE_EMBEDDING_RUNTIME={recorded.partition('@')[0]}, or point FOOTNOTE_DATA_DIR/DATABASE_URL "
            "at a new database and ingest again."
        )
    with db.connection() as conn:
        meta.record_equivalent(conn, runtime, min(x for x in (chunks, queries) if x is not None))
    log.info("%s on %s reproduces this corpus's %s vectors (lowest cosine %.4f on %d chunks, %s on %d questions)",
             embedder.model_name, runtime, recorded, chunks, len(texts),
             "untested" if queries is None else f"{queries:.4f}", len(PROBES))  # fmt: skip


def runtime_of(embedder) -> str | None:
    """The runtime an embedder's vectors come from, as a corpus records it (an int8 runtime with
    its quantisation recipe); None for an embedder with one way to compute them."""
    return getattr(embedder, "runtime_id", None) or getattr(embedder, "runtime", None)


def _probe(embedder, recorded: str) -> float | None:
    """The lowest cosine between PROBES embedded on this runtime and on the corpus's; None when
    the corpus's runtime cannot be run here (the embedder offers no sibling on it)."""
    sibling = getattr(embedder, "on_runtime", None)
    if sibling is None:
        return None
    try:
        reference = sibling(recorded)
    except ValueError:  # a runtime (or an int8 recipe) this version does not make
        return None
    return _lowest(embedder.embed(list(PROBES)), reference.embed(list(PROBES)))


def cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row by row: the cosine of each vector of `a` to the one beside it in `b`."""
    import numpy as np

    return np.sum(a * b, axis=1) / np.maximum(np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1), 1e-12)


def _lowest(a: np.ndarray, b: np.ndarray) -> float | None:
    return float(cosines(a, b).min()) if len(a) else None
