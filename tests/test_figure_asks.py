"""Figures asked in analysts' words that were refused or answered as another figure: a note's total under a
statement's name, a definition in a bracket after "i.e.", an instruction about the statements set off mid-sentence,
a user's debt inside the debt-to-equity asked beside it, balances by their common names, a share over an axis."""

from __future__ import annotations

from agent.planning.rules import plan_rules
from agent.planning.sourcing import without_sourcing
from agent.planning.words import join_printed_names
from agent.retrieval.line_items import _exactly_printed, resolve, tokens
from tests.test_figures import directory  # noqa: F401  (the module's directory fixture)

FAIR_VALUE_TOTAL = {"label": "Total liabilities", "concept": "us-gaap:LiabilitiesFairValueDisclosure", "statement": "other",
                    "dims": {}}
BALANCE_TOTAL = {"label": "Total liabilities", "concept": "us-gaap:Liabilities", "statement": "balance", "dims": {}}


def plan(directory, text):  # noqa: F811
    return plan_rules(text, directory=directory)


def test_a_notes_total_of_a_narrower_schedule_never_answers_for_the_statement_figure():
    # the company prints no total liabilities on its balance sheet; its fair-value note prints a "Total liabilities"
    match, candidates = resolve("total liabilities", "total liabilities", [FAIR_VALUE_TOTAL], [], total=True)
    assert match is None and not candidates
    assert _exactly_printed("Total liabilities", [FAIR_VALUE_TOTAL]) is None
    match, _ = resolve("total liabilities", "total liabilities", [FAIR_VALUE_TOTAL, BALANCE_TOTAL], [], total=True)
    assert match.concept == "us-gaap:Liabilities"


def test_a_definition_after_i_e_in_a_bracket_is_the_formula(directory):  # noqa: F811
    for said in ("(i.e. operating income over total revenue)", "(i.e., operating income over total revenue)",
                 "(e.g. operating income over total revenue)"):
        p = plan(directory, f"Apple ratio 2024 {said}")
        assert p.route == "domain" and p.definitions, (said, p)
        assert p.definitions[-1]["formula"] == "Operating income ÷ Revenue", p.definitions[-1]


def test_an_instruction_set_off_mid_sentence_is_no_part_of_the_formula(directory):  # noqa: F811
    text = ("Please calculate, using the balance sheet and income statement, Apple's dividends paid / net income for "
            "fiscal 2024. Round to two decimals.")
    assert "balance sheet" not in without_sourcing(text)
    p = plan(directory, text)
    assert p.route == "domain" and p.definitions and p.definitions[-1]["formula"] == "Dividends paid ÷ Net income", p


def test_a_row_name_joined_by_and_ends_before_the_words_that_follow_it():
    words = "what was purchases of property and equipment in fy23".split()
    names = frozenset({tokens("Purchases of property and equipment")})
    how = [None] * len(words)
    how[words.index("fy23")] = "period"
    taken = join_printed_names(how, words, names)
    assert sorted(taken) == [2, 3, 4, 6]  # "purchases of property ... equipment", never the "in" before the year


def test_debt_defined_with_where_is_the_debt_in_the_debt_to_equity_asked(directory):  # noqa: F811
    p = plan(directory, "walmart fy25 debt to equity where debt = short-term borrowings + long-term debt")
    assert p.metrics == ["udf:debt over equity"], p.metrics
    assert p.definitions[-1]["formula"] == "(Short-term borrowings + Long-term debt) ÷ Total stockholders' equity"


def test_debt_defined_after_a_debt_to_equity_ratio_question_is_that_ratio(directory):  # noqa: F811
    p = plan(directory, "What's walmart's fiscal 2025 debt to equity ratio? Define debt as current portion of long-term "
                        "debt plus long-term debt.")
    # the debt defined is the debt the ratio counts (long-term debt, current and noncurrent): that ratio, its convention
    # stated; never the debt alone beside an "equity ratio"
    assert p.metrics == ["debt_to_equity"], p.metrics


def test_balances_by_their_common_names_are_curated_metrics(directory):  # noqa: F811
    assert plan(directory, "apple net intangibles fy2024").metrics == ["intangible_assets"]
    assert plan(directory, "apple treasury stock at cost 2024").metrics == ["treasury_stock"]
    assert plan(directory, "walmart accrued expenses fy2025").metrics == ["accrued_liabilities"]
    assert plan(directory, "nvidia share-based comp expense fy2025").metrics == ["stock_compensation"]


