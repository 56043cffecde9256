"""A reply that names a member of the thread's figure, or points back at the thread's member, and the words
around a member or a row that are no part of its name (a quarter's, a possessive's, a row's own linking word)."""

from __future__ import annotations

from agent.planning.companies import CompanyDirectory
from agent.planning.words import account, line_keys
from agent.retrieval.line_items import tokens
from tests.test_companies import COVERED, SEC
from tests.test_thread_frame import directory, planned  # noqa: F401 (its fixtures, shared)


def test_a_figure_of_the_threads_member_is_asked_only_when_the_reply_points_back_at_it(directory):
    there = planned(directory, "apple net sales in greater china fy2024", "and operating income there?")
    assert there.metrics == ["dim:operating_income|greater china"], there
    segment = planned(directory, "apple net sales in greater china fy2024", "what about operating income for that region?")
    assert segment.metrics == ["dim:operating_income|greater china"], segment
    alone = planned(directory, "apple net sales in greater china fy2024", "and operating income?")
    assert alone.metrics == ["operating_income"], alone  # may ask the company's: never read as the member's


def test_a_word_after_a_figure_is_a_line_or_else_a_member_of_that_figure(directory):
    reply = planned(directory, "Nvidia revenue fy2025", "and gaming?")
    assert reply.metrics == ["line:gaming|gaming revenue|gaming revenue"], reply
    # a printed line the word names first ("Selling expense"), the figure's words only allowed beside it
    line = planned(directory, "Nvidia revenue fy2025", "and selling expense?")
    assert line.metrics and all(k.startswith("line:") for k in line.metrics), line
    # a question of its own after the figure is the passage search it reads as, never a line refused by its words
    asked = planned(directory, "Nvidia revenue fy2025", "how did gaming do?")
    assert asked.intent == "qualitative" and not any(k.startswith(("line:", "dim:")) for k in asked.metrics), asked


def test_the_threads_words_for_its_figure_carry_to_a_sibling_member(directory):
    reply = planned(directory, "walmart international net sales fy2025", "what about sam's club?")
    assert reply.metrics and reply.metrics[0].startswith("dim:revenue|"), reply
    said = [w["word"] for w in reply.words if w.get("from") == "thread"]
    assert said == ["net", "sales"], reply.words  # "Net sales", the row the thread's figure was, not "Total revenues"


def test_a_topic_word_after_a_figure_probes_the_member_of_that_name(directory):
    reply = planned(directory, "apple net sales fy2024", "and services?")
    assert "dim:revenue|services" in (reply.probe or reply.metrics), reply


def test_a_quarters_words_are_no_part_of_the_members_name(directory):
    asked = planned(directory, "What were Nvidia's data center revenues in the second quarter of fiscal 2024?")
    assert asked.metrics == ["dim:revenue|data center"], asked
    assert asked.period and asked.period["kind"] == "quarter" and asked.period["quarter"] == 2
    dated = planned(directory, "Meta Reality Labs revenue for the three months ended June 30, 2023")
    assert dated.metrics == ["dim:revenue|reality labs"], dated


def test_a_possessive_closes_the_name_it_ends():
    sec = [*SEC, ("COKE", 317540, "COCA COLA CONSOLIDATED, INC.")]
    found = CompanyDirectory.from_rows([*COVERED, (21344, "COCA COLA CO", ["KO"])], sec, {}).find(
        "Coca-Cola's consolidated net income for 2024")
    assert [m.company.ticker for m in found] == ["KO"]
    named = CompanyDirectory.from_rows([*COVERED, (21344, "COCA COLA CO", ["KO"])], sec, {}).find(
        "Coca-Cola Consolidated net income 2024")
    assert [m.company.ticker for m in named] == ["COKE"]  # the other registrant, named whole


def test_a_row_name_joined_by_and_keeps_its_own_linking_word():
    names = frozenset({tokens("(Gain) loss on debt and equity securities, net")})
    for said in ("gain loss on debt and equity securities 2023", "how much did they lose on debt and equity securities in 2023"):
        trace, runs = account(said, [], set(), names)
        keys, _ = line_keys(trace, runs)
        assert len(keys) == 1 and "equity" in keys[0] and "debt" in keys[0], keys
        assert not any(t["as"] == "metric:long_term_debt" for t in trace), trace  # never long-term debt


