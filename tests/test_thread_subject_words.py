"""What a prose follow-up searches for: the thread's subject, as the follow-up's own words change it. A reply
naming only another subject ("and services?") keeps the thread's cause question and swaps what it is about;
a pronoun ("if it fails", "income there") stands for the thread's subject, not for the words the last reply
added around it; a question about what the subject did to a figure ("did it hurt their margins?") is read
in the filing, beside the subject. Planner tests over a directory, the corpus lookup lent as the planning
node lends it."""

from __future__ import annotations

import pytest

from agent.planning.followups import asks_effect, points_back
from agent.planning.subject_swap import reply_subject
from tests.test_thread_questions import planned_with


@pytest.fixture(scope="module")
def directory():
    from agent.planning.companies import CompanyDirectory
    from tests.test_companies import COVERED, SEC

    return CompanyDirectory.from_rows(COVERED, SEC, {320193: [2023, 2024], 1045810: [2024, 2025],
                                                     1318605: [2023, 2024], 1467858: [2023]})


def _lookup(phrase: str) -> list[tuple[int, int]]:
    return []


# the thread's filings write every phrase but a made-up one (the corpus lookup's `writes`: chunks holding it)
_lookup.writes = lambda phrase, ciks: 0 if "zorblax" in phrase.lower() else 12  # type: ignore[attr-defined]


def planned(directory, *texts):
    return planned_with(_lookup, directory, *texts)


def test_a_reply_naming_another_part_asks_the_threads_cause_of_it(directory):
    cause = planned(directory, "apple net sales fy2024", "why did greater china fall?")
    assert cause.intent == "qualitative" and cause.asks_cause, cause
    for said in ("and services?", "what about services specifically?", "same for services"):
        p = planned(directory, "apple net sales fy2024", "why did greater china fall?", said)
        assert p.route == "domain" and p.intent == "qualitative" and p.asks_cause, (said, p)
        assert p.tickers == ["AAPL"] and p.fiscal_years == [2024] and p.items == cause.items, (said, p)
        words = p.query.lower().split()
        # the part named replaces the thread's part; the figure and the words a cause is stated in stay
        assert "services" in words and "china" not in words and "greater" not in words, (said, p.query)
        assert "revenue" in words and ("drivers" in words or "due" in words), (said, p.query)
        assert not p.metrics, p  # no total of the company's figure is led with for a part of it
        # and nothing is quoted unless a passage found says the part: the thread's words alone answer another question
        assert p.unless_named == {"reason": "no_grounding", "detail": "services", "words": ["services"]}, p


def test_a_cause_of_a_topic_is_asked_of_the_next_subject(directory):
    p = planned(directory, "how fast did tesla's energy storage business grow in 2024 and why", "and services?")
    assert p.route == "domain" and p.intent == "qualitative" and p.asks_cause and p.tickers == ["TSLA"], p
    words = p.query.lower().split()
    assert "services" in words and "storage" not in words and "grow" in words, p.query


def test_what_a_swap_leaves_to_the_planner(directory):
    # a question of its own, an aspect of the same subject, a company, a figure and a year are read as the planner
    # reads them, not as a new subject of the thread's question
    assert reply_subject("and are export controls a risk to it?") is None
    assert reply_subject("and the escrow?") == "escrow"
    risks = planned(directory, "apple net sales fy2024", "why did it go up?", "and the risks?")
    assert "risks" not in risks.query.split()[:1] or risks.items[:1] == ["1A"], risks
    nvidia = planned(directory, "apple net sales fy2024", "why did it go up?", "and nvidia?")
    assert nvidia.tickers == ["NVDA"], nvidia
    income = planned(directory, "apple net sales fy2024", "why did it go up?", "and net income?")
    assert "net_income" in income.metrics, income
    year = planned(directory, "apple net sales fy2024", "why did it go up?", "and 2023?")
    assert 2023 in year.fiscal_years, year
    # after a question that asked no cause, "what about services?" is a topic of its own, read where it is told
    topic = planned(directory, "What does Tesla say about competition?", "what about services?")
    assert topic.query.lower().split()[-1:] == ["services"] and "competition" not in topic.query.lower(), topic


def test_a_cause_asked_in_a_word_or_two_is_the_cause_of_the_threads_subject(directory):
    p = planned(directory, "What does Tesla say about production rates?", "why were they limited?")
    assert p.intent == "qualitative" and p.asks_cause and "production rates" in p.query.lower(), p.query
    assert "7" in p.items, p
    own = planned(directory, "What does Tesla say about production rates?", "why is China a risk?")
    assert "production" not in own.query.lower(), own.query  # a topic of its own is asked of itself


