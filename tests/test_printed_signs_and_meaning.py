"""Figures stated so their meaning is unambiguous: a netted row's printed sign, a ratio over negative equity, a
share count tagged without its scale; refusals of predictions and trivia with their own reason; and a printed row
narrowed by a member that never splits a metric's name. Figures are typed from the companies' 10-K XBRL."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from agent.composing.compose import _number_claims, _ranking, _not_meaningful
from agent.composing.draft import Evidence
from agent.planning.formula_parse import parse_expression
from agent.planning.scope import FORECASTS, TRIVIA_DETAIL, out_of_scope
from agent.refusals import UNSCALED, refusal_text
from agent.retrieval.finance import negative_denominator
from agent.retrieval.line_items import economic_name, label_side, line_key, printed_negated
from agent.retrieval.retrieve import _line_cell, _unscaled, _user_formula, printed_value
from agent.retrieval.row_members import _cuts
from ingest.line_items import LineItem
from store.labels import replace_labels
from tests.test_facts import company, fact, filing

NKE, MCD = 320187, 63908
K_NKE, K_MCD = "0000320187-24-000044", "0000063908-24-000010"
NETTED = "us-gaap:InterestIncomeExpenseNonoperatingNet"


# --- 1. a netted row's printed sign --------------------------------------------------------------------------

def test_a_row_naming_the_other_side_first_prints_the_fact_negated():
    assert printed_negated("Interest expense (income), net", NETTED)  # Nike: +161 printed (161)
    assert printed_negated("Interest expense, net", NETTED)  # AbbVie: -1,684 printed 1,684
    assert not printed_negated("Interest and other income (expense), net", "us-gaap:NonoperatingIncomeExpense")
    assert not printed_negated("Interest, net", "us-gaap:InterestIncomeExpenseNet")  # its words name no side
    assert not printed_negated("Net income (loss)", "us-gaap:NetIncomeLoss")  # no netted concept
    assert label_side("Other (income) expense, net") == "expense"  # the parenthesised side is the alternative


def test_a_netted_figure_is_named_by_what_it_is():
    assert economic_name("Interest expense (income), net", NETTED, Decimal(161)) == "net interest income"
    assert economic_name("Interest and other, net", "us-gaap:NonoperatingIncomeExpense", Decimal(-1765)) \
        == "net interest and other expense"
    assert economic_name("Revenue", "us-gaap:Revenues", Decimal(5)) is None


@pytest.fixture
def nike(db):
    with db.connection() as conn:
        company(conn, NKE, "NIKE, Inc.", ["NKE"], "0531")
        filing(conn, NKE, K_NKE, 2024, date(2024, 5, 31), date(2024, 7, 25))
        fact(conn, NKE, K_NKE, "InterestIncomeExpenseNonoperatingNet", "161000000", date(2024, 5, 31),
             date(2023, 6, 1), fiscal_year=2024, fy=2024)
        # the stored flag is the first cell's ix sign, which Nike's (161) does not carry
        replace_labels(conn, K_NKE, NKE, [LineItem("us-gaap", "InterestIncomeExpenseNonoperatingNet",
                                                   "Interest expense (income), net", "income", 3, 7, False)])
    return db


def test_the_figure_is_stated_as_the_statement_prints_it_and_named_by_what_it_is(nike):
    who = {"cik": NKE, "ticker": "NKE", "name": "Nike"}
    cell: dict = {"ticker": "NKE", "name": "Nike", "fiscal_year": 2024, "metric": "x", "evidence_id": None}
    with nike.connection() as conn:
        ev = _line_cell(conn, None, who, line_key("interest expense (income), net"), 2024, cell, {})
    assert ev is not None and ev.value == "161000000" and ev.negated  # the cited fact keeps the tag's sign
    assert printed_value(ev) == Decimal("-161000000")
    cell.update(evidence_id=ev.id, display="-$161.00 million")
    text = _number_claims([cell])[0].text
    assert "-$161.00 million" in text and "net interest income of $161.00 million" in text


def _fact(metric: str, value: str, negated: bool = False) -> Evidence:
    return Evidence(id=f"f:{metric}", kind="fact", text=metric, ticker="NKE", cik=NKE, fiscal_year=2024,
                    accession=K_NKE, url="https://example.test", concept=f"us-gaap:{metric}", value=value, unit="USD",
                    negated=negated)


class _Tagged:
    company = {"cik": NKE, "ticker": "NKE", "name": "Nike"}
    absent: dict = {}
    others: dict = {}

    def __init__(self, facts: dict[str, Evidence]):
        self.facts = facts

    def get(self, metric: str, fy: int, printed: bool = False) -> Evidence | None:
        return self.facts.get(metric)


def test_a_formula_takes_the_row_with_its_printed_sign():
    """EBIT as pretax income plus "interest expense (income), net": Nike's net interest income is subtracted
    (6,700 - 161 = 6,539), as the row's expense sign says, never added."""
    tree = parse_expression("pretax income + interest expense")
    facts = _Tagged({"pretax_income": _fact("IncomeLossFromContinuingOperationsBeforeIncomeTaxes", "6700000000"),
                     "interest_expense": _fact("InterestIncomeExpenseNonoperatingNet", "161000000", negated=True)})
    out = _user_formula(facts, {"name": "ebit", "tree": tree, "unit": "USD", "formula": ""}, 2024, {})
    assert out is not None and Decimal(out[0].value) == Decimal("6539000000")


