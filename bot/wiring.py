"""The composition root: the one place that reads Settings and builds what the core needs.

The core (agent/, store/, ingest/) receives small typed objects from here: a database, an
`Embedder`, an optional OpenAI-compatible client with its `ModelOptions`, and the planner and
composer they make. It never receives Settings, and never a secret it does not use (the Slack and
Teams secrets stay in bot/).
"""

from __future__ import annotations

import contextlib
import importlib
import threading
from collections.abc import Iterator

from agent.service import Footnote, Opening, answerers
from bot import collector
from bot.settings import Settings
from store.cli import open_for
from store.embedding import Embedder, make_embedder


# What building a Footnote imports that takes longest (langgraph and its tracing, the planner's and
# the composer's phrase tables): about a second of CPU on a cold start.
GRAPH_MODULES = ("agent.graph", "agent.memory.checkpointer", "agent.planning.rules", "agent.composing.compose")


def _import_meanwhile(modules: tuple[str, ...]) -> threading.Thread:
    """Import `modules` on a thread while the caller opens the database: starting or attaching to
    the embedded server, migrating and filling the pool mostly wait on Postgres, on the other core,
    and that wait no longer adds to the imports. An import that fails here is left to fail again,
    with its traceback, where the module is used."""

    def run() -> None:
        for name in modules:
            try:
                importlib.import_module(name)
            except Exception:
                return

    thread = threading.Thread(target=run, name="footnote-imports")  # not a daemon: never cut off mid-import at exit
    thread.start()
    return thread


def model_options(settings: Settings):
    """The model's options when a model is configured, else None (the deterministic path)."""
    return settings.model_options() if settings.llm_configured else None


def build_footnote(db, embedder: Embedder, settings: Settings, *, llm=None, planner=None, composer=None,
                   use_cache: bool = True) -> Footnote:  # fmt: skip
    """A Footnote over an open database: the model's planner and composer when the settings
    configure a model or a client is given as `llm`, else the deterministic pair; `planner` and
    `composer` replace either."""
    options = model_options(settings)
    if llm is not None and options is None:
        options = settings.model_options()
    model_planner, model_composer = answerers(options, llm)
    return Footnote(db, embedder, planner=planner or model_planner, composer=composer or model_composer,
                    deadline_s=settings.answer_deadline_s, use_cache=use_cache)  # fmt: skip


@contextlib.contextmanager
def open_footnote(settings: Settings, *, background: bool = False, **kwargs) -> Iterator[Footnote | Opening]:
    """The configured database, embedder and checkpointer, opened once for a process.

    `background=True` (the bots) yields an `Opening` as soon as the database is open: the server
    can listen and acknowledge at once while the graph (langgraph's imports are seconds on a busy
    machine) and then the embedding model load on a background thread."""
    from ingest.runtime_check import check_runtime

    importing = None if background else _import_meanwhile(GRAPH_MODULES)
    with open_for(settings) as db:
        try:
            if importing is not None:
                importing.join()
            embedder = make_embedder(settings.embedding_options())
            check_runtime(db, embedder)  # a corpus from another runtime: proven equal once, or refused
            footnote = None if background else build_footnote(db, embedder, settings, **kwargs)
        finally:
            collector.resume()  # what the command answers with is loaded (bot/collector.py)
        if background:
            opening = Opening(db, lambda: build_footnote(db, embedder, settings, **kwargs))
            try:
                yield opening
            finally:
                opening.join()  # never close the database under a half-built Footnote
        else:
            try:
                yield footnote
            finally:
                footnote.thread_locks.close()
