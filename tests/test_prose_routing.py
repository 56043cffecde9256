"""Figure or prose: a question asking what a filing says is answered from its text even when a
figure's name is inside it; a figure ask stays a figure ask (or its refusal). Companies named by a
short name or with one letter wrong are found; a company held through 10-Qs only is read there."""

from __future__ import annotations

import shutil
import uuid

import pytest

from agent.answer import Turn
from agent.planning.companies import CompanyDirectory
from agent.planning.rules import plan_rules
from ingest.pipeline import ingest_folder
from tests.conftest import SEC_FIXTURES
from tests.test_companies import COVERED, SEC

EXTRA = [
    (37996, "Ford Motor Co", ["F"]),
    (80424, "PROCTER & GAMBLE Co", ["PG"]),
    (773840, "Honeywell International Inc", ["HON"]),
    (1046179, "TAIWAN SEMICONDUCTOR MANUFACTURING CO LTD", ["TSM"]),
    (1065280, "NETFLIX INC", ["NFLX"]),
    (50863, "INTEL CORP", ["INTC"]),
    (1618921, "Walgreens Boots Alliance, Inc.", ["WBA"]),
]


@pytest.fixture(scope="module")
def directory() -> CompanyDirectory:
    return CompanyDirectory.from_rows(COVERED + EXTRA, SEC, {104169: [2024, 2025], 1065280: [2024]})


def plan(directory, text):
    return plan_rules(text, directory=directory)


@pytest.mark.parametrize("text, ticker", [
    ("Netflix advertising tier revenue expectations", "NFLX"),
    ("dependence of apple on iphone sales", "AAPL"),
    ("Walgreens goodwill impairment on VillageMD - what happened", "WBA"),
    ("Please summarize the main factors Intel cites for its 2022 revenue decline", "INTC"),
    ("whats the outlook for walmart e-commerce sales", "WMT"),
    ("tesla regulatory credits revenue commentary", "TSLA"),
    ("what's driving the medical cost ratio at walgreens", "WBA"),
    ("walmart e-commerce profitability", "WMT"),
    ("Does Apple think China sales will recover?", "AAPL"),
    ("Anything on Meta's AI capex in the 10-K?", "META"),
    ("tell me about Nvidia's data center revenue growth", "NVDA"),
])
def test_a_question_about_what_the_filing_states_is_prose_whatever_figure_it_names(directory, text, ticker):
    p = plan(directory, text)
    assert p.route == "domain" and p.intent == "qualitative" and p.tickers == [ticker]
    assert not any(k.startswith(("line:", "dim:")) or k == "net_income" for k in p.metrics), p.metrics


@pytest.mark.parametrize("text, expected", [
    ("what was Netflix's revenue in 2024?", dict(intent="numeric", metrics=["revenue"])),
    ("is Walmart profitable", dict(intent="numeric", metrics=["net_income"])),
    ("Walmart same-store sales 2024", dict(refusal_reason="unknown_metric")),
    ("Netflix advertising tier revenue 2024", dict(intent="numeric")),
])
def test_a_figure_ask_stays_a_figure_or_its_refusal(directory, text, expected):
    got = plan(directory, text).model_dump()
    assert {k: got[k] for k in expected} == expected


@pytest.mark.parametrize("text, route", [
    ("Walmart expects what for capital expenditures next year?", "domain"),
    ("what management anticipates for Walmart's margins next year", "domain"),
    ("what do you expect Walmart to spend next year?", "refusal"),
    ("will Walmart's capex be higher next year?", "refusal"),
    ("what does wall street expects for walmart next year", "refusal"),
    ("What are Walmart's growth prospects for next year?", "domain"),
    ("what is Walmart's guidance for e-commerce", "domain"),
    ("what's your forecast for walmart next year", "refusal"),
    ("what are analysts' forecasts for walmart next year", "refusal"),
    ("what guidance did walmart give on the earnings call", "refusal"),
])
def test_what_a_company_expects_is_its_filing_s_and_a_prediction_of_our_own_is_refused(directory, text, route):
    p = plan(directory, text)
    assert p.route == route
    if route == "refusal":
        assert p.refusal_reason == "out_of_scope"


