"""Ratios analysts name that were refused or read as a look-alike, and the ways a question qualifies a
formula: the balances it averages, the years it averages over, the years and averages a definition
writes, a definition named "it", a definition written after its name, and computing instructions."""

from __future__ import annotations

from decimal import Decimal

import pytest

from agent.planning.companies import CompanyDirectory, line_names
from agent.planning.defined_formulas import averaged_span, balance_convention
from agent.planning.formula_definitions import find_definition
from agent.planning.formula_trees import evaluate, metrics_of
from agent.planning.rules import plan_rules
from agent.retrieval.finance import FORMULAS, Operand, calculate, match_formulas
from tests.test_companies import COVERED, SEC


@pytest.fixture(scope="module")
def directory() -> CompanyDirectory:
    found = CompanyDirectory.from_rows(
        COVERED, SEC, {320193: [2023, 2024], 1045810: [2024, 2025], 104169: [2024, 2025], 1318605: [2023, 2024]})
    found.line_names = line_names([
        ("Depreciation, amortization and impairment", "us-gaap:DepreciationDepletionAndAmortization"),
        ("Property, plant and equipment, net", "us-gaap:PropertyPlantAndEquipmentNet"),
        ("Long-term debt", "us-gaap:LongTermDebtNoncurrent"),
    ])
    return found


def plan(directory, text):
    return plan_rules(text, previous=None, directory=directory)


def _ops(*values):
    return [Operand(Decimal(v), "USD", 2024, i + 1) for i, v in enumerate(values)]


@pytest.mark.parametrize("said, key", [
    ("operating cash flow ratio", "ocf_ratio"),  # over current liabilities, never the OCF margin
    ("ocf ratio", "ocf_ratio"),
    ("debt ratio", "liabilities_to_assets"),
    ("fixed asset turnover", "fixed_asset_turnover"),
    ("fixed asset turnover ratio", "fixed_asset_turnover"),
    ("unadjusted ebitda margin", "ebitda_margin"),
    ("unadjusted ebitda", "ebitda"),
    ("change in working capital", "working_capital_change"),
])
def test_a_ratio_analysts_name_is_its_formula(said, key):
    assert match_formulas(f"apple {said} 2024") == [key]


def test_a_cash_flow_ratio_is_never_a_margin_over_revenue():
    assert "ocf_margin" not in match_formulas("walmart operating cash flow ratio 2025")
    assert "fcf_margin" not in match_formulas("walmart free cash flow ratio 2025")


@pytest.mark.parametrize("key, values, shown", [
    # Apple FY2024: net sales 391,035 over PP&E 45,680 and 43,715 at the two year-ends
    ("fixed_asset_turnover", ("391035", "45680", "43715"), "8.75"),
    ("fixed_asset_turnover_end", ("391035", "45680"), "8.56"),
    ("receivables_turnover_avg", ("1000", "120", "80"), "10.00"),
    ("dso_avg", ("120", "80", "1000"), "36.5 days"),
    ("working_capital_change", ("500", "300", "450", "200"), "-$50"),
])
def test_the_new_forms_compute_exactly(key, values, shown):
    assert calculate(key, _ops(*values)).display == shown


@pytest.mark.parametrize("text, asked, kept", [
    ("TI receivables turnover 2023 using average accounts receivable", ["receivables_turnover"],
     ["receivables_turnover_avg"]),
    ("nike dio fy25 on avg inventory", ["dio"], ["dio_avg"]),
    ("home depot inventory turnover with year-end inventory", ["inventory_turnover"], ["inventory_turnover_end"]),
    ("apple roe 2024", ["roe"], ["roe"]),  # unsaid: the ratio's own convention, which it states
    ("dso with average receivables and year-end receivables", ["dso"], ["dso"]),  # said both ways: its own
])
def test_a_balance_convention_said_is_the_form_computed(text, asked, kept):
    assert balance_convention(asked, text) == kept


