"""The order refusal reasons are decided in: the company first, then the metric, then the year. A
refusal names the first thing missing, so the user is never sent to ask another year for a figure
no filing prints, nor told a metric is unknown when the company is."""

from __future__ import annotations

import pytest

from tests.conftest import thread_of


@pytest.fixture(scope="module")
def footnote(offline_footnote):
    return offline_footnote


def test_a_line_no_filing_prints_is_refused_as_the_metric_before_the_year(footnote):
    ask = thread_of(footnote)
    answer = ask("Apple wafer yield in fiscal 2015")
    assert (answer.kind, answer.refusal_reason) == ("refusal", "unknown_metric"), answer.text
    assert "wafer yield" in answer.text
    # a metric the company does report, in a year not held: the year is what is missing
    answer = thread_of(footnote)("Apple revenue in fiscal 2015")
    assert (answer.kind, answer.refusal_reason) == ("refusal", "year_not_available"), answer.text


def test_an_unknown_company_in_a_thread_is_named_before_its_metric(footnote):
    ask = thread_of(footnote)
    assert ask("Apple revenue fiscal 2024").kind == "answer"
    answer = ask("what about Zorblaxx's churn rate?")
    assert (answer.kind, answer.refusal_reason) == ("refusal", "no_company"), answer.text
    assert "Zorblaxx" in answer.text and not answer.numbers


def test_a_year_no_filing_can_hold_beside_a_held_one_is_refused_not_dropped(footnote):
    answer = thread_of(footnote)("Apple revenue fiscal 2024 vs 1850")
    assert (answer.kind, answer.refusal_reason) == ("refusal", "year_not_available"), answer.text
    assert "1850" in answer.text and not answer.numbers


def test_a_bare_figure_phrase_no_filing_prints_is_the_metric_missing_before_the_year(footnote):
    """Planned as a passage search ("zorbling index" is no metric of ours), the phrase is still a line:
    no row of those words in any filing held means no year would answer it."""
    answer = thread_of(footnote)("Apple's zorbling index in 2099")
    assert (answer.kind, answer.refusal_reason) == ("refusal", "unknown_metric"), answer.text
    assert "zorbling index" in answer.text
