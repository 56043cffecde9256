"""Quarters: phrases resolved to exact periods in the company's own fiscal calendar, three-month
figures (never the year to date, never the year), fourth quarters and trailing twelve months as
cited computations, growth on a quarter, tables by quarter, and refusals naming a quarter not held.

NVIDIA's real figures (USD millions, from its 10-Qs and 10-Ks) are typed in as facts: its fiscal
2024 ran from January 30, 2023 to January 28, 2024, so its Q2 FY2024 ended July 30, 2023.
"""

from __future__ import annotations

import uuid
from datetime import date
from decimal import Decimal

import pytest

from agent.answer import Turn
from agent.planning.quarters import dated_period, parse_period
from agent.retrieval.quarters import Calendar, Periods
from store.quarters import PeriodFact
from tests.test_facts import company, fact, filing

NVDA = 1045810
K24, K23 = "0001045810-24-000029", "0001045810-23-000017"
Q1, Q2, Q3 = "0001045810-23-000093", "0001045810-23-000175", "0001045810-23-000227"
Q1_25 = "0001045810-24-000124"
M = 1_000_000

# (accession, form, start, end, value in millions, fiscal year)
REVENUE = [
    (K23, "10-K", date(2022, 1, 31), date(2023, 1, 29), 26974, 2023),
    (K24, "10-K", date(2023, 1, 30), date(2024, 1, 28), 60922, 2024),
    (Q1, "10-Q", date(2023, 1, 30), date(2023, 4, 30), 7192, 2024),
    (Q2, "10-Q", date(2023, 5, 1), date(2023, 7, 30), 13507, 2024),
    (Q2, "10-Q", date(2023, 1, 30), date(2023, 7, 30), 20699, 2024),
    (Q2, "10-Q", date(2022, 5, 2), date(2022, 7, 31), 6704, 2023),
    (Q2, "10-Q", date(2022, 1, 31), date(2022, 7, 31), 14992, 2023),
    (Q3, "10-Q", date(2023, 7, 31), date(2023, 10, 29), 18120, 2024),
    (Q3, "10-Q", date(2023, 1, 30), date(2023, 10, 29), 38819, 2024),
    (Q1_25, "10-Q", date(2024, 1, 29), date(2024, 4, 28), 26044, 2025),
]


@pytest.fixture
def nvidia(db):
    with db.connection() as conn:
        company(conn, NVDA, "NVIDIA CORP", ["NVDA"], "0128")
        filing(conn, NVDA, K24, 2024, date(2024, 1, 28), date(2024, 2, 21))
        for accession, form, start, end, value, fy in REVENUE:
            fact(conn, NVDA, accession, "Revenues", str(value * M), end, start, fiscal_year=fy, fy=2024, form=form,
                 fp="FY" if form == "10-K" else "Q2", filed=date(2024, 2, 21) if form == "10-K" else date(2023, 8, 25))
        fact(conn, NVDA, Q2, "GrossProfit", str(9462 * M), date(2023, 7, 30), date(2023, 5, 1), fiscal_year=2024, fy=2024,
             form="10-Q", fp="Q2", filed=date(2023, 8, 25))
        fact(conn, NVDA, Q2, "Assets", str(49555 * M), date(2023, 7, 30), fiscal_year=2024, fy=2024, form="10-Q", fp="Q2",
             filed=date(2023, 8, 25))
    return db


@pytest.fixture
def footnote(nvidia, embedder):
    from bot.wiring import build_footnote
    from bot.settings import Settings

    return build_footnote(nvidia, embedder, Settings(llm="off"), use_cache=False)


def ask(footnote, text):
    return footnote.answer(Turn(thread_key=f"test:{uuid.uuid4().hex}", user="u", text=text))


def _values(answer) -> set[Decimal]:
    return {Decimal(n.value) for n in answer.numbers}


