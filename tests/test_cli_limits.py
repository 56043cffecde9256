"""The chat limits at the command line: the input cap and the per-user rate limit that Slack and
Teams apply, driven through the real `footnote` processes against a real database. The limit
holds across separate `footnote ask` processes (it is counted in Postgres); a batch is exempt."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from bot import limits

# Subprocesses over the ingested fixture corpus: `make test-fast` leaves these out.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
QUESTION = "What was Apple's revenue in fiscal 2024?"


def start(*args: str, env: dict, stdin: str = "") -> subprocess.Popen:
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), "FOOTNOTE_LLM": "off", **env}
    proc = subprocess.Popen([sys.executable, "-m", "bot.cli", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=full_env, cwd=ROOT)
    proc.stdin.write(stdin)
    proc.stdin.close()
    return proc


def finish(proc: subprocess.Popen, timeout: float = 180) -> tuple[int, str, str]:
    out = proc.stdout.read()
    err = proc.stderr.read()
    return proc.wait(timeout=timeout), out, err


@pytest.fixture
def env(corpus_db, tmp_path) -> dict:
    return {"DATABASE_URL": corpus_db.url, "FOOTNOTE_DATA_DIR": str(tmp_path / "data")}


def test_an_over_long_question_gets_the_chat_message_stating_the_limit(env):
    question = "What was Apple's revenue? " + "x" * 2500
    code, out, err = finish(start("ask", question, "--no-cache", env=env))
    assert code == 2, out + err
    assert err.strip() == limits.too_long(question)
    assert "up to 2,000" in err and "2,526 characters" in err
    assert "Traceback" not in err and not out.strip()
    code, out, err = finish(start("chat", "--no-cache", env=env, stdin=f"{question}\n{QUESTION}\n"))
    assert code == 0, out + err
    assert limits.too_long(question) in out, "chat says the limit and carries on"
    assert "$391.04 billion" in out, "the next question is answered"


def test_the_per_user_limit_holds_across_ask_processes_and_spares_batches_and_other_users(env, tmp_path):
    user = f"analyst-{uuid.uuid4().hex[:8]}"
    limited = {**env, "FOOTNOTE_CHAT_PER_USER_PER_MINUTE": "1", "LOGNAME": user, "USER": user}
    code, out, err = finish(start("ask", QUESTION, "--no-cache", env=limited))
    assert code == 0 and "$391.04 billion" in out, out + err

    batch = tmp_path / "q.jsonl"
    batch.write_text("\n".join(json.dumps({"id": i, "question": QUESTION}) for i in range(2)) + "\n", encoding="utf-8")
    # Within the minute, each its own process: the same user again (as the OS user and by --user),
    # in chat, a batch, and another user.
    again = start("ask", QUESTION, "--no-cache", env=limited)
    by_name = start("ask", QUESTION, "--no-cache", "--user", user, env={**env, "FOOTNOTE_CHAT_PER_USER_PER_MINUTE": "1"})
    chat = start("chat", "--no-cache", env=limited, stdin=f"{QUESTION}\n")
    batched = start("ask", "--batch", str(batch), "--no-cache", env=limited)
    other = start("ask", QUESTION, "--no-cache", "--user", f"other-{user}", env=limited)

    for proc in (again, by_name):
        code, out, err = finish(proc)
        assert code == 75, out + err  # EX_TEMPFAIL: a script can tell "try later" from an error
        assert err.startswith("You've asked 1 question in the last minute, which is as many as Footnote takes "
                              "from one person. Please try again in about "), err
        assert "$391.04" not in out
    code, out, err = finish(chat)
    assert code == 0 and "Please try again in about" in out and "$391.04" not in out, out + err
    code, out, err = finish(batched)
    assert code == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    assert [len(line["answers"]) for line in lines] == [1, 1], "a batch is exempt: every record answered"
    assert all("$391.04 billion" in line["answers"][0]["text"] for line in lines)
    code, out, err = finish(other)
    assert code == 0 and "$391.04 billion" in out, out + err


def test_parallel_processes_cannot_both_take_the_last_place(db):
    """The check and the record are one step per user: of many racing for one place, one gets it."""
    from concurrent.futures import ThreadPoolExecutor

    from store import rate_window

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: rate_window.take(db, "racer", 1, 60.0), range(8)))
    assert sum(r is None for r in results) == 1
    assert all(r[0] == 1 and 0 <= r[1] < 60 for r in results if r is not None)
    assert rate_window.take(db, "racer:2", 1, 60.0) is None, "another user, even one named like a prefix, has room"
