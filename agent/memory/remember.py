"""The last node of every turn: what the thread remembers for its next question.

A domain turn (answered or refused after its companies were resolved) replaces the memory with
its plan, fiscal years made concrete, so "and R&D?" or "what about fiscal 2023?" inherit the
rest. Meta turns and refusals that resolved nothing leave the memory as it was, so "thanks"
between two questions does not break the thread.

Beside the last plan, the memory keeps the thread's last FIGURE plan (`figure`), which a prose turn
about that figure does not replace, so "and in fy23?" after "why did it go up?" is the figure again
(agent.planning.followups.back_to_figure); its last PROSE plan (`prose`) when no figure was answered
after it, which a refused company does not replace, so "and Boeing?" after a refused "what about
Airbus?" asks the thread's topic of Boeing; and the sentences the thread has quoted (`quoted`), so
"say more" quotes the next best ones, never the same again.
"""

from __future__ import annotations

from agent.planning.followups import QUOTED_KEPT, is_figure_plan, own_subject
from agent.planning.plan import Plan
from agent.retrieval.concepts import METRICS
from agent.retrieval.earlier_filing import EARLIER_SLOT


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
        kept = {**plan, "thread_tickers": list(dict.fromkeys(discussed))[-4:],
                "company_years": _company_years(before, kept_tickers=discussed)}
        if plan.get("refusal_reason") == "unknown_metric" and not plan.get("topic"):
            kept["topic"] = _asked_words(state.get("question", ""), plan)
        return {"memory": {"plan": kept, "question": state.get("question", ""), "companies": [],
                           **_carried(state.get("memory") or {}, None, []), "refused": plan.get("refusal_reason")}}
    if plan.get("route") == "meta" and plan.get("definitions"):
        return _defined(state, plan)
    if plan.get("route") != "domain" or not plan.get("tickers"):
        return {}
    if (state.get("refusal") or {}).get("reason") == "no_company":
        return {}  # "what about samsung?" named no company and nothing of the thread's: the thread stays put
    resolved = state.get("resolved") or []
    concrete = dict(plan)
    before = (state.get("memory") or {}).get("plan") or {}
    refused_new = _refused_newcomers(state, before)
    if refused_new:
        # "and Pfizer?" refused when its figures were looked up (no fiscal year held, not covered): it was
        # asked about, never discussed, so "which is bigger?" later compares the companies that answered
        discussed = [t for t in (plan.get("thread_tickers") or []) if t not in refused_new]
        kept = {**plan, "route": "refusal", "intent": "refuse", "refusal_reason": (state.get("refusal") or {}).get("reason"),
                "thread_tickers": discussed, "company_years": _company_years(before, kept_tickers=discussed)}
        return {"memory": {"plan": kept, "question": state.get("question", ""), "companies": [],
                           **_carried(state.get("memory") or {}, None, []), "refused": kept["refusal_reason"]}}
    years = sorted({y for company in resolved for y in company.get("fiscal_years", [])})
    if years and plan.get("latest"):
        # the years it resolved to, for "the year before"; `latest` stays, so "and Nvidia's?" is
        # answered from Nvidia's own latest 10-K
        concrete["fiscal_years"] = years
    elif years and (plan.get("slots") or {}).get("fiscal_years") == EARLIER_SLOT:
        # an earlier 10-K read because the latest no longer tells the event asked about is no year the
        # user named: the thread goes on at each company's latest filing, as the question did
        concrete["latest"], concrete["fiscal_years"] = True, years
    # a refused turn showed no figure: a year its companies resolved to other than the one it asked (for a
    # prose question, the filing that would discuss the year: Visa's fiscal 2024 10-K for "fiscal 2023") is
    # no year of the thread's figures, so "and operating income?" next stays at the years last shown
    asked = set(plan.get("fiscal_years") or []) if not plan.get("latest") else None
    shown = resolved if not (state.get("refusal") or {}).get("reason") or asked is None else \
        [c for c in resolved if set(c.get("fiscal_years") or []) <= asked]
    concrete["company_years"] = _company_years(before, kept_tickers=concrete.get("thread_tickers") or [],
                                               resolved=shown)
    if not concrete.get("metrics") and str((concrete.get("slots") or {}).get("metrics", "")).startswith("thread") \
            and before.get("metrics") and set(concrete.get("tickers") or []) <= set(before.get("tickers") or []):
        # "why?" about a year whose own 10-K is not held is answered without the figure's lead (fetch),
        # but the thread is still about that figure: "what did management say about it?" next
        concrete["metrics"] = list(before["metrics"])
    # a figure refused as unknown ("which one had the biggest flurble?") is no figure the thread has shown:
    # the figure before it stays the one "which one made more?" next is about
    refused = (state.get("refusal") or {}).get("reason")
    if refused and (concrete.get("period") or {}).get("growth"):
        _without_growth(concrete)
    memory = {
        "plan": concrete,
        "question": state.get("question", ""),
        "companies": [{"ticker": c["ticker"], "cik": c["cik"], "name": c["name"]} for c in resolved],
        **_carried(state.get("memory") or {}, None if refused == "unknown_metric" else concrete, _quotes(state)),
        "refused": refused,
    }
    return {"memory": memory}


