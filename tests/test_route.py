"""Meta, domain or refusal by nearest labelled exemplars; scope that reads the whole question;
follow-ups that refer back; prose routed by what is asked. Wordings here are deliberately not
in agent/planning/exemplars.tsv: the point is that new wordings land on the right side."""

from __future__ import annotations

import pytest

from agent.planning.companies import CompanyDirectory
from agent.planning.exemplars import load, meaning_from
from agent.planning.plan import Plan
from agent.planning.rules import plan_rules
from tests.test_companies import COVERED, SEC

EXTRA_SEC = [("F", 37996, "FORD MOTOR CO"), ("SHOP", 1594805, "Shopify Inc."), ("INTC", 50863, "INTEL CORP"),
             ("TWO", 1465740, "Two Harbors Investment Corp."), ("ARM", 1973239, "Arm Holdings plc /UK")]


@pytest.fixture(scope="module")
def directory() -> CompanyDirectory:
    return CompanyDirectory.from_rows(
        COVERED, SEC + EXTRA_SEC,
        {320193: [2023, 2024], 1045810: [2024, 2025], 104169: [2024, 2025], 1318605: [2023, 2024],
         12927: [2023, 2024], 2488: [2023, 2024]},
    )


@pytest.fixture(autouse=True, scope="module")
def _judged_by_meaning(embedder):
    """As in the service: the planning node lends the sentence model to the exemplar judge."""
    with meaning_from(embedder):
        yield


def plan(directory, text, previous=None) -> Plan:
    return plan_rules(text, previous=previous, directory=directory)


def thread(directory, *texts) -> Plan:
    previous = None
    for text in texts:
        previous = plan(directory, text, previous)
    return previous


UNSEEN_META = [
    ("hiya, good to see you", "greeting"),
    ("thank you kindly", "thanks"),
    ("alright, see ya", "goodbye"),
    ("okie dokie", "ack"),
    ("is a human answering this?", "about"),
    ("where do your figures come from?", "about"),
    ("do you provide citations?", "about"),
    ("how fresh is the data?", "about"),
    ("what sort of questions should i try?", "help"),
    ("any advice on how to word my questions?", "help"),
    ("which firms are in your dataset?", "coverage"),
]


def test_the_unseen_wordings_are_not_exemplars():
    texts = {text for _, text in load()}
    assert not any(q in texts for q, _ in UNSEEN_META)


@pytest.mark.parametrize("text, intent", UNSEEN_META)
def test_small_talk_and_questions_about_footnote_are_meta(directory, text, intent):
    p = plan(directory, text)
    assert (p.route, p.intent) == ("meta", intent), p


@pytest.mark.parametrize("text", [
    "could you fix this sql query for me",
    "what's a good lasagna recipe",
    "is it going to snow in Denver this weekend?",
    "recommend me a podcast",
])
def test_off_topic_requests_are_refused_politely(directory, text):
    p = plan(directory, text)
    assert p.refusal_reason == "out_of_scope", p
    assert p.refusal_detail == "topics outside companies' 10-K filings"


@pytest.mark.parametrize("text", ["Is Boeing stock a buy right now?", "would you put money into Tesla?",
                                  "what do you think of Apple's management?"])
def test_advice_and_opinions_about_a_company_are_refused(directory, text):
    assert plan(directory, text).refusal_reason == "out_of_scope"


def test_a_subject_of_its_own_is_never_small_talk(directory):
    assert plan(directory, "How has weather affected Walmart's sales?").route == "domain"  # not "weather" off-topic
    assert plan(directory, "tell me about Walmart").route == "domain"
    assert plan(directory, "ok, and Tesla's R&D?").route == "domain"


# --- scope: the filing's own statements about the future are answered, our forecasts are not

@pytest.mark.parametrize("text, items", [
    ("What does Walmart expect for capital expenditures?", ["7"]),
    ("what will be recorded as restructuring charges next year at Tesla?", ["7", "8"]),
    ("What does Boeing's 10-K say about planned share repurchases?", ["7", "8"]),
    ("How is Tesla forecasting vehicle demand, according to its filing?", None),
    ("What amortization expense does Apple expect to record next year?", ["7", "8"]),
    ("What will drive Nvidia's growth next year, according to management?", None),
    ("What payments will Apple make under its purchase commitments?", None),
    ("walmart fy2026 plans for capex and the dividend?", ["7"]),
])
def test_what_a_filing_says_about_the_future_is_a_prose_question(directory, text, items):
    p = plan(directory, text)
    assert p.route == "domain" and p.intent == "qualitative", p
    assert p.metrics == [] and p.year_offsets in ([], [0])
    if items is not None:
        assert p.items[: len(items)] == items


