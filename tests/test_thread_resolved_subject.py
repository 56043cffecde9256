"""Follow-up turns read against what the thread is about: a figure asked only by its label still takes the
thread's follow-ups. Planner tests over a directory and the corpus lookup lent as the planning node lends it."""

from __future__ import annotations

import pytest

from agent.retrieval.concepts import METRICS
from agent.planning.thread import asked_as
from tests.test_thread_questions import planned_with


@pytest.fixture(scope="module")
def directory():
    from agent.planning.companies import CompanyDirectory
    from tests.test_companies import COVERED, SEC

    return CompanyDirectory.from_rows(COVERED, SEC, {320193: [2023, 2024], 1045810: [2024, 2025],
                                                     1318605: [2023, 2024], 833444: [2024], 1018724: [2024]})


def _lookup(phrase: str) -> list[tuple[int, int]]:
    return []


_lookup.writes = lambda phrase, ciks: 12  # type: ignore[attr-defined]


def planned(directory, *texts):
    return planned_with(_lookup, directory, *texts)


def test_every_metric_has_words_to_be_asked_by():
    for key in METRICS:
        words = asked_as(key)
        assert words and "(" not in words and "," not in words, (key, words)
    assert asked_as("depreciation") == "depreciation"


@pytest.mark.parametrize("reply", ["and capex?", "and as a % of revenue?", "what % of operating cash flow is that?",
                                   "minus capex?"])
def test_follow_ups_after_a_figure_asked_by_its_label(directory, reply):
    # depreciation lists no synonym of its own: the follow-up is planned, for the thread's company and year
    p = planned(directory, "apple depreciation fiscal 2024", reply)
    assert p.route == "domain" and p.tickers == ["AAPL"] and 2024 in p.fiscal_years, (reply, p)