def test_a_mix_over_an_axis_is_every_members_share(directory):  # noqa: F811
    p = plan(directory, "what's the segment mix of apple's revenue in 2024")
    assert p.metrics == ["udf:revenue share by segment"], p.metrics
    tree = p.definitions[-1]["tree"]
    assert tree["args"][0]["member"] == "*segment" and "member" not in tree["args"][1], tree


def test_a_lowercase_owner_after_and_is_a_company_never_a_row_of_the_first(directory):  # noqa: F811
    p = plan(directory, "apple revenue and samsung's?")
    assert p.route == "refusal" and p.refusal_detail == "samsung", (p.route, p.metrics)


def test_how_does_one_company_compare_to_another_names_two_companies(directory):  # noqa: F811
    p = plan(directory, "how does apple compare to samsung")
    assert p.route == "refusal" and p.refusal_detail == "samsung", (p.route, p.intent, p.query)


def test_a_members_margin_falls_back_to_the_lines_that_define_it_on_that_member(directory):  # noqa: F811
    p = plan(directory, "apple products gross margin 2024")
    assert p.metrics == ["udf:products gross margin"], p.metrics
    numerator = p.definitions[-1]["tree"]["args"][0]
    assert numerator["op"] == "first" and numerator["args"][0] == {"metric": "gross_profit", "member": "products"}
    assert numerator["args"][1] == {"op": "-", "args": [{"metric": "revenue", "member": "products"},
                                                        {"metric": "cost_of_revenue", "member": "products"}]}



def test_a_sentence_giving_a_name_a_formula_with_is_defines_it(directory):  # noqa: F811
    p = plan(directory, "What is Apple's FY2024 debt-to-equity ratio? Debt is long-term debt plus the current portion "
                        "of long-term debt.")
    assert p.metrics == ["debt_to_equity"], p.metrics  # the debt it defines is the debt the ratio counts


def test_calculate_as_after_the_question_defines_the_measure_asked_in_its_unit(directory):  # noqa: F811
    p = plan(directory, "What is Tesla's 2024 return on equity? Calculate as net income divided by average "
                        "shareholders' equity.")
    assert p.metrics == ["udf:return on equity"], p.metrics  # the user's formula, never the registry's beside it
    assert p.definitions[-1]["unit"] == "percent"


def test_a_question_sentence_is_never_read_as_a_definition(directory):  # noqa: F811
    p = plan(directory, "What is Apple's revenue in fiscal 2024? What is it minus cost of revenue?")
    assert not any(d["name"] in ("what", "it") for d in p.definitions), p.definitions


def test_a_name_of_the_users_own_set_off_by_a_colon_names_the_formula(directory):  # noqa: F811
    for text, name in (("tesla 2024 asset cover: buybacks over total assets", "asset cover"),
                       ("apple adjusted margin: operating income over revenue, 2024", "adjusted margin"),
                       ("what is tesla's asset cover: buybacks over total assets, fy2024", "asset cover")):
        p = plan(directory, text)
        assert p.route == "domain" and p.metrics == [f"udf:{name}"], (text, p.metrics)
    assert plan(directory, "apple adjusted margin: operating income over revenue, 2024").definitions[-1]["unit"] == "percent"


def test_a_tagged_rate_set_off_by_a_comma_before_its_own_formula_is_that_formula_alone(directory):  # noqa: F811
    p = plan(directory, "walmart effective tax rate fy25, income tax provision as a % of pre-tax income")
    assert p.metrics == ["udf:effective tax rate"], p.metrics  # never the tagged rate cited beside it


def test_a_rate_asked_from_the_income_statement_is_computed(directory):  # noqa: F811
    assert plan(directory, "What was Apple's effective tax rate in 2024 based on the income statement?").metrics == \
        ["effective_tax_rate_computed"]


def test_a_definitions_name_keeps_no_linking_word_left_by_its_company_and_year(directory):  # noqa: F811
    p = plan(directory, "effective tax rate of tesla in 2024 = income tax provision / income before taxes")
    assert p.metrics == ["udf:effective tax rate"], p.metrics


