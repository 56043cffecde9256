"""Finding the files of a corpus in SEC's layout, gzipped or not (no database needed)."""

from __future__ import annotations

import gzip
import shutil
from datetime import date

import pytest

from ingest.local import read_bytes, read_json, scan_folder
from tests.conftest import FIXTURES, SEC_FIXTURES


def _gzip_copy(src, dst):
    """The fixture corpus with every file gzipped except those SEC's corpus keeps plain."""
    for path in src.rglob("*"):
        if path.is_dir():
            continue
        rel = path.relative_to(src)
        target = dst / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if path.name in ("company_tickers.json", "index.csv", "README.md"):
            shutil.copy(path, target)
        else:
            with gzip.open(target.with_name(target.name + ".gz"), "wb") as fh:
                fh.write(path.read_bytes())


def test_scan_finds_every_file_and_its_metadata():
    corpus = scan_folder(SEC_FIXTURES)
    assert corpus.errors == []
    assert len(corpus.filings) == 8 + 4  # 10-Ks and 10-Qs
    assert set(corpus.submissions) == {320193, 1045810}
    assert set(corpus.companyfacts) == {320193, 1045810}
    assert corpus.ticker_map["MSFT"] == (789019, "MICROSOFT CORP")
    by_key = {f.key: f for f in corpus.filings}
    apple = by_key["0000320193-24-000123"]
    assert (apple.ticker, apple.cik, apple.period_end) == ("AAPL", 320193, date(2024, 9, 28))
    assert apple.filed == date(2024, 11, 1)
    assert apple.url.endswith("/000032019324000123/aapl-20240928.htm")
    walmart = by_key["noacc-104169-2025-01-31"]
    assert walmart.accession is None and walmart.filed == date(2025, 3, 14) and walmart.url is None


def test_gzipped_corpus_reads_the_same(tmp_path):
    _gzip_copy(SEC_FIXTURES, tmp_path)
    plain, zipped = scan_folder(SEC_FIXTURES), scan_folder(tmp_path)
    assert [(f.key, f.filed, f.url) for f in zipped.filings] == [(f.key, f.filed, f.url) for f in plain.filings]
    assert all(f.path.name.endswith(".htm.gz") for f in zipped.filings)
    assert read_bytes(zipped.filings[0].path) == read_bytes(plain.filings[0].path)
    assert read_json(zipped.companyfacts[320193]) == read_json(plain.companyfacts[320193])


def test_filing_dates_fall_back_to_submissions(tmp_path):
    shutil.copytree(SEC_FIXTURES, tmp_path / "c")
    (tmp_path / "c" / "filings" / "index.csv").unlink()
    by_key = {f.key: f for f in scan_folder(tmp_path / "c").filings}
    nvda = by_key["0001045810-25-000023"]
    assert nvda.filed == date(2025, 2, 26)
    assert nvda.url == "https://www.sec.gov/Archives/edgar/data/1045810/000104581025000023/nvda-20250126.htm"
    assert by_key["0001628280-25-003063"].filed is None  # no submissions file for Tesla here


def test_ticker_filter_and_unknown_tickers():
    corpus = scan_folder(SEC_FIXTURES, ["aapl", "MSFT", "FOOBAR"])
    assert {f.ticker for f in corpus.filings} == {"AAPL"}
    assert set(corpus.companyfacts) == {320193} and set(corpus.submissions) == {320193}
    reasons = dict(corpus.errors)
    assert "unknown ticker" in reasons["FOOBAR"]
    assert "no 10-K or 10-Q document or companyfacts" in reasons["MSFT"]  # known to SEC, not in this folder


def test_truncated_json_is_named():
    with pytest.raises(ValueError, match=r"bad/companyfacts/CIK0000320193\.json: truncated JSON"):
        read_json(FIXTURES / "bad" / "companyfacts" / "CIK0000320193.json")


def test_file_names_outside_the_layout_are_reported(tmp_path):
    folder = tmp_path / "filings" / "10-K" / "AAPL"
    folder.mkdir(parents=True)
    (folder / "apple-10k.htm").write_text("<html></html>")
    (folder / "0000320193-noacc-2024-09-28__expected-sections.json").write_text("[]")
    corpus = scan_folder(tmp_path)
    assert corpus.filings == []
    assert [reason for _, reason in corpus.errors] == ["file name is not <CIK10>-<accession|noacc>-<YYYY-MM-DD>.htm"]