@pytest.mark.parametrize("text, tickers", [
    ("Explain Ford's warranty cost issues", ["F"]),
    ("honeywell revenue 2023", ["HON"]),
    ("proctor and gamble price increases effect on volume", ["PG"]),
    ("how exposed is Apple to Taiwan", ["AAPL"]),  # an everyday word after a preposition is a place
    ("how does Coca-Cola account for its bottling investments", ["KO"]),
])
def test_short_names_and_one_letter_typos_of_longer_names_resolve(directory, text, tickers):
    p = plan(directory, text)
    assert p.route == "domain" and p.tickers == tickers


@pytest.mark.parametrize("text, ticker", [
    ("cocacola risks", "KO"), ("Mc Donalds franchisees", "MCD"), ("General Motor revenue 2023", "GM"),
    ("Walmartt risks", "WMT"), ("johnson controll risks", "JCI"),
])
def test_a_name_run_together_split_or_one_letter_off_resolves(directory, text, ticker):
    assert [m.company.ticker for m in directory.find(text) if m.kind == "company"] == [ticker]


def test_an_everyday_phrase_that_spells_a_name_is_not_a_company():
    directory = CompanyDirectory.from_rows(COVERED + [(1108524, "Salesforce, Inc.", ["CRM"])], SEC)
    assert [m.company.ticker for m in directory.find("Sales Force risks")] == []
    assert [m.company.ticker for m in directory.find("what does Apple say about its sales force")] == ["AAPL"]


def test_a_lowercase_everyday_first_word_is_not_a_company(directory):
    assert [m.company.ticker for m in directory.find("ford warranty costs")] == []
    assert [m.kind for m in directory.find("Johnson risks")] == ["ambiguous"]  # two Johnsons


def test_a_company_held_through_a_10q_only_is_answered_from_that_10q(db, embedder, tmp_path):
    """No 10-K at all: a prose question is read in the latest 10-Q's own Items and the answer says
    so, instead of refusing for want of a fiscal year."""
    from bot.settings import Settings
    from bot.wiring import build_footnote

    rel = "filings/10-Q/NVDA/0001045810-0001045810-24-000264-2024-07-28.htm"
    (tmp_path / rel).parent.mkdir(parents=True)
    shutil.copy(SEC_FIXTURES / rel, tmp_path / rel)
    shutil.copy(SEC_FIXTURES / "company_tickers.json", tmp_path / "company_tickers.json")
    ingest_folder(db, embedder, tmp_path, progress=False)
    footnote = build_footnote(db, embedder, Settings(llm="off"), use_cache=False)
    answer = footnote.answer(Turn(thread_key=f"test:{uuid.uuid4().hex}", user="u",
                                  text="what does NVIDIA say about data center demand?"))
    assert answer.kind == "answer", answer.text
    quotes = [c for c in answer.citations if c.quote]
    assert quotes and all(c.form == "10-Q" for c in answer.citations)
    assert "10-Q" in answer.text.split("\n")[0]


def test_a_year_read_in_a_later_filing_opens_with_no_figure_of_the_later_year(corpus_db, embedder):
    """NVIDIA's fiscal 2023 10-K is not held: its fiscal 2024 10-K discusses fiscal 2023 as the
    prior year, and the answer says so; a figure of fiscal 2024 opening it would answer another year."""
    from bot.settings import Settings
    from bot.wiring import build_footnote

    footnote = build_footnote(corpus_db, embedder, Settings(llm="off"), use_cache=False)
    answer = footnote.answer(Turn(thread_key=f"test:{uuid.uuid4().hex}", user="u",
                                  text="Why did NVIDIA's R&D expense rise in fiscal 2023?"))
    assert answer.kind == "answer", answer.text
    assert "fiscal 2023 10-K is not in my corpus" in answer.text
    assert all(n.fiscal_year != 2024 for n in answer.numbers)