@pytest.mark.parametrize("text", [
    "What will Apple's revenue be next year?",
    "what do you expect Nvidia's margins to be in 2027?",
    "what do analysts expect for Tesla's deliveries?",
    "will Boeing be profitable next year?",
    "forecast Walmart's sales for 2026",
    "predict Tesla's purchase commitments for next year",
    "what will Boeing's revenue be next year according to analysts?",
])
def test_our_own_forecasts_are_refused(directory, text):
    p = plan(directory, text)
    assert p.refusal_reason == "out_of_scope", p


@pytest.mark.parametrize("text", [
    "how much stock did Boeing buy back in 2023?",
    "how many shares did Walmart repurchase in 2024",
    "did AMD issue new shares in 2023?",
])
def test_what_a_company_did_with_its_own_shares_is_not_a_stock_price_question(directory, text):
    assert plan(directory, text).refusal_reason != "out_of_scope"


def test_stock_performance_is_still_a_price_question(directory):
    assert plan(directory, "how did Boeing stock do in 2023?").refusal_reason == "out_of_scope"


# --- follow-ups that refer back

def test_a_follow_up_with_no_company_covers_every_company_of_the_thread(directory):
    p = thread(directory, "Compare Boeing and AMD revenue in 2023", "which of the two was higher?")
    assert (p.intent, p.tickers, p.metrics, p.fiscal_years) == ("compare", ["BA", "AMD"], ["revenue"], [2023])
    p = thread(directory, "Compare Boeing and AMD revenue in 2023", "rank them")
    assert p.tickers == ["BA", "AMD"] and p.metrics == ["revenue"]
    p = thread(directory, "Compare Boeing and AMD revenue in 2023", "what's the growth rate?")
    assert p.tickers == ["BA", "AMD"] and p.metrics == ["revenue_growth"]
    p = thread(directory, "Walmart net income 2024", "and Boeing?", "same for both in 2023")
    assert p.tickers == ["WMT", "BA"] and p.fiscal_years == [2023] and p.metrics == ["net_income"]


def test_growth_of_a_share_is_growth_of_its_figure(directory):
    p = thread(directory, "Alphabet R&D 2024", "as a share of revenue?", "what's the growth rate?")
    assert p.tickers == ["GOOGL"] and p.metrics == ["rd_growth"] and p.fiscal_years == [2024]


def test_why_after_a_comparison_asks_mdna_of_both(directory):
    p = thread(directory, "Compare Boeing and AMD net income in 2023", "why?")
    assert p.intent == "qualitative" and p.tickers == ["BA", "AMD"] and p.items[0] == "7"


@pytest.mark.parametrize("reply, reason, detail", [
    ("what about Ford?", "not_covered", "Ford (F)"),
    ("what about ford?", "not_covered", "ford (F)"),
    ("and Shopify?", "not_covered", "Shopify (SHOP)"),
    ("how about Zorblax?", "no_company", "Zorblax"),
])
def test_a_follow_up_naming_another_company_is_about_it(directory, reply, reason, detail):
    p = thread(directory, "What are Tesla's risk factors?", reply)
    assert (p.refusal_reason, p.refusal_detail) == (reason, detail)
    assert "TSLA" not in p.tickers


def test_a_follow_up_naming_a_covered_company_answers_it(directory):
    p = thread(directory, "What are Tesla's risk factors?", "what about Boeing?")
    assert p.tickers == ["BA"] and p.items == ["1A"]


# --- prose routed by what is asked

@pytest.mark.parametrize("text, first", [
    ("How did higher interest costs affect Boeing's results?", ["7", "8"]),
    ("What acquisitions did Walmart complete?", ["7", "8", "1A"]),
    ("How reliant is Apple on outsourcing partners in Asia?", ["1A", "1", "7"]),
    ("Who are Nvidia's customers?", ["1", "7"]),
])
def test_prose_is_routed_by_the_form_of_the_question(directory, text, first):
    p = plan(directory, text)
    assert p.intent == "qualitative" and p.items[: len(first)] == first, p


