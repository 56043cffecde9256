"""Ingest a folder in SEC's layout: parse, chunk, embed and store each 10-K and 10-Q, plus companyfacts.

Embedding is the slow step, so everything else is arranged around it: documents are parsed in
a separate process (started before companyfacts are loaded, so the first parse is under way
early) while the current batch is embedded; embedding starts as soon as the first filing's chunks
arrive and then takes chunks of several filings per call; a writer thread with its own database
connection stores batch N while batch N+1 is embedded, behind a bounded queue so memory stays
flat; and a filing whose bytes (and the embedding model) are unchanged is skipped before it is
even parsed. Each filing is written in its own transaction (old rows deleted, new rows
inserted), so Ctrl-C or a crash never leaves half a filing, and a bad document is reported on
one line while the rest of the batch goes on.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import queue
import re
import signal
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

from ingest.chunking import chunk_sections, embedding_input
from ingest.companyfacts import companyfacts_anchors, parse_companyfacts
from store.fiscal import fiscal_quarter_for, fiscal_year_anchors, fiscal_year_for, quarter_anchor
from ingest.html10k import FilingParseError, filing_key, parse_10k
from ingest.html10q import parse_10q
from ingest.local import FilingFile, LocalCorpus, read_bytes, read_json, scan_folder, sha256_of
from store.parsed import ChunkDraft, ParsedFiling
from ingest.runtime_check import check_runtime
from ingest.summary import FilingOutcome, IngestSummary
from store import writes
from store.errors import FootnoteError

log = logging.getLogger(__name__)

EMBED_BATCH_CHUNKS = 512  # chunks gathered across filings before one embedding call
PREFETCH = 3  # parsed filings waiting ahead of the embedder (bounds memory)
WRITE_QUEUE = 2  # embedded batches waiting for the writer (bounds memory)
QUARTERS_FILLED = "fiscal_quarters"  # corpus_meta: every stored fact has had its fiscal quarter computed


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


def ingest_folder(db, embedder, folder: Path, *, tickers: list[str] | None = None, progress: bool = True,
                  limit: int | None = None, workers: int = 1) -> IngestSummary:  # fmt: skip
    """Ingest every 10-K, 10-Q and companyfacts file in `folder` (optionally only `tickers`' companies).

    `limit` takes only the first N documents (benchmarks); `workers` parsing processes run
    beside the embedder (0: parse inline).
    """
    started = time.perf_counter()
    db.check_embedding(embedder.model_name, embedder.dim)
    check_runtime(db, embedder, writing=True)
    try:
        corpus = scan_folder(folder, tickers)
    except FileNotFoundError as exc:
        raise FootnoteError(str(exc)) from exc
    summary = IngestSummary()
    summary.errors.extend(corpus.errors)
    if limit is not None:
        corpus.filings = corpus.filings[:limit]
        keep = {f.cik for f in corpus.filings}
        corpus.companyfacts = {c: p for c, p in corpus.companyfacts.items() if c in keep}
    companies = _companies(corpus, summary)
    todo = _changed_filings(db, corpus, summary)
    counter = embedder.token_counter() if hasattr(embedder, "token_counter") else None
    parser = _Parser(todo, workers, counter, embedder.max_tokens)  # parses while companyfacts load
    touched: set[int] = set()
    try:
        _load_ticker_map(db, corpus, summary)
        for cik, path in sorted(corpus.companyfacts.items()):
            if _load_companyfacts(db, companies, cik, path, summary):
                touched.add(cik)
        t0 = time.perf_counter()
        touched |= _load_filings(db, embedder, parser, todo, corpus, companies, summary, progress=progress)
        summary.filings_s = time.perf_counter() - t0
    finally:
        parser.close()
    with db.connection() as conn:
        backfill = writes.source_hash(conn, QUARTERS_FILLED) is None
        if backfill:  # facts stored before fiscal quarters were: every company's, once
            touched |= set(writes.company_ciks(conn))
    for cik in sorted(touched):
        with db.connection() as conn, conn.transaction():
            if writes.refresh_fiscal_years(conn, cik):
                db.bump_corpus_version(conn)
    if backfill:
        with db.connection() as conn, conn.transaction():
            writes.set_source_hash(conn, QUARTERS_FILLED, "1")
    summary.elapsed_s = time.perf_counter() - started
    return summary


def ingest_document(db, embedder, data: bytes, *, source: str, accession: str | None = None, filed=None,
                    url: str | None = None, ticker: str | None = None, form: str | None = None) -> FilingOutcome:  # fmt: skip
    """Ingest one 10-K or 10-Q document's bytes (no folder): parse, chunk, embed, write in one
    transaction. `form` ('10-K' or '10-Q') defaults to what the document's cover declares."""
    form = form or declared_form(data)
    try:
        if problem := truncated(data):
            raise FilingParseError(f"{source}: {problem}")
        parsed = parse_document(data, form, source=source, accession=accession, filed=filed, url=url)
    except FilingParseError as exc:
        return FilingOutcome(source=source, status="failed", reason=str(exc))
    meta = parsed.meta
    file = FilingFile(Path(source), ticker or meta.ticker or "", meta.cik, accession, meta.period_end, filed, url, form)
    company = _Company(meta.cik, [t for t in [ticker or meta.ticker] if t], None, None)
    chunks = chunk_sections(meta, parsed.sections, count_tokens=embedder.count_tokens, max_tokens=embedder.max_tokens)
    check_runtime(db, embedder, writing=True)
    vectors = embedder.embed([embedding_input(c.context, c.text) for c in chunks]) if chunks else _empty(embedder)
    with db.connection() as conn:
        outcome = _write(db, conn, _Ready(file, parsed, chunks, True), vectors, company)
    with db.connection() as conn, conn.transaction():
        if writes.refresh_fiscal_years(conn, meta.cik):
            db.bump_corpus_version(conn)
    return outcome


def parse_document(data: bytes, form: str, **kw) -> ParsedFiling:
    """A 10-K or a 10-Q by its parser; the document must declare that form on its cover."""
    return (parse_10q if form.upper().startswith("10-Q") else parse_10k)(data, **kw)


_DOCUMENT_TYPE = re.compile(rb"name=[\"']dei:DocumentType[\"'][^>]*>\s*(?:<[^>]+>\s*)*(10-[KQ])", re.IGNORECASE)


def declared_form(data: bytes) -> str:
    """'10-Q' when the cover's dei:DocumentType says so, else '10-K'."""
    m = _DOCUMENT_TYPE.search(data)
    return m.group(1).decode().upper() if m else "10-K"


# -- companies and the ticker map --------------------------------------------------------------

def _companies(corpus: LocalCorpus, summary: IngestSummary) -> dict[int, _Company]:
    out: dict[int, _Company] = {}
    for cik in sorted({f.cik for f in corpus.filings} | set(corpus.companyfacts)):
        tickers = [f.ticker for f in corpus.filings if f.cik == cik]
        name = fye = None
        if cik in corpus.submissions:
            try:
                sub = read_json(corpus.submissions[cik])
                name = sub.get("name") or None
                fye = sub.get("fiscalYearEnd") or None
                tickers += [str(t).upper() for t in sub.get("tickers") or []]
            except (ValueError, AttributeError) as exc:
                summary.errors.append((str(corpus.submissions[cik]), f"submissions not used: {exc}"))
        tickers += corpus.tickers_of(cik)
        company = _Company(cik, list(dict.fromkeys(tickers)), name, fye)
        company.filings = [f for f in corpus.filings if f.cik == cik]
        company.latest_period = max((f.period_end for f in company.filings), default=None)
        out[cik] = company
    return out


def _load_ticker_map(db, corpus: LocalCorpus, summary: IngestSummary) -> None:
    if corpus.ticker_map_path is None or not corpus.ticker_map:
        return
    digest = sha256_of(read_bytes(corpus.ticker_map_path))
    with db.connection() as conn, conn.transaction():
        if writes.source_hash(conn, "company_tickers") == digest:
            return
        rows = [(t, cik, title) for t, (cik, title) in corpus.ticker_map.items()]
        changed = writes.load_sec_tickers(conn, rows)
        writes.set_source_hash(conn, "company_tickers", digest)
        if changed:
            db.bump_corpus_version(conn)
    summary.tickers_loaded = changed


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


# -- companyfacts ----------------------------------------------------------------------------

def _load_companyfacts(db, companies: dict[int, _Company], cik: int, path: Path, summary: IngestSummary) -> bool:
    """Replace a company's companyfacts when the file changed; True when something was written."""
    try:
        raw = read_bytes(path)
        digest = sha256_of(raw)
        key = f"companyfacts:{cik}"
        with db.connection() as conn:
            if writes.source_hash(conn, key) == digest:
                summary.companyfacts_unchanged += 1
                return False
        data = read_json(path)
        file_cik, name, facts = parse_companyfacts(data)
    except (ValueError, OSError, EOFError, KeyError, TypeError) as exc:
        summary.failed.append(FilingOutcome(source=str(path), status="failed", reason=_one_line(exc, path)))
        return False
    if file_cik != cik:
        summary.failed.append(FilingOutcome(source=str(path), status="failed",
                                            reason=f"{path}: holds CIK {file_cik}, not {cik} as its name says"))  # fmt: skip
        return False
    company = companies[cik]
    with db.connection() as conn, conn.transaction():
        _upsert_company(conn, company, name, is_latest=not company.filings)
        anchors = fiscal_year_anchors(writes.fiscal_year_anchors(conn, cik) + companyfacts_anchors(facts))
        years = [fiscal_year_for(f.period_end, anchors) for f in facts]
        ends = writes.quarter_ends(conn, cik) | _quarter_ends(facts)
        quarters = [fiscal_quarter_for(f.period_end, anchors, ends) for f in facts]
        added = writes.replace_companyfacts(conn, cik, facts, years, quarters)
        writes.set_source_hash(conn, key, digest)
        db.bump_corpus_version(conn)
    summary.companyfacts_loaded += 1
    summary.facts += added
    return True


# -- 10-K and 10-Q documents -----------------------------------------------------------------

def _changed_filings(db, corpus: LocalCorpus, summary: IngestSummary) -> list[FilingFile]:
    """The documents whose bytes differ from what is stored (new ones included)."""
    hashes = {f.key: sha256_of(read_bytes(f.path)) for f in corpus.filings}
    with db.connection() as conn:
        stored = writes.filing_hashes(conn, list(hashes))
    todo = [f for f in corpus.filings if stored.get(f.key) != hashes[f.key]]
    summary.filings_seen += len(corpus.filings)
    summary.unchanged += len(corpus.filings) - len(todo)
    return todo


def _load_filings(db, embedder, parser: _Parser, todo: list[FilingFile], corpus: LocalCorpus, companies,
                  summary: IngestSummary, *, progress: bool) -> set[int]:  # fmt: skip
    """Embed parsed filings on this thread while the writer thread stores the previous batch.

    A batch is embedded once it holds EMBED_BATCH_CHUNKS chunks, or as soon as the next parsed
    filing is not ready yet: the embedder never idles waiting for a fuller batch.
    """
    if not todo:
        return set()
    bar = tqdm(total=len(todo), desc="Ingesting filings", unit="filing", disable=not progress)
    writer = _Writer(db, companies, summary, bar)
    batch: list[_Ready] = []
    try:
        for file, result, chunks in _timed(iter(parser), summary):
            if isinstance(result, str):
                summary.failed.append(FilingOutcome(source=str(file.path), status="failed", reason=result))
                bar.write(f"skipped {result}")
                bar.update(1)
                continue
            problem = _check(file, result, corpus)
            if problem:
                summary.failed.append(FilingOutcome(source=str(file.path), status="failed", reason=problem))
                bar.write(f"skipped {problem}")
                bar.update(1)
                continue
            if chunks is None:  # no picklable token counter: chunk here
                t0 = time.perf_counter()
                try:
                    chunks = chunk_sections(result.meta, result.sections, count_tokens=embedder.count_tokens,
                                            max_tokens=embedder.max_tokens)  # fmt: skip
                except Exception as exc:
                    reason = f"{file.path}: could not be chunked ({type(exc).__name__}: {str(exc)[:160]})"
                    summary.failed.append(FilingOutcome(source=str(file.path), status="failed", reason=reason))
                    bar.update(1)
                    continue
                summary.chunk_s += time.perf_counter() - t0
            company = companies[file.cik]
            batch.append(_Ready(file, result, chunks, file.period_end == company.latest_period))
            if sum(len(r.chunks) for r in batch) >= EMBED_BATCH_CHUNKS or not parser.next_ready():
                _embed(embedder, batch, summary, writer)
                batch = []
        _embed(embedder, batch, summary, writer)
        writer.close()
    except BaseException:
        writer.abort()
        raise
    finally:
        bar.close()
    return writer.touched


class _Parser:
    """(file, ParsedFiling or a one-line error, chunks or None) in order, parsed ahead.

    Parsing (and chunking, when the embedder's token counter can travel to another process) runs
    in worker processes while the main process embeds; at most PREFETCH documents are in flight.
    """

    def __init__(self, todo: list[FilingFile], workers: int, counter, max_tokens: int):
        self._todo, self._counter, self._max_tokens = todo, counter, max_tokens
        self._pool = None
        self._pending: list = []
        self._next = 0
        if workers > 0 and len(todo) > 2:
            self._pool = ProcessPoolExecutor(
                max_workers=workers, mp_context=multiprocessing.get_context("spawn"), initializer=_worker_init,
                initargs=(os.getpid(),),
            )
            while self._next < min(PREFETCH, len(todo)):
                self._submit()

    def _submit(self) -> None:
        f = self._todo[self._next]
        self._pending.append(self._pool.submit(_parse_file, f, self._counter, self._max_tokens))
        self._next += 1

    def __iter__(self) -> Iterator[tuple]:
        if self._pool is None:
            for f in self._todo:
                yield (f, *_parse_file(f, None, self._max_tokens))
            return
        for f in self._todo:
            result = self._pending.pop(0).result()
            if self._next < len(self._todo):
                self._submit()
            yield (f, *result)

    def next_ready(self) -> bool:
        """True when the next document can be had without waiting (inline parsing: never)."""
        return bool(self._pending) and self._pending[0].done()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)


