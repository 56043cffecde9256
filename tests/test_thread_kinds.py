"""Follow-ups whose words only mean something against the thread's figure, through the whole graph
over the fixture corpus (real Postgres, real checkpoints): a kind of figure ("what was the margin?",
"how profitable were they?"), the size of a change ("by how much?"), a year hop forward then its
growth, and asking for more or for what happened after a figure."""

from __future__ import annotations

import pytest

from agent.planning.figure_kinds import kind_of_thread
from agent.planning.followups import asks_more, asks_what_happened, compared_name
from agent.planning.years import parse_years
from tests.conftest import thread_of


@pytest.fixture(scope="module")
def footnote(offline_footnote):
    return offline_footnote


def test_the_margin_after_a_profit_figure_is_that_profit_s_margin(footnote):
    ask = thread_of(footnote)
    assert ask("Apple operating income fiscal 2024").kind == "answer"
    margin = ask("what was the margin?")
    assert margin.kind == "answer", margin.text
    assert margin.plan["metrics"] == ["operating_margin"], margin.plan["metrics"]
    assert margin.plan["tickers"] == ["AAPL"] and margin.plan["fiscal_years"] == [2024]
    assert margin.calculation, margin.text
    before = ask("and the year before?")
    assert before.plan["metrics"] == ["operating_margin"] and before.plan["fiscal_years"] == [2023], before.plan


def test_profitability_after_revenue_is_net_income_and_its_margin_never_a_line_or_a_name(footnote):
    for reply in ("how profitable were they?", "what about profitability?"):
        ask = thread_of(footnote)
        ask("Apple revenue fiscal 2024")
        profit = ask(reply)
        assert profit.kind == "answer", (reply, profit.text)
        assert profit.plan["metrics"] == ["net_income", "net_margin"], (reply, profit.plan["metrics"])
        assert profit.plan["tickers"] == ["AAPL"], reply


def test_margins_after_a_comparison_are_every_margin_for_every_company(footnote):
    ask = thread_of(footnote)
    ask("Apple and Nvidia revenue fiscal 2024")
    margins = ask("what about margins?")
    assert margins.kind == "answer", margins.text
    assert sorted(margins.plan["tickers"]) == ["AAPL", "NVDA"]
    assert set(margins.plan["metrics"]) == {"gross_margin", "operating_margin", "net_margin"}
    assert {n.ticker for n in margins.numbers} == {"AAPL", "NVDA"}


def test_by_how_much_is_the_change_of_the_thread_s_figure(footnote):
    ask = thread_of(footnote)
    ask("Tesla revenue 2024")
    much = ask("by how much?")
    assert much.kind == "answer", much.text
    assert much.plan["metrics"] == ["revenue_change"] and much.plan["fiscal_years"] == [2024]
    assert much.calculation, much.text


def test_growth_after_the_year_after_is_that_year_s_growth(footnote):
    ask = thread_of(footnote)
    ask("Apple revenue fiscal 2023")
    after = ask("and the year after?")
    assert after.plan["fiscal_years"] == [2024] and after.plan["slots"]["fiscal_years"] == "thread, shifted later"
    grew = ask("how much did it grow?")
    assert grew.kind == "answer", grew.text
    assert grew.plan["metrics"] == ["revenue_change", "revenue_growth"] and grew.plan["fiscal_years"] == [2024], grew.plan


def test_growth_after_the_year_before_is_still_the_later_year_s(footnote):
    ask = thread_of(footnote)
    ask("Apple revenue fiscal 2024")
    ask("and the year before?")
    grew = ask("what's the growth rate?")
    assert grew.plan["metrics"] == ["revenue_growth"] and grew.plan["fiscal_years"] == [2024], grew.plan


def test_more_detail_after_a_why_stays_in_the_thread(footnote):
    ask = thread_of(footnote)
    ask("Tesla revenue 2024")
    ask("why did it change?")
    more = ask("give me more detail")
    assert more.kind == "answer", more.text
    assert more.plan["tickers"] == ["TSLA"] and more.plan["intent"] == "qualitative"


