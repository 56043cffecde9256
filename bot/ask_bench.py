"""`footnote bench ask`: latency of the deterministic path per question kind, beside its floor.

Questions are generated from what the database holds (covered companies, their fiscal years,
the metrics that have facts, their filings' Items), so the run works on any ingested corpus.
The floor is the bare work each answer needs, measured in the same run right after it: the fact
lookups for numbers, the query embedding plus the scoped hybrid search for prose. The graph's
overhead is everything else: planning, checkpoint writes, connection handling, composing and
checking.
"""

from __future__ import annotations

import json
import random
import statistics
import time
import uuid
from pathlib import Path

from store import inventory

KINDS = ("numeric", "derived", "compare", "trend", "qualitative", "quarterly")
# Quarter questions, asked of each company's latest quarters held (agent.retrieval.quarter_figures).
QUARTERLY = [
    ("revenue", "What was {name}'s revenue in Q{q} FY{fy}?"),
    ("net_income", "{name} net income for the {ordinal} quarter of fiscal {fy}"),
    ("revenue_growth", "{name} Q{q} FY{fy} revenue growth year over year"),
    ("revenue", "{name} revenue last quarter"),
    ("revenue", "{name} trailing twelve months revenue as of Q{q} FY{fy}"),
]

METRIC_PHRASES = {
    "revenue": "revenue", "net_income": "net income", "rd": "R&D expense", "operating_income": "operating income",
    "eps_diluted": "diluted EPS", "total_assets": "total assets", "cash": "cash and cash equivalents",
    "operating_cash_flow": "operating cash flow", "gross_profit": "gross profit",
}
DERIVED_PHRASES = {"gross_margin": "gross margin", "operating_margin": "operating margin", "net_margin": "net margin",
                   "free_cash_flow": "free cash flow", "revenue_growth": "revenue growth",
                   "rd_pct_revenue": "R&D as a percentage of revenue"}
QUALITATIVE = [
    ("1A", "What are {name}'s main risk factors?"),
    ("1C", "How does {name} manage cybersecurity risk?"),
    ("1", "What does {name} say about competition in its business?"),
    ("7", "What drove {name}'s results of operations in fiscal {fy}?"),
    ("1A", "What supply chain risks does {name} describe in its fiscal {fy} 10-K?"),
    ("7A", "How is {name} exposed to interest rate and foreign currency risk?"),
]



def register(bench_sub) -> None:
    p = bench_sub.add_parser("ask", help="latency of answers per question kind, beside the bare queries (the floor)")
    p.add_argument("--from", dest="source", type=Path, default=None,
                   help="a folder in SEC's layout; ingested first if the database does not hold it yet")
    p.add_argument("--questions", type=int, default=300, help="how many questions to generate (default 300)")
    p.add_argument("--out", type=Path, default=Path("bench-results/ask.json"),
                   help="where the figures are written (default bench-results/ask.json)")
    p.add_argument("--seed", type=int, default=7, help="seed for picking the questions (default 7)")
    p.set_defaults(func=cmd_bench_ask)


