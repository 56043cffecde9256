"""Build evals/data/quarterly.jsonl: quarterly questions over the real corpus (../shared/sec), whose
expected values come from the 10-Qs' own inline XBRL and companyfacts (evals.quarter_truth).

    python -m evals.make_quarterly [--from ../shared/sec] [--out evals/data/quarterly.jsonl]

What it measures, by class: a quarter's three-month figure in the company's own terms (non-calendar
fiscal years: NVIDIA, Apple, Walmart, Nike, Cisco...), the year-to-date trap (a quarter asked, the
six or nine months beside it), the year to date and halves when asked, balances at a quarter's
end, fourth quarters derived as the year minus nine months (checked against companyfacts), growth
on the prior-year quarter and on the prior quarter, trailing twelve months, quarters by table,
"last quarter", and refusals for quarters not held (never a year's figure, never a derived first
quarter).
"""

from __future__ import annotations

import math
import sys
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

from evals.quarter_truth import (
    NINE_MONTHS, SIX_MONTHS, THREE_MONTHS, Quarterly, TruthError, collect, duration, fourth_quarter, instant, year_before,
)
from evals.sets import DATA
from evals.xbrl_truth import METRICS

# The 10-Q-only companies (no 10-K held): their questions need the 10-Q ingest.
TENQ_ONLY = {"AMC", "AXP", "CAT", "CVX", "DIS", "DOW", "F", "HON", "MMM", "MRK", "MULN", "ORCL", "PFE", "T", "TRV", "UPS", "XOM"}
QUARTER_NAMES = ["Q1", "Q2", "Q3", "Q4", "quarter", "first quarter", "second quarter", "third quarter", "fourth quarter",
                 "half", "three months", "six months", "nine months"]


def _d(s: str) -> date:
    return date.fromisoformat(s)


