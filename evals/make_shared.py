"""Build evals/data/shared.jsonl: questions over the real corpus (../shared/sec) whose expected
numbers come from the filings' own inline XBRL and companyfacts (evals.xbrl_truth), never from
the agent.

    python -m evals.make_shared [--from ../shared/sec] [--out evals/data/shared.jsonl]

Qualitative questions and refusals are written by hand below (HAND); their evidence is given as
keywords that must all appear in the evidence chunk, never as sentences copied from the filings.
"""

from __future__ import annotations

import argparse
import json
import sys
from decimal import Decimal
from pathlib import Path

from evals.corpus import SHARED_CORPUS
from evals.sets import DATA
from evals.xbrl_truth import METRICS, collect, resolve, values_of

PHRASES = {
    "revenue": ["revenue", "total revenue", "sales", "revenues", "top line"],
    "net_income": ["net income", "profit", "net earnings", "net income"],
    "rnd": ["R&D", "r&d spend", "research and development", "R&D expense"],
    "total_assets": ["total assets", "assets"],
    "eps_diluted": ["diluted EPS", "diluted eps", "earnings per share (diluted)"],
    "operating_income": ["operating income", "op income", "income from operations"],
    "cash": ["cash and cash equivalents", "cash & equivalents", "cash on hand"],
    "gross_profit": ["gross profit", "GP"],
    "cost_of_revenue": ["cost of revenue", "cost of sales", "COGS"],
    "capex": ["capex", "capital expenditures"],
    "operating_cash_flow": ["operating cash flow", "cash from operations", "CFO"],
    "total_liabilities": ["total liabilities"],
}


# ---------------------------------------------------------------------------------------------
# Questions


SHORT = {
    "AAPL": "apple", "ABBV": "abbvie", "ABT": "abbott", "ADBE": "adobe", "AMD": "amd", "AMZN": "amazon", "BA": "boeing",
    "BMY": "bristol myers", "CL": "colgate", "CMCSA": "comcast", "CRM": "salesforce", "CSCO": "cisco", "GD": "general dynamics",
    "GE": "GE", "GM": "general motors", "GME": "gamestop", "GOOGL": "alphabet", "HD": "home depot", "INTC": "intel", "JCI": "johnson controls",
    "JNJ": "j&j", "KHC": "kraft heinz", "KO": "coca-cola", "LOW": "lowe's", "MA": "mastercard", "MCD": "mcdonald's", "MDT": "medtronic",
    "META": "meta", "NFLX": "netflix", "NKE": "nike", "NVDA": "nvidia", "PEP": "pepsico", "PG": "procter & gamble", "PLTR": "palantir",
    "RTX": "rtx", "SJM": "smucker", "TMO": "thermo fisher", "TSLA": "tesla", "TXN": "texas instruments", "UNH": "unitedhealth",
    "UNP": "union pacific", "V": "visa", "VZ": "verizon", "WBA": "walgreens", "WMT": "walmart",
}

NUMERIC_TEMPLATES = [
    "what was {who}'s {m} in FY{yy}?",
    "{tk} {m} fiscal {yyyy}",
    "{who} {m} for fiscal year {yyyy}",
    "how much {m} did {who} report in {yyyy}?",
    "{tk} FY{yyyy} {m}?",
]

