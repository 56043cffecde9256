"""Ingest a folder in SEC's layout: parse, chunk, embed and store each 10-K and 10-Q, plus companyfacts.

Embedding is the slow step, so everything else is arranged around it: documents are parsed in
a separate process while the current batch is embedded, that process started first of all (the
embedder's first wait is the first document's parse, so nothing else is done before it
starts; `footnote ingest` starts it, with its edgartools import, before the database); the model loads and the companyfacts are stored (on the
writer thread, before any filing) while that first document is parsed, so embedding starts as
soon as its chunks arrive and then takes chunks of several filings per call; a writer thread
with its own database connection stores batch N while batch N+1 is embedded, behind a bounded
queue so memory stays flat; a filing whose bytes (and the embedding model) are unchanged is skipped before it is
even parsed; and no text is embedded twice: a changed document's unchanged chunks keep the vectors
stored for them (when every stored vector is this model's on this runtime), and a text repeated
within one call is embedded once. Each filing is written in its own transaction (old rows deleted, new rows
inserted), so Ctrl-C or a crash never leaves half a filing, and a bad document is reported on
one line while the rest of the batch goes on. A load into an empty corpus goes without the chunks'
vector index and builds it once at the end (store/vector_index.py). The parse worker is ingest/parse_worker.py's job,
the writer ingest/writer.py's.
"""

from __future__ import annotations

import functools
import logging
import sys
import time
from pathlib import Path

import numpy as np
from tqdm import tqdm

from ingest.chunking import chunk_sections, embedding_input
from ingest.companyfacts import companyfacts_anchors, parse_companyfacts
from store.fiscal import fiscal_periods, fiscal_year_anchors
from ingest.html10k import FilingParseError, filing_key
from ingest.local import FilingFile, LocalCorpus, parse_json, read_bytes, read_json, scan_folder, sha256_of
from ingest.passages import add_passages, passages_searched
from ingest.parse_worker import ParseWorkers, _Parser, _timed, declared_form, parse_document, truncated
from store.parsed import ParsedFiling
from ingest.runtime_check import check_runtime, runtime_of
from ingest.summary import FilingOutcome, IngestSummary
from ingest.writer import _Company, _Ready, _upsert_company, _write, _Writer, refresh_fiscal_years
from store import embedding_runtime, vector_index, writes
from store.errors import FootnoteError

log = logging.getLogger(__name__)

EMBED_BATCH_CHUNKS = 512  # chunks gathered across filings before one embedding call
QUARTERS_FILLED = "fiscal_quarters"  # corpus_meta: every stored fact has had its fiscal quarter computed


def ingest_folder(db, embedder, folder: Path, *, tickers: list[str] | None = None, progress: bool = True,
                  limit: int | None = None, workers: int = 1, parse_workers: ParseWorkers | None = None) -> IngestSummary:  # fmt: skip
    """Ingest every 10-K, 10-Q and companyfacts file in `folder` (optionally only `tickers`' companies).

    `limit` takes only the first N documents (benchmarks); `workers` parsing processes run
    beside the embedder (0: parse inline). `parse_workers`: workers the caller started ahead
    (they replace `workers`; the ingest stops them), so their start overlapped the caller's own.
    """
    started = time.perf_counter()
    db.check_embedding(embedder.model_name, embedder.dim)
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
    todo = _changed_filings(db, corpus, summary)
    counter = embedder.token_counter() if hasattr(embedder, "token_counter") else None
    # The first document's parse is what the embedder waits for first: it starts before anything else.
    parser = _Parser(todo, workers, counter, embedder.max_tokens, parse_workers)
    touched: set[int] = set()
    refreshed: set[int] = set()  # companies whose fiscal years the writer brought up to date
    deferred = False  # the chunks' vector index is built after the load (see store/vector_index.py)
    try:
        if todo:
            with db.connection() as conn:
                deferred = vector_index.defer(conn)
        if todo and hasattr(embedder, "start_loading"):
            embedder.start_loading()  # the model loads while the first document is parsed
        check_runtime(db, embedder, writing=True)
        companies = _companies(corpus, summary)
        sources = functools.partial(_load_sources, db, corpus, companies, summary)
        t0 = time.perf_counter()
        if todo:  # the writer thread loads them while the first document is parsed and embedded
            wrote, refreshed = _load_filings(db, embedder, parser, todo, corpus, companies, summary,
                                             progress=progress, first=sources)  # fmt: skip
            touched |= wrote
        else:
            touched |= sources()
        summary.filings_s = time.perf_counter() - t0
    finally:
        parser.close()
        summary.parse_cpu_s, summary.parse_peak_mb = parser.cpu_s, parser.peak_mb
        if deferred:
            _build_vector_index(db, summary)
    with db.connection() as conn:
        backfill = writes.source_hash(conn, QUARTERS_FILLED) is None
        if backfill:  # facts stored before fiscal quarters were: every company's, once
            touched |= set(writes.company_ciks(conn))
    for cik in sorted(touched - refreshed):
        with db.connection() as conn:
            refresh_fiscal_years(db, conn, cik)
    if backfill:
        with db.connection() as conn, conn.transaction():
            writes.set_source_hash(conn, QUARTERS_FILLED, "1")
    written = [o.accession for o in summary.ingested if o.accession]
    if written and passages_searched():  # filings stored before are left to `footnote ingest --passages`
        summary.passages = add_passages(db, embedder, written).passages
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
    with db.connection() as conn:
        refresh_fiscal_years(db, conn, meta.cik)
    if outcome.status == "ingested" and outcome.accession and passages_searched():
        add_passages(db, embedder, [outcome.accession])
    return outcome


