"""A fiscal year's annual report asked of a company held only through its 10-Qs: refused as not covered.

Why a module of its own: it is one last look at a finished prose plan (agent.planning.rules.plan_rules),
with the directory's knowledge of which companies have no 10-K at all (CompanyDirectory.quarters_only).

The corpus holds some companies' quarterly reports only. "what does Caterpillar expect for dealer
inventories?" asks what its filings say, and its latest 10-Q answers it. "exxon mobil risk factors 2023"
or "Ford's 10-K risk factors" asks for a fiscal year's annual report, which is not held: a 10-Q's
passages would answer from another document than the one asked for (often only its pointer back to the
10-K). The refusal says what is held and what can be asked instead (agent.refusals.QUARTERS_ONLY), as it
does for such a company's fiscal-year figures.
"""

from __future__ import annotations

import re

from agent.planning.companies import CompanyDirectory
from agent.planning.plan import Plan, refusal_plan
from agent.planning.scope import strip_quotes
from agent.refusals import QUARTERS_ONLY

# The annual report named: "10-K", "annual report", "annual filing".
ANNUAL = re.compile(r"\b(?:form\s+)?10-?k\b|\bannual\s+(?:report|filing)s?\b")
# A quarter's document or period named: then the 10-Qs held are what is asked for.
QUARTERLY = re.compile(r"\b10-?q\b|\bquarter(?:s|ly)?\b|\bq[1-4]\b|\b(?:first|second|third|fourth)\s+quarter\b|"
                       r"\bhalf\b|\byear[\s-]to[\s-]date\b|\bytd\b|\bnine\s+months\b|\bsix\s+months\b")


def annual_not_held(plan: Plan, text: str, directory: CompanyDirectory) -> Plan | None:
    """The not_covered refusal for a prose question that asks one company's annual report, or a fiscal year
    the message names, when the corpus holds no 10-K of that company; None otherwise."""
    if plan.route != "domain" or plan.intent != "qualitative" or len(plan.tickers) != 1 or plan.period:
        return None
    cik = directory.by_ticker.get(plan.tickers[0].upper())
    company = directory.companies.get(cik) if cik is not None else None
    if company is None or not company.covered or cik not in directory.quarters_only:
        return None
    low = strip_quotes(text or "").lower()
    if QUARTERLY.search(low):
        return None
    year_named = bool(plan.fiscal_years) and (plan.slots or {}).get("fiscal_years") == "message"
    if not (ANNUAL.search(low) or year_named):
        return None
    return refusal_plan("not_covered", f"{QUARTERS_ONLY}{company.name} ({company.tickers[0]})",
                        tickers=list(plan.tickers), fiscal_years=list(plan.fiscal_years), words=plan.words)
