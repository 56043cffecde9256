"""Database faults, driven the way an operator meets them: a DATABASE_URL that accepts TCP and
never answers, a malformed DATABASE_URL, a Postgres that goes away and comes back, and an
embedded server that was sent SIGTERM while something still held a connection."""

from __future__ import annotations

import concurrent.futures
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest

from store.db import Database, is_outage, start_embedded
from store.errors import DatabaseError
from bot.fakes.tcp_faults import Blackhole, Cable

# Whole ingests, subprocesses or servers: `make test-fast` leaves these out.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]


def footnote(*args: str, env: dict, stdin: str = "", timeout: float = 60) -> tuple[int, str, float]:
    """Run the real `footnote` command; returns (exit code, stderr+stdout, seconds)."""
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), "FOOTNOTE_LLM": "off", **env}
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "bot.cli", *args], input=stdin, capture_output=True, text=True,
                          env=full_env, timeout=timeout, cwd=ROOT)
    return done.returncode, done.stderr + done.stdout, time.perf_counter() - started


@pytest.fixture
def blackhole():
    hole = Blackhole()
    yield hole
    hole.close()


@pytest.mark.parametrize("command", [["ask", "What was Apple's revenue in fiscal 2024?"], ["chat"]])
def test_a_database_that_never_answers_is_reported_within_seconds(blackhole, tmp_path, command):
    url = f"postgresql://footnote:hunter2@127.0.0.1:{blackhole.port}/footnote"
    code, output, seconds = footnote(*command, env={"DATABASE_URL": url, "FOOTNOTE_DATA_DIR": str(tmp_path)},
                                     stdin="What was Apple's revenue?\n", timeout=40)
    assert code == 2, output
    assert seconds < 15, f"took {seconds:.1f} s"
    assert "Cannot reach the database" in output and f"127.0.0.1:{blackhole.port}" in output
    assert "Traceback" not in output and "hunter2" not in output


@pytest.mark.parametrize("url", ["postgresql://u:hunter2@[::1/db", "host=db port", "just some words"])
def test_a_malformed_database_url_gets_one_clear_line(tmp_path, url):
    code, output, _ = footnote("db", "status", env={"DATABASE_URL": url, "FOOTNOTE_DATA_DIR": str(tmp_path)})
    assert code == 2
    assert "DATABASE_URL is not a valid Postgres connection URL" in output
    assert "Traceback" not in output and "hunter2" not in output


def _target(server_url: str) -> tuple[str, str]:
    info = psycopg.conninfo.conninfo_to_dict(server_url)
    host, port = info.get("host") or "/tmp", info.get("port") or "5432"
    return ("unix", f"{host}/.s.PGSQL.{port}") if host.startswith("/") else ("tcp", f"{host}:{port}")


def test_an_outage_is_told_within_seconds_and_recovery_is_immediate(pg_server_url, make_database):
    made = make_database()
    info = psycopg.conninfo.conninfo_to_dict(made.url)
    cable = Cable(_target(pg_server_url))
    url = psycopg.conninfo.make_conninfo(dbname=info["dbname"], user=info.get("user") or "postgres",
                                         password=info.get("password") or "", host="127.0.0.1", port=cable.port)
    db = Database(url, max_size=2)
    try:
        with db.connection() as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
        cable.unplug()
        started = time.perf_counter()
        with pytest.raises(Exception) as failed:
            with db.connection() as conn:
                conn.execute("SELECT 1")
        assert is_outage(failed.value), repr(failed.value)
        assert time.perf_counter() - started < 7, "a caller must hear about an outage within seconds"
        time.sleep(8)  # an outage long enough for a backing-off pool to sleep for tens of seconds
        cable.plug()
        started = time.perf_counter()
        with db.connection() as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
        assert time.perf_counter() - started < 3, "the first query after the database is back must not wait"
    finally:
        db.close()
        cable.unplug()


def test_every_pooled_connection_carries_timeouts(db):
    with db.connection() as conn:
        statement = conn.execute("SHOW statement_timeout").fetchone()[0]
        idle = conn.execute("SHOW idle_in_transaction_session_timeout").fetchone()[0]
    assert statement not in ("0", "0ms") and idle not in ("0", "0ms")


