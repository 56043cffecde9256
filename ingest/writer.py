"""The writer: embedded filings stored on their own thread and connection, one transaction each.

A filing is written whole or not at all (old rows deleted, new rows inserted in one
transaction), so Ctrl-C or a crash never leaves half a filing; the thread lets batch N be stored
while batch N+1 is embedded.
"""

from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass, field

from ingest.local import FilingFile
from ingest.summary import FilingOutcome, IngestSummary
from store import writes
from store.fiscal import fiscal_periods, fiscal_year_anchors, quarter_anchor
from store.parsed import ChunkDraft, ParsedFiling

WRITE_QUEUE = 2  # embedded batches waiting for the writer (bounds memory)


@dataclass
class _Ready:
    """A parsed, chunked filing waiting for its embeddings."""

    file: FilingFile
    parsed: ParsedFiling
    chunks: list[ChunkDraft]
    is_latest: bool


@dataclass
class _Company:
    cik: int
    tickers: list[str]
    name: str | None  # from submissions; None: the latest filing's dei name
    fiscal_year_end: str | None
    latest_period: object = None
    filings: list[FilingFile] = field(default_factory=list)


def _upsert_company(conn, company: _Company, dei_name: str | None, is_latest: bool,
                    dei_year_end: str | None = None) -> None:  # fmt: skip
    current = writes.company(conn, company.cik)
    name = company.name or (dei_name if (is_latest or current is None) else current[0]) or (current[0] if current else "")
    fye = company.fiscal_year_end or (current[2] if current else None) or dei_year_end
    annual = [f.period_end for f in company.filings if f.form == "10-K"]
    if fye is None and annual:
        fye = max(annual).strftime("%m%d")  # a 10-Q's period end is no year end
    tickers = company.tickers or (current[1] if current else [])
    writes.upsert_company(conn, company.cik, name or f"CIK {company.cik}", tickers, fye)


class _Writer:
    """Stores embedded batches on its own thread and connection, one transaction per filing.

    The queue holds at most WRITE_QUEUE batches, so a slow database holds the embedder back
    instead of piling vectors up in memory. The first error stops the writing; it is raised in
    the embedding thread at its next hand-over or at `close`, and the filing it happened in is
    rolled back whole.
    """

    def __init__(self, db, companies, summary: IngestSummary, bar, *, first=None, last: dict | None = None):
        """`first(stopped)`: work for this thread before the first filing, returning the companies
        it wrote to; it checks `stopped()` between its transactions, and its error is raised like
        a write's. `last`: {cik: key of the company's last filing to come}; once that one is
        written, the company's fiscal years are refreshed here, beside the embedding of the
        filings after it, rather than once every filing is in."""
        self._db, self._companies, self._summary, self._bar = db, companies, summary, bar
        self._first, self._last = first, last or {}
        self.refreshed: set[int] = set()
        self._queue: queue.Queue = queue.Queue(maxsize=WRITE_QUEUE)
        self._error: BaseException | None = None
        self._stop = threading.Event()
        self.touched: set[int] = set()
        self._thread = threading.Thread(target=self._run, name="ingest-writer", daemon=True)
        self._thread.start()

    def put(self, batch: list[_Ready], vectors) -> None:
        self._hand_over((batch, vectors))

    def close(self) -> None:
        """Wait for every batch to be written; raise the writer's error, if any."""
        self._hand_over(None)
        self._thread.join()
        self._raise()

    def _hand_over(self, item) -> None:
        self._raise()
        while True:
            try:
                self._queue.put(item, timeout=0.5)
                return
            except queue.Full:
                self._raise()  # the writer stopped on an error: raise it rather than wait forever

    def abort(self) -> None:
        """Stop after the filing being written (its transaction completes or rolls back whole)."""
        self._stop.set()
        try:
            self._queue.put_nowait(None)
        except queue.Full:
            pass
        self._thread.join(timeout=60)

    def _raise(self) -> None:
        if self._error is not None:
            raise self._error

    def _run(self) -> None:
        t0 = time.thread_time()
        try:
            self._work()
        finally:
            self._summary.write_cpu_s += time.thread_time() - t0

    def _work(self) -> None:
        try:
            if self._first is not None:
                self.touched |= set(self._first(self._stop.is_set))
            with self._db.connection() as conn:
                while not self._stop.is_set():
                    item = self._queue.get()
                    if item is None:
                        return
                    batch, vectors = item
                    offset = 0
                    for ready in batch:
                        if self._stop.is_set():
                            return
                        n = len(ready.chunks)
                        outcome = _write(self._db, conn, ready, vectors[offset : offset + n],
                                         self._companies[ready.file.cik], self._summary)  # fmt: skip
                        offset += n
                        self._summary.add(outcome)
                        self.touched.add(ready.file.cik)
                        if self._last.get(ready.file.cik) == ready.file.key:
                            refresh_fiscal_years(self._db, conn, ready.file.cik)
                            self.refreshed.add(ready.file.cik)
                        self._bar.update(1)
        except BaseException as exc:  # handed to the embedding thread
            self._error = exc
            self._stop.set()


