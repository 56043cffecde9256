"""A formula written after a measure's name is read as the user wrote it, and never loses or changes a figure the
measure's own name answered: a lowercase ticker still names its company once the formula is cut out; an aside of
another unit on an operand is a note on the whole formula, never the operand's definition; a measure set off by a
comma is defined by a formula of its own inputs; a registry measure's name before a comma is never the start of a
row name; a number taken from the end of a quotient is taken from the quotient."""

from __future__ import annotations

from decimal import Decimal

import pytest

from agent.planning.companies import CompanyDirectory, line_names
from agent.planning.formula_parse import parse_expression
from agent.planning.formula_syntax import DefinitionError
from agent.planning.formula_trees import evaluate, restate, unit_of
from agent.planning.inline_definitions import joined_rows
from agent.planning.rules import tickers_as_written
from tests.test_figures import directory, plan  # noqa: F401  (the module's directory fixture)


@pytest.fixture(scope="module")
def word_tickers() -> CompanyDirectory:
    # PG and GM: tickers that, typed in lowercase, are also words chat uses ("gm everyone")
    return CompanyDirectory.from_rows([(80424, "Procter & Gamble Co", ["PG"]), (1467858, "General Motors Co", ["GM"])],
                                      [], {80424: [2024, 2025], 1467858: [2023]})


@pytest.mark.parametrize("question, ticker", [
    ("what's pg's debt to equity, (long-term debt + current debt) over stockholders' equity", "PG"),
    ("what's pg's widget ratio, long-term debt over stockholders' equity", "PG"),
    ("what's gm's operating ratio, (revenue - operating income) over revenue", "GM"),
])
def test_a_lowercase_ticker_beside_a_formula_still_names_its_company(word_tickers, question, ticker):
    p = plan(word_tickers, question)
    assert p.route == "domain" and p.tickers == [ticker], p  # never a greeting: the formula was the subject
    assert p.metrics and (p.metrics[0].startswith("udf:") or p.metrics[0] == "operating_ratio")


def test_the_text_left_once_a_formula_is_cut_out_writes_the_lowercase_ticker_as_a_name():
    # (the full directory reads "what's pg's ," as small talk; the cut text is read again so written)
    assert tickers_as_written("what's pg's  ,", ["PG"]) == "what's PG's  ,"
    assert tickers_as_written("pgx and $pg", ["PG"]) == "pgx and $pg"


def test_an_aside_that_is_a_ratio_does_not_define_an_amount_operand():
    tree = parse_expression("((long-term debt + current debt) - cash and cash equivalents) / stockholders' equity "
                            "(net debt over year-end equity)")
    assert tree["args"][1] == {"metric": "equity"}, restate(tree, top=True)
    values = {"long_term_debt": Decimal(80), "current_debt": Decimal(10), "cash": Decimal(30), "equity": Decimal(60)}
    assert evaluate(tree, values, "ratio") == Decimal(1)


def test_an_aside_of_the_operands_unit_is_still_its_definition():
    tree = parse_expression("free cash flow (operating cash flow minus capex) / revenue")
    assert restate(tree, top=True) == "(Operating cash flow − Capital expenditures) ÷ Revenue"


@pytest.mark.parametrize("question, name, formula", [
    ("what's aapl's nopat, operating income × (1 − income tax expense over income before income taxes)", "nopat",
     "Operating income × (1 − (Income tax expense ÷ Income before income taxes))"),
    ("Apple working capital, current assets − current liabilities", "working capital",
     "Total current assets − Total current liabilities"),
    ("Apple cash flow to debt, operating cash flow over (long-term debt + current debt)", "cash flow to debt",
     "Operating cash flow ÷ (Long-term debt + Current portion of long-term debt)"),
])
def test_a_measure_set_off_by_a_comma_is_defined_by_a_formula_of_its_own_inputs(directory, question, name,  # noqa: F811
                                                                                 formula):
    p = plan(directory, question)
    assert p.metrics == [f"udf:{name}"], p  # once, under its name: never the formula's words beside the registry's
    assert p.definitions[-1]["formula"] == formula


def test_an_amount_scaled_by_a_fraction_is_an_amount():
    tree = parse_expression("operating income × (1 − income tax expense over income before income taxes)")
    assert unit_of(tree, "nopat") == "USD"


