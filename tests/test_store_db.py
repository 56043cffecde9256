"""The schema migrates on a real Postgres with pgvector, idempotently, and guards its embedding model."""

import pytest

from store import migrations
from store.errors import EmbeddingMismatch


def test_migrations_are_idempotent(db):
    with db.connection() as conn:
        assert migrations.apply(conn, dim=384, model="all-MiniLM-L6-v2") == len(migrations.MIGRATIONS)
        versions = [r[0] for r in conn.execute("SELECT version FROM schema_migrations ORDER BY 1")]
    assert versions == list(range(1, len(migrations.MIGRATIONS) + 1))


def test_embedding_dimension_is_fixed_by_the_corpus(db):
    with db.connection() as conn:
        typ = conn.execute(
            "SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
            "WHERE attrelid = 'chunks'::regclass AND attname = 'embedding'"
        ).fetchone()[0]
    assert typ == "vector(384)"
    db.check_embedding("all-MiniLM-L6-v2", 384)
    with pytest.raises(EmbeddingMismatch, match="text-embedding-3-small"):
        db.check_embedding("text-embedding-3-small", 1536)


def test_fact_values_are_exact_numerics(db):
    with db.connection() as conn:
        conn.execute(
            "INSERT INTO facts (cik, accession, taxonomy, concept, unit, value, period_end, source, fact_key) "
            "VALUES (1, 'a', 'us-gaap', 'EarningsPerShareDiluted', 'USD/shares', %s, '2024-09-28', 'ixbrl', 'k')",
            ("6.08",),
        )
        value = conn.execute("SELECT value::text FROM facts").fetchone()[0]
    assert value == "6.08"


def test_a_dropped_connection_is_replaced(db):
    import psycopg

    with db.connection() as conn:
        pids = {conn.execute("SELECT pg_backend_pid()").fetchone()[0]}
    with psycopg.connect(db.url, autocommit=True) as killer:
        for pid in pids:
            killer.execute("SELECT pg_terminate_backend(%s)", (pid,))
    with db.connection() as conn:
        assert conn.execute("SELECT 1").fetchone()[0] == 1
        assert conn.execute("SELECT pg_backend_pid()").fetchone()[0] not in pids
