"""Ctrl-C (and SIGTERM) in the middle of `footnote ingest` leaves no partial filing.

The real CLI runs as a subprocess against its own test database. Once at least one 10-K is
committed but not all of them, the test interrupts it, then checks what issue 2 promises: the
process stops within a bounded time with a polite message, every filing row that exists is
whole (its Items, chunks and inline XBRL facts exactly as a clean ingest stores them), nothing
is stored for a filing that is not there, no parse worker is left running, and a re-run
completes to exactly the state of one clean ingest.

A terminal's Ctrl-C reaches the whole foreground process group (the parse worker too); `kill
-INT <pid>` reaches the main process only. Both are exercised, and SIGTERM. The moment is
random (after 1..10 of the 12 filings, plus 0-3 s), so repeated runs cover parse, embed and write.

SIGTERM takes the same path as Ctrl-C: exit 130, one polite line, no worker left behind.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest

from tests.conftest import SEC_FIXTURES

# Whole ingests, subprocesses or servers: `make test-fast` leaves these out.
pytestmark = pytest.mark.slow

FILINGS = 12  # 10-K and 10-Q documents in tests/fixtures/sec
RUN_TIMEOUT_S = 600  # a whole clean ingest on a loaded 2-core machine
STOP_TIMEOUT_S = 90  # from the signal to the process's exit (the writer finishes one filing at most)
ORPHAN_TIMEOUT_S = 30  # a worker mid-parse may finish that document before it notices
ATTEMPTS = 3  # runs tried before giving up on catching one mid-way

# What a clean ingest stores, independent of row ids, timestamps and the order of writes.
FINGERPRINT = {
    "companies": "SELECT count(*), md5(string_agg(cik || '|' || name || '|' || array_to_string(tickers, ',')"
    " || '|' || coalesce(fiscal_year_end, ''), ';' ORDER BY cik)) FROM companies",
    "sec_tickers": "SELECT count(*), md5(string_agg(ticker || '|' || cik, ';' ORDER BY ticker)) FROM sec_tickers",
    "filings": "SELECT count(*), md5(string_agg(accession || '|' || cik || '|' || fiscal_year || '|' || period_end"
    " || '|' || content_hash || '|' || array_to_string(missing_items, ','), ';' ORDER BY accession)) FROM filings",
    "sections": "SELECT count(*), md5(string_agg(accession || '|' || item || '|' || md5(text) || '|' || method, ';'"
    " ORDER BY accession, item)) FROM sections",
    "chunks": "SELECT count(*), md5(string_agg(accession || '|' || item || '|' || ordinal || '|' || md5(text)"
    " || '|' || n_tokens, ';' ORDER BY accession, item, ordinal)) FROM chunks",
    "facts": "SELECT count(*), md5(string_agg(fact_key || '|' || value || '|' || source || '|'"
    " || coalesce(fiscal_year::text, '-') || '|' || coalesce(frame, '-'), ';' ORDER BY fact_key)) FROM facts",
}

# Per filing: (Items, chunks, inline XBRL facts). A whole filing has the same three as in a clean ingest.
PER_FILING = """
SELECT f.accession,
       (SELECT count(*) FROM sections s WHERE s.accession = f.accession),
       (SELECT count(*) FROM chunks c WHERE c.accession = f.accession),
       (SELECT count(*) FROM facts x WHERE x.accession = f.accession AND x.source = 'ixbrl')
FROM filings f ORDER BY f.accession
"""

# Rows that belong to a filing that is not stored: the remains of a half-written one.
STRAYS = {
    "sections": "SELECT count(*) FROM sections WHERE accession NOT IN (SELECT accession FROM filings)",
    "chunks": "SELECT count(*) FROM chunks WHERE accession NOT IN (SELECT accession FROM filings)",
    # companyfacts rows name filings never ingested as documents; a document's own facts do not.
    "ixbrl facts": "SELECT count(*) FROM facts WHERE source = 'ixbrl' AND accession NOT IN (SELECT accession FROM filings)",
}


def _env(db, data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FOOTNOTE_", "OPENAI_", "AZURE_OPENAI"))}
    env.update(
        DATABASE_URL=db.url,
        FOOTNOTE_DATA_DIR=str(data_dir),
        FOOTNOTE_MODEL_DIR=os.environ["FOOTNOTE_MODEL_DIR"],  # set by conftest: the export is made once
        FOOTNOTE_EMBEDDING_PROVIDER="local",
        FOOTNOTE_EMBEDDING_MODEL="all-MiniLM-L6-v2",
        FOOTNOTE_LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
    )
    return env


def _start(db, tmp: Path, name: str) -> tuple[subprocess.Popen, Path, Path]:
    """`footnote ingest --from tests/fixtures/sec` in its own session (so its group can be signalled)."""
    out, err = tmp / f"{name}.out", tmp / f"{name}.err"
    cmd = [sys.executable, "-m", "bot.cli", "ingest", "--from", str(SEC_FIXTURES), "--workers", "1"]
    with out.open("wb") as o, err.open("wb") as e:
        proc = subprocess.Popen(cmd, cwd=tmp, env=_env(db, tmp / "data"), stdout=o, stderr=e,
                                stdin=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
    return proc, out, err


def _run_to_end(db, tmp: Path, name: str) -> str:
    proc, out, err = _start(db, tmp, name)
    try:
        code = proc.wait(timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        _kill_session(proc.pid)
        proc.wait()
        pytest.fail(f"{name}: ingest did not finish in {RUN_TIMEOUT_S}s\n{err.read_text()[-3000:]}")
    assert code == 0, f"{name}: exit {code}\n{out.read_text()}\n{err.read_text()[-3000:]}"
    return out.read_text()


def _session_members(sid: int) -> list[int]:
    """Live processes in session `sid` (the CLI and anything it started), from /proc."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (comm) "
        state, session = fields[0], int(fields[3])
        if session == sid and state != "Z":
            pids.append(int(entry))
    return pids


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()[:200]
    except OSError:
        return "?"