# (ticker, metric, fiscal year): chosen to spread over calendar and non-calendar fiscal years.
NUMERIC_PICKS = [
    ("AAPL", "revenue", 2024), ("AAPL", "rnd", 2024), ("AAPL", "net_income", 2023), ("NVDA", "revenue", 2025),
    ("NVDA", "net_income", 2024), ("NVDA", "rnd", 2025), ("GOOGL", "revenue", 2024), ("GOOGL", "net_income", 2023),
    ("TSLA", "revenue", 2024), ("TSLA", "capex", 2023), ("WMT", "revenue", 2025), ("WMT", "total_assets", 2025),
    ("NKE", "revenue", 2025), ("NKE", "eps_diluted", 2024), ("META", "rnd", 2024), ("META", "operating_cash_flow", 2023),
    ("AMZN", "net_income", 2024), ("AMZN", "operating_income", 2023), ("V", "net_income", 2024), ("MA", "revenue", 2024),
    ("HD", "revenue", 2024), ("KO", "revenue", 2024), ("KO", "eps_diluted", 2023), ("PEP", "revenue", 2023),
    ("MCD", "net_income", 2023), ("INTC", "rnd", 2023), ("AMD", "revenue", 2023), ("CSCO", "revenue", 2024),
    ("CRM", "revenue", 2025), ("ADBE", "revenue", 2024), ("NFLX", "revenue", 2024), ("AAPL", "revenue", 2025),
    ("NVDA", "net_income", 2026), ("GOOGL", "revenue", 2025),
    ("PG", "net_income", 2025), ("UNH", "revenue", 2024), ("BA", "net_income", 2024), ("TXN", "cash", 2023),
    ("GME", "revenue", 2023), ("MDT", "rnd", 2024), ("LOW", "revenue", 2023), ("VZ", "total_assets", 2023),
]

# Written out by hand: fiscal years that end in another calendar year, names that are English
# words or shared, a net loss, and filers with two revenue concepts (total first).
TRAPS = [
    ("gamestop net income fiscal 2023", "GME", "net_income", 2023),  # ends 2024-02-03
    ("lowe's net earnings fy2023", "LOW", "net_income", 2023),  # ends 2024-02-02
    ("walgreens sales fiscal 2024", "WBA", "revenue", 2024),  # ends 2024-08-31
    ("smucker net income FY24", "SJM", "net_income", 2024),  # ends 2024-04-30
    ("C3.ai revenue fiscal 2024", "AI", "revenue", 2024),  # ticker AI is an English word
    ("medtronic revenue fy2024", "MDT", "revenue", 2024),  # ends 2024-04-26
    ("home depot net earnings for fiscal 2024", "HD", "net_income", 2024),  # 53 weeks, ends 2025-02-02
    ("nike revenues in fiscal 2024", "NKE", "revenue", 2024),  # ends 2024-05-31, from the FY2025 10-K
    ("johnson controls revenue fy2024", "JCI", "revenue", 2024),  # not "Johnson & Johnson"
    ("rocket companies net loss 2023", "RKT", "net_income", 2023),  # a loss: a negative figure
    ("general motors total revenue 2023", "GM", "revenue", 2023),  # Revenues beside the ASC 606 subset
    ("marathon digital revenue 2023", "MARA", "revenue", 2023),  # same
]

DERIVED = [
    # (ticker, fy, metric, question, formula over metrics)
    ("AAPL", 2024, "gross_margin", "apple gross margin fy24", ("gross_profit", "revenue", "pct")),
    ("NVDA", 2025, "gross_margin", "nvidia gross margin for fiscal 2025?", ("gross_profit", "revenue", "pct")),
    ("NVDA", 2025, "revenue_growth", "how fast did nvidia revenue grow in fiscal 2025?", ("revenue", "revenue@-1", "growth")),
    ("AAPL", 2024, "rnd_pct_revenue", "AAPL R&D as % of revenue FY2024", ("rnd", "revenue", "pct")),
    ("GOOGL", 2024, "net_margin", "alphabet net margin 2024", ("net_income", "revenue", "pct")),
    ("META", 2024, "free_cash_flow", "meta free cash flow 2024", ("operating_cash_flow", "capex", "minus")),
    ("TSLA", 2024, "revenue_growth", "tesla revenue growth yoy 2024", ("revenue", "revenue@-1", "growth")),
    ("WMT", 2025, "operating_margin", "walmart operating margin FY25", ("operating_income", "revenue", "pct")),
    ("KO", 2024, "net_margin", "coca cola net margin 2024", ("net_income", "revenue", "pct")),
    ("AAPL", 2024, "free_cash_flow", "apple FCF fiscal 24", ("operating_cash_flow", "capex", "minus")),
    ("NKE", 2025, "revenue_growth", "nike revenue growth fiscal 2025", ("revenue", "revenue@-1", "growth")),
    ("PEP", 2023, "current_ratio", "pepsico current ratio 2023", ("current_assets", "current_liabilities", "ratio")),
]