# (question, ticker, metric, which, class[, options]); which: cur | prior | ytd | inst | end:<date> (three months
# ending near that date, from companyfacts)
NUMERIC = [
    ("What was NVIDIA's revenue in Q2 FY2024?", "NVDA", "revenue", "cur", "non_calendar"),
    ("nvidia net income second quarter fiscal 2024", "NVDA", "net_income", "cur", "non_calendar"),
    ("Apple revenue for the quarter ended July 1, 2023", "AAPL", "revenue", "cur", "ytd_trap"),
    ("apple Q3 FY23 net income", "AAPL", "net_income", "cur", "ytd_trap"),
    ("Walmart revenue in the second quarter of fiscal 2024", "WMT", "revenue", "cur", "non_calendar"),
    ("Nike Q1 FY24 revenues", "NKE", "revenue", "cur", "non_calendar"),
    ("Cisco revenue for the three months ended April 29, 2023", "CSCO", "revenue", "cur", "ytd_trap"),
    ("How much revenue did Amazon report in the June 2023 quarter?", "AMZN", "revenue", "cur", "ytd_trap"),
    ("Meta Q2 2023 net income", "META", "net_income", "cur", "ytd_trap"),
    ("alphabet Q3 2023 revenue", "GOOGL", "revenue", "cur", "ytd_trap"),
    ("Home Depot net earnings for the quarter ended July 30, 2023", "HD", "net_income", "cur", "non_calendar"),
    ("Adobe revenue in its third quarter of fiscal 2023", "ADBE", "revenue", "cur", "ytd_trap"),
    ("Medtronic Q1 fiscal 2024 net income", "MDT", "net_income", "cur", "non_calendar"),
    ("Procter & Gamble net sales in the September 2023 quarter", "PG", "revenue", "cur", "non_calendar"),
    ("Coca-Cola operating income Q2 2023", "KO", "operating_income", "cur", "three_month"),
    ("intel q2 2023 revenue", "INTC", "revenue", "cur", "ytd_trap"),
    ("Visa net income fiscal Q3 2023", "V", "net_income", "cur", "non_calendar"),
    ("Texas Instruments revenue, three months ended June 30 2023", "TXN", "revenue", "cur", "three_month"),
    ("UnitedHealth second-quarter 2023 revenues", "UNH", "revenue", "cur", "three_month"),
    ("Lowe's Q2 2023 net earnings", "LOW", "net_income", "cur", "non_calendar"),
    ("GameStop net sales in Q2 fiscal 2023", "GME", "revenue", "cur", "non_calendar"),
    ("Johnson Controls Q3 FY2023 revenue", "JCI", "revenue", "cur", "non_calendar"),
    ("Walgreens fiscal third quarter 2023 sales", "WBA", "revenue", "cur", "non_calendar"),
    ("Oracle Q1 FY2024 revenue", "ORCL", "revenue", "cur", "non_calendar"),
    ("Disney revenue in the quarter ended July 1, 2023", "DIS", "revenue", "cur", "ytd_trap"),
    ("Verizon Q2 2023 diluted EPS", "VZ", "eps_diluted", "cur", "three_month"),
    ("nvda diluted eps q2 fy24", "NVDA", "eps_diluted", "cur", "non_calendar"),
    ("What was AMD's gross profit in Q2 2023?", "AMD", "gross_profit", "cur", "three_month"),
    ("R&D expense for Meta in the second quarter of 2023", "META", "rnd", "cur", "three_month"),
    ("Chevron Q2 2023 net income", "CVX", "net_income", "cur", "three_month"),
    ("Mastercard revenue for the three months ended June 30, 2023", "MA", "revenue", "cur", "ytd_trap"),
    ("McDonald's Q2 2023 revenues", "MCD", "revenue", "cur", "three_month"),
    # the same quarter a year earlier: the 10-Q's comparative column, or companyfacts
    ("NVIDIA revenue in Q2 FY2023", "NVDA", "revenue", "prior", "prior_year_quarter"),
    ("Amazon Q2 2022 revenue", "AMZN", "revenue", "prior", "prior_year_quarter"),
    ("Meta net income in the second quarter of 2022", "META", "net_income", "prior", "prior_year_quarter"),
    ("Apple revenue in the June quarter of fiscal 2022", "AAPL", "revenue", "end:2022-06-25", "prior_year_quarter"),
    ("NVIDIA Q1 FY2024 revenue", "NVDA", "revenue", "end:2023-04-30", "three_month"),
    # halves, nine months, year to date: asked for, so answered
    ("Amazon revenue for the first half of 2023", "AMZN", "revenue", "ytd", "year_to_date"),
    ("Apple net income for the nine months ended July 1, 2023", "AAPL", "net_income", "ytd", "year_to_date"),
    ("NVIDIA revenue year to date in fiscal 2024, through the second quarter", "NVDA", "revenue", "ytd", "year_to_date"),
    ("Walmart first-half fiscal 2024 net income", "WMT", "net_income", "ytd", "year_to_date"),
    ("Cisco revenue for the first nine months of fiscal 2023", "CSCO", "revenue", "ytd", "year_to_date"),
    ("Coca-Cola net income for the six months ended June 30, 2023", "KO", "net_income", "ytd", "year_to_date"),
    ("Alphabet revenue year to date through September 30, 2023", "GOOGL", "revenue", "ytd", "year_to_date"),
    ("Boeing H1 2023 revenue", "BA", "revenue", "ytd", "year_to_date"),
    # balances at the quarter's end
    ("Apple total assets at the end of Q3 FY2023", "AAPL", "total_assets", "inst", "balance"),
    ("NVIDIA cash and cash equivalents as of July 30, 2023", "NVDA", "cash", "inst", "balance"),
    ("Meta total liabilities at June 30, 2023", "META", "total_liabilities", "inst", "balance"),
    ("Walmart total assets as of July 31, 2023", "WMT", "total_assets", "inst", "balance"),
    ("Home Depot cash at the end of the second quarter of fiscal 2023", "HD", "cash", "inst", "balance"),
    ("Intel current liabilities at the end of Q2 2023", "INTC", "current_liabilities", "inst", "balance"),
]

# (question, ticker, metric, fiscal year end): Q4 = the fiscal year minus its first nine months
FOURTH = [
    ("What was NVIDIA's Q4 FY2024 revenue?", "NVDA", "revenue", "2024-01-28"),
    ("Apple fourth quarter fiscal 2023 revenue", "AAPL", "revenue", "2023-09-30"),
    ("Alphabet Q4 2023 net income", "GOOGL", "net_income", "2023-12-31"),
    ("nvidia net income Q4 fiscal 2024", "NVDA", "net_income", "2024-01-28"),
]

# (question, ticker, metric, current end, base end, kind): growth in percent
GROWTH = [
    ("NVIDIA Q2 FY2024 revenue growth year over year", "NVDA", "revenue", "cur", "prior", "yoy"),
    ("How much did Meta's revenue grow year over year in Q2 2023?", "META", "revenue", "cur", "prior", "yoy"),
    ("Walmart Q2 FY24 revenue growth vs the prior-year quarter", "WMT", "revenue", "cur", "prior", "yoy"),
    ("Intel revenue change, Q2 2023 vs Q2 2022, in percent", "INTC", "revenue", "cur", "prior", "yoy"),
    ("Alphabet revenue growth quarter over quarter in Q3 2023", "GOOGL", "revenue", "cur", "end:2023-06-30", "sequential"),
    ("NVIDIA sequential revenue growth in Q2 FY2024", "NVDA", "revenue", "cur", "end:2023-04-30", "sequential"),
    ("Apple revenue growth from Q2 to Q3 of fiscal 2023", "AAPL", "revenue", "cur", "end:2023-04-01", "sequential"),
]

