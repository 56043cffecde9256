"""Download companies' 10-K and 10-Q filings from SEC EDGAR into a folder in SEC's own formats.

The SEC path does not parse anything: it mirrors SEC's files into the layout of a local corpus
(`company_tickers.json`, `submissions/`, `companyfacts/`, `filings/10-K|10-Q/<TICKER>/...htm`,
`filings/index.csv`) and the pipeline then ingests that folder exactly like a local one. One
parser, one set of tests for it, whichever way the files arrived. Which filings a `--years`
range selects is ingest/sec_select.py's job; the HTTP rules are ingest/sec_http.py's.
"""

from __future__ import annotations

import csv
import hashlib
import json
import logging
import re
import shutil
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

from ingest.sec_http import SecBlocked, SecClient, SecHttpError, SecNotFound, check_identity
from ingest.sec_select import (
    FORMS,
    QUARTERLY_FORMS,
    FilingRef,
    fiscal_periods_by_accession,
    fiscal_years_by_accession,
    normalize_ticker,
    older_pages,
    parse_ticker_map,
    select_filings,
    submission_rows,
)

log = logging.getLogger(__name__)

# How long a cached answer stays good. Filed documents never change: they are kept forever.
TICKER_MAP_MAX_AGE_S = 24 * 3600
SUBMISSIONS_MAX_AGE_S = 12 * 3600
COMPANYFACTS_MAX_AGE_S = 24 * 3600
DOCUMENT_WORKERS = 4  # downloads overlap; the shared rate limiter still caps requests per second

INDEX_COLUMNS = (
    "ticker", "cik", "company", "form", "fiscal_year", "fiscal_period", "period_end", "accession",
    "filing_date", "sec_url", "file", "bytes_uncompressed", "sha256_uncompressed", "n_ix_facts", "origin", "license",
)  # fmt: skip
ORIGIN = "sec.gov"
LICENSE = "public (SEC EDGAR)"


@dataclass(frozen=True)
class SecOptions:
    """What the download needs from the settings (built by bot.settings.Settings.sec_options), so
    the rest of the settings, secrets included, never reach it."""

    identity: str | None  # SEC_IDENTITY: SEC asks every client to name itself with a contact
    max_rps: float = 10.0  # requests per second across the process
    www_url: str = "https://www.sec.gov"
    data_url: str = "https://data.sec.gov"


@dataclass(frozen=True)
class DownloadError:
    ticker: str
    reason: str  # one line, safe to show a user

    def __str__(self) -> str:
        return f"{self.ticker}: {self.reason}"


@dataclass
class DownloadResult:
    folder: Path  # ingest it with ingest.pipeline.ingest_folder, like any local folder
    tickers: list[str] = field(default_factory=list)  # tickers with at least one filing in the folder
    filings: list[FilingRef] = field(default_factory=list)
    errors: list[DownloadError] = field(default_factory=list)
    requests: int = 0  # HTTP requests sent to SEC in this run (retries included)
    cache_hits: int = 0


