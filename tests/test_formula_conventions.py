"""Formulas analysts ask for: one total-debt convention everywhere, the ratios of daily use, and
the user's own arithmetic read the way people write it ("A over B times 365")."""

from __future__ import annotations

import uuid
from decimal import Decimal

import pytest

from agent.answer import Turn
from agent.planning.formula_parse import parse_expression
from agent.planning.formula_trees import choose, evaluate, metrics_of, restate, unit_of
from agent.retrieval.finance import BORROWING_FORMS, DEBT_STEPS, FORMULAS, Operand, calculate, formula_inputs, match_formulas
from tests.test_figures import directory, plan  # noqa: F401  (the module's directory fixture)


def _ops(*values):
    return [Operand(Decimal(v), "USD", 2024, i + 1) for i, v in enumerate(values)]


def _chain(key):
    out = []
    while key:
        out.append(key)
        key = FORMULAS[key].fallback
    return out


@pytest.mark.parametrize("key", ["total_debt", "net_debt", "debt_to_assets"])
def test_every_debt_formula_counts_debt_as_debt_to_equity_does(key):
    """Total debt, net debt and debt to assets step down through the same parts as debt to equity,
    and each step's expression says what "debt" counted."""
    chain = _chain(key)
    assert len(chain) == len(DEBT_STEPS) == len(_chain("debt_to_equity"))
    for step, (_, parts, note), de in zip(chain, DEBT_STEPS, _chain("debt_to_equity")):
        assert [i.metric for i in FORMULAS[step].inputs][: len(parts)] == list(parts)
        assert [i.metric for i in FORMULAS[de].inputs][: len(parts)] == list(parts)
        assert note in FORMULAS[step].expression
    # debt is long-term debt, current and noncurrent: never commercial paper unless asked, and said
    assert [i.metric for i in FORMULAS[key].inputs][:2] == ["long_term_debt", "ltd_maturities_current"]
    assert "current and noncurrent" in FORMULAS[key].expression
    wide = BORROWING_FORMS[key]
    assert "short_term_borrowings" in formula_inputs(wide) and "short-term borrowings" in FORMULAS[wide].expression


def test_net_debt_counts_short_term_borrowings_only_when_asked():
    # Apple FY2024 in $M: term debt 85,750 + 10,912, commercial paper 9,967, cash 29,943
    assert calculate("net_debt", _ops("85750", "10912", "29943")).display == "$66,719"
    assert calculate("net_debt_all_borrowings", _ops("85750", "10912", "9967", "29943")).display == "$76,686"
    assert calculate("debt_to_assets", _ops("800", "200", "4000")).display == "0.25"


def test_debt_in_a_users_formula_is_total_debt_and_the_answer_restates_the_parts_used():
    tree = parse_expression("debt over total assets")
    assert tree["args"][0]["op"] == "first"  # not long-term debt: a look-alike of total debt
    tagged = {"long_term_debt", "ltd_maturities_current", "total_assets"}
    chosen = choose(tree, lambda k: k in tagged)
    assert restate(chosen, top=True) == "(Long-term debt + Current maturities of long-term debt) ÷ Total assets"
    values = {"long_term_debt": Decimal(800), "ltd_maturities_current": Decimal(200), "total_assets": Decimal(4000)}
    assert evaluate(tree, values, unit_of(tree, "leverage")) == Decimal("0.25")
    assert metrics_of(parse_expression("long-term debt over equity")) == ["long_term_debt", "equity"]
    net = choose(parse_expression("net debt / equity"), lambda k: k in tagged | {"cash", "equity"})
    assert "Cash and cash equivalents" in restate(net, top=True)
    nothing = choose(tree, lambda k: False)  # nothing tagged: the first step, so the refusal names its parts
    assert metrics_of(nothing) == ["long_term_debt", "ltd_maturities_current", "total_assets"]


@pytest.mark.parametrize(
    "text, shown, unit, value",
    [
        ("accounts receivable over revenue times 365", "(Accounts receivable, net ÷ Revenue) × 365", "days",
         Decimal("36.5")),
        ("inventory / cost of revenue * 365", "(Inventories ÷ Cost of revenue) × 365", "days", Decimal("73")),
        ("net income / revenue * 100", "Net income ÷ Revenue", "percent", Decimal("10")),
    ],
)
def test_a_constant_after_the_divisor_scales_the_quotient(text, shown, unit, value):
    tree = parse_expression(text)
    assert restate(tree, top=True).replace("Total revenue", "Revenue") == shown or restate(tree, top=True) == shown
    assert unit_of(tree, "my ratio") == unit
    values = {"accounts_receivable": Decimal(10), "revenue": Decimal(100), "inventory": Decimal(20),
              "cost_of_revenue": Decimal(100), "net_income": Decimal(10)}
    assert evaluate(tree, values, unit) == value
    # a sum beside the constant keeps it in the divisor, as written
    assert restate(parse_expression("net income over revenue plus 5"), top=True).endswith("(Revenue + 5)")


