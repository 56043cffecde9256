"""What a prose answer may quote: whole statements (a bullet point is one, 'U.S.' ends none), of
a sentence with unverified amounts only its longest figure-free clause, and only sentences that
name what the question is about."""

from __future__ import annotations

from agent.composing import sentence_rank
from agent.composing.compose import _candidates, _figure_free_clause, compose_extractive
from agent.composing.draft import Evidence
from agent.checking.guards import split_sentences
from agent.planning.plan import Plan
from agent.planning.prose_route import order_items


def _chunk(n: int, item: str, text: str) -> Evidence:
    return Evidence(id=f"c:{n}", kind="chunk", ticker="ZZZ", cik=1, fiscal_year=2024, accession="a", url="u",
                    item=item, text=text)


def test_an_abbreviation_ends_no_sentence():
    text = "The U.S. Department of Justice filed a complaint against Zed Inc. in March. It seeks damages."
    assert split_sentences(text) == ["The U.S. Department of Justice filed a complaint against Zed Inc. in March.",
                                     "It seeks damages."]


def test_the_clause_rule_keeps_the_longest_figure_free_clause():
    # after the amount, from the words that explain it (no comma needed), dates allowed
    assert _figure_free_clause("Segment loss increased by $6,334 million primarily due to lower deliveries of "
                               "aircraft, a strike and new contract terms.") == \
        "…primarily due to lower deliveries of aircraft, a strike and new contract terms."
    assert _figure_free_clause("Sales fell $6.03 billion, or 8%, in the year ended December 31, 2024, primarily due "
                               "to lower prices.") == "…in the year ended December 31, 2024, primarily due to lower prices."
    # before the amount, when that is where the statement is
    assert _figure_free_clause("We funded the purchase of the distributor with commercial paper and cash on hand, "
                               "with consideration totaling $17.7 billion.") == \
        "We funded the purchase of the distributor with commercial paper and cash on hand…"
    # a subject without its statement, or the rest of a noun phrase, is never a quote
    assert _figure_free_clause("Capital expenditures, including finance leases, were $39.2 billion.") is None
    assert _figure_free_clause("We repurchased $95.0 billion of our common stock during the year.") is None


def test_a_bullet_point_is_a_statement_without_its_marker():
    chunk = _chunk(1, "7", "Highlights\n•Gross margin declined on higher discounts and channel mix, partly offset "
                           "by lower product costs\n•Inventories fell")
    quotes = [c[2] for c in _candidates([chunk])]
    assert quotes == ["Gross margin declined on higher discounts and channel mix, partly offset by lower product costs"]


def test_a_quote_must_name_what_the_question_is_about(embedder):
    chunks = [_chunk(1, "7", "Gross margin decreased on higher discounts and changes in channel mix. "
                             "Working capital improved on lower inventory purchases in the prior year. "
                             "The effective tax rate decreased due to a one-time benefit.")]
    plan = Plan(route="domain", intent="qualitative", tickers=["ZZZ"], fiscal_years=[2024],
                query="why did gross margin drop")
    draft = compose_extractive("zzz: why did gross margin drop?", plan, chunks, embedder=embedder)
    quoted = [c.text for c in draft.claims]
    assert quoted == ["Gross margin decreased on higher discounts and changes in channel mix."]
    assert sentence_rank.subject_terms(sentence_rank.cased_terms("why did gross margin drop so much")) == \
        {sentence_rank.stem("gross"), sentence_rank.stem("margin")}  # the direction asked about is no subject


def test_a_topic_of_the_business_is_searched_in_its_risk_factors_too():
    assert order_items("what does amd say about competition from intel?", ["1"]) == ["1", "1A"]
    assert order_items("who are nvidia's customers?", ["1"]) == ["1", "7"]  # a description stays Item 1 first
    assert order_items("what are the risk factors?", ["1A"]) == ["1A"]
    assert order_items("how does apple describe its suppliers in item 1?", ["1"]) == ["1"]  # the section named
    assert order_items("where does tesla make its cars?", ["1"]) == ["1"]  # no other business in it
