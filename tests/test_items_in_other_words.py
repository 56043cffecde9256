"""Line items, members and trends asked in words the filing does not print: the asker's framing, analysts'
abbreviations, a region the table names in its own word, a member's initials, a row printed under a member with
the phrase's whole words, a growth word on a balance, and a several-year prose ask whose first year only a later
10-K's comparatives report."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from agent.planning.companies import CompanyDirectory
from agent.planning.rules import plan_rules
from agent.planning.scope import names_kept
from agent.retrieval.line_items import line_parts, resolve
from agent.retrieval.row_members import row_on_member
from agent.retrieval.segments import find_member
from store.labels import replace_labels
from tests.test_companies import COVERED, SEC
from tests.test_facts import company, fact, filing

REVENUE_WORDS = frozenset({"revenue", "sale", "sales", "revenues"})


@pytest.fixture(scope="module")
def directory() -> CompanyDirectory:
    return CompanyDirectory.from_rows(
        COVERED, SEC, {320193: [2023, 2024], 1045810: [2024, 2025], 104169: [2024, 2025], 1318605: [2023, 2024]}
    )


def _row(label, concept, statement="cash"):
    return {"label": label, "concept": concept, "statement": statement, "dims": {}}


def test_the_askers_framing_is_no_word_of_the_lines_name(directory):
    """"I'm looking at Apple", "say whether it is rising", "the line '...'": never words a row must print."""
    p = plan_rules("I'm looking at Apple - can you tell me the accounts payable number for 2024?", directory=directory)
    assert p.metrics == ["accounts_payable"]
    p = plan_rules("From Apple's FY2024 10-K, what is the line 'Payments for repurchase of common stock'?",
                   directory=directory)
    assert len(p.metrics) == 1 and line_parts(p.metrics[0])[2] == "payments for repurchase of common stock"
    p = plan_rules("Tesla R&D trend last 3 yrs", directory=directory)
    assert p.intent == "trend" and p.metrics == ["rd"]


def test_a_growth_word_on_a_balance_asks_its_growth(directory):
    p = plan_rules("Apple goodwill growth 2024", directory=directory)
    assert p.metrics == ["goodwill_growth"]
    assert plan_rules("Apple goodwill 2024", directory=directory).metrics == ["goodwill"]


def test_a_figure_asked_in_a_unit_is_a_figure_not_a_passage_search(directory):
    p = plan_rules("Pull Apple's cost of automotive leasing for FY2024. USD millions, from the 10-K please.",
                   directory=directory)
    assert p.intent == "numeric" and p.metrics and p.metrics[0].startswith("line:")
    assert plan_rules("what does Apple say about its supply chain?", directory=directory).intent == "qualitative"


def test_analysts_abbreviations_name_the_cash_flow_sections():
    labels = [_row("Net cash used in investing activities", "us-gaap:NetCashProvidedByUsedInInvestingActivities"),
              _row("Net cash used in financing activities", "us-gaap:NetCashProvidedByUsedInFinancingActivities")]
    match, _ = resolve("cfi", "cfi", labels, [])
    assert match is not None and match.concept == labels[0]["concept"]
    match, _ = resolve("cff", "cff", labels, [])
    assert match is not None and match.concept == labels[1]["concept"]
    match, _ = resolve("ad", "ad", [], [("us-gaap:AdvertisingExpense", "duration")])
    assert match is not None and match.concept == "us-gaap:AdvertisingExpense"


def test_a_quoted_row_name_of_several_words_is_read_as_words():
    kept = names_kept("what is the line 'Issuance of common stock from stock plans' for Nvidia?")
    assert "Issuance of common stock from stock plans" in kept
    # a quoted sentence is still left out
    assert "we" not in names_kept('Nvidia: "we expect demand to remain strong through the next several quarters of the year"').split()


GEO = "srt:StatementGeographicalAxis"
PRODUCT = "srt:ProductOrServiceAxis"


def test_a_label_printed_beside_one_member_alone_is_its_name():
    """Visa prints "International" beside us-gaap:NonUsMember: "international revenue" is that member, not the
    partial match "International transaction revenue"."""
    members = [(GEO, "country:US"), (GEO, "us-gaap:NonUsMember"), (PRODUCT, "v:InternationalTransactionRevenuesMember")]
    labels = {"country:US": {"U.S.", "Net revenue"}, "us-gaap:NonUsMember": {"International", "Net revenue"},
              "v:InternationalTransactionRevenuesMember": {"International transaction revenue"}}
    found, exact = find_member("international", members, labels, metric_words=REVENUE_WORDS)
    assert exact and found == [(GEO, "us-gaap:NonUsMember")]
    # a label printed beside several members ("Net revenue") names none of them
    found, exact = find_member("net", members, labels, metric_words=REVENUE_WORDS)
    assert not exact


def test_a_label_holding_another_figures_word_is_no_members_name():
    """"Cost of automotive revenues" beside tsla:AutomotiveRevenuesMember: asked "cost of automotive revenues" with
    revenue the metric, that member's revenue is another figure."""
    members = [(PRODUCT, "tsla:AutomotiveRevenuesMember"), (PRODUCT, "tsla:EnergyGenerationAndStorageMember")]
    labels = {"tsla:AutomotiveRevenuesMember": {"Total automotive revenues", "Cost of automotive revenues"}}
    found, exact = find_member("cost automotive", members, labels, metric_words=REVENUE_WORDS)
    assert not exact
    found, exact = find_member("automotive", members, labels, metric_words=REVENUE_WORDS)
    assert exact and found == [(PRODUCT, "tsla:AutomotiveRevenuesMember")]


