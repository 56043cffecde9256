"""The concierge: greetings, thanks, goodbyes, help, what Footnote is, and coverage. It never answers a domain question.

Only the planner decides a turn is meta; this node then answers from fixed text and the store's
coverage, so nothing here can carry a financial figure. Example questions name only companies and
years the store holds: an example the bot would refuse teaches the wrong thing.
"""

from __future__ import annotations

import re

from agent.answer import Answer
from agent.state import plan_of
from store import coverage as coverage_store
from store.coverage import plural, years_text

INTRO = (
    "I answer questions about US public companies from their 10-K and 10-Q filings, and only from them. "
    "Every figure comes from the filing's XBRL data and every statement cites the filing text, "
    "with footnotes linking to the SEC document."
)
FOLLOW_UPS = (
    "Follow-ups keep the thread's context: \"and R&D?\", \"what about the year before?\", "
    "\"compare that with {other}\", \"why did it change?\". "
    "Ask \"which companies do you cover?\" for the list. I don't give stock prices, forecasts or advice."
)
EMPTY = (
    "No filings are ingested yet, so there is nothing I can answer about: run `footnote ingest` first "
    "(for example `footnote ingest --from tests/fixtures/sec`)."
)
COVERAGE_NOTE = (
    "For a year with a 10-K I can give its figures and quote what the filing says; for a year with "
    "figures only (from SEC's companyfacts or a later 10-K's prior-year columns) I can give reported "
    "figures but not the filing's text."
)

GREETING = "Hello! I'm Footnote. " + INTRO + " Ask \"help\" for examples."
THANKS = "You're welcome. Ask another question about a covered company's filings whenever you like."
GOODBYE = "Goodbye! Come back any time with a question about a company's SEC filings."
ACK = "Glad that helps. Ask a follow-up (\"and the year before?\", \"why?\", \"compare with Nvidia\") or a new question."
ABOUT = (
    "I'm Footnote, a bot that answers questions about US public companies from their SEC filings, and only from them. "
    "My data is the companies' annual and quarterly reports (Forms 10-K and 10-Q) from SEC EDGAR: every figure comes from the filing's XBRL "
    "data and every statement quotes the filing's text. Each answer cites its sources with footnote markers [1] that "
    "link to the SEC document, and I check every number and quote against the filing before I answer; when I can't "
    "ground an answer I say so rather than guess. I don't browse the web, give stock prices, forecasts or advice. "
    "{held}Ask \"help\" for example questions."
)

# "are you a bot?", "r u human", "is this an AI?": asked of Footnote's nature, answered first, in a line
IDENTITY = re.compile(r"\b(?:bot|robot|human|person|ai|a\.i\.|software|automated|chatgpt|gpt|llm)\b")
IDENTITY_LEAD = ("Yes, I'm a bot: Footnote, software that answers from companies' SEC filings (10-K and 10-Q). "
                 "No person writes these replies.")
IDENTITY_TAIL = ("Every figure comes from a filing's XBRL data and every statement cites the filing, with "
                 "footnotes linking to the SEC document. {held}Ask \"help\" for example questions.")


def about_text(question: str, rows: list[dict]) -> str:
    """A question about what Footnote is gets a direct answer first ("are you a bot?": yes), then
    the sources; any other question about Footnote gets the full description."""
    if IDENTITY.search((question or "").lower()):
        return IDENTITY_LEAD + " " + IDENTITY_TAIL.format(held=held_text(rows))
    return ABOUT.format(held=held_text(rows))


def examples(rows: list[dict]) -> list[tuple[str, list[str]]]:
    """(kind, questions) naming covered companies and years they can answer, best covered first."""
    ranked = sorted((r for r in rows if r["fiscal_years"]), key=lambda r: (-len(r["fiscal_years"]), r["ticker"]))
    if not ranked:
        return []
    a = ranked[0]
    b = ranked[1] if len(ranked) > 1 else a
    c = ranked[2] if len(ranked) > 2 else b
    name = _name
    ya, yb, yc = a["fiscal_years"][-1], b["fiscal_years"][-1], c["fiscal_years"][-1]
    figures_b = set(b["fiscal_years"]) | set(b.get("figures_only_years") or [])
    figures_c = set(c["fiscal_years"]) | set(c.get("figures_only_years") or [])
    growth = f"{name(b)} revenue growth in fiscal {yb}" if yb - 1 in figures_b else f"{name(b)}'s gross margin in fiscal {yb}"
    common = sorted(set(a["fiscal_years"]) & figures_b)
    compare = (f"Compare revenue of {name(a)} and {name(b)} in fiscal {common[-1]}" if b is not a and common
               else f"{name(a)} revenue by year")  # fmt: skip
    trend = f"{name(c)} net income {yc - 1} vs {yc}" if yc - 1 in figures_c else f"{name(c)} net income in fiscal {yc}"
    return [
        ("a reported figure", [f"What was {name(a)}'s revenue in fiscal {ya}?"]),
        ("a ratio or growth", [f"{name(a)}'s operating margin in FY{ya}", growth]),
        ("a comparison or trend", [compare, trend]),
        ("what a filing says", [f"What are {name(c)}'s main risk factors?", f"How does {name(a)} manage cybersecurity?"]),
    ]


def help_text(rows: list[dict] | None = None) -> str:
    """The help reply, its examples drawn from `rows` (store.coverage rows)."""
    pairs = examples(rows or [])
    if not pairs:
        return INTRO + "\n\n" + EMPTY
    ranked = sorted((r for r in rows if r["fiscal_years"]), key=lambda r: (-len(r["fiscal_years"]), r["ticker"]))
    other = _name(ranked[1] if len(ranked) > 1 else ranked[0])
    lines = [INTRO, "", "You can ask:"]
    lines += [f"- {kind}: " + ", ".join(f"\"{q}\"" for q in questions) for kind, questions in pairs]
    text = "\n".join(lines) + "\n\n" + FOLLOW_UPS.format(other=other)
    if any(r.get("figures_only_years") for r in rows):
        text += "\n\n" + COVERAGE_NOTE
    return text