# --- phrases ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, expected", [
    ("revenue in Q2 FY2024", {"kind": "quarter", "quarter": 2, "fiscal_year": 2024, "year_is_fiscal": True}),
    ("net income, third quarter of 2023", {"kind": "quarter", "quarter": 3, "fiscal_year": 2023}),
    ("sales for the three months ended April 29, 2023", {"kind": "quarter", "months": 3, "end": "2023-04-29"}),
    ("revenue in the June 2023 quarter", {"kind": "quarter", "end_month": 6, "end_year": 2023}),
    ("first-half fiscal 2024 net income", {"kind": "ytd", "months": 6, "fiscal_year": 2024, "year_is_fiscal": True}),
    ("nine months ended July 1, 2023", {"kind": "ytd", "months": 9, "end": "2023-07-01"}),
    ("revenue last quarter", {"kind": "quarter", "latest": True}),
    ("trailing twelve months revenue as of Q3 2023", {"kind": "ttm", "quarter": 3, "fiscal_year": 2023}),
    ("revenue by quarter for fiscal 2024", {"kind": "quarters", "fiscal_year": 2024, "year_is_fiscal": True,
                                            "count": 4}),
    ("sequential revenue growth in Q2 FY24", {"kind": "quarter", "quarter": 2, "fiscal_year": 2024,
                                              "year_is_fiscal": True, "growth": "sequential"}),
])
def test_a_quarter_phrase_is_one_exact_period_request(text, expected):
    period = parse_period(text).as_dict()
    period.pop("phrase")
    assert period == expected


def test_a_full_date_without_a_quarter_word_is_a_dated_period_and_a_year_is_not():
    assert dated_period("cash as of July 30, 2023").as_dict()["end"] == "2023-07-30"
    assert parse_period("revenue in fiscal 2024") is None
    assert dated_period("revenue in fiscal 2024") is None


# --- the calendar ------------------------------------------------------------------------------------


def _facts() -> list[PeriodFact]:
    return [PeriodFact(id=i, concept="us-gaap:Revenues", unit="USD", value=Decimal(v * M), start=s, end=e, fiscal_year=fy,
                       accession=a, filed=None, form=form, filing_fiscal_year=2024, filing_period=None, url="u",
                       own_period=False)
            for i, (a, form, s, e, v, fy) in enumerate(REVENUE)]


def test_a_quarter_is_numbered_from_its_own_fiscal_year_start_and_q4_is_derived():
    facts = _facts()
    periods = Periods(facts, Calendar.of(facts), ["us-gaap:Revenues"])
    assert periods.quarter(2024, 2).value == 13507 * M  # three months, never the six beside it
    assert periods.ytd(2024, 6).value == 20699 * M
    q4 = periods.quarter(2024, 4)
    assert q4.value == (60922 - 38819) * M and q4.derived and [n for n, _ in q4.inputs] == ["fiscal year", "nine months"]
    assert periods.quarter(2023, 1) is None  # not reported: never six months minus the second quarter
    assert periods.locate(date(2023, 7, 30)) == (2024, 2)
    assert periods.ttm(2024, 2).value == (26974 + 20699 - 14992) * M


# --- answers ----------------------------------------------------------------------------------------


def test_a_fiscal_quarter_is_its_three_months_from_the_10q(footnote):
    answer = ask(footnote, "What was NVIDIA's revenue in Q2 FY2024?")
    assert answer.kind == "answer", answer.text
    assert "Q2 FY2024 (three months ended July 30, 2023)" in answer.text
    assert "$13.51 billion" in answer.text
    assert _values(answer) == {13507 * M}
    assert answer.numbers[0].fiscal_year == 2024 and answer.citations[0].form == "10-Q"


def test_q4_is_the_year_minus_nine_months_with_both_inputs_cited(footnote):
    answer = ask(footnote, "NVIDIA Q4 fiscal 2024 revenue")
    assert answer.kind == "answer", answer.text
    assert "computed as the fiscal year minus the first nine months" in answer.text
    assert answer.calculation and answer.calculation[0].result == "$22.10 billion"
    cited = {c.value for c in answer.citations}
    assert {str(60922 * M), str(38819 * M)} <= cited


