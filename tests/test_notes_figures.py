"""Figures printed in the notes and on the cover page, in the words analysts use: the tax note's components
(named bare "Federal", "State" under "Current:"), the cover's public float, and a count of shares repurchased,
which is never the dollars the buybacks metric reports."""

from __future__ import annotations

import pytest

from agent.planning.measures import counted_shares
from agent.retrieval.concepts import match_metrics
from agent.retrieval.line_items import resolve
from tests.test_plan_rules import directory, plan  # noqa: F401  (fixture and helper)

TAX_CONCEPTS = [("us-gaap:CurrentFederalTaxExpenseBenefit", "duration"),
                ("us-gaap:DeferredFederalIncomeTaxExpenseBenefit", "duration"),
                ("us-gaap:CurrentStateAndLocalTaxExpenseBenefit", "duration"),
                ("us-gaap:IncomeTaxExpenseBenefit", "duration")]


def _standard(phrase: str) -> str | None:
    match, _ = resolve(phrase, phrase, [], TAX_CONCEPTS)
    return match.concept if match else None


def test_income_tax_components_resolve_to_their_standard_labels():
    assert _standard("current federal income tax expense") == "us-gaap:CurrentFederalTaxExpenseBenefit"
    assert _standard("current federal tax expense") == "us-gaap:CurrentFederalTaxExpenseBenefit"
    assert _standard("current state income tax expense") == "us-gaap:CurrentStateAndLocalTaxExpenseBenefit"
    assert _standard("deferred federal income tax") == "us-gaap:DeferredFederalIncomeTaxExpenseBenefit"
    assert _standard("income tax expense") == "us-gaap:IncomeTaxExpenseBenefit"
    # still exact: a word the concept lacks names another figure
    assert _standard("current foreign income tax expense") is None
    assert _standard("federal income tax") is None  # current or deferred: neither alone


def test_income_before_income_taxes_keeps_its_income():
    labels = [{"label": "Income before income taxes", "concept": "us-gaap:IncomeLossFromContinuingOperationsBeforeIncomeTaxes"
               "ExtraordinaryItemsNoncontrollingInterest", "statement": "income", "dims": {}},
              {"label": "Provision for income taxes", "concept": "us-gaap:IncomeTaxExpenseBenefit", "statement": "income",
               "dims": {}}]
    match, _ = resolve("income before taxes", "income before taxes", labels, [])
    assert match is not None and match.label == "Income before income taxes"
    match, _ = resolve("provision for taxes", "provision for taxes", labels, [])
    assert match is not None and match.concept == "us-gaap:IncomeTaxExpenseBenefit"


def test_public_float_is_the_cover_page_figure():
    assert match_metrics("Apple public float 2024") == ["public_float"]
    assert match_metrics("aggregate market value held by non-affiliates") == ["public_float"]


def test_shares_counted_are_not_a_money_metric():
    words = "home depot shares repurchase fy23".split()
    assert counted_shares("shares repurchase", "buybacks", words)
    assert not counted_shares("share repurchase", "buybacks", words)  # the program's dollars
    assert not counted_shares("shares repurchase", "buybacks", "value of shares repurchase".split())
    assert not counted_shares("shares outstanding", "shares_outstanding", words)  # a count metric already


@pytest.mark.parametrize("text", ["Apple shares repurchased FY24", "How many shares did Apple repurchase in 2024?",
                                  "apple number of shares repurchased 2024"])
def test_a_count_of_shares_repurchased_never_plans_the_dollars(directory, text):  # noqa: F811
    assert "buybacks" not in plan(directory, text).metrics


@pytest.mark.parametrize("text", ["Apple share repurchases FY24", "How much did Apple spend on buybacks in 2024?",
                                  "value of shares repurchased by Apple in 2024"])
def test_the_dollars_of_repurchases_still_plan_the_metric(directory, text):  # noqa: F811
    assert plan(directory, text).metrics == ["buybacks"]


