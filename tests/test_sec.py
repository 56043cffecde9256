"""The SEC EDGAR download path, over real HTTP against a fake SEC on 127.0.0.1."""

from __future__ import annotations

import csv
import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from bot.settings import Settings
from ingest import sec
from ingest.sec import SecOptions, download_to_folder
from ingest.sec_select import in_years
from ingest.sec_http import RateLimiter, SecClient, SecHttpError, SecNotFound
from store.errors import FootnoteError
from tests.fakes.fake_sec import FakeSec

IDENTITY = "Footnote Tests tests@example.com"

# Our own tiny corpus in SEC's layout (CIKs and dates are real; the documents are ours).
AAPL, GME, ACME = 320193, 1326380, 9999001
AAPL_10K = {  # accession -> (form, report date, filing date, fy per companyfacts)
    "0000320193-22-000108": ("10-K", "2022-09-24", "2022-10-28", 2022),
    "0000320193-23-000106": ("10-K", "2023-09-30", "2023-11-03", 2023),
    "0000320193-24-000123": ("10-K", "2024-09-28", "2024-11-01", 2024),
}
GME_10K = {
    "0001326380-23-000023": ("10-K", "2023-01-28", "2023-03-28", 2022),
    "0001326380-24-000017": ("10-K", "2024-02-03", "2024-03-26", 2023),
}
ACME_10K = {  # no companyfacts: years guessed from report dates
    "0009999001-24-000001": ("10-K", "2024-01-31", "2024-03-20", None),
    "0009999001-24-000009": ("10-K/A", "2024-01-31", "2024-05-01", None),
    "0009999001-25-000001": ("10-K", "2025-01-31", "2025-03-20", None),
}


def _document(name: str, form: str, period_end: str) -> bytes:
    return (
        f'<html><body><ix:header></ix:header><p>{name} annual report, period ending {period_end}.</p>'
        f'<ix:nonNumeric name="dei:DocumentType" contextRef="c1">{form}</ix:nonNumeric>'
        f'<ix:nonFraction name="us-gaap:Revenues" contextRef="c1" unitRef="usd">1,000</ix:nonFraction>'
        f'<ix:nonFraction name="us-gaap:NetIncomeLoss" contextRef="c1" unitRef="usd">100</ix:nonFraction>'
        "</body></html>"
    ).encode() + b" " * 2000  # large enough that the fake gzips it


def _make_corpus(root: Path) -> Path:
    companies = {AAPL: ("AAPL", "Apple Inc.", AAPL_10K), GME: ("GME", "GameStop Corp.", GME_10K),
                 ACME: ("ACME", "Acme Widgets Inc.", ACME_10K)}  # fmt: skip
    tickers = {str(i): {"cik_str": cik, "ticker": t, "title": n} for i, (cik, (t, n, _)) in enumerate(companies.items())}
    tickers["9"] = {"cik_str": GME, "ticker": "GMEW", "title": "GameStop Corp."}  # a second ticker, same company
    (root / "company_tickers.json").parent.mkdir(parents=True, exist_ok=True)
    (root / "company_tickers.json").write_text(json.dumps(tickers))
    for cik, (ticker, name, filings) in companies.items():
        recent = {"accessionNumber": [], "filingDate": [], "reportDate": [], "form": [], "primaryDocument": [],
                  "isInlineXBRL": []}  # fmt: skip
        rows = [(acc, *v[:3]) for acc, v in filings.items()]
        rows.append((f"{cik:010d}-24-000050", "10-Q", "2024-06-30", "2024-08-01"))
        for acc, form, report, filed in rows:
            document = f"{ticker.lower()}-{report.replace('-', '')}{'a' if form.endswith('/A') else ''}.htm"
            for col, val in zip(recent, (acc, filed, report, form, document, 1)):
                recent[col].append(val)
            if form.startswith("10-"):
                path = root / "docs" / f"{cik}" / acc.replace("-", "") / document
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(_document(name, form, report))
        sub = {"cik": str(cik), "name": name, "tickers": [ticker], "filings": {"recent": recent, "files": []}}
        (root / "submissions").mkdir(exist_ok=True)
        (root / "submissions" / f"CIK{cik:010d}.json").write_text(json.dumps(sub))
        if cik != ACME:
            units = [{"end": v[1], "val": 1000, "accn": acc, "fy": v[3], "fp": "FY", "form": v[0], "filed": v[2]}
                     for acc, v in filings.items()]  # fmt: skip
            # the 10-Q: Apple's quarter ended June 2024 is Q3 of fiscal 2024, GameStop's Q2 of fiscal 2024
            units.append({"start": "2024-04-01", "end": "2024-06-30", "val": 250, "accn": f"{cik:010d}-24-000050",
                          "fy": 2024, "fp": "Q3" if cik == AAPL else "Q2", "form": "10-Q", "filed": "2024-08-01"})
            facts = {"cik": cik, "entityName": name, "facts": {"us-gaap": {"Revenues": {"units": {"USD": units}}}}}
            (root / "companyfacts").mkdir(exist_ok=True)
            (root / "companyfacts" / f"CIK{cik:010d}.json").write_text(json.dumps(facts))
    return root