def test_a_company_inside_a_question_about_another_is_a_topic(directory):
    p = plan(directory, "What does AMD say about competition from Nvidia?")
    assert p.tickers == ["AMD"] and "Nvidia" in p.query
    p = plan(directory, "How much does Apple depend on Foxconn?")
    assert p.tickers == ["AAPL"] and "Foxconn" in p.query and p.items[0] == "1A"
    assert plan(directory, "Compare AMD and Nvidia on competition").tickers == ["AMD", "NVDA"]


@pytest.mark.parametrize("text", ["do you ever make mistakes?", "are your figures ever wrong?"])
def test_a_question_put_to_footnote_about_itself_is_meta(directory, text):
    """Faintly like any exemplar, but addressed to Footnote and most like a question about it."""
    assert text not in {t for _, t in load()}
    p = plan(directory, text)
    assert (p.route, p.intent) == ("meta", "about"), p


@pytest.mark.parametrize("text", ["is this thing on?", "hello, can anyone read this?"])
def test_small_talk_whose_neighbours_split_between_kinds_of_small_talk_is_meta(directory, text):
    """Its nearest exemplars are a greeting, a help request and a question about Footnote: none
    alike enough alone, all small talk together, so it is answered, never refused."""
    assert text not in {t for _, t in load()}
    p = plan(directory, text)
    assert p.route == "meta", p


def test_a_message_that_is_an_exemplar_takes_its_label(directory):
    # two greetings name Footnote too, and used to outvote the one exemplar it is
    assert ("about", "what is footnote?") in load()
    p = plan(directory, "what is footnote?")
    assert (p.route, p.intent) == ("meta", "about"), p


def test_ranking_after_a_second_company_ranks_the_thread_companies(directory):
    for reply in ("rank them", "compare them", "which was higher?"):
        p = thread(directory, "Walmart net income 2024", "and Boeing?", reply)
        assert p.tickers == ["WMT", "BA"] and p.metrics == ["net_income"] and p.fiscal_years == [2024], reply
        assert p.slots["tickers"] == "thread, its companies"


def test_a_count_in_a_follow_up_is_never_a_company(directory):
    p = thread(directory, "Walmart net income 2024", "how about the two years before that?")
    assert p.refusal_reason != "not_covered" and "TWO" not in p.tickers


def test_each_slot_of_a_follow_up_says_where_it_came_from(directory):
    p = thread(directory, "Tesla capex 2024", "and the year before that?")
    assert p.fiscal_years == [2023]
    assert p.slots == {"tickers": "thread", "metrics": "thread", "fiscal_years": "thread, shifted"}
    p = thread(directory, "Tesla capex 2024", "as a share of revenue?")
    assert p.slots["metrics"] == "thread, as a share of revenue" and p.slots["fiscal_years"] == "thread"
    p = thread(directory, "Tesla capex 2024", "why?")
    assert p.slots["metrics"] == "thread, its cause" and p.slots["items"] == "message"
    p = thread(directory, "Compare Walmart and Boeing revenue in 2024", "same for both, but net income")
    assert (p.tickers, p.metrics, p.fiscal_years) == (["WMT", "BA"], ["net_income"], [2024])
    assert p.slots == {"tickers": "thread, its companies", "metrics": "message", "fiscal_years": "thread"}


@pytest.mark.parametrize("text, route", [
    ("could you help me debug this javascript function?", "refusal"),
    ("can you help me fix a bug in my rust program", "refusal"),
    ("can you help me choose a laptop", "refusal"),
    ("can you help me get started?", "meta"),
])
def test_a_request_for_help_is_judged_by_the_task_it_names(directory, text, route):
    assert text not in {t for _, t in load()}
    p = plan(directory, text)
    assert p.route == route, p
    if route == "refusal":
        assert p.refusal_reason == "out_of_scope"


@pytest.mark.parametrize("reply", ["who earned more?", "what's the difference between them?"])
def test_a_comparison_in_a_thread_is_never_small_talk(directory, reply):
    """Alone these words resemble a question about Footnote; in a thread they compare its companies."""
    p = thread(directory, "Walmart net income 2024", "and Boeing?", reply)
    assert (p.route, p.intent, p.tickers, p.metrics) == ("domain", "compare", ["WMT", "BA"], ["net_income"]), p


def test_going_back_to_a_company_of_the_thread(directory):
    p = thread(directory, "Walmart net income 2024", "and Boeing?", "ok back to walmart, revenue?")
    assert (p.tickers, p.metrics, p.fiscal_years) == (["WMT"], ["revenue"], [2024])


