"""Questions asked in words reach the filing's prose; figure questions stay figures.

- A question the figure path cannot resolve and that asks how something went or what a named thing
  brought ("how did Lowe's comparable sales do?", "how much revenue did Xilinx add for AMD?") is a
  passage search, never an unknown metric; the same form about the company's own figure stays one.
- "what did Walmart acquire?" asks what, not how much: no line lookup of the verb.
- What a company will do ("will Boeing resume buybacks?") is a plan its filing states; what its
  figures will do stays a forecast, refused.
- In a prose thread: a company after "from" is a topic of the thread's company; a reply swapping the
  figure ("and the tax rate?") keeps the thread's subject; "what's the forecast?" is the company's.
"""

from __future__ import annotations

import pytest

from agent.planning.companies import CompanyDirectory
from agent.planning.exemplars import meaning_from
from agent.planning.rules import plan_rules
from agent.planning.topics import expand_query
from tests.test_companies import COVERED, SEC

EXTRA = [(50863, "INTEL CORP", ["INTC"])]


@pytest.fixture(scope="module")
def directory() -> CompanyDirectory:
    return CompanyDirectory.from_rows(COVERED + EXTRA, SEC, {104169: [2024, 2025], 12927: [2023, 2024],
                                                              60667: [2023], 2488: [2023], 50863: [2023]})


@pytest.fixture(autouse=True, scope="module")
def _judged_by_meaning(embedder):
    with meaning_from(embedder):
        yield


def thread(directory, *turns):
    plan = None
    for text in turns:
        plan = plan_rules(text, previous=plan, directory=directory)
    return plan


def prose(plan) -> bool:
    return plan.route == "domain" and plan.intent == "qualitative" and not plan.metrics


@pytest.mark.parametrize("text, ticker", [
    ("how did Lowe's comparable sales do in fiscal 2023?", "LOW"),
    ("what did Lowe's comparable sales do in 2023?", "LOW"),
    ("how did Boeing's defense backlog hold up in 2024?", "BA"),
    ("how much revenue did Xilinx add for AMD?", "AMD"),
    ("how is Walmart's cash flow holding up?", "WMT"),  # a name matching several lines, asked in words
    ("what's the trend in Lowe's DIY sales?", "LOW"),
])
def test_asked_in_words_and_no_figure_answers_is_prose(directory, text, ticker):
    p = thread(directory, text)
    assert prose(p) and p.tickers == [ticker], (p.route, p.refusal_reason, p.metrics)


@pytest.mark.parametrize("text", [
    "how much revenue did AMD add in 2023?",  # the company's own figure: looked up, or refused by its name
    "what was NVIDIA's EBITDA for fiscal 2025?",
    "how did Apple's revenue change in 2024?",  # a figure the planner knows: its change
    "what's Walmart's cash flow?",  # which cash flow: asked, not searched
])
def test_figure_questions_stay_figures(directory, text):
    p = thread(directory, text)
    assert not prose(p) or p.probe, (p.route, p.intent, p.metrics)


def test_a_reply_in_words_searches_the_threads_subject(directory):
    p = thread(directory, "what is the 737-9 door plug matter at Boeing?", "how did it hit deliveries in 2024?")
    assert prose(p) and p.tickers == ["BA"]
    assert "door plug" in p.query and "door plug" in p.subject


@pytest.mark.parametrize("text", ["what did Walmart acquire in fiscal 2025?", "what did Boeing buy in 2024?"])
def test_what_a_company_acquired_is_no_line_of_its_verb(directory, text):
    p = thread(directory, text)
    assert prose(p) and not p.probe
    assert "7" in p.items  # an event: MD&A with the notes and risks


@pytest.mark.parametrize("text", ["what did PepsiCo spend on advertising in 2023?",
                                  "what did Coca-Cola spend on advertising in 2023"])
def test_a_line_after_the_verb_stays_the_figure_asked(directory, text):
    p = thread(directory, text)
    assert not prose(p) or any("advertising" in k for k in p.probe), (p.route, p.intent, p.metrics, p.probe)


def test_everyday_words_searched_as_the_filings():
    assert "loss" in expand_query("why did it lose so much money")


@pytest.mark.parametrize("text", [
    "will Boeing resume share repurchases in 2025?",
    "is Intel going to continue paying a dividend?",
])
def test_what_a_company_will_do_is_its_filed_plan(directory, text):
    p = thread(directory, text)
    assert p.route == "domain" and p.intent == "qualitative", (p.refusal_reason, p.refusal_detail)


