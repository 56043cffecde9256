"""Every way a question names a 10-K reads the same way: by its fiscal year ("their 2023 annual report",
"the FY2023 10-K", "fy23"), by when it came out ("the 10-K filed in 2025"), by its place ("the older of
the two 10-Ks", "the previous annual report"). A named 10-K that is not held is read as its year from
the next filing that reports it, said in the answer; refused only when no held filing covers the year
(agent.planning.plan_years.unheld_filing_years, agent.planning.years, agent.retrieval.fetch)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from agent.planning.companies import CompanyDirectory
from agent.planning.plan_years import unheld_filing_years
from agent.planning.rules import plan_rules
from agent.planning.years import names_prior_filing
from agent.retrieval.fetch import fetch
from tests.test_companies import COVERED, SEC

CIK = 990002


def _deps(filing_years: list[int], figure_years: list[int]) -> SimpleNamespace:
    """Everything fetch reads, already in its memo: no database is opened."""
    filings = {y: {"accession": f"0000990002-{y % 100}-000001", "url": "https://www.sec.gov/x.htm", "form": "10-K",
                   "period_end": f"{y}-12-31", "filed": f"{y + 1}-02-15"} for y in filing_years}
    memo = {("company", "HSHM"): {"ticker": "HSHM", "cik": CIK, "name": "Hashmark Mining"},
            ("filings", CIK): filings, ("years", CIK): sorted(figure_years, reverse=True)}
    return SimpleNamespace(db=None, memo=memo)


def _fetch(question: str, intent: str, filing_years: list[int], figure_years: list[int], **years) -> dict:
    plan = {"intent": intent, "tickers": ["HSHM"], "fiscal_years": [], "latest": False, "year_offsets": [],
            "metrics": ["revenue"] if intent == "numeric" else [], "items": ["7"], **years}
    return fetch({"plan": plan, "question": question}, _deps(filing_years, figure_years), None)


@pytest.mark.parametrize("question", [
    "from the older of the two Nvidia 10-Ks, what are the export risks?",
    "in the earlier of its annual reports, what did it say about china",
    "the 10-K before the latest one: risks?",
    "what did the second-most-recent annual report say about supply?",
    "what did amazon's previous 10-K say about AWS?",
])
def test_a_filing_named_by_its_place_is_the_one_before_the_latest(question):
    assert names_prior_filing(question)


@pytest.mark.parametrize("question", [
    "what did the latest 10-K say about AWS?", "prior year revenue", "the older stores", "earlier of the two years",
])
def test_other_words_of_place_name_no_filing(question):
    assert not names_prior_filing(question)


def test_an_unheld_named_10k_reads_its_year_from_the_next_filing_that_reports_it():
    plan = {"as_of_filing_year": 2023, "fiscal_years": [2023], "latest": False, "year_offsets": []}
    assert unheld_filing_years(plan, [2024, 2025], [2025, 2024, 2023], numeric=False) == {
        "as_of_filing_year": None, "fiscal_years": [2023], "latest": False, "year_offsets": []}
    assert unheld_filing_years(plan, [2025], [2025], numeric=False)["fiscal_years"] == [2023]  # two years on
    assert unheld_filing_years(plan, [2023, 2024], [2024, 2023], numeric=False) is None  # held: that filing
    assert unheld_filing_years(plan, [2026], [2026], numeric=False) is None  # no held filing discusses it
    assert unheld_filing_years(plan, [2024], [2024, 2023], numeric=True)["fiscal_years"] == [2023]
    assert unheld_filing_years(plan, [2024], [2024], numeric=True) is None  # no figure of the year held
    assert unheld_filing_years(plan, [2024], [2024, 2023], numeric=False, ahead=True) is None
    later = {**plan, "fiscal_years": [2024]}  # what the 2023 10-K said of 2024: that filing's words alone
    assert unheld_filing_years(later, [2024, 2025], [2025, 2024], numeric=False) is None


def test_fetch_answers_an_unheld_named_10k_from_the_next_one_and_refuses_what_none_covers():
    out = _fetch("what does their 2023 annual report say about power costs?", "qualitative", [2024, 2025],
                 [2025, 2024, 2023], fiscal_years=[2023], as_of_filing_year=2023)
    assert "refusal" not in out, out
    assert out["resolved"][0]["fiscal_years"] == [2024] and not out["plan"].get("as_of_filing_year")
    out = _fetch("revenue in its 2023 10-K", "numeric", [2024, 2025], [2025, 2024, 2023],
                 fiscal_years=[2023], as_of_filing_year=2023)
    assert out["resolved"][0]["fiscal_years"] == [2023]
    out = _fetch("what did its 2019 10-K say about power costs?", "qualitative", [2024, 2025], [2025, 2024, 2023],
                 fiscal_years=[2019], as_of_filing_year=2019)
    assert out["refusal"]["reason"] == "year_not_available" and out["refusal"]["years"] == [2024, 2025]


def test_a_figure_in_the_10k_filed_in_a_year_is_that_filings_year():
    out = _fetch("revenue in the 10-K filed in 2025", "numeric", [2023, 2024], [2024, 2023, 2022],
                 fiscal_years=[2025])
    assert "refusal" not in out, out
    assert out["resolved"][0]["fiscal_years"] == [2024]
    assert out["resolved"][0]["as_of_accession"] == "0000990002-24-000001"  # the figure as that filing reports it


def test_the_previous_10k_is_the_year_before_the_latest_even_when_only_the_latest_is_held():
    out = _fetch("what did the previous 10-K say about power costs?", "qualitative", [2024], [2024, 2023, 2022],
                 latest=True)
    assert out["plan"]["fiscal_years"] == [2023]
    assert out["resolved"][0]["fiscal_years"] == [2024]  # the latest discusses fiscal 2023 as its prior year
    out = _fetch("revenue in the previous annual report", "numeric", [2023, 2024], [2024, 2023, 2022], latest=True)
    assert out["resolved"][0]["fiscal_years"] == [2023]


@pytest.mark.parametrize("question, metric", [
    ("apple's total revenue in the previous annual report", "revenue"),
    ("apple operating income in the 10-K filed in 2025?", "operating_income"),
    ("Apple 10-K filed in 2024 -- revenue?", "revenue"),
    ("from the older of the two apple 10-Ks, net income", "net_income"),
])
def test_the_words_that_name_a_filing_are_no_part_of_the_metric(question, metric):
    plan = plan_rules(question, directory=CompanyDirectory.from_rows(COVERED, SEC, {}))
    assert plan.refusal_reason is None, (plan.refusal_reason, plan.refusal_detail)
    assert plan.metrics == [metric], plan.metrics


def test_a_year_read_two_filings_on_is_said_missing_and_the_filing_read_named():
    from agent.checking.guards import number_tokens
    from agent.composing.compose import _source_line
    from agent.planning.plan import Plan
    from agent.composing.draft import Evidence

    plan = Plan(route="domain", intent="qualitative", tickers=["ZZZ"], fiscal_years=[2022])
    chunk = Evidence(id="c:1", kind="chunk", ticker="ZZZ", cik=1, fiscal_year=2024, accession="a", url="u", item="7",
                     text="x")
    line = _source_line(plan, [chunk], ["ZZZ"], " (Item 7)", {"ZZZ": {2024}})
    assert line.startswith("The fiscal 2022 10-K is not in my corpus; from the fiscal 2024 10-K"), line
    assert not number_tokens(line)
    assert "not in my corpus" not in _source_line(plan, [chunk], ["ZZZ"], " (Item 7)", {"ZZZ": {2022, 2024}})


def test_a_10k_filed_in_a_year_no_held_filing_came_out_in_is_still_the_year_it_reports():
    out = _fetch("what did the 10-K filed in 2024 say about power costs?", "qualitative", [2024], [2024, 2023],
                 fiscal_years=[2024])
    assert out["plan"]["fiscal_years"] == [2023]  # fiscal 2023's, not held: the fiscal 2024 10-K discusses it
    out = _fetch("revenue in the 10-K filed in 2024", "numeric", [2024], [2024, 2023], fiscal_years=[2024])
    assert out["resolved"][0]["fiscal_years"] == [2023]


def test_the_older_of_two_10ks_is_counted_among_the_filings_not_the_latest_figures():
    out = _fetch("from the older of the two hashmark 10-Ks, revenue", "numeric", [2023, 2024], [2025, 2024, 2023],
                 latest=True)
    assert out["resolved"][0]["fiscal_years"] == [2023]


@pytest.mark.parametrize("question, year", [
    ("mara 2022 10-K: revenue", None),  # Marathon's fiscal 2022 10-K, no month "Mara"
    ("market 2023 10-K risks", None),
    ("the 10-K released in may 2024", 2024),
    ("the 10-K filed in Sept. 2024", 2024),
])
def test_a_month_is_a_whole_month_name(question, year):
    from agent.retrieval.filing_choice import filed_in

    assert filed_in(question) == year


def test_a_filing_named_by_its_place_is_a_year_phrase_in_a_thread_too():
    from agent.planning.years import parse_years

    years = parse_years("and in the older 10-K?")
    assert years.given and years.latest and not years.years
    # the thread gave the company, the message its filing: read from the message's own words
    out = _fetch("and in the older 10-K?", "qualitative", [2023, 2024], [2024, 2023], latest=True,
                 inherited=["tickers", "query"], slots={"tickers": "thread", "fiscal_years": "latest filing"})
    assert out["plan"]["fiscal_years"] == [2023]
    out = _fetch("and in the older 10-K?", "qualitative", [2023, 2024], [2024, 2023], latest=True,
                 inherited=["tickers", "fiscal_years"], slots={"fiscal_years": "thread"})
    assert "fiscal_years" not in (out.get("plan") or {}) or out["plan"]["fiscal_years"] != [2023]
