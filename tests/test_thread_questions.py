"""Follow-ups that lean on the thread's subject without naming it: a question pointing back at it ("what's
happening there?") or put in a phrase its companies' filings write ("how is the gaming market changing?"), a
part of its figure ("how much of it came from the US?"), its years ("in those years", "the two years before
that"), and a shortened sibling member or country in a reply. Planner tests over a directory, the corpus
lookup lent as the planning node lends it; the member names over printed labels."""

from __future__ import annotations

import pytest

from agent.planning.brands import brands_from
from agent.planning.rules import plan_rules
from agent.planning.years import parse_years
from agent.retrieval.segments import find_member


@pytest.fixture(scope="module")
def directory():
    from agent.planning.companies import CompanyDirectory
    from tests.test_companies import COVERED, SEC

    return CompanyDirectory.from_rows(COVERED, [*SEC, ("USB", 36104, "US BANCORP \\DE\\")],
                                      {320193: [2023, 2024], 1045810: [2024, 2025], 1318605: [2023, 2024],
                                       104169: [2024, 2025]})


# chunks of each company's filings that write a phrase (the corpus lookup's `writes`)
WRITTEN = {("gaming market", 1045810): 12, ("ecommerce", 104169): 40}


def _lookup(phrase: str) -> list[tuple[int, int]]:
    return []


def _writes(phrase: str, ciks: frozenset[int]) -> int:
    return sum(WRITTEN.get((phrase.lower(), cik), 0) for cik in ciks)


_lookup.writes = _writes  # type: ignore[attr-defined]


def planned_with(lookup, directory, *texts):
    """The plan of a thread's last message, each message planned after the one before, `lookup` lent as the
    planning node lends the corpus's."""
    previous = None
    with brands_from(lookup):
        for text in texts:
            previous = plan_rules(text, previous=previous, directory=directory)
    return previous


def planned(directory, *texts):
    return planned_with(_lookup, directory, *texts)


def test_a_question_pointing_back_at_a_figure_asks_its_filing_never_small_talk(directory):
    for said in ("what's happening there?", "what's going on with that?"):
        p = planned(directory, "Tesla revenue 2024", said)
        assert p.route == "domain" and p.tickers == ["TSLA"] and p.intent == "qualitative", (said, p)
        assert p.fiscal_years == [2024] and p.asks_cause, p
    shrinking = planned(directory, "Tesla revenue 2024", "is that shrinking?")
    assert shrinking.route == "domain" and shrinking.tickers == ["TSLA"], shrinking
    for said in ("thanks!", "how are you today?", "ok cool"):  # small talk stays small talk
        assert planned(directory, "Tesla revenue 2024", said).route == "meta", said
    for said in ("what's the stock price there?", "should I buy it?"):  # and a refusal stays one
        p = planned(directory, "Tesla revenue 2024", said)
        assert p.route == "refusal" and p.refusal_reason == "out_of_scope", (said, p)


def test_a_market_the_threads_filings_write_is_asked_of_them(directory):
    p = planned(directory, "nvidia gaming revenue fy2025", "how is the gaming market changing?")
    assert p.route == "domain" and p.intent == "qualitative" and p.tickers == ["NVDA"], p
    assert p.topic == "gaming market" and not p.metrics, p
    # a market the thread's filings never write is no question about them
    other = planned(directory, "Tesla revenue 2024", "how is the gaming market changing?")
    assert other.route == "refusal" and other.refusal_reason == "out_of_scope", other


def test_the_years_before_the_threads_year_are_that_many_beside_it(directory):
    years = parse_years("and the two years before that?")
    assert years.latest and years.offsets == [-2, -1, 0] and years.trend
    p = planned(directory, "Tesla revenue 2024", "and the two years before that?")
    assert p.route == "domain" and p.fiscal_years == [2022, 2023, 2024] and p.metrics == ["revenue"], p
    assert parse_years("two years before").offsets == [-2]  # "two years before" is one year, as before


def test_those_years_are_every_year_the_thread_just_showed(directory):
    for said in ("capex in those years?", "capex for both years?"):
        p = planned(directory, "Apple revenue 2023", "and 2024?", said)
        assert p.fiscal_years == [2023, 2024] and p.metrics == ["capex"] and p.tickers == ["AAPL"], (said, p)
    one = planned(directory, "Apple revenue 2023", "and 2024?", "capex?")
    assert one.fiscal_years == [2024], one  # naming no years keeps the last


def test_a_country_in_a_reply_is_a_part_of_the_figure_never_a_company(directory):
    for said in ("and in the US?", "what about the US?"):
        p = planned(directory, "Apple revenue 2024", said)
        assert p.route == "domain" and p.tickers == ["AAPL"], (said, p)
        assert any(k.startswith("line:us|") for k in p.metrics), (said, p)
    asked = planned(directory, "Apple revenue 2024", "how much of it came from the US?")
    assert asked.route == "domain" and asked.tickers == ["AAPL"], asked  # never U.S. Bancorp
    uk = planned(directory, "Apple revenue 2024", "and the UK?")
    assert uk.route == "domain" and uk.tickers == ["AAPL"] and uk.lone_name is None, uk  # never a company "UK"


