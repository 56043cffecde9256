"""A sentence's amounts are "an earlier year's" by the company's fiscal year, not the calendar's: a fee paid
weeks into a fiscal year that began in December is that year's, and its sentence is quoted whole."""

from __future__ import annotations

from decimal import Decimal

from agent.composing.compose import _candidates, _reports_earlier_year
from agent.composing.draft import Evidence

ACC = "0000000001-24-000009"


def _facts(own: str, prior: str) -> list[tuple]:
    # a filing tags most facts at its own year end, fewer at the prior year's, and one or two at other dates
    rows = [(f"f:own{i}", Decimal(100 + i), "USD", "Revenue", own) for i in range(8)]
    rows += [(f"f:prior{i}", Decimal(200 + i), "USD", "Revenue", prior) for i in range(5)]
    return rows


def test_a_fact_dated_in_the_fiscal_years_first_weeks_is_that_years_not_the_calendar_years_before():
    facts = _facts("2024-11-29", "2023-12-01") + [("f:fee", Decimal("1000000000"), "USD", "Termination fee",
                                                   "2023-12-17")]
    assert not _reports_earlier_year(["f:fee"], facts, 2024, 2024)
    assert _reports_earlier_year(["f:prior0"], facts, 2024, 2024)
    assert not _reports_earlier_year(["f:own0"], facts, 2024, 2024)
    # asked about the year before, in the later filing: the prior year's facts are that year's own
    assert not _reports_earlier_year(["f:prior0"], facts, 2023, 2024)


def test_a_calendar_year_company_reads_as_before():
    facts = _facts("2024-12-31", "2023-12-31") + [("f:jan", Decimal(7), "USD", "Dividends", "2024-01-05")]
    assert _reports_earlier_year(["f:prior1"], facts, 2024, 2024)
    assert not _reports_earlier_year(["f:jan"], facts, 2024, 2024)


def test_the_fee_sentence_is_quoted_whole_with_its_fact():
    text = ("During fiscal 2024 we paid a $1 billion termination fee after the merger agreement ended. "
            "Revenue grew on subscription demand across every region we serve.")
    chunk = Evidence(id="c:1", kind="chunk", text=text, ticker="XMPL", cik=1, fiscal_year=2024, accession=ACC,
                     url="https://www.sec.gov/", item="7")
    facts = _facts("2024-11-29", "2023-12-01") + [("f:fee", Decimal("1000000000"), "USD",
                                                   "xmpl:MergerTerminationFee (Termination fee)", "2023-12-17")]
    quoted = {whole for _, _, sentence, whole in _candidates([chunk], {ACC: facts}, 2024) if sentence == whole}
    assert any("$1 billion termination fee" in s for s in quoted)