def test_a_word_before_margins_names_one_margin_never_the_three(directory):
    asked = planned(directory, "walmart franchised margins fy2025")
    assert not {"gross_margin", "operating_margin", "net_margin"} & set(asked.metrics), asked
    plain = planned(directory, "walmart margins fy2025")
    assert {"gross_margin", "operating_margin", "net_margin"} <= set(plain.metrics), plain


def test_a_name_in_a_reply_to_a_figure_is_looked_up_as_a_member_before_it_is_refused_as_a_company(directory):
    reply = planned(directory, "Nvidia revenue fy2025", "and Zorblax?")
    # looked up as Nvidia's line or member first; the refusal the name had is kept for when none answers
    assert reply.route == "domain" and reply.lone_name == "Zorblax", reply
    assert reply.lone_refusal and reply.lone_refusal["reason"] == "no_company", reply
    prose = planned(directory, "what are Nvidia's supply chain risks?", "and Zorblax?")
    assert prose.route == "refusal" or prose.lone_refusal is None  # after prose, no figure to narrow


def test_the_cost_of_a_members_sales_is_that_members_cost_of_revenue_never_its_revenue():
    from agent.retrieval.segments import plan_key

    assert plan_key("cost of automotive sales", []) == "dim:cost_of_revenue|automotive sales"
    assert plan_key("automotive revenue", ["cost"]) == "dim:cost_of_revenue|automotive revenue"  # "cost of" split off
    assert plan_key("iphone revenue", []) == "dim:revenue|iphone"
    assert plan_key("revenue in europe", ["cost"]) != "dim:cost_of_revenue|europe"  # the cost word must lead


def test_a_figure_asked_in_a_thread_about_a_member_carries_the_topic_for_the_member_lookup(directory):
    reply = planned(directory, "What did Nvidia say about its gaming business?", "what was its revenue in fiscal 2025?")
    assert reply.member_topic and "gaming" in reply.member_topic, reply
    whole = planned(directory, "What did Nvidia say about its gaming business?", "what was Nvidia's total revenue in fiscal 2025?")
    assert whole.member_topic is None, whole  # the company named again, and its total asked: the company's figure
    figure = planned(directory, "Nvidia revenue fy2025", "what was its net income?")
    assert figure.member_topic is None  # no prose topic to narrow it


def test_the_topics_member_is_its_whole_name_never_a_word_of_a_wider_topic(db):
    from datetime import date

    from agent.retrieval.topic_members import topic_member
    from tests.test_facts import company, fact

    meta = 1326801
    with db.connection() as conn:
        company(conn, meta, "Meta Platforms, Inc.", ["META"], "1231")
        for member, value in (("meta:RealityLabsMember", "-17729000000"), ("meta:FamilyOfAppsMember", "87109000000")):
            fact(conn, meta, "0001326801-25-000017", "OperatingIncomeLoss", value, date(2024, 12, 31), date(2024, 1, 1),
                 fiscal_year=2024, fy=2024, dims={"us-gaap:StatementBusinessSegmentsAxis": member})
        who = {"cik": meta, "name": "Meta Platforms, Inc.", "ticker": "META"}
        assert topic_member(conn, {}, who, "operating_income", 2024, "reality labs losses") == "reality labs"
        assert topic_member(conn, {}, who, "operating_income", 2024, "family of apps business") is not None
        assert topic_member(conn, {}, who, "operating_income", 2024, "ai capital expenditures") is None
        assert topic_member(conn, {}, who, "operating_income", 2024, "reality labs headset competition") is None


def test_a_quarters_row_named_with_a_topic_word_is_probed_as_a_row_not_only_searched(directory):
    asked = planned(directory, "Walmart demand creation expense Q2 fiscal 2024")
    keys = asked.probe or asked.metrics
    assert any(k.startswith("line:demand creation") for k in keys), asked
    said = planned(directory, "what did Walmart say about demand in Q2 fiscal 2024?")
    assert not said.probe and not said.metrics, said  # asked in words: what the 10-Q says
