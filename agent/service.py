"""The agent's front door for every channel (CLI, Slack, Teams): a Turn in, an Answer out.

Adapters hold one Footnote per process. It owns the compiled graph, its Postgres checkpointer
and the embedder; nothing here knows about Slack or Teams. `Footnote.open(settings)` opens the
database, the embedder and the checkpointer once and closes them on exit.

The planner and composer are chosen here: the deterministic pair by default, a model's when the
settings configure one (or a client is passed as `llm`), or any callables passed as `planner` /
`composer` with the same signatures as `agent.plan_rules.plan_rules` and
`agent.compose.compose_extractive`.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from agent.answer import Answer, Turn

log = logging.getLogger(__name__)

MAX_QUESTION_CHARS = 2000  # a question, not a pasted document: 20 KB is refused politely


class Footnote:
    def __init__(
        self,
        db,
        embedder,
        settings,
        *,
        llm=None,
        planner: Callable | None = None,
        composer: Callable | None = None,
        use_cache: bool = True,
    ):
        from agent.compose import compose_extractive
        from agent.graph import Deps, build_graph
        from agent.memory import make_checkpointer
        from agent.plan_rules import plan_rules

        self.db = db
        self.embedder = embedder
        self.settings = settings
        self.llm = llm
        self.use_cache = use_cache
        if planner is None or composer is None:
            model_planner, model_composer = _model_parts(settings, llm)
            planner = planner or model_planner or plan_rules
            composer = composer or model_composer or compose_extractive
        self._directory_lock = threading.Lock()
        self._directory_version: str | None = None
        self.deps = Deps(
            db=db,
            embedder=embedder,
            planner=planner,
            composer=composer,
            fallback_planner=plan_rules,
            fallback_composer=compose_extractive,
            planner_name=getattr(planner, "name", "rules"),
            composer_name=getattr(composer, "name", "extractive"),
        )
        self.path = f"{answer_path(planner, composer)}@{code_version()}"
        _single_thread_queries(embedder)
        self.checkpointer = make_checkpointer(db)
        self.graph = build_graph(self.checkpointer, deps=self.deps)

    @classmethod
    @contextlib.contextmanager
    def open(cls, settings, **kwargs) -> Iterator[Footnote]:
        """The configured database, embedder and checkpointer, opened once for a process."""
        from ingest.embed import make_embedder
        from store.cli import open_for

        with open_for(settings) as db:
            yield cls(db, make_embedder(settings), settings, **kwargs)

    from_settings = open

    # --- answering -----------------------------------------------------------------------------

    def answer(
        self,
        turn: Turn,
        *,
        on_status: Callable[[str], None] | None = None,
        on_text: Callable[[str], None] | None = None,
    ) -> Answer:
        """Answer one turn in its thread. `on_status` gets short progress notes ("Reading Apple's
        FY2024 10-K..."); `on_text` gets streamed draft text when a model composes (the final,
        verified Answer is what is returned and what must be shown last)."""
        from agent.refusals import refusal_text

        start = time.perf_counter()
        text = (turn.text or "").strip()
        if len(text) > MAX_QUESTION_CHARS:
            return Answer(
                kind="refusal",
                refusal_reason="input_too_long",
                route="refusal",
                text=refusal_text("input_too_long", "longer than a question can be"),
            )
        if not text:
            text = "help"
        try:
            return self._answer(turn, text, on_status, on_text, start)
        except Exception:
            log.exception("answering failed in thread %s", turn.thread_key)
            return Answer(kind="refusal", refusal_reason="internal_error", route="refusal", text=refusal_text("internal_error"))

    def _answer(self, turn: Turn, text: str, on_status, on_text, start: float) -> Answer:
        from agent.memory import thread_config
        from agent.state import fresh_turn
        from store import cache

        config = thread_config(turn.thread_key)
        version = self._refresh_directory()
        key = None
        if self.use_cache:
            key = cache.cache_key(text, (self._memory(config) or {}).get("plan"), version, self.path)
            with self.db.connection() as conn:
                hit = cache.get(conn, key, version)
            if hit is not None:
                return self._replay(config, text, turn, hit, start)
        config["configurable"].update(on_status=on_status, on_text=on_text)
        final = self.graph.invoke(fresh_turn(text, turn.user), config, durability="exit")
        answer = Answer.model_validate(final["answer"])
        answer.timings = {**final.get("timings", {}), "total": _ms(start)}
        if key is not None and answer.refusal_reason != "internal_error" and not answer.fallback:
            with self.db.connection() as conn:
                cache.put(conn, key, version, {"answer": answer.model_dump(mode="json"), "memory": final.get("memory")})
        return answer

    def _memory(self, config) -> dict | None:
        """The thread's memory as the last checkpoint holds it (one read, no graph state rebuilt)."""
        saved = self.checkpointer.get_tuple(config)
        if saved is None:
            return None
        return saved.checkpoint.get("channel_values", {}).get("memory")

    def _replay(self, config, text: str, turn: Turn, hit: dict, start: float) -> Answer:
        """A cached answer still moves the thread on: its memory is written as the turn's."""
        from agent.state import fresh_turn

        answer = Answer.model_validate(hit["answer"])
        update = {**fresh_turn(text, turn.user), "answer": hit["answer"]}
        if hit.get("memory") is not None:
            update["memory"] = hit["memory"]
        self.graph.update_state(config, update, as_node="remember")
        answer.cached = True
        answer.timings = {"cache": _ms(start), "total": _ms(start)}
        return answer

    def _refresh_directory(self) -> str:
        """Reload the company directory when an ingest changed the corpus; return the version."""
        from agent.companies import CompanyDirectory

        version = self.db.corpus_version()
        if version != self._directory_version:
            with self._directory_lock:
                if version != self._directory_version:
                    with self.db.connection() as conn:
                        self.deps.directory = CompanyDirectory.load(conn)
                    self.deps.memo.clear()
                    self._directory_version = version
        return version

    # --- what the adapters show besides answers ----------------------------------------------

    def coverage(self, filter_text: str | None = None) -> list[dict]:
        """Covered companies: [{ticker, cik, name, fiscal_years, filings, chunks, facts}]."""
        from store.coverage import coverage

        with self.db.connection() as conn:
            return coverage(conn, filter_text)

    def filings(self, ticker: str) -> list[dict]:
        """A company's ingested filings: [{accession, form, fiscal_year, period_end, filed, url}]."""
        from store.coverage import filings

        with self.db.connection() as conn:
            return filings(conn, ticker)

    def help_text(self) -> str:
        """The help reply; its examples name companies and years the store holds."""
        from agent.meta import help_text

        return help_text(self.coverage())


