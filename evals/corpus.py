"""The databases an eval runs against, built and filled by the eval itself.

- fixtures: a throwaway database (a new database on DATABASE_URL's server, else an embedded
  server in a temporary folder) with tests/fixtures/sec ingested; dropped afterwards. Nothing
  outside it is read or written, so the gate is the same on a fresh machine and on a laptop with
  a big corpus in its default database.
- shared: the real corpus in its own database, kept between runs because ingesting 68 10-Ks
  takes minutes (DATABASE_URL's server: database `footnote_eval_shared` or FOOTNOTE_EVAL_SHARED_DB;
  embedded: the data dir's `eval-shared/`). Ingested on first use, or again with --reingest.
"""

from __future__ import annotations

import contextlib
import logging
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

from store import inventory
from store.databases import create_database, drop_database, with_db
from store.db import Database, migrate, start_embedded
from store.errors import FootnoteError

log = logging.getLogger(__name__)

REPO = Path(__file__).resolve().parents[1]
FIXTURE_CORPUS = REPO / "tests" / "fixtures" / "sec"
SHARED_CORPUS = REPO.parent / "shared" / "sec"


class EvalSetupError(FootnoteError):
    """The eval could not build or fill its database."""


def _identity(settings) -> tuple[str, int]:
    from store.embedding import embedding_identity

    return embedding_identity(settings.embedding_options())


@contextlib.contextmanager
def throwaway_database(settings) -> Iterator[tuple[Database, object]]:
    """A fresh migrated database and settings pointing at it; gone when the block ends."""
    model, dim = _identity(settings)
    name = f"footnote_eval_{uuid.uuid4().hex[:10]}"
    server = None
    tmp = None
    if settings.database_url:
        server_url = settings.database_url
    else:
        tmp = tempfile.TemporaryDirectory(prefix="footnote-eval-")
        server = start_embedded(Path(tmp.name), cleanup_mode="delete")
        server_url = server.get_uri()
    create_database(server_url, name)
    url = with_db(server_url, name)
    db = None
    try:
        migrate(url, dim=dim, model=model)
        db = Database(url, max_size=4)
        yield db, settings.model_copy(update={"database_url": url})
    finally:
        if db is not None:
            db.close()
        with contextlib.suppress(Exception):
            drop_database(server_url, name)
        if server is not None:
            with contextlib.suppress(Exception):
                server.cleanup()
        if tmp is not None:
            with contextlib.suppress(Exception):
                tmp.cleanup()


@contextlib.contextmanager
def shared_database(settings, name: str) -> Iterator[tuple[Database, object]]:
    """The shared corpus's own database (kept between runs), migrated, and settings for it.

    `name`: its database on DATABASE_URL's server (Settings.eval_shared_db)."""
    model, dim = _identity(settings)
    server = None
    if settings.database_url:
        server_url = settings.database_url
        create_database(server_url, name, exist_ok=True)
        url = with_db(server_url, name)
    else:
        server = start_embedded(Path(settings.data_dir) / "eval-shared", cleanup_mode="stop")
        url = server.get_uri()
    migrate(url, dim=dim, model=model)
    db = Database(url, max_size=4)
    try:
        db.check_embedding(model, dim)
        yield db, settings.model_copy(update={"database_url": url})
    finally:
        db.close()


def document_count(folder: Path) -> int:
    """Filings (10-K and 10-Q) in a folder in SEC's layout, so an eval knows whether the database holds them all:
    the rows of its filings/index.csv, else the documents under filings/10-K and filings/10-Q."""
    index = folder / "filings" / "index.csv"
    if index.exists():
        return max(0, len(index.read_text(encoding="utf-8").strip().splitlines()) - 1)
    return sum(1 for form in ("10-K", "10-Q") for p in (folder / "filings" / form).glob("*/*.htm*"))


def filing_count(db: Database) -> int:
    with db.connection() as conn:
        return inventory.filing_count(conn)


def ingest_folder(
    db: Database,
    embedder,
    settings,
    folder: Path,
    *,
    workers: int | None = None,
    first: list[str] | None = None,
    progress=None,
) -> int:
    """Ingest a folder in SEC's formats into `db`; returns the number of errors reported.

    `first`: tickers to ingest before the rest, one at a time (the ones the questions ask about,
    so an interrupted first run can already answer them; a rerun skips what is in). The pipeline's
    own function, in this process with the embedder already loaded."""
    if not folder.exists():
        raise EvalSetupError(f"No corpus at {folder}.")
    from ingest.pipeline import ingest_folder as pipeline_ingest

    extra = {} if workers is None else {"workers": workers}
    errors: list[str] = []
    for batch in [[t] for t in first or []] + [None]:
        summary = pipeline_ingest(db, embedder, folder, tickers=batch, progress=False, **extra)
        errors += list(getattr(summary, "errors", []) or [])
        if progress is not None and batch:
            progress(f"ingested {batch[0]}: {filing_count(db)} filings in the eval database")
    for line in dict.fromkeys(errors):
        log.warning("ingest: %s", line)
    return len(set(errors))
