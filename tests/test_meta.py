"""Help and coverage replies: examples name only what the store holds, and coverage says which
years have a filing (figures and text) and which have figures only."""

from __future__ import annotations

import re
import uuid

import pytest

from agent.answer import Turn
from agent.meta import coverage_text, examples, help_text
from bot.wiring import build_footnote
from bot.settings import Settings
from ingest.cli import format_coverage
from store.coverage import coverage, years_text

WALMART = {"ticker": "WMT", "cik": 104169, "name": "WALMART INC.", "display_name": "Walmart",
           "fiscal_years": [2024, 2025], "figures_only_years": [2022, 2023], "filings": 2, "chunks": 30, "facts": 100}


def quoted(text: str) -> list[str]:
    return re.findall(r"\"([^\"]+)\"", text)


def test_help_examples_name_only_covered_companies():
    text = help_text([WALMART])
    questions = [q for q in quoted(text) if any(ch.isupper() for ch in q[:1])]
    assert questions and all("Walmart" in q for q in questions if "Walmart" in q)
    for other in ("Apple", "Microsoft", "Nvidia", "NVIDIA", "Tesla", "Adobe", "Alphabet"):
        assert other not in text
    assert "Walmart" in text and "2025" in text
    assert "figures only" in text  # Walmart has years with figures but no filing text


def test_help_with_an_empty_store_names_no_company():
    text = help_text([])
    assert "footnote ingest" in text and not examples([])
    assert not re.search(r"\b(Apple|Microsoft|Nvidia|Tesla)\b", text)


def test_coverage_reply_separates_filing_years_from_figures_only():
    text = coverage_text([WALMART])
    assert text.startswith("I cover 1 company ")
    assert "WMT: Walmart (10-K FY2024, FY2025; figures only FY2022, FY2023)" in text
    assert "figures only" in text and "not the filing's text" in text


def test_years_text_collapses_runs():
    assert years_text([2019, 2020, 2021, 2023]) == "FY2019–FY2021, FY2023"
    assert years_text([2023, 2024]) == "FY2023, FY2024"
    assert years_text([]) == ""


def test_tickers_table_for_one_company():
    text = format_coverage([WALMART])
    assert text.splitlines()[1].split()[:2] == ["WMT", "Walmart"]
    assert "1 company, 2 filings" in text and "companies" not in text.splitlines()[-2]


def test_coverage_reports_figures_only_years(corpus_db):
    with corpus_db.connection() as conn:
        rows = {r["ticker"]: r for r in coverage(conn)}
    apple = rows["AAPL"]
    assert apple["fiscal_years"] == [2023, 2024]
    # companyfacts reaches back before the ingested 10-Ks, never into a year that has one
    assert apple["figures_only_years"] and max(apple["figures_only_years"]) < 2023
    assert apple["display_name"] == "Apple" and rows["NVDA"]["display_name"] == "Nvidia"


@pytest.fixture(scope="module")
def footnote(corpus_db, embedder):
    return build_footnote(corpus_db, embedder, Settings(llm="off"), use_cache=False)


def test_every_help_example_is_answered(footnote):
    """An example the bot would refuse teaches the wrong thing."""
    reply = footnote.answer(Turn(thread_key=f"t:{uuid.uuid4().hex}", user="u", text="what can you do?"))
    assert reply.kind == "meta"
    asked = [q for line in reply.text.splitlines() if line.startswith("- ") for q in quoted(line)]
    assert len(asked) >= 7
    for question in asked:
        answer = footnote.answer(Turn(thread_key=f"t:{uuid.uuid4().hex}", user="u", text=question))
        assert answer.kind == "answer", (question, answer.refusal_reason, answer.text)


def test_a_missing_year_is_refused_with_filing_and_figures_only_years_told_apart(footnote):
    prose = footnote.answer(Turn(thread_key=f"t:{uuid.uuid4().hex}", user="u", text="Apple's risk factors in fiscal 2019"))
    assert prose.kind == "refusal" and prose.refusal_reason == "year_not_available"
    assert "10-K for fiscal 2023, 2024 (figures and what the filing says)" in prose.text
    assert "reported figures only for fiscal 2019–2022" in prose.text


def test_an_example_in_a_refusal_names_a_covered_company(footnote):
    answer = footnote.answer(Turn(thread_key=f"t:{uuid.uuid4().hex}", user="u", text="what was the revenue in 2024?"))
    assert answer.refusal_reason == "no_company"
    assert "MSFT" not in answer.text and "AAPL risk factors" in answer.text


def test_coverage_replies_name_the_quarterly_reports_held():
    from agent.meta import company_years_text, coverage_years, held_text, quarters_text

    assert quarters_text([(2025, 2), (2024, 3), (2025, 1)]) == "Q3 FY2024, Q1\u2013Q2 FY2025"
    row = {"ticker": "NVDA", "name": "NVIDIA CORP", "display_name": "Nvidia", "fiscal_years": [2024, 2025],
           "figures_only_years": [], "quarters": [(2025, 1), (2025, 2)]}
    assert coverage_years(row).endswith("10-Q Q1\u2013Q2 FY2025")
    assert "Quarterly reports (10-Q): Q1\u2013Q2 FY2025." in company_years_text(row)
    only_quarters = {**row, "ticker": "XOM", "fiscal_years": [], "quarters": [(2023, 2)]}
    assert held_text([row, only_quarters]).startswith("I currently hold 10-K filings of 1 company,")
    assert "10-Q quarterly reports of 2" in held_text([row, only_quarters])


@pytest.mark.parametrize("question", ["are you a bot?", "r u human", "am i talking to a real person?",
                                      "is this an AI or a person?"])
def test_asked_whether_it_is_a_bot_footnote_says_so_first(question):
    from agent.meta import about_text

    rows = [{"ticker": "V", "name": "VISA INC.", "display_name": "Visa", "fiscal_years": [2023, 2024]}]
    text = about_text(question, rows)
    assert text.startswith("Yes, I'm a bot")
    assert "fiscal 2023 to 2024" in text  # what is held, read from the store's rows
    assert len(text) < 450  # short: one line of answer, one of sources


def test_other_questions_about_footnote_get_the_full_description():
    from agent.meta import ABOUT, about_text

    assert about_text("where does your data come from?", []).startswith(ABOUT[:40])


def test_the_years_held_for_a_company_not_covered_are_refused_as_not_covered(footnote):
    """JPMorgan is known to SEC's ticker map but not covered: never "no filings are ingested yet"."""
    answer = footnote.answer(Turn(thread_key=f"t:{uuid.uuid4().hex}", user="u", text="which years do you have for JPMorgan?"))
    assert answer.kind == "refusal" and answer.refusal_reason == "not_covered"
    assert "JPM" in answer.text and "ingested" not in answer.text
    covered = footnote.answer(Turn(thread_key=f"t:{uuid.uuid4().hex}", user="u", text="which years do you have for apple?"))
    assert covered.kind == "meta" and "2024" in covered.text
