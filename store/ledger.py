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

# One vote per user per answer: a second click replaces the first (and forgets its reason).
UPSERT_FEEDBACK = """
INSERT INTO feedback (platform, thread_key, user_id, rating, question, answer, answer_ref)
VALUES (%s, %s, %s, %s, %s, %s, %s)
ON CONFLICT (platform, answer_ref, user_id) WHERE answer_ref IS NOT NULL
DO UPDATE SET rating = EXCLUDED.rating, question = EXCLUDED.question, answer = EXCLUDED.answer,
              reason = NULL, comment = NULL, updated_at = now()
RETURNING id
"""

VOTES = """
SELECT coalesce(sum(CASE WHEN rating > 0 THEN 1 ELSE 0 END), 0), coalesce(sum(CASE WHEN rating < 0 THEN 1 ELSE 0 END), 0)
FROM feedback WHERE platform = %s AND answer_ref = %s
"""

SET_REASON = "UPDATE feedback SET reason = %s, comment = %s, updated_at = now() WHERE id = %s AND user_id = %s"

LATEST_DOWN = """
SELECT id, platform, thread_key, user_id, question, answer, reason, comment, updated_at
FROM feedback WHERE rating < 0 ORDER BY updated_at DESC, id DESC LIMIT %s
"""

FEEDBACK_REASONS = {
    "wrong_figure": "A figure is wrong",
    "wrong_company_year": "Wrong company or year",
    "not_what_i_asked": "Not what I asked",
    "other": "Something else",
}


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


def record_feedback(db, *, platform: str, thread_key: str, user_id: str, rating: int, question: str, answer: dict,
                    answer_ref: str | None = None) -> int:
    """Store a vote; with `answer_ref` (the message voted on) a user's later vote replaces theirs."""
    with db.connection() as conn:
        row = conn.execute(
            UPSERT_FEEDBACK,
            (platform, thread_key, user_id, 1 if rating > 0 else -1, question, json.dumps(answer), answer_ref),
        ).fetchone()
    return row[0]


def votes(db, platform: str, answer_ref: str) -> tuple[int, int]:
    """(👍, 👎) on one answer, one per user."""
    with db.connection() as conn:
        up, down = conn.execute(VOTES, (platform, answer_ref)).fetchone()
    return int(up), int(down)


def record_reason(db, feedback_id: int, user_id: str, reason: str, comment: str | None) -> bool:
    """What was wrong with an answer a user voted 👎 on; only that user may say it."""
    if reason not in FEEDBACK_REASONS:
        reason = "other"
    with db.connection() as conn:
        return conn.execute(SET_REASON, (reason, (comment or "").strip()[:2000] or None, feedback_id, user_id)).rowcount == 1


def latest_down(db, limit: int = 20) -> list[dict]:
    """The latest 👎, newest first, with the question and the answer as shown."""
    cols = ("id", "platform", "thread_key", "user_id", "question", "answer", "reason", "comment", "updated_at")
    with db.connection() as conn:
        return [dict(zip(cols, row)) for row in conn.execute(LATEST_DOWN, (limit,)).fetchall()]
