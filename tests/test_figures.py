"""Figures analysts ask for, and never a different one: word accounting, line items by their printed
labels, user-defined formulas, segment members, and the label refresh for an ingested corpus."""

from __future__ import annotations

import uuid
from decimal import Decimal

import pytest

from agent.answer import Turn
from agent.companies import CompanyDirectory
from agent.finance import Operand, calculate
from agent.guards import number_tokens
from agent.line_items import resolve, tokens
from agent.plan_rules import plan_rules
from ingest.line_items import parse_line_items
from tests.conftest import FIXTURES, SEC_FIXTURES
from tests.test_companies import COVERED, SEC

ROWS = (FIXTURES / "figures" / "statement-rows.htm").read_text()


@pytest.fixture(scope="module")
def directory() -> CompanyDirectory:
    return CompanyDirectory.from_rows(
        COVERED, SEC, {320193: [2023, 2024], 1045810: [2024, 2025], 104169: [2024, 2025], 1318605: [2023, 2024]}
    )


def plan(directory, text, previous=None):
    return plan_rules(text, previous=previous, directory=directory)


# --- statement rows at ingest ---------------------------------------------------------------


def test_statement_rows_keep_the_printed_label_statement_sign_and_member():
    items = {(i.label, i.concept): i for i in parse_line_items(ROWS)}
    assert items[("Marketing", "MarketingExpense")].statement == "income"  # label after an empty first cell
    assert items[("Total assets", "Assets")].statement == "balance"
    financing = items[("Net cash used in financing activities", "NetCashProvidedByUsedInFinancingActivities")]
    assert financing.statement == "cash" and financing.negated
    gizmos = items[("Gizmos & Widgets", "Revenues")]
    assert gizmos.dims == {"srt:ProductOrServiceAxis": "gadg:GizmosAndWidgetsMember"}
    assert [i.row_no for i in parse_line_items(ROWS) if i.table_no == 0] == [0, 1, 2, 3, 4, 5]


def _labels():
    return [{"label": i.label, "concept": f"{i.taxonomy}:{i.concept}", "statement": i.statement, "dims": i.dims}
            for i in parse_line_items(ROWS)]


@pytest.mark.parametrize(
    "leftover, question, concept",
    [
        ("financing", "cash provided by financing", "us-gaap:NetCashProvidedByUsedInFinancingActivities"),
        ("financing activities use", "cash financing activities use", "us-gaap:NetCashProvidedByUsedInFinancingActivities"),
        ("marketing expense", "marketing expense", "us-gaap:MarketingExpense"),  # never "Sales and marketing"
        ("sales and marketing", "sales and marketing", "us-gaap:SellingAndMarketingExpense"),
        ("provision for income taxes", "provision for income taxes", "us-gaap:IncomeTaxExpenseBenefit"),
        ("repurchase of common stock", "payments for repurchase of common stock",
         "us-gaap:PaymentsForRepurchaseOfCommonStock"),  # a standard label: the concept name in words
        ("units shipped", "units shipped", None),
        ("gizmos", "gizmos revenue", None),  # a member is not a line item
    ],
)
def test_a_phrase_resolves_to_a_printed_label_or_a_standard_label_only_when_near_exact(leftover, question, concept):
    concepts = [("us-gaap:PaymentsForRepurchaseOfCommonStock", "duration"), ("us-gaap:Revenues", "duration")]
    match, _ = resolve(leftover, question, _labels(), concepts)
    assert (match.concept if match else None) == concept


def test_two_lines_that_fit_equally_are_a_question_back():
    labels = [{"label": "Other income, net", "concept": "us-gaap:OtherNonoperatingIncomeExpense", "statement": "income",
               "dims": {}},
              {"label": "Other income", "concept": "us-gaap:NonoperatingIncomeExpense", "statement": "income", "dims": {}}]
    match, candidates = resolve("other income", "other income", labels, [])
    assert match is None and len(candidates) == 2


def test_label_tokens_fold_plurals_and_cash_flow_wording():
    assert tokens("Net cash used in investing activities") == tokens("cash provided by investing")
    assert tokens("Inventories") == tokens("inventory")
    # "cash flow from financing activities" is how people name the cash-flow statement's lines
    assert tokens("Net cash provided by (used in) financing activities") == tokens("cash flow from financing activities")
    assert tokens("Cash flow hedges") != tokens("cash")


# --- never a different question -------------------------------------------------------------


@pytest.mark.parametrize(
    "question, forbidden",
    [
        ("How much cash did Apple's financing activities use in fiscal 2024?", "cash"),
        ("Walmart net sales per square foot in fiscal 2024", "revenue"),
        ("Apple revenue excluding services 2024", "revenue"),
        ("Apple short-term debt 2024", "long_term_debt"),
        ("Apple cash at the beginning of fiscal 2024", "cash"),
        ("Tesla cash from investing 2024", "cash"),
    ],
)
def test_a_metric_inside_a_longer_phrase_is_never_answered_on_its_own(directory, question, forbidden):
    p = plan(directory, question)
    assert forbidden not in p.metrics, p.metrics
    assert p.route == "refusal" or any(m.startswith(("line:", "dim:")) for m in p.metrics), p


