"""The parse worker: 10-K and 10-Q documents parsed (and chunked) in worker processes, ahead of the embedder.

Parsing is CPU-bound and the embedder is the slow step, so documents are parsed in other
processes while the main process embeds; a worker ignores the terminal's Ctrl-C (the main process
owns the clean-up) and dies with its parent, so it never outlives an interrupted ingest.

A worker runs at the ordinary OS priority. A lower one (nice 10) was tried and measured under
other tenants' load (load average 8 on 2 cores): the worker's CPU went to the other tenants, not
to the embedder, and the embedder waited 19-22 s per 3 filings for parsed documents (1.6 s at
priority 0). So that a slow worker never leaves the embedder idle, the main process parses
documents itself whenever the next one it needs is not ready yet (see _Parser).
"""

from __future__ import annotations

import multiprocessing
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

from ingest.chunking import chunk_sections
from ingest.html10k import FilingParseError, parse_10k
from ingest.html10q import parse_10q
from ingest.local import FilingFile, read_bytes
from ingest.summary import IngestSummary
from store.parsed import ChunkDraft, ParsedFiling

PREFETCH = 3  # parsed filings waiting ahead of the embedder (bounds memory)
TAKEOVER_S = 2.0  # how long the embedder waits on a worker's document before parsing one itself


def parse_document(data: bytes, form: str, **kw) -> ParsedFiling:
    """A 10-K or a 10-Q by its parser; the document must declare that form on its cover."""
    return (parse_10q if form.upper().startswith("10-Q") else parse_10k)(data, **kw)


_DOCUMENT_TYPE = re.compile(rb"name=[\"']dei:DocumentType[\"'][^>]*>\s*(?:<[^>]+>\s*)*(10-[KQ])", re.IGNORECASE)


def declared_form(data: bytes) -> str:
    """'10-Q' when the cover's dei:DocumentType says so, else '10-K'."""
    m = _DOCUMENT_TYPE.search(data)
    return m.group(1).decode().upper() if m else "10-K"


class _Parser:
    """(file, ParsedFiling or a one-line error, chunks or None) in order, parsed ahead.

    Parsing (and chunking, when the embedder's token counter can travel to another process) runs
    in worker processes while the main process embeds; at most PREFETCH documents are handed out
    ahead of the one the embedder takes next. A worker gets one document at a time (so it never
    holds one it has not started), and the next as soon as it is done. When the embedder has
    waited TAKEOVER_S for the document it needs, the main process parses one nobody has taken yet
    or, failing that, the one it needs (whichever copy is done first is used): a worker starved of
    CPU never holds the embedder up for long, and a worker about to deliver is not raced.
    """

    def __init__(self, todo: list[FilingFile], workers: int, counter, max_tokens: int):
        self._todo, self._counter, self._max_tokens = todo, counter, max_tokens
        self._pool = None
        self._workers = workers
        self._lock = threading.RLock()  # the workers' completions hand out the next documents
        self._results: dict[int, Future] = {}  # by position in todo: a worker's, or one parsed here
        self._at_work: set[Future] = set()  # the workers' unfinished documents
        self._given = 0  # todo[:_given] are handed out, to a worker or to this process
        self._position = 0  # the next document to yield
        self._closed = False
        self.parsed_here = 0  # documents the main process parsed while the workers were behind
        if workers > 0 and len(todo) > 2:
            self._pool = ProcessPoolExecutor(
                max_workers=workers, mp_context=multiprocessing.get_context("spawn"), initializer=_worker_init,
                initargs=(os.getpid(),),
            )
            self._feed()

    def _feed(self, _finished=None) -> None:
        """Give each idle worker the next document, within PREFETCH of the next one to yield."""
        with self._lock:
            self._at_work = {f for f in self._at_work if not f.done()}
            while (not self._closed and len(self._at_work) < self._workers
                   and self._given < min(len(self._todo), self._position + PREFETCH)):  # fmt: skip
                k = self._given
                try:
                    future = self._pool.submit(_parse_file, self._todo[k], self._counter, self._max_tokens)
                except RuntimeError:  # shut down meanwhile
                    return
                self._given += 1
                self._results[k] = future
                self._at_work.add(future)
                future.add_done_callback(self._feed)

    def __iter__(self) -> Iterator[tuple]:
        if self._pool is None:
            for f in self._todo:
                yield (f, *_parse_file(f, None, self._max_tokens))
            return
        for i, f in enumerate(self._todo):
            with self._lock:
                self._position = i
            result = self._take(i)
            with self._lock:
                self._position = i + 1
            self._feed()
            yield (f, *result)

    def _take(self, i: int) -> tuple:
        """Document i's result. A worker's is waited for up to TAKEOVER_S; after that this process
        parses a document no worker has reached, or else document i itself."""
        while True:
            with self._lock:
                future = self._results.get(i)
                if future is not None and future.done():
                    return self._results.pop(i).result()
            if future is not None:
                try:
                    future.result(timeout=TAKEOVER_S)
                    continue
                except FutureTimeout:
                    pass
            with self._lock:
                k = self._given if self._given < min(len(self._todo), i + PREFETCH) else i
                if k == self._given:
                    self._given += 1  # taken by this process
            self._parse_here(k)

    def _parse_here(self, k: int) -> None:
        result = _parse_file(self._todo[k], self._counter, self._max_tokens)
        self.parsed_here += 1
        with self._lock:
            if k not in self._results or not self._results[k].done():
                done: Future = Future()
                done.set_result(result)
                self._results[k] = done

    def next_ready(self) -> bool:
        """True when the next document can be had without waiting (inline parsing: never)."""
        with self._lock:
            future = self._results.get(self._position)
            return future is not None and future.done()

    def close(self) -> None:
        with self._lock:
            self._closed = True
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
