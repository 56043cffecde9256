"""Prose questions that were refused though the filing answers them: a lead-in naming the filing, what a
thing is like or how much it matters, an acronym typed in lowercase, a forecast named as the company's
practice, how a thing of the company's will be done, and another business named as the topic. Each keeps its
refusal where the answer would not be right: an amount asked as an amount, a forecast asked of Footnote,
markets and stocks, the company itself acquired."""

from __future__ import annotations

import pytest

from agent.composing.compose import typed_in_lowercase
from agent.composing.sentence_rank import cased_terms
from agent.planning.brands import brands_from
from agent.planning.companies import CompanyDirectory
from agent.planning.in_words import prose_fallback
from agent.planning.plan import refusal_plan
from agent.planning.prose_route import without_lead_in
from agent.planning.rules import plan_rules
from agent.planning.scope import FORECASTS, company_future, out_of_scope
from tests.test_companies import COVERED, SEC

@pytest.fixture(scope="module")
def directory() -> CompanyDirectory:
    return CompanyDirectory.from_rows(COVERED, SEC, {320193: [2023, 2024], 1045810: [2024, 2025],
                                                           1467858: [2023], 21344: [2023, 2024]})


@pytest.mark.parametrize("text, rest", [
    ("based on its latest 10-k, how does netflix recognize revenue?", "how does netflix recognize revenue?"),
    ("per the 10-k: how does unh account for claims", "how does unh account for claims"),
    ("according to the annual report, what are the main components of opex",
     "what are the main components of opex"),
    ("in netflix's 10-k, what does it say about amortization?", "what does it say about amortization?"),
    ("using apple's fy2024 10-k, describe its deferred revenue.", "describe its deferred revenue."),
    ("looking at its annual report how does visa earn revenue?", "how does visa earn revenue?"),
    # no lead-in naming a filing: the question as written
    ("in 2023, how did revenue change?", "in 2023, how did revenue change?"),
    ("according to management, what is the plan?", "according to management, what is the plan?"),
    ("in the 10-k?", "in the 10-k?"),
])
def test_a_lead_in_naming_the_filing_is_read_past(text, rest):
    assert without_lead_in(text) == rest


@pytest.mark.parametrize("text", [
    "Based on its 10-K, how does Apple recognize subscription revenue?",
    "Per the annual report: how does Apple recognize subscription revenue?",
])
def test_how_a_business_works_after_a_lead_in_is_searched_with_the_figure_named(directory, text):
    refused = refusal_plan("unknown_metric", "recognize subscription revenue", tickers=["AAPL"])
    plan = prose_fallback(refused, text, directory)
    assert plan is not None and plan.intent == "qualitative"
    # read past a lead-in, the form is less certain: a quoted sentence must name the figure, the form's verb aside
    assert plan.unless_named["words"] == ["subscription", "revenue"]
    plain = prose_fallback(refused, text.split(",", 1)[-1].split(":", 1)[-1].strip(), directory)
    assert plain is not None and plain.unless_named["words"] == []  # at the start: the relevance floor judges it


def test_an_amount_after_a_lead_in_keeps_the_words_a_passage_must_name(directory):
    refused = refusal_plan("unknown_metric", "churn rate", tickers=["AAPL"])
    plan = prose_fallback(refused, "Based on its 10-K, what is Apple's churn rate?", directory)
    assert plan is None or plan.unless_named["words"] == ["churn", "rate"]


@pytest.mark.parametrize("text, detail, words", [
    ("How significant is Apple's China revenue to its business?", "significant china revenue (members reported: none)",
     ["china", "revenue"]),
    ("how important is the zorble program to Apple?", "important zorble program", ["zorble", "program"]),
    ("What is Apple's zorble backlog made up of?", "zorble backlog", ["zorble", "backlog"]),
])
def test_what_a_thing_is_like_is_answered_only_where_a_passage_names_it(directory, text, detail, words):
    plan = prose_fallback(refusal_plan("unknown_metric", detail, tickers=["AAPL"]), text, directory)
    assert plan is not None and plan.intent == "qualitative"
    assert plan.unless_named == {"reason": "unknown_metric", "detail": detail, "words": words}


