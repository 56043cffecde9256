"""What the chat adapters remember outside the agent: events already taken, threads Footnote
has joined, and users' feedback. Plain SQL on the shared Postgres, so several bot processes
agree on all three.
"""

from __future__ import annotations

import json

# Slack retries an event it got no fast answer for, possibly to another process: the first
# INSERT wins and every later copy finds the row. The primary key makes it atomic.
CLAIM_EVENT = """
INSERT INTO processed_events (event_id, platform) VALUES (%s, %s)
ON CONFLICT (event_id) DO NOTHING
RETURNING event_id
"""

# A thread Footnote has answered in, so a later message in it (no mention needed) is recognised
# as a follow-up by any process.
JOIN_THREAD = """
INSERT INTO bot_threads (thread_key, platform) VALUES (%s, %s)
ON CONFLICT (thread_key) DO NOTHING
"""

IN_THREAD = "SELECT 1 FROM bot_threads WHERE thread_key = %s"

PRUNE_EVENTS = "DELETE FROM processed_events WHERE platform = %s AND received_at < now() - make_interval(days => %s)"

INSERT_FEEDBACK = """
INSERT INTO feedback (platform, thread_key, user_id, rating, question, answer)
VALUES (%s, %s, %s, %s, %s, %s)
RETURNING id
"""


# The claim sits on the ack path. Waiting for its WAL flush would make every ack wait for the
# disk; the unique key decides the race either way, and a crash could at worst forget a claim made
# in its last fraction of a second.
ASYNC_COMMIT = "SET LOCAL synchronous_commit TO OFF"


def claim_event(db, platform: str, event_id: str) -> bool:
    """True for the first delivery of this event anywhere; False for every retry of it."""
    with db.connection() as conn, conn.transaction():
        conn.execute(ASYNC_COMMIT)
        return conn.execute(CLAIM_EVENT, (f"{platform}:{event_id}", platform)).fetchone() is not None


def join_thread(db, thread_key: str) -> None:
    """Remember that Footnote answers in this thread (`{platform}:...` key)."""
    with db.connection() as conn, conn.transaction():
        conn.execute(ASYNC_COMMIT)
        conn.execute(JOIN_THREAD, (thread_key, thread_key.split(":", 1)[0]))


def in_thread(db, thread_key: str) -> bool:
    with db.connection() as conn:
        return conn.execute(IN_THREAD, (thread_key,)).fetchone() is not None


def prune_events(db, platform: str, *, days: int = 3) -> None:
    """Event ids only matter while the platform may still retry (minutes)."""
    with db.connection() as conn:
        conn.execute(PRUNE_EVENTS, (platform, days))


def record_feedback(db, *, platform: str, thread_key: str, user_id: str, rating: int, question: str, answer: dict) -> int:
    with db.connection() as conn:
        row = conn.execute(
            INSERT_FEEDBACK, (platform, thread_key, user_id, 1 if rating > 0 else -1, question, json.dumps(answer))
        ).fetchone()
    return row[0]
