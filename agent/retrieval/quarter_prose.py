"""What a 10-Q says about its quarter: which 10-Q a question means, its Items, and what its risk
factors add to the last 10-K's.

Why: a question about a quarter's results or risks must quote that quarter's 10-Q, never the
annual report's words for another period. A 10-Q's Items are keyed apart from a 10-K's (Part I
Item 2 is MD&A: 'I-2'; Part II Item 1A is risk factors: 'II-1A'), so a 10-K Item the planner chose
maps to its 10-Q counterpart. "What changed in the risk factors" compares the 10-Q's Part II
Item 1A with Item 1A of the 10-K before it and quotes the sentences the 10-K does not have (often
the 10-Q's own statement that nothing material changed).
"""

from __future__ import annotations

import re
from datetime import date

from agent.composing.draft import Claim, Draft, Evidence
from agent.checking.guards import financial_figures, normalize_space, split_sentences
from agent.retrieval.quarters import ORDINAL
from store.items import quarterly_item

CHANGES = re.compile(r"\b(?:chang\w*|new|newly|updat\w*|add\w*|differ\w*|revis\w*|since)\b")
MAX_NEW = 5


def quarter_items(items: list[str]) -> list[str]:
    """The 10-Q Items for the planner's 10-K Items (an Item with no counterpart is dropped)."""
    return list(dict.fromkeys(q for i in items if (q := quarterly_item(i))))


def asks_changes(text: str, items: list[str]) -> bool:
    return "II-1A" in items and bool(CHANGES.search(text.lower()))


def choose_10q(filings: list, period: dict) -> object | None:
    """The 10-Q (store.quarters.Filing) a period request names: by fiscal year and quarter, by the
    quarter's end date or month, else the latest held."""
    tenqs = [f for f in filings if f.form.startswith("10-Q")]
    if period.get("end"):
        end = date.fromisoformat(period["end"])
        tenqs = [f for f in tenqs if abs((f.period_end - end).days) <= 3]
    elif period.get("end_month"):
        tenqs = [f for f in tenqs if date.fromordinal(f.period_end.toordinal() - 4).month == period["end_month"]
                 and (not period.get("end_year") or f.period_end.year == period["end_year"])]
    else:
        if period.get("quarter"):
            tenqs = [f for f in tenqs if f.fiscal_period == f"Q{period['quarter']}"]
        if period.get("fiscal_year"):
            tenqs = [f for f in tenqs if f.fiscal_year == period["fiscal_year"]]
    return max(tenqs, key=lambda f: f.period_end) if tenqs else None


def prior_10k(filings: list, tenq) -> object | None:
    """The annual report filed before the 10-Q: the one whose risk factors the 10-Q updates."""
    annual = [f for f in filings if f.form.startswith("10-K") and f.period_end < tenq.period_end]
    return max(annual, key=lambda f: f.period_end) if annual else None


def label(tenq) -> str:
    q = int(tenq.fiscal_period[1]) if tenq.fiscal_period and tenq.fiscal_period[1:].isdigit() else None
    return f"Q{q} FY{tenq.fiscal_year}" if q else f"fiscal {tenq.fiscal_year}"


def spoken(tenq) -> str:
    q = int(tenq.fiscal_period[1]) if tenq.fiscal_period and tenq.fiscal_period[1:].isdigit() else None
    return f"the {ORDINAL[q]} quarter of fiscal {tenq.fiscal_year}" if q else f"fiscal {tenq.fiscal_year}"


def _key(sentence: str) -> str:
    return re.sub(r"[^a-z0-9 ]", "", normalize_space(sentence).lower())


def new_sentences(quarter_chunks: list, annual_chunks: list) -> list[tuple[object, str]]:
    """(chunk, sentence) for each sentence of the 10-Q's risk factors the 10-K's do not contain, in
    order; a sentence with an amount in it is left out (figures come from XBRL facts)."""
    known = {_key(s) for c in annual_chunks for s in split_sentences(c.text)}
    out: list[tuple[object, str]] = []
    for c in quarter_chunks:
        if c.is_table:
            continue
        for s in split_sentences(c.text):
            if len(s) < 60 or len(s) > 600 or not s.rstrip().endswith((".", ".\u201d", ".\"")):
                continue  # a heading or a fragment, not a statement
            if _key(s) in known or financial_figures(s):
                continue
            out.append((c, s))
    return out


def changes_draft(plan, evidence: list[Evidence], retrieval: dict) -> Draft:
    """Quotes of what the 10-Q's risk factors add, introduced with which filings were compared."""
    picks = retrieval.get("new_sentences") or []
    claims = [Claim(text=s, evidence_id=f"c:{cid}", kind="prose", quote=s) for cid, s in picks[:MAX_NEW]]
    intro = (f"Compared with Item 1A of {retrieval['annual_label']}, {retrieval['quarter_label']} "
             f"(Part II, Item 1A) adds:" if claims else "")
    return Draft(intro=intro, claims=claims, composer="extractive")