@pytest.mark.parametrize(
    "question",
    [
        "Apple revenue in the three months ended December 30, 2023",
        "Tesla first-half 2024 net income",
        "Nvidia net income year to date fiscal 2025",
        "Walmart revenue for the six months ended July 31, 2024",
        "what was apple's revenue last quarter",
    ],
)
def test_quarterly_periods_are_refused_not_answered_with_a_year(directory, question):
    p = plan(directory, question)
    assert p.route == "refusal" and p.refusal_reason == "out_of_scope"
    assert "quarter" in p.refusal_detail


def test_every_word_of_a_plain_question_is_accounted_for_in_the_trace(directory):
    p = plan(directory, "What was Apple's total revenue in fiscal 2024?")
    assert p.metrics == ["revenue"]
    kinds = {w["word"]: w["as"] for w in p.words}
    assert kinds["revenue"] == "metric:revenue" and kinds["2024"] == "period"
    assert "unaccounted" not in kinds.values()


# --- formulas --------------------------------------------------------------------------------


def _ops(*values):
    return [Operand(Decimal(v), "USD", 2024, i + 1) for i, v in enumerate(values)]


@pytest.mark.parametrize(
    "key, values, shown",
    [
        ("roe", ("100", "400", "600"), "20.0%"),  # on average equity
        ("inventory_turnover", ("900", "100", "200"), "6.00"),  # on average inventories
        ("dso", ("50", "365"), "50.0 days"),
        ("net_debt", ("800", "200", "300"), "$700"),
        ("quick_ratio", ("500", "100", "200"), "2.00"),
        ("interest_coverage", ("300", "20"), "15.00"),
        ("dividend_payout", ("60", "240"), "25.0%"),
    ],
)
def test_analyst_ratios_compute_in_decimal_with_their_convention_in_the_trace(key, values, shown):
    result = calculate(key, _ops(*values))
    assert result.display == shown
    assert result.calculation.result == shown and result.calculation.formula  # the convention is in the formula shown


def test_a_users_formula_is_parsed_remembered_and_reused_by_name(directory):
    p = plan(directory, "define adjusted margin as operating income plus stock-based compensation over revenue; "
                        "what was it for Apple in fiscal 2024?")
    assert p.metrics == ["udf:adjusted margin"] and p.tickers == ["AAPL"] and p.fiscal_years == [2024]
    assert p.definitions[0]["formula"] == "(Operating income + Share-based compensation expense) ÷ Revenue"
    later = plan(directory, "what is adjusted margin for Nvidia in fiscal 2025?", previous=p)
    assert later.metrics == ["udf:adjusted margin"] and later.tickers == ["NVDA"]
    bad = plan(directory, "define fancy margin as operating income plus widgets over revenue for Apple 2024")
    assert bad.refusal_reason == "unknown_metric" and "widgets" in bad.refusal_detail


# --- segments --------------------------------------------------------------------------------


def test_a_narrowed_metric_becomes_a_member_lookup_and_a_negation_is_refused(directory):
    assert plan(directory, "Nvidia data center revenue fiscal 2025").metrics == ["dim:revenue|data center"]
    assert plan(directory, "Apple revenue by segment fiscal 2024").metrics == ["dim:revenue|*segment"]
    assert plan(directory, "Apple revenue outside the US in 2024").refusal_reason == "unknown_metric"


# --- through the graph, on the fixture corpus -------------------------------------------------


@pytest.fixture(scope="module")
def footnote(corpus_db, embedder):
    from bot.wiring import build_footnote
    from bot.settings import Settings

    return build_footnote(corpus_db, embedder, Settings(llm="off"), use_cache=False)


def ask(footnote, text, thread=None):
    return footnote.answer(Turn(thread_key=thread or f"test:{uuid.uuid4().hex}", user="u", text=text))


def test_a_line_item_is_answered_under_its_printed_label(footnote):
    answer = ask(footnote, "Apple other income/(expense), net in fiscal 2024")
    assert answer.kind == "answer", answer.text
    assert "reported as “Other income/(expense), net”" in answer.text
    assert answer.citations[0].concept == "us-gaap:NonoperatingIncomeExpense"
    assert "$269.00 million" in answer.text


def test_an_unlisted_line_is_refused_never_answered_with_a_look_alike(footnote):
    answer = ask(footnote, "How much cash did Apple's financing activities use in fiscal 2024?")
    assert answer.kind == "refusal" and answer.refusal_reason == "unknown_metric", answer.text
    assert not answer.numbers and number_tokens(answer.text) == []


def test_a_member_figure_cites_its_dimensional_fact_and_an_unknown_member_lists_the_others(footnote):
    answer = ask(footnote, "What was Apple's iPhone revenue in fiscal 2024?")
    assert answer.kind == "answer" and "$201.18 billion" in answer.text, answer.text
    assert answer.numbers[0].value == "201183000000"
    refused = ask(footnote, "Apple wearables revenue fiscal 2024")
    assert refused.refusal_reason == "unknown_metric" and "iPhone" in refused.text


