"""What the graph's nodes receive from outside: the runtime context (`context_schema`) of each run.

The service builds one `Deps` per process and hands it to every run (`graph.stream(...,
context=deps)`); a node reads it as `runtime.context`. Its parts are typed by what the nodes call,
so any object with that shape serves: a test's planner, the rules planner, a model's.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from agent.composing.draft import Draft, Evidence
from agent.planning.plan import Plan
from store.embedding import Embedder


class Database(Protocol):
    """store.db.Database as the nodes use it: a pooled connection, and the corpus version."""

    def connection(self) -> contextlib.AbstractContextManager: ...

    def corpus_version(self) -> str: ...


class Planner(Protocol):
    """`plan_rules` or a model's planner: the question (and the thread's last plan) to a Plan."""

    def __call__(self, text: str, *, previous: Plan | None = None, directory: Any = None) -> Plan: ...


class Composer(Protocol):
    """`compose_extractive` or a model's composer: evidence to a Draft; `on_text` gets streamed
    draft text when a model writes."""

    def __call__(self, question: str, plan: Plan, evidence: list[Evidence], *, cells: list[dict] | None = None,
                 on_text: Callable[[str], None] | None = None) -> Draft: ...  # fmt: skip


@dataclass
class Deps:
    """What the nodes need from outside, built once per process by agent.service.

    `planner` and `composer` are the two swappable parts: the deterministic ones by default, a
    model's when configured. A model error or timeout raises, and the node falls back to
    `fallback_planner` / `fallback_composer`. `stream_text` is set per run: whether the caller
    listens for draft text.
    """

    db: Database
    embedder: Embedder
    planner: Planner
    composer: Composer
    fallback_planner: Planner
    fallback_composer: Composer
    directory: Any = None  # agent.planning.companies.CompanyDirectory, reloaded by the service after an ingest
    planner_name: str = "rules"
    composer_name: str = "extractive"
    memo: dict = field(default_factory=dict)  # per corpus version: companies, filings, years (cleared on ingest)
    stream_text: bool = False