# (question, ticker, metric, quarter end, prior fiscal year end): FY + YTD - prior YTD, checked
# against the sum of the four quarters
TTM = [
    ("NVIDIA trailing twelve months revenue as of Q2 FY2024", "NVDA", "revenue", "2023-07-30", "2023-01-29"),
    ("Apple TTM net income as of the June 2023 quarter", "AAPL", "net_income", "2023-07-01", "2022-09-24"),
    ("alphabet trailing 12 month revenue through Q3 2023", "GOOGL", "revenue", "2023-09-30", "2022-12-31"),
]

# (question, ticker, metric, fiscal year end, quarter ends Q1..Q3): a table by quarter, Q4 derived
BY_QUARTER = [
    ("NVIDIA quarterly revenue for fiscal 2024", "NVDA", "revenue", "2024-01-28",
     ["2023-04-30", "2023-07-30", "2023-10-29"]),
    ("Alphabet net income by quarter for 2022", "GOOGL", "net_income", "2022-12-31",
     ["2022-03-31", "2022-06-30", "2022-09-30"]),
]

# (question, ticker, metric, class): the most recent quarter held
LATEST = [
    ("What did NVIDIA report for revenue last quarter?", "NVDA", "revenue", "latest"),
    ("Home Depot's most recent quarter net earnings", "HD", "net_income", "latest"),
    ("visa latest quarterly revenue", "V", "revenue", "latest"),
]

# (question, ticker, class, note): a quarter that is not held is refused, naming it
REFUSE = [
    ("Home Depot revenue in Q1 fiscal 2023", "HD", "not_held", "only the second quarter's 10-Q is held"),
    ("Coca-Cola Q3 2023 net income", "KO", "not_held", "only the Q2 2023 10-Q is held"),
    ("Boeing Q4 2023 revenue", "BA", "not_held", "the year is held, its nine months are not: no Q4"),
    ("Visa revenue for Q1 of fiscal 2024", "V", "not_held", "after the only 10-Q held"),
    ("Intel third quarter 2023 revenue", "INTC", "not_held", "only Q2 2023 is held"),
    ("Tesla Q2 2023 revenue", "TSLA", "not_held", "no Tesla 10-Q; its companyfacts end in 2022"),
    ("Meta Q1 2023 net income", "META", "not_held", "not reported: never derived from six months minus Q2"),
    ("Amazon revenue in the quarter ended March 31, 2023", "AMZN", "not_held", "no first-quarter 10-Q"),
    ("Nike revenue for the first half of fiscal 2024", "NKE", "not_held", "only the first quarter is held"),
    ("Apple revenue in Q3 FY2031", "AAPL", "not_held", "a quarter no filing holds yet"),
]


def _concepts(metric: str) -> list[str]:
    return [f"us-gaap:{c}" for c in METRICS[metric]]


def _tenq(comp: Quarterly, which: str) -> dict:
    """The one 10-Q a question is about (the latest when several)."""
    return comp.tenq[-1]


def _fact(comp: Quarterly, metric: str, which: str) -> tuple[dict, int]:
    """(fact, fiscal year of its period) for a `which` of NUMERIC."""
    filing = _tenq(comp, which)
    end, fy = filing["period_end"], filing["fiscal_year"]
    concepts = _concepts(metric)
    if which == "cur":
        return duration(comp, concepts, end, THREE_MONTHS), fy
    if which == "prior":
        return duration(comp, concepts, year_before(end), THREE_MONTHS, slack=10), fy - 1
    if which == "ytd":
        return duration(comp, concepts, end, SIX_MONTHS if filing["quarter"] == "Q2" else NINE_MONTHS), fy
    if which == "inst":
        return instant(comp, concepts, end), fy
    if which.startswith("end:"):
        got = duration(comp, concepts, _d(which[4:]), THREE_MONTHS, slack=7)
        return got, _fiscal_year(comp, got["end"])
    raise ValueError(which)


def _number(comp: Quarterly, metric: str, fact: dict, fy: int) -> dict:
    out = {"ticker": comp.ticker, "fiscal_year": fy, "value": _s(fact["value"]), "metric": metric.replace("_", " "),
           "concepts": _concepts(metric), "source_concept": fact["concept"], "period_end": fact["end"].isoformat()}
    if fact["start"] is not None:
        out["period_start"] = fact["start"].isoformat()
    return out


