"""The answer cache: exact match on the normalized question, the thread context it used, and the
corpus version; a cached answer still moves its thread's memory on."""

from __future__ import annotations

import uuid

import pytest

from agent.answer import Turn
from bot.wiring import build_footnote
from bot.settings import Settings
from store import cache
from tests import agent_corpus


@pytest.fixture
def footnote(db, embedder):
    agent_corpus.load(db, embedder)
    return build_footnote(db, embedder, Settings(llm="off"))


def _ask(footnote, text, thread=None):
    return footnote.answer(Turn(thread_key=thread or f"t:{uuid.uuid4().hex}", user="u", text=text))


def test_key_normalizes_the_question_but_not_the_context_or_version():
    base = cache.cache_key("What was Apple's revenue in FY2024?", None, "3")
    assert cache.cache_key("  what was apple's   revenue in fy2024 ", None, "3") == base
    assert cache.cache_key("What was Apple's revenue in FY2023?", None, "3") != base
    assert cache.cache_key("What was Apple's revenue in FY2024?", {"tickers": ["AAPL"]}, "3") != base
    assert cache.cache_key("What was Apple's revenue in FY2024?", None, "4") != base


def test_second_ask_is_served_from_the_cache(footnote):
    first = _ask(footnote, "What was Apple's revenue in fiscal 2024?")
    again = _ask(footnote, "what was apple's revenue in fiscal 2024")
    assert not first.cached and again.cached
    assert again.text == first.text and again.citations == first.citations
    assert "plan" not in again.timings  # the graph did not run


def test_a_follow_up_is_cached_per_context(footnote):
    a, b = f"t:{uuid.uuid4().hex}", f"t:{uuid.uuid4().hex}"
    _ask(footnote, "What was Apple's revenue in fiscal 2024?", a)
    _ask(footnote, "What was Microsoft's revenue in fiscal 2024?", b)
    rd_a = _ask(footnote, "and R&D?", a)
    rd_b = _ask(footnote, "and R&D?", b)
    assert "$31.37 billion" in rd_a.text and "$29.51 billion" in rd_b.text
    assert not rd_b.cached


def test_a_cached_answer_moves_the_thread_on(footnote):
    _ask(footnote, "What was Apple's revenue in fiscal 2024?")  # fills the cache
    thread = f"t:{uuid.uuid4().hex}"
    cached = _ask(footnote, "What was Apple's revenue in fiscal 2024?", thread)
    assert cached.cached
    follow = _ask(footnote, "and R&D?", thread)
    assert "$31.37 billion" in follow.text


def test_a_new_ingest_invalidates_the_cache(footnote, db):
    _ask(footnote, "What was Apple's revenue in fiscal 2024?")
    with db.connection() as conn:
        db.bump_corpus_version(conn)
    assert not _ask(footnote, "What was Apple's revenue in fiscal 2024?").cached
    with db.connection() as conn:
        assert cache.prune(conn, db.corpus_version()) >= 1


def test_internal_errors_are_not_cached(footnote):
    def planner(text, *, previous=None, directory=None):
        raise RuntimeError("boom")

    footnote.deps.planner = footnote.deps.fallback_planner = planner
    assert _ask(footnote, "Apple revenue 2024").refusal_reason == "internal_error"
    with footnote.db.connection() as conn:
        assert conn.execute("SELECT count(*) FROM answer_cache").fetchone()[0] == 0


def test_key_depends_on_the_planner_and_composer_path():
    base = cache.cache_key("What was Apple's revenue in FY2024?", None, "3", "plan_rules/compose_extractive")
    assert cache.cache_key("What was Apple's revenue in FY2024?", None, "3", "llm:gpt-4o-mini/llm:gpt-4o-mini") != base
    assert cache.cache_key("What was Apple's revenue in FY2024?", None, "3", "llm:other-model/llm:other-model") != \
        cache.cache_key("What was Apple's revenue in FY2024?", None, "3", "llm:gpt-4o-mini/llm:gpt-4o-mini")


def test_switching_the_composer_never_replays_the_other_paths_answer(db, embedder):
    from agent.composing.compose import compose_extractive

    agent_corpus.load(db, embedder)
    rules = build_footnote(db, embedder, Settings(llm="off"))
    first = _ask(rules, "What was Apple's revenue in fiscal 2024?")

    def other(question, plan, evidence, *, cells=None, on_text=None):
        draft = compose_extractive(question, plan, evidence, cells=cells)
        draft.intro = "Another composer:"
        return draft

    other.name, other.model = "llm", "some-model"
    modelled = build_footnote(db, embedder, Settings(llm="off"), composer=other)
    answer = _ask(modelled, "What was Apple's revenue in fiscal 2024?")
    assert not answer.cached and answer.text.startswith("Another composer:") and not first.text.startswith("Another")
    assert _ask(modelled, "What was Apple's revenue in fiscal 2024?").cached
    assert _ask(rules, "What was Apple's revenue in fiscal 2024?").text == first.text
