"""The agent's front door for every channel (CLI, Slack, Teams): a Turn in, an Answer out.

Adapters hold one Footnote per process. It owns the compiled graph and its Postgres
checkpointer; nothing here knows about Slack or Teams, and nothing here reads settings: the entry
point (bot/wiring.py) opens the database and builds the embedder and the planner and composer, and
hands them in.

The planner and composer are the deterministic pair by default, a model's when `answerers` is
given model options (or a client), or any callables with the same signatures as
`agent.planning.rules.plan_rules` and `agent.composing.compose.compose_extractive`.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path

from agent.answer import MAX_QUESTION_CHARS, Answer, Turn
from store.embedding import Embedder
from store.model_client import ModelOptions

log = logging.getLogger(__name__)


class Footnote:
    def __init__(
        self,
        db,
        embedder: Embedder,
        *,
        planner: Callable | None = None,
        composer: Callable | None = None,
        deadline_s: float | None = None,
        use_cache: bool = True,
    ):
        from agent.composing.compose import compose_extractive
        from agent.context import Deps
        from agent.graph import build_graph
        from agent.memory.checkpointer import make_checkpointer
        from agent.planning.rules import plan_rules
        from store.turns import ThreadLocks

        self.db = db
        self.embedder = embedder
        self.deadline_s = deadline_s
        self.use_cache = use_cache
        planner = planner or plan_rules
        composer = composer or compose_extractive
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
        _serve_queries(embedder)
        self.checkpointer = make_checkpointer(db)
        self.thread_locks = ThreadLocks(db.url)
        self.graph = build_graph(self.checkpointer)

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
                text=refusal_text("input_too_long", "longer than a question can be", limit=MAX_QUESTION_CHARS),
            )
        if not text:
            text = "help"
        deadline = self.deadline_s
        if not deadline:
            return self._guarded(turn, text, on_status, on_text, start)
        return self._within(deadline, turn, text, on_status, on_text, start)

    def _within(self, deadline: float, turn: Turn, text: str, on_status, on_text, start: float) -> Answer:
        """The answer, or after `deadline` seconds a polite word that it is late.

        A database that stops answering mid-query (a stopped server keeps its TCP connections
        open, so no client timeout fires and the server's statement timeout cannot run) would hold
        the user in silence for as long as it stays stopped. The work goes on in its own daemon
        thread and lands in the cache and the thread's memory if it completes; the user is told
        at the deadline."""
        from agent.refusals import LATE_TEXT

        result: dict = {}
        done, listening = threading.Event(), threading.Event()
        listening.set()

        def gated(callback):
            # Once the user has been told, late progress notes must not overwrite that message.
            return None if callback is None else (lambda note: callback(note) if listening.is_set() else None)

        def work() -> None:
            result["answer"] = self._guarded(turn, text, gated(on_status), gated(on_text), start)
            done.set()

        threading.Thread(target=work, name="footnote-answer", daemon=True).start()
        if done.wait(deadline):
            return result["answer"]
        listening.clear()
        log.warning("an answer in thread %s passed its %.0f s deadline; the user was told", turn.thread_key, deadline)
        return Answer(kind="refusal", refusal_reason="internal_error", route="refusal", text=LATE_TEXT)

    def _guarded(self, turn: Turn, text: str, on_status, on_text, start: float) -> Answer:
        from agent.refusals import refusal_text

        try:
            return self._answer(turn, text, on_status, on_text, start)
        except Exception as exc:
            from store.db import is_outage

            if is_outage(exc):
                # Not a bug: one line, no traceback (a chat session or a bot log is not the place for 40 lines per question).
                log.warning("the database did not answer in thread %s (%s)", turn.thread_key, exc.__class__.__name__)
            else:
                log.exception("answering failed in thread %s", turn.thread_key)
            return Answer(kind="refusal", refusal_reason="internal_error", route="refusal", text=refusal_text("internal_error"))

    def _answer(self, turn: Turn, text: str, on_status, on_text, start: float) -> Answer:
        # one turn of a thread at a time, in every process and from every door (bots, CLI, evals):
        # each is planned with the memory of the one before
        with self.thread_locks.hold(turn.thread_key):
            return self._answer_alone(turn, text, on_status, on_text, start)

    def _answer_alone(self, turn: Turn, text: str, on_status, on_text, start: float) -> Answer:
        from agent.memory.checkpointer import thread_config
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
        final = self._run(fresh_turn(text, turn.user), config, on_status, on_text)
        answer = Answer.model_validate(final["answer"])
        answer.timings = {**final.get("timings", {}), "total": _ms(start)}
        if key is not None and answer.refusal_reason != "internal_error" and not answer.fallback:
            with self.db.connection() as conn:
                cache.put(conn, key, version, {"answer": answer.model_dump(mode="json"), "memory": final.get("memory")})
        return answer

    def _run(self, update: dict, config, on_status, on_text) -> dict:
        """Run the graph over one turn; its progress notes and draft text (the "custom" stream)
        go to the callbacks as they come. A failing callback is dropped, never the turn."""
        listeners = {"status": on_status, "text": on_text}
        context = dataclasses.replace(self.deps, stream_text=on_text is not None)
        if on_status is None and on_text is None:
            # Nobody listens (a script, an eval, a bench): without the "custom" stream LangGraph runs
            # each one-node step in this thread, with no hand-off to its executor.
            return self.graph.invoke(update, config, context=context, durability="exit")
        final: dict = {}
        for mode, chunk in self.graph.stream(update, config, context=context, stream_mode=["custom", "values"],
                                             durability="exit"):  # fmt: skip
            if mode == "values":
                final = chunk
                continue
            for key, value in chunk.items():
                if listeners.get(key) is not None:
                    try:
                        listeners[key](value)
                    except Exception:
                        log.exception("the %s listener failed; it gets no more", key)
                        listeners[key] = None
        return final

    def _memory(self, config) -> dict | None:
        """The thread's memory as its latest state holds it."""
        return self.graph.get_state(config).values.get("memory")

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
        from agent.planning.companies import CompanyDirectory

        version = self.db.corpus_version()
        if version != self._directory_version:
            with self._directory_lock:
                if version != self._directory_version:
                    with self.db.connection() as conn:
                        self.deps.directory = CompanyDirectory.load(conn, connect=self.db.connection)
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

    def warm_up(self) -> None:
        """Start loading the embedding model in the background: a server listens at once and its
        first prose answer waits for the model only if it is not loaded yet. The routing exemplars
        are embedded next, so the first greeting does not wait for them either."""
        if hasattr(self.embedder, "start_loading"):
            # numpy's first import is not safe from two threads at once ("partially initialized
            # module"), and both warm-up threads below import it: done here, before either starts
            import numpy  # noqa: F401

            self.embedder.start_loading()
            from agent.planning.exemplars import prepare

            prepare(self.embedder)

    def help_text(self) -> str:
        """The help reply; its examples name companies and years the store holds."""
        from agent.meta import help_text

        return help_text(self.coverage())


class Opening:
    """A Footnote being built on a background thread, usable at once: `answer` and the rest wait
    for it (the first answers after a restart take a few seconds longer; nothing is dropped),
    while help, coverage and filings need only the database and never wait."""

    def __init__(self, db, build: Callable[[], Footnote]):
        self.db = db
        self._build = build
        self._lock = threading.Lock()
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None
        self._footnote: Footnote | None = None
        self._error: BaseException | None = None

    def start(self) -> Opening:
        """Begin building (call it once the server listens, so start-up work never delays that)."""
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="footnote-open", daemon=True)
                self._thread.start()
        return self

    def _run(self) -> None:
        try:
            self._footnote = self._build()
            self._footnote.warm_up()
        except BaseException as exc:  # re-raised to every caller of `wait`
            log.exception("Footnote could not start")
            self._error = exc
        finally:
            self._ready.set()

    def wait(self) -> Footnote:
        self.start()
        self._ready.wait()
        if self._error is not None:
            from store.errors import FootnoteError

            raise FootnoteError("Footnote could not start; see the log.") from self._error
        return self._footnote

    def join(self) -> None:
        if self._thread is not None:
            self._ready.wait()

    def __getattr__(self, name: str):
        return getattr(self.wait(), name)

    coverage = Footnote.coverage
    filings = Footnote.filings
    help_text = Footnote.help_text

    def warm_up(self) -> None:
        self.start()


