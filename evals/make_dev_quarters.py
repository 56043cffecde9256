"""Build evals/data/dev_quarters.jsonl: the dev set's quarter and half-year questions, answered.

    python -m evals.make_dev_quarters [--from ../shared/sec] [--out evals/data/dev_quarters.jsonl]

Why a file of its own: the dev set was written when Footnote held no 10-Q, so it expected these
questions refused (issue 8 §1: "until then such questions must be refused"). Quarters are answered
from the 10-Qs now; the old cases are retired (evals/data/retired.jsonl) and each is replaced here by
the same question expecting the figure the 10-Q reports for the period it names, read by
evals.quarter_truth (never from an answer). A period is named by its exact end and length, so a
question about a quarter is never satisfied by the year to date beside it.
"""

from __future__ import annotations

import csv
import sys
from datetime import date
from pathlib import Path

from evals.make_quarterly import _concepts, _fiscal_year, _needs, _number
from evals.quarter_truth import NINE_MONTHS, SIX_MONTHS, THREE_MONTHS, TruthError, collect, duration
from evals.sets import DATA
from evals.xbrl_truth import _read, parse_member_facts

SPANS = {"three": THREE_MONTHS, "six": SIX_MONTHS, "nine": NINE_MONTHS}

# (id, replaces, question, ticker, metric, period end, span, class)
CASES = [
    ("dq-01", "df-ref-012", "amazon revenue for the three months ended june 30, 2023", "AMZN", "revenue",
     "2023-06-30", "three", "three_month"),
    ("dq-02", "df-ref-013", "Boeing first-half 2023 net loss?", "BA", "net_income", "2023-06-30", "six", "half"),
    ("dq-03", "df-ref-015", "walmart 2Q fiscal 2024 operating income", "WMT", "operating_income", "2023-07-31",
     "three", "non_calendar"),
    ("dq-04", "df-ref-016", "what did alphabet earn in the september 2023 quarter", "GOOGL", "net_income",
     "2023-09-30", "three", "three_month"),
    ("dq-05", "df-ref-017", "apple revenue for the nine months ended july 1 2023", "AAPL", "revenue", "2023-07-01",
     "nine", "year_to_date"),
    ("dq-06", "df-ref-018", "coca-cola H1 2023 revenue", "KO", "revenue", "2023-06-30", "six", "half"),
    ("dq-07", "df-ref-019", "procter & gamble first quarter fiscal 2024 net sales", "PG", "revenue", "2023-09-30",
     "three", "non_calendar"),
    ("dq-08", "df-ref-020", "visa net revenue in the quarter ended june 30 2023", "V", "revenue", "2023-06-30",
     "three", "non_calendar"),
    ("dq-09", "df-ref-021", "home depot net sales for the six months ended july 30, 2023", "HD", "revenue",
     "2023-07-30", "six", "year_to_date"),
    ("dq-10", "df-ref-023", "mcdonalds second quarter 2023 operating income", "MCD", "operating_income", "2023-06-30",
     "three", "three_month"),
]

# A quarter's figure of one segment or product, read from the 10-Q's dimensional facts (evals.xbrl_truth.
# parse_member_facts): (id, replaces, question, ticker, metric, (axis, member), the member's label, period end, span,
# class)
MEMBER_CASES = [
    ("dq-11", "df-ref-014", "nvidia Q2 FY24 data center revenue", "NVDA", "revenue",
     ("srt:ProductOrServiceAxis", "nvda:DataCenterMember"), "Data Center", "2023-07-30", "three", "three_month"),
]