@pytest.mark.parametrize(
    "key, values, shown",
    [
        ("working_capital", ("500", "200"), "$300"),
        ("fcf_margin", ("300", "100", "1000"), "20.0%"),
        ("ocf_margin", ("300", "1000"), "30.0%"),
        ("cash_conversion", ("300", "250"), "1.20"),  # a multiple of net income, never 120.0%
        ("equity_multiplier", ("1000", "250"), "4.00"),
        ("cash_ratio", ("50", "200"), "0.25"),
        ("dio", ("100", "365"), "100.0 days"),
        ("dpo", ("50", "365"), "50.0 days"),
        ("cash_conversion_cycle", ("100", "50", "50", "365", "365"), "100.0 days"),
        ("receivables_turnover", ("1000", "125"), "8.00"),
    ],
)
def test_the_ratios_of_daily_use_compute_with_their_convention_shown(key, values, shown):
    result = calculate(key, _ops(*values))
    assert result.display == shown and result.calculation.formula == FORMULAS[key].expression


@pytest.mark.parametrize(
    "text, key",
    [
        ("alphabet free cash flow margin 2024", "fcf_margin"),
        ("what is lowe's debt to assets ratio", "debt_to_assets"),
        ("cash ratio for nvidia", "cash_ratio"),
        ("colgate equity multiplier", "equity_multiplier"),
        ("days inventory outstanding, procter & gamble", "dio"),
        ("tesla receivables turnover", "receivables_turnover"),
        ("walmart cash conversion cycle", "cash_conversion_cycle"),  # never cash conversion and a stray word
        ("amazon working capital at year end", "working_capital"),
        ("operating cash flow margin for visa", "ocf_margin"),
    ],
)
def test_a_ratio_is_recognised_by_its_usual_names(text, key):
    assert match_formulas(text) == [key]


def test_a_ratio_question_plans_the_registry_formula(directory):  # noqa: F811
    p = plan(directory, "apple debt to assets ratio fiscal 2024")
    assert p.metrics == ["debt_to_assets"] and p.tickers == ["AAPL"], p
    p = plan(directory, "Apple: total debt over total assets for fiscal 2024")
    assert p.route != "refusal", p
    tree = p.definitions[-1]["tree"] if p.definitions else None
    assert p.metrics == ["debt_to_assets"] or (tree and tree["args"][0]["op"] == "first"), p


@pytest.fixture(scope="module")
def footnote(corpus_db, embedder):
    from bot.settings import Settings
    from bot.wiring import build_footnote

    return build_footnote(corpus_db, embedder, Settings(llm="off"), use_cache=False)


def _ask(footnote, text):
    return footnote.answer(Turn(thread_key=f"test:{uuid.uuid4().hex}", user="u", text=text))


def test_net_debt_through_the_graph_is_total_debt_less_cash(footnote):
    answer = _ask(footnote, "Apple net debt fiscal 2024")
    assert answer.kind == "answer", answer.text
    formula = answer.calculation[0].formula
    assert "total debt" in formula or "long-term debt alone" in formula, formula  # the convention, stated
    assert "Cash and cash equivalents" in formula


def test_debt_in_a_users_formula_through_the_graph_names_the_parts_it_used(footnote):
    answer = _ask(footnote, "define leverage as debt divided by total assets; Apple fiscal 2024")
    assert answer.kind == "answer", answer.text
    formula = answer.calculation[0].formula
    assert formula.startswith(("(Long-term debt +", "Long-term debt ÷")), formula
    assert "Total debt" not in formula  # the parts computed, not the convention's name


# --- the user's formula: its company and year after it, per-share figures, printed rows -------------


def _tree_text(directory, text):  # noqa: F811
    p = plan(directory, text)
    assert p.definitions, p
    return p, p.definitions[-1]["formula"]


@pytest.mark.parametrize(
    "text, formula, ticker",
    [
        ("define payout as dividends over free cash flow, apple 2024",
         "Dividends paid ÷ (Operating cash flow − Capital expenditures)", "AAPL"),
        ("define interest burden as interest expense divided by operating income for tesla 2024",
         "Interest expense ÷ Operating income", "TSLA"),
        ("dividends per share times diluted shares for apple 2024",
         "Dividends declared per share × Weighted-average diluted shares", "AAPL"),
        ("apple 2024 net income per share, use basic shares", "Net income ÷ Weighted-average basic shares", "AAPL"),
    ],
)
def test_a_definition_keeps_its_own_words_and_leaves_the_company_and_year_to_the_question(directory, text, formula,
                                                                                          ticker):  # noqa: F811
    p, shown = _tree_text(directory, text)
    assert shown == formula and p.tickers == [ticker] and p.fiscal_years == [2024], p


