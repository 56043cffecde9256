"""The parse worker pool: stopped and joined by `_Parser.close`.

A pool left to stop on its own raced the interpreter's exit (an OSError from concurrent.futures'
exit hook after an interrupted ingest), so `close` must leave no manager thread and no worker
process behind, whether every document was taken or the ingest stopped in the middle of one.
"""

from __future__ import annotations

import multiprocessing
import signal
import threading
import time

from ingest.local import scan_folder
from ingest import parse_worker
from ingest.parse_worker import _Parser
from tests.conftest import SEC_FIXTURES


def _pool_leftovers() -> list[str]:
    threads = [t.name for t in threading.enumerate() if type(t).__name__ == "_ExecutorManagerThread"]
    return threads + [f"process {p.pid}" for p in multiprocessing.active_children()]


def _filings():
    return scan_folder(SEC_FIXTURES).filings


def test_close_in_the_middle_of_a_parse_joins_the_pool():
    parser = _Parser(_filings(), workers=1, counter=None, max_tokens=256)
    time.sleep(0.5)  # the worker is importing or parsing the first document
    assert parser._pending and not all(p.done() for p in parser._pending)
    parser.close()
    assert _pool_leftovers() == []


def test_close_after_every_document_joins_the_pool():
    files = _filings()[:3]
    parser = _Parser(files, workers=1, counter=None, max_tokens=256)
    taken = [f for f, parsed, _ in parser]
    parser.close()
    assert taken == files
    assert _pool_leftovers() == []


def test_the_worker_leaves_once_the_last_document_is_handed_over():
    """Its exit (and the interpreter's teardown it skips) overlaps the embedding of the last
    batch, instead of holding up the end of the ingest."""
    files = _filings()[:3]
    parser = _Parser(files, workers=1, counter=None, max_tokens=256)
    (worker,) = parser._processes
    taken = [f for f, parsed, _ in parser]
    # before close(); polled, not joined: the pool's own shutdown reaps the worker, and a second waiter that
    # loses that race reads "still running" for an instant
    deadline = time.monotonic() + 30
    while worker.exitcode is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert taken == files and worker.exitcode == 0
    parser.close()
    assert _pool_leftovers() == []


def test_an_interrupt_while_the_worker_starts_prints_no_traceback(capfd):
    """Stopped at once, the worker is still importing when it is told: it must not die of the
    KeyboardInterrupt that an unhandled SIGINT raises (its traceback reached the user's terminal)."""
    parser = _Parser(_filings(), workers=1, counter=None, max_tokens=256)
    (pid,) = [p.pid for p in parser._processes]
    deadline = time.monotonic() + 30
    while not _sigint_disposition_set(pid) and time.monotonic() < deadline:
        time.sleep(0.01)  # until the interpreter is up and importing, before the worker's own handler
    parser.close()
    assert _pool_leftovers() == []
    assert "Traceback" not in capfd.readouterr().err


def _sigint_disposition_set(pid: int) -> bool:
    """Whether process `pid` has SIGINT caught or ignored (/proc/<pid>/status)."""
    try:
        status = open(f"/proc/{pid}/status").read()
    except OSError:
        return True
    lines = [line.split(":") for line in status.splitlines() if line.startswith(("SigIgn:", "SigCgt:"))]
    either = 0
    for _, mask in lines:
        either |= int(mask, 16)
    return bool(either & (1 << (signal.SIGINT - 1)))


def test_a_worker_still_parsing_after_the_grace_is_terminated(monkeypatch):
    """A document that keeps its worker busy past STOP_GRACE_S does not hold up the stop."""
    monkeypatch.setattr(parse_worker, "STOP_GRACE_S", 0.0)
    parser = _Parser(_filings(), workers=1, counter=None, max_tokens=256)
    next(iter(parser))  # the worker is up and on the next document
    closing = threading.Thread(target=parser.close)
    closing.start()
    closing.join(60)
    assert not closing.is_alive(), "close() hung after terminating a busy worker"
    assert _pool_leftovers() == []


def _imported(name: str) -> bool:
    import sys

    return name in sys.modules


def test_started_workers_import_edgartools_before_their_first_document():
    """Started ahead (ParseWorkers), a worker's edgartools import happens while the caller is
    still starting its database and model, not before the first document's parse."""
    started = parse_worker.ParseWorkers(1)
    (worker,) = started.processes
    assert started.pool.submit(_imported, "edgar.documents.parser").result(60)
    parser = _Parser(_filings(), workers=3, counter=None, max_tokens=256, started=started)
    assert parser._processes == {worker} and started.pool is None  # the same process, now the parser's
    taken = [f for f, parsed, _ in parser]
    parser.close()
    assert taken == _filings()
    assert _pool_leftovers() == []


def test_started_workers_with_nothing_to_parse_are_stopped():
    started = parse_worker.ParseWorkers(1)
    files = _filings()[:2]  # two documents are parsed inline
    parser = _Parser(files, workers=1, counter=None, max_tokens=256, started=started)
    taken = [f for f, parsed, _ in parser]
    parser.close()
    assert taken == files
    assert _pool_leftovers() == []


def test_started_workers_never_taken_are_stopped_on_close():
    with parse_worker.ParseWorkers(2) as started:
        assert len(started.processes) in (1, 2)
    assert _pool_leftovers() == []