def _s(v: Decimal) -> str:
    text = format(v, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _needs(ticker: str) -> dict:
    return {"needs": [ticker]} if ticker in TENQ_ONLY else {}


def _input(name: str, fact: dict, fy: int) -> dict:
    return {"name": name, "concept": fact["concept"], "fiscal_year": fy, "value": _s(fact["value"]),
            "period_start": fact["start"].isoformat() if fact["start"] else None, "period_end": fact["end"].isoformat()}


def _latest_three_months(comp: Quarterly, metric: str) -> dict:
    """The most recent quarter held: a reported three months, or a fourth quarter derivable as the
    fiscal year minus its nine months when that year ends later (as "latest" is defined)."""
    for concept in _concepts(metric):
        keys = [k for k in comp.obs if k[0] == concept and k[1] is not None
                and THREE_MONTHS[0] <= (k[2] - k[1]).days <= THREE_MONTHS[1]]
        if not keys:
            continue
        end = max(k[2] for k in keys)
        latest = duration(comp, [concept], end, THREE_MONTHS)
        years = sorted({k[2] for k in comp.obs if k[0] == concept and k[1] is not None
                        and 357 <= (k[2] - k[1]).days <= 378 and k[2] > end}, reverse=True)
        for year_end in years:
            try:
                q4 = fourth_quarter(comp, [concept], year_end)
            except TruthError:
                continue
            return {"concept": concept, "value": q4["value"], "start": None, "end": year_end, "derived": True}
        return latest
    raise TruthError(f"{comp.ticker}: no quarter of {metric}")


def build(corpus: Path) -> tuple[list[dict], list[str]]:
    data = collect(corpus)
    out: list[dict] = []
    log: list[str] = []

    def add(prefix: str, n: int, line: dict) -> None:
        out.append({"id": f"q-{prefix}-{n:02d}", **line})

    for n, (q, tk, metric, which, cls) in enumerate(NUMERIC, start=1):
        try:
            fact, fy = _fact(data[tk], metric, which)
        except (TruthError, KeyError) as exc:
            log.append(f"{q!r}: {exc}, question not written")
            continue
        add("num", n, {"class": cls, "kind": "numeric", "question": q,
                       "expect": {"answer": "answer", "numbers": [_number(data[tk], metric, fact, fy)], **_needs(tk)}})

    for n, (q, tk, metric, fy_end) in enumerate(FOURTH, start=1):
        comp = data[tk]
        try:
            q4 = fourth_quarter(comp, _concepts(metric), _d(fy_end))
        except TruthError as exc:
            log.append(f"{q!r}: {exc}, question not written")
            continue
        fy = _fiscal_year(comp, _d(fy_end))
        calc = {"ticker": tk, "fiscal_year": fy, "metric": f"Q4 {metric.replace('_', ' ')}", "value": _s(q4["value"]),
                "unit": "USD", "formula": "fiscal year - nine months",
                "inputs": [_input("fiscal year", q4["year"], fy), _input("nine months", q4["nine_months"], fy)],
                "concepts": _concepts(metric)}
        add("q4", n, {"class": "fourth_quarter", "kind": "derived", "question": q, "expect": {"answer": "answer", "calc": calc}})

    for n, (q, tk, metric, cur, base, kind) in enumerate(GROWTH, start=1):
        comp = data[tk]
        try:
            a, fy = _fact(comp, metric, cur)
            b, fyb = _fact(comp, metric, base)
        except TruthError as exc:
            log.append(f"{q!r}: {exc}, question not written")
            continue
        value = (a["value"] - b["value"]) / b["value"] * 100
        calc = {"ticker": tk, "fiscal_year": fy, "metric": f"{metric.replace('_', ' ')} growth ({kind})",
                "value": format(round(value, 10).normalize(), "f"), "unit": "percent",
                "formula": "(quarter - base quarter) / base quarter", "inputs": [_input("quarter", a, fy), _input("base", b, fyb)],
                "concepts": _concepts(metric)}
        add("gr", n, {"class": f"growth_{kind}", "kind": "derived", "question": q, "expect": {"answer": "answer", "calc": calc}})

    for n, (q, tk, metric, end, prior_fy_end) in enumerate(TTM, start=1):
        comp = data[tk]
        try:
            calc = _ttm(comp, metric, _d(end), _d(prior_fy_end))
        except TruthError as exc:
            log.append(f"{q!r}: {exc}, question not written")
            continue
        add("ttm", n, {"class": "ttm", "kind": "derived", "question": q, "expect": {"answer": "answer", "calc": calc}})

    for n, (q, tk, metric, fy_end, ends) in enumerate(BY_QUARTER, start=1):
        comp = data[tk]
        fy = _fiscal_year(comp, _d(fy_end))
        try:
            nums = [_number(comp, metric, duration(comp, _concepts(metric), _d(e), THREE_MONTHS, slack=3), fy) for e in ends]
            q4 = fourth_quarter(comp, _concepts(metric), _d(fy_end))
        except TruthError as exc:
            log.append(f"{q!r}: {exc}, question not written")
            continue
        nums.append({"ticker": tk, "fiscal_year": fy, "value": _s(q4["value"]), "metric": f"Q4 {metric.replace('_', ' ')}",
                     "concepts": _concepts(metric), "derived": "fiscal year - nine months"})
        add("tab", n, {"class": "by_quarter", "kind": "trend", "question": q, "expect": {"answer": "answer", "numbers": nums}})

    for n, (q, tk, metric, cls) in enumerate(LATEST, start=1):
        comp = data[tk]
        try:
            fact = _latest_three_months(comp, metric)
        except TruthError as exc:
            log.append(f"{q!r}: {exc}, question not written")
            continue
        fy = _fiscal_year(comp, fact["end"])
        number = _number(comp, metric, fact, fy)
        if fact.get("derived"):
            number = {k: v for k, v in number.items() if k not in ("source_concept", "period_end")}
            number["derived"] = "fiscal year - nine months"
        add("lat", n, {"class": cls, "kind": "numeric", "question": q,
                       "expect": {"answer": "answer", "numbers": [number]}})

    for n, (q, tk, cls, note) in enumerate(REFUSE, start=1):
        add("ref", n, {"class": cls, "kind": "refusal", "question": q, "note": note,
                       "expect": {"answer": "refusal", "reason": "year_not_available", "reasons": ["no_grounding"],
                                  "names": QUARTER_NAMES, **_needs(tk)}})
    return out, log


def _fiscal_year(comp: Quarterly, end: date) -> int:
    """The company's fiscal-year label for a period ending then, counted in whole years from the
    fiscal year end its latest 10-Q implies (that quarter's end plus the quarters left)."""
    anchor = comp.tenq[-1]
    year_end = anchor["period_end"] + timedelta(days=round((4 - int(anchor["quarter"][1])) * 91.31))
    return anchor["fiscal_year"] + math.ceil(((end - year_end).days - 10) / 365.2425)


def _ttm(comp: Quarterly, metric: str, end: date, prior_fy_end: date) -> dict:
    concepts = _concepts(metric)
    year = duration(comp, concepts, prior_fy_end, (357, 378))
    ytd_days = (end - year["end"]).days
    span = SIX_MONTHS if ytd_days < 200 else NINE_MONTHS if ytd_days < 300 else THREE_MONTHS
    ytd = duration(comp, [year["concept"]], end, span)
    prior = duration(comp, [year["concept"]], year_before(end), span, slack=10)
    value = year["value"] + ytd["value"] - prior["value"]
    # the check: the last four quarters' sum, each quarter reported or the fourth derived
    quarters, cursor = [], end
    for _ in range(4):
        try:
            got = duration(comp, [year["concept"]], cursor, THREE_MONTHS, slack=10)
            quarters.append(got["value"])
            cursor = got["start"] - timedelta(days=1)
        except TruthError:
            closing = duration(comp, [year["concept"]], cursor, (357, 378), slack=10)
            quarters.append(fourth_quarter(comp, [year["concept"]], closing["end"])["value"])
            cursor = closing["end"] - timedelta(days=91)
    if sum(quarters) != value:
        raise TruthError(f"{comp.ticker}: TTM {value} differs from the four quarters' sum {sum(quarters)}")
    fy = _fiscal_year(comp, end)
    return {"ticker": comp.ticker, "fiscal_year": fy, "metric": f"TTM {metric.replace('_', ' ')}", "value": _s(value),
            "unit": "USD", "formula": "fiscal year + year to date - prior year to date",
            "inputs": [_input("fiscal year", year, fy - 1), _input("year to date", ytd, fy), _input("prior year to date", prior, fy - 1)],
            "concepts": concepts}


def main(argv: list[str] | None = None) -> int:
    from evals.make_shared import write_set

    return write_set(build, DATA / "quarterly.jsonl", __doc__.split("\n\n")[0], argv)


if __name__ == "__main__":
    sys.exit(main())
