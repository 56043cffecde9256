"""Thread memory in the Postgres checkpointer: follow-ups inherit what they leave out, across a restart."""

from __future__ import annotations

import time
import uuid

from agent.answer import Turn
from bot.wiring import build_footnote
from bot.settings import Settings
from store.db import Database


def _ask(footnote, thread, text):
    return footnote.answer(Turn(thread_key=thread, user="u", text=text))


def test_follow_ups_inherit_company_year_and_metric(corpus_db, embedder):
    footnote = build_footnote(corpus_db, embedder, Settings(llm="off"), use_cache=False)
    thread = f"slack:T1:C1:{uuid.uuid4().hex}"
    first = _ask(footnote, thread, "What was Apple's revenue in fiscal 2024?")
    assert "$391.04 billion" in first.text

    rd = _ask(footnote, thread, "and R&D?")
    assert "$31.37 billion" in rd.text and rd.citations[0].concept == "us-gaap:ResearchAndDevelopmentExpense"

    earlier = _ask(footnote, thread, "what about fiscal 2023?")
    assert "$29.92 billion" in earlier.text and earlier.numbers[0].fiscal_year == 2023

    compared = _ask(footnote, thread, "compare that with Nvidia")
    [table] = compared.tables
    assert [row[0].rsplit(" ", 1)[-1] for row in table.rows] == ["(AAPL)", "(NVDA)"]
    assert "$29.92 billion" in [row[-1] for row in table.rows]
    assert "$7.34 billion" in [row[-1] for row in table.rows]  # NVIDIA FY2023 R&D

    why = _ask(footnote, thread, "why did it change?")
    assert why.kind == "answer", why.text
    prose = [c for c in why.citations if c.chunk_id is not None]
    # MD&A of both companies: Apple's fiscal 2023 10-K, and NVIDIA's fiscal 2024 10-K, which discusses
    # fiscal 2023 as its prior year (its fiscal 2023 10-K is not in the corpus)
    assert prose and all(c.item == "7" and c.quote for c in prose)
    assert {(c.ticker, c.fiscal_year) for c in prose} <= {("AAPL", 2023), ("NVDA", 2024)}
    assert ("NVDA", 2024) not in {(c.ticker, c.fiscal_year) for c in prose} or "for NVDA, the next 10-K" in why.text
    # the figure it asks about comes from XBRL, beside what the filing says about it
    assert "$29.92 billion" in why.text


def test_memory_is_per_thread(corpus_db, embedder):
    footnote = build_footnote(corpus_db, embedder, Settings(llm="off"), use_cache=False)
    a, b = f"t:{uuid.uuid4().hex}", f"t:{uuid.uuid4().hex}"
    _ask(footnote, a, "What was Apple's revenue in fiscal 2024?")
    _ask(footnote, b, "What was Tesla's revenue in fiscal 2024?")
    assert "$31.37 billion" in _ask(footnote, a, "and R&D?").text
    assert "$4.54 billion" in _ask(footnote, b, "and R&D?").text


def test_a_meta_turn_does_not_break_the_thread(corpus_db, embedder):
    footnote = build_footnote(corpus_db, embedder, Settings(llm="off"), use_cache=False)
    thread = f"t:{uuid.uuid4().hex}"
    _ask(footnote, thread, "What was Apple's revenue in fiscal 2024?")
    assert _ask(footnote, thread, "thanks!").kind == "meta"
    assert "$31.37 billion" in _ask(footnote, thread, "and R&D?").text


def test_memory_survives_a_restart(corpus_db, embedder):
    thread = f"teams:tenant:{uuid.uuid4().hex}"
    before = Database(corpus_db.url, max_size=2)
    try:
        first = build_footnote(before, embedder, Settings(llm="off"), use_cache=False)
        assert "$391.04 billion" in _ask(first, thread, "What was Apple's revenue in fiscal 2024?").text
    finally:
        before.close()  # the "process" ends: its pool, graph and checkpointer are gone

    after = Database(corpus_db.url, max_size=2)
    try:
        second = build_footnote(after, embedder, Settings(llm="off"), use_cache=False)
        answer = _ask(second, thread, "and net income?")
        assert "$93.74 billion" in answer.text, answer.text
        assert "tickers" in answer.plan["inherited"]
    finally:
        after.close()


def test_two_messages_in_one_thread_are_answered_in_order_from_any_door(corpus_db, embedder):
    """The CLI, batches and evals call the agent directly, not through the bots' queue: a follow-up
    sent while the first message is still being answered (here by another process's Footnote) waits
    for it and is planned with its memory."""
    import threading

    first_door = build_footnote(corpus_db, embedder, Settings(llm="off"), use_cache=False)
    second_door = build_footnote(corpus_db, embedder, Settings(llm="off"), use_cache=False)
    thread = f"cli:{uuid.uuid4().hex}"
    follow: dict = {}

    def ask_follow_up():
        follow["answer"] = _ask(second_door, thread, "and R&D?")

    asker = threading.Thread(target=ask_follow_up)

    def slow_first_turn(note):
        if not asker.is_alive() and "answer" not in follow:
            asker.start()  # the follow-up arrives while the first question is being planned
            time.sleep(1.5)

    first = first_door.answer(Turn(thread_key=thread, user="u", text="What was Apple's revenue in fiscal 2024?"),
                              on_status=slow_first_turn)
    asker.join(timeout=60)
    assert "$391.04 billion" in first.text
    assert "$31.37 billion" in follow["answer"].text, follow["answer"].text
    second_door.thread_locks.close()
    first_door.thread_locks.close()