def download_to_folder(
    options: SecOptions,
    tickers: list[str],
    years: tuple[int, int] | None,
    cache_dir: Path,
    *,
    progress: bool = True,
    folder: Path | None = None,
    amendments: bool = True,
    client: SecClient | None = None,
    quarters: bool = False,
) -> DownloadResult:
    """Mirror the 10-Ks and 10-Qs of `tickers` (fiscal years `years`, inclusive; None: every one SEC
    lists in the submissions' recent filings) into `folder` (default `cache_dir/folder`) in SEC's
    formats. `quarters=True` (what `footnote ingest` asks for) also mirrors their 10-Qs and 10-Q/As.

    The folder is rebuilt on every call to hold exactly these companies, from the raw-response
    cache under `cache_dir/raw`, so a rerun makes no request for anything already fetched. Problems
    with one company (unknown ticker, no 10-K in those years, a failed download) are returned in
    `errors` and the others go on; a missing SEC_IDENTITY or an unreachable ticker map raises.
    `amendments=False` leaves 10-K/A filings out (most amend Part III only).
    """
    check_identity(options.identity)
    cache_dir = Path(cache_dir)
    folder = Path(folder) if folder else cache_dir / "folder"
    own_client = client is None
    if client is None:
        client = SecClient(options.identity, cache_dir, max_rps=options.max_rps)
    www, data = options.www_url.rstrip("/"), options.data_url.rstrip("/")
    before_requests, before_hits = client.stats.requests, client.stats.cache_hits
    result = DownloadResult(folder=folder)
    try:
        ticker_bytes = client.get(
            f"{www}/files/company_tickers.json", max_age_s=TICKER_MAP_MAX_AGE_S, check=_ticker_map
        )
        ticker_map = _ticker_map(ticker_bytes)
        companies: dict[int, dict] = {}  # cik -> {"submissions": bytes, "companyfacts": bytes | None}
        wanted: list[FilingRef] = []
        for raw in dict.fromkeys(normalize_ticker(t) for t in tickers if t.strip()):
            known = ticker_map.get(raw)
            if known and known[0] in companies:  # GOOG and GOOGL: one company, one set of filings
                first = companies[known[0]]["ticker"]
                result.errors.append(DownloadError(raw, f"same company (CIK {known[0]}) as {first}; downloaded once"))
                continue
            forms = FORMS if amendments else ("10-K",)
            if quarters:
                forms += QUARTERLY_FORMS if amendments else ("10-Q",)
            found = _company_filings(client, raw, years, forms, ticker_map, www, data, result.errors)
            if found is None:
                continue
            cik, files, refs = found
            companies[cik] = files
            wanted.extend(refs)
        _reset_folder(folder, ticker_bytes, companies)
        rows = _download_documents(client, wanted, folder, progress, result.errors)
        result.filings = [ref for ref in wanted if ref.accession in rows]
        _write_index(folder, [rows[ref.accession] for ref in result.filings])
        result.tickers = list(dict.fromkeys(ref.ticker for ref in result.filings))
    finally:
        result.requests = client.stats.requests - before_requests
        result.cache_hits = client.stats.cache_hits - before_hits
        if own_client:
            client.close()
    log.info(
        "SEC: %d filings for %d companies in %s (%d requests, %d from cache, %d problems)",
        len(result.filings), len(result.tickers), folder, result.requests, result.cache_hits, len(result.errors),
    )  # fmt: skip
    return result


def _company_filings(client, ticker, years, forms, ticker_map, www, data, errors):
    """(cik, raw files, filings to fetch) for one ticker, or None with the reason in `errors`."""
    if ticker not in ticker_map:
        errors.append(DownloadError(ticker, "not in SEC's ticker map (company_tickers.json)"))
        return None
    cik, title = ticker_map[ticker]
    try:
        sub_bytes = client.get(
            f"{data}/submissions/CIK{cik:010d}.json", max_age_s=SUBMISSIONS_MAX_AGE_S, check=_json_object
        )
        submissions = json.loads(sub_bytes)
        rows = submission_rows((submissions.get("filings") or {}).get("recent") or {})
        for page in older_pages(submissions, years):
            page_json = client.get_json(f"{data}/submissions/{page}", max_age_s=SUBMISSIONS_MAX_AGE_S)
            rows.extend(submission_rows(page_json))
    except SecBlocked:
        raise
    except (SecHttpError, ValueError, TypeError, AttributeError, KeyError) as exc:
        errors.append(DownloadError(ticker, f"could not read SEC submissions for CIK {cik}: {_reason(exc)}"))
        return None
    facts_bytes: bytes | None = None
    fp_by_accession: dict[str, str] = {}
    try:
        facts_bytes = client.get(
            f"{data}/api/xbrl/companyfacts/CIK{cik:010d}.json", max_age_s=COMPANYFACTS_MAX_AGE_S, check=_json_object
        )
        companyfacts = json.loads(facts_bytes)
        fy_by_accession = fiscal_years_by_accession(companyfacts)
        fp_by_accession = fiscal_periods_by_accession(companyfacts)
    except SecBlocked:
        raise
    except SecNotFound:
        fy_by_accession = {}  # a filer without XBRL financial data: the 10-Ks' own facts still count
    except (SecHttpError, ValueError, TypeError, AttributeError, KeyError) as exc:
        facts_bytes, fy_by_accession = None, {}
        errors.append(DownloadError(ticker, f"companyfacts not downloaded: {_reason(exc)}"))
    company = submissions.get("name") or title
    refs, notes = select_filings(
        rows, ticker=ticker, cik=cik, company=company, years=years, fy_by_accession=fy_by_accession,
        www_url=www, forms=forms, fp_by_accession=fp_by_accession,
    )  # fmt: skip
    errors.extend(DownloadError(ticker, note) for note in notes)
    log.info("SEC: %s is CIK %d (%s): %d filing(s) selected", ticker, cik, company, len(refs))
    if not refs:
        span = "" if years is None else f" for fiscal years {years[0]}-{years[1]}"
        what = "10-K or 10-Q" if any(f.startswith("10-Q") for f in forms) else "10-K"
        errors.append(DownloadError(ticker, f"no {what}{span} in SEC's submissions for CIK {cik}"))
    return cik, {"ticker": ticker, "submissions": sub_bytes, "companyfacts": facts_bytes}, refs


