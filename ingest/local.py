"""Find the files of a corpus kept in SEC's own layout, gzipped or not.

    company_tickers.json
    submissions/CIK##########.json[.gz]
    companyfacts/CIK##########.json[.gz]   (and companyfacts/trimmed/)
    filings/10-K/<TICKER>/<CIK10>-<accession|noacc>-<period_end>.htm[.gz]
    filings/10-Q/<TICKER>/<CIK10>-<accession|noacc>-<period_end>.htm[.gz]   (quarterly reports)
    filings/index.csv                      (optional: filing dates and SEC URLs)

This module only discovers and reads files; parsing is the parsers' job and writing the
pipeline's. The SEC download path writes the same layout, so both ways in share this code.
Filing dates and URLs come from filings/index.csv or, failing that, from the company's
submissions (matched on accession, or on period end for a document whose accession is unknown).
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import json
import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from store.parsed import parse_date
from ingest.sec_select import normalize_ticker, parse_ticker_map, submission_rows

FILING_NAME = re.compile(
    r"^(?P<cik>\d{10})-(?P<acc>noacc|\d{10}-\d{2}-\d{6})-(?P<end>\d{4}-\d{2}-\d{2})\.html?(?:\.gz)?$", re.IGNORECASE
)
CIK_FILE = re.compile(r"^CIK(?P<cik>\d{10})\.json(?:\.gz)?$", re.IGNORECASE)
SEC_ARCHIVES = "https://www.sec.gov/Archives/edgar/data"
FORMS = ("10-K", "10-Q")  # the filings/ subfolders read, annual reports first


@dataclass(frozen=True)
class FilingFile:
    """One 10-K or 10-Q primary document on disk, with what its name and the folder's indexes tell."""

    path: Path
    ticker: str  # the folder it sits in
    cik: int
    accession: str | None  # None for 'noacc'
    period_end: date
    filed: date | None = None
    url: str | None = None
    form: str = "10-K"  # the folder it sits in: filings/10-K or filings/10-Q (amendments share them)

    @property
    def key(self) -> str:
        """The filings-table key: the accession, or 'noacc-<cik>-<period_end>' (as ingest.html10k.filing_key)."""
        return self.accession or f"noacc-{self.cik}-{self.period_end.isoformat()}"


@dataclass
class LocalCorpus:
    root: Path
    ticker_map_path: Path | None
    ticker_map: dict[str, tuple[int, str]]  # TICKER -> (cik, title)
    submissions: dict[int, Path]
    companyfacts: dict[int, Path]
    filings: list[FilingFile]
    errors: list[tuple[str, str]] = field(default_factory=list)  # (file or ticker, reason)

    def tickers_of(self, cik: int) -> list[str]:
        return [t for t, (c, _) in self.ticker_map.items() if c == cik]


def read_bytes(path: Path) -> bytes:
    """A file's bytes, gunzipped when its name ends in .gz."""
    path = Path(path)
    if path.suffix.lower() == ".gz":
        with gzip.open(path, "rb") as fh:
            return fh.read()
    return path.read_bytes()


def read_json(path: Path):
    """Parsed JSON; raises ValueError naming the file for truncated or invalid JSON."""
    try:
        raw = read_bytes(path)
    except (OSError, EOFError) as exc:  # a truncated .gz raises EOFError
        raise ValueError(f"{path}: unreadable ({type(exc).__name__}: {exc})") from exc
    return parse_json(raw, path)


