"""A formula keeps what the question says around it: its course over years, the member it is of, the company a
comparison shows it for, and the thread it is a reply in.

Each case here was answered with something else before: the formula's operands instead of its trend, the
company's total for a member's figure, headline figures beside the formula, or a reply's other figure alone.
"""

from __future__ import annotations

import uuid
from decimal import Decimal

import pytest

from agent.answer import Turn
from agent.memory.remember import remember
from agent.planning.companies import CompanyDirectory
from agent.planning.formula_parse import parse_expression
from agent.planning.operand_rows import INLINE
from agent.planning.rules import plan_rules
from agent.retrieval.concepts import PHRASES, find_phrases
from agent.retrieval.finance import FORMULAS, MEASURE_PHRASES
from bot.settings import Settings
from bot.wiring import build_footnote
from tests.test_companies import COVERED, SEC


@pytest.fixture(scope="module")
def directory() -> CompanyDirectory:
    return CompanyDirectory.from_rows(
        COVERED, SEC, {320193: [2023, 2024], 1045810: [2024, 2025], 104169: [2024, 2025], 1318605: [2023, 2024]})


def _plan(directory, text, previous=None):
    return plan_rules(text, previous=previous, directory=directory)


def _tree(plan) -> dict:
    name = plan.metrics[0][4:]
    return next(d["tree"] for d in plan.definitions if d["name"] == name)


@pytest.mark.parametrize("text, years, offsets", [
    ("nvidia r&d over gross profit fy2023-fy2025 trend", [2023, 2024, 2025], []),
    ("how has tesla's capex / revenue changed over 2022-2024?", [2022, 2023, 2024], []),
    ("r&d over gross profit trend for nvidia", [], [-2, -1, 0]),
    ("KO net income over revenue over the last three years", [], [-2, -1, 0]),
])
def test_a_formula_asked_over_years_is_the_formula_s_trend_never_its_operands(directory, text, years, offsets):
    p = _plan(directory, text)
    assert p.intent == "trend" and len(p.metrics) == 1 and p.metrics[0].startswith("udf:")
    assert p.fiscal_years == years and p.year_offsets == offsets


def test_over_a_year_is_no_division(directory):
    p = _plan(directory, "apple net income over 2023")
    assert p.metrics == ["net_income"] and p.fiscal_years == [2023]


def test_a_registry_ratio_by_segment_is_that_ratio_within_each_member(directory):
    p = _plan(directory, "nvidia operating margin by segment fy2025")
    assert p.metrics == ["udf:operating margin by segment"]
    assert _tree(p) == {"op": "/", "args": [{"metric": "operating_income", "member": "*segment"},
                                            {"metric": "revenue", "member": "*segment"}]}
    # named for one member, it stays that member's
    assert _tree(_plan(directory, "nvidia graphics operating margin fy2025"))["args"][0]["member"] == "graphics"


def test_a_comparison_of_a_formula_shows_no_headline_figures_it_did_not_ask(directory):
    p = _plan(directory, "compare r&d over gross profit for apple and nvidia 2024")
    assert p.intent == "compare" and p.metrics == ["udf:r&d over gross profit"]
    # the headline figures said in the message are still asked
    said = _plan(directory, "compare revenue and net income for apple and nvidia 2024")
    assert said.metrics == ["revenue", "net_income"]


@pytest.mark.parametrize("said, metric, member", [
    ("operating income of graphics", "operating_income", "graphics"),
    ("revenue from the data center segment", "revenue", "data center"),
    ("net sales in greater china", "revenue", "greater china"),
])
def test_a_metric_said_before_its_member_is_that_member_s_figure(said, metric, member):
    assert parse_expression(f"{said} over revenue", members=INLINE)["args"][0] == {"metric": metric, "member": member}


@pytest.mark.parametrize("said", ["operating income of the company", "revenue in millions",
                                  "operating income from continuing operations"])
