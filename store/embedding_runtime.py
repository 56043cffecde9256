"""What the corpus records about how its vectors were computed, beyond the model's name.

One model can run on several runtimes (PyTorch, ONNX Runtime) whose vectors should agree; the
runtime that embedded the corpus, and each other runtime proven to agree with it on a sample,
are kept in corpus_meta so the proof is made once per corpus, not at every start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import psycopg

if TYPE_CHECKING:
    import numpy as np  # only the sample for an equivalence check is vectors

RUNTIME_KEY = "embedding_runtime"
# Bumped when what a proof checks changes (2: short questions as well as stored chunks), so an
# older, weaker proof no longer counts and the runtime is checked again once.
PROOF_VERSION = 2
LEGACY_RUNTIME = "torch"  # corpora built before the runtime was recorded were embedded with PyTorch


def _get(conn: psycopg.Connection, key: str) -> str | None:
    row = conn.execute("SELECT value FROM corpus_meta WHERE key = %s", (key,)).fetchone()
    return row[0] if row else None


def _put(conn: psycopg.Connection, key: str, value: str) -> None:
    conn.execute("INSERT INTO corpus_meta (key, value) VALUES (%s, %s) "
                 "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value", (key, value))  # fmt: skip


def has_chunks(conn: psycopg.Connection) -> bool:
    return conn.execute("SELECT EXISTS (SELECT 1 FROM chunks)").fetchone()[0]


def recorded_runtime(conn: psycopg.Connection) -> str | None:
    """The runtime that embedded the corpus; None for a corpus with no vectors yet."""
    if not has_chunks(conn):
        return None
    return _get(conn, RUNTIME_KEY) or LEGACY_RUNTIME


def record_runtime(conn: psycopg.Connection, runtime: str) -> None:
    _put(conn, RUNTIME_KEY, runtime)


def _proof(runtime: str) -> str:
    return f"{RUNTIME_KEY}_equivalent:{runtime}:v{PROOF_VERSION}"


def proven_equivalent(conn: psycopg.Connection, runtime: str) -> bool:
    return _get(conn, _proof(runtime)) is not None


def record_equivalent(conn: psycopg.Connection, runtime: str, min_cosine: float) -> None:
    _put(conn, _proof(runtime), f"{min_cosine:.5f}")


EQUIVALENTS = "SELECT count(*) FROM corpus_meta WHERE key LIKE %s"


def sole_runtime(conn: psycopg.Connection) -> str | None:
    """The runtime every stored vector was computed on, when that is certain: the recorded one,
    unless another runtime was proven equivalent (it may have written some since). None otherwise,
    or when no vector is stored."""
    recorded = recorded_runtime(conn)
    if recorded is None or conn.execute(EQUIVALENTS, (f"{RUNTIME_KEY}_equivalent:%",)).fetchone()[0]:
        return None
    return recorded


def sample(conn: psycopg.Connection, n: int) -> tuple[list[tuple[str, str]], np.ndarray]:
    """(context, text) and stored vectors of n chunks spread over the corpus (the same n each time)."""
    import numpy as np

    rows = conn.execute(
        "SELECT context, text, embedding FROM chunks ORDER BY hashtext(id::text) LIMIT %s", (n,)
    ).fetchall()
    vectors = np.array([_array(r[2]) for r in rows], dtype=np.float32).reshape(len(rows), -1)
    return [(r[0], r[1]) for r in rows], vectors


def _array(value) -> np.ndarray:
    """A vector column as numpy, whether or not the connection registered pgvector's types."""
    import numpy as np

    if hasattr(value, "to_numpy"):
        return value.to_numpy().astype(np.float32)
    if isinstance(value, str):
        return np.array([float(x) for x in value.strip("[]").split(",")], dtype=np.float32)
    return np.asarray(value, dtype=np.float32)


CHUNK_INPUTS = "SELECT id, context, text FROM chunks ORDER BY id"
CHUNK_COUNT = "SELECT count(*) FROM chunks"
SET_VECTOR = "UPDATE chunks SET embedding = %s WHERE id = %s"
DROP_PROOFS = "DELETE FROM corpus_meta WHERE key LIKE %s"


def chunk_inputs(conn: psycopg.Connection) -> list[tuple[int, str, str]]:
    """(id, context, text) of every chunk, in the order they were written."""
    return conn.execute(CHUNK_INPUTS).fetchall()


def chunk_count(conn: psycopg.Connection) -> int:
    return conn.execute(CHUNK_COUNT).fetchone()[0]


def replace_vectors(conn: psycopg.Connection, ids: list[int], vectors: np.ndarray) -> None:
    """The chunks' vectors replaced, row by row (see `adopt_runtime`)."""
    with conn.cursor() as cur:
        cur.executemany(SET_VECTOR, [(v, i) for i, v in zip(ids, vectors, strict=True)])


def adopt_runtime(conn: psycopg.Connection, runtime: str) -> None:
    """The corpus's vectors are now all `runtime`'s: recorded as its own, and proofs that other
    runtimes reproduce the old vectors dropped (they no longer hold). Call in the transaction that
    replaced every vector, so a corpus is never half one runtime's."""
    conn.execute(DROP_PROOFS, (f"{RUNTIME_KEY}_equivalent:%",))
    record_runtime(conn, runtime)