@pytest.mark.parametrize("text", [
    "will Nvidia's revenue grow next year?",
    "will Tesla sell more cars next year?",
    "will Apple stock go up?",
    "will the Fed cut rates next year?",  # no company's plan
    "will Apple raise prices next year?",  # no act a filing states a plan for
    "will Johnson Controls get acquired next year?",  # what others will do to it
    "will Intel be acquired?",
])
def test_what_its_figures_or_stock_will_do_stays_refused(directory, text):
    p = thread(directory, text)
    assert p.route == "refusal" and p.refusal_reason == "out_of_scope"


def test_a_company_after_from_in_a_prose_thread_is_a_topic(directory):
    p = thread(directory, "what does AMD say about competition from Intel?", "and from Nvidia in graphics?")
    assert prose(p) and p.tickers == ["AMD"] and "nvidia" in p.query.lower()
    switched = thread(directory, "what does AMD say about competition from Intel?", "what about Nvidia?")
    assert switched.tickers == ["NVDA"]


def test_a_reply_swapping_the_figure_keeps_the_subject(directory):
    p = thread(directory, "what happened with Boeing's 737-9 door plug?", "how did it affect revenue?",
               "and the tax rate?")
    assert p.route == "domain" and p.intent == "qualitative" and p.tickers == ["BA"]
    assert "door plug" in p.query


def test_the_forecast_in_a_thread_is_the_companys(directory):
    p = thread(directory, "why did Walmart's gross profit rate rise in fiscal 2025?", "what's the forecast?")
    assert p.route == "domain" and p.intent == "qualitative" and p.tickers == ["WMT"]
    mine = thread(directory, "why did Walmart's gross profit rate rise in fiscal 2025?", "what's your forecast?")
    assert mine.route == "refusal" and mine.refusal_reason == "out_of_scope"
    assert thread(directory, "what's the forecast for Walmart?").route == "refusal"


def test_a_name_after_a_covered_possessive_is_its_own_product(directory):
    p = thread(directory, "what is Nvidia's NOW platform?")  # NOW is ServiceNow's ticker; here Nvidia's product
    assert p.route == "domain" and p.tickers == ["NVDA"], (p.refusal_reason, p.refusal_detail)
    assert thread(directory, "what does Nvidia say about NOW?").tickers == ["NVDA"]
    # a figure of it is no prose question: never Nvidia's total revenue in its place
    figure = thread(directory, "Nvidia's NOW revenue in 2024")
    assert not (figure.route == "domain" and figure.metrics == ["revenue"] and figure.tickers == ["NVDA"])


def test_a_why_reply_naming_its_own_subject_searches_it_beside_the_figure():
    from agent.planning.plan import Plan
    from agent.retrieval.causes import cause_queries

    # "what about Humira?" after "why did AbbVie's revenue fall?": Humira's part of the revenue change
    plan = Plan(route="domain", intent="qualitative", tickers=["ABBV"], metrics=["revenue"], topic="humira revenue",
                slots={"metrics": "thread, its cause"})
    query = cause_queries(None, plan, "what about Humira?", [{"cik": 1551152, "fiscal_years": []}], ["revenue"])[1551152]
    assert query.startswith("humira ") and "primarily due to" in query
    plain = plan.model_copy(update={"topic": "revenue"})  # "why?" alone: the figure's own words only
    assert not cause_queries(None, plain, "why?", [{"cik": 1551152, "fiscal_years": []}], ["revenue"])[1551152] \
        .startswith("humira")


@pytest.mark.parametrize("text", ["how do Coca-Cola's concentrate operations make money?",
                                  "how does Lowe's pro business generate its sales?"])
def test_how_a_business_works_is_asked_in_words_not_as_its_lines_amount(directory, text):
    # a line may carry the business's name ("concentrate operations"), but how it works is told in words
    p = thread(directory, text)
    assert prose(p) and not p.probe, (p.route, p.intent, p.metrics, p.probe)


@pytest.mark.parametrize("text", [
    "what changed in zed's cloud business in 2024",
    "zed cloud 2023 vs 2024 what changed",
    "what's changed at zed's retail unit?",
    "what has changed in zed's reality labs segment",
])
def test_what_changed_asks_for_the_filings_words(text):
    # "what changed" asks what the filing tells of a change: its discussion, not one amount of a line
    # ("aws" alone resolves to a line probe, which no table prints, and the question was refused)
    from agent.planning.prose_route import asks_statement

    assert asks_statement(text.lower())