def test_words_after_of_that_name_no_member_are_no_member(said):
    tree = None
    try:
        tree = parse_expression(f"{said} over revenue", members=INLINE)
    except Exception:
        pass
    assert tree is None or "member" not in str(tree)


def test_a_member_taken_out_of_the_company_s_figure(directory):
    assert parse_expression("operating income excluding graphics", members=INLINE) == {
        "op": "-", "args": [{"metric": "operating_income"}, {"metric": "operating_income", "member": "graphics"}]}
    # never the company's total alone (the case moved here from test_figures: it is now computed)
    p = _plan(directory, "Apple revenue excluding services 2024")
    assert "revenue" not in p.metrics and _tree(p) == {
        "op": "-", "args": [{"metric": "revenue"}, {"metric": "revenue", "member": "services"}]}


@pytest.mark.parametrize("text, tree", [
    ("For every dollar of revenue, how much net income did Apple make in FY2024?",
     {"op": "/", "args": [{"metric": "net_income"}, {"metric": "revenue"}]}),
    ("what fraction of nvidia's total assets is goodwill fy2025",
     {"op": "/", "args": [{"metric": "goodwill"}, {"metric": "total_assets"}], "percent": True}),
    ("Take Walmart's operating income, subtract interest expense, and divide by revenue (FY2025)",
     {"op": "/", "args": [{"op": "-", "args": [{"metric": "operating_income"}, {"metric": "interest_expense"}]},
                          {"metric": "revenue"}]}),
])
def test_formulas_said_as_steps_and_shares_in_words(directory, text, tree):
    p = _plan(directory, text)
    assert p.route == "domain" and len(p.tickers) == 1 and p.fiscal_years
    assert _tree(p) == tree
    assert "( )" not in p.metrics[0]


def test_a_reply_puts_the_thread_s_formula_into_another(directory):
    first = _plan(directory, "nvidia fy2025 gross profit less operating expenses")
    share = _plan(directory, "as a % of revenue?", previous=first)
    assert share.tickers == ["NVDA"] and share.fiscal_years == [2025]
    assert _tree(share) == {"op": "/", "args": [_tree(first), {"metric": "revenue"}]}
    over = _plan(directory, "and capex over that?", previous=first)
    assert _tree(over) == {"op": "/", "args": [{"metric": "capex"}, _tree(first)]}
    # a ratio's share of revenue is no figure: never the ratio divided by dollars
    ratio = _plan(directory, "tesla r&d over capex 2024")
    assert "as a % of revenue" not in " ".join(_plan(directory, "as a % of revenue?", previous=ratio).metrics)


def test_another_figure_over_the_thread_s_figure(directory):
    first = _plan(directory, "walmart fy2025 revenue")
    p = _plan(directory, "and operating income over that?", previous=first)
    assert p.tickers == ["WMT"] and _tree(p) == {"op": "/", "args": [{"metric": "operating_income"}, {"metric": "revenue"}]}


def test_a_definition_is_asked_again_of_a_company_by_pronoun(directory):
    defined = _plan(directory, "define cash cover as cash and cash equivalents divided by capex")
    p = _plan(directory, "compute it for Tesla 2024", previous=defined)
    assert p.tickers == ["TSLA"] and p.fiscal_years == [2024] and p.metrics == ["udf:cash cover"]


def test_a_definition_said_before_any_company_is_remembered():
    defined = {"route": "meta", "intent": "meta", "metrics": ["udf:cash cover"],
               "definitions": [{"name": "cash cover", "tree": {"op": "/", "args": [{"metric": "cash"}, {"metric": "capex"}]},
                                "unit": "ratio", "formula": "Cash and cash equivalents ÷ Capital expenditures"}]}
    # nothing remembered yet: the definition's plan is the thread's
    assert remember({"plan": defined, "memory": None, "question": "define ..."}, None, None)["memory"]["plan"] == defined
    # after a figure: the figure stays, the definition beside it
    before = {"plan": {"route": "domain", "intent": "numeric", "tickers": ["AAPL"], "metrics": ["revenue"]}}
    kept = remember({"plan": defined, "memory": before}, None, None)["memory"]["plan"]
    assert kept["metrics"] == ["revenue"] and [d["name"] for d in kept["definitions"]] == ["cash cover"]