def test_which_companies_a_company_bought_is_a_prose_question_not_coverage(directory):
    asked = plan(directory, "tesla acquisitions in 2024? which companies did it buy and why")
    assert asked.route == "domain" and asked.intent == "qualitative" and asked.tickers == ["TSLA"]
    assert asked.items[0] == "7"  # why and an event: MD&A first
    assert plan(directory, "which companies do you cover?").intent == "coverage"
    assert plan(directory, "which years do you have for Tesla?").intent == "coverage"


def test_a_section_named_alone_after_a_figure_is_searched_for_that_figure(directory):
    asked = thread(directory, "walmart revenue fy2025", "and the risks?")
    assert asked.intent == "qualitative" and asked.tickers == ["WMT"] and asked.fiscal_years == [2025]
    assert asked.items == ["1A"] and "revenue" in asked.query and not asked.metrics
    # a question of its own keeps its own subject
    own = thread(directory, "walmart revenue fy2025", "what are the main risk factors?")
    assert "revenue" not in own.query and own.items == ["1A"]


def test_why_after_a_figure_reads_mdna_first_for_that_figure_and_year(directory):
    for reply in ("why?", "what drove that?", "how come?", "what explains the change?"):
        asked = thread(directory, "tesla capex 2024", reply)
        assert asked.intent == "qualitative" and asked.metrics == ["capex"], reply
        assert asked.items[0] == "7" and asked.fiscal_years == [2024] and asked.tickers == ["TSLA"], reply
        assert asked.slots["metrics"] == "thread, its cause", reply


def test_what_a_filing_attributes_a_change_to_is_a_why_question(directory):
    asked = plan(directory, "Tesla revenue +14% in 2024: what does the MD&A attribute it to?")
    assert asked.intent == "qualitative" and asked.items[0] == "7" and asked.metrics == ["revenue"]
    assert plan(directory, "what did apple attribute the gross margin increase to in 2024").intent == "qualitative"
    # a figure "attributable to" someone is still a figure
    assert plan(directory, "apple net income attributable to shareholders 2024").intent == "numeric"


def test_a_rival_named_as_the_topic_reads_the_risk_factors_first(directory):
    assert plan(directory, "what does AMD say about competition from Intel?").items == ["1A", "1"]
    assert plan(directory, "who are tesla's competitors?").items[0] == "1"  # no rival named: the business


def test_a_dependence_question_is_also_searched_in_the_words_a_reliance_is_stated_with():
    from agent.retrieval.fetch import reliance_query

    query = reliance_query("how dependent is on its bottlers")
    assert query.startswith("we rely on") and "bottlers" in query and "dependent" not in query


def test_why_after_a_quarter_figure_reads_that_quarters_10q(directory):
    asked = thread(directory, "nvidia revenue Q2 FY2025", "why?")
    assert asked.intent == "qualitative" and asked.metrics == ["revenue"]
    assert asked.period["quarter"] == 2 and asked.period["fiscal_year"] == 2025
    assert asked.items[0] == "I-2"  # the 10-Q's MD&A


def test_whats_behind_a_figure_is_a_why_question(directory):
    asked = plan(directory, "tesla revenue growth 2024 whats behind it")
    assert asked.intent == "qualitative" and asked.items[0] == "7"


def test_op_income_is_searched_as_operating_income():
    from agent.planning.topics import expand_query

    assert "operating" in expand_query("meta 2024 op income jumped")
    assert "operating" not in expand_query("an op-ed about the company")


def test_a_company_a_question_asks_another_to_describe_is_a_topic(directory):
    asked = plan(directory, "How does Apple describe Nvidia, as a supplier or as a competitor?")
    assert asked.tickers == ["AAPL"] and asked.intent == "qualitative"
    both = plan(directory, "compare how apple and nvidia describe their supply chains")
    assert sorted(both.tickers) == ["AAPL", "NVDA"]


# --- prose threads: a follow-up that points back searches what the thread was discussing

