"""A figure the question names whole: a balance's growth, a growth over a loss, a row printed only on a
product member, an analyst's shorthand for a line, and a formula operand in the company's own words."""

from __future__ import annotations

import uuid
from decimal import Decimal

import pytest

from agent.answer import Turn
from agent.planning.companies import CompanyDirectory
from agent.planning.formula_trees import said_of
from agent.planning.inline_definitions import find_inline
from agent.planning.rules import plan_rules
from agent.retrieval.finance import NEGATIVE_BASE, negative_base_change
from agent.retrieval.row_members import member_row
from store.segments import _plain
from tests.test_companies import COVERED, SEC


@pytest.fixture(scope="module")
def directory() -> CompanyDirectory:
    return CompanyDirectory.from_rows(
        COVERED, SEC, {320193: [2023, 2024], 1045810: [2024, 2025], 104169: [2024, 2025], 1318605: [2023, 2024]}
    )


def plan(directory, text):
    return plan_rules(text, directory=directory)


def test_a_balance_asked_with_a_growth_word_is_its_growth_never_the_balance(directory):
    assert plan(directory, "apple accounts receivable growth fiscal 2024").metrics == ["accounts_receivable_growth"]
    # "how much did it grow": the change in dollars beside the rate, never the balance
    assert plan(directory, "how much did walmart's accounts payable grow in fiscal 2025?").metrics \
        == ["accounts_payable_change", "accounts_payable_growth"]
    assert plan(directory, "apple accounts receivable fiscal 2024").metrics == ["accounts_receivable"]


def test_ap_and_ar_beside_a_company_are_the_lines_not_tickers(directory):
    p = plan(directory, "WMT AP fy2025")
    assert p.tickers == ["WMT"] and p.metrics == ["accounts_payable"]
    p = plan(directory, "apple's AR at the end of fiscal 2024")
    assert p.tickers == ["AAPL"] and p.metrics == ["accounts_receivable"]


def test_long_lived_assets_are_their_own_figure_never_total_assets(directory):
    assert plan(directory, "apple long-lived assets fiscal 2024").metrics == ["long_lived_assets"]
    assert plan(directory, "apple total assets fiscal 2024").metrics == ["total_assets"]


def test_a_growth_over_a_negative_base_is_the_change_instead():
    assert negative_base_change("net_income_growth", [{"value": "-2222"}, {"value": "-4935"}]) == "net_income_change"
    assert negative_base_change("net_income_growth", [{"value": "210"}, {"value": "-374"}]) == "net_income_change"
    assert negative_base_change("net_income_growth", [{"value": "-2222"}, {"value": "4935"}]) is None
    assert negative_base_change("gross_margin", [{"value": "1"}, {"value": "-1"}]) is None
    assert "negative" in NEGATIVE_BASE


def test_a_formula_operand_named_as_the_company_prints_it_keeps_those_words(directory):
    from agent.retrieval.line_items import printed_order
    from agent.retrieval.retrieve import _phrases

    found = find_inline("operating income over net sales")
    assert found is not None and said_of(found[0]["tree"]) == {"revenue": "net sales"}
    found = find_inline("operating income over total revenue")
    assert found is not None and said_of(found[0]["tree"]) == {}
    said = _phrases(plan(directory, "walmart operating income to net sales fiscal 2025"))
    assert said.get("revenue") == "net sales"
    # a company printing both rows: the user's words pick "Net sales", never "Total revenues"
    index = {frozenset({"sale"}): {"us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"},
             frozenset({"revenue"}): {"us-gaap:Revenues"}}
    from agent.retrieval.concepts import METRICS
    assert printed_order(index, METRICS["revenue"].concepts, said["revenue"])[0] \
        == "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"


def _labels(*rows):
    return {("labels", 1): [{"label": label, "concept": concept, "statement": statement, "dims": dims,
                             "negated": False, "row": 0} for label, concept, statement, dims in rows]}


def test_a_row_printed_only_on_a_product_member_is_found_by_its_whole_name():
    product = {"srt:ProductOrServiceAxis": "us-gaap:ProductMember"}
    memo = _labels(
        ("Cost of services", "us-gaap:CostOfGoodsAndServicesSold", "income", {"srt:ProductOrServiceAxis": "us-gaap:ServiceMember"}),
        ("Service cost", "us-gaap:DefinedBenefitPlanServiceCost", "other", {"us-gaap:RetirementPlanTypeAxis": "x:PensionMember"}),
        ("Cost of equipment sold", "us-gaap:CostOfGoodsAndServicesSold", "income", product),
        ("Cost of equipment sold", "us-gaap:CostOfGoodsAndServicesSold", "other",
         {**product, "us-gaap:StatementBusinessSegmentsAxis": "x:AerospaceMember"}),
    )
    match, axis, member = member_row(None, memo, 1, "cost of services")
    assert match.concept == "us-gaap:CostOfGoodsAndServicesSold" and member == "us-gaap:ServiceMember"
    # "sold" the user wrote may be in the row's name; never required, never a different row
    match, axis, member = member_row(None, memo, 1, "cost of equipment", "sold")
    assert member == "us-gaap:ProductMember"
    assert member_row(None, memo, 1, "cost of wireless equipment") is None


