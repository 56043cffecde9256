"""companyfacts JSON: exact values, SEC's fy/fp/form/frame kept, and fiscal-year anchors."""

from datetime import date
from decimal import Decimal

import pytest

from ingest.companyfacts import companyfacts_anchors, parse_companyfacts
from store.fiscal import fiscal_year_for

# Real published Apple figures, typed in (R&D, USD): the FY2024 10-K reports three years with fy=2024.
APPLE = {
    "cik": 320193,
    "entityName": "Apple Inc.",
    "facts": {
        "dei": {
            "EntityCommonStockSharesOutstanding": {
                "label": "Entity Common Stock, Shares Outstanding",
                "units": {"shares": [
                    {"end": "2024-10-18", "val": 15115823000, "accn": "0000320193-24-000123", "fy": 2024,
                     "fp": "FY", "form": "10-K", "filed": "2024-11-01", "frame": "CY2024Q3I"},
                ]},
            }
        },
        "us-gaap": {
            "ResearchAndDevelopmentExpense": {
                "label": "Research and Development Expense",
                "units": {"USD": [
                    {"start": "2021-09-26", "end": "2022-09-24", "val": 26251000000, "accn": "0000320193-24-000123",
                     "fy": 2024, "fp": "FY", "form": "10-K", "filed": "2024-11-01", "frame": "CY2022"},
                    {"start": "2022-09-25", "end": "2023-09-30", "val": 29915000000, "accn": "0000320193-24-000123",
                     "fy": 2024, "fp": "FY", "form": "10-K", "filed": "2024-11-01", "frame": "CY2023"},
                    {"start": "2023-10-01", "end": "2024-09-28", "val": 31370000000, "accn": "0000320193-24-000123",
                     "fy": 2024, "fp": "FY", "form": "10-K", "filed": "2024-11-01", "frame": "CY2024"},
                    {"start": "2022-09-25", "end": "2023-09-30", "val": 29915000000, "accn": "0000320193-23-000106",
                     "fy": 2023, "fp": "FY", "form": "10-K", "filed": "2023-11-03"},
                    {"start": "2023-12-31", "end": "2024-03-30", "val": 7903000000, "accn": "0000320193-24-000069",
                     "fy": 2024, "fp": "Q2", "form": "10-Q", "filed": "2024-05-03", "frame": "CY2024Q1"},
                ]},
            },
            "EarningsPerShareDiluted": {
                "label": "EPS diluted",
                "units": {"USD/shares": [
                    {"start": "2023-10-01", "end": "2024-09-28", "val": 6.08, "accn": "0000320193-24-000123",
                     "fy": 2024, "fp": "FY", "form": "10-K", "filed": "2024-11-01"},
                ]},
            },
            "BrokenRow": {"units": {"USD": [{"end": "2024-09-28", "accn": "x"}]}},
        },
    },
}


@pytest.fixture(scope="module")
def parsed():
    return parse_companyfacts(APPLE)


def test_identity_and_counts(parsed):
    cik, name, facts = parsed
    assert (cik, name) == (320193, "Apple Inc.")
    assert len(facts) == 7  # the row without a value is dropped
    assert all(f.source == "companyfacts" and not f.dimensional for f in facts)


def test_values_are_exact_and_fields_kept_as_given(parsed):
    _, _, facts = parsed
    rd = [f for f in facts if f.concept == "ResearchAndDevelopmentExpense" and f.accession == "0000320193-24-000123"]
    assert [(f.period_end, f.value, f.fy, f.frame) for f in rd] == [
        (date(2022, 9, 24), Decimal("26251000000"), 2024, "CY2022"),
        (date(2023, 9, 30), Decimal("29915000000"), 2024, "CY2023"),
        (date(2024, 9, 28), Decimal("31370000000"), 2024, "CY2024"),
    ]
    assert rd[0].period_start == date(2021, 9, 26)
    assert (rd[0].taxonomy, rd[0].unit, rd[0].form, rd[0].fp, rd[0].filed) == (
        "us-gaap", "USD", "10-K", "FY", date(2024, 11, 1))
    eps = next(f for f in facts if f.concept == "EarningsPerShareDiluted")
    assert eps.value == Decimal("6.08") and eps.unit == "USD/shares"  # not 6.0800000000000000710...
    shares = next(f for f in facts if f.taxonomy == "dei")
    assert shares.period_start is None and shares.frame == "CY2024Q3I"


def test_anchors_map_each_period_to_its_own_fiscal_year(parsed):
    _, _, facts = parsed
    anchors = companyfacts_anchors(facts)
    # One anchor per 10-K: the dei cover date (2024-10-18) and 10-Qs are not fiscal year ends.
    assert anchors == [(date(2023, 9, 30), 2023), (date(2024, 9, 28), 2024)]
    rd = [f for f in facts if f.concept == "ResearchAndDevelopmentExpense" and f.accession == "0000320193-24-000123"]
    assert [fiscal_year_for(f.period_end, anchors) for f in rd] == [2022, 2023, 2024]
    q2 = next(f for f in facts if f.fp == "Q2")
    assert fiscal_year_for(q2.period_end, anchors) == 2024


def test_not_companyfacts_is_an_error():
    with pytest.raises(ValueError, match="not a companyfacts document"):
        parse_companyfacts({"cik": 1})
    with pytest.raises(ValueError):
        parse_companyfacts([])


def test_real_companyfacts_anchors_for_non_calendar_years():
    import gzip
    import json

    from tests.conftest import SHARED_SEC

    path = SHARED_SEC / "companyfacts" / "CIK0001045810.json.gz"
    if not path.exists():
        pytest.skip("shared SEC corpus not present")
    cik, name, facts = parse_companyfacts(json.load(gzip.open(path)))
    anchors = companyfacts_anchors(facts)
    assert (cik, name) == (1045810, "NVIDIA CORP")
    assert (date(2024, 1, 28), 2024) in anchors and (date(2025, 1, 26), 2025) in anchors
    revenue = [f for f in facts if f.concept == "Revenues" and f.form == "10-K" and f.fy == 2025
               and f.period_start and (f.period_end - f.period_start).days > 360]
    assert {fiscal_year_for(f.period_end, anchors) for f in revenue} == {2023, 2024, 2025}