def test_net_cash_is_a_formula_never_the_start_of_a_cash_flow_line():
    assert [k for *_, k in find_phrases("google net cash 2024", MEASURE_PHRASES)] == ["net_cash"]
    assert "net_cash" not in [k for *_, k in find_phrases("apple net cash flow 2024", MEASURE_PHRASES)]
    assert [k for *_, k in find_phrases("net cash provided by operating activities", PHRASES)] == ["operating_cash_flow"]
    net_cash = FORMULAS["net_cash"]  # cash less total debt: long-term debt, current and noncurrent, then cash
    assert [i.metric for i in net_cash.inputs] == ["long_term_debt", "ltd_maturities_current", "cash"]
    assert net_cash.compute([Decimal(4), Decimal(1), Decimal(10)]) == Decimal(5)


def test_ebitda_without_operating_income_is_taken_from_income_before_taxes():
    for key in ("ebitda_depreciation", "ebitda_margin_depreciation", "ebitda_interest_coverage_depreciation"):
        assert FORMULAS[FORMULAS[key].fallback].inputs[0].metric == "pretax_income"
    assert FORMULAS["ebitda_pretax"].compute([Decimal(100), Decimal(5), Decimal(20)]) == Decimal(125)
    assert FORMULAS["debt_to_ebitda_depreciation_long_term_only"].fallback == "debt_to_ebitda_pretax"


def test_a_thread_s_formula_follows_the_reply_and_a_definition_the_next_turn(corpus_db, embedder):
    footnote = build_footnote(corpus_db, embedder, Settings(llm="off"), use_cache=False)
    thread = f"slack:T1:C1:{uuid.uuid4().hex}"

    def ask(text):
        return footnote.answer(Turn(thread_key=thread, user="u", text=text))

    ask("define cash left as operating cash flow minus capex")
    cover = ask("compute it for Apple fiscal 2024")
    assert cover.kind == "answer" and cover.calculation and "Capital expenditures" in cover.calculation[0].formula
    share = ask("as a % of revenue?")
    assert share.kind == "answer" and "Revenue" in share.calculation[0].formula
    assert share.calculation[0].result.endswith("%")


def test_a_metric_as_a_share_of_a_printed_line_is_the_metric_over_that_line(directory):
    # the part named first, the whole after "share of": never the line read as a member of the metric (inverted)
    p = _plan(directory, "meta research and development as a share of costs and expenses 2024")
    assert _tree(p) == {"op": "/", "args": [{"metric": "rd"}, {"line": "costs and expenses"}]}
    # a member named first is still that member's share
    member = _plan(directory, "what share of revenue came from data center for nvidia fy2025")
    assert _tree(member)["args"][1] == {"metric": "revenue"}


def test_a_year_after_a_definition_is_the_question_s(directory):
    p = _plan(directory, "apple total shareholder return = dividends plus repurchases, fy2024")
    assert p.fiscal_years == [2024] and p.metrics == ["udf:total shareholder return"]


def test_an_operator_word_is_never_respelled_as_a_name(directory):
    p = _plan(directory, "tesla cash divided by capex 2024")
    assert p.metrics == ["udf:cash divided by capex"]


def test_two_amounts_joined_by_and_are_their_sum():
    tree = parse_expression("dividends and buybacks over net income", members=INLINE)
    assert tree == {"op": "/", "args": [{"op": "+", "args": [{"metric": "dividends_paid"}, {"metric": "buybacks"}]},
                                        {"metric": "net_income"}]}
    # one figure's own name keeps its "and"
    assert parse_expression("research and development over revenue", members=INLINE)["args"][0] == {"metric": "rd"}