COMPARE = [
    (["AAPL", "NVDA"], "rnd", None, "compare R&D: apple fy2024 vs nvidia fy2025", {"AAPL": 2024, "NVDA": 2025}),
    (["KO", "PEP"], "revenue", 2023, "coke vs pepsi revenue 2023", None),
    (["AMZN", "GOOGL", "META"], "net_income", 2024, "net income 2024: AMZN, GOOGL, META", None),
    (["HD", "LOW"], "revenue", 2023, "home depot vs lowes sales fiscal 2023", None),
    (["V", "MA"], "revenue", 2024, "visa vs mastercard revenue FY2024", None),
    (["INTC", "AMD", "TXN"], "rnd", 2023, "r&d spend intel amd texas instruments 2023", None),
]

# Per-share data after a stock split, and a question naming the filing (the agent must answer
# from that filing, not the most recent one): (ticker, metric, fy, filing fy or None, question).
AS_FILED = [
    ("NVDA", "eps_diluted", 2024, None, "nvidia diluted EPS fiscal 2024"),
    ("NVDA", "eps_diluted", 2024, 2024, "NVDA diluted eps for fiscal 2024 per the FY2024 10-K"),
    ("GOOGL", "eps_diluted", 2023, None, "alphabet diluted earnings per share 2023"),
]

TREND = [
    ("AAPL", "revenue", [2022, 2023, 2024], "apple revenue trend fy2022-fy2024"),
    ("NVDA", "revenue", [2023, 2024, 2025], "nvidia revenue fiscal 2023 through 2025"),
    ("AAPL", "net_income", [2023, 2024, 2025], "apple net income over the last three fiscal years",),
    ("TSLA", "net_income", [2022, 2023, 2024], "tesla net income 2022 to 2024"),
    ("GOOGL", "rnd", [2022, 2023, 2024], "how has alphabet's R&D changed 2022-2024"),
    ("WMT", "revenue", [2023, 2024, 2025], "walmart revenue FY23 through FY25"),
    ("META", "operating_income", [2022, 2023, 2024], "meta operating income trend 2022-2024"),
]

