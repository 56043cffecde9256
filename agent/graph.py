"""The agent graph: plan -> fetch -> locate -> retrieve -> compose -> cite_check, plus meta and
refuse, all ending in remember (the thread's memory for the next turn).

Built by `build_graph(checkpointer)`, never at import time. Its dependencies arrive with each
run as the runtime context (`context_schema=Deps`, agent/context.py); progress leaves through
LangGraph's stream writer (agent/progress.py). Nodes are plain functions
`node(state, deps, config) -> dict` that add their own fields; `_timed` wraps each one to hand it
the context and record its milliseconds. Routers return the name of the next node.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Literal

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from agent.context import Deps
from agent.state import FootnoteState, plan_of

NODES = ("plan", "fetch", "locate", "retrieve", "compose", "cite_check", "meta", "refuse", "remember")


def route_after_plan(state: FootnoteState) -> Literal["meta", "refuse", "fetch"]:
    plan = plan_of(state)
    if plan.route == "meta":
        return "meta"
    if plan.route == "refusal" or state.get("refusal"):
        return "refuse"
    return "fetch"


def route_after_fetch(state: FootnoteState) -> Literal["refuse", "locate"]:
    return "refuse" if state.get("refusal") else "locate"


def route_after_retrieve(state: FootnoteState) -> Literal["refuse", "compose", "fetch"]:
    if state.get("reprose") and not state.get("refusal"):
        return "fetch"  # a figure refused as unknown, asked in words: its prose, fetched afresh
    return "refuse" if state.get("refusal") else "compose"


def route_after_check(state: FootnoteState) -> Literal["refuse", "remember", "retrieve"]:
    from agent.retrieval.widening import reads_earlier, widens

    if state.get("refusal") and widens(state):
        return "retrieve"  # nothing in the route's Items answered: the whole filing is searched once more
    if state.get("refusal") and reads_earlier(state):
        return "retrieve"  # nothing in the latest 10-K answered a question naming no year: an earlier one that tells it
    return "refuse" if state.get("refusal") else "remember"


def _timed(name: str, fn: Callable) -> Callable:
    def run(state: FootnoteState, config, runtime: Runtime[Deps]) -> dict:
        start = time.perf_counter()
        update = fn(state, runtime.context, config)
        update["timings"] = {name: round((time.perf_counter() - start) * 1000, 2)}
        return update

    run.__name__ = name
    return run


def build_graph(checkpointer):
    """Compile the graph over `checkpointer` (a PostgresSaver in production and tests); each run
    is given its `Deps` as `context`."""
    from agent import meta, refusals
    from agent.checking import cite_check
    from agent.composing import compose
    from agent.memory import remember
    from agent.planning import node as planning
    from agent.retrieval import fetch, retrieve

    functions = {
        "plan": planning.plan,
        "fetch": fetch.fetch,
        "locate": fetch.locate,
        "retrieve": retrieve.retrieve,
        "compose": compose.compose,
        "cite_check": cite_check.cite_check,
        "meta": meta.meta,
        "refuse": refusals.refuse,
        "remember": remember.remember,
    }
    builder = StateGraph(FootnoteState, context_schema=Deps)
    for name in NODES:
        builder.add_node(name, _timed(name, functions[name]))
    builder.add_edge(START, "plan")
    builder.add_conditional_edges("plan", route_after_plan)
    builder.add_conditional_edges("fetch", route_after_fetch)
    builder.add_edge("locate", "retrieve")
    builder.add_conditional_edges("retrieve", route_after_retrieve)
    builder.add_edge("compose", "cite_check")
    builder.add_conditional_edges("cite_check", route_after_check)
    builder.add_edge("meta", "remember")
    builder.add_edge("refuse", "remember")
    builder.add_edge("remember", END)
    return builder.compile(checkpointer=checkpointer)