@pytest.mark.parametrize("reply", ["what happened?", "more please"])
def test_what_happened_or_more_after_a_figure_is_its_discussion(footnote, reply):
    ask = thread_of(footnote)
    ask("Tesla revenue 2024")
    said = ask(reply)
    assert said.kind == "answer", (reply, said.text)
    assert said.plan["intent"] == "qualitative" and said.plan["items"][0] == "7", (reply, said.plan)
    assert said.plan["metrics"] == ["revenue"] and said.plan["tickers"] == ["TSLA"], reply


def test_kind_shapes():
    assert kind_of_thread("what was the margin?", ["gross_profit"]) == ["gross_margin"]
    assert kind_of_thread("and the margins?", ["revenue", "net_income"]) == ["net_margin"]
    assert kind_of_thread("margins?", ["revenue"]) == ["gross_margin", "operating_margin", "net_margin"]
    assert kind_of_thread("and the margin?", ["operating_income_growth"]) == ["operating_margin"]
    assert kind_of_thread("what was the loss?", ["operating_income"]) == ["operating_income"]
    assert kind_of_thread("and costs?", ["revenue"]) == ["cost_of_revenue"]
    assert kind_of_thread("what about margins in China?", ["revenue"]) == []  # a subject of its own
    assert kind_of_thread("what was revenue?", ["net_income"]) == []  # no kind word
    assert asks_what_happened("ok, what happened there?") and not asks_what_happened("what happened to the deal with X?")
    assert asks_more("more please") and asks_more("give me more detail") and not asks_more("more revenue?")


def test_a_count_of_years_back_is_one_year_that_far_back():
    assert parse_years("and two years earlier?").offsets == [-2]
    assert parse_years("what was it three years before?").offsets == [-3]
    assert parse_years("how about the two years before that?").offsets != [-2]  # the years between: a span


def test_a_kind_word_beside_another_covered_company_is_that_company_s(footnote):
    ask = thread_of(footnote)
    ask("Apple operating income fiscal 2024")
    other = ask("and the margin for nvidia?")
    assert other.kind == "answer", other.text
    assert other.plan["tickers"] == ["NVDA"] and other.plan["metrics"] == ["operating_margin"], other.plan


def test_a_name_the_figure_is_compared_with_is_refused_for_that_name(footnote):
    ask = thread_of(footnote)
    ask("Tesla revenue 2024")
    lidl = ask("how does it compare with Lidl?")
    assert lidl.kind == "refusal" and lidl.refusal_reason == "not_covered", (lidl.refusal_reason, lidl.text)
    assert "Lidl" in lidl.text and "TSLA" not in (lidl.plan.get("tickers") or [])
    assert compared_name("and versus Foobarco?") == "Foobarco"
    assert compared_name("how does that compare to the year before?") is None
    assert compared_name("compare it with Revenue") is None  # a measure, not a name


def test_a_figure_the_message_names_is_never_widened_to_its_kind(footnote):
    ask = thread_of(footnote)
    ask("Apple revenue fiscal 2024")
    own = ask("what's the operating margin?")
    assert own.plan["metrics"] == ["operating_margin"], own.plan["metrics"]


def test_several_acknowledgements_before_a_follow_up_are_no_line_item(footnote):
    ask = thread_of(footnote)
    ask("Tesla revenue 2024")
    prior = ask("cool cool, and the prior year?")
    assert prior.kind == "answer", prior.text
    assert prior.plan["metrics"] == ["revenue"] and prior.plan["fiscal_years"] == [2023], prior.plan


@pytest.fixture(scope="module")
def directory():
    from agent.planning.companies import CompanyDirectory
    from tests.test_companies import COVERED, SEC

    return CompanyDirectory.from_rows(COVERED, SEC, {320193: [2023, 2024], 1045810: [2024, 2025],
                                                     1318605: [2023, 2024]})


def planned(directory, *texts, previous=None):
    from agent.planning.rules import plan_rules

    for text in texts:
        previous = plan_rules(text, previous=previous, directory=directory)
    return previous