def test_per_share_times_shares_is_dollars():
    tree = parse_expression("dividends per share times diluted shares")
    assert unit_of(tree, "cash paid") == "USD"


def test_debt_to_capital_counts_total_debt_on_both_sides():
    assert _chain("debt_to_capital")[-1] == "debt_to_capital_long_term_only"
    assert calculate("debt_to_capital", _ops("600", "150", "250")).display == "0.75"


def _with_lines(directory, rows):  # noqa: F811
    from dataclasses import replace

    from agent.planning.companies import line_names

    return replace(directory, line_names=line_names(rows))


def test_an_operand_may_be_a_row_some_company_prints_and_nothing_else(directory):  # noqa: F811
    printed = _with_lines(directory, [("Demand creation expense", "us-gaap:MarketingAndAdvertisingExpense"),
                                      ("Revenues", "us-gaap:Revenues"),
                                      ("Net cash used in investing activities",
                                       "us-gaap:NetCashProvidedByUsedInInvestingActivities")])
    p = plan(printed, "define ad intensity as demand creation expense over revenue; Apple 2024")
    assert p.definitions[-1]["tree"]["args"][0] == {"line": "demand creation expense"}, p
    assert p.definitions[-1]["unit"] == "percent" and p.tickers == ["AAPL"]
    p = plan(printed, "apple 2024 capex as a share of net cash used in investing activities")
    assert p.definitions and p.definitions[-1]["tree"]["args"][1] == {"line": "net cash used in investing activities"}
    p = plan(printed, "demand creation expense as a share of revenue for apple 2024")
    assert p.definitions[-1]["formula"] == "Demand creation expense ÷ Revenue", p  # never a row "revenue for"
    refused = plan(printed, "define widget yield as widgets shipped over revenue, apple 2024")
    assert refused.refusal_reason == "unknown_metric" and "widgets shipped" in refused.refusal_detail
    # without the corpus's rows (or with none that match) the same words are refused, never approximated
    assert plan(directory, "define ad intensity as demand creation expense over revenue; Apple 2024"
                ).refusal_reason == "unknown_metric"


def test_a_printed_row_operand_through_the_graph_is_the_companys_own_row(footnote):
    answer = _ask(footnote, "define other share as other income over operating income; apple fiscal 2024")
    assert answer.kind == "answer", answer.text
    assert any(n.concept == "us-gaap:NonoperatingIncomeExpense" for n in answer.numbers), answer.numbers
    assert answer.calculation[0].formula.startswith("Other income ÷ Operating income"), answer.calculation
    missing = _ask(footnote, "define odd share as demand creation expense over revenue; apple fiscal 2024")
    assert missing.kind != "answer", missing.text  # no company prints it here: refused, never a look-alike


@pytest.mark.parametrize(
    "text, name, unit",
    [
        ("apple effective tax rate 2024 (income tax expense / pretax income)", "effective tax rate", "percent"),
        ("apple effective tax rate fiscal 2024, defined as income tax expense over pretax income",
         "effective tax rate", "percent"),
        ("apple fcf 2024 (operating cash flow minus capex)", "fcf", "USD"),
    ],
)
def test_a_formula_written_beside_a_measure_is_the_users_definition_of_it_answered_once(directory, text, name,
                                                                                       unit):  # noqa: F811
    p = plan(directory, text)
    assert p.metrics == [f"udf:{name}"], p  # never the filing's own figure beside it
    assert p.definitions[-1]["unit"] == unit and p.tickers == ["AAPL"] and p.fiscal_years == [2024], p
    listed = plan(directory, "tesla revenue, gross profit minus sg&a 2024")  # a comma lists; it defines nothing
    assert "udf:revenue" not in listed.metrics, listed


def test_excluding_an_expense_from_a_profit_adds_it_back_and_says_so():
    tree = parse_expression("operating income excluding stock-based compensation")
    assert tree["op"] == "+" and "added back" in restate(tree, top=True)
    values = {"operating_income": Decimal(100), "stock_compensation": Decimal(30), "operating_expenses": Decimal(80),
              "operating_cash_flow": Decimal(90), "capex": Decimal(20)}
    assert evaluate(tree, values, "USD") == Decimal(130)
    # an expense less an expense, or a cash flow that already added it back, deducts it
    assert evaluate(parse_expression("operating expenses excluding stock-based compensation"), values, "USD") == 50
    fcf = parse_expression("free cash flow excluding stock-based compensation")
    assert evaluate(fcf, values, "USD") == 40 and "added back" not in restate(fcf, top=True)
