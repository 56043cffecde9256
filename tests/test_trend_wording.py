"""A question about a direction or a history over years reads as a trend of at least three years (or the span
it names), however it is worded: the grammar of a sustained change ("has been growing", "keeps rising",
"continued to decline") or a span said without its count ("over the past few years"). A one-year comparison
stays one year's growth, and a "why" stays prose. Plan-level, against the planner's test companies."""

from __future__ import annotations

import pytest

from agent.planning.years import parse_years
from tests.test_figures import directory, plan  # noqa: F401 (its fixture and planner call, shared)


@pytest.mark.parametrize("text", [
    "has walmart's revenue been growing?",
    "Has Apple's net income been steadily increasing?",
    "apple revenue keeps rising",
    "Did Nvidia's operating income continue to grow?",
    "apple net income over time",
    "Apple revenue over the past few years",
    "apple revenue in recent years",
    "Has Apple grown its revenue year after year?",
    "what's apple's track record on net income",
    "apple net income history",
    "nvda revenue the last 3 years",
])
def test_a_direction_or_history_shows_three_years_of_the_figure(directory, text):
    p = plan(directory, text)
    assert p.intent == "trend", (p.intent, p.metrics, p.words)
    assert not any(k.endswith("_growth") for k in p.metrics), p.metrics
    assert len(p.fiscal_years) >= 3 or len(p.year_offsets) >= 3, (p.fiscal_years, p.year_offsets)
    assert not any(w["as"] == "unaccounted" for w in p.words), p.words


@pytest.mark.parametrize("text", [
    "has apple's revenue grown vs the prior year?",
    "apple revenue up from last year?",
    "walmart revenue growth fiscal 2025",
    "apple revenue year over year growth",
])
def test_a_one_year_comparison_stays_one_years_growth(directory, text):
    p = plan(directory, text)
    assert p.intent != "trend", (p.intent, p.fiscal_years, p.year_offsets)
    assert len(p.fiscal_years) <= 1 and len(p.year_offsets) <= 1, (p.fiscal_years, p.year_offsets)


def test_why_a_figure_has_been_growing_stays_prose(directory):
    assert plan(directory, "why has apple's revenue been growing?").intent == "qualitative"


def test_year_after_year_is_no_year_after_and_a_few_years_end_at_the_latest():
    assert parse_years("grown year after year").offsets == []
    assert parse_years("in the year after").offsets == [1]
    few = parse_years("over the past few years")
    assert few.trend and few.latest and few.offsets == [-2, -1, 0]
    assert not parse_years("did revenue grow in 2024").trend