def _worker_init(parent: int) -> None:
    _ignore_interrupts()
    _exit_with_parent(parent)


def _ignore_interrupts() -> None:
    """A terminal's Ctrl-C reaches the whole process group; the main process owns the clean-up and
    shuts the pool down, so a parse worker must neither die with a traceback nor outlive it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


PR_SET_PDEATHSIG = 1


def _exit_with_parent(parent: int) -> None:
    """A main process killed outright (SIGKILL, the OOM killer) runs no clean-up, and its parse
    worker (hundreds of MB) lived on. On Linux the kernel sends the worker SIGTERM when the parent
    dies; elsewhere, or should that fail, a watchdog thread notices the parent is gone."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before the request was made
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="footnote-parent-watch", daemon=True).start()


def _parse_file(f: FilingFile, counter, max_tokens: int) -> tuple[ParsedFiling | str, list[ChunkDraft] | None]:
    """Runs in a worker process: (ParsedFiling, its chunks when `counter` is given) or (reason, None)."""
    try:
        data = read_bytes(f.path)
    except (OSError, EOFError) as exc:
        return f"{f.path}: unreadable ({type(exc).__name__}: {exc})", None
    problem = truncated(data)
    if problem:
        return f"{f.path}: {problem}", None
    try:
        parsed = parse_document(data, f.form, source=str(f.path), accession=f.accession, filed=f.filed, url=f.url)
    except FilingParseError as exc:
        return str(exc), None
    except Exception as exc:  # one bad document must not stop the batch
        return f"{f.path}: could not be parsed ({type(exc).__name__}: {str(exc)[:160]})", None
    if counter is None:
        return parsed, None
    try:
        return parsed, chunk_sections(parsed.meta, parsed.sections, count_tokens=counter, max_tokens=max_tokens)
    except Exception as exc:
        return f"{f.path}: could not be chunked ({type(exc).__name__}: {str(exc)[:160]})", None