def _reset_folder(folder: Path, ticker_bytes: bytes, companies: dict) -> None:
    """Start `folder` afresh as a corpus in SEC's layout holding exactly these companies."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("submissions", "companyfacts", "filings"):
        shutil.rmtree(folder / name, ignore_errors=True)
    _write(folder / "company_tickers.json", ticker_bytes)
    for cik, files in companies.items():
        _write(folder / "submissions" / f"CIK{cik:010d}.json", files["submissions"])
        if files["companyfacts"] is not None:
            _write(folder / "companyfacts" / f"CIK{cik:010d}.json", files["companyfacts"])
    (folder / "filings" / "10-K").mkdir(parents=True, exist_ok=True)
    (folder / "filings" / "10-Q").mkdir(parents=True, exist_ok=True)


def _download_documents(client, refs, folder, progress, errors) -> dict[str, dict]:
    """Fetch and write each primary document as it arrives (a 10-K can be tens of MB, so none is
    held longer than needed); returns accession -> index.csv row. Failures go to `errors`."""
    rows: dict[str, dict] = {}
    if not refs:
        return rows
    pool = ThreadPoolExecutor(max_workers=DOCUMENT_WORKERS)
    try:
        with tqdm(total=len(refs), desc="SEC documents", unit="doc", disable=not progress) as bar:
            futures = {pool.submit(client.get, ref.url): ref for ref in refs}
            for future in as_completed(futures):
                ref = futures[future]
                try:
                    body = future.result()
                except SecBlocked:
                    raise
                except SecHttpError as exc:
                    reason = f"{ref.form} {ref.accession} not downloaded: {_reason(exc)}"
                    errors.append(DownloadError(ref.ticker, reason))
                else:
                    _write(folder / ref.relative_path, body)
                    rows[ref.accession] = _index_row(ref, body)
                bar.update(1)
    except BaseException:  # Ctrl-C or a block: do not leave queued downloads running
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown()
    return rows


def _write_index(folder: Path, rows: list[dict]) -> None:
    """filings/index.csv with the shared corpus's columns: filing date and SEC URL travel with it."""
    with open(folder / "filings" / "index.csv", "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=INDEX_COLUMNS)
        writer.writeheader()
        writer.writerows(rows)


def _index_row(ref: FilingRef, body: bytes) -> dict:
    return {
        "ticker": ref.ticker,
        "cik": f"{ref.cik:010d}",
        "company": ref.company,
        "form": ref.form,
        "fiscal_year": ref.fiscal_year if ref.fiscal_year is not None else "",
        "fiscal_period": ref.fiscal_period or ("FY" if ref.fiscal_year is not None and ref.form.startswith("10-K") else ""),
        "period_end": ref.report_date.isoformat(),
        "accession": ref.accession,
        "filing_date": ref.filing_date.isoformat() if ref.filing_date else "",
        "sec_url": ref.url,
        "file": ref.relative_path,
        "bytes_uncompressed": len(body),
        "sha256_uncompressed": hashlib.sha256(body).hexdigest(),
        "n_ix_facts": len(re.findall(rb"<ix:nonFraction\b", body, flags=re.IGNORECASE)),
        "origin": ORIGIN,
        "license": LICENSE,
    }


def _write(path: Path, body: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_bytes(body)
    tmp.replace(path)


def _ticker_map(body: bytes) -> dict[str, tuple[int, str]]:
    ticker_map = parse_ticker_map(json.loads(body))
    if not ticker_map:
        raise ValueError("empty ticker map")
    return ticker_map


def _json_object(body: bytes) -> dict:
    value = json.loads(body)
    if not isinstance(value, dict):
        raise ValueError("not a JSON object")
    return value


def _reason(exc: Exception) -> str:
    return str(exc) if isinstance(exc, SecHttpError) else f"malformed answer ({type(exc).__name__})"
