"""Shared fixtures: a real Postgres with pgvector (DATABASE_URL, else an embedded throwaway
server), the real local embedding model, and the fixture corpus ingested once per session."""

from __future__ import annotations

import os
import uuid
import warnings
from pathlib import Path

import psycopg
import pytest

from store.db import Database, migrate, start_embedded

FIXTURES = Path(__file__).parent / "fixtures"
SEC_FIXTURES = FIXTURES / "sec"
SHARED_SEC = Path(__file__).resolve().parents[1].parent / "shared" / "sec"
# The embedding model's ONNX export is made once and reused by every test, CLI run and subprocess.
MODEL_DIR = Path(os.environ.get("FOOTNOTE_MODEL_DIR") or Path(__file__).resolve().parents[1] / ".footnote" / "models")
os.environ["FOOTNOTE_MODEL_DIR"] = str(MODEL_DIR)
# A `footnote` command a test runs stops its embedded server as it leaves, as the test expects
# (tests/test_db_linger.py measures the linger itself).
os.environ["FOOTNOTE_DB_LINGER_S"] = "0"

TABLES = "sec_tickers, companies, filings, sections, chunks, facts, answer_cache, processed_events, feedback, bot_threads, line_labels, pending_turns"


@pytest.fixture(scope="session", autouse=True)
def _edgartools_in_a_temporary_folder(tmp_path_factory):
    """Tests parse 10-Ks without the `footnote` entry point; edgartools' caches go where a run's
    would go (under a data dir), never into the home folder."""
    from ingest.edgar_dirs import confine_edgartools

    confine_edgartools(tmp_path_factory.mktemp("data"))


@pytest.fixture(scope="session")
def pg_server_url(tmp_path_factory):
    """A server URL whose databases the tests may create and drop."""
    url = os.environ.get("DATABASE_URL")
    if url:
        yield url
        return
    server = start_embedded(tmp_path_factory.mktemp("pgdata"), cleanup_mode="delete")
    yield server.get_uri()


@pytest.fixture(scope="session")
def make_database(pg_server_url):
    """Create a fresh, migrated database on the test server; dropped at the end of the session."""
    created: list[tuple[str, Database]] = []
    admin = psycopg.conninfo.conninfo_to_dict(pg_server_url)

    def make(dim: int = 384, model: str = "all-MiniLM-L6-v2") -> Database:
        name = f"footnote_test_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(pg_server_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        url = psycopg.conninfo.make_conninfo(**{**admin, "dbname": name})
        migrate(url, dim=dim, model=model)
        db = Database(url, max_size=4)
        created.append((name, db))
        return db

    yield make
    for name, db in created:
        db.close()
        # A test may have broken its database on purpose (a simulated outage); dropping it is
        # housekeeping, retried once on a fresh connection, and never a test failure.
        for attempt in range(2):
            try:
                with psycopg.connect(pg_server_url, autocommit=True) as conn:
                    conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                break
            except psycopg.OperationalError:
                if attempt:
                    warnings.warn(f"could not drop test database {name}")


@pytest.fixture(scope="session")
def _scratch_db(make_database) -> Database:
    return make_database()


@pytest.fixture
def db(_scratch_db) -> Database:
    """An empty migrated database (tables truncated before each test)."""
    with _scratch_db.connection() as conn:
        conn.execute(f"TRUNCATE {TABLES} RESTART IDENTITY CASCADE")
        conn.execute("UPDATE corpus_meta SET value = '0' WHERE key = 'corpus_version'")
        # Hashes of ingested companyfacts files describe rows that were just truncated.
        conn.execute("DELETE FROM corpus_meta WHERE key LIKE 'source:%'")
        # So is the runtime that embedded them (and any proof another runtime matches it).
        conn.execute("DELETE FROM corpus_meta WHERE key LIKE 'embedding_runtime%'")
    return _scratch_db


@pytest.fixture(scope="session")
def embedder():
    from store.embedding import LocalEmbedder

    return LocalEmbedder(model_dir=MODEL_DIR)


@pytest.fixture(scope="session")
def corpus_db(make_database, embedder) -> Database:
    """The fixture corpus (tests/fixtures/sec, see its README) ingested once per session through
    the real pipeline. Shared by many tests: read from it, never write to it."""
    from ingest.pipeline import ingest_folder

    database = make_database()
    summary = ingest_folder(database, embedder, SEC_FIXTURES, progress=False)
    assert not summary.failed and not summary.errors, "\n".join(summary.lines())
    return database


@pytest.fixture(scope="module")
def offline_footnote(corpus_db, embedder):
    """The whole graph over the fixture corpus as it runs with no model key: rule planner, extractive
    composer, no answer cache (each test sees the planner, not a stored answer)."""
    from bot.settings import Settings
    from bot.wiring import build_footnote

    return build_footnote(corpus_db, embedder, Settings(llm="off"), use_cache=False)


def thread_of(footnote):
    """A fresh chat thread: each call is the next message in it, answered with the memory of the ones before."""
    from agent.answer import Turn

    key = f"test:{uuid.uuid4().hex}"
    return lambda text: footnote.answer(Turn(thread_key=key, user="u", text=text))


@pytest.fixture
def log_buffer():
    """What Footnote's own log handler writes, for tests that check what reaches the log."""
    import io
    import logging

    from bot.logs import configure_logging

    buffer = io.StringIO()
    handler = configure_logging("INFO", stream=buffer)
    yield buffer
    logging.getLogger().removeHandler(handler)
