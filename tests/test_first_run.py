"""A newcomer's first commands, run as the real `footnote` process: nothing written to the home
folder, and no warnings on the everyday commands."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

# Whole ingests, subprocesses or servers: `make test-fast` leaves these out.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "sec"


def _env(home: Path, data_dir: Path, database_url: str | None) -> dict[str, str]:
    drop = ("FOOTNOTE_", "OPENAI_", "AZURE_OPENAI", "EDGAR_", "XDG_", "DATABASE_URL")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    env.update(
        HOME=str(home),
        XDG_CACHE_HOME=str(home / ".cache"),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        XDG_STATE_HOME=str(home / ".local" / "state"),
        FOOTNOTE_DATA_DIR=str(data_dir),
        FOOTNOTE_LLM="off",
        PYTHONPATH=str(ROOT),
    )
    if database_url:
        env["DATABASE_URL"] = database_url
    return env


def footnote(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], env=env, cwd=cwd, capture_output=True,
                          text=True, timeout=600, stdin=subprocess.DEVNULL)  # fmt: skip


def test_an_ingest_leaves_the_home_folder_empty(make_database, tmp_path):
    home, data = tmp_path / "home", tmp_path / "data"
    home.mkdir()
    db = make_database()
    # Four 10-Ks and four 10-Qs: enough for the parse worker process, which must inherit the same folders.
    done = footnote(["ingest", "--from", str(FIXTURES), "--tickers", "AAPL,NVDA", "--quiet"],
                    _env(home, data, db.url), tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "8 ingested (4 10-K, 4 10-Q)" in done.stdout
    assert sorted(p.relative_to(home).as_posix() for p in home.rglob("*")) == []
    # edgartools' caches are kept, under the data dir.
    assert any((data / "edgartools").rglob("*")), "edgartools should have written under FOOTNOTE_DATA_DIR"


def test_everyday_commands_print_no_warnings(tmp_path):
    """The embedded server's package warns about XDG_RUNTIME_DIR at import; nobody needs to see it."""
    home, data = tmp_path / "home", tmp_path / "data"
    home.mkdir()
    env = _env(home, data, None)
    for args in (["db", "status"], ["tickers"]):
        done = footnote(args, env, tmp_path)
        assert done.returncode == 0, done.stderr
        assert done.stderr == "", f"footnote {' '.join(args)} printed: {done.stderr}"
