"""`make run`'s ingest selection: what a newcomer's first run reads, taken from the Makefile itself.

The Makefile prints the arguments it passes to `footnote ingest` (`make ingest-args`); these tests
parse them with the real `footnote` parser and scan the folder they name the way ingest does, so
a default ticker the folder lacks fails here instead of on a newcomer's first run.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bot.cli import build_parser
from ingest.cli import parse_years
from ingest.local import scan_folder

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "sec"

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def ingest_args(*overrides: str, **env: str) -> list[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("FROM", "TICKERS", "YEARS", "SEC_IDENTITY", "MAKEFLAGS")}
    out = subprocess.run(["make", "-s", "--no-print-directory", "-C", str(ROOT), "ingest-args", *overrides],
                         env={**clean, **env}, capture_output=True, text=True, check=True)  # fmt: skip
    return out.stdout.split()


def parse(args: list[str]):
    return build_parser().parse_args(["ingest", *args])


def tickers_of(ns) -> list[str]:
    return list(ns.tickers) + [t for t in re.split(r"[,\s]+", ns.ticker_list or "") if t]


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/sec is not beside the project")
def test_default_selection_is_all_in_the_shared_folder():
    ns = parse(ingest_args())
    assert ns.folder is not None and (ROOT / ns.folder).resolve() == SHARED.resolve()
    tickers = tickers_of(ns)
    assert tickers, "make run should ingest a small default set, not the whole folder"
    corpus = scan_folder(ROOT / ns.folder, tickers)
    assert corpus.errors == []
    assert {f.ticker for f in corpus.filings} == set(tickers), "every default ticker needs a 10-K in the folder"


def test_without_a_folder_or_sec_identity_the_fixtures_are_ingested():
    ns = parse(ingest_args("FROM="))
    assert (ROOT / ns.folder).resolve() == (ROOT / "tests" / "fixtures" / "sec").resolve()
    assert not tickers_of(ns)
    corpus = scan_folder(ROOT / ns.folder)
    assert corpus.errors == [] and corpus.filings


def test_sec_identity_downloads_the_tickers_and_years_when_no_folder_is_given():
    ns = parse(ingest_args("FROM=", SEC_IDENTITY="Jane Analyst jane@example.com"))
    assert ns.folder is None
    assert tickers_of(ns) and parse_years(ns.years) == (2023, 2025)


def test_a_folder_wins_over_sec_identity(tmp_path):
    ns = parse(ingest_args(f"FROM={tmp_path}", "TICKERS=AAPL", SEC_IDENTITY="Jane Analyst jane@example.com"))
    assert ns.folder == tmp_path and tickers_of(ns) == ["AAPL"] and ns.years is None


def test_the_readme_states_the_makefile_defaults():
    makefile = (ROOT / "Makefile").read_text()
    readme = (ROOT / "README.md").read_text()
    for name in ("TICKERS", "YEARS"):
        value = re.search(rf"^{name} \?= (.+)$", makefile, re.MULTILINE)[1].strip()
        assert f"{name}={value}" in readme.replace("`", ""), f"README should give the default {name}={value}"


@pytest.mark.parametrize("status, reaches_chat", [(0, True), (3, True), (2, False)])
def test_run_opens_the_chat_after_a_partial_ingest_but_not_after_a_usage_error(tmp_path, status, reaches_chat):
    """Status 3 means some of the selection could not be ingested (each named); the rest is in the
    store, so the chat opens. A stand-in `footnote` records what make runs."""
    fake = tmp_path / "footnote"
    fake.write_text(f'#!/bin/sh\necho "$*" >> {tmp_path}/calls\n[ "$1" = ingest ] && exit {status}\nexit 0\n')
    fake.chmod(0o755)  # newer than pyproject.toml: make treats the install as done
    clean = {k: v for k, v in os.environ.items() if k not in ("FROM", "TICKERS", "YEARS", "SEC_IDENTITY", "MAKEFLAGS")}
    done = subprocess.run(["make", "-s", "--no-print-directory", "-C", str(ROOT), "run", f"BIN={tmp_path}", "FROM="],
                          env=clean, capture_output=True, text=True)  # fmt: skip
    calls = (tmp_path / "calls").read_text().splitlines()
    assert calls[0] == "ingest --from tests/fixtures/sec"
    assert (calls[1:] == ["chat"]) is reaches_chat
    assert (done.returncode == 0) is reaches_chat