def _fake_from(root: Path) -> FakeSec:
    fake = FakeSec.from_folder(root)
    for path in (root / "docs").rglob("*.htm"):
        cik, acc, name = path.relative_to(root / "docs").parts
        fake.routes[f"/www/Archives/edgar/data/{cik}/{acc}/{name}"] = path.read_bytes()
    return fake


@pytest.fixture
def fake(tmp_path):
    with _fake_from(_make_corpus(tmp_path / "corpus")) as server:
        yield server


def _options(fake: FakeSec, **overrides) -> SecOptions:
    """The download's options as the app builds them: from Settings pointed at the fake SEC."""
    values = dict(sec_identity=IDENTITY, sec_www_url=fake.www_url, sec_data_url=fake.data_url, sec_max_rps=1000.0)
    return Settings(**{**values, **overrides}).sec_options()


def _client(options: SecOptions, cache: Path, **kw) -> SecClient:
    kw.setdefault("backoff_base_s", 0.01)
    return SecClient(options.identity, cache, max_rps=options.max_rps, **kw)


def _index(folder: Path) -> list[dict]:
    with open(folder / "filings" / "index.csv", newline="") as fh:
        return list(csv.DictReader(fh))


# -- identity ----------------------------------------------------------------------------------


@pytest.mark.parametrize("identity", [None, "", "   ", "Jane Analyst", "José Analyst jose@example.com"])
def test_refuses_without_a_declared_identity_and_says_how_to_set_it(fake, tmp_path, identity):
    with pytest.raises(FootnoteError) as err:
        download_to_folder(_options(fake, sec_identity=identity), ["AAPL"], None, tmp_path / "cache", progress=False)
    assert 'export SEC_IDENTITY="' in str(err.value)
    assert fake.requests == []


def test_every_request_declares_the_identity_as_user_agent(fake, tmp_path):
    result = download_to_folder(_options(fake), ["AAPL", "GME"], (2023, 2024), tmp_path / "cache", progress=False)
    assert result.filings and len(fake.requests) >= 7  # map, 2 submissions, 2 companyfacts, documents
    assert {r.headers.get("user-agent") for r in fake.requests} == {IDENTITY}
    assert all("gzip" in r.headers.get("accept-encoding", "") for r in fake.requests)


# -- what gets downloaded, and where ------------------------------------------------------------