def test_initials_with_an_ampersand_name_the_member():
    members = [("us-gaap:StatementBusinessSegmentsAxis", "rtx:PrattAndWhitneyMember"),
               ("us-gaap:StatementBusinessSegmentsAxis", "rtx:CollinsAerospaceSystemsMember")]
    labels = {"rtx:PrattAndWhitneyMember": {"Pratt & Whitney"}}
    found, exact = find_member("p&w", members, labels, metric_words=REVENUE_WORDS)
    assert exact and found == [members[0]]


def test_a_row_printed_under_a_member_with_the_whole_phrase_answers_before_a_split(db):
    """Tesla's "Total automotive cost of revenues" (CostOfRevenue on the automotive revenues member), never the
    Automotive segment's cost of revenues that "cost of revenues" + "automotive" would find."""
    cik, acc = 1318605, "tsla-23"
    with db.connection() as conn:
        company(conn, cik, "Tesla, Inc.", ["TSLA"], "1231")
        filing(conn, cik, acc, 2023, date(2023, 12, 31))
        start = date(2023, 1, 1)
        fact(conn, cik, acc, "CostOfRevenue", "79113000000", date(2023, 12, 31), start=start, fiscal_year=2023)
        fact(conn, cik, acc, "CostOfRevenue", "66389000000", date(2023, 12, 31), start=start, fiscal_year=2023,
             dims={PRODUCT: "tsla:AutomotiveRevenuesMember"})
        fact(conn, cik, acc, "CostOfRevenue", "74219000000", date(2023, 12, 31), start=start, fiscal_year=2023,
             dims={"us-gaap:StatementBusinessSegmentsAxis": "tsla:AutomotiveSegmentMember"})

        class Row:
            def __init__(self, label, concept, row, dims=None, statement="income"):
                self.taxonomy, self.concept, self.label, self.statement = "us-gaap", concept, label, statement
                self.table_no, self.row_no, self.negated, self.dims = 1, row, False, dims or {}
        replace_labels(conn, acc, cik, [
            Row("Total automotive cost of revenues", "CostOfRevenue", 1, {PRODUCT: "tsla:AutomotiveRevenuesMember"}),
            Row("Total cost of revenues", "CostOfRevenue", 2),
            Row("Cost of revenues", "CostOfRevenue", 3, {"us-gaap:StatementBusinessSegmentsAxis": "tsla:AutomotiveSegmentMember"},
                "other")])
        tesla = {"cik": cik, "ticker": "TSLA", "name": "Tesla, Inc."}
        found = row_on_member(conn, {}, tesla, "cost automotive revenues", 2023)
        assert found is not None
        match, member = found
        assert member.member == "tsla:AutomotiveRevenuesMember" and member.value == Decimal("66389000000")


def test_increasing_asks_the_years_before_as_improving_does(directory):
    p = plan_rules("Is Tesla's R&D spending increasing as of FY2023?", directory=directory)
    assert p.intent == "trend" and p.metrics == ["rd"] and p.fiscal_years == [2021, 2022, 2023]
    assert plan_rules("how much did Tesla's R&D increase in 2023", directory=directory).metrics == ["rd_change", "rd_growth"]


@pytest.fixture(scope="module")
def footnote(corpus_db, embedder):
    from bot.settings import Settings
    from bot.wiring import build_footnote

    return build_footnote(corpus_db, embedder, Settings(llm="off"), use_cache=False)


def test_a_prose_ask_over_years_shows_each_years_figure(footnote):
    """"... and say whether it is rising or falling" is searched in prose; its figures are every year asked, the
    earlier ones from a later 10-K's comparatives, and they answer even where no passage discusses them."""
    import uuid

    from agent.answer import Turn

    text = "Show Apple's SG&A for FY2022 through FY2024 and say whether it is rising or falling."
    answer = footnote.answer(Turn(thread_key=f"test:{uuid.uuid4().hex}", user="u", text=text))
    years = {n.fiscal_year for n in answer.numbers if n.concept == "us-gaap:SellingGeneralAndAdministrativeExpense"}
    assert answer.kind != "refusal", answer.text
    assert years == {2022, 2023, 2024}, answer.text


def test_a_tickers_possessive_without_its_apostrophe_is_the_company(directory):
    p = plan_rules("whats TSLAs automotive revenue for FY2023", directory=directory)
    assert p.tickers == ["TSLA"] and p.refusal_reason is None


def test_an_expense_asked_with_its_own_noun_is_the_curated_expense(directory):
    assert plan_rules("Apple R&D costs 2024", directory=directory).metrics == ["rd"]
    assert plan_rules("Apple SG&A expenses 2024", directory=directory).metrics == ["sga"]


def test_a_year_range_beside_the_company_is_no_company_listed(directory):
    p = plan_rules("capex trend at Apple, FY2022-FY2024", directory=directory)
    assert p.refusal_reason is None and p.tickers == ["AAPL"] and p.fiscal_years == [2022, 2023, 2024]