def test_a_pronoun_stands_for_the_threads_subject(directory):
    assert points_back("why did operating income there go up")
    assert points_back("what happens if it doesn't work out?")
    for existential in ("is there any litigation?", "were there any one-time charges?", "has there been a strike?",
                        "there were many risks"):
        assert not points_back(existential), existential
    p = planned(directory, "What does GM say about the UAW strike?", "how are they paying for it?",
                "what happens if it doesn't work out?")
    assert p.route == "domain" and p.intent == "qualitative" and p.tickers == ["GM"], p
    assert "strike" in p.query.lower(), p.query


def test_what_the_threads_subject_did_to_a_figure_is_read_in_the_filing(directory):
    assert asks_effect("did it hurt their margins?") and asks_effect("what did that do to operating income?")
    assert not asks_effect("what were their margins?")
    for said in ("did it hurt their margins?", "did that help revenue", "what did that do to operating income?"):
        p = planned(directory, "What does Tesla say about its price cuts?", said)
        assert p.route == "domain" and p.intent == "qualitative" and p.asks_cause, (said, p)
        assert "price" in p.query.lower() and p.tickers == ["TSLA"], (said, p.query)
    # what the subject did to a figure is told in MD&A, first, even when the thread's topic lives in the business
    # description and the risk factors
    topic = planned(directory, "tesla battery supply competition?")
    effect = planned(directory, "tesla battery supply competition?", "how did that hit sales?")
    assert "7" not in topic.items[:1] and effect.asks_cause and effect.items[0] == "7", (topic.items, effect.items)
    assert set(topic.items) <= set(effect.items), (topic.items, effect.items)
    figure = planned(directory, "tesla revenue 2024", "did it grow?")  # a figure's thread keeps its figure logic
    assert figure.intent != "qualitative" or figure.metrics, figure


def test_a_bare_reply_after_a_topic_is_searched_beside_it_never_a_printed_row(directory):
    from agent.planning.subject_swap import swapped_subject
    from agent.planning.reading import read

    thread = planned(directory, "What does Tesla say about competition?")
    for said, word in (("and north america?", "north america"), ("and gaming?", "gaming")):
        low = said
        r = read(said, said, low, directory, ["TSLA"])
        p = swapped_subject(said, r, thread, lambda name: False, lambda words: True)
        assert p is not None and p.intent == "qualitative" and not p.metrics, (said, p)
        assert p.sub_queries == [word, f"{word} competition"] and p.items == thread.items, p
        assert p.tickers == ["TSLA"], p
        # a company by that name is asked about, answered or refused for it, never searched in Tesla's filing
        assert swapped_subject(said, r, thread, lambda name: True, lambda words: True) is None
        # nor is a word the thread's filings never write: the planner reads it (a line of its own, or a refusal)
        assert swapped_subject(said, r, thread, lambda name: False, lambda words: False) is None
    figure = "how much was north america?"  # a figure asked for is planned as the planner reads it
    assert swapped_subject(figure, read(figure, figure, figure, directory, ["TSLA"]), thread, lambda n: False,
                           lambda words: True) is None


def test_a_figure_named_after_the_cause_of_one_compared_company_is_the_comparisons_again(directory):
    from agent.planning.followups import back_to_figure

    figure = planned(directory, "apple and nvidia revenue 2024")
    prose = planned(directory, "apple and nvidia revenue 2024", "why did apple grow faster?")
    assert figure.tickers == ["AAPL", "NVDA"] and prose.tickers == ["AAPL"] and prose.asks_cause, (figure, prose)
    for said in ("and net income?", "what about operating income?", "ok, and capex?"):
        back = back_to_figure(said, prose, figure)
        assert back is not None and back.tickers == ["AAPL", "NVDA"], (said, back)
    # the cause asked of the only company: "and net income?" may ask its cause too, and the planner keeps reading it
    alone = planned(directory, "apple revenue 2024", "why did it grow?")
    assert back_to_figure("and net income?", alone, planned(directory, "apple revenue 2024")) is None
    assert back_to_figure("and its risks?", prose, figure) is None  # no figure named



def test_a_follow_up_with_words_of_its_own_also_searches_the_threads_subject(directory):
    p = planned(directory, "What does Tesla say about its Cybertruck?", "when did deliveries start?")
    assert p.route == "domain" and p.intent == "qualitative" and p.tickers == ["TSLA"], p
    assert p.sub_queries == [p.query, f"{p.query} cybertruck"], p.sub_queries  # its own words, and beside the subject
    alone = planned(directory, "What does Tesla say about its Cybertruck?", "and the semi?")  # a reply naming a thing
    assert alone.query == "semi" and alone.sub_queries == ["semi", "semi cybertruck"], alone  # as written, and beside
    named = planned(directory, "What does Tesla say about its Cybertruck?", "what does Apple say about deliveries?")
    assert named.tickers == ["AAPL"] and not any("cybertruck" in q for q in named.sub_queries), named
