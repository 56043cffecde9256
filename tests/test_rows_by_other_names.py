"""A row the company prints, asked by another name it goes by: a note's row by its heading's words ("State and
local" under "Current:", whose standard concept name holds them), an "income (loss)" row by its loss, a balance
sheet row by its concept's standard name ("additional paid-in capital" for "Capital surplus", shown as reported).
Only a standard amount concept's name counts (a company's own percent column is never the row's figure)."""

from __future__ import annotations

from agent.retrieval.line_items import resolve

CURRENT_STATE = "us-gaap:CurrentStateAndLocalTaxExpenseBenefit"


def _row(label: str, concept: str, statement: str = "other", row: int = 1) -> dict:
    return {"label": label, "concept": concept, "statement": statement, "dims": {}, "negated": False, "row": row}


TAX_NOTE = [
    _row("Federal", "us-gaap:FederalIncomeTaxExpenseBenefitContinuingOperations", row=0),
    _row("State and local", CURRENT_STATE),
    _row("Foreign", "us-gaap:CurrentForeignTaxExpenseBenefit", row=2),
    _row("Deferred benefit", "us-gaap:DeferredIncomeTaxExpenseBenefit", row=4),
    _row("Provision for income taxes", "us-gaap:IncomeTaxExpenseBenefit", "income", 9),
]


def test_a_row_under_its_notes_heading_answers_with_the_headings_word():
    for leftover, question in (("state local current", "state and local current income tax"),
                               ("current state local", "current state & local income taxes")):
        match, _ = resolve(leftover, question, TAX_NOTE, [])
        assert match is not None and match.concept == CURRENT_STATE, (question, match)
        assert match.label.startswith("State and local")


def test_words_no_row_or_concept_name_holds_find_nothing():
    match, candidates = resolve("state local deferred", "state and local deferred income tax", TAX_NOTE, [])
    assert match is None and not candidates  # no deferred state row: never the current one


def test_two_note_rows_under_one_heading_word_are_no_match():
    rows = [*TAX_NOTE, _row("Foreign", "us-gaap:DeferredForeignIncomeTaxExpenseBenefit", row=6)]
    match, _ = resolve("foreign", "foreign income tax", rows, [])
    assert match is None  # current and deferred foreign: which one is not for the resolver to guess


def test_a_companys_own_percent_column_is_no_rows_figure():
    rows = [_row("Concentrate operations", "ko:SalesRevenueConcentrateOperationsNetPercentage")]
    match, _ = resolve("concentrate operations", "concentrate operations revenue", rows, [])
    assert match is None


def test_a_loss_said_alone_names_the_printed_income_loss_row():
    rows = [_row("Accumulated other comprehensive income (loss)", "us-gaap:AccumulatedOtherComprehensiveIncomeLossNetOfTax",
                 "balance", 30),
            _row("Interest income (expense), net", "us-gaap:InterestIncomeExpenseNonoperatingNet", "income", 8)]
    match, _ = resolve("accumulated other comprehensive loss", "accumulated other comprehensive loss", rows, [])
    assert match is not None and match.concept == "us-gaap:AccumulatedOtherComprehensiveIncomeLossNetOfTax"
    match, _ = resolve("interest expense", "interest expense", rows[1:], [])
    assert match is None  # an expense is no sign of the net row: "interest expense" is another figure


def test_a_standard_name_qualified_by_common_stock_is_the_common_stock_a_company_has():
    concepts = [("us-gaap:AdditionalPaidInCapitalCommonStock", "instant")]
    match, _ = resolve("additional capital", "additional paid in capital", [], concepts)
    assert match is not None and match.concept == "us-gaap:AdditionalPaidInCapitalCommonStock"
    match, _ = resolve("additional preferred capital", "additional paid in capital preferred", [], concepts)
    assert match is None  # a class named: never the common stock's


def test_a_rows_standard_name_asks_for_the_companys_row_and_the_answer_shows_its_label(db, embedder):
    """Coca-Cola prints "Capital surplus" (AdditionalPaidInCapitalCommonStock) on its balance sheet: "additional
    paid-in capital" is that row's figure, named as reported; a name no printed row's concept carries stays prose."""
    import uuid
    from datetime import date

    from psycopg.types.json import Jsonb

    from agent.answer import Turn
    from bot.settings import Settings
    from bot.wiring import build_footnote
    from tests.test_facts import company, fact, filing

    ko, acc = 21344, "0000021344-25-000011"
    with db.connection() as conn:
        company(conn, ko, "COCA COLA CO", ["KO"], "1231")
        filing(conn, ko, acc, 2024, date(2024, 12, 31), date(2025, 2, 20))
        conn.execute("INSERT INTO line_labels (accession, cik, taxonomy, concept, label, statement, table_no, row_no,"
                     " negated, dims) VALUES (%s, %s, 'us-gaap', 'AdditionalPaidInCapitalCommonStock', 'Capital surplus',"
                     " 'balance', 2, 22, false, %s)", (acc, ko, Jsonb({})))
        fact(conn, ko, acc, "AdditionalPaidInCapitalCommonStock", "19801000000", date(2024, 12, 31), fiscal_year=2024,
             fy=2024, filed=date(2025, 2, 20))
    footnote = build_footnote(db, embedder, Settings(llm="off"), use_cache=False)
    answer = footnote.answer(Turn(thread_key=f"test:{uuid.uuid4().hex}", user="u",
                                  text="Coca-Cola additional paid-in capital 2024"))
    assert [n.value for n in answer.numbers] == ["19801000000"], answer.text
    assert "Capital surplus" in answer.text
