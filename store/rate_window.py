"""One user's questions in the last minute, counted in Postgres so that a limit holds across processes.

The chat bots count in memory: one long-lived process sees every question it answers. Each
`footnote ask` is a process of its own and would start every count at zero. The rows live beside
the chat events already taken (processed_events, platform 'cli'), so no table is added; each check
forgets the user's rows older than the window, so a user never holds more than the limit's rows.
"""

from __future__ import annotations

import uuid

PLATFORM = "cli"

# One user's check-and-record at a time: two processes cannot both see room for one more.
LOCK_USER = "SELECT pg_advisory_xact_lock(hashtext('footnote rate window:' || %s))"

FORGET_OLD = """
DELETE FROM processed_events
WHERE platform = %s AND starts_with(event_id, %s) AND received_at <= clock_timestamp() - make_interval(secs => %s)
"""

# How many are in the window, and how many seconds ago the oldest was asked.
IN_WINDOW = """
SELECT count(*), coalesce(extract(epoch FROM clock_timestamp() - min(received_at)), 0)::float8
FROM processed_events WHERE platform = %s AND starts_with(event_id, %s)
"""

# The wall clock, not now(): a transaction that waited on the lock began before the row it then sees.
RECORD = "INSERT INTO processed_events (event_id, platform, received_at) VALUES (%s, %s, clock_timestamp())"


def take(db, user: str, limit: int, window_s: float) -> tuple[int, float] | None:
    """Record one question by `user` when fewer than `limit` were asked in the last `window_s`
    seconds, and return None; otherwise record nothing and return (questions in the window,
    seconds since the oldest of them)."""
    prefix = f"{PLATFORM}:{len(user)}:{user}:"  # the length keeps "ann" from counting "ann:x"'s questions
    with db.connection() as conn, conn.transaction():
        conn.execute(LOCK_USER, (user,))
        conn.execute(FORGET_OLD, (PLATFORM, prefix, window_s))
        count, age_s = conn.execute(IN_WINDOW, (PLATFORM, prefix)).fetchone()
        if count >= limit:
            return count, age_s
        conn.execute(RECORD, (prefix + uuid.uuid4().hex, PLATFORM))
    return None