# Written by hand after reading the filings: evidence as keywords (never filing sentences).
HAND = [
    {"id": "s-qual-01", "kind": "qualitative", "question": "what does apple say about supply concentration risk in its FY2024 10-K?",
     "expect": {"answer": "answer", "evidence": [{"ticker": "AAPL", "fiscal_year": 2024, "item": "1A", "keywords": ["single or limited sources", "pricing risks"]}]}},
    {"id": "s-qual-02", "kind": "qualitative", "question": "nvidia export controls risk fy2025, esp. the AI diffusion rule",
     "expect": {"answer": "answer", "evidence": [{"ticker": "NVDA", "fiscal_year": 2025, "item": "1A", "keywords": ["export controls", "AI Diffusion"]}]}},
    {"id": "s-qual-03", "kind": "qualitative", "question": "how does tesla manage cybersecurity risk? (2024 10-K)",
     "expect": {"answer": "answer", "evidence": [{"ticker": "TSLA", "fiscal_year": 2024, "item": "1C", "keywords": ["cybersecurity risk", "overall risk management"]}]}},
    {"id": "s-qual-04", "kind": "qualitative", "question": "Walmart FY2025 MD&A: why did operating expenses as a % of net sales go up?",
     "expect": {"answer": "answer", "evidence": [{"ticker": "WMT", "fiscal_year": 2025, "item": "7", "keywords": ["operating expenses as a percentage of net sales", "variable pay"]}]}},
    {"id": "s-qual-05", "kind": "qualitative", "question": "what does alphabet say about the EU AI Act in its 2024 risk factors",
     "expect": {"answer": "answer", "evidence": [{"ticker": "GOOGL", "fiscal_year": 2024, "item": "1A", "keywords": ["EU AI Act"]}]}},
    {"id": "s-qual-06", "kind": "qualitative", "question": "nike fiscal 2025: how does it hedge foreign currency exposure?",
     "expect": {"answer": "answer", "evidence": [{"ticker": "NKE", "fiscal_year": 2025, "item": "7A", "keywords": ["foreign currency cash flow hedges"]},
                                                 {"ticker": "NKE", "fiscal_year": 2025, "item": "7A", "keywords": ["hedging policies"]},
                                                 {"ticker": "NKE", "fiscal_year": 2025, "item": "1A", "keywords": ["foreign currency exposures", "lessen and delay"]}]},
     "note": "Item 7A holds the hedging program; the risk factor says the same in brief"},
    {"id": "s-qual-07", "kind": "qualitative", "question": "what does boeing's 2024 md&a say about certifying the 737-7 and 737-10?",
     "expect": {"answer": "answer", "evidence": [{"ticker": "BA", "fiscal_year": 2024, "item": "7", "keywords": ["737-7", "737-10", "certify"]}]}},
    {"id": "s-qual-08", "kind": "qualitative", "question": "who does visa's CISO report to? fy2024",
     "expect": {"answer": "answer", "evidence": [{"ticker": "V", "fiscal_year": 2024, "item": "1C", "keywords": ["CISO reports directly", "President of Technology"]}]}},
    {"id": "s-qual-09", "kind": "qualitative", "question": "what does Netflix say about piracy as competition? 2024",
     "expect": {"answer": "answer", "evidence": [{"ticker": "NFLX", "fiscal_year": 2024, "item": "1A", "keywords": ["piracy", "compete"]},
                                                 {"ticker": "NFLX", "fiscal_year": 2024, "item": "1", "keywords": ["pirated content"]}]},
     "note": "the risk factor on piracy, or Item 1's competition paragraph that names pirated content"},
    {"id": "s-qual-10", "kind": "qualitative", "question": "how does apple describe the iphone line in item 1, fy24",
     "expect": {"answer": "answer", "evidence": [{"ticker": "AAPL", "fiscal_year": 2024, "item": "1", "keywords": ["line of smartphones", "iOS"]}]}},
    {"id": "s-qual-11", "kind": "qualitative", "question": "What interest rate risk does Home Depot disclose in fiscal 2024?",
     "expect": {"answer": "answer", "evidence": [{"ticker": "HD", "fiscal_year": 2024, "item": "7A", "keywords": ["interest rate risk", "interest rate swap agreements"]}]}},
    {"id": "s-qual-12", "kind": "qualitative", "question": "J&J talc litigation risk FY2024",
     "expect": {"answer": "answer", "evidence": [{"ticker": "JNJ", "fiscal_year": 2024, "item": "1A", "keywords": ["talc", "Baby Powder"]},
                                                 {"ticker": "JNJ", "fiscal_year": 2024, "item": "8", "keywords": ["talc", "litigation"]}]},
     "note": "the risk factor, or the legal-proceedings note in Item 8 that details the talc litigation"},
    {"id": "s-qual-13", "kind": "qualitative", "question": "what are meta's risks around reality labs and the metaverse? fy2024",
     "expect": {"answer": "answer", "evidence": [{"ticker": "META", "fiscal_year": 2024, "item": "1A", "keywords": ["Reality Labs", "metaverse"]}]}},
    {"id": "s-qual-14", "kind": "qualitative", "question": "coca-cola ingredient supply risk with its bottlers, 2024 10-K",
     "expect": {"answer": "answer", "evidence": [{"ticker": "KO", "fiscal_year": 2024, "item": "1A", "keywords": ["bottling partners", "sole supplier"]}]}},
    {"id": "s-qual-15", "kind": "qualitative", "question": "how much did the 53rd week add to home depot's sales in fiscal 2024?",
     "expect": {"answer": "answer", "evidence": [{"ticker": "HD", "fiscal_year": 2024, "item": "7", "keywords": ["53rd week", "net sales"]}]}},
    {"id": "s-qual-16", "kind": "qualitative", "question": "PEP water scarcity risk (FY2023)",
     "expect": {"answer": "answer", "evidence": [{"ticker": "PEP", "fiscal_year": 2023, "item": "1A", "keywords": ["water scarcity"]}]}},
    {"id": "s-qual-17", "kind": "qualitative", "question": "what happened with the change healthcare cyberattack at unitedhealth in 2024?",
     "expect": {"answer": "answer", "evidence": [{"ticker": "UNH", "fiscal_year": 2024, "item": "7", "keywords": ["Change Healthcare", "cyber"]},
                                                 {"ticker": "UNH", "fiscal_year": 2024, "item": "1A", "keywords": ["Change Healthcare", "cyberattack"]}]}},
    {"id": "s-qual-18", "kind": "qualitative", "question": "mcdonald's risks from franchisees hurting the brand, 2023",
     "expect": {"answer": "answer", "evidence": [{"ticker": "MCD", "fiscal_year": 2023, "item": "1A", "keywords": ["franchisees", "brand"]}]}},
    {"id": "s-qual-19", "kind": "qualitative", "question": "boeing quality issues after the alaska airlines 737-9 accident (2024 10-K)",
     "expect": {"answer": "answer", "evidence": [{"ticker": "BA", "fiscal_year": 2024, "item": i, "keywords": ["Alaska Airlines"]} for i in ("1A", "1", "7")]},
     "note": "the accident and its consequences are told in Items 1, 1A and 7"},
    {"id": "s-qual-20", "kind": "qualitative", "question": "intel foundry business risks fy2023",
     "expect": {"answer": "answer", "evidence": [{"ticker": "INTC", "fiscal_year": 2023, "item": "1A", "keywords": ["foundry", "TSMC"]}]}},
    {"id": "s-qual-21", "kind": "qualitative", "question": "visa interchange regulation risk, fiscal 2024",
     "expect": {"answer": "answer", "evidence": [{"ticker": "V", "fiscal_year": 2024, "item": "1A", "keywords": ["interchange reimbursement"]}]}},
    {"id": "s-qual-22", "kind": "qualitative", "question": "how does cisco describe splunk in its fy2024 business section?",
     "expect": {"answer": "answer", "evidence": [{"ticker": "CSCO", "fiscal_year": 2024, "item": "1", "keywords": ["Splunk"]}]}},
    {"id": "s-qual-23", "kind": "qualitative", "question": "what does tesla's 2024 10-K say it expects for capex in 2025?",
     "expect": {"answer": "answer", "evidence": [{"ticker": "TSLA", "fiscal_year": 2024, "item": "7", "keywords": ["expect our capital expenditures"]}]},
     "note": "the filing's own stated plan, quoted: not a forecast of ours"},
    {"id": "s-qual-24", "kind": "qualitative", "question": "how much did tesla spend on capex in 2024 and on what?",
     "expect": {"answer": "answer", "numbers": [{"ticker": "TSLA", "fiscal_year": 2024, "value": "11339000000", "metric": "capex",
                                                 "concepts": ["us-gaap:PaymentsToAcquirePropertyPlantAndEquipment", "us-gaap:PaymentsToAcquireProductiveAssets"]}],
                "evidence": [{"ticker": "TSLA", "fiscal_year": 2024, "item": "7", "keywords": ["capital expenditures"]}]},
     "note": "compound: the figure from XBRL, the uses from MD&A"},
    {"id": "s-ref-01", "kind": "refusal", "question": "microsoft revenue fy2024", "expect": {"answer": "refusal", "reason": "not_covered", "reasons": ["year_not_available"]},
     "note": "MSFT is in SEC's ticker map and has a submissions file, but no 10-K document in the corpus"},
    {"id": "s-ref-02", "kind": "refusal", "question": "exxon's net income 2023", "expect": {"answer": "refusal", "reason": "not_covered"}},
    {"id": "s-ref-03", "kind": "refusal", "question": "coca cola revenue in 2015", "expect": {"needs": ["KO"], "answer": "refusal", "reason": "year_not_available"}},
    {"id": "s-ref-04", "kind": "refusal", "question": "what is NVDA's EBITDA for fiscal 2025?", "expect": {"needs": ["NVDA"], "answer": "refusal", "reason": "unknown_metric"}},
    {"id": "s-ref-05", "kind": "refusal", "question": "should I buy tesla stock?", "expect": {"answer": "refusal", "reason": "out_of_scope"}},
    {"id": "s-ref-06", "kind": "refusal", "question": "apple share price today", "expect": {"answer": "refusal", "reason": "out_of_scope"}},
    {"id": "s-ref-07", "kind": "refusal", "question": "what's Zorblax Corp's revenue?", "expect": {"answer": "refusal", "reason": "no_company"}},
    {"id": "s-ref-08", "kind": "refusal", "question": "forecast amazon revenue for 2026", "expect": {"answer": "refusal", "reason": "out_of_scope"}},
    {"id": "s-ref-09", "kind": "refusal", "question": "salesforce ARR fiscal 2025", "expect": {"needs": ["CRM"], "answer": "refusal", "reason": "unknown_metric"}},
    {"id": "s-ref-10", "kind": "refusal", "question": "What was General's revenue in 2023?", "expect": {"needs": ["GD", "GE", "GM"], "answer": "refusal", "reason": "ambiguous_company"},
     "note": "General Dynamics, General Electric and General Motors are all covered"},
    {"id": "s-ref-11", "kind": "refusal", "question": "johnson net income 2023", "expect": {"needs": ["JNJ", "JCI"], "answer": "refusal", "reason": "ambiguous_company"},
     "note": "Johnson & Johnson and Johnson Controls are both covered"},
    {"id": "s-ref-12", "kind": "refusal", "question": "IBM revenue 2023", "expect": {"needs": ["IBM"], "answer": "refusal", "reason": "no_grounding", "reasons": ["year_not_available"]},
     "note": "IBM's statements are in an annual-report exhibit the corpus does not hold: no revenue fact to cite"},
    {"id": "s-ref-13", "kind": "refusal", "question": "wells fargo net income fy2024", "expect": {"needs": ["WFC"], "answer": "refusal", "reason": "no_grounding", "reasons": ["year_not_available"]},
     "note": "same: Wells Fargo's statements are in an exhibit"},
    {"id": "s-meta-01", "kind": "meta", "question": "which companies do you cover?", "expect": {"needs": ["AAPL", "NVDA", "WMT"], "answer": "meta", "mentions": ["AAPL", "NVDA", "WMT"]}},
]


