"""A measure over total debt says in its sentence what "debt" counted: analysts differ on whether commercial paper
and other short-term borrowings are debt (Apple's fiscal 2024 net debt is $66.72 billion as long-term debt, current
and noncurrent, the common reading, and $76.69 billion with its $9.97 billion of commercial paper, when asked), so the
figure never leaves it unsaid."""

from __future__ import annotations

import pytest

from agent.retrieval.finance import BORROWING_FORMS, BORROWING_STEPS, DEBT_STEPS, FORMULAS, stated_convention


@pytest.mark.parametrize("base", ["total_debt", "net_debt", "net_cash", "debt_to_assets", "debt_to_capital",
                                  "net_debt_to_equity", "net_debt_to_capital", "debt_to_equity"])
def test_every_step_of_a_total_debt_measure_says_what_debt_counted(base):
    for suffix, _, _ in DEBT_STEPS:
        assert base + suffix in FORMULAS
        said = stated_convention(base + suffix)
        assert said and said.startswith("debt as long-term debt"), (base + suffix, said)
    assert stated_convention(base) == "debt as long-term debt, current and noncurrent"
    assert "short-term borrowings" in stated_convention(base + "_current_line")  # the current line may hold them: said
    assert stated_convention(base + "_long_term_only") == "debt as long-term debt alone"
    # asked "including short-term borrowings": every step of that form says so, or that none is tagged
    assert BORROWING_FORMS[base] == base + "_all"
    for suffix, _, _ in BORROWING_STEPS:
        said = stated_convention(base + suffix)
        assert said.startswith("debt as long-term debt") and ("short-term borrowings" in said or "alone" in said), said


def test_other_measures_keep_their_own_words():
    assert "debt as" not in (stated_convention("lt_debt_to_equity") or "")  # its name says what debt is
    assert stated_convention("roic").startswith("after-tax operating income")
