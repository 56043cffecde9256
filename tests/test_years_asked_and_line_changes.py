"""Every year a question asks is answered or said missing; a printed line's growth is computed from the line
and the same line a year (or the span) before, never its level stated for it; a formula input the table's
concepts miss is read from the row printed under one of the metric's long names; "year-end" beside a year
is that year's date. Figures typed in are McDonald's fiscal 2023 10-K's (in $ millions); labels are ours."""

from __future__ import annotations

from datetime import date

import pytest
from psycopg.types.json import Jsonb

from agent.planning.changes import line_changes
from agent.planning.plan import Plan
from agent.planning.plan_years import years_unanswered
from agent.planning.years import year_end_dropped
from tests.test_facts import company, fact, filing


def _cell(ticker, fy, name="Example Co"):
    return {"ticker": ticker, "name": name, "fiscal_year": fy, "metric": "revenue", "label": "Revenue",
            "evidence_id": f"f{ticker}{fy}", "display": "$1", "instant": False}


def test_the_years_asked_that_no_figure_is_of_are_named():
    plan = Plan(route="domain", intent="trend", tickers=["PEX"], metrics=["revenue"],
                fiscal_years=[2019, 2020, 2021, 2022, 2023])
    cells = [_cell("PEX", y) for y in (2021, 2022, 2023)]
    assert years_unanswered(plan, cells) == {"PEX": [2019, 2020]}
    # "over the last five years": counted back from the latest year shown
    last_five = Plan(route="domain", intent="trend", tickers=["PEX"], metrics=["revenue"], latest=True,
                     year_offsets=[-4, -3, -2, -1, 0])
    assert years_unanswered(last_five, cells) == {"PEX": [2019, 2020]}
    # every year asked shown, or a year after the last one shown (not yet reported): nothing to say
    assert years_unanswered(Plan(route="domain", intent="trend", tickers=["PEX"], metrics=["revenue"],
                                 fiscal_years=[2021, 2022, 2023]), cells) == {}


def test_the_answer_says_which_years_asked_it_cannot_show():
    from agent.composing.compose import _numbers

    plan = Plan(route="domain", intent="trend", tickers=["PEX"], metrics=["revenue"], fiscal_years=[2020, 2021, 2022])
    draft = _numbers(plan, [_cell("PEX", 2021), _cell("PEX", 2022)])
    assert "Example Co's fiscal 2020 is in no filing I hold, so it is not shown." in draft.intro, draft.intro
    one = _numbers(Plan(route="domain", intent="numeric", tickers=["PEX"], metrics=["revenue"],
                        fiscal_years=[2020, 2022]), [_cell("PEX", 2022)])
    assert "fiscal 2020 is in no filing I hold" in one.intro, one.intro
    held = _numbers(Plan(route="domain", intent="trend", tickers=["PEX"], metrics=["revenue"],
                         fiscal_years=[2021, 2022]), [_cell("PEX", 2021), _cell("PEX", 2022)])
    assert "no filing I hold" not in held.intro


@pytest.mark.parametrize("said, read", [
    ("What is KO's year-end FY2024 ratio of accounts payable to total assets?",
     "What is KO's FY2024 ratio of accounts payable to total assets?"),
    ("KO FY2024 year-end ratio of liabilities to assets", "KO FY2024 ratio of liabilities to assets"),
    ("coke cash at fiscal year end 2023", "coke cash 2023"),
    ("using year-end 2024 balances", "using year-end 2024 balances"),  # a convention of a ratio: kept
    ("KO FY2024 year-end balances", "KO FY2024 year-end balances"),
    ("KO cash at year-end", "KO cash at year-end"),  # no year beside it
])
def test_year_end_beside_a_year_only_dates_it(said, read):
    assert year_end_dropped(said) == read


def _line_plan(key, years):
    return Plan(route="domain", intent="numeric", tickers=["MTX"], metrics=[key], fiscal_years=years)