def _pct(a: Decimal, b: Decimal) -> Decimal:
    return a / b * 100


def build(corpus: Path) -> tuple[list[dict], list[str]]:
    data = collect(corpus)
    values, log = values_of(data)
    out: list[dict] = []

    def value(ticker, metric, fy):
        return values.get((ticker, metric, fy))

    def expected(ticker, metric, fy):
        v = value(ticker, metric, fy)
        if v is None:
            return None
        return {"ticker": ticker, "fiscal_year": fy, "value": v["value"], "metric": metric,
                "concepts": [f"us-gaap:{c}" for c in METRICS[metric]], "source_filing_fy": v["filing_fy"],
                "source_concept": f"us-gaap:{v['concept']}", "tags": v["tags"]}

    for i, (ticker, metric, fy) in enumerate(NUMERIC_PICKS):
        exp = expected(ticker, metric, fy)
        if exp is None:
            log.append(f"numeric {ticker} {metric} FY{fy}: no unambiguous fact, question not written")
            continue
        phrase = PHRASES[metric][i % len(PHRASES[metric])]
        who = SHORT.get(ticker, data[ticker]["name"])
        q = NUMERIC_TEMPLATES[i % len(NUMERIC_TEMPLATES)].format(who=who, tk=ticker if i % 2 else ticker.lower(), m=phrase, yy=str(fy)[2:], yyyy=fy)
        out.append({"id": f"s-num-{len(out) + 1:02d}", "kind": "numeric", "question": q, "expect": {"answer": "answer", "numbers": [exp]}})

    for n, (question, ticker, metric, fy) in enumerate(TRAPS, start=1):
        exp = expected(ticker, metric, fy)
        if exp is None:
            log.append(f"trap {ticker} {metric} FY{fy}: no unambiguous fact, question not written")
            continue
        out.append({"id": f"s-trap-{n:02d}", "kind": "numeric", "question": question, "tags": ["fy-trap" if "fiscal" in question or "fy" in question.lower() else "name"],
                    "expect": {"answer": "answer", "numbers": [exp]}})

    n = 0
    for ticker, fy, metric, question, formula in DERIVED:
        if formula is None:
            continue
        a_metric, b_metric, op = formula
        a = value(ticker, a_metric, fy)
        b_fy = fy - 1 if b_metric.endswith("@-1") else fy
        b = value(ticker, b_metric.split("@")[0], b_fy)
        if a is None or b is None:
            log.append(f"derived {ticker} {metric} FY{fy}: inputs missing, question not written")
            continue
        av, bv = Decimal(a["value"]), Decimal(b["value"])
        if op == "pct":
            result, unit = _pct(av, bv), "percent"
        elif op == "growth":
            result, unit = _pct(av - bv, bv), "percent"
        elif op == "minus":
            result, unit = av - bv, "USD"
        else:
            result, unit = av / bv, "ratio"
        n += 1
        concepts = [f"us-gaap:{c}" for c in METRICS[a_metric] + METRICS[b_metric.split("@")[0]]]
        out.append({"id": f"s-der-{n:02d}", "kind": "derived", "question": question, "expect": {
            "answer": "answer", "calc": {"ticker": ticker, "fiscal_year": fy, "metric": metric, "value": str(round(result, 10)), "unit": unit, "concepts": concepts}}})

    for n, (tickers, metric, fy, question, years) in enumerate(COMPARE, start=1):
        nums = [expected(t, metric, (years or {}).get(t, fy)) for t in tickers]
        if any(x is None for x in nums):
            log.append(f"compare {tickers} {metric}: a value is missing, question not written")
            continue
        out.append({"id": f"s-cmp-{n:02d}", "kind": "compare", "question": question, "expect": {"answer": "answer", "numbers": nums}})

    for n, (ticker, metric, fy, filing_fy, question) in enumerate(AS_FILED, start=1):
        obs = data.get(ticker, {}).get("obs", {}).get((metric, fy), [])
        if filing_fy is not None:
            obs = [o for o in obs if o["filing_fy"] == filing_fy]
        record, note = resolve(metric, obs) if obs else (None, "no observation")
        if record is None:
            log.append(f"as-filed {ticker} {metric} FY{fy}: {note}, question not written")
            continue
        exp = {"ticker": ticker, "fiscal_year": fy, "value": record["value"], "metric": metric,
               "concepts": [f"us-gaap:{c}" for c in METRICS[metric]], "source_filing_fy": record["filing_fy"], "tags": record["tags"]}
        if filing_fy is not None:
            exp["filing_fy"] = filing_fy  # the question names this filing: its citation must be to it
        out.append({"id": f"s-split-{n:02d}", "kind": "numeric", "question": question, "tags": ["restatement"],
                    "expect": {"answer": "answer", "numbers": [exp]}})

    for n, (ticker, metric, years, question) in enumerate(TREND, start=1):
        nums = [expected(ticker, metric, y) for y in years]
        if any(x is None for x in nums):
            log.append(f"trend {ticker} {metric} {years}: a value is missing, question not written")
            continue
        out.append({"id": f"s-trd-{n:02d}", "kind": "trend", "question": question, "expect": {"answer": "answer", "numbers": nums}})

    out += HAND
    return out, log


def write_set(build, default_out: Path, description: str, argv: list[str] | None = None) -> int:
    """The command line of a set generator: read the corpus, write the set's JSONL, list what was left out."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--from", dest="corpus", type=Path, default=SHARED_CORPUS, help="the real corpus folder")
    p.add_argument("--out", type=Path, default=default_out, help=f"where the set is written (default {default_out})")
    args = p.parse_args(argv)
    if not args.corpus.exists():
        print(f"no corpus at {args.corpus}", file=sys.stderr)
        return 2
    questions, log = build(args.corpus)
    with open(args.out, "w", encoding="utf-8") as fh:
        for q in questions:
            fh.write(json.dumps(q, ensure_ascii=False) + "\n")
    for line in log:
        print("note:", line, file=sys.stderr)
    print(f"wrote {len(questions)} lines to {args.out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    return write_set(build, DATA / "shared.jsonl", __doc__.split("\n\n")[0], argv)


if __name__ == "__main__":
    sys.exit(main())