def test_a_comma_set_off_formula_of_other_inputs_still_asks_two_things(directory):  # noqa: F811
    p = plan(directory, "Apple revenue growth, net income over revenue")
    assert "udf:revenue growth" not in p.metrics


def test_a_registry_measures_name_before_a_comma_never_starts_a_row():
    lines = line_names([("Total liabilities and equity", "us-gaap:LiabilitiesAndStockholdersEquity"),
                        ("Accounts receivable, net", "us-gaap:AccountsReceivableNetCurrent")])
    text = "what's GM's liabilities to equity, Total liabilities over Stockholders' equity"
    assert joined_rows(text, lines) == text
    assert joined_rows("Apple accounts receivable, net over revenue", lines) == "Apple accounts receivable net over revenue"


@pytest.mark.parametrize("text", ["revenue divided by prior year revenue minus 1", "revenue / prior year revenue - 1",
                                  "revenue over prior year revenue, minus 1"])
def test_a_number_taken_from_the_end_of_a_quotient_is_taken_from_the_quotient(text):
    tree = parse_expression(text)
    assert restate(tree, top=True) == "(Revenue ÷ Revenue (prior year)) − 1"
    value = evaluate(tree, {"revenue": Decimal(391), "revenue~-1": Decimal(383)}, "ratio")
    assert abs(value - (Decimal(391) / Decimal(383) - 1)) < Decimal("1e-9")


def test_a_row_named_beside_its_parts_is_never_taken_for_their_whole():
    # the company prints "Accrued liabilities" among its current liabilities and no non-current row: that row is one
    # part of the whole asked, so no figure answers (never the current row as the total)
    lines = line_names([("Accrued liabilities", "us-gaap:AccruedLiabilitiesCurrent")])
    with pytest.raises(DefinitionError):
        parse_expression("accrued liabilities (current + non-current)", lines=lines)


def test_a_balance_with_both_parts_printed_is_their_sum():
    lines = line_names([("Operating lease liabilities", "us-gaap:OperatingLeaseLiability"),
                        ("Current operating lease liabilities", "us-gaap:OperatingLeaseLiabilityCurrent"),
                        ("Noncurrent operating lease liabilities", "us-gaap:OperatingLeaseLiabilityNoncurrent")])
    tree = parse_expression("operating lease liabilities (current + non-current)", lines=lines)
    assert tree["op"] == "+" and all("line" in a for a in tree["args"]), tree


@pytest.mark.parametrize("turns", [
    ["Apple net income 2024", "and revenue", "cool, so net income / revenue, call it net margin"],
    ["Apple revenue 2024", "operating income?", "ok. operating income over revenue"],
])
def test_a_reply_that_is_small_talk_once_its_formula_is_cut_out_is_read_whole(directory, turns):  # noqa: F811
    # cut the formula (and its name) out and "cool, so" or "ok." is left, an acknowledgement; the message asks a
    # figure of the thread's company, so it is never answered as small talk
    p = None
    for turn in turns:
        p = plan(directory, turn, previous=p)
    assert p.route == "domain" and p.tickers == ["AAPL"], p


def test_a_comma_set_off_definition_that_cannot_be_computed_is_the_measure_as_standardly_computed(db):
    from agent.planning.formula_parse import parse_expression
    from agent.retrieval.retrieve import _collect
    from tests.test_named_conventions import _filer

    # "net margin fy24, operating income over revenue": operating income is not reported, net income is
    tree = parse_expression("operating income over revenue")
    asked = {"name": "net margin", "tree": tree, "unit": "percent", "formula": "Operating income ÷ Revenue"}
    with db.connection() as conn:
        filer = _filer(conn, 999131, "CMA", [("Revenues", 1000), ("NetIncomeLoss", 80)])
        _, calculations, cells = _collect(conn, [filer], ["udf:net margin"], definitions=[{**asked, "otherwise": "net_margin"}])
        _, refused_calcs, refused = _collect(conn, [filer], ["udf:net margin"], definitions=[asked])
    (cell,) = cells
    assert cell["display"] == "8.0%" and [c["key"] for c in calculations] == ["net_margin"], cell
    assert "standardly computed" in cell["label"] and "Operating income" in cell["label"], cell
    # set off by a bracket or a colon, the user's definition is theirs alone: refused by what it lacks
    (no,) = refused
    assert no["evidence_id"] is None and no["missing_inputs"] and not refused_calcs, no