def generate(conn, n: int, seed: int = 7) -> list[dict]:
    """Questions over the corpus, spread across kinds; each knows the scope its floor queries use.

    Each kind draws from its own generator, seeded by the seed and the kind: a checkout that can answer
    one more numeric question must not change which prose questions two runs compare."""
    from agent.retrieval.metric_facts import metric_value

    companies = [
        {"cik": int(cik), "ticker": t, "name": _short(name), "years": list(years)}
        for cik, t, name, years in inventory.companies_with_years(conn)
    ]
    pool: dict[str, list[dict]] = {k: [] for k in KINDS}
    for c in companies:
        items = inventory.items_of_company(conn, c["cik"])
        for fy in c["years"]:
            have = [m for m in METRIC_PHRASES if metric_value(conn, c["cik"], m, fy) is not None]
            for m in have:
                pool["numeric"].append({"kind": "numeric", "text": f"What was {c['name']}'s {METRIC_PHRASES[m]} in fiscal {fy}?",
                                        "cik": c["cik"], "fy": fy, "metrics": [m]})
            for key, phrase in DERIVED_PHRASES.items():
                pool["derived"].append({"kind": "derived", "text": f"What was {c['name']}'s {phrase} in fiscal {fy}?",
                                        "cik": c["cik"], "fy": fy, "metrics": [key]})
            if "revenue" in have:
                pool["trend"].append({"kind": "trend", "text": f"{c['name']} revenue from fiscal {fy - 2} to {fy}",
                                      "cik": c["cik"], "fy": fy, "metrics": ["revenue"], "years": [fy - 2, fy - 1, fy]})
            for item, template in QUALITATIVE:
                accs = [a for y, a, i in items if y == fy and i == item]
                if accs:
                    pool["qualitative"].append({"kind": "qualitative", "text": template.format(name=c["name"], fy=fy),
                                                "cik": c["cik"], "fy": fy, "accession": accs[0]})
    _quarterly(conn, companies, pool)
    pairs = random.Random(f"{seed}:pairs")
    for _ in range(200):
        if len(companies) < 2:
            break
        a, b = pairs.sample(companies, 2)
        fy = max(set(a["years"]) & set(b["years"]), default=None)
        if fy is None:
            continue
        pool["compare"].append({"kind": "compare", "text": f"Compare revenue of {a['name']} and {b['name']} in fiscal {fy}",
                                "ciks": [a["cik"], b["cik"]], "fy": fy, "metrics": ["revenue"]})
    per_kind = max(1, n // len(KINDS))
    questions = []
    for kind in KINDS:
        items = pool[kind]
        random.Random(f"{seed}:{kind}").shuffle(items)
        questions.extend(items[:per_kind])
    random.Random(f"{seed}:order").shuffle(questions)
    return questions


def _quarterly(conn, companies: list[dict], pool: dict) -> None:
    """Quarter questions about each company's last four quarters held (reported or derived)."""
    from agent.retrieval.quarter_figures import calendar_periods
    from agent.retrieval.quarters import ORDINAL

    for c in companies:
        for fy, q, _ in calendar_periods(conn, {}, c["cik"]).three_month_ends()[-4:]:
            for metric, template in QUARTERLY:
                pool["quarterly"].append({"kind": "quarterly", "cik": c["cik"], "fy": fy, "metrics": [metric],
                                          "text": template.format(name=c["name"], q=q, fy=fy, ordinal=ORDINAL[q])})


def _short(name: str) -> str:
    for suffix in (", Inc.", " Inc.", " Inc", " Corporation", " CORPORATION", " CORP", " Corp.", " Co.", ", INC."):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def floor_ms(footnote, question: dict, answer) -> float:
    """The same bare queries the answer needed, timed on their own."""
    from agent.retrieval.finance import FORMULAS
    from store import chunks as chunk_store
    from agent.retrieval.metric_facts import metric_value

    start = time.perf_counter()
    plan = answer.plan or {}
    with footnote.db.connection() as conn:
        if question["kind"] == "quarterly":  # the company's calendar and the metric's every period
            from agent.retrieval.concepts import METRICS
            from agent.retrieval.quarter_figures import CALENDAR_CONCEPTS
            from store import quarters as quarters_store

            quarters_store.period_facts(conn, question["cik"], CALENDAR_CONCEPTS)
            metric = METRICS[question["metrics"][0].removesuffix("_growth")]
            quarters_store.period_facts(conn, question["cik"], list(metric.concepts), metric.unit)
        elif question["kind"] == "qualitative":
            queries = plan.get("sub_queries") or [plan.get("query") or question["text"]]
            embeddings = footnote.embedder.embed(queries)
            chunk_store.search(conn, queries, embeddings, cik=question["cik"], accessions=[question["accession"]],
                               items=plan.get("items") or None)
        else:
            ciks = question.get("ciks") or [question["cik"]]
            years = question.get("years") or [question["fy"]]
            for cik in ciks:
                for fy in years:
                    for key in question["metrics"]:
                        if key in FORMULAS:
                            for inp in FORMULAS[key].inputs:
                                metric_value(conn, cik, inp.metric, fy + inp.offset)
                        else:
                            metric_value(conn, cik, key, fy)
    return (time.perf_counter() - start) * 1000


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return round(ordered[index], 2)


def cmd_bench_ask(args, settings) -> int:
    from agent.answer import Turn
    from bot.wiring import open_footnote

    with open_footnote(settings.model_copy(update={"llm": "off"}), use_cache=False) as footnote:
        with footnote.db.connection() as conn:
            empty = inventory.filing_count(conn) == 0
        if args.source and empty:
            from ingest.pipeline import ingest_folder

            print(f"ingesting {args.source} first...")
            ingest_folder(footnote.db, footnote.embedder, args.source, progress=True)
        with footnote.db.connection() as conn:
            questions = generate(conn, args.questions, args.seed)
        if not questions:
            print("footnote bench ask: the database holds no filings; run `footnote ingest --from ...` first")
            return 2
        for q in questions[:5]:  # warm-up: model weights, plans, connections
            footnote.answer(Turn(thread_key=f"bench:warm:{uuid.uuid4().hex}", user="bench", text=q["text"]))
        rows = []
        for q in questions:
            start = time.perf_counter()
            answer = footnote.answer(Turn(thread_key=f"bench:{uuid.uuid4().hex}", user="bench", text=q["text"]))
            total = (time.perf_counter() - start) * 1000
            rows.append({"kind": q["kind"], "total_ms": total, "floor_ms": floor_ms(footnote, q, answer),
                         "answered": answer.kind == "answer", "refusal": answer.refusal_reason,
                         "nodes": {k: v for k, v in answer.timings.items() if k != "total"}})
    report = summarize(rows)
    report["questions"] = len(rows)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(format_report(report))
    print(f"written to {args.out}")
    return 0


def summarize(rows: list[dict]) -> dict:
    kinds = {}
    for kind in KINDS:
        mine = [r for r in rows if r["kind"] == kind]
        if not mine:
            continue
        totals = [r["total_ms"] for r in mine]
        floors = [r["floor_ms"] for r in mine]
        nodes: dict[str, list[float]] = {}
        for r in mine:
            for node, ms in r["nodes"].items():
                nodes.setdefault(node, []).append(ms)
        kinds[kind] = {
            "n": len(mine),
            "answered": sum(r["answered"] for r in mine),
            "refusals": {reason: sum(1 for r in mine if r["refusal"] == reason) for reason in {r["refusal"] for r in mine} if reason},
            "p50_ms": _pct(totals, 0.5),
            "p95_ms": _pct(totals, 0.95),
            "floor_p50_ms": _pct(floors, 0.5),
            "floor_p95_ms": _pct(floors, 0.95),
            "overhead_x_p50": round(_pct(totals, 0.5) / max(_pct(floors, 0.5), 0.01), 2),
            "node_p50_ms": {node: _pct(v, 0.5) for node, v in nodes.items()},
        }
    return {"kinds": kinds, "mean_ms": round(statistics.fmean(r["total_ms"] for r in rows), 2) if rows else 0}


def format_report(report: dict) -> str:
    lines = [f"{'kind':<12} {'n':>4} {'ok':>4} {'p50':>8} {'p95':>8} {'floor p50':>10} {'floor p95':>10} {'x floor':>8}"]
    for kind, k in report["kinds"].items():
        lines.append(
            f"{kind:<12} {k['n']:>4} {k['answered']:>4} {k['p50_ms']:>6.1f}ms {k['p95_ms']:>6.1f}ms "
            f"{k['floor_p50_ms']:>8.1f}ms {k['floor_p95_ms']:>8.1f}ms {k['overhead_x_p50']:>7.2f}x"
        )
    return "\n".join(lines)