def test_mirrors_sec_layout_with_an_index(fake, tmp_path):
    result = download_to_folder(_options(fake), ["aapl"], (2023, 2024), tmp_path / "cache", progress=False)
    folder = result.folder
    assert result.errors == []
    assert result.tickers == ["AAPL"]
    assert [f.accession for f in result.filings] == ["0000320193-23-000106", "0000320193-24-000123"]
    assert json.loads((folder / "company_tickers.json").read_text())["0"]["ticker"] == "AAPL"
    assert json.loads((folder / "submissions" / "CIK0000320193.json").read_text())["name"] == "Apple Inc."
    assert "facts" in json.loads((folder / "companyfacts" / "CIK0000320193.json").read_text())
    doc = folder / "filings/10-K/AAPL/0000320193-0000320193-24-000123-2024-09-28.htm"
    assert doc.read_bytes() == fake.routes["/www/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm"]
    rows = _index(folder)
    assert [r["file"] for r in rows] == [f.relative_path for f in result.filings]
    last = rows[-1]
    assert (last["ticker"], last["cik"], last["form"], last["fiscal_year"], last["period_end"]) == (
        "AAPL", "0000320193", "10-K", "2024", "2024-09-28")  # fmt: skip
    assert last["filing_date"] == "2024-11-01"
    assert last["sec_url"] == f"{fake.www_url}/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm"
    assert last["n_ix_facts"] == "2" and int(last["bytes_uncompressed"]) == doc.stat().st_size
    assert not any("10-Q" in p for p in fake.paths()) and not any("24000050" in p for p in fake.paths())


def test_fiscal_years_follow_the_companys_own_label(fake, tmp_path):
    """GameStop's FY2023 ends 2024-02-03: companyfacts says so, and only that 10-K is fetched."""
    result = download_to_folder(_options(fake), ["GME"], (2023, 2023), tmp_path / "cache", progress=False)
    assert [(f.report_date.isoformat(), f.fiscal_year) for f in result.filings] == [("2024-02-03", 2023)]


def test_without_companyfacts_early_year_ends_are_taken_generously(fake, tmp_path):
    """No companyfacts (404): a January period end may be labelled that year or the one before."""
    result = download_to_folder(_options(fake), ["ACME"], (2024, 2024), tmp_path / "cache", progress=False)
    got = [(f.form, f.report_date.isoformat(), f.fiscal_year) for f in result.filings]
    assert got == [("10-K", "2024-01-31", None), ("10-K/A", "2024-01-31", None), ("10-K", "2025-01-31", None)]
    assert not (result.folder / "companyfacts" / f"CIK{ACME:010d}.json").exists()
    assert result.errors == []
    originals = download_to_folder(
        _options(fake), ["ACME"], (2024, 2024), tmp_path / "cache", progress=False, amendments=False
    )
    assert [f.form for f in originals.filings] == ["10-K", "10-K"]


def test_year_window_rules():
    from datetime import date

    assert in_years(date(2024, 9, 28), None, (2024, 2024))
    assert not in_years(date(2024, 9, 28), None, (2025, 2025))
    assert in_years(date(2025, 1, 26), None, (2024, 2024)) and in_years(date(2025, 1, 26), None, (2025, 2025))
    assert not in_years(date(2025, 1, 26), 2025, (2024, 2024))  # a known label is exact
    assert in_years(date(2001, 1, 1), None, None)


def test_unknown_ticker_and_empty_years_are_reported_not_raised(fake, tmp_path):
    result = download_to_folder(
        _options(fake), ["NOPE", "AAPL", "GME", "GMEW"], (2021, 2022), tmp_path / "cache", progress=False
    )
    reasons = {e.ticker: e.reason for e in result.errors}
    assert "ticker map" in reasons["NOPE"]
    assert "same company" in reasons["GMEW"]
    assert [f.ticker for f in result.filings] == ["AAPL", "GME"]  # AAPL FY2022 and GME FY2022
    empty = download_to_folder(_options(fake), ["AAPL"], (2010, 2011), tmp_path / "cache", progress=False)
    assert empty.filings == [] and _index(empty.folder) == []
    assert [str(e) for e in empty.errors] == ["AAPL: no 10-K for fiscal years 2010-2011 in SEC's submissions for CIK 320193"]