def _timed(items: Iterator, summary: IngestSummary) -> Iterator:
    """Pass items through, adding the time spent waiting for each to `summary.parse_wait_s`."""
    while True:
        t0 = time.perf_counter()
        try:
            item = next(items)
        except StopIteration:
            return
        finally:
            summary.parse_wait_s += time.perf_counter() - t0
        yield item


def truncated(data: bytes) -> str | None:
    """A primary document that stops before its closing </html> lost text we would store as whole."""
    tail = data[-512:].rstrip().lower()
    if b"<html" not in data[:4096].lower() and b"<?xml" not in data[:200].lower():
        return "malformed HTML: no <html> element at the start"
    if not tail.endswith(b"</html>"):
        return "malformed HTML: truncated (the document does not end with </html>)"
    return None


def _check(file: FilingFile, parsed: ParsedFiling, corpus: LocalCorpus) -> str | None:
    meta = parsed.meta
    if meta.cik != file.cik:
        return f"{file.path}: dei:EntityCentralIndexKey {meta.cik} does not match the file name's CIK {file.cik}"
    if corpus.ticker_map and file.ticker not in corpus.ticker_map and not corpus.tickers_of(file.cik):
        return f"{file.path}: unknown ticker {file.ticker} (CIK {file.cik} is not in SEC's ticker map)"
    if filing_key(meta) != file.key or abs((meta.period_end - file.period_end).days) > 7:
        return f"{file.path}: document period end {meta.period_end} does not match the file name's {file.period_end}"
    return None