def test_growth_on_the_same_quarter_a_year_earlier_and_trailing_twelve_months(footnote):
    growth = ask(footnote, "NVIDIA Q2 FY2024 revenue growth year over year")
    assert growth.kind == "answer", growth.text
    assert growth.calculation[0].result == "101.5%"
    assert "up 101.5% from $6.70 billion" in growth.text
    ttm = ask(footnote, "nvidia trailing twelve months revenue as of Q2 FY2024")
    assert ttm.kind == "answer", ttm.text
    assert ttm.calculation[0].result == "$32.68 billion" and len(ttm.calculation[0].steps) == 3


def test_the_first_half_is_six_months_and_a_balance_is_at_the_quarter_end(footnote):
    half = ask(footnote, "NVIDIA first-half fiscal 2024 revenue")
    assert _values(half) == {20699 * M}, half.text
    assets = ask(footnote, "NVIDIA total assets as of July 30, 2023")
    assert _values(assets) == {49555 * M}, assets.text


def test_the_second_half_is_the_year_minus_the_first_half_and_says_so(footnote):
    """Never a quarter nor the year to date: 60,922 - 20,699 for fiscal 2024, both inputs cited."""
    for text in ("NVIDIA second-half fiscal 2024 revenue", "NVIDIA revenue for the last six months of fiscal 2024"):
        answer = ask(footnote, text)
        assert answer.kind == "answer", answer.text
        assert answer.calculation and answer.calculation[0].result == "$40.22 billion", answer.text
        assert "second half of FY2024" in answer.text and "year to date" not in answer.text


def test_a_months_figure_is_refused_naming_the_month_never_the_year(footnote):
    answer = ask(footnote, "What was NVIDIA's revenue in December 2023?")
    assert (answer.kind, answer.refusal_reason) == ("refusal", "out_of_scope"), answer.text
    assert "december 2023" in answer.text and not answer.numbers


def test_a_date_that_closes_the_fiscal_year_asks_for_the_year(footnote):
    answer = ask(footnote, "NVIDIA revenue for the year ended January 28, 2024")
    assert _values(answer) == {60922 * M}, answer.text


def test_a_table_by_quarter_and_last_quarter_says_which(footnote):
    table = ask(footnote, "NVIDIA quarterly revenue for fiscal 2024")
    assert table.kind == "answer", table.text
    assert [r[0] for r in table.tables[0].rows] == ["Q1 FY2024", "Q2 FY2024", "Q3 FY2024", "Q4 FY2024"]
    latest = ask(footnote, "what did nvidia report for revenue last quarter?")
    assert latest.kind == "answer", latest.text
    assert "Q1 FY2025 (three months ended April 28, 2024)" in latest.text
    assert "most recent period held" in latest.text
    # "latest" alone: the most recent period held is that quarter, after the fiscal year's end
    assert _values(ask(footnote, "nvidia's latest revenue")) == {26044 * M}
    assert _values(ask(footnote, "nvidia revenue, latest fiscal year")) == {60922 * M}


def test_a_quarter_not_held_is_refused_naming_it_never_answered_with_a_year(footnote):
    answer = ask(footnote, "NVIDIA revenue in Q1 fiscal 2023")
    assert answer.kind == "refusal" and answer.refusal_reason == "year_not_available", answer.text
    assert "first quarter of fiscal 2023" in answer.text
    assert not answer.numbers



def test_a_margin_for_a_quarter_uses_the_quarters_own_figures(footnote):
    answer = ask(footnote, "NVIDIA gross margin in Q2 FY2024")
    assert answer.kind == "answer", answer.text
    assert answer.calculation[0].result == "70.1%"  # 9,462 / 13,507: the quarter over the quarter
    segment = ask(footnote, "NVIDIA data center revenue in Q2 FY2024")
    assert segment.kind == "refusal" and not segment.numbers, segment.text  # no member tagged: never the total


DATA_CENTER = {"srt:ProductOrServiceAxis": "nvda:DataCenterMember"}


