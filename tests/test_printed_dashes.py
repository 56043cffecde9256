"""A spaced hyphen inside a row name some filing prints is the name's, never a minus; elsewhere it still
subtracts."""

from __future__ import annotations

from dataclasses import replace

from agent.planning.printed_dashes import dashed_index, dashes_kept
from tests.test_figures import directory, plan  # noqa: F401  (the module's directory fixture)

# row names written for the test in the shape filings print them
PRINTED = ["Total revenues - outside customers (1)", "Accounts receivable - net", "Years 2030 - 2034"]


def test_a_printed_names_hyphen_becomes_a_dash_only_inside_that_name():
    index = dashed_index(PRINTED)
    assert "total revenues - outside customers" in index and "years 2030 - 2034" not in index
    assert dashes_kept("walmart total revenues - outside customers 2024", index) == \
        "walmart total revenues \u2013 outside customers 2024"
    assert dashes_kept("walmart revenue - cost of sales 2024", index) == "walmart revenue - cost of sales 2024"


def test_a_question_naming_a_dashed_row_asks_the_row_not_a_difference(directory):  # noqa: F811
    text = "Walmart Total revenues - outside customers revenue fiscal 2024"
    as_formula = plan(directory, text)
    assert any(m.startswith("udf:") for m in as_formula.metrics), as_formula  # what a plain hyphen reads
    kept = plan(replace(directory, dashed=dashed_index(PRINTED)), text)
    assert not any(m.startswith("udf:") for m in kept.metrics) and not kept.definitions, kept
    assert kept.tickers == ["WMT"] and kept.fiscal_years == [2024], kept