def test_a_printed_lines_growth_is_a_formula_over_the_line_and_its_prior_year():
    p = line_changes(_line_plan("line:costs expenses|costs expenses|costs and expenses|growth", [2024]),
                     "mtx costs and expenses growth 2024")
    assert p.metrics == ["udf:costs and expenses growth"] and p.intent == "derived"
    (d,) = p.definitions
    diff, prior = d["tree"]["args"][0], d["tree"]["args"][1]["args"][0]
    assert d["unit"] == "percent" and diff["op"] == "-"
    assert diff["args"] == [{"line": "costs and expenses"}, {"line": "costs and expenses", "offset": -1}]
    assert prior == {"line": "costs and expenses", "offset": -1}


def test_by_how_much_gives_the_change_beside_the_rate_and_two_years_set_the_span():
    p = line_changes(_line_plan("line:net pp&e|net pp&e|net pp&e|how much has grown", [2022, 2024]),
                     "How much has MTX's net PP&E grown from FY2022 to FY2024?")
    assert p.fiscal_years == [2024]
    assert p.metrics == ["udf:net pp&e change from fiscal 2022", "udf:net pp&e growth from fiscal 2022"]
    assert p.definitions[0]["tree"]["args"][1] == {"line": "net pp&e", "offset": -2}
    dollars = line_changes(_line_plan("line:costs|costs|costs|dollar change", [2024]), "mtx costs dollar change 2024")
    assert [d["unit"] for d in dollars.definitions] == ["USD"]


@pytest.mark.parametrize("key, text", [
    ("line:increase receivables|increase receivables|increase in receivables|", "mtx increase in receivables 2024"),
    ("line:costs expenses|costs expenses|costs and expenses|", "mtx costs and expenses 2024"),
])
def test_a_row_named_by_a_change_word_or_asked_without_one_stays_the_row(key, text):
    p = line_changes(_line_plan(key, [2024]), text)
    assert p.metrics == [key] and not p.definitions


MCD, MCD_K23 = 63908, "0000063908-24-000011"
M = 1_000_000


def test_a_formula_input_reads_the_row_printed_under_a_long_synonym(db):
    """McDonald's tags its pretax income with a concept of its own; its income statement prints the row
    under a name the pretax-income metric lists, so the pretax margin is computed, not refused."""
    from agent.retrieval.retrieve import _collect

    with db.connection() as conn:
        company(conn, MCD, "MCDONALDS CORP", ["MCD"], "1231")
        filing(conn, MCD, MCD_K23, 2023, date(2023, 12, 31), date(2024, 2, 22))
        start, end = date(2023, 1, 1), date(2023, 12, 31)
        fact(conn, MCD, MCD_K23, "Revenues", str(25494 * M), end, start, fiscal_year=2023, fy=2023)
        fact(conn, MCD, MCD_K23, "IncomeLossFromContinuingOperationsBeforeIncomeTaxes", "10522200000", end, start,
             fiscal_year=2023, fy=2023, taxonomy="mcd")
        conn.execute("INSERT INTO line_labels (accession, cik, taxonomy, concept, label, statement, table_no, row_no,"
                     " negated, dims) VALUES (%s, %s, 'mcd', %s, %s, 'income', 1, 9, false, %s)",
                     (MCD_K23, MCD, "IncomeLossFromContinuingOperationsBeforeIncomeTaxes",
                      "Income before provision for income taxes", Jsonb({})))
        mcd = {"cik": MCD, "ticker": "MCD", "name": "McDonald's", "fiscal_years": [2023]}
        _, calculations, cells = _collect(conn, [mcd], ["pretax_margin"])
    (cell,) = cells
    assert cell["display"] == "41.3%", cells
    assert len(calculations) == 1


