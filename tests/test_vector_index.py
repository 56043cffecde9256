"""The chunks' vector index: built once after a load into an empty corpus, kept otherwise.

Real Postgres, the real pipeline and model; the embedder is wrapped only to look at the index
while each batch is being embedded.
"""

from __future__ import annotations

import shutil

import pytest

from ingest.pipeline import ingest_folder
from store import vector_index
from tests.conftest import SEC_FIXTURES
from tests.test_pipeline import _CountingEmbedder

pytestmark = pytest.mark.slow

APPLE_FY2024 = "filings/10-K/AAPL/0000320193-0000320193-24-000123-2024-09-28.htm"
MIGRATION_1 = "CREATE INDEX chunks_embedding ON public.chunks USING hnsw (embedding vector_cosine_ops)"
INDEXDEF = "SELECT indexdef FROM pg_indexes WHERE indexname = 'chunks_embedding'"


class _Watching(_CountingEmbedder):
    """The real embedder; at each call, whether the vector index exists (read on its own
    connection, so what the writer has committed is what it sees)."""

    def __init__(self, inner, db):
        super().__init__(inner)
        self._db, self.seen = db, []

    def embed(self, texts, **kw):
        with self._db.connection() as conn:
            self.seen.append(vector_index.present(conn))
        return super().embed(texts, **kw)


class _Failing(_Watching):
    def embed(self, texts, **kw):
        super().embed(texts, **kw)
        raise RuntimeError("the model failed")


def _indexdef(db):
    with db.connection() as conn:
        return [r[0] for r in conn.execute(INDEXDEF).fetchall()]


def _apple_folder(tmp_path):
    (tmp_path / APPLE_FY2024).parent.mkdir(parents=True)
    shutil.copy(SEC_FIXTURES / APPLE_FY2024, tmp_path / APPLE_FY2024)
    shutil.copy(SEC_FIXTURES / "company_tickers.json", tmp_path / "company_tickers.json")
    return tmp_path


def test_a_load_into_an_empty_corpus_goes_without_the_index_and_builds_migration_1_s_at_the_end(db, embedder):
    assert _indexdef(db) == [MIGRATION_1]  # as migrated
    watching = _Watching(embedder, db)
    summary = ingest_folder(db, watching, SEC_FIXTURES, tickers=["AAPL"], progress=False)
    assert len(summary.ingested) == 3 and not summary.failed
    assert watching.seen and not any(watching.seen)  # no batch was stored with the index in place
    assert _indexdef(db) == [MIGRATION_1]
    with db.connection() as conn, conn.transaction():  # and the index answers a nearest-neighbour query
        conn.execute("SET LOCAL enable_seqscan = off")
        vector = conn.execute("SELECT embedding FROM chunks ORDER BY id LIMIT 1").fetchone()[0]
        plan = " ".join(r[0] for r in conn.execute(
            "EXPLAIN SELECT id FROM chunks ORDER BY embedding <=> %s LIMIT 3", (vector,)).fetchall())  # fmt: skip
        assert "chunks_embedding" in plan


def test_a_corpus_holding_chunks_keeps_its_index_through_an_ingest(db, embedder, tmp_path):
    folder = _apple_folder(tmp_path)
    ingest_folder(db, embedder, folder, progress=False)
    doc = folder / APPLE_FY2024
    doc.write_text(doc.read_text().replace("intense competition", "fierce competition"))
    watching = _Watching(embedder, db)
    summary = ingest_folder(db, watching, folder, progress=False)
    assert len(summary.ingested) == 1
    assert watching.seen and all(watching.seen)
    assert _indexdef(db) == [MIGRATION_1]


def test_an_ingest_that_fails_mid_load_still_leaves_the_index(db, embedder, tmp_path):
    folder = _apple_folder(tmp_path)
    failing = _Failing(embedder, db)
    with pytest.raises(RuntimeError, match="the model failed"):
        ingest_folder(db, failing, folder, progress=False)
    assert failing.seen == [False]
    assert _indexdef(db) == [MIGRATION_1]


def test_an_index_left_missing_by_a_killed_ingest_is_built_by_the_next(db, embedder, tmp_path):
    folder = _apple_folder(tmp_path)
    ingest_folder(db, embedder, folder, progress=False)
    with db.connection() as conn:  # what an ingest killed outright between its drop and its build leaves
        conn.execute(vector_index.DROP)
    doc = folder / APPLE_FY2024
    doc.write_text(doc.read_text().replace("intense competition", "fierce competition"))
    watching = _Watching(embedder, db)
    ingest_folder(db, watching, folder, progress=False)
    assert watching.seen == [False]
    assert _indexdef(db) == [MIGRATION_1]


def test_defer_drops_on_an_empty_corpus_and_build_is_idempotent(db):
    with db.connection() as conn:
        assert vector_index.defer(conn) is True and not vector_index.present(conn)
        assert vector_index.defer(conn) is True  # still missing: the load still goes without it
        assert vector_index.build(conn) is True and vector_index.build(conn) is False
    assert _indexdef(db) == [MIGRATION_1]