@pytest.mark.parametrize("reply, own", [
    ("how much did it cost?", "cost"),
    ("what are the risks of that?", "risks"),
    ("any risks there for the integration?", "integration"),
])
def test_a_prose_follow_up_that_points_back_searches_the_threads_topic(directory, reply, own):
    p = thread(directory, "tell me about Walmart's Vizio acquisition", reply)
    assert p.route == "domain" and p.intent == "qualitative" and p.tickers == ["WMT"], p
    assert "vizio" in p.query.lower() and own in p.query.lower(), p.query
    assert "vizio" in p.topic and own in p.topic or own == "risks"


def test_a_question_of_its_own_does_not_borrow_the_threads_topic(directory):
    for reply in ("how many employees do they have?", "what about labor union risks?"):
        p = thread(directory, "tell me about Walmart's Vizio acquisition", reply)
        assert "vizio" not in p.query.lower(), (reply, p.query)


@pytest.mark.parametrize("reply", ["say more", "tell me more", "and the year before?", "and for Nvidia?"])
def test_asking_for_more_or_for_another_company_repeats_the_threads_search(directory, reply):
    first = plan(directory, "How does Apple depend on its contract manufacturers?")
    p = plan(directory, reply, first)
    assert p.intent == "qualitative" and p.query == first.query and p.items == first.items, p
    assert p.topic == first.topic == "depend contract manufacturers"


def test_the_topic_survives_a_whole_thread(directory):
    p = thread(directory, "How does Apple depend on its contract manufacturers?", "what are the risks of that?",
               "and for Nvidia?")
    assert p.tickers == ["NVDA"] and p.items[0] == "1A" and "contract manufacturers" in p.query


def test_why_after_an_event_searches_the_event(directory):
    p = thread(directory, "what happened with Tesla's Cybertruck recall?", "why?")
    assert p.intent == "qualitative" and p.items[0] == "7" and "cybertruck" in p.query.lower()


def test_the_risks_to_a_figure_are_searched_in_the_figures_words(directory):
    p = thread(directory, "apple services revenue fiscal 2024", "what's driving it?", "risks to that business?")
    assert p.tickers == ["AAPL"] and p.items == ["1A"] and p.fiscal_years == [2024]
    assert "services" in p.query.lower() and "revenue" in p.query.lower()


def test_a_question_about_the_threads_company_is_never_small_talk(directory):
    p = thread(directory, "What does Nvidia say about competition?", "who else do they name?")
    assert (p.route, p.tickers) == ("domain", ["NVDA"]) and "competition" in p.query, p
    assert plan(directory, "who else do they name?").route != "meta"  # no thread: no company to ask about


def test_asking_for_more_in_a_thread_is_never_refused_as_off_topic(directory):
    p = thread(directory, "describe Boeing's business", "what are its segments?", "tell me more about the defense one")
    assert (p.route, p.tickers) == ("domain", ["BA"]) and "defense" in p.query and "segments" in p.query, p


# --- figure threads

def test_why_naming_one_company_of_a_comparison_keeps_the_figure_and_year(directory):
    p = thread(directory, "Visa and Apple revenue fiscal 2024", "what's the growth rate for each", "why did Visa grow?")
    assert (p.intent, p.tickers, p.fiscal_years, p.metrics) == ("qualitative", ["V"], [2024], ["revenue_growth"]), p
    assert p.items[0] == "7"


def test_comparing_with_the_year_before_keeps_both_years(directory):
    p = thread(directory, "Walmart net income fiscal 2025", "how does that compare with the year before?")
    assert (p.tickers, p.metrics, p.fiscal_years) == (["WMT"], ["net_income"], [2024, 2025]), p
    p = thread(directory, "Walmart net income fiscal 2025", "and the year prior?")
    assert p.fiscal_years == [2024]


# --- small talk and off-topic, in shorthand and in the wording of a question about Footnote

@pytest.mark.parametrize("text, intent", [
    ("which yrs do u have for tesla", "coverage"),
    ("r u a person or a program", "about"),
    ("wat can u look up", "help"),
])
def test_chat_shorthand_is_read_as_written_out(directory, text, intent):
    p = plan(directory, text)
    assert (p.route, p.intent) == ("meta", intent), p


@pytest.mark.parametrize("text", [
    "what's the best way to cook salmon",
    "how should i go about getting a mortgage",
    "what is the best way to learn piano",
])
def test_off_topic_worded_like_a_question_about_footnote_is_refused(directory, text):
    """Their nearest exemplars ask how to use Footnote; nothing in them speaks of Footnote or its work."""
    assert text not in {t for _, t in load()}
    p = plan(directory, text)
    assert (p.route, p.refusal_reason) == ("refusal", "out_of_scope"), p


