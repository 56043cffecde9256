"""Session-level advisory locks: one process at a time through a piece of start-up work.

A session lock, not a transaction lock, because the work it guards may build indexes
CONCURRENTLY, which would wait forever on an open transaction of ours.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

LOCK = "SELECT pg_advisory_lock(%s)"
UNLOCK = "SELECT pg_advisory_unlock(%s)"


@contextlib.contextmanager
def session_lock(conn, key: int) -> Iterator[None]:
    conn.execute(LOCK, (key,))
    try:
        yield
    finally:
        conn.execute(UNLOCK, (key,))
