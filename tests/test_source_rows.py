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


# our own rows, shaped as an insurer prints its revenues
INSURER = [{"label": label, "concept": concept, "statement": "income", "dims": {}, "negated": False, "row": n}
           for label, concept, n in [("Premiums", "us-gaap:PremiumsEarnedNet", 1), ("Products", "xin:ProductsRevenue", 2),
                                     ("Investment and other income", "us-gaap:InvestmentIncomeInterestAndDividend", 3),
                                     ("Total revenues", "us-gaap:Revenues", 4), ("Medical costs", "xin:MedicalCosts", 5)]]


def test_a_row_among_the_revenues_is_found_with_the_sections_word_added():
    for leftover, question in [("premiums", "premiums revenue"), ("premium", "premium revenues")]:
        match, _ = resolve(leftover, question, INSURER, [])
        assert match is not None and match.concept == "us-gaap:PremiumsEarnedNet", question


def test_a_row_outside_the_revenues_is_no_revenue():
    match, _ = resolve("medical costs", "medical costs revenue", INSURER, [])
    assert match is None


def test_leftover_words_any_row_may_print_name_the_curated_metric():
    from agent.retrieval.retrieve import _curated_as_said
    from agent.retrieval.line_items import line_key

    assert _curated_as_said("line:net|accounts receivable net|accounts receivable, net") == "accounts_receivable"
    assert _curated_as_said("line:trade|trade accounts receivable|trade accounts receivable") is None
    assert _curated_as_said(line_key("widget receivables")) is None


def test_other_words_any_row_may_print_name_no_curated_metric():
    from agent.retrieval.retrieve import _curated_as_said

    for key in ["line:outflow|cash outflow|cash outflow", "line:expected|expected revenue|expected revenue",
                "line:net|net cash|net cash", "line:total|total revenue|total revenue"]:
        assert _curated_as_said(key) is None, key