def test_a_members_quarter_is_its_own_three_months_never_the_total_nor_the_year(nvidia, embedder):
    from bot.settings import Settings
    from bot.wiring import build_footnote

    with nvidia.connection() as conn:
        fact(conn, NVDA, K24, "Revenues", str(47525 * M), date(2024, 1, 28), date(2023, 1, 30), fiscal_year=2024,
             fy=2024, filed=date(2024, 2, 21), dims=DATA_CENTER)
        fact(conn, NVDA, Q2, "Revenues", str(10323 * M), date(2023, 7, 30), date(2023, 5, 1), fiscal_year=2024,
             fy=2024, form="10-Q", fp="Q2", filed=date(2023, 8, 25), dims=DATA_CENTER)
        fact(conn, NVDA, Q2, "Revenues", str(14606 * M), date(2023, 7, 30), date(2023, 1, 30), fiscal_year=2024,
             fy=2024, form="10-Q", fp="Q2", filed=date(2023, 8, 25), dims=DATA_CENTER)
    footnote = build_footnote(nvidia, embedder, Settings(llm="off"), use_cache=False)
    for said in ("NVIDIA data center revenue in Q2 FY2024", "Nvidia's data center revenue in the second quarter of fiscal 2024"):
        answer = ask(footnote, said)
        assert _values(answer) == {10323 * M}, answer.text
        assert "Data Center" in answer.text and "three months ended July 30, 2023" in answer.text
    unheld = ask(footnote, "NVIDIA data center revenue in Q3 FY2024")  # no member fact for it: refused by name
    assert unheld.kind == "refusal" and not unheld.numbers, unheld.text


def test_a_follow_up_keeps_the_threads_quarter_and_a_new_year_moves_it(footnote):
    thread = f"test:{uuid.uuid4().hex}"
    first = footnote.answer(Turn(thread_key=thread, user="u", text="NVIDIA revenue in Q2 FY2024"))
    assert _values(first) == {13507 * M}, first.text
    again = footnote.answer(Turn(thread_key=thread, user="u", text="and net income?"))
    assert again.plan["period"]["quarter"] == 2 and again.kind == "refusal", again.text  # no quarterly net income held
    moved = footnote.answer(Turn(thread_key=thread, user="u", text="what about revenue in fiscal 2023?"))
    assert moved.plan["period"] == {**first.plan["period"], "fiscal_year": 2023}
    assert _values(moved) == {6704 * M}, moved.text
    other = f"test:{uuid.uuid4().hex}"
    footnote.answer(Turn(thread_key=other, user="u", text="NVIDIA revenue in Q2 FY2024"))
    fourth = footnote.answer(Turn(thread_key=other, user="u", text="and Q4?"))
    assert fourth.calculation and fourth.calculation[0].result == "$22.10 billion", fourth.text  # the thread's FY2024


def test_a_company_with_only_a_first_quarter_is_placed_by_the_quarter_ingest_gave_it():
    # Medtronic's Q1 FY2024 10-Q alone: three months ended July 28, 2023, and the year before's
    q1 = [PeriodFact(id=i, concept="us-gaap:Revenues", unit="USD", value=Decimal(v * M), start=s, end=e, fiscal_year=fy,
                     accession="a", filed=None, form="10-Q", filing_fiscal_year=2024, filing_period="Q1", url="u",
                     own_period=True, fiscal_quarter=1)
          for i, (s, e, v, fy) in enumerate([(date(2023, 4, 29), date(2023, 7, 28), 7702, 2024),
                                             (date(2022, 4, 30), date(2022, 7, 29), 7371, 2023)])]
    periods = Periods(q1, Calendar.of(q1), ["us-gaap:Revenues"])
    assert periods.quarter(2024, 1).value == 7702 * M
    assert periods.quarter(2023, 1).value == 7371 * M and periods.quarter(2024, 2) is None