def test_a_stated_balance_convention_reaches_the_plan(directory):
    p = plan(directory, "Compute Apple's receivables turnover for 2024 using average accounts receivable.")
    assert p.metrics == ["receivables_turnover_avg"], p
    p = plan(directory, "What was Tesla's inventory turnover in 2024 based on year-end inventory?")
    assert p.refusal_reason is None and p.metrics == ["inventory_turnover_end"], p  # never the inventory beside it


@pytest.mark.parametrize("text, n", [
    ("What is the FY2022 - FY2024 3 year average capex as a % of revenue for Apple?", 3),
    ("apple average gross margin over the last three years fy2024", 3),
    ("apple two-year avg net margin 2024", 2),
])
def test_an_n_year_average_is_said_as_its_last_year(text, n):
    span, said = averaged_span(text)
    assert span == n and "average" not in said.lower().replace("avg", "average")


def test_an_n_year_average_whose_years_disagree_is_not_read():
    assert averaged_span("apple 3 year average gross margin fy2021 to fy2024")[0] is None


def test_an_n_year_average_is_the_mean_of_the_years_ratios(directory):
    p = plan(directory, "What is the FY2022 - FY2024 3 year average capex as a % of revenue for Apple?")
    assert p.refusal_reason is None and p.fiscal_years == [2024] and len(p.metrics) == 1, p
    definition = next(d for d in p.definitions if f"udf:{d['name']}" == p.metrics[0])
    assert definition["name"].startswith("3-year average") and definition["unit"] == "percent"
    values = {"capex": Decimal(10), "revenue": Decimal(100), "capex~-1": Decimal(20), "revenue~-1": Decimal(100),
              "capex~-2": Decimal(30), "revenue~-2": Decimal(100)}
    assert evaluate(definition["tree"], values, "percent") == Decimal(20)  # (10% + 20% + 30%) / 3, never a sum's ratio


def test_a_definitions_years_are_the_years_asked_and_its_average_two_year_ends(directory):
    definition, _, bad = find_definition(
        "Fixed asset turnover ratio is defined as: FY2024 revenue / (average PP&E between FY2023 and FY2024).",
        directory.line_names)
    assert bad is None and definition is not None
    keys = metrics_of(definition["tree"])
    assert keys[0] == "revenue" and len(keys) == 3 and keys[1].startswith("#") and keys[2].endswith("~-1")


def test_a_definition_naming_two_unrelated_years_is_refused_never_read_as_one_year(directory):
    definition, _, bad = find_definition("ratio is defined as: FY2022 revenue / FY2024 revenue.", directory.line_names)
    assert definition is None and bad == "FY2022 revenue"


def test_a_change_between_two_year_ends_in_a_definition_is_the_balance_less_the_prior_years():
    definition, _, bad = find_definition(
        "DPO is defined as 365 * (average accounts payable between FY2023 and FY2024) / (FY2024 cost of revenue + "
        "change in inventory between FY2023 and FY2024).")
    assert bad is None and metrics_of(definition["tree"]) == [
        "accounts_payable", "accounts_payable~-1", "cost_of_revenue", "inventory", "inventory~-1"]


def test_a_definition_named_it_is_the_measure_the_question_names(directory):
    p = plan(directory, "What is Apple's FY2024 shareholder return ratio? Define it as (dividends paid + share "
                        "repurchases) divided by net income.")
    assert p.refusal_reason is None and p.metrics == ["udf:shareholder return ratio"], p
    p = plan(directory, "What is Apple's FY2024 dividend coverage? Define it as operating cash flow divided by "
                        "dividends paid.")
    assert p.metrics == ["udf:dividend coverage"], p  # theirs alone, never the registry's beside it


def test_a_definition_written_after_its_name_is_the_formula_asked(directory):
    p = plan(directory, "tesla 2024 capex net of depreciation? i.e. capital expenditures minus depreciation, "
                        "amortization and impairment")
    assert p.refusal_reason is None and len(p.metrics) == 1, p
    definition = next(d for d in p.definitions if f"udf:{d['name']}" == p.metrics[0])
    assert metrics_of(definition["tree"]) == ["capex", "#depreciation amortization and impairment"], definition


