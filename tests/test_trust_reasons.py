"""Never a true figure for another thing, and refusals that give the right reason: a name typed as an
everyday word, a product that earned something, a correction, another currency, a requested unit, a
printed fragment of a longer phrase, chat's courtesy words in other languages."""

from __future__ import annotations

import re

import pytest

from agent.planning.corrections import corrected
from agent.planning.defined_formulas import unit_said
from agent.planning.rules import plan_rules
from agent.planning.years import YEAR_WORDS
from agent.retrieval.line_items import resolve
from tests.test_route import directory  # noqa: F401  (the fixture)


def plan(directory, text, previous=None):
    return plan_rules(text, previous=previous, directory=directory)


def test_a_possessive_typed_without_its_apostrophe_names_the_company(directory):
    p = plan(directory, "whats apples basic eps for 2024")
    assert (p.route, p.tickers, p.metrics) == ("domain", ["AAPL"], ["eps_basic"]), p
    # a word that names no covered company stays refused for the name it is
    p = plan(directory, "what did zorblaxes earn in 2024")
    assert p.refusal_reason == "no_company", p


@pytest.mark.parametrize("text, key", [
    ("how much did iPhone make in fiscal 2024", "dim:revenue|iphone"),
    ("how much did iPhone earn in fiscal 2024", "dim:operating_income|iphone"),
])
def test_what_a_product_earned_is_its_own_figure_never_the_company_s_net_income(directory, text, key):
    p = plan(directory, text)
    assert p.tickers == ["AAPL"] and p.metrics == [key], p
    # the company itself earning is its net income, as before
    assert plan(directory, "how much did apple make in fiscal 2024").metrics == ["net_income"]


def test_a_figure_in_another_currency_is_refused_never_the_dollar_figure(directory):
    p = plan(directory, "apple net income for fiscal 2024 in yen please, converted at today's rate")
    assert (p.refusal_reason, p.tickers) == ("out_of_scope", ["AAPL"]) and "yen" in p.refusal_detail, p
    p = plan(directory, "apple revenue 2024 in europe")  # a region, no currency
    assert p.route == "domain", p


def _companies(text):
    return [(m.start(), m.end()) for m in re.finditer(r"(?i)\b(?:nike|apple|nvidia|microsoft|alphabet)\b", text)]


@pytest.mark.parametrize("raw, read", [
    ("Nike FY2025 R&D... sorry, SG&A to revenue", "Nike FY2025 SG&A to revenue"),  # the figure taken back
    ("apple revenue 2023... sorry, 2024", "apple revenue 2024"),  # the year taken back
    ("apple revenue 2023... sorry, nvidia", "revenue 2023 nvidia"),  # the company taken back
    ("microsoft... sorry, Alphabet revenue 2024", "Alphabet revenue 2024"),  # all of it
    ("apple revenue 2024", "apple revenue 2024"),  # no correction
])
def test_a_correction_takes_back_only_what_it_names(raw, read):
    assert corrected(raw, _companies, YEAR_WORDS) == read


def test_a_corrected_figure_keeps_the_company_and_year_said_before_it(directory):
    p = plan(directory, "Apple FY2024 R&D... sorry, net income")
    assert (p.route, p.tickers, p.fiscal_years, p.metrics) == ("domain", ["AAPL"], [2024], ["net_income"]), p


@pytest.mark.parametrize("text, unit", [
    ("opex over revenue, answer as a decimal", "ratio"),
    ("opex over revenue (not a percentage)", "ratio"),
    ("opex over revenue as a fraction", "ratio"),
    ("opex over revenue, expressed as a percentage", "percent"),
    ("opex over revenue", None),
])
def test_the_unit_a_user_asks_a_quotient_in(text, unit):
    said, rest = unit_said(text)
    assert said == unit
    assert "decimal" not in rest and "percentage" not in rest


def test_an_aside_is_recorded_in_the_word_trace(directory):
    p = plan(directory, "what was Apple's revenue in fiscal 2024? NOW thanks")
    assert p.tickers == ["AAPL"] and {"word": "NOW", "as": "aside"} in p.words, p.words


@pytest.mark.parametrize("text", ["Danke!", "merci beaucoup", "gracias"])
def test_thanks_in_other_languages_is_small_talk_never_a_company(directory, text):
    p = plan(directory, text)
    assert (p.route, p.intent) == ("meta", "thanks"), p