def test_a_users_formula_is_computed_and_restated(footnote):
    answer = ask(footnote, "Define cash margin as operating cash flow minus capex over revenue. "
                           "What was it for Apple in fiscal 2024?")
    assert answer.kind == "answer", answer.text
    assert "defined as (Operating cash flow − Capital expenditures) ÷ Revenue" in answer.text
    assert answer.calculation and answer.calculation[0].result == "27.8%"


def test_a_formula_without_an_input_names_what_is_missing(footnote):
    answer = ask(footnote, "Apple quick ratio fiscal 2024")
    assert answer.kind == "refusal" and "inventories" in answer.text, answer.text


# --- upgrading an ingested corpus -------------------------------------------------------------


@pytest.mark.slow
def test_labels_refresh_without_re_embedding(make_database, embedder):
    from ingest.pipeline import ingest_folder
    from ingest.refresh_labels import refresh_labels

    db = make_database()
    ingest_folder(db, embedder, SEC_FIXTURES, tickers=["TSLA"], progress=False)
    with db.connection() as conn:
        before = conn.execute("SELECT count(*) FROM line_labels").fetchone()[0]
        chunks = conn.execute("SELECT array_agg(id ORDER BY id) FROM chunks").fetchone()[0]
        conn.execute("DELETE FROM line_labels")  # a corpus ingested before labels were indexed
    version = db.corpus_version()
    summary = refresh_labels(db, SEC_FIXTURES, tickers=["TSLA"], progress=False)
    with db.connection() as conn:
        after = conn.execute("SELECT count(*) FROM line_labels").fetchone()[0]
        same_chunks = conn.execute("SELECT array_agg(id ORDER BY id) FROM chunks").fetchone()[0]
    assert before > 0 and after == before and summary.filings == 2 and summary.rows == before
    assert same_chunks == chunks  # nothing re-embedded or re-written
    assert db.corpus_version() != version  # cached answers predate the labels


# --- years, dates and directions ---------------------------------------------------------------


def test_a_direction_shows_the_three_years_up_to_the_one_asked(directory):
    p = plan(directory, "Is Tesla's operating margin improving as of 2024?")
    assert p.intent == "trend" and p.fiscal_years == [2022, 2023, 2024] and p.metrics == ["operating_margin"]


def test_marketing_and_sales_is_one_label_but_revenue_and_marketing_are_two_asks(directory):
    assert plan(directory, "Tesla marketing and sales expense 2024").metrics == [
        "line:marketing expense|marketing sales expense|marketing and sales expense"]
    assert plan(directory, "Tesla revenue and marketing expense 2024").metrics[0] == "revenue"


def test_a_date_off_the_fiscal_year_end_is_a_quarter_and_refused(footnote):
    refused = ask(footnote, "Walmart total assets as of April 30, 2024")
    assert refused.refusal_reason == "out_of_scope" and "quarters" in refused.text
    answered = ask(footnote, "walmart's total assets as of jan 31 2024")
    assert answered.kind == "answer" and "$252.40 billion" in answered.text


def test_a_year_held_only_as_a_later_10_ks_comparative_says_so(footnote):
    answer = ask(footnote, "Apple revenue fiscal 2022")
    assert answer.kind == "answer" and "fiscal 2024 10-K's prior-year figures" in answer.text, answer.text


def test_prose_about_a_year_without_its_own_10_k_quotes_the_next_one(footnote):
    answer = ask(footnote, "What did Tesla's 10-K say about risk factors in fiscal 2022?")
    assert answer.kind == "answer", answer.text
    assert all(c.fiscal_year == 2023 for c in answer.citations)
    assert "fiscal 2023 10-K" in answer.text


def test_a_line_phrase_no_label_names_is_tried_as_a_member(footnote):
    answer = ask(footnote, "What was Apple's revenue of the iPhone line in fiscal 2024?")
    assert answer.kind == "refusal" or "$201.18 billion" in answer.text, answer.text  # "line" is no member word
    answer = ask(footnote, "What was Apple's revenue of the iPhone in fiscal 2024?")
    assert answer.kind == "answer" and "$201.18 billion" in answer.text, answer.text


def test_a_statement_prints_its_rows_in_order_every_cell_cited(corpus_db):
    from bot.statement_cli import render

    with corpus_db.connection() as conn:
        text = render(conn, "AAPL", 2024, "income")
    lines = text.splitlines()
    sales = next(i for i, line in enumerate(lines) if line.startswith("Total net sales"))
    income = next(i for i, line in enumerate(lines) if line.startswith("Net income"))
    assert sales < income and "$391.04 billion [" in lines[sales]
    assert "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax" in text


def test_a_follow_up_naming_something_new_asks_for_it_alone(directory):
    first = plan(directory, "Apple iPhone revenue 2024")
    assert plan(directory, "and Mac?", previous=first).metrics == ["dim:revenue|mac"]
    assert plan(directory, "and 2023?", previous=first).metrics == ["dim:revenue|iphone"]
    other = plan(directory, "Apple revenue and marketing expense 2024")
    later = plan(directory, "and what about selling expense?", previous=other)
    assert later.metrics == ["line:selling expense|selling expense|selling expense"]
