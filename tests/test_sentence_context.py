"""What a filing sentence is scored by when its subject is elsewhere: MD&A tells a change in two
sentences ("Garden net sales increased 6 percent. The increase was driven by ..."), a segment's
discussion sits under a short sub-heading, and every line's change is told in one template. And
what the extractive composer no longer loses or quotes: a sentence whose amount merely looks like
an earlier year's fact, a running page footer glued to half a sentence."""

from __future__ import annotations

from decimal import Decimal

from agent.composing import sentence_rank
from agent.composing.compose import SUBJECT_WEIGHT, _candidates, _of_the_subject, compose_extractive
from agent.composing.draft import Evidence
from agent.planning.plan import Plan


def _chunk(n: int, item: str, text: str, fiscal_year: int = 2024) -> Evidence:
    return Evidence(id=f"c:{n}", kind="chunk", ticker="ZZZ", cik=1, fiscal_year=fiscal_year, accession="a",
                    url="u", item=item, text=text)


def test_a_cause_told_without_its_subject_is_read_with_the_one_before_it():
    before = ("With respect to each segment, sales in the Garden Tools segment, excluding the impact of foreign "
              "exchange, increased 15.1 percent in 2024 and 8.1 percent in 2023.")
    read = sentence_rank.in_context("The increase was driven by cordless mowers.", before)
    assert read.endswith(": The increase was driven by cordless mowers.")
    assert "Garden Tools segment" in read and "15.1" not in read  # the words before the amount, not the amount
    # "The net sales increase", "The increases in 2024": still a change whose owner was named before
    assert sentence_rank.in_context("The net sales increase was driven by X.", before) != "The net sales increase was driven by X."
    assert "Garden Tools" in sentence_rank.in_context("The increases in 2024 were driven by X.", before)


def test_a_sentence_with_its_own_subject_or_an_offset_is_read_as_written():
    before = "Garden net sales increased 6 percent in fiscal 2024."
    for sentence in ("Gross margin improved on lower freight costs.",
                     "This assistance may continue and increase as long as the conflict continues.",  # a verb first
                     "The decreases were partially offset by higher costs for the new truck."):  # the rest of an answer
        assert sentence_rank.in_context(sentence, before) == sentence
    assert sentence_rank.in_context("The increase was driven by X.", None) == "The increase was driven by X."


def test_a_sentence_under_a_sub_heading_is_read_with_the_heading():
    assert sentence_rank.in_context("Net revenue grew 7%, driven by pricing.", "GTNA") == "GTNA: Net revenue grew 7%, driven by pricing."
    # a table row or a sentence is no heading
    assert sentence_rank.in_context("Net revenue grew 7%.", "Total | 4% | 5%") == "Net revenue grew 7%."
    assert sentence_rank.in_context("Net revenue grew 7%.", "Demand was weak.") == "Net revenue grew 7%."


def test_a_hyphenated_name_is_initialled_by_its_parts():
    assert sentence_rank.initialisms("why did Garden-Tool North America's net revenue grow?")["gtna"] == \
        "garden tool north america"


def test_the_cause_of_a_neighbouring_line_ranks_below_the_asked_one():
    subject = {"cost", "revenue"}
    mine = "For fiscal 2024, the increase in cost of revenues was primarily due to employee-related costs."
    other = "The increase in subscription revenues was primarily due to volume from new customers."
    assert sentence_rank.unheld_in_main(mine, subject) == 0
    assert sentence_rank.unheld_in_main(other, subject) == 1  # "costs" only in its cause clause
    candidates = [(0, 0, mine, mine), (0, 1, other, other)]
    scored = dict((i, s) for s, i in _of_the_subject([(0.6, 0), (0.7, 1)], candidates, subject,
                                                      {c[:3]: c[3] for c in candidates}))
    assert scored[0] == 0.6 and scored[1] == 0.7 - SUBJECT_WEIGHT / 2
    # when no main clause names the subject, nothing is told apart
    assert _of_the_subject([(0.7, 1)], candidates, {"tariff", "steel"}, {}) == [(0.7, 1)]


def test_an_amount_equal_only_to_an_earlier_years_fact_is_elided_not_dropped():
    chunk = _chunk(1, "7", "Net revenue grew 7%, primarily driven by effective net pricing and new garden stores.")
    coupon = ("f:1", Decimal("0.07"), "pure", "zzz:DebtInstrumentInterestRateStatedPercentage", "2023-12-31")
    shown = [c[2] for c in _candidates([chunk], {"a": [coupon]}, 2024)]
    assert shown == ["Net revenue grew …, primarily driven by effective net pricing and new garden stores."]


def test_a_running_footer_glued_to_half_a_sentence_is_not_a_candidate():
    chunk = _chunk(1, "7", "The Zed & Zee Company 27 regarding the recoverability of certain deferred tax balances. "
                   "Our effective tax rate rose on an unfavorable geographic mix of earnings.")
    assert [c[2] for c in _candidates([chunk])] == ["Our effective tax rate rose on an unfavorable geographic mix of earnings."]


def test_a_segments_cause_is_quoted_for_that_segment(embedder):
    chunk = _chunk(1, "7", "Garden Tools net sales increased 6 percent in fiscal 2024. "
                   "The increase was primarily driven by strong demand for cordless lawn mowers in Europe. "
                   "Kitchen Appliances net sales increased 4 percent in fiscal 2024. "
                   "The increase was primarily driven by the launch of a new line of espresso machines.")
    plan = Plan(route="domain", intent="qualitative", tickers=["ZZZ"], fiscal_years=[2024], items=["7"],
                query="why did kitchen appliances net sales increase")
    draft = compose_extractive("why did zzz's kitchen appliances sales increase in 2024?", plan, [chunk],
                               embedder=embedder)
    quoted = [c.quote or c.text for c in draft.claims if c.kind == "prose"]
    assert quoted[0] == "The increase was primarily driven by the launch of a new line of espresso machines."
    assert "The increase was primarily driven by strong demand for cordless lawn mowers in Europe." not in quoted
