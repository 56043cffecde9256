"""Reading which company a first message is about, and which year "last fiscal year" is.

Everyday-word tickers typed in lowercase ("ups", "meta", "dow") are words beside a company named clearly
and after an article; "+" lists companies; well-known companies that file nothing with the SEC and
share-class tickers are refused as not covered, naming them; a capitalised name followed by a lowercase
word has ended; the first word of a name in the subject's slot names the one covered company it begins;
"last fiscal year" said alone is the year the latest 10-K held reports.
"""

from __future__ import annotations

import pytest

from agent.planning.brands import brands_from
from agent.planning.companies import CompanyDirectory
from agent.planning.rules import plan_rules

UPS, DOW, MARA, RIOT, T, HD, TSLA, AAPL, KO, PEP, ADBE = (1090727, 1751788, 1507605, 1167419, 732717, 354950,
                                                         1318605, 320193, 21344, 77476, 796343)
COVERED = [
    (UPS, "UNITED PARCEL SERVICE INC", ["UPS"]), (DOW, "Dow Inc.", ["DOW"]),
    (MARA, "MARATHON DIGITAL HOLDINGS, INC.", ["MARA"]), (RIOT, "Riot Platforms, Inc.", ["RIOT"]),
    (T, "AT&T INC.", ["T"]), (HD, "HOME DEPOT, INC.", ["HD"]), (TSLA, "Tesla, Inc.", ["TSLA"]),
    (AAPL, "Apple Inc.", ["AAPL"]), (KO, "COCA COLA CO", ["KO"]), (PEP, "PepsiCo, Inc.", ["PEP"]),
    (1326801, "Meta Platforms, Inc.", ["META"]), (ADBE, "ADOBE INC.", ["ADBE"]),
]
SEC = [
    ("UPS", UPS, "UNITED PARCEL SERVICE INC"), ("DOW", DOW, "Dow Inc."), ("MARA", MARA, "MARATHON DIGITAL HOLDINGS, INC."),
    ("RIOT", RIOT, "Riot Platforms, Inc."), ("T", T, "AT&T INC."), ("HD", HD, "HOME DEPOT, INC."),
    ("TSLA", TSLA, "Tesla, Inc."), ("AAPL", AAPL, "Apple Inc."), ("KO", KO, "COCA COLA CO"), ("PEP", PEP, "PepsiCo, Inc."),
    ("META", 1326801, "Meta Platforms, Inc."), ("ADBE", ADBE, "ADOBE INC."),
    ("MPC", 1510295, "Marathon Petroleum Corp"), ("MRO", 101778, "MARATHON OIL CORP"),
    ("TMUS", 1283699, "T-Mobile US, Inc."), ("RIVN", 1874178, "Rivian Automotive, Inc. / DE"),
    ("BRK-B", 1067983, "BERKSHIRE HATHAWAY INC"), ("BRK-A", 1067983, "BERKSHIRE HATHAWAY INC"),
]


@pytest.fixture(scope="module")
def directory() -> CompanyDirectory:
    return CompanyDirectory.from_rows(COVERED, SEC, {AAPL: [2023, 2024], ADBE: [2023, 2024], TSLA: [2023, 2024],
                                                     HD: [2023, 2024], KO: [2023], PEP: [2023]})


def _lookup(phrase: str) -> list[tuple[int, int]]:
    # the miners' filings both write "bitcoin"; Riot's more often
    return {"bitcoin": [(RIOT, 40), (MARA, 12)], "rivian": [(1018724, 6), (37996, 5)]}.get(phrase.lower(), [])


def _writes(phrase: str, ciks: frozenset[int]) -> int:
    # Marathon Digital's filings write its own name in every section
    return 30 if phrase.lower() == "marathon" and MARA in ciks else 0


_lookup.writes = _writes  # type: ignore[attr-defined]


def plan(directory, text):
    with brands_from(_lookup):
        return plan_rules(text, directory=directory)


@pytest.mark.parametrize("text, tickers", [
    ("ups and downs of tesla's automotive gross margin in 2024", ["TSLA"]),
    ("what are the ups and downs in apple's services business?", ["AAPL"]),
    ("any meta commentary from home depot on the housing market?", ["HD"]),
    # the same words where a company stands: owning a figure, naming one, listed beside a company, alone
    ("ups revenue 2023", ["UPS"]),
    ("meta's revenue and apple's revenue 2024", ["META", "AAPL"]),
    ("what did ups say about the teamsters contract", ["UPS"]),
    ("apple revenue and hd gross margin 2024", ["AAPL", "HD"]),
    ("ko + pep revenue fy2023", ["KO", "PEP"]),
    ("UPS and Tesla revenue 2023", ["UPS", "TSLA"]),
])
def test_an_everyday_word_ticker_is_a_company_only_where_one_stands(directory, text, tickers):
    assert plan(directory, text).tickers == tickers


def test_the_dow_is_the_index_never_dow_inc(directory):
    p = plan(directory, "how did the dow do today?")
    assert "DOW" not in p.tickers
    assert plan(directory, "dow net sales 2023").tickers == ["DOW"]


@pytest.mark.parametrize("text, named", [
    ("Samsung revenue 2023", "Samsung"),
    ("how much did openai make last year", "openai"),
    ("SpaceX launch revenue", "SpaceX"),
    ("compare byd and tesla revenue 2023", "byd"),
])
def test_a_known_company_that_files_nothing_with_the_sec_is_not_covered(directory, text, named):
    p = plan(directory, text)
    assert (p.refusal_reason, p.refusal_detail) == ("not_covered", named)


