"""The graph's one state. Each node reads what it needs and returns only the fields it adds.

Per-turn fields start empty (`fresh_turn`) and are written once each, by one node, so a finished
run reads as a trace: the question, the plan, what was resolved, located and retrieved, the draft,
the checked claims and the answer, with each node's time. Everything is stored as plain JSON
(pydantic `model_dump(mode="json")`) so the Postgres checkpointer can persist it.

`memory` is the exception: the thread's carry-over (the last domain turn's plan, its years made
concrete) written by `remember` at the end of a turn and read by `plan` at the start of the next.
"""

from __future__ import annotations

from typing import Annotated, TypedDict

from agent.planning.plan import Plan


def merge_timings(old: dict | None, new: dict | None) -> dict:
    """Each node adds its own timing; a new turn's input (None) starts the dict afresh."""
    if new is None:
        return {}
    return {**(old or {}), **new}


class FootnoteState(TypedDict, total=False):
    # input
    question: str
    user: str
    # plan
    plan: dict | None  # agent.planning.plan.Plan
    planner: str | None
    plan_fallback: str | None
    # fetch: companies and filings resolved
    resolved: list[dict] | None  # [{ticker, cik, name, fiscal_years: [..], filings: {fy: {accession, url, ...}}}]
    # locate: where to look
    located: dict | None  # {items: [...], queries: [...], accessions: {cik: [...]}}
    # retrieve
    evidence: list[dict] | None  # agent.composing.draft.Evidence
    calculations: list[dict] | None  # [{id, metric, formula, steps, result, inputs: [evidence ids]}]
    retrieval: dict | None  # what retrieve did (counts, missing facts), for traces
    # a figure refused as unknown in retrieve and searched in prose instead: that refusal (agent.retrieval.retrieve)
    reprose: dict | None
    # a prose search bounded by the route's Items, refused no_grounding, searched again over the whole filing
    widened: bool | None
    # a question naming no year, refused no_grounding in the latest 10-K's whole filing, read in an earlier 10-K
    # that tells it (agent.retrieval.widening.reads_earlier): at most once a turn
    earlier_read: bool | None
    # compose
    draft: dict | None  # agent.composing.draft.Draft
    # cite_check
    checked: list[dict] | None  # [{claim, evidence_id, status: pass|repointed|paraphrase|fail, detail}]
    # any node that decides the turn cannot be answered
    refusal: dict | None  # {reason, detail, candidates}
    # terminal nodes
    answer: dict | None  # agent.answer.Answer
    # per-node milliseconds; each node adds its own key
    timings: Annotated[dict, merge_timings]
    # thread memory, carried across turns by the checkpointer
    memory: dict | None


PER_TURN = (
    "plan",
    "planner",
    "plan_fallback",
    "resolved",
    "located",
    "evidence",
    "calculations",
    "retrieval",
    "reprose",
    "widened",
    "earlier_read",
    "draft",
    "checked",
    "refusal",
    "answer",
)


def fresh_turn(question: str, user: str = "") -> dict:
    """The input for one turn: the question, and every per-turn field cleared.

    The thread's `memory` is left out, so the checkpointer keeps the previous turn's.
    """
    state: dict = {"question": question, "user": user}
    state.update({key: None for key in PER_TURN})
    state["timings"] = None
    return state


def plan_of(state) -> Plan | None:
    """The turn's plan as the Plan model: how a node reads it (the state keeps it as JSON, for the
    checkpointer)."""
    raw = state.get("plan")
    return Plan.model_validate(raw) if raw else None


def traced_plan(state) -> dict | None:
    """The plan as the Answer reports it: the planner's fields plus the fiscal years fetch
    resolved per company (what "latest" or "last year" turned out to mean)."""
    plan = state.get("plan")
    if not plan:
        return None
    resolved = state.get("resolved") or []
    if not resolved:
        return plan
    return {**plan, "resolved": {c["ticker"]: c["fiscal_years"] for c in resolved}}
