"""The answer cache: an exact match on the normalized question, the thread context the answer
used, the planner/composer path that wrote it, and the corpus version.

The corpus version changes on every ingest that changed anything, so a cached answer can never
outlive the data it was built from; old versions' rows are simply never hit again (and `prune`
removes them).
"""

from __future__ import annotations

import hashlib
import json
import re

from psycopg.types.json import Jsonb

GET_SQL = "SELECT answer FROM answer_cache WHERE key = %s AND corpus_version = %s"
PUT_SQL = """
INSERT INTO answer_cache (key, corpus_version, answer) VALUES (%s, %s, %s)
ON CONFLICT (key) DO UPDATE SET answer = EXCLUDED.answer, corpus_version = EXCLUDED.corpus_version, created_at = now()
"""
PRUNE_SQL = "DELETE FROM answer_cache WHERE corpus_version <> %s"

_SPACE = re.compile(r"\s+")
_TRAILING = re.compile(r"[\s?.!]+$")


def normalize_question(text: str) -> str:
    """Case, runs of whitespace and trailing punctuation do not change what is asked."""
    return _TRAILING.sub("", _SPACE.sub(" ", text.strip().lower()))


def cache_key(question: str, context: dict | None, corpus_version: str, path: str = "rules/extractive") -> str:
    """Hash of what the answer depended on. `context` is the thread memory the planner read
    (None for a first question), serialized canonically; `path` names the planner and composer
    that wrote it (and their model), so turning a model on or off never replays the other's answer."""
    payload = json.dumps(
        {"q": normalize_question(question), "ctx": context or None, "v": corpus_version, "path": path},
        sort_keys=True,
        separators=(",", ":"),
        default=str,
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def get(conn, key: str, corpus_version: str) -> dict | None:
    row = conn.execute(GET_SQL, (key, corpus_version)).fetchone()
    return row[0] if row else None


def put(conn, key: str, corpus_version: str, answer: dict) -> None:
    conn.execute(PUT_SQL, (key, corpus_version, Jsonb(answer)))


def prune(conn, corpus_version: str) -> int:
    return conn.execute(PRUNE_SQL, (corpus_version,)).rowcount