@pytest.mark.parametrize("text", ["will nvidia be hurt by export controls?",
                                  "is Tesla going to be affected by the tariff changes?"])
def test_how_a_company_may_be_affected_is_read_from_its_risk_factors(directory, text):
    p = plan(directory, text)
    assert p.route == "domain" and p.intent == "qualitative" and "1A" in p.items, p


def test_a_prediction_asked_of_footnote_is_still_refused(directory):
    p = plan(directory, "will you predict whether tesla gets hurt by tariffs?")
    assert (p.route, p.refusal_reason) == ("refusal", "out_of_scope")


def test_every_labelled_question_about_footnote_speaks_of_its_world():
    """The rule that keeps "how do I cook salmon?" from the help reply must never refuse the kinds it guards."""
    from agent.planning.route import FOOTNOTE_WORLD, SHORT
    from agent.planning.scope import spelled_out

    about = [t for label, t in load() if label in ("help", "about", "coverage") and len(t.split()) > SHORT]
    assert about and all(FOOTNOTE_WORLD.search(spelled_out(t)) for t in about)


@pytest.mark.parametrize("text", ["what else can i try?", "not sure where to begin, any ideas?"])
def test_help_in_few_words_of_footnotes_world_is_still_meta(directory, text):
    assert plan(directory, text).route == "meta"


def test_a_name_followed_by_then_is_a_reply_about_that_name(directory):
    p = thread(directory, "walmart revenue fy2025", "fine, Shopify then")
    assert (p.refusal_reason, p.refusal_detail) == ("not_covered", "Shopify (SHOP)"), p
    p = thread(directory, "walmart revenue fy2025", "ok Apple instead")
    assert (p.tickers, p.metrics, p.fiscal_years) == (["AAPL"], ["revenue"], [2025])
    assert thread(directory, "walmart revenue fy2025", "ok then").route == "meta"


def test_a_thread_question_like_nothing_alone_is_about_the_threads_company(directory):
    """Its nearest exemplar is faint (a price question); in a thread it asks about the thread's company."""
    p = thread(directory, "what does McDonald's say about its franchisees?", "how much of the system is franchised?")
    assert (p.route, p.tickers, p.intent) == ("domain", ["MCD"], "qualitative"), p
    assert "franchisees" in p.query


def test_why_after_a_refused_figure_searches_the_words_it_was_asked_in(directory):
    first = plan(directory, "what's Boeing's backlog situation")
    assert first.refusal_reason == "unknown_metric"
    p = plan(directory, "why did it change", first)
    assert p.tickers == ["BA"] and p.items[0] == "7" and "backlog" in p.query, p


@pytest.mark.parametrize("reply", ["which company made more?", "which automaker made more?"])
def test_the_kind_of_the_threads_companies_is_no_figure(directory, reply):
    p = thread(directory, "Tesla net income 2023", "and GM?", reply)
    assert (p.intent, p.tickers, p.metrics, p.fiscal_years) == ("compare", ["TSLA", "GM"], ["net_income"], [2023]), p


@pytest.mark.parametrize("reply, ticker", [("cool. and Nvidia?", "NVDA"), ("great, now do Apple", "AAPL")])
def test_an_acknowledgement_before_a_follow_up_is_no_line_item(directory, reply, ticker):
    p = thread(directory, "walmart revenue 2024", reply)
    assert (p.tickers, p.metrics, p.fiscal_years) == ([ticker], ["revenue"], [2024]), p
    assert thread(directory, "walmart revenue 2024", "great, thanks!").route == "meta"


@pytest.mark.parametrize("text, intent", [("are you chatgpt?", "about"), ("how do i ask about a segment?", "help")])
def test_questions_about_footnote_that_name_a_source_or_a_topic_are_meta(directory, text, intent):
    assert (plan(directory, text).route, plan(directory, text).intent) == ("meta", intent)
    assert plan(directory, "according to chatgpt, what was Apple's revenue?").refusal_reason == "out_of_scope"


def test_a_prose_thread_compared_with_another_company_stays_on_its_topic(directory):
    first = plan(directory, "How does Apple depend on its contract manufacturers?")
    p = plan(directory, "how does that compare to Nvidia?", first)
    assert (p.intent, p.tickers, p.metrics, p.query) == ("qualitative", ["AAPL", "NVDA"], [], first.query), p
    p = plan(directory, "which one is more exposed?", p)
    assert (p.intent, p.tickers, p.query) == ("qualitative", ["AAPL", "NVDA"], first.query), p


