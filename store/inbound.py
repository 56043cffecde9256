"""Chat events acknowledged by the web front and waiting for an answer worker: a queue in Postgres.

The front acknowledges Slack within milliseconds because it only checks the signature and writes
the request here; answer workers (other processes, `footnote worker`) take requests in arrival
order and answer them, so the acknowledgements never share an interpreter lock with the answers.
Postgres is the queue because every process already shares it: a redelivered event is not queued
twice (its id is unique), a worker wakes on NOTIFY instead of polling, and a request taken by a
worker that died is taken again once its lease has passed.

The front writes through a `Writer`: one thread on one connection of its own, opened when the
front starts, that writes whatever requests are waiting in one statement (a burst of fifty is one
or two round trips, not fifty, and no request waits for a pooled connection, a pool's liveness
check or a thread to start).
"""

from __future__ import annotations

import json
import logging
import os
import queue
import socket
import threading
from concurrent.futures import Future, InvalidStateError

log = logging.getLogger(__name__)

CHANNEL = "footnote_inbound"
LEASE = "2 minutes"

# A batch, queued in arrival order and announced, in one statement; the rows it queued come back
# (a redelivery, or a second copy within the batch, is not queued again).
PUT_MANY = """
WITH queued AS (
    INSERT INTO inbound_events (platform, event_id, body, headers)
    SELECT platform, event_id, body, headers
    FROM unnest(%(platforms)s::text[], %(event_ids)s::text[], %(bodies)s::text[], %(headers)s::jsonb[])
         WITH ORDINALITY AS incoming (platform, event_id, body, headers, n)
    ORDER BY n
    ON CONFLICT (event_id) DO NOTHING
    RETURNING platform, event_id
)
SELECT event_id, pg_notify(%(channel)s, platform) FROM queued
"""

# The oldest waiting requests (or ones whose taker's lease has passed), each taken by one worker only.
TAKE = f"""
UPDATE inbound_events SET taken_at = now(), taken_by = %s
WHERE id IN (
    SELECT id FROM inbound_events
    WHERE platform = %s AND (taken_at IS NULL OR taken_at < now() - interval '{LEASE}')
    ORDER BY id FOR UPDATE SKIP LOCKED LIMIT %s
)
RETURNING id, body, headers
"""

DONE = "DELETE FROM inbound_events WHERE id = ANY(%s)"

LISTEN = f"LISTEN {CHANNEL}"

WRITER_SESSION = "SET synchronous_commit TO OFF"
WRITER_NAME = "footnote-queue-writer"  # its sessions in pg_stat_activity


def put_many(conn, requests: list[tuple[str, str, str, dict]]) -> list[bool]:
    """Queue (platform, event_id, body, headers) requests in one statement on an autocommit
    connection; for each, whether it was queued (False: already queued, or earlier in the batch)."""
    keys = [f"{platform}:{event_id}" for platform, event_id, _, _ in requests]
    rows = conn.execute(PUT_MANY, {
        "platforms": [r[0] for r in requests], "event_ids": keys, "bodies": [r[2] for r in requests],
        "headers": [json.dumps(r[3]) for r in requests], "channel": CHANNEL,
    }).fetchall()
    fresh = {row[0] for row in rows}
    queued = []
    for key in keys:
        queued.append(key in fresh)
        fresh.discard(key)  # a second copy in the same batch is a redelivery
    return queued


class Writer:
    """Writes queued requests for the front in batches, on a connection and a thread of its own.

    `submit` returns at once with a Future: True once the request is in Postgres, False if it
    already was, or the error that stopped the write (the caller decides what an outage means).
    Whatever is waiting when a write starts goes in that write, up to MAX_BATCH. A connection found
    broken is replaced and the write tried once more on the new one; any other failure closes it,
    and the next write opens a new one."""

    MAX_BATCH = 256

    def __init__(self, url: str, *, connect_timeout_s: int = 5, statement_timeout_s: int = 30):
        self.url = url
        self._connect_timeout_s = connect_timeout_s
        self._statement_timeout_s = statement_timeout_s
        self._waiting: queue.SimpleQueue = queue.SimpleQueue()
        self._conn = None
        self.writes = 0  # statements run (a burst shows as fewer writes than requests)
        self._thread = threading.Thread(target=self._run, name="footnote-inbound-writer", daemon=True)
        self._thread.start()

    def submit(self, platform: str, event_id: str, body: str, headers: dict) -> Future:
        future: Future = Future()
        self._waiting.put((platform, event_id, body, headers, future))
        return future

    def close(self) -> None:
        self._waiting.put(None)
        self._thread.join(10)

    def _run(self) -> None:
        try:
            self._open()  # warm before the first request, so it never pays for the connection
        except Exception as exc:
            log.warning("the queue's writer could not connect yet (%s); it tries again with the first request",
                        exc.__class__.__name__)
        while True:
            first = self._waiting.get()
            if first is None:
                break
            batch = [first]
            while len(batch) < self.MAX_BATCH:
                try:
                    item = self._waiting.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    self._waiting.put(None)  # finish this batch, then stop
                    break
                batch.append(item)
            self._write(batch)
        self._close()

    def _write(self, batch: list) -> None:
        try:
            queued = self._put([item[:4] for item in batch])
            self.writes += 1
        except Exception as exc:
            self._close()
            for item in batch:
                _settle(item[4], error=exc)
            return
        for item, fresh in zip(batch, queued):
            _settle(item[4], result=fresh)

    def _put(self, requests: list) -> list[bool]:
        import psycopg

        if self._conn is not None:
            try:
                return put_many(self._conn, requests)
            except psycopg.OperationalError:
                if not self._conn.broken:
                    raise
                # Lost while idle (a server restart, a proxy's idle cut): once more, on a new connection.
                self._close()
        return put_many(self._open(), requests)

    def _open(self):
        import psycopg

        from store.db import connect_kwargs

        conn = psycopg.connect(self.url, autocommit=True, application_name=WRITER_NAME, **connect_kwargs(
            self.url, connect_timeout_s=self._connect_timeout_s, statement_timeout_s=self._statement_timeout_s))
        # The acknowledgement does not wait for the disk: a lost fraction of a second at a crash
        # is the price (the unique key decides a redelivery's race either way).
        conn.execute(WRITER_SESSION)
        self._conn = conn
        return conn

    def _close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.close()
            except Exception:
                pass


def _settle(future: Future, *, result=None, error: BaseException | None = None) -> None:
    try:
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)
    except InvalidStateError:  # cancelled by its caller meanwhile: the write stands, nobody is told
        pass


def take(db, platform: str, limit: int = 1) -> list[tuple[int, str, dict]]:
    """Up to `limit` requests for `platform` in arrival order, now this worker's; [] when nothing waits."""
    with db.connection() as conn:
        rows = conn.execute(TAKE, (worker_name(), platform, limit)).fetchall()
    return sorted((r[0], r[1], r[2] if isinstance(r[2], dict) else json.loads(r[2])) for r in rows)


def done(db, request_ids: list[int]) -> None:
    with db.connection() as conn:
        conn.execute(DONE, (list(request_ids),))


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def listener(url: str):
    """A connection that LISTENs for queued requests (outside the pool: it waits, it never queries)."""
    import psycopg

    from store.db import connect_kwargs

    conn = psycopg.connect(url, autocommit=True, **connect_kwargs(url))
    conn.execute(LISTEN)
    return conn


def wait(conn, timeout_s: float) -> None:
    """Until a request is queued (NOTIFY) or `timeout_s` passes."""
    for _ in conn.notifies(timeout=timeout_s, stop_after=1):
        pass
