"""The parse worker pool: stopped and joined by `_Parser.close`.

A pool left to stop on its own raced the interpreter's exit (an OSError from concurrent.futures'
exit hook after an interrupted ingest), so `close` must leave no manager thread and no worker
process behind, whether every document was taken or the ingest stopped in the middle of one.
"""

from __future__ import annotations

import multiprocessing
import threading
import time

from ingest.local import scan_folder
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