def test_another_company_too_is_asked_the_threads_question(directory):
    first = plan(directory, "what does Nvidia say about export controls?")
    p = plan(directory, "is Tesla affected too?", first)
    assert p.tickers == ["TSLA"] and "export controls" in p.query and "1A" in p.items, p


def test_a_superlative_after_several_replies_ranks_every_company_discussed(directory):
    p = thread(directory, "walmart revenue 2024", "and Tesla?", "and Apple?", "which of them was highest?")
    assert (p.intent, p.tickers, p.metrics) == ("compare", ["WMT", "TSLA", "AAPL"], ["revenue"]), p
    p = thread(directory, "walmart revenue 2024", "and Tesla?", "and Apple?", "which of the two was higher?")
    assert p.tickers == ["TSLA", "AAPL"]


def test_a_reply_naming_a_company_by_its_legal_suffix_is_about_that_company(directory):
    p = thread(directory, "Walmart net income 2024", "and arm holdings?")
    assert (p.refusal_reason, p.refusal_detail) == ("not_covered", "arm holdings (ARM)"), p
    p = thread(directory, "Walmart net income 2024", "and arm holdings?", "and Tesla?")
    assert (p.tickers, p.metrics) == (["TSLA"], ["net_income"])  # the thread's figure, never a line "arm holdings"


@pytest.mark.parametrize("text, intent", [
    ("thanks, the Apple answer was helpful", "thanks"),
    ("bye, thanks for the Nvidia info", "thanks"),
    ("how recent is your Tesla data?", "coverage"),
    ("what's the latest filing you have for Walmart?", "coverage"),
])
def test_small_talk_that_names_a_company_is_still_small_talk(directory, text, intent):
    p = plan(directory, text)
    assert (p.route, p.intent) == ("meta", intent), p


def test_thanks_before_a_question_about_a_company_is_the_question(directory):
    p = thread(directory, "walmart revenue 2024", "thanks! what about Apple?")
    assert (p.route, p.tickers, p.metrics) == ("domain", ["AAPL"], ["revenue"])


def test_an_ordinary_word_after_what_about_in_a_prose_thread_is_its_new_subject(directory):
    first = plan(directory, "what does Tesla's 10-K say about production issues?")
    p = plan(directory, "and what about the semi?", first)
    assert (p.route, p.tickers) == ("domain", ["TSLA"]) and "semi" in p.query, p


@pytest.mark.parametrize("reply", ["ok bye then", "that's all then"])
def test_signing_off_with_then_is_no_company(directory, reply):
    assert thread(directory, "walmart revenue fy2025", reply).route == "meta"


@pytest.mark.parametrize("text, intents", [
    ("where do you get your Nvidia data from?", ("about",)),
    ("which fiscal years do you hold for Apple?", ("coverage",)),
    ("are you able to answer stuff about Tesla?", ("coverage", "help")),
    ("what sort of things can I ask about Walmart?", ("help",)),
    ("many thanks for the Nvidia figures", ("thanks",)),
])
def test_a_message_to_footnote_that_names_a_company_is_meta(directory, text, intents):
    """The company is only what the message asks Footnote about (or thanks it for): META, with that
    company's coverage when coverage is asked, never a search of its filing for "sources"."""
    p = plan(directory, text)
    assert p.route == "meta" and p.intent in intents, p
    named = {"Nvidia": "NVDA", "Apple": "AAPL", "Tesla": "TSLA", "Walmart": "WMT"}
    ticker = next(t for name, t in named.items() if name in text)
    assert p.tickers == ([ticker] if p.intent == "coverage" else []), p  # whose holdings to list


@pytest.mark.parametrize("texts, tickers", [
    (("walmart revenue 2024", "thanks, and Apple?"), ["AAPL"]),
    (("walmart revenue 2024", "ok what about Tesla"), ["TSLA"]),
    (("what years do you have for Apple?",), None),  # meta, checked above
])
def test_a_follow_up_that_thanks_and_names_a_company_is_still_the_question(directory, texts, tickers):
    p = thread(directory, *texts)
    if tickers is None:
        assert p.route == "meta", p
    else:
        assert (p.route, p.tickers, p.metrics) == ("domain", tickers, ["revenue"]), p