def test_a_stopping_embedded_server_gets_a_clear_message_then_restarts(tmp_path):
    env = {"FOOTNOTE_DATA_DIR": str(tmp_path)}
    server = start_embedded(tmp_path, cleanup_mode=None)
    holder = psycopg.connect(server.get_uri())  # another program still connected
    pid = server.get_pid()
    try:
        os.kill(pid, signal.SIGTERM)  # a smart shutdown: it waits for `holder` to leave
        code, output, seconds = footnote("db", "status", env=env)
        assert code == 2, output
        assert "is stopping" in output and f"kill -INT {pid}" in output
        assert "AssertionError" not in output and "Traceback" not in output
    finally:
        holder.close()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and _alive(pid):
        time.sleep(0.2)
    code, output, _ = footnote("db", "status", env=env)
    try:
        assert code == 0, output
        assert "corpus version" in output
    finally:
        _stop_server(tmp_path / "pg" / "postmaster.pid")


def _stop_server(pid_file: Path) -> None:
    """The server this test started, if `footnote` left it running: a fast shutdown by its pid."""
    try:
        os.kill(int(pid_file.read_text().split()[0]), signal.SIGINT)
    except (OSError, ValueError, IndexError):
        pass


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_database_frozen_mid_session_gets_the_user_told_at_the_deadline(pg_server_url, corpus_db, embedder):
    """SIGSTOP, seen from the client: connections open, nothing answers, no timeout fires."""
    from agent.answer import Turn
    from agent.refusals import LATE_TEXT
    from bot.wiring import build_footnote
    from bot.settings import Settings

    info = psycopg.conninfo.conninfo_to_dict(corpus_db.url)
    cable = Cable(_target(pg_server_url))
    url = psycopg.conninfo.make_conninfo(dbname=info["dbname"], user=info.get("user") or "postgres",
                                         password=info.get("password") or "", host="127.0.0.1", port=cable.port)
    db = Database(url, max_size=2)
    try:
        settings = Settings(_env_file=None, FOOTNOTE_LLM="off", FOOTNOTE_ANSWER_DEADLINE="3")
        footnote = build_footnote(db, embedder, settings, use_cache=False)
        question = "What was Apple's revenue in fiscal 2024?"
        assert footnote.answer(Turn(thread_key="faults:frozen", user="u", text=question)).numbers
        cable.freeze()
        started = time.perf_counter()
        with concurrent.futures.ThreadPoolExecutor(1) as pool:  # without a deadline this never returns
            asked = pool.submit(footnote.answer, Turn(thread_key="faults:frozen", user="u", text="And its net income?"))
            try:
                late = asked.result(timeout=10)
            except concurrent.futures.TimeoutError:
                cable.thaw()
                pytest.fail("the user heard nothing for 10 s while the database was frozen")
        assert time.perf_counter() - started < 5
        assert late.kind == "refusal" and late.text == LATE_TEXT
        cable.thaw()
        again = footnote.answer(Turn(thread_key="faults:frozen:2", user="u", text=question))
        assert again.numbers, again.text
    finally:
        cable.thaw()
        db.close()
        cable.unplug()


def test_a_server_another_command_is_still_starting_is_waited_for_then_named(tmp_path):
    """`serve` and a `worker` started together: one reads the postmaster.pid the other's server is
    half way through writing (no status line yet). A clear message, never pgserver's assertion."""
    pgdata = tmp_path / "pg"
    pgdata.mkdir()
    (pgdata / "postmaster.pid").write_text(f"{os.getpid()}\n{pgdata}\n1795708425\n5432\n\n\n  2146986    786486\n")
    started = time.monotonic()
    with pytest.raises(DatabaseError, match="still being started by another footnote command"):
        start_embedded(tmp_path, cleanup_mode=None, settle_s=0.5)
    assert time.monotonic() - started >= 0.5  # it waited for the file to be finished


def test_a_data_dir_inside_a_database_folder_is_refused_and_leaves_it_as_it_was(tmp_path):
    # FOOTNOTE_DATA_DIR set by mistake to a data dir's `pg` folder: starting there would open that folder to
    # other users, after which its own Postgres refuses to start
    held = tmp_path / "data" / "pg"
    held.mkdir(parents=True)
    (held / "PG_VERSION").write_text("18\n")
    held.chmod(0o700)
    with pytest.raises(DatabaseError, match="inside the database folder"):
        start_embedded(held)
    assert oct(held.stat().st_mode & 0o777) == oct(0o700)
    assert not (held / "pg").exists()
