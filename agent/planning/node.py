"""The plan node: the question plus the thread's memory in, a typed Plan out.

The configured planner runs first; if it is a model and it fails (error, timeout, invalid
output) the deterministic planner answers instead and the state says why, so the Answer's
metadata can tell the user.

A thread has two subjects (agent.memory.remember): its last plan, and its last figure plan. A
figure reply to a prose turn about that figure ("and in fy23?" after "why did it go up?") is planned
against the figure (agent.planning.followups.back_to_figure); a reply asking for more carries the
sentences the thread has quoted, so the composer quotes the next best ones.
"""

from __future__ import annotations

import logging

from pydantic import ValidationError

from agent.progress import status
from agent.planning import followups
from agent.planning.brands import brands_from, corpus_lookup
from agent.planning.exemplars import meaning_from
from agent.planning.plan import Plan

log = logging.getLogger(__name__)


def previous_plan(state) -> Plan | None:
    """The thread's last plan; a memory written by an older version that no longer validates is
    forgotten rather than breaking the thread."""
    memory = state.get("memory") or {}
    if not memory.get("plan"):
        return None
    try:
        return Plan.model_validate(memory["plan"])
    except ValidationError:
        log.warning("thread memory no longer matches the Plan model; starting afresh")
        return None


def figure_plan(state, kind: str = "figure") -> Plan | None:
    """The thread's last figure plan (agent.memory.remember), or its last prose plan (`kind` "prose"); None
    when there is none or it no longer validates."""
    raw = (state.get("memory") or {}).get(kind)
    try:
        return Plan.model_validate(raw) if raw else None
    except ValidationError:
        return None


def _brand_lookup(deps):
    """The corpus lookup the planner resolves brands with, kept in the memo: one per corpus version,
    as the service clears the memo when an ingest changes the corpus."""
    db = getattr(deps, "db", None)
    if db is None:
        return None
    memo = getattr(deps, "memo", None)
    if memo is None:
        return corpus_lookup(db)
    if "brand_lookup" not in memo:
        memo["brand_lookup"] = corpus_lookup(db)
    return memo["brand_lookup"]


def _planned(question: str, previous: Plan | None, deps) -> tuple[Plan, str, str | None]:
    """(plan, planner name, why a model planner fell back) for `question` against `previous`."""
    try:
        # a message with no subject may be judged by meaning; a brand is resolved from the corpus
        with meaning_from(getattr(deps, "embedder", None)), brands_from(_brand_lookup(deps)):
            return deps.planner(question, previous=previous, directory=deps.directory), deps.planner_name, None
    except Exception as exc:  # a model's failure must never reach the user: fall back
        if deps.planner is deps.fallback_planner:
            raise
        log.warning("planner %s failed (%s); using the rules planner", deps.planner_name, exc.__class__.__name__)
        with meaning_from(getattr(deps, "embedder", None)), brands_from(_brand_lookup(deps)):
            result = deps.fallback_planner(question, previous=previous, directory=deps.directory)
        return result, "rules", f"planner: {deps.planner_name} failed ({exc.__class__.__name__}); rules planner used"


def _shown_figures(question: str, previous: Plan | None, figure: Plan | None, refused: str | None) -> Plan | None:
    """The plan a reply is read against. After a figure refused as unknown ("which one had the biggest
    flurble?"), a reply that only chooses among, or transforms, the figures the thread has shown
    ("which one made more?", "what's the growth rate?") is about those figures (its last figure plan),
    never about the refused word."""
    if previous is None or figure is None or "unknown_metric" not in (refused, previous.refusal_reason):
        return previous
    low = question.lower()
    if followups.only_ranks(low) or (followups.figure_reply(low) and followups.FIGURE_CUE.search(low)):
        return figure
    return previous


# Refusals of a company the thread turned to ("what about Adidas?", "and Shopify?"): the thread's subject
# stays the companies it last answered for
COMPANY_REFUSALS = ("no_company", "not_covered")


def _before_refused_company(previous: Plan | None, figure: Plan | None, prose: Plan | None = None) -> Plan | None:
    """The plan a reply is read against after a company was refused. "and the margin?" after "what about
    Adidas?" was refused is about the companies the thread last answered for (its last figure plan), with
    the metric and years the refused turn carried; never the refused name again, nor no company at all.
    A reply that names a company still names its own. After prose answers ("what does Boeing say about
    competition?"), "and Lockheed?" then "ok, and GE?" asks the thread's topic of GE, its years as the
    thread last held them."""
    if (previous is None or previous.route != "refusal" or previous.refusal_reason not in COMPANY_REFUSALS):
        return previous
    if prose is not None and prose.tickers:
        return prose.model_copy(update={
            "thread_tickers": list(dict.fromkeys([*previous.thread_tickers, *prose.tickers]))})
    if figure is None or not figure.tickers:
        return previous
    # not a comparison to add to: "and Netflix?" after a refused "what about Microsoft?" asks of Netflix alone,
    # while "and the margin?" is planned for all the companies it names back
    intent = "numeric" if figure.intent == "compare" else figure.intent
    return previous.model_copy(update={
        "route": "domain", "intent": intent, "tickers": list(figure.tickers),
        "refusal_reason": None, "refusal_detail": None, "candidates": [],
        "metrics": list(previous.metrics or figure.metrics),
        "thread_tickers": list(dict.fromkeys([*previous.thread_tickers, *figure.tickers])),
    })


def plan(state, deps, config) -> dict:
    status("Reading your question...")
    question = state["question"]
    refused = (state.get("memory") or {}).get("refused")
    shown = figure_plan(state)
    previous = _before_refused_company(_shown_figures(question, previous_plan(state), shown, refused), shown,
                                       figure_plan(state, "prose"))
    result, name, fallback = _planned(question, previous, deps)
    figure = followups.back_to_figure(question, previous, shown)
    if figure is not None and not followups.is_figure_plan(result):
        # "and in fy23?" after "why did it go up?": the figure two turns back, not the prose topic
        again, again_name, again_fallback = _planned(question, figure, deps)
        if followups.is_figure_plan(again):
            result, name, fallback = again, again_name, again_fallback
            result.slots = {**result.slots, "metrics": "thread, its last figure (past the prose turn)"}
    if result.route == "domain" and result.intent == "qualitative" and followups.asks_more(question.lower()):
        result.quoted = list((state.get("memory") or {}).get("quoted") or [])  # the next best, never the same
    fallback = fallback or getattr(result, "fallback", None)
    plan_dict = result.model_dump(mode="json")
    update: dict = {"plan": plan_dict, "planner": result.planner or name, "plan_fallback": fallback}
    if result.route == "refusal":
        update["refusal"] = {
            "reason": result.refusal_reason or "out_of_scope",
            "detail": result.refusal_detail,
            "candidates": list(result.candidates),
        }
    return update
