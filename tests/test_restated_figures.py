"""A figure a later filing restated says so and names that filing, when the period's own filing is held and
printed another amount: a reader holding that filing finds another number there, and the answer says why.
Real figures typed in as facts (Johnson & Johnson's quarter before the Kenvue separation, Home Depot's fiscal 2023
depreciation and amortization as its fiscal 2023 and fiscal 2024 10-Ks print it)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from tests.test_facts import company, fact, filing
from tests.test_quarter_answers import M, ask, footnote, nvidia  # noqa: F401  (fixtures)


JNJ, JNJ_Q2, JNJ_K23 = 200406, "0000200406-23-000082", "0000200406-24-000013"


@pytest.fixture
def with_restated(nvidia):
    """Johnson & Johnson's sales for the three months ended July 2, 2023: $25,530 million in that quarter's own
    10-Q, $21,519 million in the fiscal 2023 10-K after the consumer health business left (its quarterly table)."""
    with nvidia.connection() as conn:
        company(conn, JNJ, "JOHNSON & JOHNSON", ["JNJ"], "1231")
        filing(conn, JNJ, JNJ_Q2, 2023, date(2023, 7, 2), date(2023, 7, 28), form="10-Q")
        filing(conn, JNJ, JNJ_K23, 2023, date(2023, 12, 31), date(2024, 2, 16))
        fact(conn, JNJ, JNJ_K23, "Revenues", str(85159 * M), date(2023, 12, 31), date(2023, 1, 2), fiscal_year=2023,
             fy=2023, filed=date(2024, 2, 16))
        fact(conn, JNJ, JNJ_Q2, "Revenues", str(25530 * M), date(2023, 7, 2), date(2023, 4, 3), fiscal_year=2023, fy=2023,
             form="10-Q", fp="Q2", filed=date(2023, 7, 28))
        fact(conn, JNJ, JNJ_K23, "Revenues", str(21519 * M), date(2023, 7, 2), date(2023, 4, 3), fiscal_year=2023, fy=2023,
             filed=date(2024, 2, 16))
    return nvidia


def test_a_quarter_restated_by_a_later_filing_says_so(with_restated, footnote):  # noqa: F811
    answer = ask(footnote, "johnson & johnson revenue q2 2023")
    assert answer.kind == "answer", answer.text
    assert {Decimal(n.value) for n in answer.numbers} == {Decimal(21519 * M)}
    assert "restated in a later filing (the 10-K for fiscal 2023)" in answer.text
    assert "own 10-Q first reported" in answer.text
    # a quarter its own filing alone reports says nothing of the kind
    assert "restated" not in ask(footnote, "nvidia revenue q2 fy2024").text



HD, HD_K23, HD_K24 = 354950, "0000354950-24-000062", "0000354950-25-000010"


@pytest.fixture
def with_home_depot(nvidia):
    with nvidia.connection() as conn:
        company(conn, HD, "HOME DEPOT, INC.", ["HD"], "0202")
        filing(conn, HD, HD_K23, 2023, date(2024, 1, 28), date(2024, 3, 13))
        filing(conn, HD, HD_K24, 2024, date(2025, 2, 2), date(2025, 3, 21))
        for acc, start, end, value, fy, filed in (
                (HD_K23, date(2023, 1, 30), date(2024, 1, 28), 3247, 2023, date(2024, 3, 13)),
                (HD_K24, date(2023, 1, 30), date(2024, 1, 28), 3061, 2023, date(2025, 3, 21)),
                (HD_K24, date(2024, 1, 29), date(2025, 2, 2), 3509, 2024, date(2025, 3, 21))):
            fact(conn, HD, acc, "DepreciationDepletionAndAmortization", str(value * M), end, start, fiscal_year=fy,
                 fy=2023 if acc == HD_K23 else 2024, filed=filed)
    return nvidia


def test_a_year_restated_by_a_later_10k_says_so_when_its_own_10k_printed_another_amount(with_home_depot, footnote):  # noqa: F811
    answer = ask(footnote, "home depot depreciation and amortization fiscal 2023")
    assert answer.kind == "answer", answer.text
    assert {Decimal(n.value) for n in answer.numbers} == {Decimal(3061 * M)}
    assert "as restated in the fiscal 2024 10-K's prior-year figures" in answer.text
    assert "fiscal 2023 10-K reported another amount" in answer.text
    # the year the latest 10-K reports as its own says nothing of the kind
    assert "restated" not in ask(footnote, "home depot depreciation and amortization fiscal 2024").text


NV, NV_K24, NV_K25 = 1045810, "0001045810-24-000029", "0001045810-25-000023"


@pytest.fixture
def with_split(nvidia):
    """Nvidia's diluted EPS for fiscal 2023 (its own 10-K not held): $1.74 in the fiscal 2024 10-K, $0.17 in the
    fiscal 2025 10-K after the June 2024 ten-for-one split; fiscal 2022's, $1.76, in the fiscal 2024 10-K alone."""
    with nvidia.connection() as conn:
        filing(conn, NV, NV_K25, 2025, date(2025, 1, 26), date(2025, 2, 26))
        for acc, start, end, value, fy, filed in (
                (NV_K24, date(2021, 2, 1), date(2022, 1, 30), "1.76", 2022, date(2024, 2, 21)),
                (NV_K24, date(2022, 1, 31), date(2023, 1, 29), "1.74", 2023, date(2024, 2, 21)),
                (NV_K25, date(2022, 1, 31), date(2023, 1, 29), "0.17", 2023, date(2025, 2, 26)),
                (NV_K24, date(2023, 1, 30), date(2024, 1, 28), "11.93", 2024, date(2024, 2, 21)),
                (NV_K25, date(2024, 1, 29), date(2025, 1, 26), "2.94", 2025, date(2025, 2, 26))):
            fact(conn, NV, acc, "EarningsPerShareDiluted", value, end, start, fiscal_year=fy, unit="USD/shares",
                 fy=2024 if acc == NV_K24 else 2025, filed=filed)
    return nvidia


