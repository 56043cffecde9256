"""A formula the user writes, read in the grammars people use ("what multiple of B is A", "take A,
subtract B", "…, call it 'cash cover'"), in the unit the user's own words say, and refused naming what
it lacks rather than answered with a shorter formula or another figure."""

from __future__ import annotations

from decimal import Decimal

import pytest

from agent.retrieval.finance import display_value
from tests.test_figures import directory, plan  # noqa: F401  (the module's directory fixture)
from tests.test_formula_conventions import _with_lines


@pytest.mark.parametrize(
    "question, formula, unit",
    [
        ("what multiple of net income is operating cash flow for Apple in fiscal 2024?",
         "Operating cash flow ÷ Net income", "ratio"),
        ("how many times research and development was operating income at Apple in 2024?",
         "Operating income ÷ Research and development expense", "ratio"),
        ("take operating income, subtract SG&A — Apple fiscal 2024",
         "Operating income − Selling, general and administrative expense", "USD"),
        ("sum of cash and cash equivalents and R&D as a percent of revenue for Apple, 2024",
         "(Cash and cash equivalents + Research and development expense) ÷ Revenue", "percent"),
        ("For Apple fiscal 2024, subtract capex from operating cash flow",
         "Operating cash flow − Capital expenditures", "USD"),
        ("Apple 2024: R&D over net income, expressed as a percentage",
         "Research and development expense ÷ Net income", "percent"),
    ],
)
def test_operators_said_in_words_are_the_formula_they_say(directory, question, formula, unit):  # noqa: F811
    p = plan(directory, question)
    assert p.refusal_reason is None and len(p.metrics) == 1 and p.metrics[0].startswith("udf:"), p
    assert (p.definitions[-1]["formula"], p.definitions[-1]["unit"]) == (formula, unit)
    assert (p.tickers, p.fiscal_years) == (["AAPL"], [2024])


@pytest.mark.parametrize(
    "question, unit",
    [
        ("compute total assets over revenue for Apple, FY2024", "ratio"),  # "over" a total: still a ratio
        ("Apple 2024: operating income divided by revenue", "ratio"),
        ("Apple 2024: (operating income - SG&A) / revenue, as a %", "percent"),  # the unit said after it
        ("what was SG&A as a percentage of operating income at Apple in fiscal 2024?", "percent"),
        ("share repurchases as a fraction of total assets, Apple FY2024", "ratio"),  # no operand's word decides
        ("share repurchases over total assets, Apple FY2024", "ratio"),
    ],
)
def test_a_quotients_unit_is_what_the_users_words_say(directory, question, unit):  # noqa: F811
    p = plan(directory, question)
    assert p.metrics and p.metrics[0].startswith("udf:"), p
    assert p.definitions[-1]["unit"] == unit, p.definitions[-1]


@pytest.mark.parametrize("name, unit", [("cash cover", "ratio"), ("cash margin", "percent"),
                                        ("payback multiple", "ratio")])
def test_a_name_given_after_the_formula_names_it_and_its_words_set_the_unit(directory, name, unit):  # noqa: F811
    p = plan(directory, f"Apple fy2024: operating cash flow over capex, call it '{name}'")
    assert p.metrics == [f"udf:{name}"], p
    assert p.definitions[-1]["formula"] == "Operating cash flow ÷ Capital expenditures"
    assert p.definitions[-1]["unit"] == unit
    later = plan(directory, f"and {name} for Nvidia in fiscal 2025?", previous=p)  # the thread keeps it
    assert later.metrics == [f"udf:{name}"] and later.tickers == ["NVDA"], later


def test_a_definitions_divisor_that_is_no_operand_is_refused_never_dropped(directory):  # noqa: F811
    p = plan(directory, "define core margin as cash and cash equivalents minus cost of revenue, divided by widget "
                        "rebates. what was it for Apple in fiscal 2024?")
    assert p.refusal_reason == "unknown_metric" and "widget rebates" in p.refusal_detail, p