def test_a_comparison_ranks_rows_by_what_they_print():
    nike = _fact("InterestIncomeExpenseNonoperatingNet", "6000000", negated=True)  # printed (6): income
    abbv = _fact("InterestIncomeExpenseNonoperatingNet", "-1684000000", negated=True).model_copy(
        update={"id": "f:abbv", "ticker": "ABBV"})
    cells = [{"metric": "m", "ticker": "NKE", "name": "Nike", "label": "Interest expense, net", "evidence_id": nike.id},
             {"metric": "m", "ticker": "ABBV", "name": "AbbVie", "label": "Interest expense, net", "evidence_id": abbv.id}]
    assert _ranking(cells, [nike, abbv]).startswith("AbbVie is higher than Nike")


# --- 2. a ratio over negative equity -------------------------------------------------------------------------

def test_a_ratio_over_negative_equity_is_not_meaningful_and_names_its_operands():
    why = negative_denominator("debt_to_equity", [Decimal("47103000000"), Decimal("5204000000"),
                                                  Decimal("-17233000000")])  # Boeing FY2023
    assert why is not None and "negative" in why[0] and "-$17.23 billion" in why[1] and "$47.10 billion" in why[1]
    assert negative_denominator("roe", [Decimal("8468800000"), Decimal("-4706700000"), Decimal("-6003400000")])
    # positive equity, or equity in the numerator (a negative equity ratio is meaningful): the figure stands
    assert negative_denominator("debt_to_equity", [Decimal(1), Decimal(1), Decimal(5)]) is None
    assert negative_denominator("equity_ratio", [Decimal(-17233), Decimal(137012)]) is None


def test_a_not_meaningful_ratio_is_said_so_and_ranks_nowhere():
    cell = {"metric": "debt_to_equity", "ticker": "BA", "name": "Boeing", "label": "Debt-to-equity",
            "fiscal_year": 2023, "evidence_id": "k:ba", "display": "not meaningful",
            "not_meaningful": "total stockholders' equity was negative",
            "operands_shown": "total stockholders' equity -$17.23 billion"}
    text = _number_claims([cell])[0].text
    assert "is not meaningful" in text and "-$17.23 billion" in text and "-3.04" not in text
    other = {**cell, "ticker": "AAPL", "name": "Apple", "evidence_id": "k:aapl", "not_meaningful": None}
    evidence = [Evidence(id="k:ba", kind="calc", text="", ticker="BA", cik=1, fiscal_year=2023, accession="a",
                         url="u", value="-3.04"),
                Evidence(id="k:aapl", kind="calc", text="", ticker="AAPL", cik=2, fiscal_year=2023, accession="b",
                         url="u", value="1.79")]
    assert _ranking([cell, other], evidence) == ""  # one meaningful figure: nothing to rank
    assert "Boeing's debt-to-equity for fiscal 2023 is not meaningful" in _not_meaningful([cell, other])