def test_which_one_with_a_year_chooses_among_the_thread_s_companies(directory):
    p = planned(directory, "how does Nvidia describe its competition?", "and Apple?",
                "which one had higher revenue in 2023?")
    assert sorted(p.tickers) == ["AAPL", "NVDA"] and p.metrics == ["revenue"] and p.fiscal_years == [2023], p


def test_that_year_after_a_latest_filing_answer_is_that_filing_s_year(directory):
    from agent.planning.plan import Plan

    prose = Plan(route="domain", intent="qualitative", tickers=["AAPL"], fiscal_years=[2024], latest=True,
                 items=["1A"], query="supply chain", topic="supply chain")  # as remembered: concrete years
    p = planned(directory, "how much revenue did they make that year?", previous=prose)
    assert p.metrics == ["revenue"] and p.fiscal_years == [2024] and not p.latest, p
    p = planned(directory, "how much revenue did they make?", previous=prose)
    assert p.latest  # no year pointed at: the latest, as before


def test_a_later_year_the_thread_s_company_has_not_filed_is_what_its_filing_says(directory):
    p = planned(directory, "Tesla capex 2024", "what do they say about 2026 spending?")
    assert p.route == "domain" and p.intent == "qualitative" and p.tickers == ["TSLA"], p
    assert p.refusal_reason is None and 2026 not in p.fiscal_years, p


def test_short_replies_that_lean_on_the_thread(directory):
    p = planned(directory, "Tesla net income 2024", "per share?")
    assert p.metrics == ["eps_diluted"] and p.tickers == ["TSLA"] and p.fiscal_years == [2024], p
    p = planned(directory, "Tesla revenue 2024", "per share?")
    assert "eps_diluted" not in p.metrics  # revenue per share is no reported figure
    p = planned(directory, "Tesla net income 2024", "and before that?")
    assert p.metrics == ["net_income"] and p.fiscal_years == [2023], p
    p = planned(directory, "Tesla net income 2024", "Apple too?")
    assert p.tickers == ["AAPL"] and p.metrics == ["net_income"], p
    p = planned(directory, "Tesla net income 2024", "how so?")
    assert p.intent == "qualitative" and p.metrics == ["net_income"] and p.items[0] == "7", p


def test_a_rival_the_thread_s_filings_name_is_that_company_not_a_line_of_the_thread_s():
    """"what about Rivalco?" in a Tesla thread, where Tesla's filings name Rivalco often (a brand
    lookup would make it Tesla's word): SEC's map knows a Rivalco, so the reply is about it, refused
    as not covered; a product no registrant is named after stays the thread's."""
    from agent.planning.brands import MIN_CHUNKS, brands_from
    from agent.planning.companies import CompanyDirectory
    from tests.test_companies import COVERED, SEC

    rivals = CompanyDirectory.from_rows(COVERED, SEC + [("RVLC", 990001, "RIVALCO MARTIN CORP")], {1318605: [2023, 2024]})
    tesla = rivals.by_ticker["TSLA"]

    def lookup(phrase):
        return [(tesla, MIN_CHUNKS + 5)] if phrase.lower() in ("rivalco", "zentrix") else []

    with brands_from(lookup):
        p = planned(rivals, "Tesla revenue 2024", "what about Rivalco?")
        assert p.route == "refusal" and p.refusal_reason == "not_covered" and "Rivalco" in p.refusal_detail, p
        p = planned(rivals, "Tesla revenue 2024", "and Zentrix?")
        assert p.refusal_reason != "not_covered" and "TSLA" in p.tickers, p



def test_a_share_of_revenue_after_cost_of_revenue_is_its_share_never_revenue(footnote):
    ask = thread_of(footnote)
    ask("Apple revenue fiscal 2024")
    assert ask("cost of sales?").plan["metrics"] == ["cost_of_revenue"]
    share = ask("as a % of revenue")
    assert share.kind == "answer" and share.plan["metrics"] == ["cost_of_revenue_pct"], (share.plan, share.text)
    assert share.calculation and share.plan["tickers"] == ["AAPL"], share.text