def _embed(embedder, batch: list[_Ready], summary: IngestSummary, writer: _Writer) -> None:
    """Embed a batch's chunks in one call and hand the batch to the writer (waits if it is behind)."""
    if not batch:
        return
    texts = [embedding_input(c.context, c.text) for r in batch for c in r.chunks]
    t0 = time.perf_counter()
    vectors = embedder.embed(texts) if texts else _empty(embedder)
    summary.embed_s += time.perf_counter() - t0
    summary.embedded_chunks += len(texts)
    writer.put(batch, vectors)


class _Writer:
    """Stores embedded batches on its own thread and connection, one transaction per filing.

    The queue holds at most WRITE_QUEUE batches, so a slow database holds the embedder back
    instead of piling vectors up in memory. The first error stops the writing; it is raised in
    the embedding thread at its next hand-over or at `close`, and the filing it happened in is
    rolled back whole.
    """

    def __init__(self, db, companies, summary: IngestSummary, bar):
        self._db, self._companies, self._summary, self._bar = db, companies, summary, bar
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
        try:
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
        years = [fiscal_year_for(f.period_end, anchors) for f in parsed.facts]
        quarters = [fiscal_quarter_for(f.period_end, anchors, ends) for f in parsed.facts]
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


def _quarter_ends(facts) -> dict:
    """{period end: quarter} of the 10-Qs a companyfacts file names: each one's latest fact end."""
    ends: dict[str, tuple] = {}
    for f in facts:
        if (f.form or "").startswith("10-Q") and f.fp in ("Q1", "Q2", "Q3") and f.taxonomy != "dei":
            if f.accession not in ends or f.period_end > ends[f.accession][0]:
                ends[f.accession] = (f.period_end, int(f.fp[1]))
    return dict(ends.values())


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


def _empty(embedder):
    import numpy as np

    return np.zeros((0, embedder.dim), dtype=np.float32)


def _one_line(exc: Exception, path: Path) -> str:
    text = " ".join(str(exc).split())
    return text if str(path) in text else f"{path}: {text}"