@functools.lru_cache(maxsize=1)
def code_version() -> str:
    """A fingerprint of the code that makes and words answers (agent/ and store/), part of the cache
    key: after an upgrade, an answer the old code cached is never served in the old wording."""
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parents[1]
    for package in ("agent", "store"):
        for path in sorted((root / package).rglob("*.py")):  # subpackages too
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def answer_path(planner, composer) -> str:
    """'rules/extractive', or 'llm:gpt-4o-mini/llm:gpt-4o-mini': which planner and composer (and
    model) answer, part of the cache key so one path's answers are never served for another's."""

    def part(fn, default: str) -> str:
        name = getattr(fn, "name", None) or getattr(fn, "__qualname__", None) or default
        model = getattr(fn, "model", None)
        return f"{name}:{model}" if model else name

    return f"{part(planner, 'rules')}/{part(composer, 'extractive')}"


def answerers(model: ModelOptions | None, client=None) -> tuple[Callable, Callable]:
    """The planner and composer: a model's when model options (or a client) are given, else the
    deterministic pair. `client` is the OpenAI-compatible client to use (built from `model` when
    omitted)."""
    from agent.composing.compose import compose_extractive
    from agent.planning.rules import plan_rules

    if model is None and client is None:
        return plan_rules, compose_extractive
    from agent.composing.llm import make_composer
    from agent.planning.llm import make_planner

    model = model or ModelOptions()
    if client is None:
        from store.model_client import openai_client

        client = openai_client(model)
    return (make_planner(client, model=model.model, timeout=model.timeout_s),
            make_composer(client, model=model.model, timeout=model.timeout_s))  # fmt: skip


def _serve_queries(embedder) -> None:
    """The embedder tuned for answering rather than ingesting (store/embedding.py `serve_queries`).
    Applied when the model loads, so a question that needs no model never imports a runtime."""
    if hasattr(embedder, "serve_queries"):
        embedder.serve_queries()


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 2)