def coverage_text(rows: list[dict], *, limit: int = 60) -> str:
    if not rows:
        return EMPTY
    lines = [f"I cover {plural(len(rows), 'company', 'companies')} from their SEC filings:"]
    for row in rows[:limit]:
        lines.append(f"- {row['ticker']}: {_name(row)} ({coverage_years(row)})")
    if len(rows) > limit:
        lines.append(f"...and {len(rows) - limit} more. Ask about a company by name or ticker.")
    if any(r.get("figures_only_years") for r in rows[:limit]):
        lines.append(COVERAGE_NOTE)
    return "\n".join(lines)


def coverage_years(row: dict) -> str:
    """'10-K FY2023, FY2024; figures only FY2019–FY2022; 10-Q Q1–Q3 FY2025' for one coverage row."""
    parts = []
    if row["fiscal_years"]:
        parts.append("10-K " + years_text(row["fiscal_years"]))
    if row.get("figures_only_years"):
        parts.append("figures only " + years_text(row["figures_only_years"]))
    if row.get("quarters"):
        parts.append("10-Q " + quarters_text(row["quarters"]))
    return "; ".join(parts) or "no fiscal years yet"


def quarters_text(quarters: list) -> str:
    """[(2025, 1), (2025, 2), (2024, 3)] -> 'Q3 FY2024, Q1–Q2 FY2025'."""
    by_year: dict[int, list[int]] = {}
    for year, q in quarters:
        by_year.setdefault(int(year), []).append(int(q))
    out = []
    for year in sorted(by_year):
        qs = sorted(set(by_year[year]))
        run = f"Q{qs[0]}\u2013Q{qs[-1]}" if len(qs) > 1 and qs == list(range(qs[0], qs[-1] + 1)) else ", ".join(f"Q{q}" for q in qs)
        out.append(f"{run} FY{year}")
    return ", ".join(out)


def _name(row: dict) -> str:
    return row.get("display_name") or row["name"]


def company_years_text(row: dict) -> str:
    """One company's holdings in a sentence: "which years do you have for Visa?"."""
    years = row["fiscal_years"]
    if not years:
        return f"I hold XBRL facts for {_name(row)} ({row['ticker']}) but no 10-K text yet."
    span = f"fiscal {years[0]}" if len(years) == 1 else f"fiscal {', '.join(map(str, years[:-1]))} and {years[-1]}"
    only = row.get("figures_only_years") or []
    extra = f" I also have reported figures only (no filing text) for {years_text(only)}." if only else ""
    if row.get("quarters"):
        extra += f" Quarterly reports (10-Q): {quarters_text(row['quarters'])}."
    return (f"I hold {_name(row)}'s ({row['ticker']}) 10-K filings for {span}. Without a year, I answer from "
            f"the latest one (fiscal {years[-1]}).{extra}")


def held_text(rows: list[dict]) -> str:
    years = sorted({y for r in rows for y in r["fiscal_years"]})
    if not rows or not years:
        return "No filings are ingested yet. "
    span = f"fiscal {years[0]}" if len(years) == 1 else f"fiscal {years[0]} to {years[-1]}"
    annual = sum(1 for r in rows if r["fiscal_years"])
    quarterly = sum(1 for r in rows if r.get("quarters"))
    tenq = f", and 10-Q quarterly reports of {quarterly}" if quarterly else ""
    return f"I currently hold 10-K filings of {plural(annual, 'company', 'companies')}, {span}{tenq}. "


def _not_covered(conn, state, ticker: str) -> Answer:
    from agent.refusals import as_named, refusal_text
    from store.companies import sec_title
    from store.display_names import display_name

    row = sec_title(conn, ticker)
    name = f"{display_name(row[1])} ({ticker.upper()})" if row else ticker.upper()
    return Answer(kind="refusal", text=refusal_text("not_covered", as_named(name)), refusal_reason="not_covered",
                  route="refusal", plan=state["plan"], planner=state.get("planner") or "rules")


def meta(state, deps, config) -> dict:
    plan = plan_of(state)
    intent = plan.intent
    tickers = plan.tickers or []
    if intent == "coverage":
        with deps.db.connection() as conn:
            rows = coverage_store.coverage(conn, tickers[0] if tickers else None)
            held = {r["ticker"] for r in rows}
            if tickers and not held & set(tickers):
                # "which years do you have for Costco?": a company SEC lists that is not covered is told so, as any
                # question about it is, never that nothing at all is ingested nor another company's years
                return {"answer": _not_covered(conn, state, tickers[0]).model_dump(mode="json")}
        if len(tickers) == 1:
            rows = [r for r in rows if r["ticker"] == tickers[0]] or rows
        text = company_years_text(rows[0]) if len(tickers) == 1 and len(rows) == 1 else coverage_text(rows)
    elif intent == "about":
        with deps.db.connection() as conn:
            rows = coverage_store.coverage(conn)
        text = about_text(state.get("question") or "", rows)
    elif intent == "greeting":
        text = GREETING
    elif intent == "thanks":
        text = THANKS
    elif intent == "goodbye":
        text = GOODBYE
    elif intent == "ack":
        text = ACK
    else:
        with deps.db.connection() as conn:
            text = help_text(coverage_store.coverage(conn))
    answer = Answer(kind="meta", text=text, route="meta", plan=state["plan"], planner=state.get("planner") or "rules")
    return {"answer": answer.model_dump(mode="json")}