def test_a_missing_document_fails_alone(fake, tmp_path):
    del fake.routes["/www/Archives/edgar/data/320193/000032019323000106/aapl-20230930.htm"]
    result = download_to_folder(_options(fake), ["AAPL", "GME"], (2023, 2024), tmp_path / "cache", progress=False)
    assert [str(e) for e in result.errors] == [
        "AAPL: 10-K 0000320193-23-000106 not downloaded: SEC has no such document: "
        f"{fake.www_url}/Archives/edgar/data/320193/000032019323000106/aapl-20230930.htm"
    ]
    assert {f.accession for f in result.filings} == {"0000320193-24-000123", "0001326380-24-000017"}
    assert len(_index(result.folder)) == 2


def test_folder_holds_only_the_companies_of_the_last_call(fake, tmp_path):
    download_to_folder(_options(fake), ["AAPL"], (2024, 2024), tmp_path / "cache", progress=False)
    result = download_to_folder(_options(fake), ["GME"], (2023, 2023), tmp_path / "cache", progress=False)
    assert [p.parent.name for p in (result.folder / "filings" / "10-K").glob("*/*.htm")] == ["GME"]
    assert [p.name for p in (result.folder / "submissions").iterdir()] == [f"CIK{GME:010d}.json"]


# -- fair access: rate limit, retries, cache -----------------------------------------------------


def test_rate_limit_spaces_requests_across_threads(fake, tmp_path):
    rps, n = 50.0, 20
    for i in range(n):
        fake.routes[f"/www/r{i}"] = b"ok"
    with _client(_options(fake, sec_max_rps=rps), tmp_path / "cache") as client:
        client.cache.get = lambda url, max_age_s: None  # every request goes to the server
        client.cache.put = lambda *a: None
        start = time.monotonic()
        with ThreadPoolExecutor(max_workers=4) as pool:
            assert list(pool.map(client.get, [f"{fake.www_url}/r{i}" for i in range(n)])) == [b"ok"] * n
        elapsed = time.monotonic() - start
    assert len(fake.paths("/www/r")) == n
    assert elapsed >= (n - 1) / rps


def test_rate_limiter_alone_never_bursts():
    limiter = RateLimiter(200.0)
    stamps = []
    for _ in range(11):
        limiter.acquire()
        stamps.append(time.monotonic())
    assert stamps[-1] - stamps[0] >= 10 / 200.0
    assert min(b - a for a, b in zip(stamps, stamps[1:])) >= 1 / 200.0 - 1e-3


def test_retries_429_then_succeeds(fake, tmp_path):
    path = "/data/submissions/CIK0000320193.json"
    fake.fail(path, 429, 429)
    with _client(_options(fake), tmp_path / "cache") as client:
        result = download_to_folder(_options(fake), ["AAPL"], (2024, 2024), tmp_path / "cache", client=client)
        assert client.stats.retries == 2
    assert fake.paths(path) == [path] * 3
    assert [f.accession for f in result.filings] == ["0000320193-24-000123"]


def test_honours_retry_after(fake, tmp_path):
    fake.routes["/www/x"] = b"x"
    fake.fail("/www/x", 429, retry_after="1")
    with _client(_options(fake), tmp_path / "cache") as client:
        start = time.monotonic()
        assert client.get(f"{fake.www_url}/x") == b"x"
        assert time.monotonic() - start >= 1.0


def test_retries_503_and_gives_up_with_a_clear_error(fake, tmp_path):
    fake.routes["/www/y"] = b"y"
    fake.fail("/www/y", 503)
    with _client(_options(fake), tmp_path / "cache", max_tries=3) as client:
        assert client.get(f"{fake.www_url}/y") == b"y"
        fake.routes["/www/z"] = b"z"
        fake.fail("/www/z", 503, 502, 503, 503)
        with pytest.raises(SecHttpError, match=r"after 3 tries \(HTTP 503\)"):
            client.get(f"{fake.www_url}/z")
        with pytest.raises(SecNotFound):
            client.get(f"{fake.www_url}/missing")
    assert fake.paths("/www/y") == ["/www/y"] * 2
    assert fake.paths("/www/z") == ["/www/z"] * 3
    assert fake.paths("/www/missing") == ["/www/missing"]  # a 404 is an answer, not retried