def test_a_bracket_restating_a_whole_formula_never_defines_its_last_operand(directory):
    p = plan(directory, "tesla 2024 capex net of depreciation (capital expenditures minus depreciation, "
                        "amortization and impairment)")
    definition = next(d for d in p.definitions if f"udf:{d['name']}" == p.metrics[0])
    assert metrics_of(definition["tree"]) == ["capex", "#depreciation amortization and impairment"], definition


def test_a_definition_after_its_name_that_cannot_be_read_is_refused_never_the_names_reading(directory):
    p = plan(directory, "tesla fy24 total debt over equity... use long-term debt less current portion / "
                        "shareholders equity")
    assert p.refusal_reason == "unknown_metric" and "current portion" in p.refusal_detail, p


def test_computing_instructions_are_no_figures_words(directory):
    p = plan(directory, "What is Apple's FY2024 cash conversion cycle? Use year-end balances and 365 days.")
    assert p.refusal_reason is None and p.metrics == ["cash_conversion_cycle"], p


def test_every_new_form_has_a_stated_convention():
    for key in ("fixed_asset_turnover", "fixed_asset_turnover_end", "dso_avg", "dio_avg", "dpo_avg",
                "receivables_turnover_avg", "payables_turnover_avg", "inventory_turnover_end", "roe_end", "roa_end"):
        said = FORMULAS[key].expression
        assert "average" in said or "year-end" in said, key


def test_a_row_holding_its_own_exclusion_is_that_row_never_a_difference():
    lines = line_names([("Purchases of property and equipment excluding finance leases, net of sales",
                         "us-gaap:PaymentsToAcquirePropertyPlantAndEquipment")])
    definition, _, bad = find_definition("define capex intensity as purchases of property and equipment excluding "
                                         "finance leases divided by revenue", lines)
    assert bad is None and metrics_of(definition["tree"])[0].startswith("#purchases"), definition
    definition, _, _ = find_definition("define x as operating income net of interest expense divided by revenue", lines)
    assert metrics_of(definition["tree"]) == ["operating_income", "interest_expense", "revenue"]


def test_the_balance_convention_a_ratio_used_is_said_in_the_answers_sentence():
    from agent.retrieval.finance import stated_convention

    assert stated_convention("inventory_turnover_end") == "on year-end balances"
    assert "average" in stated_convention("dso_avg") and "average" in stated_convention("fixed_asset_turnover")
    # its own convention too, chosen or not: never silent
    assert stated_convention("dso") == "on year-end balances" and "average" in stated_convention("roe")
    assert stated_convention("dso_360") == "on year-end balances" and "average" in stated_convention("dio_avg_360")
    assert stated_convention("gross_margin") is None  # no balance in it


def test_a_balance_asked_averaged_is_its_two_year_ends_averaged(directory):
    p = plan(directory, "Compute Apple's FY2024 average inventory (average of year-end inventories FY2023 and FY2024)")
    assert p.refusal_reason is None and p.fiscal_years == [2024] and len(p.metrics) == 1, p
    definition = next(d for d in p.definitions if f"udf:{d['name']}" == p.metrics[0])
    assert metrics_of(definition["tree"]) == ["inventory", "inventory~-1"]
    values = {"inventory": Decimal(30), "inventory~-1": Decimal(10)}
    assert evaluate(definition["tree"], values, "USD") == Decimal(20)
    assert plan(directory, "Walmart inventory turns FY2024, using average inventory").metrics == ["inventory_turnover"]
    assert plan(directory, "apple average inventory between fy2021 and fy2024").metrics[:1] != p.metrics  # never 2 ends


@pytest.mark.parametrize("text, kept", [
    ("What was Visa's gross margin in fiscal 2024? Use cost of revenue.", "What was Visa's gross margin in fiscal 2024?"),
    ("Walmart DPO FY2025. Use year-end accounts payable and cost of sales, 365 days.", "Walmart DPO FY2025."),
    ("apple gross margin 2024. use net income", "apple gross margin 2024. use net income"),  # no input of it
    ("apple revenue 2024. use net sales", "apple revenue 2024. use net sales"),  # no ratio named
])
def test_a_closing_use_clause_naming_the_ratios_own_inputs_is_set_aside(text, kept):
    from agent.planning.defined_formulas import without_restated_inputs

    assert without_restated_inputs(text) == kept


