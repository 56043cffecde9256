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


def test_an_amount_is_found_as_prose_states_it_never_inside_another_number():
    import re

    from agent.retrieval.causes import stated_patterns

    patterns = [re.compile(p, re.I) for p in stated_patterns(Decimal("11311000000"))]
    said = lambda text: any(p.search(text) for p in patterns)  # noqa: E731
    assert said("Operating income was $11,311 million in 2023")
    assert said("operating income rose to $11.3 billion") and said("to $11.31 billion")
    assert not said("a charge of $111,311 million") and not said("$1.3 billion of buybacks")
    assert not said("11,311")  # a table's bare number is no statement


def test_of_the_chunks_stating_the_figure_the_one_that_goes_on_to_explain_it_comes_first():
    from types import SimpleNamespace

    from agent.retrieval.causes import explaining_first, figure_names, stated_patterns

    patterns = stated_patterns(Decimal("8500000000"))
    table_note = SimpleNamespace(id=1, text="Net income of $8.5 billion is presented in the table below.")
    explained = SimpleNamespace(id=2, text="Net income increased 12% to $8.5 billion. The increase was primarily "
                                            "due to higher franchise margins.")
    assert [h.id for h in explaining_first([table_note, explained], patterns)] == [2, 1]
    # an amount that only rounds alike, said of something else, is no statement of the figure
    cash = SimpleNamespace(id=3, text="Cash and equivalents were $8.5 billion, primarily due to lower buybacks.")
    assert [h.id for h in explaining_first([cash, explained], patterns, figure_names(["net_income"]))] == [2]


def test_the_subject_a_why_turn_adds_is_what_its_topic_says_beyond_asking_and_moving():
    from agent.retrieval.causes import own_subject

    figure = {"revenue", "net", "sales"}
    assert own_subject("revenue net sales increased decreased compared to prior year", figure) == ""
    assert own_subject("why'd revenue net sales", figure) == ""
    assert own_subject("north america revenue", figure) == "north america"


def test_a_margin_is_found_as_its_percentage_with_its_name():
    import re

    from agent.retrieval.causes import figure_names, stated_percent

    patterns = [re.compile(p, re.I) for p in stated_percent(Decimal("42.7000000000"))]
    assert any(p.search("Gross margin decreased 190 basis points to 42.7%, primarily due to discounts") for p in patterns)
    assert not any(p.search("a tax rate of 142.7%") or p.search("4.27%") for p in patterns)
    assert figure_names(["gross_margin"]) == {"gross", "margin"}


def test_the_amounts_searched_for_are_the_value_its_change_and_a_margin_as_a_percentage():
    import re

    from agent.retrieval.causes import amount_patterns

    patterns = [re.compile(p, re.I) for p in amount_patterns([(Decimal("77794000000"), "USD"),
                                                               (Decimal("11186000000"), "USD"),
                                                               (Decimal("0.427"), "pure")])]
    for said in ("Revenues increased by $11,186 million in 2023", "revenues of $77.8 billion", "to 42.7%"):
        assert any(p.search(said) for p in patterns), said


def test_a_statement_cut_from_its_cause_by_a_chunks_end_is_told_apart():
    from agent.retrieval.causes import cut_before_cause

    ends = "Segment results follow. Operating income for the North region was $4,435 million and $3,742 million."
    assert cut_before_cause(ends, "The increase in operating income was primarily driven by pricing. Other text.")
    assert not cut_before_cause(ends, "Liquidity and capital resources are discussed below.")
    assert not cut_before_cause("Operating income rose to $4,435 million, primarily due to pricing.",
                                "The increase was primarily driven by pricing.")


def test_a_why_question_is_about_the_one_figure_its_topic_names_and_nothing_beside_it():
    from types import SimpleNamespace

    from agent.retrieval.causes import asked_figures

    def plan(topic, **kw):
        return SimpleNamespace(intent="qualitative", period=None, topic=topic, **kw)

    assert asked_figures(plan("op income"), "meta 2024 op income jumped, what drove it", []) == ["operating_income"]
    assert asked_figures(plan("revenue attribute"), "Alphabet revenue +14%: what does the MD&A attribute it to?",
                         []) == ["revenue"]
    # a segment's or a product's figure is not the company's total; a question that asks no why has none
    assert asked_figures(plan("auto revenue"), "tesla auto revenue fell in 2024 - why??", []) == []
    assert asked_figures(plan("op income"), "what does meta say about op income?", []) == []
    # the plan's own figures stand
    assert asked_figures(plan("anything"), "why?", ["net_income"]) == ["net_income"]


def test_a_growth_rates_own_words_are_no_subject_the_user_added():
    from agent.retrieval.causes import figure_words, own_subject

    # the planner keeps a growth rate's search words as the thread's topic
    assert own_subject("revenue net sales increased decreased compared to prior year", figure_words(["revenue_growth"])) == ""
    assert own_subject("revenue growth north america", figure_words(["revenue_growth"])) == "north america"


@pytest.fixture
def corpus(db, embedder):
    from tests import agent_corpus

    return agent_corpus.load(db, embedder)


def test_the_statement_of_the_total_is_read_right_after_the_searchs_own_best_for_a_question_in_its_own_words(
        db, embedder, corpus):
    from agent.retrieval.causes import amount_patterns, figure_names
    from agent.retrieval.retrieve import _stating_first
    from store import chunks
    from tests import agent_corpus

    acc = agent_corpus.ACC[("AAPL", 2024)]
    total = "Net sales were $4,321 million in the year, up 3%, primarily due to higher services revenue."
    with db.connection() as conn:
        conn.execute("INSERT INTO chunks (accession, cik, item, ordinal, text, context, n_tokens, embedding)"
                     " VALUES (%s, %s, '7', 900, %s, 'Apple 10-K 2024', 30, %s)",
                     (acc, agent_corpus.APPLE, total, embedder.embed([total])[0]))
        hits = chunks.search(conn, ["supplier disruption risks"], embedder.embed(["supplier disruption risks"]),
                             cik=agent_corpus.APPLE, accessions=[acc], limit=6)
        hits = [h for h in hits if h.text != total]
        assert len(hits) >= 4
        patterns = amount_patterns([(Decimal("4321000000"), "USD")])
        names = figure_names(["revenue"])
        asked = _stating_first(conn, hits, patterns, agent_corpus.APPLE, [acc], names, at=3, limit=1)
        assert [h.id for h in asked[:3]] == [h.id for h in hits[:3]] and asked[3].text == total
        assert asked[3].score == hits[2].score
        # after a figure, "why?" reads it first
        assert _stating_first(conn, hits, patterns, agent_corpus.APPLE, [acc], names)[0].text == total
        # already read before the place it would take: left where the search put it
        ahead = [asked[3], *hits]
        assert _stating_first(conn, ahead, patterns, agent_corpus.APPLE, [acc], names, at=3, limit=1) == ahead
