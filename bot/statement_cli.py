"""`footnote statement TICKER FY income|balance|cash`: a whole statement as the filing prints it.

Why: "every line item the company reports" is easiest to trust when one can see the statement,
row labels in the company's words and every cell cited to its XBRL fact. Rows come from the
filing's own statement table (store.labels); each value is the fiscal year's fact by the rules of
store.facts (the latest filing that reports it).
"""

from __future__ import annotations

from decimal import Decimal

from agent.retrieval.finance import display_value
from store import facts as facts_store
from store import labels as labels_store

STATEMENTS = {"income": "income", "balance": "balance", "cash": "cash", "cashflow": "cash", "cash-flow": "cash"}


def register(sub) -> None:
    p = sub.add_parser("statement", help="a financial statement as the 10-K prints it, every cell cited")
    p.add_argument("ticker", help="the company's ticker, e.g. AAPL")
    p.add_argument("fiscal_year", type=int, help="the fiscal year, e.g. 2024")
    p.add_argument("which", choices=sorted(STATEMENTS), help="income, balance or cash")
    p.set_defaults(func=cmd_statement)


def render(conn, ticker: str, fiscal_year: int, which: str) -> str:
    row = labels_store.company_by_ticker(conn, ticker)
    if row is None:
        return f"{ticker.upper()} is not in the corpus."
    cik, name = row
    rows = labels_store.statement_rows(conn, cik, fiscal_year, STATEMENTS[which])
    # one row per concept: a balance printed at the top and the bottom of the cash-flow statement
    # is shown on its closing row (the fiscal year's instant is its end)
    keep = {r["concept"]: r for r in (rows if STATEMENTS[which] == "cash" else reversed(rows))}
    rows = [r for r in rows if keep[r["concept"]] is r]
    if not rows:
        return f"No {which} statement rows for {name} fiscal {fiscal_year} (ingest its 10-K, or run --refresh-labels)."
    lines, notes, width = [], [], max(len(r["label"]) for r in rows)
    for r in rows:
        fact = facts_store.annual_value(conn, cik, [r["concept"]], fiscal_year)
        if fact is None:
            lines.append(f"{r['label'].ljust(width)}  not reported")
            continue
        notes.append(f"[{len(notes) + 1}] {fact.qualified_concept}, period ended {fact.period_end} — {fact.url}")
        lines.append(f"{r['label'].ljust(width)}  {display_value(Decimal(fact.value), fact.unit):>20} [{len(notes)}]")
    return "\n".join([f"{name} ({ticker.upper()}) — {which} statement, fiscal {fiscal_year}", "", *lines, "", *notes])


def cmd_statement(args, settings) -> int:
    from store.cli import open_for

    with open_for(settings) as db, db.connection() as conn:
        print(render(conn, args.ticker, args.fiscal_year, args.which))
    return 0