def _build_vector_index(db, summary: IngestSummary) -> None:
    """The vector index a load into an empty corpus went without, built over what was stored
    (all of it, or what an interrupted ingest committed). When the ingest is already failing, a
    failed build is logged rather than raised over that error; the next ingest builds it."""
    t0 = time.perf_counter()
    failing = sys.exc_info()[1] is not None
    try:
        with db.connection() as conn:
            vector_index.build(conn)
    except Exception:
        if not failing:
            raise
        log.warning("the chunks' vector index was not built; the next ingest builds it", exc_info=True)
    summary.index_s += time.perf_counter() - t0


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


# -- companyfacts ----------------------------------------------------------------------------

def _load_sources(db, corpus: LocalCorpus, companies: dict[int, _Company], summary: IngestSummary,
                  stopped=lambda: False) -> set[int]:  # fmt: skip
    """The ticker map and every changed companyfacts file, stored before any document (a document's
    fiscal years are read against the companyfacts' year ends): the companies written to. Each
    file is its own transaction; once `stopped()` (an interrupted ingest) no further one starts."""
    _load_ticker_map(db, corpus, summary)
    touched = set()
    for cik, path in sorted(corpus.companyfacts.items()):
        if stopped():
            break
        if _load_companyfacts(db, companies, cik, path, summary):
            touched.add(cik)
    return touched


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
        file_cik, name, facts = parse_companyfacts(parse_json(raw, path))  # the bytes just hashed, not read again
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
        ends = writes.quarter_ends(conn, cik) | _quarter_ends(facts)
        periods = fiscal_periods((f.period_end for f in facts), anchors, ends)
        years = [periods[f.period_end][0] for f in facts]
        quarters = [periods[f.period_end][1] for f in facts]
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
                  summary: IngestSummary, *, progress: bool, first=None) -> tuple[set[int], set[int]]:  # fmt: skip
    """Embed parsed filings on this thread while the writer thread stores the previous batch.

    A batch is embedded once it holds EMBED_BATCH_CHUNKS chunks, or as soon as the next parsed
    filing is not ready yet: the embedder never idles waiting for a fuller batch. `first` (the
    companyfacts) runs on the writer thread before it stores any filing, so the embedder starts
    as soon as the first filing is parsed rather than after them. The last batch is embedded a
    filing per call: the writer stores each filing while the next is embedded, and only the last
    one's write is left after the last embedding (with one call, every filing of the batch was
    written after it, a core idle). Returns the companies written to and those of them whose
    fiscal years the writer has already refreshed.
    """
    if not todo:
        return set(first() if first else ()), set()
    bar = tqdm(total=len(todo), desc="Ingesting filings", unit="filing", disable=not progress)
    reuse = _stored_vectors(db) if _reusable(db, embedder) else None
    last = {f.cik: f.key for f in todo}  # each company's last document: its fiscal years are final after it
    writer = _Writer(db, companies, summary, bar, first=first, last=last)
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
                if parser.exhausted():  # the ingest's tail: see the docstring
                    for ready in batch:
                        _embed(embedder, [ready], summary, writer, reuse)
                else:
                    _embed(embedder, batch, summary, writer, reuse)
                batch = []
        _embed(embedder, batch, summary, writer, reuse)
        writer.close()
    except BaseException:
        writer.abort()
        raise
    finally:
        bar.close()
    return writer.touched, writer.refreshed


