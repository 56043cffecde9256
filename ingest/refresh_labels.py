"""`footnote ingest --from DIR --refresh-labels`: statement row labels for an already-ingested corpus.

Why a separate path: a full re-ingest re-embeds every chunk (about 40 minutes for the shared
corpus). Labels need only the document's tables, read with ingest.line_items (a fraction of a
second per filing), written per filing in its own transaction; sections, chunks, embeddings and
facts are untouched. Documents that are not ingested are skipped (ingest them the normal way).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

from ingest.line_items import parse_line_items
from ingest.local import read_bytes, scan_folder
from store import labels


@dataclass
class RefreshSummary:
    filings: int = 0
    rows: int = 0
    skipped: int = 0  # documents in the folder that are not ingested
    failed: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [f"labels refreshed: {self.filings} filings, {self.rows} rows"
               + (f"; {self.skipped} documents not ingested (skipped)" if self.skipped else "")]
        out += [f"failed: {f}" for f in self.failed]
        return out


def refresh_labels(db, folder: Path, *, tickers: list[str] | None = None, progress: bool = True) -> RefreshSummary:
    corpus = scan_folder(folder, tickers)
    summary = RefreshSummary()
    with db.connection() as conn:
        stored = labels.stored_filings(conn, [f.key for f in corpus.filings])
    todo = [f for f in corpus.filings if f.key in stored]
    summary.skipped = len(corpus.filings) - len(todo)
    for f in tqdm(todo, desc="Refreshing labels", unit="filing", disable=not progress):
        try:
            raw = read_bytes(f.path)
            text = raw.decode("utf-8", errors="replace")
            items = parse_line_items(text)
        except (OSError, EOFError, ValueError) as exc:
            summary.failed.append(f"{f.path}: {type(exc).__name__}: {exc}")
            continue
        with db.connection() as conn, conn.transaction():
            summary.rows += labels.replace_labels(conn, f.key, labels.filing_cik(conn, f.key), items)
            summary.filings += 1
    if summary.filings:
        with db.connection() as conn, conn.transaction():
            db.bump_corpus_version(conn)  # cached answers and the agent's memo predate the labels
    return summary