# A must-refuse written when only 10-Ks were held, about what a 10-Q states: answered from it now.
# Its key sentences are named by fingerprint (evals.sentence_hash), read from the 10-Q itself.
PROSE = [
    {"id": "dq-p-01", "kind": "qualitative", "class": "qualitative", "tags": ["outlook", "10-Q"],
     "question": "What does Caterpillar expect for dealer inventories?",
     "note": "replaces dp-ref-19: a question about what the filing states is answered from it (issue 9 section 3)",
     "expect": {"answer": "answer", "needs": ["CAT"], "evidence": [
         {"ticker": "CAT", "fiscal_year": 2023, "item": "I-2", "sha1": "6a764880a5f4412209637545c2c52d204877d2e7", "chars": 87},
         {"ticker": "CAT", "fiscal_year": 2023, "item": "I-2", "sha1": "3e4385d99ff6ef45227665d2f3ffbc60127a17b5",
          "chars": 118}]}},
]


def build(corpus: Path) -> tuple[list[dict], list[str]]:
    data = collect(corpus, {case[3] for case in CASES})
    out: list[dict] = []
    log: list[str] = []
    for cid, replaces, q, tk, metric, end, span, cls in CASES:
        try:
            comp = data[tk]
            fact = duration(comp, _concepts(metric), date.fromisoformat(end), SPANS[span], slack=3)
        except (TruthError, KeyError) as exc:
            log.append(f"{q!r}: {exc}, question not written")
            continue
        number = _number(comp, metric, fact, _fiscal_year(comp, fact["end"]))
        out.append({"id": cid, "class": cls, "kind": "numeric", "question": q, "note": f"replaces {replaces}",
                    "expect": {"answer": "answer", "numbers": [number], **_needs(tk)}})
    for cid, replaces, q, tk, metric, (axis, member), label, end, span, cls in MEMBER_CASES:
        try:
            fact = member_duration(corpus, tk, _concepts(metric), {axis: member}, date.fromisoformat(end), SPANS[span])
            comp = collect(corpus, {tk})[tk]
        except (TruthError, KeyError) as exc:
            log.append(f"{q!r}: {exc}, question not written")
            continue
        number = {**_number(comp, metric, fact, _fiscal_year(comp, fact["end"])), "metric": f"{label.lower()} {metric}",
                  "dims": {axis: member}, "label": label}
        out.append({"id": cid, "class": cls, "kind": "numeric", "question": q, "note": f"replaces {replaces}",
                    "expect": {"answer": "answer", "numbers": [number], **_needs(tk)}})
    return out + PROSE, log


def member_duration(corpus: Path, ticker: str, concepts: list[str], dims: dict, end: date, days: tuple[int, int],
                    slack: int = 3) -> dict:
    """The first concept's fact on exactly `dims` of that length ending at `end` (± slack days), in the ticker's
    10-Qs; one value only (rounded repeats agree), else TruthError."""
    rows = [r for r in csv.DictReader(open(corpus / "filings" / "index.csv", encoding="utf-8"))
            if r["ticker"] == ticker and r["form"] == "10-Q"]
    facts = [f for r in rows for f in parse_member_facts(_read(corpus / r["file"])) if f[5] == dims and f[1]]
    for concept in concepts:
        found = {(f[1], f[2]): f for f in facts if f[0] == concept
                 and abs((date.fromisoformat(f[2]) - end).days) <= slack
                 and days[0] <= (date.fromisoformat(f[2]) - date.fromisoformat(f[1])).days <= days[1]}
        values = {f[3] for f in found.values()}
        if len(values) > 1:
            raise TruthError(f"{ticker}: {concept} on {dims} ending {end} is reported as {sorted(values)}")
        if found:
            start, stop = next(iter(found))
            return {"concept": concept, "value": values.pop(), "start": date.fromisoformat(start),
                    "end": date.fromisoformat(stop), "accession": None}
    raise TruthError(f"{ticker}: no {concepts[0]} on {dims} of {days} days ending {end}")


def main(argv: list[str] | None = None) -> int:
    from evals.make_shared import write_set

    return write_set(build, DATA / "dev_quarters.jsonl", __doc__.split("\n\n")[0], argv)


if __name__ == "__main__":
    sys.exit(main())
