"""Scratch (not committed): golden/threads numeric expectations through plan_rules + store.facts + finance."""
import json
from decimal import Decimal
from pathlib import Path

from agent.companies import CompanyDirectory
from agent.concepts import METRICS
from agent.finance import FORMULAS, Operand, calculate
from agent.plan_rules import plan_rules
from store.facts import available_fiscal_years, metric_value


def resolve_years(conn, cik, plan):
    avail = available_fiscal_years(conn, cik)
    if plan.latest or not plan.fiscal_years:
        return [avail[-1] + o for o in (plan.year_offsets or [0])]
    return plan.fiscal_years


def value(conn, cik, key, fy):
    if key in METRICS:
        f = metric_value(conn, cik, key, fy)
        return f.value if f else None
    f = FORMULAS[key]
    ops = []
    for i in f.inputs:
        v = metric_value(conn, cik, i.metric, fy + i.offset)
        if v is None:
            return value(conn, cik, f.fallback, fy) if f.fallback else None
        ops.append(Operand(v.value, v.unit, fy + i.offset))
    return calculate(key, ops).value


def test_golden(corpus_db):
    bad = []
    with corpus_db.connection() as conn:
        d = CompanyDirectory.load(conn)
        cases = [json.loads(l) for l in open(Path("evals/data/golden.jsonl"))]
        for t in [json.loads(l) for l in open(Path("evals/data/threads.jsonl"))]:
            prev = None
            for turn in t["turns"]:
                cases.append({"id": t["id"], "question": turn["question"], "expect": turn["expect"], "prev": prev})
                p = plan_rules(turn["question"], previous=prev, directory=d)
                if p.route != "meta" and p.refusal_reason != "out_of_scope":
                    prev = p
        for c in cases:
            exp = c["expect"]
            p = plan_rules(c["question"], previous=c.get("prev"), directory=d)
            nums = exp.get("numbers", [])
            calc = exp.get("calc")
            for n in nums + ([calc] if calc else []):
                if n["ticker"] not in p.tickers:
                    bad.append((c["id"], c["question"], "ticker", n["ticker"], p.tickers)); continue
                cik = d.get(n["ticker"]).cik
                keys = [k for k in p.metrics if k == n.get("metric") or (k in METRICS and set(METRICS[k].concepts) & set(n.get("concepts", [])))]
                if not keys:
                    bad.append((c["id"], c["question"], "metric", n.get("metric"), p.metrics)); continue
                years = resolve_years(conn, cik, p)
                if n["fiscal_year"] not in years:
                    bad.append((c["id"], c["question"], "year", n["fiscal_year"], years)); continue
                got = value(conn, cik, keys[0], n["fiscal_year"])
                if got is None or Decimal(str(got)) != Decimal(n["value"]):
                    bad.append((c["id"], c["question"], "value", n["value"], got, keys[0]))
    print()
    for b in bad:
        print(b)
    print(len(bad), "problems")