@pytest.mark.parametrize("text, expected", [
    ("How many shares outstanding did Apple report on the cover of its fiscal 2024 10-K?", ["cover_shares"]),
    ("Apple shares outstanding FY2024 10-K cover", ["cover_shares"]),
    ("apple cover page shares outstanding 2024", ["cover_shares"]),
    ("Apple public float FY2024 10-K cover", ["public_float"]),
    ("Apple shares outstanding 2024", ["shares_outstanding"]),  # the balance sheet's year-end count
])
def test_the_cover_page_is_where_not_what(directory, text, expected):  # noqa: F811
    assert plan(directory, text).metrics == expected


def test_cover_as_a_verb_is_no_cover_page(directory):  # noqa: F811
    from agent.planning.corrections import cover_page

    for text in ("which companies do you cover?", "Apple interest cover 2024", "does apple cover its dividend"):
        assert cover_page(text) == text


def _row(label, concept, statement):
    return {"label": label, "concept": concept, "statement": statement, "dims": {}}


def test_a_balance_is_never_its_cash_flow_change():
    labels = [_row("Operating lease liabilities", "us-gaap:IncreaseDecreaseInOperatingLeaseLiability", "cash")]
    concepts = [("us-gaap:OperatingLeaseLiability", "instant"), ("us-gaap:IncreaseDecreaseInOperatingLeaseLiability",
                                                                   "duration")]
    match, _ = resolve("operating lease liabilities", "total operating lease liabilities", labels, concepts, total=True)
    assert match is not None and match.concept == "us-gaap:OperatingLeaseLiability"
    match, _ = resolve("change in operating lease liabilities", "change in operating lease liabilities", labels, concepts)
    assert match is not None and match.concept == "us-gaap:IncreaseDecreaseInOperatingLeaseLiability"


def test_a_tax_notes_item_is_not_the_items_balance():
    labels = [_row("Accrued compensation", "us-gaap:DeferredTaxAssetsTaxDeferredExpenseCompensationAndBenefitsEmployee"
                   "Compensation", "other"),
              _row("Intangible assets", "us-gaap:DeferredTaxAssetIntraEntityTransferAssetOtherThanInventory", "other")]
    assert resolve("accrued compensation", "accrued compensation", labels, [])[0] is None
    assert resolve("intangible assets", "intangible assets", labels, [])[0] is None
    kept = [_row("Accrued compensation", "us-gaap:EmployeeRelatedLiabilitiesCurrent", "other")]
    assert resolve("accrued compensation", "accrued compensation", labels + kept, [])[0].concept == kept[0]["concept"]


def test_a_change_row_still_answers_when_nothing_else_fits_or_the_cash_flow_statement_is_named():
    labels = [_row("Income tax assets and liabilities, net", "us-gaap:IncreaseDecreaseInIncomeTaxesPayableNetOfIncomeTaxes"
                   "Receivable", "cash"),
              _row("Deferred income taxes", "us-gaap:IncreaseDecreaseInDeferredIncomeTaxes", "cash")]
    concepts = [("us-gaap:DeferredIncomeTaxExpenseBenefit", "duration")]
    match, _ = resolve("income tax assets and liabilities", "income tax assets and liabilities net", labels, concepts)
    assert match is not None and match.concept == labels[0]["concept"]  # no balance prints those words
    assert resolve("deferred income taxes", "deferred income taxes", labels, concepts)[0].concept \
        == "us-gaap:DeferredIncomeTaxExpenseBenefit"
    match, _ = resolve("deferred income taxes", "deferred income taxes", labels, concepts, changes=True)
    assert match is not None and match.concept == labels[1]["concept"]  # "on the cash flow statement"


def test_total_of_a_balance_printed_as_its_part_is_the_whole():
    labels = [_row("Operating lease liabilities", "us-gaap:OperatingLeaseLiabilityNoncurrent", "balance")]
    concepts = [("us-gaap:OperatingLeaseLiability", "instant"), ("us-gaap:OperatingLeaseLiabilityNoncurrent", "instant")]
    match, _ = resolve("operating lease liabilities", "total operating lease liabilities", labels, concepts, total=True)
    assert match is not None and match.concept == "us-gaap:OperatingLeaseLiability"
    match, _ = resolve("operating lease liabilities", "operating lease liabilities", labels, concepts)
    assert match is not None and match.concept == "us-gaap:OperatingLeaseLiabilityNoncurrent"  # the row as printed
