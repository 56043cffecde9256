"""The search a why-question about a figure runs: the figure's words and which way it moved."""

from __future__ import annotations

import uuid
from decimal import Decimal

import pytest

from agent.answer import Turn
from agent.retrieval.causes import moved, subject_metric
from bot.settings import Settings
from bot.wiring import build_footnote


def test_a_formula_is_explained_through_the_figure_it_is_computed_from():
    assert subject_metric("revenue_growth") == "revenue"
    assert subject_metric("rd_pct_revenue") == "rd"
    assert subject_metric("revenue") == "revenue"
    assert subject_metric("line:other income|other income|other income") is None


def test_direction_comes_from_the_two_years_and_a_loss_is_named_a_loss():
    assert moved("revenue", Decimal(10), Decimal(8))[1] == "increased"
    assert moved("revenue", Decimal(8), Decimal(10))[1] == "decreased"
    assert moved("revenue", Decimal(8), None)[1] == "changed"
    said, way = moved("net_income", Decimal(-11), Decimal(-2))
    assert (said, way) == ("net loss", "increased")
    said, way = moved("net_income", Decimal(-1), Decimal(3))
    assert "net income" in said and way == "decreased"


@pytest.fixture(scope="module")
def footnote(corpus_db, embedder):
    return build_footnote(corpus_db, embedder, Settings(llm="off"), use_cache=False)


def _ask(footnote, text, thread):
    return footnote.answer(Turn(thread_key=thread, user="u", text=text))


def test_why_after_a_figure_searches_mdna_for_its_words_and_direction(footnote):
    thread = f"test:{uuid.uuid4().hex}"
    first = _ask(footnote, "Tesla revenue 2024", thread)
    assert first.kind == "answer"
    answer = _ask(footnote, "why?", thread)
    assert answer.kind == "answer", answer.text
    query = answer.plan["query"]
    # Tesla's revenue rose from $96.77 billion (2023) to $97.69 billion (2024) in its XBRL facts
    assert query.startswith("revenue") and "increased" in query and "decreased" not in query
    assert answer.plan["items"][0] == "7" and answer.plan["fiscal_years"] == [2024]
    assert any(c.item == "7" for c in answer.citations if c.quote)



def test_why_after_a_margin_searches_for_the_margin_and_its_direction(footnote):
    thread = f"test:{uuid.uuid4().hex}"
    assert _ask(footnote, "Tesla gross margin 2024", thread).kind == "answer"
    answer = _ask(footnote, "why did it change?", thread)
    query = answer.plan["query"]
    # Tesla's gross profit over revenue: 17.9% in 2024 against 18.2% in 2023 (its XBRL facts)
    assert query.startswith("gross margin") and "decreased" in query, query
