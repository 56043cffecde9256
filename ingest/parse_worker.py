"""The parse worker: 10-K and 10-Q documents parsed (and chunked) in worker processes, ahead of the embedder.

Parsing is CPU-bound and the embedder is the slow step, so documents are parsed in other
processes while the main process embeds. A worker dies with its parent, so it never outlives an
interrupted ingest, and on Ctrl-C it finishes at most the document in hand (the main process owns
the clean-up and waits for the pool to stop, see `_Parser.close`).

It runs at the embedder's own priority. The model keeps both cores of a 2-core machine busy (the
3 bench filings' chunks take about 35 CPU-seconds to embed, 17 s on 2 idle cores), so a worker at
a lower priority finds no idle moments to parse in: it falls behind, and the embedder then waits
for it with a core idle.
"""

from __future__ import annotations

import atexit
import contextlib
import multiprocessing
import os
import re
import resource
import signal
import sys
import threading
import time
from collections.abc import Iterator
from concurrent import futures
from concurrent.futures import ProcessPoolExecutor

from ingest.chunking import chunk_sections
from ingest.html10k import FilingParseError, parse_10k
from ingest.html10q import parse_10q
from ingest.local import FilingFile, read_bytes
from ingest.summary import IngestSummary
from store.parsed import ChunkDraft, ParsedFiling

PREFETCH = 3  # parsed filings waiting ahead of the embedder (bounds memory)
STOP_GRACE_S = 10.0  # on an interrupt, how long a worker may take to finish the document in hand


def parse_document(data: bytes, form: str, **kw) -> ParsedFiling:
    """A 10-K or a 10-Q by its parser; the document must declare that form on its cover."""
    return (parse_10q if form.upper().startswith("10-Q") else parse_10k)(data, **kw)


_DOCUMENT_TYPE = re.compile(rb"name=[\"']dei:DocumentType[\"'][^>]*>\s*(?:<[^>]+>\s*)*(10-[KQ])", re.IGNORECASE)


def declared_form(data: bytes) -> str:
    """'10-Q' when the cover's dei:DocumentType says so, else '10-K'."""
    m = _DOCUMENT_TYPE.search(data)
    return m.group(1).decode().upper() if m else "10-K"


class ParseWorkers:
    """Parse worker processes started before the ingest knows its documents, ready to parse.

    A worker's start is spawning a Python process and importing edgartools: about 0.9 CPU-seconds
    and as long in wall time, which otherwise sat between the ingest's start and its first parse,
    the embedder idle. Started first (ingest/cli.py starts them before the database and the
    model), they import while those start. `_Parser` takes them over; `close` stops them when no
    parser did (a failed start, nothing to parse). A context manager.
    """

    def __init__(self, workers: int):
        self.workers = max(0, workers)
        self.pool: ProcessPoolExecutor | None = None
        self.processes: set = set()  # the pool's worker processes, as multiprocessing reports them
        self._warm_ups: list = []  # the warm-up tasks; each returns its worker's CPU so far
        if self.workers:
            self.pool = _new_pool(self.workers)
            # A pool starts a process per task submitted while none is idle: one warm-up task each.
            self.processes = _started_by(lambda: self._warm_ups.extend(self.pool.submit(_warm_up) for _ in range(self.workers)))

    def warm_up_cpu_s(self) -> float:
        """CPU-seconds the workers spent starting (spawn and imports) in warm-ups that have ended
        (part of the parse CPU they report with their first document)."""
        return sum(f.result() for f in self._warm_ups if f.done() and not f.cancelled() and f.exception() is None)

    def take(self) -> ProcessPoolExecutor | None:
        """The pool, now the caller's to stop."""
        pool, self.pool = self.pool, None
        return pool

    def close(self) -> None:
        pool = self.take()
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> ParseWorkers:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _new_pool(workers: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_worker_init, initargs=(os.getpid(),))  # fmt: skip


def _started_by(submit) -> set:
    """The worker processes that appear while `submit()` runs, which starts them with SIGINT
    ignored (see `_interrupts_ignored_by_new_workers`)."""
    before = set(multiprocessing.active_children())
    with _interrupts_ignored_by_new_workers():
        submit()
    return set(multiprocessing.active_children()) - before