def test_a_plural_growth_rate_is_the_growth_rate(directory):
    p = planned(directory, "Apple revenue 2024", "growth rates?")
    assert p.route == "domain" and p.metrics == ["revenue_growth"], p


def test_a_lowercase_term_the_threads_filings_write_is_no_company(directory):
    p = planned(directory, "walmart revenue fy2025", "and what about e-commerce?")
    assert p.route == "domain" and p.tickers == ["WMT"] and p.lone_name is None, p
    # what the filing says of it, or its member's figure when one is tagged by the word: never a line of revenue
    assert p.intent == "qualitative" and not p.metrics, p
    named = planned(directory, "walmart revenue fy2025", "and what about zorblax?")  # no word of theirs
    assert named.route == "refusal" or named.lone_name, named


def test_several_countries_beside_one_member_are_its_places_never_its_name():
    members = [("srt:StatementGeographicalAxis", "wmt:WalmartInternationalMember"),
               ("srt:StatementGeographicalAxis", "country:US")]
    labels = {"wmt:WalmartInternationalMember": {"Net sales", "Canada", "China", "United Kingdom"}}
    assert find_member("uk", members, labels) == ([], False)
    assert find_member("united kingdom", members, labels) == ([], False)
    # one place name beside a member is that member's own name in the filing's table
    alone = {"wmt:WalmartInternationalMember": {"Net sales", "Canada"}}
    assert find_member("canada", members, alone)[0] == [members[0]]


def test_the_store_counts_the_chunks_of_a_companys_filings_that_write_a_phrase(db, embedder):
    from agent.planning.brands import corpus_lookup, writes_phrase
    from store.brands import chunks_writing
    from tests import agent_corpus

    agent_corpus.load(db, embedder)
    with db.connection() as conn:
        # in any case, stemmed: "component suppliers" in Apple's risk factors, none in Microsoft's
        assert chunks_writing(conn, "component supplier", [agent_corpus.APPLE]) == 1
        assert chunks_writing(conn, "component supplier", [agent_corpus.MICROSOFT]) == 0
        assert chunks_writing(conn, "research and development", [agent_corpus.APPLE]) == 1
    lent = corpus_lookup(db)
    with brands_from(lent):  # three chunks at least make a phrase the company's own
        assert not writes_phrase("component suppliers", {agent_corpus.APPLE})
        assert writes_phrase("component suppliers", {agent_corpus.APPLE}, least=1)
    assert not writes_phrase("component suppliers", {agent_corpus.APPLE}, least=1)  # no lookup lent: none


def test_a_parts_share_of_the_figure_is_that_share(directory):
    from agent.planning.thread import relative_to_thread
    from agent.planning.plan import Plan

    revenue = Plan(route="domain", intent="numeric", tickers=["NKE"], metrics=["revenue"], fiscal_years=[2024])
    assert relative_to_thread("what percentage of that was footwear?", revenue) == \
        "and what share of revenue came from footwear?"
    assert relative_to_thread("what % of it came from the US?", revenue) == "and what share of revenue came from the US?"
    assert relative_to_thread("what was footwear?", revenue) == "what was footwear?"  # no share asked


def test_a_figure_said_against_a_named_year_shows_both(directory):
    p = planned(directory, "Tesla revenue 2024", "is that more than 2022?")
    assert p.route == "domain" and p.fiscal_years == [2022, 2024] and p.metrics == ["revenue"], p
    why = planned(directory, "Tesla revenue 2024", "why was it lower than 2023?")
    assert why.fiscal_years == [2024] and why.intent == "qualitative", why  # its cause: the later year's discussion


def test_a_part_asked_of_the_figure_is_probed_as_its_member(directory):
    """"how much of it came from the US?" is searched in prose with the figure's member of that name as its probe
    (the member's figure when the company tags one); a driver ("price increases") probes no member of its own."""
    from agent.planning.plan import Plan
    from agent.planning.thread_members import part_probed

    figure = Plan(route="domain", intent="numeric", tickers=["AAPL"], metrics=["revenue"], fiscal_years=[2024])
    prose = Plan(route="domain", intent="qualitative", tickers=["AAPL"], fiscal_years=[2024], probe=["line:came us"])
    assert part_probed(prose.model_copy(), figure, "how much of it came from the US?").probe == ["dim:revenue|us"]
    assert part_probed(prose.model_copy(), figure, "what drove it?").probe == ["line:came us"]  # no part named
    after_prose = figure.model_copy(update={"intent": "qualitative"})
    assert part_probed(prose.model_copy(), after_prose, "how much of it came from the US?").probe == ["line:came us"]
