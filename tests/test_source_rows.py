"""A row named for where its amount comes from ("Revenues from franchised restaurants") is found by the figure
and the source the user says ("franchised revenues"), the source's last noun left out; never when two rows fit,
and never by the figure alone."""

from __future__ import annotations

from agent.retrieval.line_items import resolve

# our own rows, shaped as a restaurant company prints its income statement
ROWS = [("Sales by company-operated restaurants", "xco:SalesByCompanyOperatedRestaurants", 1),
        ("Revenues from franchised restaurants", "xco:RevenuesFromFranchisedRestaurants", 2),
        ("Other revenues", "us-gaap:OtherRevenues", 3),
        ("Total revenues", "us-gaap:Revenues", 4)]
LABELS = [{"label": label, "concept": concept, "statement": "income", "dims": {}, "negated": False, "row": n}
          for label, concept, n in ROWS]


def test_a_source_row_is_found_by_its_figure_and_source():
    match, _ = resolve("franchised", "franchised revenues", LABELS, [])
    assert match is not None and match.concept == "xco:RevenuesFromFranchisedRestaurants"
    match, _ = resolve("company operated", "company-operated sales", LABELS, [])
    assert match is not None and match.concept == "xco:SalesByCompanyOperatedRestaurants"


def test_the_figure_alone_or_another_source_finds_no_source_row():
    for leftover, question in [("restaurant", "restaurant revenues"), ("licensed", "licensed revenues")]:
        match, _ = resolve(leftover, question, LABELS, [])
        assert match is None, (question, match)


def test_two_source_rows_that_fit_are_no_match():
    rows = LABELS + [{"label": "Revenues from franchised stores", "concept": "xco:RevenuesFromFranchisedStores",
                      "statement": "income", "dims": {}, "negated": False, "row": 5}]
    match, _ = resolve("franchised", "franchised revenues", rows, [])
    assert match is None
