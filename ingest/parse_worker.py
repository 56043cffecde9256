"""The parse worker: 10-K and 10-Q documents parsed (and chunked) in worker processes, ahead of the embedder.

Parsing is CPU-bound and the embedder is the slow step, so documents are parsed in other
processes while the main process embeds; a worker ignores the terminal's Ctrl-C (the main process
owns the clean-up) and dies with its parent, so it never outlives an interrupted ingest.
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
from concurrent.futures import ProcessPoolExecutor

from ingest.chunking import chunk_sections
from ingest.html10k import FilingParseError, parse_10k
from ingest.html10q import parse_10q
from ingest.local import FilingFile, read_bytes
from ingest.summary import IngestSummary
from store.parsed import ChunkDraft, ParsedFiling

PREFETCH = 3  # parsed filings waiting ahead of the embedder (bounds memory)


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
