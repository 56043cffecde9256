"""The concierge: greetings, thanks, help and coverage. It never answers a domain question.

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


def meta(state, deps, config) -> dict:
    plan = state["plan"]
    intent = plan["intent"]
    if intent == "coverage":
        with deps.db.connection() as conn:
            rows = coverage_store.coverage(conn, (plan.get("tickers") or [None])[0])
        text = coverage_text(rows)
    elif intent == "greeting":
        text = GREETING
    elif intent == "thanks":
        text = THANKS
    else:
        text = HELP
    answer = Answer(kind="meta", text=text, route="meta", plan=plan, planner=state.get("planner") or "rules")
    return {"answer": answer.model_dump(mode="json")}