def _row(label, concept, statement="income"):
    return {"label": label, "concept": concept, "statement": statement, "dims": {}}


def test_a_printed_fragment_never_answers_a_longer_phrase():
    """GE prints "continuing operations" alone under the noncontrolling interests' heading: asked for
    "earnings from continuing operations", that fragment (their share) is another figure."""
    labels = [_row("Earnings (loss) from continuing operations attributable to the Company",
                   "us-gaap:IncomeLossFromContinuingOperations"),
              _row("Earnings (loss) from continuing operations",
                   "us-gaap:IncomeLossFromContinuingOperationsIncludingPortionAttributableToNoncontrollingInterest"),
              _row("continuing operations", "us-gaap:IncomeLossFromContinuingOperationsAttributableToNoncontrollingEntity")]
    match, candidates = resolve("continuing operations", "earnings continuing operations", labels, [])
    chosen = [match] if match is not None else candidates
    assert chosen and all(m.concept != "us-gaap:IncomeLossFromContinuingOperationsAttributableToNoncontrollingEntity"
                          for m in chosen), (match, candidates)


def test_a_total_that_includes_a_part_never_answers_for_the_part():
    labels = [_row("Earnings (loss) from continuing operations",
                   "us-gaap:IncomeLossFromContinuingOperationsIncludingPortionAttributableToNoncontrollingInterest")]
    match, _ = resolve("continuing operations attributable noncontrolling interests",
                       "earnings continuing operations attributable noncontrolling interests", labels, [])
    assert match is None
    match, _ = resolve("continuing operations including noncontrolling interests",
                       "earnings continuing operations including noncontrolling interests", labels, [])
    assert match is not None and "Including" in match.concept


@pytest.mark.parametrize("text", ["apple revenue Q5 2024", "apple revenue 2024 q0"])
def test_a_quarter_no_year_has_is_refused_as_a_period_never_a_line(directory, text):
    from agent.refusals import refusal_text

    p = plan(directory, text)
    assert (p.refusal_reason, p.tickers) == ("year_not_available", ["AAPL"]), p
    said = refusal_text(p.refusal_reason, p.refusal_detail)
    assert re.search(r"\bQ[05]\b", said, re.I), said  # the quarter named as typed, not scrubbed as an amount


@pytest.mark.parametrize("text", ["apple revenue in fiscal year 0", "apple revenue fy0"])
def test_a_year_zero_is_a_year_named_never_the_latest(directory, text):
    p = plan(directory, text)
    assert p.fiscal_years == [0] and not p.latest, p


def test_a_company_held_by_its_quarters_alone_is_refused_as_not_covered_for_a_year():
    from agent.refusals import refusal_text

    said = refusal_text("not_covered", "quarters only: 3M (MMM)")
    assert "3M (MMM)" in said and "10-Q" in said and "fiscal year" in said, said
    # any other not_covered detail keeps its sentence
    assert refusal_text("not_covered", "Microsoft (MSFT)").startswith("Microsoft (MSFT) is not among")


@pytest.mark.parametrize("text", ["apple's fy2024 gross margin as a decimal", "apple gross margin fy2024, not as a percentage"])
def test_a_named_percentage_asked_as_a_decimal_is_the_quotient_restated(directory, text):
    p = plan(directory, text)
    assert p.metrics == ["udf:gross margin"] and p.definitions[-1]["unit"] == "ratio", p
    assert plan(directory, "apple gross margin fy2024").metrics == ["gross_margin"]


@pytest.mark.parametrize("text, key", [
    ("how much did nvidia's data center segment earn in fiscal 2025", "dim:operating_income|data center segment"),
    ("what did Google Cloud earn in 2024", "dim:operating_income|cloud"),  # Google is the company
])
def test_what_a_segment_earned_is_its_own_figure_never_the_company_s_net_income(directory, text, key):
    p = plan(directory, text)
    assert p.metrics == [key], p


def test_member_lookups_take_bare_concept_names():
    from store.segments import qualified

    assert qualified(("Revenues", "nvda:DataCenterRevenue")) == ["us-gaap:Revenues", "nvda:DataCenterRevenue"]