@pytest.mark.parametrize("text, detail", [
    ("how big is Apple's zorble revenue?", "big zorble revenue"),
    ("what kind of debt does Apple have?", "kind of debt"),  # debt securities held answer another question
])
def test_how_big_a_figure_is_or_its_kind_stays_a_figure(directory, text, detail):
    assert prose_fallback(refusal_plan("unknown_metric", detail, tickers=["AAPL"]), text, directory) is None


def test_an_acronym_typed_in_lowercase_is_the_one_the_filing_writes():
    sentences = ["We utilize foundries, such as TSMC, to produce our wafers.", "Our supply chain is in Asia."]
    assert typed_in_lowercase(cased_terms("what does nvidia say about tsmc"), sentences) >= {"#tsmc"}
    # a word some candidate uses as a word stays that word ("pet" food is no PET plastic)
    assert "pet" in typed_in_lowercase(cased_terms("pet food sales"), ["PET bottles.", "Our pet food business grew."])
    assert "pet" in typed_in_lowercase(cased_terms("pet food sales"), ["Our pet food business grew."])


@pytest.mark.parametrize("text", [
    "netflix: how is forecasting of content amortization done?",
    "what does nike say about the difficulty of forecasting demand?",
    "how are forecasts of future demand made at nike?",
])
def test_a_forecast_named_as_the_companys_practice_is_no_forecast_asked(text):
    assert out_of_scope(text) is None


@pytest.mark.parametrize("text", [
    "nvda 2026 revenue forecast",
    "nike demand forecasting risk",  # a bare phrase: the filing may say nothing of it
    "forecast amazon's aws growth for 2025.",
    "how is the market forecasting tesla deliveries",
    "what's your forecast for nvidia revenue next year?",
    "predict the outcome of the talc litigation",
])
def test_a_forecast_asked_for_stays_refused(text):
    assert out_of_scope(text) == FORECASTS


@pytest.mark.parametrize("masked, stated", [
    ("how will company's vizio acquisition be integrated?", True),
    ("when will company vernova be spun off?", True),
    ("when will company be acquired?", False),  # done to the company by others: a guess
    ("will company be bought by company?", False),
    ("when will company be profitable again?", False),
    ("what will be the impact of the election on the stock market?", False),
    ("what will be the impact of rate cuts on company stock?", False),
    ("what will be the effect of tariffs on my portfolio?", False),
    ("what will you expect the impact of tariffs on company to be?", False),
])
def test_the_companys_own_future_is_told_by_its_filing(masked, stated):
    assert company_future(masked) is stated


@pytest.mark.parametrize("text", [
    "How will Apple's zorble acquisition be integrated?",
    "When will GM's Cruise unit be shut down?",
    # an effect on the company, which its notes state ("which will require the Company to disclose ...")
    "What will be the impact of new accounting standards on Apple?",
])
def test_how_a_thing_of_the_companys_will_be_done_is_searched_in_its_filing(directory, text):
    plan = plan_rules(text, directory=directory)
    assert plan.route == "domain" and plan.intent == "qualitative"


@pytest.mark.parametrize("text", [
    "When will Apple be acquired?",
    "What will be the impact of rate cuts on Apple stock?",
    "What will Tesla's revenue be in 2026?",
    "What's Apple's 2025 revenue outlook?",
])
def test_a_guess_about_the_company_stays_refused(directory, text):
    plan = plan_rules(text, directory=directory)
    assert plan.route == "refusal" and plan.refusal_reason == "out_of_scope"


def test_another_business_named_as_the_topic_is_searched_for_by_its_name(directory):
    plan = plan_rules("how reliant is Apple on Nvidia?", directory=directory)
    assert plan.tickers == ["AAPL"] and plan.intent == "qualitative"
    assert len(plan.sub_queries) == 2 and plan.sub_queries[0] == plan.query
    assert "nvidia" in plan.sub_queries[1].lower()


