"""Retention: answer-cache rows and conversation checkpoints do not grow for ever.

Every turn adds LangGraph checkpoints (and their blobs and pending writes) to its thread, and
every distinct question a cache row; nothing removed them, so a small corpus carried tens of MB
of history. `prune` keeps what can still matter:

- cache rows of the current corpus version written within the retention (other versions' rows
  can never be hit again);
- for a thread active within the retention, its latest checkpoint (the thread's memory) and any
  checkpoint inside the retention; a thread idle for longer loses its whole history (a follow-up
  there starts afresh, as in a new thread);
- blobs and writes only while a remaining checkpoint refers to them.

One transaction, so a concurrent turn sees either the old history or the pruned one.
"""

from __future__ import annotations

from dataclasses import dataclass

PRUNE_CACHE = """
DELETE FROM answer_cache
WHERE corpus_version <> %(version)s OR created_at < now() - make_interval(days => %(days)s)
"""

STALE_THREADS = """
SELECT thread_id FROM checkpoints GROUP BY thread_id
HAVING max((checkpoint->>'ts')::timestamptz) < now() - make_interval(days => %(days)s)
"""

DELETE_THREADS = {
    "writes": "DELETE FROM checkpoint_writes WHERE thread_id = ANY(%(threads)s)",
    "blobs": "DELETE FROM checkpoint_blobs WHERE thread_id = ANY(%(threads)s)",
    "checkpoints": "DELETE FROM checkpoints WHERE thread_id = ANY(%(threads)s)",
}

# Within live threads: old checkpoints other than each (thread, namespace)'s latest. Checkpoint
# ids are time-ordered (LangGraph reads the latest as the greatest id).
DELETE_OLD_CHECKPOINTS = """
DELETE FROM checkpoints c
WHERE (c.checkpoint->>'ts')::timestamptz < now() - make_interval(days => %(days)s)
  AND c.checkpoint_id < (SELECT max(l.checkpoint_id) FROM checkpoints l
                         WHERE l.thread_id = c.thread_id AND l.checkpoint_ns = c.checkpoint_ns)
"""

DELETE_ORPHAN_WRITES = """
DELETE FROM checkpoint_writes w
WHERE NOT EXISTS (SELECT 1 FROM checkpoints c WHERE c.thread_id = w.thread_id
                  AND c.checkpoint_ns = w.checkpoint_ns AND c.checkpoint_id = w.checkpoint_id)
"""

# A blob is one version of one channel; a checkpoint names the versions it uses.
DELETE_ORPHAN_BLOBS = """
DELETE FROM checkpoint_blobs b
WHERE NOT EXISTS (SELECT 1 FROM checkpoints c WHERE c.thread_id = b.thread_id AND c.checkpoint_ns = b.checkpoint_ns
                  AND c.checkpoint->'channel_versions'->>b.channel = b.version)
"""

HAS_CHECKPOINTS = "SELECT to_regclass('checkpoints') IS NOT NULL"


@dataclass
class Pruned:
    cache_rows: int = 0
    threads: int = 0
    checkpoints: int = 0
    blobs: int = 0
    writes: int = 0

    def lines(self) -> list[str]:
        return [f"answer-cache rows removed: {self.cache_rows:,}",
                f"conversation threads forgotten: {self.threads:,}",
                f"checkpoints removed: {self.checkpoints:,} (blobs {self.blobs:,}, pending writes {self.writes:,})"]


def prune(conn, *, corpus_version: str, days: int) -> Pruned:
    out = Pruned()
    args = {"version": corpus_version, "days": int(days)}
    with conn.transaction():
        out.cache_rows = conn.execute(PRUNE_CACHE, args).rowcount
        if not conn.execute(HAS_CHECKPOINTS).fetchone()[0]:
            return out
        threads = [row[0] for row in conn.execute(STALE_THREADS, args).fetchall()]
        out.threads = len(threads)
        if threads:
            out.writes += conn.execute(DELETE_THREADS["writes"], {"threads": threads}).rowcount
            out.blobs += conn.execute(DELETE_THREADS["blobs"], {"threads": threads}).rowcount
            out.checkpoints += conn.execute(DELETE_THREADS["checkpoints"], {"threads": threads}).rowcount
        out.checkpoints += conn.execute(DELETE_OLD_CHECKPOINTS, args).rowcount
        out.writes += conn.execute(DELETE_ORPHAN_WRITES).rowcount
        out.blobs += conn.execute(DELETE_ORPHAN_BLOBS).rowcount
    return out