def test_an_unknown_name_stays_no_company(directory):
    p = plan(directory, "Zorblax churn rate 2023")
    assert p.refusal_reason == "no_company"


@pytest.mark.parametrize("text, ticker", [
    ("brk.b net income 2023", "BRK-A"),  # the registrant, whichever of its class tickers the map lists first
    ("t-mobile postpaid phone net adds", "TMUS"),  # never AT&T's "T" and a word
    ("Rivian deliveries 2023", "RIVN"),  # a registrant typed with its capital, never the companies that invest in it
])
def test_a_registrant_we_do_not_cover_is_refused_by_its_name(directory, text, ticker):
    p = plan(directory, text)
    assert p.refusal_reason == "not_covered" and p.tickers == [ticker]


def test_a_name_in_the_subjects_slot_is_the_covered_company_it_begins(directory):
    assert plan(directory, "What does marathon say about the bitcoin halving?").tickers == ["MARA"]
    # without the grammar the word names nobody, and a brand word chooses (as before)
    assert plan(directory, "marathon bitcoin halving").tickers != ["MARA"]


@pytest.mark.parametrize("text, years", [
    ("adobe revenue last fiscal year", [2024]),
    ("What was Adobe's revenue for the last fiscal year?", [2024]),
    ("apple net income last year", [2024]),
])
def test_last_fiscal_year_is_the_year_the_latest_10k_reports(directory, text, years):
    p = plan(directory, text)
    assert p.fiscal_years == years and not p.year_offsets


@pytest.mark.parametrize("text", [
    "adobe revenue in the prior year",
    "adobe revenue a year ago",
    "adobe revenue this year vs last year",
])
def test_a_year_counted_back_stays_counted_back(directory, text):
    p = plan(directory, text)
    assert p.latest and -1 in p.year_offsets


def test_the_most_recently_completed_fiscal_year_is_a_year_phrase(directory):
    p = plan(directory, "Please provide Meta Platforms' total revenue for its most recently completed fiscal year.")
    assert p.route == "domain" and p.tickers == ["META"] and p.latest and p.metrics == ["revenue"]


@pytest.mark.parametrize("text, metric", [
    ("apple net income 2024, is that good?", "net_income"),
    ("home depot gross margin 2023 - was that a low point for them?", "gross_margin"),
    ("apple revenue 2024 -- pretty huge right?", "revenue"),
])
def test_a_closing_opinion_of_the_figure_leaves_the_figure_asked(directory, text, metric):
    p = plan(directory, text)
    assert p.route == "domain" and p.metrics == [metric], p


@pytest.mark.parametrize("text", [
    "apple revenue 2024, is it growing?",  # a question of its own
    "why did apple's margins fall - is it the mix?",  # a guess at the cause, searched
    "apple revenue 2024, is it mostly iphone?",
])
def test_a_closing_question_of_its_own_stays(text):
    from agent.planning.corrections import without_judgement

    assert without_judgement(text) == text


def test_two_lowercase_tickers_set_against_each_other_are_a_comparison(directory):
    p = plan(directory, "ko vs pep")
    assert p.route == "domain" and p.tickers == ["KO", "PEP"], p


def test_the_plan_says_how_each_company_word_was_read(directory):
    p = plan(directory, "ups and downs of tesla's automotive gross margin in 2024")
    assert p.companies_read == [{"word": "tesla", "ticker": "TSLA", "via": "name"}, {"word": "ups", "via": "word"}]
    p = plan(directory, "What does marathon say about the bitcoin halving?")
    assert p.companies_read == [{"word": "marathon", "ticker": "MARA", "via": "subject"}]


def test_an_owner_is_in_the_subjects_slot_too(directory):
    assert plan(directory, "marathon's bitcoin mining costs in 2023").tickers == ["MARA"]


@pytest.mark.parametrize("text, refused", [
    ("what are the risks to apple's stock price mentioned in the 10-K", False),
    ("does tesla's 10-K discuss the volatility of its stock price?", False),
    ("why is apple's stock price volatile?", True),  # asked of Footnote, not of the filing
    ("what's apple's stock price", True),
])
def test_the_stock_price_as_a_risk_the_filing_states_is_asked_of_the_filing(directory, text, refused):
    p = plan(directory, text)
    assert (p.refusal_reason == "out_of_scope") is refused, p
    if not refused:  # and a sentence must speak of the stock's price, else the filing does not discuss it
        assert p.unless_named == {"reason": "no_grounding", "detail": None, "words": ["price", "stock"]}, p


def test_a_verb_that_asks_is_never_named_as_the_company(directory):
    p = plan(directory, "explain free cash flow")
    assert p.refusal_reason == "no_company" and p.refusal_detail != "explain", p


@pytest.mark.parametrize("text, composed", [
    ("what's in mastercard's other revenue", True),
    ("what is mastercard's other revenue made of?", True),
    ("what's in the 10-k about apple's china risk", False),
])
def test_what_a_line_holds_is_asked_as_its_parts(text, composed):
    from agent.planning.in_words import _COMPOSED

    assert bool(_COMPOSED.search(text)) is composed


def test_att_typed_without_its_ampersand_is_att(directory):
    assert plan(directory, "att revenue q2 2023").tickers == ["T"]
    assert plan(directory, "we looked at t revenue").tickers != ["T"]
