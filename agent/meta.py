"""The concierge: greetings, thanks, goodbyes, help, what Footnote is, and coverage. It never answers a domain question.

Only the planner decides a turn is meta; this node then answers from fixed text and the store's
coverage, so nothing here can carry a financial figure.
"""

from __future__ import annotations

from agent.answer import Answer
from store import coverage as coverage_store

HELP = (
    "I answer questions about US public companies from their 10-K filings, and only from them. "
    "Every figure comes from the filing's XBRL data and every statement cites the filing text, "
    "with footnotes linking to the SEC document.\n\n"
    "You can ask:\n"
    "- a reported figure: \"What was Apple's R&D expense in fiscal 2024?\"\n"
    "- a ratio or growth: \"Microsoft's operating margin in FY2024\", \"NVIDIA revenue growth last year\"\n"
    "- a comparison or trend: \"Compare revenue of Apple, Microsoft and Alphabet in 2024\", "
    "\"Adobe net income 2023 vs 2024\"\n"
    "- what a filing says: \"What are Tesla's main risk factors?\", \"How does Apple manage cybersecurity?\"\n\n"
    "Follow-ups keep the thread's context: \"and R&D?\", \"what about fiscal 2023?\", "
    "\"compare that with Nvidia\", \"why did it change?\". "
    "Ask \"which companies do you cover?\" for the list. I don't give stock prices, forecasts or advice."
)

GREETING = "Hello! I'm Footnote. " + HELP.split("\n\n", 1)[0] + " Ask \"help\" for examples."
THANKS = "You're welcome. Ask another question about a covered company's 10-K whenever you like."
GOODBYE = "Goodbye! Come back any time with a question about a company's 10-K filings."
ACK = "Glad that helps. Ask a follow-up (\"and the year before?\", \"why?\", \"compare with Nvidia\") or a new question."
ABOUT = (
    "I'm Footnote, a bot that answers questions about US public companies from their SEC filings, and only from them. "
    "My data is the companies' annual reports (Form 10-K) from SEC EDGAR: every figure comes from the filing's XBRL "
    "data and every statement quotes the filing's text. Each answer cites its sources with footnote markers [1] that "
    "link to the SEC document, and I check every number and quote against the filing before I answer; when I can't "
    "ground an answer I say so rather than guess. I don't browse the web, give stock prices, forecasts or advice. "
    "{held}Ask \"help\" for example questions."
)


def help_text() -> str:
    return HELP


def coverage_text(rows: list[dict], *, limit: int = 60) -> str:
    if not rows:
        return "No filings are ingested yet, so there is nothing I can answer about. Run `footnote ingest` first."
    lines = [f"I cover {len(rows)} companies from their 10-K filings:"]
    for row in rows[:limit]:
        years = ", ".join(f"FY{y}" for y in row["fiscal_years"]) or "facts only"
        lines.append(f"- {row['ticker']}: {row['name']} ({years})")
    if len(rows) > limit:
        lines.append(f"...and {len(rows) - limit} more. Ask about a company by name or ticker.")
    return "\n".join(lines)


def company_years_text(row: dict) -> str:
    """One company's holdings in a sentence: "which years do you have for Visa?"."""
    years = row["fiscal_years"]
    if not years:
        return f"I hold XBRL facts for {row['name']} ({row['ticker']}) but no 10-K text yet."
    span = f"fiscal {years[0]}" if len(years) == 1 else f"fiscal {', '.join(map(str, years[:-1]))} and {years[-1]}"
    return (f"I hold {row['name']}'s ({row['ticker']}) 10-K filings for {span}. Without a year, I answer from "
            f"the latest one (fiscal {years[-1]}).")


def held_text(rows: list[dict]) -> str:
    years = sorted({y for r in rows for y in r["fiscal_years"]})
    if not rows or not years:
        return "No filings are ingested yet. "
    span = f"fiscal {years[0]}" if len(years) == 1 else f"fiscal {years[0]} to {years[-1]}"
    return f"I currently hold 10-K filings of {len(rows)} companies, {span}. "


def meta(state, deps, config) -> dict:
    plan = state["plan"]
    intent = plan["intent"]
    tickers = plan.get("tickers") or []
    if intent == "coverage":
        with deps.db.connection() as conn:
            rows = coverage_store.coverage(conn, tickers[0] if tickers else None)
        if len(tickers) == 1:
            rows = [r for r in rows if r["ticker"] == tickers[0]] or rows
        text = company_years_text(rows[0]) if len(tickers) == 1 and len(rows) == 1 else coverage_text(rows)
    elif intent == "about":
        with deps.db.connection() as conn:
            rows = coverage_store.coverage(conn)
        text = ABOUT.format(held=held_text(rows))
    elif intent == "greeting":
        text = GREETING
    elif intent == "thanks":
        text = THANKS
    elif intent == "goodbye":
        text = GOODBYE
    elif intent == "ack":
        text = ACK
    else:
        text = HELP
    answer = Answer(kind="meta", text=text, route="meta", plan=plan, planner=state.get("planner") or "rules")
    return {"answer": answer.model_dump(mode="json")}