def _write(db, conn, ready: _Ready, vectors, company: _Company, summary: IngestSummary | None = None) -> FilingOutcome:
    parsed, file = ready.parsed, ready.file
    meta = parsed.meta
    key = file.key
    url = file.url or meta.url or writes_url(meta.cik, file.accession)
    t0 = time.perf_counter()
    with conn.transaction():
        _upsert_company(conn, company, meta.company, ready.is_latest, meta.fiscal_year_end)
        anchors = _anchors(conn, meta)
        ends = writes.quarter_ends(conn, meta.cik)
        if meta.is_quarterly:
            ends[meta.period_end] = int(meta.fiscal_period[1])
        periods = fiscal_periods((f.period_end for f in parsed.facts), anchors, ends)
        years = [periods[f.period_end][0] for f in parsed.facts]
        quarters = [periods[f.period_end][1] for f in parsed.facts]
        written = writes.replace_filing(conn, parsed, accession=key, url=url, source=str(file.path),
                                        chunks=ready.chunks, embeddings=vectors, fiscal_years=years,
                                        fiscal_quarters=quarters)  # fmt: skip
        db.bump_corpus_version(conn)
    if summary is not None:
        summary.write_s += time.perf_counter() - t0
    return FilingOutcome(
        source=str(file.path), status="ingested", accession=key, ticker=file.ticker or meta.ticker,
        fiscal_year=meta.fiscal_year, chunks=written.chunks, facts=written.facts, sections=written.sections,
        missing_items=list(parsed.missing_items), form=meta.form, fiscal_period=meta.fiscal_period,
        items=[s.item for s in parsed.sections],
    )  # fmt: skip


def refresh_fiscal_years(db, conn, cik: int) -> None:
    """Every stored fact of the company given the fiscal year and quarter its anchors now give
    (a filing stored later can settle an older fact's year), in one transaction."""
    with conn.transaction():
        if writes.refresh_fiscal_years(conn, cik):
            db.bump_corpus_version(conn)


def _anchors(conn, meta) -> list:
    """The company's fiscal-year anchors for this filing's facts: its 10-Ks' (and companyfacts')
    year ends, this 10-K's own; a 10-Q of a company with none yet stands on its own cover."""
    stored = writes.fiscal_year_anchors(conn, meta.cik)
    if not meta.is_quarterly:
        return fiscal_year_anchors(stored + [(meta.period_end, meta.fiscal_year)])
    if stored:
        return fiscal_year_anchors(stored)
    return [quarter_anchor(meta.period_end, meta.fiscal_year, int(meta.fiscal_period[1]))]


def writes_url(cik: int, accession: str | None) -> str:
    from store.facts import edgar_index_url

    return edgar_index_url(cik, accession or "")