def _asked_words(question: str, plan: dict) -> str:
    """What a question refused as an unknown figure asked about, in its own words without its companies ("cmcsa
    peacock subscribers / losses 2023?" -> "peacock subscribers losses"): the thread's topic for the next turn.

    Why: the refusal names only the figure it could not find ("subscribers"), and "how did it affect the media
    segment?" next searched that word alone, without the Peacock the user asked about."""
    names = {w for c in plan.get("companies_read") or [] for w in str(c.get("word", "")).lower().split()}
    names |= {t.lower() for t in plan.get("tickers") or []}
    return " ".join(w for w in own_subject(question) if w not in names and w.strip("'s") not in names)


def _defined(state, plan: dict) -> dict:
    """A definition said before any company ("define adjusted margin as ..."), answered with what Footnote can do:
    the thread keeps it beside what it remembered, for the turn that names a company ("compute it for Meta 2024");
    with nothing remembered yet, the definition's own plan is the thread's.

    Why: a meta turn leaves the memory as it was, so the definition was forgotten and the next turn read
    "compute it" as words to search for."""
    memory = dict(state.get("memory") or {})
    before = memory.get("plan")
    if not before:
        return {"memory": {**memory, "plan": plan, "question": state.get("question", "")}}
    names = {d.get("name") for d in plan["definitions"]}
    kept = [d for d in before.get("definitions") or [] if d.get("name") not in names]
    return {"memory": {**memory, "plan": {**before, "definitions": [*kept, *plan["definitions"]]}}}


def _refused_newcomers(state, before: dict) -> list[str]:
    """The turn's companies, when its figures were refused for all of them at fetch and none was a
    company the thread had discussed; else none (a year refused for the thread's own company keeps it)."""
    if (state.get("refusal") or {}).get("reason") not in ("year_not_available", "not_covered") or not before:
        return []
    tickers = (state.get("plan") or {}).get("tickers") or []
    known = {*(before.get("thread_tickers") or []), *(before.get("tickers") if before.get("route") == "domain" else [])}
    return [] if not tickers or known & set(tickers) else list(tickers)


def _company_years(before: dict, kept_tickers: list[str], resolved: list[dict] | None = None) -> dict:
    """Each company the thread still discusses, at the fiscal years it was last shown: this turn's
    resolved companies at their own years, the others as the thread held them before.

    Why per company: "Nvidia FY2025" then "and Alphabet 2024" shows each at its own year, and "which
    is bigger?" next compares those two figures, not both companies at the last year named."""
    years = {t: list(ys) for t, ys in (before.get("company_years") or {}).items() if t in kept_tickers}
    for company in resolved or []:
        if company.get("fiscal_years"):
            years[company["ticker"]] = list(company["fiscal_years"])
    return years


def _quotes(state) -> list[str]:
    answer = state.get("answer") or {}
    return [c["quote"] for c in answer.get("citations") or [] if c.get("quote")]


def _carried(before: dict, plan: dict | None, quotes: list[str]) -> dict:
    """The thread's figure plan and quoted sentences after this turn. A figure turn replaces the
    figure; a prose turn keeps it while it is about the figure's companies, and drops it once the
    thread has moved to other companies."""
    figure = before.get("figure")
    prose = before.get("prose")
    if plan is not None:
        try:
            parsed = Plan.model_validate(plan)
        except ValueError:
            parsed = None
        if is_figure_plan(parsed):
            figure, prose = plan, None
        elif figure and not set(plan.get("tickers") or []) & set(figure.get("tickers") or []):
            figure = None
        if parsed is not None and parsed.route == "domain" and parsed.intent == "qualitative":
            prose = plan
    quoted = [*(before.get("quoted") or []), *(q for q in quotes if q not in (before.get("quoted") or []))]
    return {"figure": figure, "prose": prose, "quoted": quoted[-QUOTED_KEPT:]}


def _without_growth(plan: dict) -> None:
    """A quarter's growth the answer refused (its base quarter not held, "sequential growth?" after the only 10-Q
    held) is kept as the quarter's figures: "and net income?" next asks the quarter's net income, never its growth
    again, refused for the same missing quarter."""
    plan["period"] = {k: v for k, v in plan["period"].items() if k != "growth"}
    plan["metrics"] = [k[: -len("_growth")] if k.endswith("_growth") and k[: -len("_growth")] in METRICS else k
                       for k in plan.get("metrics") or []]
