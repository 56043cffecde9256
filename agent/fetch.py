"""fetch and locate: which companies, which filings, which fiscal years, which Items.

fetch turns the plan's tickers into covered companies and its year phrases into concrete fiscal
years per company (each company's own labels: NVIDIA's FY2025 ends in January 2025). It refuses
with not_covered or year_not_available here, before anything is searched. locate then decides
where to look: the Items for prose, the search queries, and the filings that bound the search.
"""

from __future__ import annotations

import re

from agent.graph import status
from store import facts as facts_store

COMPANY_SQL = "SELECT cik, name, tickers FROM companies WHERE %s = ANY(tickers)"
SEC_TICKER_SQL = "SELECT cik, title FROM sec_tickers WHERE ticker = %s"
FILINGS_SQL = """
SELECT DISTINCT ON (fiscal_year) fiscal_year, accession, url, form, period_end
FROM filings WHERE cik = %s
ORDER BY fiscal_year DESC, (form = '10-K') DESC, period_end DESC, filed DESC NULLS LAST
"""

NUMERIC_INTENTS = ("numeric", "derived", "compare", "trend")

# "Why did it change?", "what drove results?": MD&A's explanations share their wording.
_EXPLAIN = re.compile(r"\b(?:why|drove|drive[nrs]?|driving|reasons?|caused?|explain\w*|results?|change[ds]?)\b", re.I)
EXPLAIN_QUERY = "increased decreased primarily due to higher lower compared to the prior year"

def _company(conn, ticker: str) -> dict | None:
    row = conn.execute(COMPANY_SQL, (ticker.upper(),)).fetchone()
    if row is None:
        return None
    return {"ticker": ticker.upper(), "cik": int(row[0]), "name": row[1]}


def _not_covered_name(conn, ticker: str) -> str:
    row = conn.execute(SEC_TICKER_SQL, (ticker.upper(),)).fetchone()
    return f"{row[1]} ({ticker.upper()})" if row else ticker.upper()


def _filings(conn, cik: int) -> dict[int, dict]:
    return {
        int(fy): {"accession": acc, "url": url, "form": form, "period_end": str(pe)}
        for fy, acc, url, form, pe in conn.execute(FILINGS_SQL, (cik,)).fetchall()
    }


class _LazyConnection:
    """A pooled connection taken only if a query actually runs (most fetches hit the memo)."""

    def __init__(self, db):
        self._db, self._cm, self._conn = db, None, None

    def execute(self, *args, **kwargs):
        if self._conn is None:
            self._cm = self._db.connection()
            self._conn = self._cm.__enter__()
        return self._conn.execute(*args, **kwargs)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self._cm is not None:
            return self._cm.__exit__(*exc)
        return False


def _memo(deps, key, compute):
    """What the store says about a company changes only with an ingest; the service clears the
    memo when the corpus version moves."""
    if key not in deps.memo:
        deps.memo[key] = compute()
    return deps.memo[key]


def fetch(state, deps, config) -> dict:
    plan = state["plan"]
    numeric = plan["intent"] in NUMERIC_INTENTS
    resolved: list[dict] = []
    first_refusal = None
    with _LazyConnection(deps.db) as conn:
        if not plan.get("tickers"):
            return {"refusal": {"reason": "no_company", "detail": None}}
        for ticker in plan["tickers"]:
            company = _memo(deps, ("company", ticker), lambda: _company(conn, ticker))
            if company is None:
                return {"refusal": {"reason": "not_covered", "detail": _not_covered_name(conn, ticker)}}
            cik = company["cik"]
            filings = _memo(deps, ("filings", cik), lambda: _filings(conn, cik))
            if numeric:
                available = _memo(
                    deps, ("years", cik), lambda: sorted(facts_store.available_fiscal_years(conn, cik), reverse=True)
                )
            else:
                available = sorted(filings, reverse=True)
            wanted = list(plan.get("fiscal_years") or [])
            if not wanted or plan.get("latest"):
                if not available:
                    return {"refusal": {"reason": "year_not_available", "detail": f"any fiscal year for {company['name']}"}}
                offsets = plan.get("year_offsets") or [0]
                wanted = sorted({available[0] + offset for offset in offsets})
            missing = [y for y in wanted if y not in available]
            if missing and not numeric and not plan.get("latest"):
                # a year whose 10-K is not held is discussed, as the prior year, in the next one's MD&A
                wanted = sorted({y + 1 if y in missing and y + 1 in available else y for y in wanted})
                missing = [y for y in wanted if y not in available]
            if missing and (not numeric or len(missing) == len(wanted)):
                label = ", ".join(f"fiscal {y}" for y in missing)
                what = "10-K filing" if not numeric else "reported figures"
                refusal = {
                    "reason": "year_not_available",
                    "detail": f"{company['name']}'s {what} for {label}",
                    "years": sorted(available)[-8:],
                }
                if len(plan["tickers"]) == 1:
                    return {"refusal": refusal}
                # several companies: the others still answer; this one shows as not reported
                first_refusal = first_refusal or refusal
            as_of = None
            if plan.get("as_of_filing_year"):
                filing = filings.get(int(plan["as_of_filing_year"]))
                if filing is None:
                    return {
                        "refusal": {
                            "reason": "year_not_available",
                            "detail": f"{company['name']}'s fiscal {plan['as_of_filing_year']} 10-K",
                            "years": sorted(filings),
                        }
                    }
                as_of = filing["accession"]
            resolved.append(
                {
                    **company,
                    "fiscal_years": sorted(y for y in wanted if y in available) or (sorted(wanted) if numeric else []),
                    "filings": {str(y): f for y, f in filings.items()},
                    "as_of_accession": as_of,
                    "available": available,
                }
            )
    if first_refusal and not any(
        y in c["available"] for c in resolved for y in c["fiscal_years"]
    ):
        return {"refusal": first_refusal}
    for c in resolved:
        c.pop("available")
    names = ", ".join(c["name"] for c in resolved)
    years = sorted({y for c in resolved for y in c["fiscal_years"]})
    status(config, f"Reading {names} ({', '.join(f'FY{y}' for y in years)})...")
    return {"resolved": resolved}


def locate(state, deps, config) -> dict:
    """Where to look. Numbers need no Items (facts are per filing); prose is searched in the
    planner's Items (or the whole filing when it named none), within the resolved filings."""
    plan = state["plan"]
    if plan["intent"] in NUMERIC_INTENTS:
        return {"located": {"items": [], "queries": [], "accessions": {}}}
    items = list(plan.get("items") or [])
    queries = list(plan.get("sub_queries") or []) or [plan.get("query") or state["question"]]
    if "7" in items and _EXPLAIN.search(state["question"]) and len(queries) < 3:
        queries.append(EXPLAIN_QUERY)  # MD&A explains changes in a recognizable register
    accessions = {}
    for company in state["resolved"]:
        accs = [company["filings"][str(y)]["accession"] for y in company["fiscal_years"] if str(y) in company["filings"]]
        accessions[str(company["cik"])] = accs
    return {"located": {"items": items, "queries": queries[:3], "accessions": accessions}}