@pytest.mark.parametrize("question, metric", [
    ("What is Apple's fiscal 2024 net profit margin? Round to one decimal place.", "net_margin"),
    ("What is Apple's fiscal 2024 net profit margin? Round your answer to two decimal places, in percent.",
     "net_margin"),
])
def test_a_rounding_instruction_is_no_figures_word(directory, question, metric):
    p = plan(directory, question)
    assert p.refusal_reason is None and p.metrics == [metric], p


def test_an_n_year_average_of_a_ratio_reads_past_its_of(directory):
    p = plan(directory, "What is the FY2022 - FY2024 3 year average of net profit margin for Apple?")
    assert p.refusal_reason is None and p.metrics == ["udf:3-year average net margin, fiscal 2022 to 2024"], p


@pytest.mark.parametrize("question, metric", [
    ("What is the FY2024 COGS % margin for Apple?", "cost_of_revenue_pct"),
    ("What is Apple's FY2024 EBITDA % margin?", "ebitda_margin"),
    ("What is Apple's FY2024 dividend payout ratio (using total cash dividends paid and net income attributable to "
     "shareholders)?", "dividend_payout"),
    ("Based on the information provided primarily in the balance sheet and cash flow statement, what is Apple's "
     "FY2024 free cash flow conversion rate?", "fcf_conversion"),
])
def test_analysts_shorthand_names_the_ratio_alone(directory, question, metric):
    p = plan(directory, question)
    assert p.refusal_reason is None and p.metrics == [metric], p


def test_a_defined_amounts_margin_is_the_amount_over_revenue_never_the_amount(directory):
    p = plan(directory, "What is the FY2022 - FY2024 3 year average unadjusted EBITDA % margin for Apple? Define "
                        "unadjusted EBITDA as unadjusted operating income + depreciation and amortization.")
    assert p.refusal_reason is None and len(p.metrics) == 1 and "margin" in p.metrics[0], p
    definition = next(d for d in p.definitions if f"udf:{d['name']}" == p.metrics[0])
    keys = metrics_of(definition["tree"])
    assert definition["unit"] == "percent" and keys[0] == "operating_income", definition
    assert {"depreciation_amortization", "revenue", "revenue~-2"} <= set(keys), keys  # over revenue, each year


def test_a_registry_amount_of_one_line_is_an_operand(directory):
    p = plan(directory, "What is Tesla's FY2024 interest coverage ratio? Define it as unadjusted EBIT / interest expense.")
    definition = next(d for d in p.definitions if f"udf:{d['name']}" == p.metrics[0])
    assert metrics_of(definition["tree"]) == ["operating_income", "interest_expense"], definition


def test_a_definition_after_its_name_is_the_users_formula_never_the_names_reading():
    found = CompanyDirectory.from_rows(COVERED, SEC, {1318605: [2023, 2024]})
    found.line_names = line_names([("Long-term debt, less current portion", "us-gaap:LongTermDebtNoncurrent")])
    p = plan(found, "tesla fy24 total debt over equity... use long-term debt less current portion / shareholders equity")
    assert p.refusal_reason is None and len(p.metrics) == 1 and "restated" not in p.metrics[0], p
    definition = next(d for d in p.definitions if f"udf:{d['name']}" == p.metrics[0])
    assert metrics_of(definition["tree"]) == ["#long term debt less current portion", "equity"], definition


def test_a_definition_after_a_plain_name_is_its_restatement(directory):
    p = plan(directory, "nvidia fy25 opex intensity? i.e. total operating expenses divided by revenue")
    assert p.refusal_reason is None and len(p.metrics) == 1, p
    definition = next(d for d in p.definitions if f"udf:{d['name']}" == p.metrics[0])
    # the operating-expense total first, then the lines it is computed from where none is printed
    assert metrics_of(definition["tree"])[0] == "operating_expenses" and metrics_of(definition["tree"])[-1] == "revenue"
    assert "restated" not in definition["name"]