def test_a_segment_marked_on_the_consolidated_entities_axis_is_the_segments_own_figure():
    assert _plain({"srt:ConsolidatedEntitiesAxis": "us-gaap:OperatingSegmentsMember",
                   "us-gaap:StatementBusinessSegmentsAxis": "intc:ClientComputingGroupMember"}) \
        == {"us-gaap:StatementBusinessSegmentsAxis": "intc:ClientComputingGroupMember"}


@pytest.fixture(scope="module")
def footnote(corpus_db, embedder):
    from bot.settings import Settings
    from bot.wiring import build_footnote

    return build_footnote(corpus_db, embedder, Settings(llm="off"), use_cache=False)


def ask(footnote, text):
    return footnote.answer(Turn(thread_key=f"test:{uuid.uuid4().hex}", user="u", text=text))


def test_a_balances_growth_is_computed_from_both_year_ends(footnote):
    answer = ask(footnote, "apple shares outstanding growth fiscal 2024")
    assert answer.kind == "answer" and "growth" in answer.text and "%" in answer.text, answer.text
    assert len({n.fiscal_year for n in answer.numbers if n.unit == "shares"}) == 2, answer.text


@pytest.fixture(scope="module")
def member_db(make_database):
    """A streaming company's revenue by region (each region tagged beside its one product), and a chip maker's
    segment tagged beside 'operating segments' on the consolidated-entities axis. Real figures, typed in."""
    from datetime import date

    from psycopg.types.json import Jsonb

    db = make_database()
    rows = [
        (1065280, "us-gaap:EMEAMember", "srt:StatementGeographicalAxis", "12387035000",
         {"srt:ProductOrServiceAxis": "nflx:StreamingMember", "srt:StatementGeographicalAxis": "us-gaap:EMEAMember"}),
        (1065280, "srt:LatinAmericaMember", "srt:StatementGeographicalAxis", "4839816000",
         {"srt:ProductOrServiceAxis": "nflx:StreamingMember", "srt:StatementGeographicalAxis": "srt:LatinAmericaMember"}),
        (50863, "intc:ClientComputingGroupMember", "us-gaap:StatementBusinessSegmentsAxis", "29258000000",
         {"srt:ConsolidatedEntitiesAxis": "us-gaap:OperatingSegmentsMember",
          "us-gaap:StatementBusinessSegmentsAxis": "intc:ClientComputingGroupMember"}),
        (50863, "x:ParentMember", "srt:ConsolidatedEntitiesAxis", "1",
         {"srt:ConsolidatedEntitiesAxis": "x:ParentMember", "us-gaap:StatementBusinessSegmentsAxis": "intc:OtherMember"}),
    ]
    with db.connection() as conn, conn.transaction():
        for cik, name in ((1065280, "NETFLIX INC"), (50863, "INTEL CORP")):
            conn.execute("INSERT INTO companies (cik, name, tickers) VALUES (%s, %s, %s)", (cik, name, []))
            conn.execute("INSERT INTO filings (accession, cik, form, fiscal_year, period_end, url, content_hash)"
                         " VALUES (%s, %s, '10-K', 2024, %s, 'https://www.sec.gov/x', 'x')",
                         (f"acc-{cik}", cik, date(2024, 12, 31)))
        for n, (cik, _, _, value, dims) in enumerate(rows):
            conn.execute(
                "INSERT INTO facts (cik, accession, taxonomy, concept, unit, value, period_start, period_end, fiscal_year,"
                " fy, fp, form, filed, source, fact_key, dimensional, dims) VALUES (%s, %s, 'us-gaap', 'Revenues', 'USD',"
                " %s, %s, %s, 2024, 2024, 'FY', '10-K', %s, 'ixbrl', %s, true, %s)",
                (cik, f"acc-{cik}", value, date(2024, 1, 1), date(2024, 12, 31), date(2025, 1, 30), f"k{n}", Jsonb(dims)))
    return db


def test_a_figure_named_by_both_members_of_a_two_axis_fact_is_that_fact(member_db):
    from agent.retrieval.segments import two_member_cell

    with member_db.connection() as conn:
        found = two_member_cell(conn, 1065280, ["us-gaap:Revenues"], 2024, False, "streaming emea", {}, frozenset())
        assert found is not None and found[0].value == Decimal("12387035000")
        # one word of a member and a word of nothing: no cell, never the nearest one
        assert two_member_cell(conn, 1065280, ["us-gaap:Revenues"], 2024, False, "streaming asia", {},
                               frozenset()) is None


