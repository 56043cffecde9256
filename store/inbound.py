"""Chat events acknowledged by the web front and waiting for an answer worker: a queue in Postgres.

The front acknowledges Slack within milliseconds because it only checks the signature and writes
the request here; answer workers (other processes, `footnote worker`) take requests in arrival
order and answer them, so the acknowledgements never share an interpreter lock with the answers.
Postgres is the queue because every process already shares it: a redelivered event is not queued
twice (its id is unique), a worker wakes on NOTIFY instead of polling, and a request taken by a
worker that died is taken again once its lease has passed.
"""

from __future__ import annotations

import json
import os
import socket

CHANNEL = "footnote_inbound"
LEASE = "2 minutes"

# Queued and announced in one statement (the NOTIFY is delivered at commit; a redelivery is neither).
PUT = """
WITH queued AS (
    INSERT INTO inbound_events (platform, event_id, body, headers) VALUES (%(platform)s, %(event_id)s, %(body)s, %(headers)s)
    ON CONFLICT (event_id) DO NOTHING
    RETURNING id
)
SELECT id, pg_notify(%(channel)s, %(platform)s) FROM queued
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

# The claim is on the acknowledgement path: a lost fraction of a second at a crash is the price of
# not waiting for the disk (the unique key decides the race either way).
ASYNC_COMMIT = "SET LOCAL synchronous_commit TO OFF"


def put(db, platform: str, event_id: str, body: str, headers: dict) -> bool:
    """Queue a request; False when the same event is already queued (a redelivery). It is on the
    acknowledgement path, so its statements go out pipelined: two round trips, not five."""
    params = {"platform": platform, "event_id": f"{platform}:{event_id}", "body": body, "headers": json.dumps(headers),
              "channel": CHANNEL}
    with db.connection() as conn, conn.pipeline(), conn.transaction():
        conn.execute(ASYNC_COMMIT)
        row = conn.execute(PUT, params).fetchone()
    return row is not None


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
