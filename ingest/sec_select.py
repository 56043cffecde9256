"""Which of a company's SEC filings (10-K, 10-Q and their amendments) to download for a range of fiscal years.

A 10-K's fiscal-year label (dei:DocumentFiscalYearFocus) is only certain after parsing, and it is
not always the calendar year of the period end (GameStop's FY2023 ends 2024-02-03; NVIDIA's
FY2025 ends 2025-01-26). SEC's companyfacts gives every fact the `fy` of the filing it came from,
so the label of each accession is read there first. Where companyfacts does not know an
accession, the year is guessed from the report date, widened for periods ending January-March
(whose label may be that year or the year before): a superset, never a miss, and the pipeline
labels each filing from the document itself. A 10-Q's quarter belongs to the fiscal year that
ends in the twelve months after it, labelled that year, the year after (NVIDIA's quarter ended
July 2023 is in fiscal 2024) or, for a year ending in January-March, the year before.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date

from store.parsed import parse_date

FORMS = ("10-K", "10-K/A")
QUARTERLY_FORMS = ("10-Q", "10-Q/A")


@dataclass(frozen=True)
class FilingRef:
    """One 10-K or 10-Q (or amendment) row of a company's submissions, chosen for download."""

    ticker: str
    cik: int
    company: str
    form: str
    accession: str
    report_date: date
    filing_date: date | None
    primary_document: str
    fiscal_year: int | None  # from companyfacts; None when SEC's facts do not name this accession
    url: str
    fiscal_period: str | None = None  # FY, Q1-Q3 from companyfacts; None when unknown

    @property
    def relative_path(self) -> str:
        folder = "10-Q" if self.form.startswith("10-Q") else "10-K"
        return f"filings/{folder}/{self.ticker}/{self.cik:010d}-{self.accession}-{self.report_date.isoformat()}.htm"


def normalize_ticker(ticker: str) -> str:
    """SEC writes class shares with a dash (BRK-B); people often type a dot."""
    return ticker.strip().upper().replace(".", "-").replace("/", "-")


def parse_ticker_map(data: dict) -> dict[str, tuple[int, str]]:
    """company_tickers.json ({"0": {"cik_str", "ticker", "title"}, ...}) as ticker -> (cik, title)."""
    out: dict[str, tuple[int, str]] = {}
    for row in data.values():
        ticker = normalize_ticker(str(row["ticker"]))
        out.setdefault(ticker, (int(row["cik_str"]), str(row["title"])))
    return out


def submission_rows(columns: dict) -> list[dict]:
    """SEC's column arrays (`filings.recent`, or an older-filings page) as one dict per filing."""
    names = [k for k, v in columns.items() if isinstance(v, list)]
    n = min((len(columns[k]) for k in names), default=0)
    return [{k: columns[k][i] for k in names} for i in range(n)]


def fiscal_years_by_accession(companyfacts: dict | None) -> dict[str, int]:
    """Each accession's fiscal-year label, as SEC records it on the facts that filing reported."""
    votes: dict[str, Counter] = {}
    for concepts in ((companyfacts or {}).get("facts") or {}).values():
        for concept in concepts.values():
            for facts in (concept.get("units") or {}).values():
                for fact in facts:
                    if fact.get("accn") and fact.get("fy"):
                        votes.setdefault(fact["accn"], Counter())[int(fact["fy"])] += 1
    return {accn: counter.most_common(1)[0][0] for accn, counter in votes.items()}


def fiscal_periods_by_accession(companyfacts: dict | None) -> dict[str, str]:
    """Each accession's fiscal period (FY, Q1, Q2, Q3), as SEC records it on that filing's facts."""
    votes: dict[str, Counter] = {}
    for concepts in ((companyfacts or {}).get("facts") or {}).values():
        for concept in concepts.values():
            for facts in (concept.get("units") or {}).values():
                for fact in facts:
                    if fact.get("accn") and fact.get("fp"):
                        votes.setdefault(fact["accn"], Counter())[str(fact["fp"]).upper()] += 1
    return {accn: counter.most_common(1)[0][0] for accn, counter in votes.items()}


def in_years(report_date: date, fiscal_year: int | None, years: tuple[int, int] | None, *,
             quarterly: bool = False) -> bool:  # fmt: skip
    """Whether a filing belongs to the requested fiscal years (see the module docstring)."""
    if years is None:
        return True
    lo, hi = years
    if fiscal_year is not None:
        return lo <= fiscal_year <= hi
    y = report_date.year
    candidates = {y, y - 1} if report_date.month <= 3 else {y}
    if quarterly:
        candidates.add(y + 1)  # the fiscal year ending within the next twelve months
    return any(lo <= c <= hi for c in candidates)


def select_filings(
    rows: list[dict],
    *,
    ticker: str,
    cik: int,
    company: str,
    years: tuple[int, int] | None,
    fy_by_accession: dict[str, int],
    www_url: str,
    forms: tuple[str, ...] = FORMS,
    fp_by_accession: dict[str, str] | None = None,
) -> tuple[list[FilingRef], list[str]]:
    """The rows of `forms` (10-K, 10-K/A; 10-Q, 10-Q/A when asked) to download, and notes on rows
    left out for a reason."""
    chosen: dict[str, FilingRef] = {}
    notes: list[str] = []
    for row in rows:
        form = row.get("form")
        if form not in forms:
            continue
        accession = row.get("accessionNumber") or ""
        report = parse_date(row.get("reportDate"))
        document = row.get("primaryDocument") or ""
        if not accession or report is None or not document:
            continue
        fy = fy_by_accession.get(accession)
        if not in_years(report, fy, years, quarterly=form.startswith("10-Q")):
            continue
        if row.get("isInlineXBRL") in (0, "0", False):
            notes.append(f"{form} {accession} (period {report}) has no inline XBRL; skipped")
            continue
        url = f"{www_url.rstrip('/')}/Archives/edgar/data/{cik}/{accession.replace('-', '')}/{document}"
        chosen[accession] = FilingRef(
            ticker, cik, company, form, accession, report, parse_date(row.get("filingDate")), document, fy, url,
            (fp_by_accession or {}).get(accession),
        )
    return sorted(chosen.values(), key=lambda f: (f.report_date, f.form, f.accession)), notes


def older_pages(submissions: dict, years: tuple[int, int] | None) -> list[str]:
    """Older-filings page files that may hold 10-Ks for the requested years (none when unbounded)."""
    if years is None:
        return []
    start = f"{years[0]}-01-01"
    return [
        page["name"]
        for page in (submissions.get("filings") or {}).get("files") or []
        if page.get("name") and str(page.get("filingTo") or "9999") >= start
    ]