def test_a_topic_that_says_more_than_the_name_is_searched_as_asked(directory):
    plan = plan_rules("What does Meta say about Apple's App Tracking Transparency?", directory=directory)
    assert plan.tickers == ["META"] and plan.intent == "qualitative" and plan.sub_queries == []


# An SEC registrant whose ticker spells a unit's initials in Apple's (invented) filings below
WITH_IFS = [*SEC, ("IFS", 1615903, "Intercorp Financial Services Inc.")]


def _writes_ifs(phrase: str) -> list[tuple[int, int]]:
    """A brand lookup over invented counts: Apple's filings write "IFS" in five chunks."""
    return [(320193, 5)] if phrase.lower() == "ifs" else []


def test_a_word_the_threads_filings_write_inside_a_question_is_theirs():
    directory = CompanyDirectory.from_rows(COVERED, WITH_IFS, {320193: [2023, 2024]})
    first = plan_rules("what does Apple say about its foundry plans?", directory=directory)
    with brands_from(_writes_ifs):
        asked = plan_rules("what is IFS?", previous=first, directory=directory)
        assert asked.route == "domain" and asked.tickers == ["AAPL"] and asked.intent == "qualitative"
        # a reply that is only the name asks about that registrant, whoever writes it
        named = plan_rules("what about IFS?", previous=first, directory=directory)
        assert named.route == "refusal" and named.refusal_reason == "not_covered"
    with brands_from(lambda phrase: []):  # the thread's filings never write it: that registrant
        other = plan_rules("what is IFS?", previous=first, directory=directory)
        assert other.route == "refusal" and other.refusal_reason == "not_covered"


def test_a_refused_figure_searched_in_prose_keeps_its_refusal_unless_a_quoted_sentence_names_it():
    from agent.composing.compose import unnamed_in_quotes
    from agent.composing.draft import Claim

    held = {"reason": "unknown_metric", "detail": "backlog", "words": ["backlog"]}
    audit = [Claim(text="Our audits also included evaluating the accounting principles used.", evidence_id="c:1")]
    named = [Claim(text="The backlog consists of estimated revenue from signed contracts.", evidence_id="c:2")]
    assert unnamed_in_quotes(held, audit)
    assert not unnamed_in_quotes(held, [*audit, *named])
    assert not unnamed_in_quotes({**held, "words": []}, audit)  # a discussion asked for: the floor judges it
    assert not unnamed_in_quotes(None, audit)


def test_a_form_read_past_a_lead_in_answers_only_with_a_sentence_naming_the_figure(directory):
    led = plan_rules("Per the 10-K: how does Apple manage its zorble inventory?", directory=directory)
    assert led.route == "domain" and led.intent == "qualitative"
    assert led.unless_named is not None and set(led.unless_named["words"]) == {"zorble", "inventory"}
    plain = plan_rules("how does Apple manage its zorble inventory?", directory=directory)
    assert plain.route == "domain" and plain.intent == "qualitative" and plain.unless_named is None


def test_a_term_is_excused_as_no_company_only_in_a_question_put_about_it():
    """A bare reply naming a term after a figure ("and the 737 MAX?") wants that figure of it: the term is not
    excused as the company's own word there, so the reply never inherits the company's total."""
    from types import SimpleNamespace

    from agent.planning.rules import _asks_about

    def read(low: str, prose: bool = False):
        return SimpleNamespace(prose_ask=prose, low=low)

    assert _asks_about(read("what is ifs?")) and _asks_about(read("does it affect their ev strategy?"))
    assert _asks_about(read("any news on the 737 max?", prose=True))
    assert not _asks_about(read("and the 737 max?")) and not _asks_about(read("what about ifs?"))
    assert not _asks_about(read("how about the 737 max?"))