def _check(file: FilingFile, parsed: ParsedFiling, corpus: LocalCorpus) -> str | None:
    meta = parsed.meta
    if meta.cik != file.cik:
        return f"{file.path}: dei:EntityCentralIndexKey {meta.cik} does not match the file name's CIK {file.cik}"
    if corpus.ticker_map and file.ticker not in corpus.ticker_map and not corpus.tickers_of(file.cik):
        return f"{file.path}: unknown ticker {file.ticker} (CIK {file.cik} is not in SEC's ticker map)"
    if filing_key(meta) != file.key or abs((meta.period_end - file.period_end).days) > 7:
        return f"{file.path}: document period end {meta.period_end} does not match the file name's {file.period_end}"
    return None


def _embed(embedder, batch: list[_Ready], summary: IngestSummary, writer: _Writer, reuse=None) -> None:
    """Embed a batch's chunks in one call and hand the batch to the writer (waits if it is behind).
    `reuse(batch)` gives vectors already stored for some of its texts (see `_stored_vectors`)."""
    if not batch:
        return
    texts = [embedding_input(c.context, c.text) for r in batch for c in r.chunks]
    t0 = time.perf_counter()
    vectors, embedded = _vectors(embedder, texts, reuse(batch) if reuse and texts else {})
    summary.embed_s += time.perf_counter() - t0
    summary.embedded_chunks += len(texts)
    summary.reused_vectors += len(texts) - embedded
    writer.put(batch, vectors)


def _vectors(embedder, texts: list[str], known: dict):
    """(a vector per text, how many the model computed): each distinct text is embedded once, and
    a text in `known` takes that vector instead."""
    todo = [t for t in dict.fromkeys(texts) if t not in known]
    fresh = embedder.embed(todo) if todo else _empty(embedder)
    if len(todo) == len(texts):  # the usual case: every text new and distinct
        return fresh, len(todo)
    found = {**known, **dict(zip(todo, fresh))}
    return np.stack([found[t] for t in texts]).astype(np.float32, copy=False), len(todo)


def _reusable(db, embedder) -> bool:
    """Whether stored vectors are what this embedder would compute: the same model (the database
    holds one) on the same runtime, with no other runtime's vectors possibly among them."""
    runtime = runtime_of(embedder)
    if runtime is None:  # a remote model (or a test double): nothing proves a stored vector is its own
        return False
    with db.connection() as conn:
        return embedding_runtime.sole_runtime(conn) == runtime


def _stored_vectors(db):
    """{embedding input: stored vector} of the chunks a batch's filings hold now: a changed
    document keeps the vectors of the chunks it did not change (a new filing has none)."""

    def lookup(batch: list[_Ready]) -> dict:
        with db.connection() as conn:
            rows = writes.filing_vectors(conn, [r.file.key for r in batch])
        return {embedding_input(context, text): vector for context, text, vector in rows}

    return lookup


def _quarter_ends(facts) -> dict:
    """{period end: quarter} of the 10-Qs a companyfacts file names: each one's latest fact end."""
    ends: dict[str, tuple] = {}
    for f in facts:
        if (f.form or "").startswith("10-Q") and f.fp in ("Q1", "Q2", "Q3") and f.taxonomy != "dei":
            if f.accession not in ends or f.period_end > ends[f.accession][0]:
                ends[f.accession] = (f.period_end, int(f.fp[1]))
    return dict(ends.values())


def _empty(embedder):
    return np.zeros((0, embedder.dim), dtype=np.float32)


def _one_line(exc: Exception, path: Path) -> str:
    text = " ".join(str(exc).split())
    return text if str(path) in text else f"{path}: {text}"