def test_a_year_read_in_a_later_10k_says_when_an_earlier_held_10k_printed_another_amount(with_split, footnote):  # noqa: F811
    answer = ask(footnote, "nvidia diluted eps fiscal 2023")
    assert answer.kind == "answer", answer.text
    assert {Decimal(n.value) for n in answer.numbers} == {Decimal("0.17")}
    assert "as restated in the fiscal 2025 10-K's prior-year figures" in answer.text
    assert "fiscal 2024 10-K reported another amount" in answer.text
    # a year only one held 10-K reports is "as reported" there, and nothing more
    older = ask(footnote, "nvidia diluted eps fiscal 2022")
    assert {Decimal(n.value) for n in older.numbers} == {Decimal("1.76")}
    assert "as reported in the fiscal 2024 10-K's prior-year figures" in older.text and "restated" not in older.text


def test_a_quarter_whose_own_10q_is_not_held_says_when_an_earlier_filing_printed_another_amount(with_restated, footnote):  # noqa: F811
    """Johnson & Johnson's Q2 FY2022 sales: $24,020 million among the Q2 FY2023 10-Q's comparatives, $20,215 million
    in the fiscal 2023 10-K's quarterly table after the Kenvue separation; the Q2 FY2022 10-Q itself not held."""
    with with_restated.connection() as conn:
        for acc, value, form, fp in ((JNJ_Q2, 24020, "10-Q", "Q2"), (JNJ_K23, 20215, "10-K", "FY")):
            fact(conn, JNJ, acc, "Revenues", str(value * M), date(2022, 7, 3), date(2022, 4, 4), fiscal_year=2022,
                 fy=2023, form=form, fp=fp)
    answer = ask(footnote, "johnson & johnson revenue q2 fy2022")
    assert answer.kind == "answer", answer.text
    assert {Decimal(n.value) for n in answer.numbers} == {Decimal(20215 * M)}
    assert "as restated in a later filing (the 10-K for fiscal 2023)" in answer.text
    assert "not the amount an earlier filing (the 10-Q for fiscal 2023" in answer.text
