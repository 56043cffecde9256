"""Build evals/data/fixture_quarters.jsonl: the CI gate's quarterly questions over the fixture corpus
(tests/fixtures/sec: Apple's Q3 FY2024 10-Q, NVIDIA's Q1-Q3 FY2025 10-Qs), expected values read
from those 10-Qs' inline XBRL and the fixture companyfacts (evals.quarter_truth), never from the agent.

    python -m evals.make_fixture_quarters [--from tests/fixtures/sec] [--out evals/data/fixture_quarters.jsonl]
"""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path

from evals.corpus import FIXTURE_CORPUS
from evals.make_quarterly import QUARTER_NAMES, _concepts, _input, _number, _s
from evals.quarter_truth import NINE_MONTHS, SIX_MONTHS, THREE_MONTHS, TruthError, collect, duration, fourth_quarter, instant
from evals.sets import DATA

NVDA_FY25_END = date(2025, 1, 26)
NVDA_Q = {1: date(2024, 4, 28), 2: date(2024, 7, 28), 3: date(2024, 10, 27)}
AAPL_Q3 = date(2024, 6, 29)

# (question, ticker, metric, span, end, fiscal year, class)
NUMERIC = [
    ("NVIDIA revenue in Q2 FY2025", "NVDA", "revenue", THREE_MONTHS, NVDA_Q[2], 2025, "non_calendar"),
    ("nvidia net income for the three months ended October 27, 2024", "NVDA", "net_income", THREE_MONTHS, NVDA_Q[3], 2025,
     "ytd_trap"),
    ("Apple revenue for the quarter ended June 29, 2024", "AAPL", "revenue", THREE_MONTHS, AAPL_Q3, 2024, "ytd_trap"),
    ("NVIDIA first-half fiscal 2025 revenue", "NVDA", "revenue", SIX_MONTHS, NVDA_Q[2], 2025, "year_to_date"),
    ("Apple net income for the nine months ended June 29, 2024", "AAPL", "net_income", NINE_MONTHS, AAPL_Q3, 2024,
     "year_to_date"),
    ("NVIDIA total assets at the end of Q3 FY2025", "NVDA", "total_assets", None, NVDA_Q[3], 2025, "balance"),
    ("apple q3 fy24 diluted eps", "AAPL", "eps_diluted", THREE_MONTHS, AAPL_Q3, 2024, "three_month"),
]