def test_the_tax_lines_by_their_printed_names(directory):  # noqa: F811
    assert plan(directory, "apple taxes on earnings 2024").metrics == ["income_tax"]
    assert plan(directory, "apple earnings before income taxes 2024").metrics == ["pretax_income"]


def test_a_tagged_rate_asked_alone_is_computed_from_the_lines_it_divides(directory):  # noqa: F811
    assert plan(directory, "effective tax rate for nvidia, fiscal 2025").metrics == ["effective_tax_rate_computed"]
    # beside another company or figure, the rate each filing tags stands in the table
    assert "effective_tax_rate" in plan(directory, "apple vs nvidia effective tax rate").metrics


def test_a_member_by_its_initials_after_the_companys_own():
    from agent.retrieval.segments import find_member

    members = [("us-gaap:StatementBusinessSegmentsAxis", "ba:CommercialAirplanesMember"),
               ("us-gaap:StatementBusinessSegmentsAxis", "ba:GlobalServicesMember")]
    labels = {"ba:CommercialAirplanesMember": {"Commercial Airplanes"}, "ba:GlobalServicesMember": {"Global Services"}}
    found, exact = find_member("bca", members, labels, owner=frozenset({"boeing"}))
    assert exact and found == [members[0]], found  # "BCA": Boeing Commercial Airplanes
    assert find_member("xca", members, labels, owner=frozenset({"boeing"}))[0] == []


def test_treasury_stock_purchases_are_buybacks_and_treasury_stock_is_the_balance(directory):  # noqa: F811
    assert plan(directory, "apple treasury stock purchases 2024").metrics == ["buybacks"]
    assert plan(directory, "apple purchases of treasury stock 2024").metrics == ["buybacks"]
    assert plan(directory, "apple treasury stock 2024").metrics == ["treasury_stock"]


def test_all_over_divides_the_whole_said_before_it(directory):  # noqa: F811
    p = plan(directory, "compute walmart's operating income less interest expense, all over revenue, for fy2025")
    assert len(p.metrics) == 1 and p.definitions[-1]["formula"] == "(Operating income − Interest expense) ÷ Revenue", p


def test_a_total_over_a_range_of_years_adds_the_years_up(directory):  # noqa: F811
    p = plan(directory, "What is the FY2022 - FY2024 total D&A (as shown in cash flow statement) for Apple?")
    assert p.metrics and p.metrics[0].startswith("udf:3-year total depreciation and amortization"), p.metrics
    assert p.fiscal_years == [2024] and "added up" in p.definitions[-1]["formula"], p
    # a figure whose own name starts with "total" is listed by year, never added up
    assert not any(m.startswith("udf:") for m in plan(directory, "apple total revenue 2022-2024").metrics)


def test_a_bracket_saying_where_a_figure_is_printed_is_no_part_of_its_name():
    assert without_sourcing("apple capex (from the cash flow statement) 2024") == \
        "apple capex on the cash flow statement 2024"
    assert without_sourcing("apple deferred revenue (current) fy24") == "apple deferred revenue (current) fy24"


def test_two_figures_of_a_formula_read_from_one_fact_are_never_added():
    from agent.retrieval.retrieve import _read_twice

    # AMD: "Current portion of long-term debt" tagged ShortTermBorrowings, read as two operands
    assert _read_twice([("long_term_debt", "f:1717"), ("current_debt", "f:751"), ("short_term_borrowings", "f:751")]) \
        == {"short_term_borrowings"}
    assert not _read_twice([("long_term_debt", "f:1717"), ("current_debt", "f:751"), ("short_term_borrowings", "f:9")])
    # one metric twice in a formula ("(revenue - cost) / revenue"), or an operand with no fact, is no double count
    assert not _read_twice([("revenue", "f:1"), ("revenue", "f:1"), ("cost", None), ("gross", None)])
    # one fact read at two offsets is two readings of it, keyed apart by the caller (registry formulas)
    assert not _read_twice([("revenue", ("f:1", 0)), ("cost", ("f:1", -1))])


def test_a_total_balance_is_never_answered_by_one_of_its_parts():
    # "intangible assets" is all of them: a company that tags only the finite-lived part (PepsiCo's
    # indefinite-lived brands are most of its intangibles) is refused, never given the part
    from agent.retrieval.concepts import METRICS
    assert not any("FiniteLived" in c or "IndefiniteLived" in c for c in METRICS["intangible_assets"].concepts)