@functools.lru_cache(maxsize=1)
def code_version() -> str:
    """A fingerprint of the code that makes and words answers (agent/ and store/), part of the cache
    key: after an upgrade, an answer the old code cached is never served in the old wording."""
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parents[1]
    for package in ("agent", "store"):
        for path in sorted((root / package).glob("*.py")):
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def answer_path(planner, composer) -> str:
    """'rules/extractive', or 'llm:gpt-4o-mini/llm:gpt-4o-mini': which planner and composer (and
    model) answer, part of the cache key so one path's answers are never served for another's."""

    def part(fn, default: str) -> str:
        name = getattr(fn, "name", None) or getattr(fn, "__qualname__", None) or default
        model = getattr(fn, "model", None)
        return f"{name}:{model}" if model else name

    return f"{part(planner, 'rules')}/{part(composer, 'extractive')}"


def _model_parts(settings, llm) -> tuple[Callable | None, Callable | None]:
    """The model planner and composer when a model is configured (or a client given), else None."""
    if llm is None and not getattr(settings, "llm_configured", False):
        return None, None
    from agent.compose_llm import make_composer
    from agent.plan_llm import make_planner

    if llm is not None and not getattr(settings, "llm_configured", False):
        settings = settings.model_copy(update={"openai_base_url": settings.openai_base_url or "http://llm.invalid", "llm": "auto"})
    return make_planner(settings, client=llm), make_composer(settings, client=llm)


def _single_thread_queries(embedder) -> None:
    """One short query gains nothing from intra-op threads, and on a busy machine OpenMP threads
    spinning for each other turned a 15 ms query embedding into more than a second (measured with
    2 threads on 2 shared cores). Ingestion, which embeds in large batches, runs in its own command."""
    if type(embedder).__name__ == "LocalEmbedder":
        import torch

        torch.set_num_threads(1)


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 2)