# --- 3. a share count tagged without its scale ---------------------------------------------------------------

@pytest.fixture
def counts(db):
    with db.connection() as conn:
        company(conn, MCD, "McDONALD'S CORPORATION", ["MCD"], "1231")
        filing(conn, MCD, K_MCD, 2023, date(2023, 12, 31), date(2024, 2, 22))
        fact(conn, MCD, K_MCD, "WeightedAverageNumberOfDilutedSharesOutstanding", "732.3", date(2023, 12, 31),
             date(2023, 1, 1), fiscal_year=2023, fy=2023, unit="shares")
        fact(conn, MCD, K_MCD, "EntityCommonStockSharesOutstanding", "722051488", date(2024, 1, 31), fiscal_year=2023,
             fy=2023, unit="shares", taxonomy="dei")
    return db


def test_a_count_tagged_without_its_scale_is_refused_saying_so(counts):
    who = [{"cik": MCD, "ticker": "MCD", "name": "McDonald's"}]
    with counts.connection() as conn:
        for metric in ("diluted_shares", "revenue_per_share"):
            cell = {"ticker": "MCD", "fiscal_year": 2023, "metric": metric, "evidence_id": None}
            detail = _unscaled(conn, who, [cell])
            assert detail == "McDonald's|weighted-average diluted shares|2023", metric
    text = refusal_text("no_grounding", UNSCALED + detail)
    assert "scale" in text and "McDonald's" in text and "weighted-average diluted shares" in text
    assert "732" not in text and "couldn't find support" not in text


# --- 5. predictions, opinions and trivia -----------------------------------------------------------------------

@pytest.mark.parametrize("question,detail", [
    ("how will nvidia stock react to earnings?", "stock prices or market valuations"),
    ("how will investors react to boeing's results?", "stock prices or market valuations"),
    ("is jnj going to win the talc appeal?", FORECASTS),
    ("will tesla lose the lawsuit?", FORECASTS),
    ("what's boeing's ceo's favourite airplane", TRIVIA_DETAIL),
    ("what are apple's ceo's hobbies?", TRIVIA_DETAIL),
    ("what car does mary barra drive?", TRIVIA_DETAIL),  # a person named, no company: not "which company?"
    ("how tall is tim cook", TRIVIA_DETAIL),
    ("is intel going to go bankrupt?", FORECASTS),
    ("is amazon going to split its stock again?", FORECASTS),
])
def test_a_guess_or_trivia_is_refused_with_its_own_reason(question, detail):
    assert out_of_scope(question) == detail


@pytest.mark.parametrize("question", [
    "what does the 10-k say about the talc litigation?",
    "what does caterpillar expect for dealer inventories?",
    "what are the risks if jnj loses the talc litigation?",
    "what does jnj say about the likelihood of prevailing in talc appeals?",
    "who is boeing's ceo according to the 10-k?",
    "where does boeing build the 787?",
    "what does tesla's 10-k say about its stock split?",
])
def test_what_the_filing_states_stays_answerable(question):
    assert out_of_scope(question) is None


def test_a_verdict_on_a_persons_character_is_an_opinion():
    assert out_of_scope("is pfizer's ceo a nice guy?").startswith("opinions")


# --- 4. a member never takes part of a metric's name ------------------------------------------------------------

def test_a_members_words_never_split_a_metrics_phrase():
    spans = [(0, 2)]  # "operating income" in "operating income segment"
    assert _cuts(spans, 1, 3)  # member "income segment", row "operating": the phrase cut
    assert not _cuts(spans, 2, 3)  # member "segment", row "operating income"
    assert not _cuts(spans, 0, 2)  # the whole phrase as the member's words
