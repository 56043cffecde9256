"""A tagged rate asked computed from the statement's lines ("calculate it from the income statement") is that
computation where the lines are reported; where one is not, the rate the company reports answers under its own name,
never a refusal of a figure the filing states, nor a computation passed off as done."""

from __future__ import annotations

from datetime import date

from tests.test_named_conventions import _filer


def test_a_rate_asked_computed_without_its_lines_is_the_reported_rate(db):
    from agent.retrieval.retrieve import _collect
    from tests.test_facts import fact

    with db.connection() as conn:
        # the tax provision is reported, income before taxes is not
        filer = _filer(conn, 999121, "NPT", [("IncomeTaxExpenseBenefit", 38), ("Revenues", 1000)])
        fact(conn, 999121, "0000999121-25-000001", "EffectiveIncomeTaxRateContinuingOperations", "0.195",
             date(2024, 12, 31), date(2024, 1, 1), fiscal_year=2024, unit="pure")
        _, calculations, cells = _collect(conn, [filer], ["effective_tax_rate_computed"])
    (cell,) = cells
    assert cell["metric"] == "effective_tax_rate" and cell["display"] == "19.5%", cell
    assert cell["label"] == "Effective tax rate" and not calculations


def test_a_rate_asked_computed_with_its_lines_is_the_computation(db):
    from agent.retrieval.retrieve import _collect
    from tests.test_facts import fact

    with db.connection() as conn:
        filer = _filer(conn, 999122, "CPT", [
            ("IncomeTaxExpenseBenefit", 38),
            ("IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest", 190)])
        fact(conn, 999122, "0000999122-25-000001", "EffectiveIncomeTaxRateContinuingOperations", "0.21",
             date(2024, 12, 31), date(2024, 1, 1), fiscal_year=2024, unit="pure")
        _, calculations, cells = _collect(conn, [filer], ["effective_tax_rate_computed"])
    (cell,) = cells
    assert cell["metric"] == "effective_tax_rate_computed" and cell["display"] == "20.0%", cell
    assert [c["key"] for c in calculations] == ["effective_tax_rate_computed"]


def test_a_computation_with_no_tagged_form_still_names_what_it_lacks(db):
    from agent.retrieval.retrieve import _collect

    with db.connection() as conn:
        filer = _filer(conn, 999123, "NOG", [("Revenues", 1000)])
        _, calculations, cells = _collect(conn, [filer], ["gross_margin"])
    (cell,) = cells
    assert cell["evidence_id"] is None and cell["missing_inputs"] and not calculations, cell
