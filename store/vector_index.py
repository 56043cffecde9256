"""The chunks' vector index (HNSW), built once after a first bulk load instead of row by row.

Why: an HNSW index kept up to date by every inserted row is the most expensive part of storing
a chunk. On the 3 bench filings (1,207 chunks) Postgres spent about 0.66 CPU-seconds inserting
them with the index in place and about 0.10 without it; building the index afterwards over the
same rows took about 0.13. During an ingest that CPU is taken from the embedder. So an ingest
that starts on an empty corpus (the first one, the long one) loads without the index and builds
it once at the end, even when it is interrupted; a corpus that holds chunks keeps its index.

Queries stay right meanwhile: every search the product runs orders a company's chunks by exact
distance (store/chunks.py), which needs no index, and Postgres simply scans while there is none.
The index is the one migration 1 creates (same name, same definition), so a corpus loaded either
way is the same to every reader. Should the ingest die outright before building it, the next
ingest builds it (the index is missing, so it defers and builds as above).
"""

from __future__ import annotations

import psycopg

INDEX = "chunks_embedding"
# Migration 1's statement (store/migrations.py), made safe to repeat.
CREATE = "CREATE INDEX IF NOT EXISTS chunks_embedding ON chunks USING hnsw (embedding vector_cosine_ops)"
DROP = "DROP INDEX IF EXISTS chunks_embedding"
EXISTS = "SELECT to_regclass('chunks_embedding') IS NOT NULL"
EMPTY = "SELECT NOT EXISTS (SELECT 1 FROM chunks)"
# One ingest at a time decides or builds (two ingests may share a database).
LOCK = "SELECT pg_advisory_xact_lock(815432)"


def defer(conn: psycopg.Connection) -> bool:
    """Before a bulk load: drop the index when the corpus holds no chunk. True when the load
    goes without the index (dropped now, or left missing by an ingest that died), so the caller
    must `build` it once the load ends."""
    with conn.transaction():
        conn.execute(LOCK)
        if conn.execute(EMPTY).fetchone()[0]:
            conn.execute(DROP)
        return not conn.execute(EXISTS).fetchone()[0]


def build(conn: psycopg.Connection) -> bool:
    """Build the index if it is missing; True when it was built now."""
    with conn.transaction():
        conn.execute(LOCK)
        if conn.execute(EXISTS).fetchone()[0]:
            return False
        conn.execute(CREATE)
        return True


def present(conn: psycopg.Connection) -> bool:
    return bool(conn.execute(EXISTS).fetchone()[0])