def test_a_synonym_reads_only_a_row_printed_under_it_whole(db):
    """A company with no cost-of-revenue concept: "cost of revenue" read near-exact found its "Revenues" row, so
    a cost's growth was revenue's. A synonym is taken only as a row's whole name."""
    from agent.retrieval.retrieve import _collect

    with db.connection() as conn:
        company(conn, MCD, "MCDONALDS CORP", ["MCD"], "1231")
        filing(conn, MCD, MCD_K23, 2023, date(2023, 12, 31), date(2024, 2, 22))
        for fy, value in ((2023, 25494), (2022, 23183)):
            fact(conn, MCD, MCD_K23, "Revenues", str(value * M), date(fy, 12, 31), date(fy, 1, 1), fiscal_year=fy, fy=2023)
        conn.execute("INSERT INTO line_labels (accession, cik, taxonomy, concept, label, statement, table_no, row_no,"
                     " negated, dims) VALUES (%s, %s, 'us-gaap', 'Revenues', 'Total revenues', 'income', 1, 4, false, %s)",
                     (MCD_K23, MCD, Jsonb({})))
        mcd = {"cik": MCD, "ticker": "MCD", "name": "McDonald's", "fiscal_years": [2023]}
        _, calculations, cells = _collect(conn, [mcd], ["cost_of_revenue_growth"])
    (cell,) = cells
    assert cell.get("evidence_id") is None and not calculations, cells


def test_a_trends_change_is_of_the_figures_the_table_shows(db):
    """D&A tagged twice, the larger tag printed only on a row saying what it leaves out: the table shows the figure
    asked by name, so each year's change is of those figures, never of the tag a formula input reads; every fact
    the change reads is cited (a fact left out of the evidence ended the answer in an internal error)."""
    from agent.retrieval.retrieve import _collect

    hd, acc = 354950, "0000354950-25-000010"
    with db.connection() as conn:
        company(conn, hd, "HOME DEPOT, INC.", ["HD"], "0202")
        filing(conn, hd, acc, 2024, date(2025, 2, 2), date(2025, 3, 21))
        years = {2024: (date(2024, 1, 29), date(2025, 2, 2)), 2023: (date(2023, 1, 30), date(2024, 1, 28))}
        for fy, (start, end) in years.items():
            other, total = {2024: (3300, 3034), 2023: (2700, 2673)}[fy]
            fact(conn, hd, acc, "DepreciationDepletionAndAmortization", str(other * M), end, start, fiscal_year=fy, fy=2024)
            fact(conn, hd, acc, "DepreciationAndAmortization", str(total * M), end, start, fiscal_year=fy, fy=2024)
        # the larger tag is printed only on a row saying what it leaves out: the figure asked by name is the other
        for concept, label, statement in (("DepreciationDepletionAndAmortization", "Depreciation and amortization, "
                                           "excluding amortization of intangible assets", "cash"),
                                          ("DepreciationAndAmortization", "Depreciation and amortization", "income")):
            conn.execute("INSERT INTO line_labels (accession, cik, taxonomy, concept, label, statement, table_no, row_no,"
                         " negated, dims) VALUES (%s, %s, 'us-gaap', %s, %s, %s, 1, 3, false, %s)",
                         (acc, hd, concept, label, statement, Jsonb({})))
        filer = {"cik": hd, "ticker": "HD", "name": "Home Depot", "fiscal_years": [2023, 2024]}
        evidence, calculations, cells = _collect(conn, [filer], ["depreciation_amortization"], changes=True)
    shown = {c["fiscal_year"]: c for c in cells}
    assert shown[2024]["display"] == "$3.03 billion" and shown[2023]["display"] == "$2.67 billion", cells
    assert shown[2024]["change_display"] == "+13.5%", shown[2024]
    (calc,) = [c for c in calculations if c["id"] == shown[2024]["change_id"]]
    assert {o["evidence_id"] for o in calc["operands"]} == {shown[2024]["evidence_id"], shown[2023]["evidence_id"]}
    assert all(o["evidence_id"] in evidence for o in calc["operands"])