def test_a_segment_marked_operating_on_the_consolidated_entities_axis_is_read_as_the_segment(member_db):
    from store.segments import member_values

    with member_db.connection() as conn:
        found = member_values(conn, 50863, ["us-gaap:Revenues"], 2024, instant=False)
    assert [(f.member, f.value) for f in found] == [("intc:ClientComputingGroupMember", Decimal("29258000000"))]


def test_the_noncurrent_part_printed_under_the_wholes_name_answers_with_the_whole(member_db):
    from datetime import date

    from psycopg.types.json import Jsonb

    from agent.retrieval.line_items import line_key
    from agent.retrieval.retrieve import _line_cell

    nike = 320187
    with member_db.connection() as conn, conn.transaction():
        conn.execute("INSERT INTO companies (cik, name, tickers) VALUES (%s, 'NIKE, Inc.', %s)", (nike, ["NKE"]))
        conn.execute("INSERT INTO filings (accession, cik, form, fiscal_year, period_end, url, content_hash)"
                     " VALUES ('acc-nke', %s, '10-K', 2024, %s, 'https://www.sec.gov/x', 'x')", (nike, date(2024, 5, 31)))
        for n, (concept, label, value) in enumerate([
                ("OperatingLeaseLiabilityCurrent", "Current portion of operating lease liabilities", "477000000"),
                ("OperatingLeaseLiabilityNoncurrent", "Operating lease liabilities", "2566000000"),
                ("OperatingLeaseLiability", "Present value of lease liabilities", "3043000000")]):
            conn.execute("INSERT INTO line_labels (accession, cik, taxonomy, concept, label, statement, table_no, row_no,"
                         " negated, dims) VALUES ('acc-nke', %s, 'us-gaap', %s, %s, %s, 1, %s, false, %s)",
                         (nike, concept, label, "other" if n == 2 else "balance", n, Jsonb({})))
            conn.execute(
                "INSERT INTO facts (cik, accession, taxonomy, concept, unit, value, period_end, fiscal_year, fy, fp, form,"
                " filed, source, fact_key) VALUES (%s, 'acc-nke', 'us-gaap', %s, 'USD', %s, %s, 2024, 2024, 'FY', '10-K',"
                " %s, 'ixbrl', %s)", (nike, concept, value, date(2024, 5, 31), date(2024, 7, 25), f"nke{n}"))
    company = {"cik": nike, "ticker": "NKE", "name": "NIKE, Inc."}
    with member_db.connection() as conn:
        cell: dict = {}
        ev = _line_cell(conn, None, company, line_key("operating lease liabilities"), 2024, cell, {})
        assert ev is not None and Decimal(ev.value) == Decimal("3043000000") and "noncurrent" in cell["label"]
        cell = {}
        ev = _line_cell(conn, None, company, line_key("noncurrent operating lease liabilities"), 2024, cell, {})
        assert ev is None or Decimal(ev.value) == Decimal("2566000000")
        ev = _line_cell(conn, None, company, line_key("current portion of operating lease liabilities"), 2024, {}, {})
        assert ev is not None and Decimal(ev.value) == Decimal("477000000")


def test_a_companys_own_concept_name_is_no_standard_label_to_match():
    from agent.retrieval.line_items import resolve

    labels = [{"label": "In-process research and development impairments", "concept": "jnj:ResearchAndDevelopmentInProcess1",
               "statement": "income", "dims": {}, "negated": False, "row": 3}]
    concepts = [("jnj:ResearchAndDevelopmentInProcess1", "duration"), ("us-gaap:PaymentsOfDividends", "duration")]
    match, _ = resolve("in process research and development", "in process research and development", labels, concepts)
    assert match is None  # the impairments row is another figure; the extension's name says nothing
    match, _ = resolve("payments of dividends", "payments of dividends", labels, concepts)
    assert match is not None and match.concept == "us-gaap:PaymentsOfDividends"  # the taxonomy's name still answers


def test_promotional_spend_is_marketing_in_a_lines_name():
    from agent.retrieval.line_items import resolve

    concepts = [("us-gaap:MarketingAndAdvertisingExpense", "duration")]
    match, _ = resolve("advertising promotional expenses", "advertising and promotional expenses", [], concepts)
    assert match is not None and match.concept == "us-gaap:MarketingAndAdvertisingExpense"


def test_a_member_named_by_part_of_its_name_holds_no_word_the_question_did_not_say():
    from agent.retrieval.retrieve import _said_whole

    search = {"goog:GoogleSearchOtherMember": {"Google Search & other"}}
    assert _said_whole("goog:GoogleSearchOtherMember", search, "search", "google search revenue 2024", frozenset())
    youtube = {"goog:YouTubeAdvertisingRevenueMember": {"YouTube ads"}}
    assert not _said_whole("goog:YouTubeAdvertisingRevenueMember", youtube, "youtube", "youtube revenue 2024",
                           frozenset())  # the ads are a part of YouTube's revenue, never all of it