def parse_json(raw: bytes, path: Path):
    """`raw`, the bytes of `path` already read (and hashed), parsed as `read_json` parses them."""
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        what = "truncated JSON" if not raw.rstrip().endswith((b"}", b"]")) else "invalid JSON"
        raise ValueError(f"{path}: {what} ({exc.msg} at byte {exc.pos})") from exc


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def scan_folder(folder: Path, tickers: list[str] | None = None) -> LocalCorpus:
    """Everything in `folder` laid out as SEC serves it; `tickers` restricts to those companies.

    Requested tickers that SEC does not know, or that have no document and no companyfacts
    here, are reported in `errors` instead of raising: the rest of the batch goes on.
    """
    root = Path(folder)
    if not root.is_dir():
        raise FileNotFoundError(f"{root}: no such folder")
    errors: list[tuple[str, str]] = []
    ticker_map_path = _first(root, "company_tickers.json")
    ticker_map: dict[str, tuple[int, str]] = {}
    if ticker_map_path is not None:
        try:
            ticker_map = parse_ticker_map(read_json(ticker_map_path))
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            errors.append((str(ticker_map_path), f"unreadable ticker map: {exc}"))

    submissions = _cik_files(root / "submissions")
    companyfacts = _cik_files(root / "companyfacts" / "trimmed")
    companyfacts.update(_cik_files(root / "companyfacts"))  # a full file wins over a trimmed one
    filings: list[FilingFile] = []
    for form in FORMS:
        forms_dir = root / "filings" / form
        if not forms_dir.is_dir():
            continue
        for path in sorted(p for p in forms_dir.glob("*/*") if p.is_file()):
            name = path.name
            if not re.search(r"\.html?(\.gz)?$", name, re.IGNORECASE):
                continue  # __expected-sections.json and the like
            m = FILING_NAME.match(name)
            if not m:
                errors.append((str(path), "file name is not <CIK10>-<accession|noacc>-<YYYY-MM-DD>.htm"))
                continue
            acc = None if m["acc"].lower() == "noacc" else m["acc"]
            filings.append(FilingFile(path, path.parent.name.upper(), int(m["cik"]), acc, date.fromisoformat(m["end"]),
                                      form=form))  # fmt: skip

    if tickers:
        wanted = [normalize_ticker(t) for t in tickers if t.strip()]
        ciks: set[int] = set()
        for t in wanted:
            known = ticker_map.get(t)
            in_folder = {f.cik for f in filings if f.ticker == t}
            if known is None and not in_folder:
                errors.append((t, "unknown ticker: not in SEC's ticker map and no 10-K or 10-Q for it in the folder"))
                continue
            found = in_folder | ({known[0]} if known else set())
            if not any(f.cik in found for f in filings) and not (found & set(companyfacts)):
                errors.append((t, f"no 10-K or 10-Q document or companyfacts for it in {root}"))
            ciks |= found
        filings = [f for f in filings if f.cik in ciks]
        submissions = {c: p for c, p in submissions.items() if c in ciks}
        companyfacts = {c: p for c, p in companyfacts.items() if c in ciks}

    filings = _with_dates(root, filings, submissions, errors)
    return LocalCorpus(root, ticker_map_path, ticker_map, submissions, companyfacts, filings, errors)


def _first(root: Path, name: str) -> Path | None:
    for candidate in (root / name, root / f"{name}.gz"):
        if candidate.is_file():
            return candidate
    return None


def _cik_files(folder: Path) -> dict[int, Path]:
    out: dict[int, Path] = {}
    if folder.is_dir():
        for p in sorted(folder.iterdir()):
            m = CIK_FILE.match(p.name)
            if m and p.is_file():
                out.setdefault(int(m["cik"]), p)
    return out


def _with_dates(root: Path, filings: list[FilingFile], submissions: dict[int, Path], errors) -> list[FilingFile]:
    """Fill filed/url from filings/index.csv, then from submissions; unknown stays None."""
    by_file: dict[str, dict] = {}
    index = root / "filings" / "index.csv"
    if index.is_file():
        with open(index, newline="", encoding="utf-8") as fh:
            for row in csv.DictReader(fh):
                if row.get("file"):
                    by_file[row["file"].removesuffix(".gz")] = row
    sub_rows: dict[int, list[dict]] = {}
    out = []
    for f in filings:
        rel = f.path.relative_to(root).as_posix().removesuffix(".gz")
        row = by_file.get(rel, {})
        filed = parse_date(row.get("filing_date"))
        url = row.get("sec_url") or None
        accession = f.accession
        if (filed is None or url is None) and f.cik in submissions:
            if f.cik not in sub_rows:
                sub_rows[f.cik] = _submission_rows(submissions[f.cik], errors)
            match = _match_submission(f, sub_rows[f.cik])
            if match:
                filed = filed or parse_date(match.get("filingDate"))
                acc = match.get("accessionNumber")
                doc = match.get("primaryDocument")
                accession = accession or acc or None
                if url is None and acc and doc:
                    url = f"{SEC_ARCHIVES}/{f.cik}/{acc.replace('-', '')}/{doc}"
        out.append(FilingFile(f.path, f.ticker, f.cik, accession, f.period_end, filed, url, f.form))
    return out


def _submission_rows(path: Path, errors) -> list[dict]:
    try:
        data = read_json(path)
        return submission_rows(((data.get("filings") or {}).get("recent")) or {})
    except (ValueError, AttributeError) as exc:
        errors.append((str(path), f"submissions not used: {exc}"))
        return []


def _match_submission(f: FilingFile, rows: list[dict]) -> dict | None:
    if f.accession:
        return next((r for r in rows if r.get("accessionNumber") == f.accession), None)
    # No accession: the original 10-K (10-Q) for this period end (an amendment shares the date).
    forms = (f.form, f"{f.form}/A")
    candidates = [r for r in rows if r.get("reportDate") == f.period_end.isoformat() and r.get("form") in forms]
    candidates.sort(key=lambda r: (r.get("form") != f.form, r.get("filingDate") or ""))
    return candidates[0] if candidates else None


