"""A quarter's growth is a rate only over a positive base, and growth by quarter is each quarter's growth.

Why: over a loss a rate reads backwards ("up 426%" from a loss of $454 million to a profit of $1.48 billion),
so, as for a year, the change is stated instead and says why; and "quarterly revenue growth" answered with
the quarters' revenue answered another question. Real figures typed in as facts: Intel's net income for the
three months ended July 1, 2023 and July 2, 2022 (its 10-Q), NVIDIA's revenue by quarter (tests.test_quarter_answers).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from tests.test_facts import company, fact, filing
from tests.test_quarter_answers import M, ask, footnote, nvidia  # noqa: F401  (fixtures)

INTC, Q2_23, K22 = 50863, "0000050863-23-000069", "0000050863-23-000006"


@pytest.fixture
def with_intel(nvidia):
    with nvidia.connection() as conn:
        company(conn, INTC, "INTEL CORP", ["INTC"], "1230")
        filing(conn, INTC, K22, 2022, date(2022, 12, 31), date(2023, 1, 27))
        filing(conn, INTC, Q2_23, 2023, date(2023, 7, 1), date(2023, 7, 28), form="10-Q")
        fact(conn, INTC, K22, "NetIncomeLoss", str(8014 * M), date(2022, 12, 31), date(2022, 1, 2), fiscal_year=2022,
             fy=2022, filed=date(2023, 1, 27))
        for start, end, value, fy in ((date(2023, 4, 2), date(2023, 7, 1), 1481, 2023),
                                      (date(2022, 4, 3), date(2022, 7, 2), -454, 2022)):
            fact(conn, INTC, Q2_23, "NetIncomeLoss", str(value * M), end, start, fiscal_year=fy, fy=2023, form="10-Q",
                 fp="Q2", filed=date(2023, 7, 28))
    return nvidia


def test_a_quarters_growth_over_a_loss_is_the_change_and_says_why(with_intel, footnote):  # noqa: F811
    answer = ask(footnote, "intel net income growth q2 2023 year over year")
    assert answer.kind == "answer", answer.text
    assert "%" not in answer.text
    assert Decimal(1935 * M) in {Decimal(n.value) for n in answer.numbers}
    assert "a change of $1.94 billion from -$454.00 million" in answer.text
    assert "growth rate would mislead" in answer.text


def test_quarterly_growth_is_each_quarters_growth_never_the_quarters_levels(footnote):  # noqa: F811
    answer = ask(footnote, "nvidia quarterly revenue growth fiscal 2024")
    assert answer.kind == "answer", answer.text
    # only Q2 holds the same quarter a year earlier among the typed-in facts: 13,507 over 6,704, a rate; never
    # the four quarters' revenue as a table
    assert not answer.tables
    assert "up 101.5% from $6.70 billion" in answer.text