def test_a_failing_ticker_map_is_a_clear_error(fake, tmp_path):
    fake.fail("/www/files/company_tickers.json", 503, 503, 503)
    client = _client(_options(fake), tmp_path / "cache", max_tries=3)
    with pytest.raises(FootnoteError, match="after 3 tries"):
        download_to_folder(_options(fake), ["AAPL"], None, tmp_path / "cache", client=client, progress=False)


def test_rerun_is_served_from_the_disk_cache(fake, tmp_path):
    cache = tmp_path / "cache"
    first = download_to_folder(_options(fake), ["AAPL", "GME"], (2022, 2024), cache, progress=False)
    assert len(first.filings) == 5 and first.cache_hits == 0
    assert len(fake.paths("/www/Archives")) == 5
    fake.clear()
    again = download_to_folder(_options(fake), ["AAPL", "GME"], (2022, 2024), cache, progress=False)
    assert fake.requests == [] and again.requests == 0
    assert [f.accession for f in again.filings] == [f.accession for f in first.filings]
    assert _index(again.folder) == _index(first.folder)
    assert list((cache / "raw").rglob("*.gz"))  # raw responses kept compressed


def test_stale_map_and_submissions_are_refreshed_but_documents_never(fake, tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    download_to_folder(_options(fake), ["AAPL"], (2023, 2024), cache, progress=False)
    fake.clear()
    for name in ("TICKER_MAP_MAX_AGE_S", "SUBMISSIONS_MAX_AGE_S", "COMPANYFACTS_MAX_AGE_S"):
        monkeypatch.setattr(sec, name, 0)
    download_to_folder(_options(fake), ["AAPL"], (2023, 2024), cache, progress=False)
    assert sorted(fake.paths()) == sorted([
        "/www/files/company_tickers.json",
        "/data/submissions/CIK0000320193.json",
        "/data/api/xbrl/companyfacts/CIK0000320193.json",
    ])  # fmt: skip


def test_older_submission_pages_are_read_when_the_years_reach_back(fake, tmp_path):
    sub = json.loads(fake.routes["/data/submissions/CIK0000320193.json"])
    recent = sub["filings"]["recent"]
    keep = [i for i, r in enumerate(recent["reportDate"]) if r >= "2023"]
    old = {c: [v[i] for i in range(len(v)) if i not in keep] for c, v in recent.items()}
    sub["filings"]["recent"] = {c: [v[i] for i in keep] for c, v in recent.items()}
    sub["filings"]["files"] = [{"name": "CIK0000320193-submissions-001.json", "filingFrom": "2010-01-01",
                                "filingTo": "2022-12-31"}]  # fmt: skip
    fake.routes["/data/submissions/CIK0000320193.json"] = json.dumps(sub).encode()
    fake.routes["/data/submissions/CIK0000320193-submissions-001.json"] = json.dumps(old).encode()
    recent_only = download_to_folder(_options(fake), ["AAPL"], (2023, 2024), tmp_path / "a", progress=False)
    assert "/data/submissions/CIK0000320193-submissions-001.json" not in fake.paths()
    assert len(recent_only.filings) == 2
    reach_back = download_to_folder(_options(fake), ["AAPL"], (2022, 2024), tmp_path / "b", progress=False)
    assert [f.report_date.year for f in reach_back.filings] == [2022, 2023, 2024]


def test_a_damaged_cache_entry_is_fetched_again(fake, tmp_path):
    fake.routes["/www/doc"] = b"the document"
    with _client(_options(fake), tmp_path / "cache") as client:
        assert client.get(f"{fake.www_url}/doc") == b"the document"
        (entry,) = (tmp_path / "cache" / "raw").rglob("*.gz")
        entry.write_bytes(entry.read_bytes()[:10])  # as if a disk filled up mid-write
        assert client.get(f"{fake.www_url}/doc") == b"the document"
        assert client.get(f"{fake.www_url}/doc") == b"the document"
    assert fake.paths("/www/doc") == ["/www/doc"] * 2


def test_a_403_stops_the_run_with_advice(fake, tmp_path):
    fake.fail("/www/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm", 403)
    with pytest.raises(FootnoteError, match="HTTP 403.*SEC_IDENTITY"):
        download_to_folder(_options(fake), ["AAPL"], (2024, 2024), tmp_path / "cache", progress=False)
    fake.clear()
    fake.fail("/data/submissions/CIK0000320193.json", 403)
    with pytest.raises(FootnoteError, match="HTTP 403"):
        download_to_folder(_options(fake), ["AAPL", "GME"], (2024, 2024), tmp_path / "cache2", progress=False)
    assert not any("1326380" in p for p in fake.paths())  # nothing more was asked once SEC refused


# -- the fixture corpus, served as SEC would serve it ----------------------------------------------

FIXTURES_SEC = Path(__file__).parent / "fixtures" / "sec"
FIXTURE_TICKERS = ["AAPL", "NVDA", "TSLA", "WMT"]


@pytest.fixture
def fixture_sec():
    with FakeSec.from_folder(FIXTURES_SEC) as server:
        yield server


def test_fixture_corpus_comes_back_byte_for_byte(fixture_sec, tmp_path):
    result = download_to_folder(_options(fixture_sec), FIXTURE_TICKERS, (2023, 2025), tmp_path / "c", progress=False)
    # NVIDIA's FY2023 10-K is listed in its submissions but the fixture corpus does not hold it.
    assert [str(e) for e in result.errors] == [
        "NVDA: 10-K 0001045810-23-000017 not downloaded: SEC has no such document: "
        f"{fixture_sec.www_url}/Archives/edgar/data/1045810/000104581023000017/nvda-20230129.htm"
    ]
    with open(FIXTURES_SEC / "filings" / "index.csv", newline="") as fh:  # SEC always has an accession
        expected = {r["file"]: r for r in csv.DictReader(fh) if r["accession"] and r["form"] == "10-K"}
    got = {r["file"]: r for r in _index(result.folder)}
    assert sorted(got) == sorted(expected)
    for name, row in got.items():
        assert (result.folder / name).read_bytes() == (FIXTURES_SEC / name).read_bytes()
        for column in ("ticker", "cik", "form", "period_end", "accession", "filing_date", "sha256_uncompressed"):
            assert row[column] == expected[name][column], (name, column)
        if expected[name]["sec_url"]:
            assert row["sec_url"].removeprefix(fixture_sec.www_url) == expected[name]["sec_url"].removeprefix(
                "https://www.sec.gov"
            )
    for name in ("submissions/CIK0000320193.json", "companyfacts/CIK0001045810.json"):
        assert (result.folder / name).read_bytes() == (FIXTURES_SEC / name).read_bytes()



FILING_ROWS = """
    SELECT f.accession, f.cik, f.form, f.fiscal_year, f.fiscal_period, f.period_end, f.filed, f.content_hash,
           f.missing_items,
           (SELECT count(*) FROM sections s WHERE s.accession = f.accession),
           (SELECT count(*) FROM chunks c WHERE c.accession = f.accession),
           (SELECT count(*) FROM facts x WHERE x.accession = f.accession AND x.source = 'ixbrl')
      FROM filings f ORDER BY f.accession
"""
FACT_COUNTS = "SELECT cik, source, fiscal_year, count(*) FROM facts GROUP BY 1, 2, 3 ORDER BY 1, 2, 3"
COMPANIES = "SELECT cik, name, tickers, fiscal_year_end FROM companies ORDER BY cik"


def _rows(database, sql):
    with database.connection() as conn:
        return [tuple(r) for r in conn.execute(sql).fetchall()]


@pytest.mark.slow
def test_downloaded_folder_ingests_like_the_local_corpus(fixture_sec, tmp_path, db, corpus_db, embedder):
    from ingest.pipeline import ingest_folder

    result = download_to_folder(_options(fixture_sec), FIXTURE_TICKERS, (2023, 2025), tmp_path / "c", progress=False,
                                quarters=True)  # fmt: skip
    # Every quarter the submissions list for those years is asked for; the fixtures hold four (and no FY2023
    # 10-K of NVIDIA's, as above).
    assert {e.reason.split(" ")[0] for e in result.errors} == {"10-K", "10-Q"}
    assert sum(e.reason.startswith("10-K") for e in result.errors) == 1
    summary = ingest_folder(db, embedder, result.folder, tickers=result.tickers, progress=False)
    assert not summary.failed, "\n".join(summary.lines())
    direct = [r for r in _rows(corpus_db, FILING_ROWS) if not r[0].startswith("noacc-")]
    assert len(direct) == 7 + 4 and sum(r[2] == "10-Q" for r in direct) == 4
    assert _rows(db, FILING_ROWS) == direct
    noacc = {r[0] for r in _rows(corpus_db, FILING_ROWS)} - {r[0] for r in direct}
    assert _rows(db, FACT_COUNTS) == _rows(corpus_db, FACT_COUNTS.replace(
        "FROM facts", f"FROM facts WHERE accession <> ALL(ARRAY{sorted(noacc)}::text[])"))  # fmt: skip
    assert _rows(db, COMPANIES) == _rows(corpus_db, COMPANIES)
    with db.connection() as conn:
        urls = dict(conn.execute("SELECT accession, url FROM filings").fetchall())
    assert urls["0000320193-24-000123"] == (
        f"{fixture_sec.www_url}/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm"
    )


def test_a_malformed_answer_is_reported_and_never_cached(fake, tmp_path):
    good = fake.routes["/data/submissions/CIK0000320193.json"]
    fake.routes["/data/submissions/CIK0000320193.json"] = good[: len(good) // 2]  # cut mid-way
    broken = download_to_folder(_options(fake), ["AAPL", "GME"], (2023, 2024), tmp_path / "cache", progress=False)
    assert [str(e) for e in broken.errors] == [
        "AAPL: could not read SEC submissions for CIK 320193: SEC returned a malformed answer for "
        f"{fake.www_url.removesuffix('/www')}/data/submissions/CIK0000320193.json"
    ]
    assert [f.ticker for f in broken.filings] == ["GME"]
    fake.routes["/data/submissions/CIK0000320193.json"] = good
    fixed = download_to_folder(_options(fake), ["AAPL"], (2024, 2024), tmp_path / "cache", progress=False)
    assert fixed.errors == [] and [f.ticker for f in fixed.filings] == ["AAPL"]
    fake.routes["/www/files/company_tickers.json"] = b"<html>maintenance</html>"
    with pytest.raises(FootnoteError, match="malformed answer"):
        download_to_folder(_options(fake), ["AAPL"], None, tmp_path / "other-cache", progress=False)


def test_stale_copies_stand_in_when_sec_is_down(fake, tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    first = download_to_folder(_options(fake), ["AAPL"], (2024, 2024), cache, progress=False)
    for name in ("TICKER_MAP_MAX_AGE_S", "SUBMISSIONS_MAX_AGE_S", "COMPANYFACTS_MAX_AGE_S"):
        monkeypatch.setattr(sec, name, 0)
    for path in ("/www/files/company_tickers.json", "/data/submissions/CIK0000320193.json",
                 "/data/api/xbrl/companyfacts/CIK0000320193.json"):  # fmt: skip
        fake.fail(path, 503, 503)
    client = _client(_options(fake), cache, max_tries=2)
    again = download_to_folder(_options(fake), ["AAPL"], (2024, 2024), cache, client=client, progress=False)
    assert again.errors == [] and again.filings == first.filings
    assert again.requests == 6 and again.cache_hits == 4  # 3 stale copies and the document
    fake.fail("/data/submissions/CIK0001326380.json", 503, 503)  # never fetched before: nothing to fall back on
    gme = download_to_folder(_options(fake), ["GME"], None, cache, client=client, progress=False)
    assert [e.reason.split(":")[0] for e in gme.errors] == ["could not read SEC submissions for CIK 1326380"]
