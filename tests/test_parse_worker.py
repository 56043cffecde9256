"""The parse worker runs below the embedder's priority, so it parses in the gaps the embedder leaves."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path

from ingest.local import FilingFile
from ingest.parse_worker import PARSE_NICENESS, _Parser


def test_the_parse_worker_runs_below_the_embedders_priority(tmp_path):
    todo = [FilingFile(tmp_path / f"missing-{i}.htm", "X", 1, None, date(2024, 12, 31)) for i in range(3)]
    parser = _Parser(todo, 1, None, 256)
    try:
        worker = parser._pool.submit(os.nice, 0).result(timeout=60)
        results = [r for _, r, _ in parser]
    finally:
        parser.close()
    assert worker == min(19, os.nice(0) + PARSE_NICENESS)
    assert os.nice(0) < worker  # the main process (the embedder) keeps its own priority
    assert all("unreadable" in r for r in results)  # and the worker still does its job
