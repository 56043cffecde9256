"""`footnote db status`: where the database is and what it holds."""

from __future__ import annotations

import contextlib

from store.db import describe_url, open_database


@contextlib.contextmanager
def open_for(settings, *, check_embedding: bool = True):
    """The configured database, opened and migrated for the configured embedding model."""
    from store.embedding import embedding_identity

    model, dim = embedding_identity(settings.embedding_options())
    with open_database(
        settings.database_url,
        settings.data_dir,
        embedding_model=model,
        embedding_dim=dim,
        check_embedding=check_embedding,
        linger_s=settings.db_linger_s,
    ) as db:
        yield db


def register(sub) -> None:
    db = sub.add_parser("db", help="the database: where it is and what it holds (footnote db status)")
    db_sub = db.add_subparsers(dest="db_command", metavar="WHAT")
    db.set_defaults(func=lambda args, settings: db.print_help() or 0)
    status = db_sub.add_parser("status", help="where the database is and what it holds")
    status.set_defaults(func=cmd_status)
    prune = db_sub.add_parser("prune", help="remove answer-cache rows and conversation history older than the retention")
    prune.add_argument("--days", type=int, default=None,
                       help="retention in days (default FOOTNOTE_RETENTION_DAYS, else 30)")
    prune.set_defaults(func=cmd_prune)


COUNTS = {
    "companies": "SELECT count(*) FROM companies",
    "filings": "SELECT count(*) FROM filings",
    "  10-K": "SELECT count(*) FROM filings WHERE form LIKE '10-K%'",
    "  10-Q": "SELECT count(*) FROM filings WHERE form LIKE '10-Q%'",
    "sections": "SELECT count(*) FROM sections",
    "chunks": "SELECT count(*) FROM chunks",
    "facts": "SELECT count(*) FROM facts",
    "cached answers": "SELECT count(*) FROM answer_cache",
}


def cmd_status(args, settings) -> int:
    with open_for(settings, check_embedding=False) as db:
        where = "embedded, in " + str(settings.data_dir.resolve() / "pg") if not settings.database_url else "DATABASE_URL"
        print(f"database: {describe_url(db.url)} ({where})")
        print(f"embeddings: {db.meta('embedding_model')} ({db.meta('embedding_dim')} dimensions)")
        print(f"corpus version: {db.corpus_version()}")
        with db.connection() as conn:
            for label, sql in COUNTS.items():
                print(f"{label}: {conn.execute(sql).fetchone()[0]:,}")
            size = conn.execute("SELECT pg_size_pretty(pg_database_size(current_database()))").fetchone()[0]
        print(f"size: {size}")
    return 0


def cmd_prune(args, settings) -> int:
    from store.retention import prune

    days = args.days if args.days is not None else settings.retention_days
    if days < 0:
        print("footnote db prune: --days must be 0 or more")
        return 2
    with open_for(settings, check_embedding=False) as db, db.connection() as conn:
        pruned = prune(conn, corpus_version=db.corpus_version(), days=days)
    print(f"kept the last {days} days")
    for line in pruned.lines():
        print(line)
    return 0
