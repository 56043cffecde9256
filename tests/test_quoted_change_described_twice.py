"""A line's change verifies however each of its two facts was described: the asked metric's fact and a printed
row's fact of the same concept are one line. Real figures from Meta Platforms' fiscal 2024 10-K, typed in; the
sentences are ours, written in the filing's manner."""

from __future__ import annotations

from decimal import Decimal

from agent.checking.quoted_figures import line_of, verified

M = Decimal(10) ** 6
METRIC = ("Zed Platforms (ZZZ) Research and development expense, fiscal 2024: $43.87 billion "
          "(us-gaap:ResearchAndDevelopmentExpense")
ROW = "ZZZ us-gaap:ResearchAndDevelopmentExpense (Research and development)"
MEMBER_ROW = ("ZZZ us-gaap:AllocatedShareBasedCompensationExpense (us-gaap:ResearchAndDevelopmentExpenseMember) "
              "(Research and development | Total)")


def test_this_years_and_last_years_fact_are_one_line_however_described():
    facts = [("rd24", 43873 * M, "USD", METRIC, "2024-12-31"), ("rd23", 38483 * M, "USD", ROW, "2023-12-31")]
    found = verified("Research and development expenses in 2024 increased $5.39 billion compared to 2023.", facts)
    assert found is not None and set(found) == {"rd24", "rd23"}
    # a rate of change pairs only facts described alike: the amount it moved is what names the line
    assert verified("Research and development expenses in 2024 increased 14% compared to 2023.", facts) == []


def test_a_members_fact_is_another_line_than_its_concepts_total():
    assert line_of(METRIC) == line_of(ROW)
    assert line_of(MEMBER_ROW) != line_of(ROW)
    # a member told with its axis is the same line as the member told without it
    assert line_of("ZZZ Compute revenue, fiscal 2024: $1.00 billion (us-gaap:Revenues, srt:ProductOrServiceAxis = "
                   "zzz:ComputeMember") == line_of("ZZZ us-gaap:Revenues (zzz:ComputeMember) (Compute)")
    # two lines' facts a year apart are no change of each other
    facts = [("rd24", 43873 * M, "USD", METRIC, "2024-12-31"),
             ("sbc23", 38483 * M, "USD", MEMBER_ROW, "2023-12-31")]
    assert verified("Research and development expenses in 2024 increased $5.39 billion compared to 2023.",
                    facts) is None
