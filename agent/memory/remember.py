"""The last node of every turn: what the thread remembers for its next question.

A domain turn (answered or refused after its companies were resolved) replaces the memory with
its plan, fiscal years made concrete, so "and R&D?" or "what about fiscal 2023?" inherit the
rest. Meta turns and refusals that resolved nothing leave the memory as it was, so "thanks"
between two questions does not break the thread.
"""

from __future__ import annotations


# Planner refusals a user answers in the next message ("General revenue 2023" -> "GM"): their plan
# carries the metric and years asked for, so the reply inherits them.
REPLYABLE = ("ambiguous_company", "no_company", "not_covered", "unknown_metric")


def remember(state, deps, config) -> dict:
    plan = state.get("plan") or {}
    if (plan.get("route") == "refusal" and plan.get("refusal_reason") in REPLYABLE
            and (plan.get("metrics") or plan.get("fiscal_years") or plan.get("tickers"))):
        # the thread's companies stay the thread's: "which of the two?" after a refused "what about
        # Samsung?" still means the two it discussed
        before = (state.get("memory") or {}).get("plan") or {}
        discussed = [t for t in [*(before.get("thread_tickers") or []),
                                 *(before.get("tickers") if before.get("route") == "domain" else [])]
                     if t not in (plan.get("tickers") or [])]
        kept = {**plan, "thread_tickers": list(dict.fromkeys(discussed))[-4:]}
        return {"memory": {"plan": kept, "question": state.get("question", ""), "companies": []}}
    if plan.get("route") != "domain" or not plan.get("tickers"):
        return {}
    if (state.get("refusal") or {}).get("reason") == "no_company":
        return {}  # "what about samsung?" named no company and nothing of the thread's: the thread stays put
    resolved = state.get("resolved") or []
    concrete = dict(plan)
    years = sorted({y for company in resolved for y in company.get("fiscal_years", [])})
    if years and plan.get("latest"):
        # the years it resolved to, for "the year before"; `latest` stays, so "and Nvidia's?" is
        # answered from Nvidia's own latest 10-K
        concrete["fiscal_years"] = years
    memory = {
        "plan": concrete,
        "question": state.get("question", ""),
        "companies": [{"ticker": c["ticker"], "cik": c["cik"], "name": c["name"]} for c in resolved],
    }
    return {"memory": memory}
