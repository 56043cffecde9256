"""`footnote db prune`: the real CLI against a database holding real LangGraph checkpoints written
by real turns. Old threads are forgotten, a live thread keeps its memory, stale cache rows go."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from agent.answer import Turn
from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
OLD_TS = "2020-01-01T00:00:00+00:00"


@pytest.fixture(scope="module")
def footnote(corpus_db, embedder):
    from bot.wiring import build_footnote

    return build_footnote(corpus_db, embedder, Settings(_env_file=None, FOOTNOTE_LLM="off"), use_cache=False)


def _count(db, sql: str, *args) -> int:
    with db.connection() as conn:
        return conn.execute(sql, args).fetchone()[0]


def _age_thread(db, thread: str) -> None:
    with db.connection() as conn:
        conn.execute("UPDATE checkpoints SET checkpoint = jsonb_set(checkpoint, '{ts}', to_jsonb(%s::text)) "
                     "WHERE thread_id = %s", (OLD_TS, thread))


def test_prune_forgets_idle_threads_and_keeps_live_memory(footnote, corpus_db, tmp_path):
    db = corpus_db
    idle, live = "faults:prune:idle", "faults:prune:live"
    footnote.answer(Turn(thread_key=idle, user="u", text="What was Apple's revenue in fiscal 2024?"))
    footnote.answer(Turn(thread_key=live, user="u", text="What was Apple's revenue in fiscal 2024?"))
    footnote.answer(Turn(thread_key=live, user="u", text="And its net income?"))
    _age_thread(db, idle)
    _age_thread(db, live)  # its first turns are old; the thread goes on today
    aged = _count(db, "SELECT count(*) FROM checkpoints WHERE thread_id = %s", live)
    footnote.answer(Turn(thread_key=live, user="u", text="And its operating income?"))
    footnote.answer(Turn(thread_key="faults:prune:fresh", user="u", text="What was Apple's revenue in fiscal 2024?"))
    version = corpus_db.corpus_version()
    with db.connection() as conn:
        conn.execute("INSERT INTO answer_cache (key, corpus_version, answer, created_at) VALUES "
                     "('faults-old', %s, '{}', now() - interval '400 days'), ('faults-other', 'v-gone', '{}', now()), "
                     "('faults-new', %s, '{}', now())", (version, version))
    live_before = _count(db, "SELECT count(*) FROM checkpoints WHERE thread_id = %s", live)
    fresh_before = _count(db, "SELECT count(*) FROM checkpoints WHERE thread_id = 'faults:prune:fresh'")
    assert live_before > 1 and _count(db, "SELECT count(*) FROM checkpoints WHERE thread_id = %s", idle) > 0

    env = {**os.environ, "PYTHONPATH": str(ROOT), "DATABASE_URL": db.url, "FOOTNOTE_DATA_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "bot.cli", "db", "prune", "--days", "30"], capture_output=True,
                          text=True, env=env, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "conversation threads forgotten" in done.stdout

    for table in ("checkpoints", "checkpoint_blobs", "checkpoint_writes"):
        assert _count(db, f"SELECT count(*) FROM {table} WHERE thread_id = %s", idle) == 0, table
    assert 0 < _count(db, "SELECT count(*) FROM checkpoints WHERE thread_id = %s", live) == live_before - aged
    assert _count(db, "SELECT count(*) FROM checkpoints WHERE thread_id = 'faults:prune:fresh'") == fresh_before
    keys = {row for row, in _rows(db, "SELECT key FROM answer_cache WHERE key LIKE 'faults-%'")}
    assert keys == {"faults-new"}

    # The live thread still remembers Apple: a follow-up naming no company is about Apple.
    followup = footnote.answer(Turn(thread_key=live, user="u", text="What about fiscal 2023?"))
    assert followup.kind != "refusal", followup.text
    assert followup.plan and followup.plan.get("tickers") == ["AAPL"], followup.plan


def _rows(db, sql: str):
    with db.connection() as conn:
        return conn.execute(sql).fetchall()
