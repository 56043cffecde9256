"""The agent graph: plan -> fetch -> locate -> retrieve -> compose -> cite_check, plus meta and
refuse, all ending in remember (the thread's memory for the next turn).

Built by `build_graph(checkpointer, deps=...)`, never at import time. Nodes are plain functions
`node(state, deps, config) -> dict` that add their own fields; `_timed` wraps each one to record
its milliseconds and report progress. Routers return the name of the next node.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from langgraph.graph import END, START, StateGraph

from agent.state import FootnoteState

NODES = ("plan", "fetch", "locate", "retrieve", "compose", "cite_check", "meta", "refuse", "remember")


@dataclass
class Deps:
    """What the nodes need from outside, built once per process by agent.service.

    `planner(text, *, previous, directory) -> Plan` and
    `composer(question, plan, evidence, *, on_text=None) -> Draft` are the two swappable parts:
    the deterministic ones by default, a model's when configured. A model error or timeout
    raises, and the node falls back to `fallback_planner` / `fallback_composer`.
    """

    db: Any
    embedder: Any
    planner: Callable
    composer: Callable
    fallback_planner: Callable
    fallback_composer: Callable
    directory: Any = None
    planner_name: str = "rules"
    composer_name: str = "extractive"
    memo: dict = field(default_factory=dict)  # per corpus version: companies, filings, years (cleared on ingest)


def route_after_plan(state: FootnoteState) -> Literal["meta", "refuse", "fetch"]:
    plan = state["plan"]
    if plan["route"] == "meta":
        return "meta"
    if plan["route"] == "refusal" or state.get("refusal"):
        return "refuse"
    return "fetch"


def route_after_fetch(state: FootnoteState) -> Literal["refuse", "locate"]:
    return "refuse" if state.get("refusal") else "locate"


def route_after_retrieve(state: FootnoteState) -> Literal["refuse", "compose"]:
    return "refuse" if state.get("refusal") else "compose"


def route_after_check(state: FootnoteState) -> Literal["refuse", "remember"]:
    return "refuse" if state.get("refusal") else "remember"


def _timed(name: str, fn: Callable, deps: Deps) -> Callable:
    def run(state: FootnoteState, config) -> dict:
        start = time.perf_counter()
        update = fn(state, deps, config)
        update["timings"] = {name: round((time.perf_counter() - start) * 1000, 2)}
        return update

    run.__name__ = name
    return run


def build_graph(checkpointer, *, deps: Deps):
    """Compile the graph over `checkpointer` (a PostgresSaver in production and tests)."""
    from agent import cite_check, compose, fetch, meta, planning, refusals, remember, retrieve

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
    builder = StateGraph(FootnoteState)
    for name in NODES:
        builder.add_node(name, _timed(name, functions[name], deps))
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


def status(config, text: str) -> None:
    """Send a progress note to the caller's `on_status`, if it gave one."""
    callback = (config or {}).get("configurable", {}).get("on_status")
    if callback is not None:
        callback(text)