def test_a_quarter_of_a_metric_printed_on_two_rows_is_the_row_named_by_the_users_words(footnote, nvidia):
    from types import SimpleNamespace

    from store.labels import replace_labels

    def row(concept, label, n):
        return SimpleNamespace(taxonomy="us-gaap", concept=concept, label=label, statement="income", table_no=1,
                               row_no=n, negated=False, dims={})

    with nvidia.connection() as conn:
        fact(conn, NVDA, Q2, "RevenueFromContractWithCustomerExcludingAssessedTax", str(13400 * M), date(2023, 7, 30),
             date(2023, 5, 1), fiscal_year=2024, fy=2024, form="10-Q", fp="Q2", filed=date(2023, 8, 25))
        replace_labels(conn, K24, NVDA, [row("RevenueFromContractWithCustomerExcludingAssessedTax", "Net sales", 1),
                                         row("Revenues", "Total revenues", 2)])
    assert _values(ask(footnote, "What were NVIDIA's net sales in Q2 FY2024?")) == {13400 * M}
    assert _values(ask(footnote, "What was NVIDIA's total revenues in Q2 FY2024?")) == {13507 * M}


def test_a_quarter_reads_the_row_printed_under_the_users_words_when_the_metrics_concepts_hold_none(footnote, nvidia):
    from types import SimpleNamespace

    from store.labels import replace_labels

    def row(concept, label, statement, n):
        return SimpleNamespace(taxonomy="us-gaap", concept=concept, label=label, statement=statement, table_no=1,
                               row_no=n, negated=False, dims={})

    with nvidia.connection() as conn:
        # "Operating costs" printed for SellingGeneralAndAdministrativeExpense: the table metric "operating costs"
        # (OperatingExpenses) holds no fact for the quarter
        fact(conn, NVDA, Q2, "SellingGeneralAndAdministrativeExpense", str(2662 * M), date(2023, 7, 30),
             date(2023, 5, 1), fiscal_year=2024, fy=2024, form="10-Q", fp="Q2", filed=date(2023, 8, 25))
        # a flow printed in a table that also holds total assets (read as a balance sheet): still a flow
        fact(conn, NVDA, Q2, "BusinessCombinationAcquisitionRelatedCosts", str(1353 * M), date(2023, 7, 30),
             date(2023, 5, 1), fiscal_year=2024, fy=2024, form="10-Q", fp="Q2", filed=date(2023, 8, 25))
        replace_labels(conn, K24, NVDA, [row("SellingGeneralAndAdministrativeExpense", "Operating costs", "income", 1),
                                         row("BusinessCombinationAcquisitionRelatedCosts", "Acquisition termination cost",
                                             "balance", 2),
                                         row("Assets", "Total assets", "balance", 3)])
    assert _values(ask(footnote, "What were NVIDIA's operating costs in Q2 FY2024?")) == {2662 * M}
    assert _values(ask(footnote, "NVIDIA acquisition termination cost in Q2 FY2024")) == {1353 * M}
    refused = ask(footnote, "What were NVIDIA's operating costs in Q3 FY2024?")  # no row's fact for that quarter
    assert refused.refusal_reason and not refused.numbers


def test_how_much_spent_on_a_row_in_a_quarter_is_that_rows_quarter_never_refused_for_naming_no_figure(footnote, nvidia):
    from types import SimpleNamespace

    from store.labels import replace_labels

    with nvidia.connection() as conn:
        fact(conn, NVDA, Q2, "LaborAndRelatedExpense", str(1480 * M), date(2023, 7, 30), date(2023, 5, 1),
             fiscal_year=2024, fy=2024, form="10-Q", fp="Q2", filed=date(2023, 8, 25))
        replace_labels(conn, K24, NVDA, [SimpleNamespace(taxonomy="us-gaap", concept="LaborAndRelatedExpense",
                                                         label="Personnel", statement="income", table_no=1, row_no=1,
                                                         negated=False, dims={})])
    assert _values(ask(footnote, "How much did NVIDIA spend on personnel in the quarter ended July 30, 2023?")) == {1480 * M}
    unnamed = ask(footnote, "How much did NVIDIA spend on dragons in the quarter ended July 30, 2023?")
    assert unnamed.refusal_reason == "unknown_metric" and not unnamed.numbers
