"""A note's schedule prints its rows under a heading ("Current:" then "Federal", "State and local", "Foreign"): the
heading's words are in the row's standard concept name, so a question that says them finds the one row, and only
a standard amount concept counts (a company's own percent column is never the row's figure)."""

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