def test_a_company_with_a_figure_or_topic_is_a_domain_question_even_when_addressed_to_footnote(directory):
    for text in ("can you tell me Apple's revenue in 2024?", "do you know what Tesla says about competition?",
                 "what is Metal, per Apple's 10-K?"):  # asks the filing, though "what is X?" resembles "what are you?"
        p = plan(directory, text)
        assert p.route == "domain", (text, p)


@pytest.mark.parametrize("figure, expected", [
    ("cost of revenue?", "cost_of_revenue_pct"),  # the catalogue's share, not a hand-kept table's
    ("operating expenses?", "opex_ratio"),
    ("R&D?", "rd_pct_revenue"),
])
def test_a_share_of_revenue_after_a_figure_is_that_figures_share(directory, figure, expected):
    first = plan(directory, "Apple revenue 2024")
    second = plan(directory, figure, first)
    p = plan(directory, "as a % of revenue", second)
    assert (p.tickers, p.metrics, p.fiscal_years) == (["AAPL"], [expected], [2024]), p


def test_a_share_of_revenue_after_a_figure_the_catalogue_has_no_share_for_is_its_quotient(directory):
    """Never revenue itself (a true figure for the wrong question): the figure over revenue, in percent."""
    first = plan(directory, "Apple revenue 2024")
    second = plan(directory, "depreciation and amortization?", first)
    p = plan(directory, "what percentage of revenue is that?", second)
    assert p.route == "domain" and "revenue" not in p.metrics and len(p.metrics) == 1, p
    assert p.metrics[0].startswith("udf:") and "percentage of revenue" in p.metrics[0], p


@pytest.mark.parametrize("texts, name", [
    (("Frobozz churn rate 2023",), "Frobozz"),  # "churn" is a word a covered company's filings use
    (("apple revenue 2024", "what about Wayfairs' gmv?"), "Wayfairs"),  # a name ending in s, its apostrophe alone
    (("apple revenue 2024", "Klarnaco's merchant volume?"), "Klarnaco"),  # never a line of Apple's named so
])
def test_an_unknown_company_is_named_before_the_metric(directory, texts, name):
    """The company is what is missing first: refused for it, never for the metric, and never looked up
    as the thread's company's line item."""
    p = thread(directory, *texts)
    assert (p.route, p.refusal_reason, p.refusal_detail) == ("refusal", "no_company", name), p


def test_a_known_company_s_unmapped_metric_is_still_refused_for_the_metric(directory):
    assert plan(directory, "What's Apple's churn rate in 2024?").refusal_reason == "unknown_metric"
    assert thread(directory, "apple revenue 2024", "and adjusted EBITDA?").refusal_reason == "unknown_metric"


@pytest.mark.parametrize("first, reply, metric", [
    ("Apple diluted EPS 2024", "basic?", "eps_basic"),  # the thread's figure with the reply's word beside it
    ("Apple basic EPS 2024", "and diluted?", "eps_diluted"),
    ("Apple net income 2024", "and as a margin?", "net_margin"),
])
def test_a_modifier_alone_is_the_thread_s_figure_so_modified(directory, first, reply, metric):
    p = thread(directory, first, reply)
    assert (p.route, p.metrics, p.tickers, p.fiscal_years) == ("domain", [metric], ["AAPL"], [2024]), p


def test_a_word_that_names_no_figure_beside_the_thread_s_is_left_as_written(directory):
    p = thread(directory, "Apple revenue 2024", "and Tesla?")
    assert (p.tickers, p.metrics) == (["TSLA"], ["revenue"]), p


def test_a_filing_topic_typed_as_a_reply_is_the_thread_s_topic_not_a_registrant_named_so():
    """"and liquidity?" after a figure asks the thread's company's filing about its liquidity; SEC's map
    knows a registrant that begins with that word, but the user named no company."""
    from agent.planning.brands import brands_from

    named = CompanyDirectory.from_rows(COVERED, SEC + EXTRA_SEC + [("LQDT", 1235468, "LIQUIDITY SERVICES INC")],
                                       {320193: [2023, 2024]})
    with brands_from(lambda phrase: []):
        assert plan(named, "liquidity revenue 2024").refusal_reason == "not_covered"  # asked alone, it is that registrant
        p = thread(named, "Apple revenue 2024", "and liquidity?")
    assert (p.route, p.tickers) == ("domain", ["AAPL"]), p