def _warm_up() -> float:
    """Runs in a new worker: what its first parse would import, imported now. Returns the worker's
    CPU-seconds so far."""
    from ingest.edgar_parse import preload

    preload()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class _Parser:
    """(file, ParsedFiling or a one-line error, chunks or None) in order, parsed ahead.

    Parsing (and chunking, when the embedder's token counter can travel to another process) runs
    in worker processes while the main process embeds; at most PREFETCH documents are in flight.
    `started`: workers already running (`ParseWorkers`), used instead of starting new ones.
    """

    def __init__(self, todo: list[FilingFile], workers: int, counter, max_tokens: int,
                 started: ParseWorkers | None = None):  # fmt: skip
        self._todo, self._counter, self._max_tokens = todo, counter, max_tokens
        self.cpu_s = 0.0  # the workers' CPU time so far, their imports included (what embedding competes with)
        self.peak_mb = 0.0  # the largest worker's peak resident memory
        self._pool = None
        self._pending: list = []
        self._next = 0  # documents submitted
        self._taken = 0  # documents handed over
        self._processes: set = set()  # the pool's worker processes, as multiprocessing reports them
        self._stopping: threading.Thread | None = None  # shuts the pool down once the last document is in
        self._workers = 0  # processes still to be started by a submit
        if started is not None:
            workers = started.workers
            pool = started.take()
            if workers > 0 and len(todo) > 2:
                self._pool, self._processes = pool, set(started.processes)
            elif pool is not None:  # nothing for them to do: they stop while the ingest goes on
                self._stopping = _stopper(pool)
        elif workers > 0 and len(todo) > 2:
            self._pool = _new_pool(workers)
            self._workers = workers
        if self._pool is not None:
            while self._next < min(PREFETCH, len(todo)):
                self._submit()

    def _submit(self) -> None:
        f = self._todo[self._next]

        def submit():
            self._pending.append(self._pool.submit(_parse_file, f, self._counter, self._max_tokens))

        # The pool starts its processes inside `submit`, as work arrives, never more than `workers`:
        # so only the first `workers` submits can start one, and the children that appear during
        # one of them are the pool's.
        if self._next < self._workers:
            self._processes |= _started_by(submit)
        else:
            submit()
        self._next += 1

    def __iter__(self) -> Iterator[tuple]:
        if self._pool is None:
            for f in self._todo:
                self._taken += 1
                yield (f, *_parse_and_chunk(f, None, self._max_tokens))
            return
        for f in self._todo:
            self._taken += 1
            *result, cpu_s, peak_mb = self._pending.pop(0).result()
            self.cpu_s, self.peak_mb = self.cpu_s + cpu_s, max(self.peak_mb, peak_mb)
            if self._next < len(self._todo):
                self._submit()
            elif not self._pending:
                # The last document is in hand: the pool stops while it is embedded, not after.
                self._stopping = _stopper(self._pool)
            yield (f, *result)

    def exhausted(self) -> bool:
        """True once the last document has been handed over."""
        return self._taken >= len(self._todo)

    def next_ready(self) -> bool:
        """True when the next document can be had without waiting (inline parsing: never)."""
        return bool(self._pending) and self._pending[0].done()

    def close(self) -> None:
        """Stop the pool and wait until it has stopped.

        A pool left to stop on its own (`shutdown(wait=False)`) races the interpreter's exit: its
        manager thread closes its wake-up pipe while the exit hook writes to it, an OSError (Bad
        file descriptor) after an interrupted ingest. So the pool is always joined; when documents
        are still being parsed (an interrupt or an error mid-batch) the workers are told first, so
        they finish at most the one in hand and skip the rest, and a worker still on that one after
        STOP_GRACE_S (a pathological document) is terminated: its parse would be discarded anyway.
        """
        if self._pool is None:
            if self._stopping is not None:  # started workers that had nothing to parse
                self._stopping.join()
            return
        if self._stopping is not None:  # every document was taken and the pool is stopping
            self._stopping.join()
            self._pool = None
            return
        if not all(p.done() for p in self._pending):
            workers = [w for w in self._processes if w.is_alive()]
            for worker in workers:
                try:
                    os.kill(worker.pid, signal.SIGINT)
                except ProcessLookupError:
                    pass
            if futures.wait(self._pending, timeout=STOP_GRACE_S).not_done:
                for worker in workers:
                    worker.terminate()
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._pool = None


def _stopper(pool: ProcessPoolExecutor) -> threading.Thread:
    """A thread that shuts `pool` down (joined by `_Parser.close`)."""
    thread = threading.Thread(target=pool.shutdown, name="parse-pool-stop", daemon=True)
    thread.start()
    return thread


@contextlib.contextmanager
def _interrupts_ignored_by_new_workers():
    """A worker process started meanwhile begins with SIGINT ignored (an ignored signal survives
    exec; a handler does not), so a Ctrl-C while it is still importing cannot kill it with a
    traceback before `_worker_init` installs its own handler. Only the main thread can do this;
    the main process's own Ctrl-C is ignored just while a process is forked."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def _worker_init(parent: int) -> None:
    _stop_on_interrupt()
    _exit_with_parent(parent)
    atexit.register(_exit_now)


def _exit_now() -> None:
    """A worker's last exit handler: leave without the interpreter's teardown. Every result has
    been sent by then; what is left is freeing edgartools' module graph and the parse heap, about
    2 s of wall time (a third of a CPU-second) that the end of every ingest waited for."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(0)


_stopping = threading.Event()  # in a worker: an interrupt was seen, so no further document is parsed


def _stop_on_interrupt() -> None:
    """A terminal's Ctrl-C reaches the whole process group, and the main process sends SIGINT when
    it stops early. The worker finishes at most the document in hand and skips any it is handed
    after, so the pool stops promptly; it never dies with a traceback (the main process owns the
    clean-up). Nothing is raised inside a parse: an exception at an arbitrary point of library
    code can surface as an 'Exception ignored' traceback instead of stopping it."""
    signal.signal(signal.SIGINT, lambda signum, frame: _stopping.set())
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


_cpu_reported = 0.0  # in a worker: its CPU time already reported with an earlier document


def _parse_file(f: FilingFile, counter, max_tokens: int) -> tuple:
    """Runs in a worker process: (ParsedFiling, its chunks when `counter` is given) or (reason,
    None), then the worker's CPU seconds since its last report and its peak memory in MB."""
    global _cpu_reported
    if _stopping.is_set():
        result = (f"{f.path}: not parsed (the ingest was interrupted)", None)
    else:
        result = _parse_and_chunk(f, counter, max_tokens)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu = usage.ru_utime + usage.ru_stime
    spent, _cpu_reported = cpu - _cpu_reported, cpu
    return (*result, spent, _peak_mb(usage))


def _peak_mb(usage) -> float:
    """This process's own peak resident memory. Not ru_maxrss on Linux: a spawned process keeps its
    parent's peak there (the kernel carries it across the exec), which is how the worker was once
    reported at 1.58 GB, the main process's size; VmHWM is the peak of its own address space."""
    try:
        for line in open("/proc/self/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return usage.ru_maxrss / 1024


def _parse_and_chunk(f: FilingFile, counter, max_tokens: int) -> tuple[ParsedFiling | str, list[ChunkDraft] | None]:
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