def build(corpus: Path) -> tuple[list[dict], list[str]]:
    data = collect(corpus)
    nvda = data["NVDA"]
    out: list[dict] = []
    log: list[str] = []
    for n, (q, tk, metric, span, end, fy, cls) in enumerate(NUMERIC, start=1):
        comp = data[tk]
        try:
            fact = instant(comp, _concepts(metric), end) if span is None else duration(comp, _concepts(metric), end, span)
        except TruthError as exc:
            log.append(f"{q!r}: {exc}, question not written")
            continue
        out.append({"id": f"fq-num-{n:02d}", "class": cls, "kind": "numeric", "question": q,
                    "expect": {"answer": "answer", "numbers": [_number(comp, metric, fact, fy)]}})

    rev = _concepts("revenue")
    q4 = fourth_quarter(nvda, rev, NVDA_FY25_END)
    out.append({"id": "fq-q4-01", "class": "fourth_quarter", "kind": "derived", "question": "NVIDIA Q4 fiscal 2025 revenue",
                "expect": {"answer": "answer", "calc": {
                    "ticker": "NVDA", "fiscal_year": 2025, "metric": "Q4 revenue", "value": _s(q4["value"]), "unit": "USD",
                    "formula": "fiscal year - nine months", "concepts": rev,
                    "inputs": [_input("fiscal year", q4["year"], 2025), _input("nine months", q4["nine_months"], 2025)]}}})
    q3 = duration(nvda, rev, NVDA_Q[3], THREE_MONTHS)
    for n, (question, base_end, kind) in enumerate([
        ("NVIDIA Q3 FY2025 revenue growth year over year", date(2023, 10, 29), "yoy"),
        ("NVIDIA sequential revenue growth in Q3 FY2025", NVDA_Q[2], "sequential"),
    ], start=1):
        base = duration(nvda, rev, base_end, THREE_MONTHS)
        value = (q3["value"] - base["value"]) / base["value"] * 100
        out.append({"id": f"fq-gr-{n:02d}", "class": f"growth_{kind}", "kind": "derived", "question": question,
                    "expect": {"answer": "answer", "calc": {
                        "ticker": "NVDA", "fiscal_year": 2025, "metric": f"revenue growth ({kind})",
                        "value": format(round(value, 10).normalize(), "f"), "unit": "percent", "concepts": rev,
                        "formula": "(quarter - base quarter) / base quarter",
                        "inputs": [_input("quarter", q3, 2025), _input("base", base, 2025 if kind == "sequential" else 2024)]}}})
    year = duration(nvda, rev, date(2024, 1, 28), (357, 378))
    ytd, prior = duration(nvda, rev, NVDA_Q[2], SIX_MONTHS), duration(nvda, rev, date(2023, 7, 30), SIX_MONTHS)
    four = [duration(nvda, rev, NVDA_Q[2], THREE_MONTHS)["value"], duration(nvda, rev, NVDA_Q[1], THREE_MONTHS)["value"],
            fourth_quarter(nvda, rev, date(2024, 1, 28))["value"], duration(nvda, rev, date(2023, 10, 29), THREE_MONTHS)["value"]]
    ttm = year["value"] + ytd["value"] - prior["value"]
    if ttm != sum(four):
        raise TruthError(f"TTM {ttm} differs from the four quarters' sum {sum(four)}")
    out.append({"id": "fq-ttm-01", "class": "ttm", "kind": "derived",
                "question": "NVIDIA trailing twelve months revenue as of Q2 FY2025",
                "expect": {"answer": "answer", "calc": {
                    "ticker": "NVDA", "fiscal_year": 2025, "metric": "TTM revenue", "value": _s(ttm), "unit": "USD",
                    "formula": "fiscal year + year to date - prior year to date", "concepts": rev,
                    "inputs": [_input("fiscal year", year, 2024), _input("year to date", ytd, 2025),
                               _input("prior year to date", prior, 2024)]}}})
    quarters = [_number(nvda, "revenue", duration(nvda, rev, NVDA_Q[q], THREE_MONTHS), 2025) for q in (1, 2, 3)]
    quarters.append({"ticker": "NVDA", "fiscal_year": 2025, "value": _s(q4["value"]), "metric": "Q4 revenue",
                     "concepts": rev, "derived": "fiscal year - nine months"})
    out.append({"id": "fq-tab-01", "class": "by_quarter", "kind": "trend", "question": "NVIDIA quarterly revenue for fiscal 2025",
                "expect": {"answer": "answer", "numbers": quarters}})
    out.append({"id": "fq-lat-01", "class": "latest", "kind": "numeric",
                "question": "what did nvidia report for revenue last quarter?",
                "note": "the fourth quarter of fiscal 2025, derived from the 10-K and the Q3 10-Q, is the latest",
                "expect": {"answer": "answer", "numbers": [quarters[-1]]}})
    for n, (question, note) in enumerate([
        ("Apple revenue in Q1 FY2024", "only Apple's Q3 FY2024 10-Q is held"),
        ("Tesla Q2 2024 revenue", "no Tesla 10-Q is held"),
        ("NVIDIA revenue for the quarter ended March 31, 2024", "not one of NVIDIA's quarter ends"),
    ], start=1):
        out.append({"id": f"fq-ref-{n:02d}", "class": "not_held", "kind": "refusal", "question": question, "note": note,
                    "expect": {"answer": "refusal", "reason": "year_not_available", "reasons": ["no_grounding"],
                               "names": QUARTER_NAMES}})
    out.append({"id": "fq-prose-01", "class": "quarter_prose", "kind": "qualitative",
                "question": "What drove NVIDIA's revenue in its Q3 FY2025 10-Q?",
                "expect": {"answer": "answer", "evidence": [
                    {"ticker": "NVDA", "fiscal_year": 2025, "item": "I-2", "keywords": ["accelerated computing"]}]}})
    out.append({"id": "fq-prose-02", "class": "risk_changes", "kind": "qualitative",
                "question": "What changed in NVIDIA's risk factors in the Q3 FY2025 10-Q?",
                "expect": {"answer": "answer", "evidence": [
                    {"ticker": "NVDA", "fiscal_year": 2025, "item": "II-1A", "keywords": ["cloud customers"]}]}})
    return out, log


def main(argv: list[str] | None = None) -> int:
    import argparse

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--from", dest="corpus", type=Path, default=FIXTURE_CORPUS)
    p.add_argument("--out", type=Path, default=DATA / "fixture_quarters.jsonl")
    args = p.parse_args(argv)
    import json

    questions, log = build(args.corpus)
    with open(args.out, "w", encoding="utf-8") as fh:
        for q in questions:
            fh.write(json.dumps(q, ensure_ascii=False) + "\n")
    for line in log:
        print("note:", line, file=sys.stderr)
    print(f"wrote {len(questions)} lines to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
