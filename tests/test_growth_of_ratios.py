"""Growth words on a measure that has no growth or change form of its own (ROE, debt to equity, a turnover, the
effective tax rate) show the year beside the year before, never the year's level alone: "ko effective tax rate
change 2023" answered 17.4%, the 2023 rate, as if it were the change asked."""

from __future__ import annotations

import pytest

from agent.planning.rules import plan_rules
from tests.test_figures import directory  # noqa: F401  (the module's directory fixture)


@pytest.mark.parametrize("question", ["apple roe growth fy2024", "apple debt to equity change fy2024",
                                      "how did apple's inventory turnover change in fiscal 2024?",
                                      "apple effective tax rate change fiscal 2024"])
def test_growth_of_a_measure_without_a_growth_form_shows_both_years(directory, question):  # noqa: F811
    p = plan_rules(question, directory=directory)
    assert p.route == "domain" and p.fiscal_years == [2023, 2024] and p.intent == "trend", p


def test_measures_with_a_growth_or_change_form_keep_it(directory):  # noqa: F811
    grown = plan_rules("apple revenue growth fy2024", directory=directory)
    assert grown.metrics == ["revenue_growth"] and grown.fiscal_years == [2024], grown
    changed = plan_rules("apple current ratio change fy2024", directory=directory)
    assert changed.fiscal_years == [2024] and changed.metrics != ["current_ratio"], changed  # its change, computed
    level = plan_rules("apple roe fy2024", directory=directory)
    assert level.fiscal_years == [2024], level
