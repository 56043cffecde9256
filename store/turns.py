"""Turns in one chat thread, taken one at a time and in the order they were asked, across processes.

A follow-up sent while the first question is still being answered must be planned with the first
turn's memory. Each turn registers when its event is claimed (its position: the platform's message
timestamp), then waits until no earlier turn of its thread is pending and holds a Postgres advisory
lock on the thread while it is answered. A crashed process's pending rows stop counting after
STALE_AFTER, and a turn never waits longer than its timeout: late beats never.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Iterator

import psycopg

from store.db import connect_kwargs

log = logging.getLogger(__name__)

STALE_AFTER = "10 minutes"

REGISTER = """
INSERT INTO pending_turns (thread_key, turn_id, position) VALUES (%s, %s, %s)
ON CONFLICT (thread_key, turn_id) DO NOTHING
"""

# The earliest live turn of the thread: the one whose turn it is.
FIRST_PENDING = f"""
SELECT turn_id FROM pending_turns
WHERE thread_key = %s AND created_at > now() - interval '{STALE_AFTER}'
ORDER BY position, created_at LIMIT 1
"""

FINISH = "DELETE FROM pending_turns WHERE thread_key = %s AND turn_id = %s"

PRUNE = f"DELETE FROM pending_turns WHERE created_at < now() - interval '{STALE_AFTER}'"

LOCK = "SELECT pg_advisory_lock(hashtextextended(%s, 815432))"
UNLOCK = "SELECT pg_advisory_unlock(hashtextextended(%s, 815432))"

# The thread's memory, read at the start of a turn and written at its end: a key of its own, so a
# bot turn already holding its place (LOCK, above) takes it after that one, always in that order.
TAKE_MEMORY = "SELECT pg_try_advisory_lock(hashtextextended(%s, 815433))"
FREE_MEMORY = "SELECT pg_advisory_unlock(hashtextextended(%s, 815433))"


def register(db, thread_key: str, turn_id: str, position: str) -> None:
    """Queue a turn in its thread. `position` orders turns (a numeric string, e.g. Slack's ts)."""
    with db.connection() as conn:
        conn.execute(REGISTER, (thread_key, turn_id, position))


def prune(db) -> None:
    with db.connection() as conn:
        conn.execute(PRUNE)


@contextlib.contextmanager
def in_order(db, thread_key: str, turn_id: str, *, timeout_s: float = 60.0, poll_s: float = 0.05) -> Iterator[None]:
    """Wait for this turn's place in its thread, hold the thread while the body runs, then free it.

    The lock lives on its own connection, outside the pool: the answer itself needs pool
    connections, and waiting turns must never starve it. It has the pool's limits (connect
    timeout, keepalives), so a database that does not answer is an error, not a hang."""
    conn = psycopg.connect(db.url, autocommit=True, **connect_kwargs(db.url))
    deadline = time.monotonic() + timeout_s
    try:
        while True:
            conn.execute(LOCK, (thread_key,))
            row = conn.execute(FIRST_PENDING, (thread_key,)).fetchone()
            if row is None or row[0] == turn_id:
                break
            if time.monotonic() > deadline:
                log.warning("turn %s in %s waited %.0fs for an earlier turn; answering now", turn_id, thread_key, timeout_s)
                break
            conn.execute(UNLOCK, (thread_key,))
            time.sleep(poll_s)
        yield
    finally:
        try:
            conn.execute(FINISH, (thread_key, turn_id))
            conn.execute(UNLOCK, (thread_key,))
        finally:
            conn.close()


class ThreadLocks:
    """One turn of a thread at a time, whichever door it came in by.

    The bots queue their turns first (`in_order`), but `footnote ask --thread`, batches and evals
    reach the agent directly, and two turns of one thread must never both plan from the memory
    before either has written it. Within a process a lock per thread key orders them; across
    processes a session advisory lock on one connection of this process's own (opened on first
    use: a connection per answer would cost more than a numeric answer takes). Waiting is bounded,
    like `in_order`: late beats never."""

    def __init__(self, url: str):
        self.url = url
        self._conn: psycopg.Connection | None = None
        self._conn_lock = threading.Lock()
        self._keys: dict[str, list] = {}  # thread key -> [lock, turns using it]
        self._keys_lock = threading.Lock()

    @contextlib.contextmanager
    def hold(self, thread_key: str, *, timeout_s: float = 120.0, poll_s: float = 0.02) -> Iterator[None]:
        deadline = time.monotonic() + timeout_s
        with self._keys_lock:
            entry = self._keys.setdefault(thread_key, [threading.Lock(), 0])
            entry[1] += 1
        mine = entry[0].acquire(timeout=timeout_s)
        held = False
        try:
            while mine and not held:
                held = self._execute(TAKE_MEMORY, thread_key)
                if held or time.monotonic() > deadline:
                    break
                time.sleep(poll_s)
            if not held:
                log.warning("a turn in %s waited %.0fs for the thread's previous turn; answering now", thread_key, timeout_s)
            yield
        finally:
            try:
                if held:
                    self._execute(FREE_MEMORY, thread_key)
            except psycopg.Error:
                pass  # a lost session has released its locks with it
            finally:
                if mine:
                    entry[0].release()
                with self._keys_lock:
                    entry[1] -= 1
                    if entry[1] == 0:
                        del self._keys[thread_key]

    def _execute(self, sql: str, thread_key: str) -> bool:
        with self._conn_lock:
            if self._conn is None or self._conn.closed:
                self._conn = psycopg.connect(self.url, autocommit=True, **connect_kwargs(self.url))
            try:
                return bool(self._conn.execute(sql, (thread_key,)).fetchone()[0])
            except psycopg.OperationalError:
                self._conn.close()  # reopened by the next turn
                raise

    def close(self) -> None:
        with self._conn_lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
