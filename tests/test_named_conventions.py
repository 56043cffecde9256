"""Named conventions: EBITDA, EBIT and ROIC asked by name (or spelled out) are computed under the convention
the calculation states, never refused as unknown and never read as a look-alike line (pretax income for
"earnings before interest and taxes"); a company's own non-GAAP measures stay refused; a tagged rate asked
alone is followed by its computation from the lines that define it."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from agent.retrieval.finance import FORMULAS, Operand, calculate
from tests.test_figures import directory, plan  # noqa: F401  (the module's directory fixture)
from tests.test_formula_operands import _fy2024


@pytest.mark.parametrize(
    "question, key",
    [
        ("apple ebitda fy2024", "ebitda"),
        ("What was Nvidia's EBITDA in fiscal 2025?", "ebitda"),
        ("AAPL earnings before interest, taxes, depreciation and amortization 2024?", "ebitda"),
        # the row name inside it ("depreciation and amortization") never takes the longer name apart
        ("How much was NVDA's earnings before interest, taxes, depreciation and amortization in fiscal 2025?", "ebitda"),
        ("walmart EBIT fy2025", "ebit"),
        ("Tesla earnings before interest and taxes 2024", "ebit"),  # never income before income taxes
        ("walmart EBIT margin fy2025", "ebit_margin"),
        ("ROIC for nvidia fy2025", "roic"),
        ("apple return on invested capital 2024", "roic"),
        ("apple return on capital employed 2024", "roce"),  # another convention than ROIC's, never its figure
        ("tesla ROCE 2024", "roce"),
        ("nvidia net debt to EBITDA fy2025", "net_debt_to_ebitda"),
        ("tesla debt/EBITDA 2024", "debt_to_ebitda"),
        ("apple EBIT to interest expense 2024", "interest_coverage"),
        ("walmart EBITDA to interest 2025", "ebitda_interest_coverage"),
    ],
)
def test_a_named_convention_is_its_formula(directory, question, key):  # noqa: F811
    p = plan(directory, question)
    assert p.refusal_reason is None and p.metrics == [key], p


@pytest.mark.parametrize(
    "question, detail",
    [
        ("apple adjusted EBITDA 2024", "adjusted ebitda"),
        ("what's apple's adjusted ebitda margin?", "adjusted ebitda"),
        ("Nvidia EBITDAR fiscal 2025", "ebitdar"),
        ("tesla adjusted EBIT 2024", "adjusted ebit"),
        ("walmart adjusted EPS fy2025", "adjusted eps"),
        ("apple non-GAAP operating income 2024", "non gaap"),
        ("walmart core earnings 2024", "core earnings"),
        ("tesla FFO 2024", "ffo"),
    ],
)
def test_a_companys_own_non_gaap_measure_stays_refused_by_name(directory, question, detail):  # noqa: F811
    p = plan(directory, question)
    assert (p.refusal_reason, p.refusal_detail) == ("unknown_metric", detail), p


def test_a_users_own_definition_of_a_named_formula_is_never_answered_with_ours(directory):  # noqa: F811
    p = plan(directory, "Apple EBITDA 2024 (operating income + amortization of intangibles)")
    assert "ebitda" not in p.metrics and not any(m.startswith("udf:") for m in p.metrics), p
    p = plan(directory, "Apple EBITDA fiscal 2024, defined as operating income plus depreciation and amortization")
    assert p.metrics == ["udf:ebitda"], p  # theirs alone, never ours beside it


def test_each_convention_is_written_into_the_expression_the_answer_shows():
    assert "unadjusted" in FORMULAS["ebitda"].expression
    assert "EBIT taken as operating income" in FORMULAS["ebit"].expression
    assert "EBIT taken as operating income" in FORMULAS["ebit_margin"].expression
    for key in ("roic", "roic_ltd_total", "roic_current_line", "roic_long_term_only", "roic_rate",
                "roic_rate_long_term_only", "roic_all_borrowings"):
        assert "invested capital" in FORMULAS[key].expression and FORMULAS[key].label == "Return on invested capital"
    # every ROIC step falls back to the next; the last tax-line step to the reported-rate chain
    assert FORMULAS["roic"].fallback == "roic_ltd_total"
    assert FORMULAS["roic_long_term_only"].fallback == "roic_rate"
    assert FORMULAS["roic_all_long_term_only"].fallback == "roic_rate_all"  # with borrowings, to the rate's such form


def test_leverage_over_ebitda_adds_back_what_the_company_reports_as_ebitda_does():
    # every debt reading with the D&A total first, then with depreciation and amortization rows, then depreciation
    assert FORMULAS["debt_to_ebitda_long_term_only"].fallback == "debt_to_ebitda_dep_amort"
    assert FORMULAS["net_debt_to_ebitda_dep_amort_long_term_only"].fallback == "net_debt_to_ebitda_depreciation"
    assert FORMULAS["ebitda_interest_coverage"].fallback == "ebitda_interest_coverage_dep_amort"
    op = lambda v: Operand(Decimal(v), "USD", 2024)  # noqa: E731
    # (100 − 10) ÷ (20 + 5 + 3) with long-term debt alone and D&A as two rows
    r = calculate("net_debt_to_ebitda_dep_amort_long_term_only", [op(100), op(10), op(20), op(5), op(3)])
    assert r.display == "3.21" and "two rows the company prints" in r.calculation.formula


def test_ebit_is_operating_income_and_roic_is_after_tax_operating_income_over_debt_and_equity():
    op = lambda v: Operand(Decimal(v), "USD", 2024)  # noqa: E731
    assert calculate("ebit", [op(200)]).value == Decimal(200)
    # ROIC: 200 × (1 − 38 ÷ 190) ÷ ((300 + 50) + 450) = 160 ÷ 800 = 20%
    r = calculate("roic", [op(300), op(50), op(200), op(38), op(190), op(450)])
    assert r.display == "20.0%" and r.calculation.metric == "Return on invested capital"
    rate = calculate("roic_rate", [op(300), op(50), op(200), Operand(Decimal("0.2"), "pure", 2024), op(450)])
    assert rate.display == "20.0%"
    # ROCE: 200 ÷ (1,200 − 200) = 20%, before tax, over total assets less current liabilities
    roce = calculate("roce", [op(200), op(1200), op(200)])
    assert roce.display == "20.0%" and "capital employed" in roce.calculation.formula


def _filer(conn, cik, ticker, rows, instants=()):
    from tests.test_facts import fact

    acc, end = _fy2024(conn, cik, f"{ticker} Inc.", ticker, rows)
    for concept, value in instants:
        fact(conn, cik, acc, concept, value, end, fiscal_year=2024)
    return {"cik": cik, "ticker": ticker, "name": ticker, "fiscal_years": [2024]}


def test_ebitda_ebit_and_roic_are_computed_from_the_filers_lines(db):
    from agent.retrieval.retrieve import _collect

    with db.connection() as conn:
        filer = _filer(conn, 999101, "NCV", [
            ("Revenues", 1000), ("OperatingIncomeLoss", 200), ("DepreciationDepletionAndAmortization", 40),
            ("IncomeTaxExpenseBenefit", 38),
            ("IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest", 190)],
            [("LongTermDebtNoncurrent", 300), ("LongTermDebtCurrent", 50), ("StockholdersEquity", 450)])
        _, calculations, cells = _collect(conn, [filer], ["ebitda", "ebit", "ebit_margin", "roic"])
    shown = {c["metric"]: c["display"] for c in cells}
    assert shown == {"ebitda": "$240", "ebit": "$200", "ebit_margin": "20.0%", "roic": "20.0%"}, cells
    assert {c["key"] for c in calculations} == {"ebitda", "ebit", "ebit_margin", "roic"}
    said = {c["metric"]: c["convention"] for c in cells}
    assert said == {"ebitda": "as operating income plus D&A, unadjusted", "ebit": "taken as operating income",
                    "ebit_margin": "EBIT taken as operating income",
                    "roic": "after-tax operating income over debt plus equity; debt as long-term debt, current and "
                            "noncurrent"}, said


def test_the_sentence_states_the_convention_beside_the_name():
    from agent.composing.compose import _number_claims

    cell = {"ticker": "NCV", "name": "Example", "fiscal_year": 2024, "metric": "ebitda", "label": "EBITDA",
            "evidence_id": "calc:1", "display": "$240", "instant": False,
            "convention": "as operating income plus D&A, unadjusted"}
    (claim,) = _number_claims([cell])
    assert claim.text == "Example's EBITDA (as operating income plus D&A, unadjusted) for fiscal 2024 was $240."


def test_roic_without_tax_lines_takes_the_reported_rate_and_says_so(db):
    from agent.retrieval.retrieve import _collect

    with db.connection() as conn:
        filer = _filer(conn, 999102, "RTE", [("OperatingIncomeLoss", 200)],
                       [("LongTermDebtNoncurrent", 300), ("StockholdersEquity", 500)])
        from tests.test_facts import fact

        fact(conn, 999102, "0000999102-25-000001", "EffectiveIncomeTaxRateContinuingOperations", "0.25",
             date(2024, 12, 31), date(2024, 1, 1), fiscal_year=2024, unit="pure")
        _, calculations, cells = _collect(conn, [filer], ["roic"])
    # 200 × (1 − 0.25) ÷ (300 + 500) = 18.75%
    assert cells[0]["display"] == "18.8%", cells
    assert calculations[0]["key"] == "roic_rate_long_term_only", calculations
    assert "reported effective rate" in FORMULAS[calculations[0]["key"]].expression


def test_roic_missing_an_input_names_it_and_states_no_figure(db):
    from agent.retrieval.retrieve import _collect

    with db.connection() as conn:
        filer = _filer(conn, 999103, "NOD", [("OperatingIncomeLoss", 200), ("IncomeTaxExpenseBenefit", 38)],
                       [("StockholdersEquity", 500)])
        _, calculations, cells = _collect(conn, [filer], ["roic"])
    assert cells[0]["evidence_id"] is None and not calculations, cells
    assert any("debt" in m.lower() for m in cells[0]["missing_inputs"]), cells


def test_a_tagged_rate_asked_alone_is_followed_by_its_computation(db):
    from agent.retrieval.retrieve import _collect
    from tests.test_facts import fact

    with db.connection() as conn:
        filer = _filer(conn, 999104, "TXR", [
            ("IncomeTaxExpenseBenefit", 38),
            ("IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest", 190)])
        fact(conn, 999104, "0000999104-25-000001", "EffectiveIncomeTaxRateContinuingOperations", "0.2",
             date(2024, 12, 31), date(2024, 1, 1), fiscal_year=2024, unit="pure")
        _, calculations, cells = _collect(conn, [filer], ["effective_tax_rate"])
        tagged, computed = cells
        assert tagged["display"] == "20.0%" and tagged["evidence_id"] is not None
        assert computed["metric"] == "effective_tax_rate_computed" and computed["display"] == "20.0%", computed
        assert [c["key"] for c in calculations] == ["effective_tax_rate_computed"]
        # beside another figure (a table, a comparison), the tagged rate stands alone
        _, calculations, cells = _collect(conn, [filer], ["effective_tax_rate", "income_tax"])
    assert [c["metric"] for c in cells] == ["effective_tax_rate", "income_tax"] and not calculations


def test_ebitda_excluding_an_expense_adds_it_back_as_for_any_profit(directory):  # noqa: F811
    p = plan(directory, "Apple EBITDA excluding stock-based compensation 2024")
    assert p.definitions[-1]["formula"] == ("(Operating income + Depreciation and amortization) + Share-based "
                                            "compensation expense (the excluded expense added back)"), p
    p = plan(directory, "Apple EBITDA less capex 2024")  # "less" deducts: no add-back convention
    assert p.definitions[-1]["formula"] == "(Operating income + Depreciation and amortization) − Capital expenditures"


@pytest.mark.parametrize(
    "question, name, formula",
    [
        ("how much did walmart's EBIT grow in fy2025?", "ebit growth",
         "(Operating income − Operating income (prior year)) ÷ |Operating income (prior year)|"),
        ("by how much did walmart's EBIT change in dollars in fy2025?", "ebit change",
         "Operating income − Operating income (prior year)"),
        ("walmart EBITDA growth fy2025", "ebitda growth",
         "((Operating income + Depreciation and amortization) − (Operating income (prior year) + Depreciation and "
         "amortization (prior year))) ÷ |Operating income (prior year) + Depreciation and amortization (prior year)|"),
    ],
)
def test_a_named_conventions_change_is_its_change_never_its_level(directory, question, name, formula):  # noqa: F811
    p = plan(directory, question)
    assert p.metrics == [f"udf:{name}"] and p.definitions[-1]["formula"] == formula, p


@pytest.mark.parametrize(
    "question, key",
    [
        ("apple NOPAT 2024", "nopat"),
        ("apple net operating profit after tax fy2024", "nopat"),
        ("apple invested capital fy2024", "invested_capital"),
        ("apple capital employed 2024", "capital_employed"),
    ],
)
def test_the_parts_of_roic_and_gearing_are_named_conventions_too(directory, question, key):  # noqa: F811
    assert plan(directory, question).metrics == [key]


def test_nopat_falls_back_to_the_reported_rate_and_invested_capital_counts_debt_as_everywhere():
    op = lambda v: Operand(Decimal(v), "USD", 2024)  # noqa: E731
    assert calculate("nopat", [op(200), op(38), op(190)]).display == "$160"
    assert FORMULAS["nopat"].fallback == "nopat_rate"
    assert calculate("nopat_rate", [op(200), Operand(Decimal("0.25"), "pure", 2024)]).display == "$150"
    assert [i.metric for i in FORMULAS["invested_capital"].inputs] == ["long_term_debt", "ltd_maturities_current", "equity"]