def _kill_session(sid: int) -> None:
    """Clean up after a failed assertion: only processes this test started (its session)."""
    for pid in _session_members(sid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _filings(db) -> int:
    with psycopg.connect(db.url, autocommit=True) as conn:
        return conn.execute("SELECT count(*) FROM filings").fetchone()[0]


def _query(db, sql: str):
    with psycopg.connect(db.url, autocommit=True) as conn:
        return conn.execute(sql).fetchall()


def _fingerprint(db) -> dict[str, tuple]:
    return {table: tuple(_query(db, sql)[0]) for table, sql in FINGERPRINT.items()}


@pytest.fixture(autouse=True)
def interruptible():
    """The CLI as a terminal starts it: with Ctrl-C delivered. A test run started in the background
    (`cmd &`, `nohup`) ignores SIGINT, every child inherits that, and Python then installs no
    KeyboardInterrupt at all; a handler set here is reset to the default in the child by exec."""
    before = signal.getsignal(signal.SIGINT)
    if before == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


@pytest.fixture(scope="module")
def clean(make_database, tmp_path_factory):
    """One uninterrupted CLI ingest: its fingerprint and each filing's (Items, chunks, facts)."""
    db = make_database()
    _run_to_end(db, tmp_path_factory.mktemp("clean"), "clean")
    per_filing = {row[0]: row[1:] for row in _query(db, PER_FILING)}
    assert len(per_filing) == FILINGS
    assert all(sections and chunks and facts for sections, chunks, facts in per_filing.values()), per_filing
    return _fingerprint(db), per_filing


@dataclass
class Stopped:
    """An ingest run signalled mid-way, as observed from outside."""

    db: object
    signal: str
    after: int  # the signal was due this long after this many filings were committed
    delay_s: float
    committed: int  # filings committed when the signal was sent
    code: int
    stopped_s: float  # from the signal to the exit
    workers_seen: set[int]  # processes the CLI started (parse worker, resource tracker)
    orphans: list[str]  # of those, still running ORPHAN_TIMEOUT_S after the CLI exited
    out: str
    err: str

    def __str__(self) -> str:
        return (f"{self.signal} {self.delay_s:.2f}s after commit #{self.after} ({self.committed} of {FILINGS} "
                f"filings committed): exit {self.code} in {self.stopped_s:.1f}s\n{self.err[-3000:]}")  # fmt: skip


def _interrupt_midway(make_database, tmp: Path, sig: int, *, group: bool) -> Stopped:
    """Start an ingest and signal it at a random moment between its first filing's commit and its
    last's (early: every company still has work; late: some are complete, which matters to the
    re-run); a run that finishes before that moment is retried on a fresh database."""
    for attempt in range(ATTEMPTS):
        db = make_database()
        proc, out, err = _start(db, tmp, f"run{attempt}")
        workers_seen: set[int] = set()
        # A filing takes ~1-6 s here depending on load: anywhere in its parse, embed or write.
        after = random.randint(1, FILINGS - 2)
        delay = random.uniform(0.0, 1.0) if attempt == 0 else 0.0
        deadline = time.monotonic() + RUN_TIMEOUT_S
        try:
            reached = None
            while proc.poll() is None and time.monotonic() < deadline:
                workers_seen |= set(_session_members(proc.pid)) - {proc.pid}
                if reached is None and _filings(db) >= after:
                    reached = time.monotonic()
                if reached is not None and time.monotonic() - reached >= delay:
                    break
                time.sleep(0.05)
            if time.monotonic() >= deadline:
                pytest.fail(f"no filing was committed in {RUN_TIMEOUT_S}s\n{err.read_text()[-3000:]}")
            committed = _filings(db)
            if proc.poll() is not None or committed >= FILINGS:
                proc.wait(timeout=STOP_TIMEOUT_S)
                continue  # finished before we caught it mid-way: try again on a fresh database
            (os.killpg if group else os.kill)(proc.pid, sig)
            sent = time.monotonic()
            try:
                code = proc.wait(timeout=STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                pytest.fail(f"still running {STOP_TIMEOUT_S}s after {signal.Signals(sig).name}\n{err.read_text()[-3000:]}")
            stopped_s = time.monotonic() - sent
            orphans = _session_members(proc.pid)
            wait_until = time.monotonic() + ORPHAN_TIMEOUT_S
            while orphans and time.monotonic() < wait_until:
                time.sleep(0.2)
                orphans = _session_members(proc.pid)
            return Stopped(db, signal.Signals(sig).name, after, delay, committed, code, stopped_s, workers_seen,
                           [f"{pid}: {_cmdline(pid)}" for pid in orphans], out.read_text(), err.read_text())  # fmt: skip
        finally:
            _kill_session(proc.pid)
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    pytest.fail(f"the ingest finished before it could be interrupted mid-way, {ATTEMPTS} times")


def _assert_no_partial_filing(db, clean_per_filing, run: Stopped) -> None:
    for what, sql in STRAYS.items():
        assert _query(db, sql)[0][0] == 0, f"{what} stored for a filing that is not in filings; {run}"
    for accession, *counts in _query(db, PER_FILING):
        assert tuple(counts) == clean_per_filing[accession], (
            f"{accession}: (Items, chunks, ixbrl facts) = {tuple(counts)}, a whole filing has "
            f"{clean_per_filing[accession]}; {run}"
        )


def _assert_rerun_matches_clean(db, tmp: Path, clean_fingerprint, run: Stopped) -> None:
    out = _run_to_end(db, tmp, "rerun")
    assert "0 failed" in out, out
    assert _fingerprint(db) == clean_fingerprint, f"the re-run differs from a clean ingest; {run}"


@pytest.mark.parametrize(
    "group", [True, False], ids=["ctrl-c to the process group", "SIGINT to the main process"]
)
def test_sigint_midway_leaves_no_partial_filing(make_database, tmp_path, clean, group):
    clean_fingerprint, clean_per_filing = clean
    run = _interrupt_midway(make_database, tmp_path, signal.SIGINT, group=group)
    assert run.workers_seen, "no parse worker process was seen: the orphan check below would prove nothing"
    assert run.code == 130, run
    assert "interrupted" in run.err and "nothing partial was kept" in run.err, run
    assert "Traceback" not in run.err, f"a traceback instead of a one-line message: {run}"
    assert not run.orphans, f"processes left running after the CLI exited: {run.orphans}\n{run}"
    _assert_no_partial_filing(run.db, clean_per_filing, run)
    _assert_rerun_matches_clean(run.db, tmp_path, clean_fingerprint, run)


@pytest.fixture(scope="module")
def sigterm_run(make_database, tmp_path_factory) -> Stopped:
    """One ingest stopped mid-way by `kill <pid>` (SIGTERM), as a service manager stops it."""
    return _interrupt_midway(make_database, tmp_path_factory.mktemp("sigterm"), signal.SIGTERM, group=False)


def test_sigterm_midway_leaves_no_partial_filing(sigterm_run, tmp_path, clean):
    """Each filing's transaction is all-or-nothing even when the process dies without cleanup."""
    clean_fingerprint, clean_per_filing = clean
    run = sigterm_run
    assert run.workers_seen
    assert run.code != 0, run
    _assert_no_partial_filing(run.db, clean_per_filing, run)
    _assert_rerun_matches_clean(run.db, tmp_path, clean_fingerprint, run)


def test_sigterm_stops_politely_and_leaves_no_worker(sigterm_run):
    assert not sigterm_run.orphans, f"processes left running after the CLI exited: {sigterm_run.orphans}"
    assert sigterm_run.code in (130, 143) and "interrupted" in sigterm_run.err, sigterm_run


def test_a_killed_ingest_leaves_no_parse_worker(make_database, tmp_path):
    """SIGKILL (or the OOM killer) runs no clean-up in the main process: its parse worker must
    notice on its own that its parent is gone and exit."""
    db = make_database()
    proc, _, err = _start(db, tmp_path, "killed")
    try:
        deadline = time.monotonic() + RUN_TIMEOUT_S
        workers: set[int] = set()
        while proc.poll() is None and time.monotonic() < deadline and not workers:
            workers = {pid for pid in _session_members(proc.pid) if "multiprocessing" in _cmdline(pid)
                       and "resource_tracker" not in _cmdline(pid)}
            time.sleep(0.05)
        assert workers, f"no parse worker was seen\n{err.read_text()[-3000:]}"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        gone_by = time.monotonic() + 10
        alive = workers
        while alive and time.monotonic() < gone_by:
            time.sleep(0.1)
            alive = {pid for pid in workers if pid in _session_members(proc.pid)}
        assert not alive, f"parse workers still running 10 s after the main process was killed: {alive}"
    finally:
        _kill_session(proc.pid)
