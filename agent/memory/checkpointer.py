"""Thread memory: LangGraph's Postgres checkpointer on Footnote's own database.

The checkpointer shares the Database's connection pool (autocommit, as PostgresSaver expects), so
a thread's last plan survives a process restart with nothing else to run. `setup()` creates the
checkpoint tables once; it is idempotent and guarded by an advisory lock against two processes
starting at the same moment.
"""

from __future__ import annotations

from langgraph.checkpoint.postgres import PostgresSaver

from store.locks import session_lock

_SETUP_LOCK = 815432


def make_checkpointer(db) -> PostgresSaver:
    saver = PostgresSaver(db.pool)
    # A session lock, not a transaction: setup() builds indexes CONCURRENTLY.
    with db.connection() as conn, session_lock(conn, _SETUP_LOCK):
        saver.setup()
    return saver


def thread_config(thread_key: str) -> dict:
    """The LangGraph config for a Turn's thread: the thread id is the adapter's thread key."""
    return {"configurable": {"thread_id": thread_key}}