def test_a_numerator_that_is_no_operand_is_refused_never_another_figure(directory):  # noqa: F811
    p = plan(directory, "widget royalties divided by the sum of dividends paid and revenue, Apple 2024")
    assert p.refusal_reason == "unknown_metric" and "widget royalties" in p.refusal_detail, p
    fine = plan(directory, "capex divided by the sum of dividends paid and revenue, Apple 2024")
    assert fine.definitions[-1]["formula"] == "Capital expenditures ÷ (Dividends paid + Revenue)", fine


def test_an_operands_first_words_are_never_left_out_of_a_formula(directory):  # noqa: F811
    printed = _with_lines(directory, [("Operating lease right-of-use assets", "us-gaap:OperatingLeaseRightOfUseAsset"),
                                      ("Proceeds from issuance of long-term debt",
                                       "us-gaap:ProceedsFromIssuanceOfLongTermDebt")])
    assets = {"line": "operating lease right of use assets"}
    whole = plan(printed, "Apple 2024: operating lease right-of-use assets over revenue")
    assert whole.definitions[-1]["tree"]["args"][0] == assets, whole
    part = plan(printed, "Apple 2024: reduction of operating lease right-of-use assets over revenue")
    assert not any(d["tree"].get("args", [{}])[0] == assets for d in part.definitions), part  # never the assets
    long = plan(printed, "apple 2024: proceeds from issuance of long-term debt over revenue")  # seven words
    assert long.definitions[-1]["tree"]["args"][0] == {"line": "proceeds from issuance of long term debt"}, long


def test_a_small_ratio_keeps_two_significant_digits():
    assert [display_value(Decimal(v), "ratio") for v in ("1.8712", "0.0779", "0.003581", "0")] == \
        ["1.87", "0.078", "0.0036", "0.00"]


def test_a_definition_after_the_ask_may_say_is_instead_of_equals(directory):  # noqa: F811
    p = plan(directory, "what was Apple's adjusted margin in fiscal 2024, where adjusted margin is operating income "
                        "plus stock-based compensation over revenue")
    assert p.metrics == ["udf:adjusted margin"] and p.definitions[-1]["unit"] == "percent", p
    assert p.definitions[-1]["formula"] == "(Operating income + Share-based compensation expense) ÷ Revenue"
    p = plan(directory, "Apple's cash cover in fiscal 2024, with cash cover defined as operating cash flow divided by "
                        "current liabilities")
    assert p.metrics == ["udf:cash cover"] and p.definitions[-1]["unit"] == "ratio", p


@pytest.mark.parametrize(
    "question, formula, unit",
    [
        ("define margin gap as gross margin minus operating margin; Apple fiscal 2024",
         "(Gross profit ÷ Revenue) − (Operating income ÷ Revenue)", "points"),
        ("define capex cover as capex over prior year revenue. Apple fiscal 2024",
         "Capital expenditures ÷ Revenue (prior year)", "ratio"),
        ("compute Apple's 2024 operating income plus R&D, divided by revenue",
         "(Operating income + Research and development expense) ÷ Revenue", "ratio"),
    ],
)
def test_an_operand_may_be_a_registry_quotient_or_a_year_earlier_and_a_comma_may_set_off_a_step(
        directory, question, formula, unit):  # noqa: F811
    p = plan(directory, question)
    assert p.refusal_reason is None and p.metrics and p.metrics[0].startswith("udf:"), p
    assert (p.definitions[-1]["formula"], p.definitions[-1]["unit"]) == (formula, unit)


def test_a_sentence_naming_a_figure_then_its_definition_defines_it(directory):  # noqa: F811
    p = plan(directory, "Adjusted margin is defined as operating income plus stock-based compensation over revenue. "
                        "What was it for Apple in fiscal 2024?")
    assert p.metrics == ["udf:adjusted margin"] and p.definitions[-1]["unit"] == "percent", p
    assert (p.tickers, p.fiscal_years) == (["AAPL"], [2024])
