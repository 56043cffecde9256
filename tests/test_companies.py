"""Company resolution: tickers with care for ordinary words, names, aliases, typos, ambiguity."""

from __future__ import annotations

import pytest

from agent.planning.companies import CompanyDirectory, norm_name

COVERED = [
    (320193, "Apple Inc.", ["AAPL"]),
    (1045810, "NVIDIA CORP", ["NVDA"]),
    (104169, "Walmart Inc.", ["WMT"]),
    (1318605, "Tesla, Inc.", ["TSLA"]),
    (1652044, "Alphabet Inc.", ["GOOGL", "GOOG"]),
    (200406, "Johnson & Johnson", ["JNJ"]),
    (833444, "JOHNSON CONTROLS INTERNATIONAL PLC", ["JCI"]),
    (40545, "GENERAL ELECTRIC COMPANY", ["GE"]),
    (40533, "GENERAL DYNAMICS CORPORATION", ["GD"]),
    (1467858, "GENERAL MOTORS COMPANY", ["GM"]),
    (1403161, "VISA INC.", ["V"]),
    (63908, "McDONALD\u2019S CORPORATION", ["MCD"]),
    (60667, "LOWES COMPANIES INC", ["LOW"]),
    (1577526, "C3.ai, Inc.", ["AI"]),
    (91419, "THE J. M. SMUCKER COMPANY", ["SJM"]),
    (1326801, "Meta Platforms, Inc.", ["META"]),
    (21344, "COCA COLA CO", ["KO"]),
    (12927, "BOEING CO", ["BA"]),
    (77476, "PepsiCo, Inc.", ["PEP"]),
    (2488, "ADVANCED MICRO DEVICES, INC.", ["AMD"]),
]
SEC = [
    ("AAPL", 320193, "Apple Inc."), ("NVDA", 1045810, "NVIDIA CORP"), ("WMT", 104169, "Walmart Inc."),
    ("TSLA", 1318605, "Tesla, Inc."), ("GOOGL", 1652044, "Alphabet Inc."), ("GOOG", 1652044, "Alphabet Inc."),
    ("MSFT", 789019, "MICROSOFT CORP"), ("AMZN", 1018724, "AMAZON COM INC"), ("IT", 749251, "GARTNER INC"),
    ("ALL", 899051, "ALLSTATE CORP"), ("ON", 1097864, "ON SEMICONDUCTOR CORP"), ("NOW", 1373715, "ServiceNow, Inc."),
    ("A", 1090872, "AGILENT TECHNOLOGIES, INC."), ("V", 1403161, "VISA INC."), ("TGT", 27419, "TARGET CORP"),
    ("COST", 909832, "COSTCO WHOLESALE CORP /NEW"), ("K", 55067, "Kellanova"), ("BRK-B", 1067983, "BERKSHIRE HATHAWAY INC"),
    ("BRK-A", 1067983, "BERKSHIRE HATHAWAY INC"), ("APLE", 1418121, "Apple Hospitality REIT, Inc."),
    ("FOR", 1406587, "Forestar Group Inc."), ("ARE", 1035443, "ALEXANDRIA REAL ESTATE EQUITIES, INC."),
    ("NET", 1477333, "Cloudflare, Inc."), ("CASH", 907471, "PATHWARD FINANCIAL, INC."), ("EPS", 1, "Fake EPS Co"),
    ("FY", 2, "Fake FY Co"), ("GE", 40545, "GENERAL ELECTRIC CO"), ("META", 1326801, "Meta Platforms, Inc."),
    ("KO", 21344, "COCA COLA CO"),
]


@pytest.fixture(scope="module")
def directory() -> CompanyDirectory:
    return CompanyDirectory.from_rows(COVERED, SEC, {320193: [2023, 2024], 1045810: [2024, 2025]})


def resolve(directory, text):
    return [(m.kind, m.company.ticker if m.company else sorted(c.ticker for c in m.candidates)) for m in directory.find(text)]


@pytest.mark.parametrize(
    "text, expected",
    [
        # tickers, any case for covered non-word tickers
        ("AAPL revenue", [("company", "AAPL")]),
        ("aapl r&d 2023", [("company", "AAPL")]),
        ("$nvda eps", [("company", "NVDA")]),
        ("What about TSLA?", [("company", "TSLA")]),
        ("GOOG capex", [("company", "GOOGL")]),  # two share classes, one company
        ("googl and goog", [("company", "GOOGL")]),
        # names, suffixes, possessives, aliases
        ("What was Apple's revenue?", [("company", "AAPL")]),
        ("apple inc. net income", [("company", "AAPL")]),
        ("Nvidia’s gross margin", [("company", "NVDA")]),
        ("Google capex", [("company", "GOOGL")]),
        ("Facebook risk factors", [("company", "META")]),
        ("meta revenue", [("company", "META")]),
        ("J&J net income", [("company", "JNJ")]),
        ("Johnson & Johnson sales", [("company", "JNJ")]),
        ("johnson and johnson sales", [("company", "JNJ")]),
        ("Walmart revenue", [("company", "WMT")]),
        ("McDonald's revenue", [("company", "MCD")]),
        ("Lowe's revenue", [("company", "LOW")]),
        ("Coca-Cola's cost of revenue", [("company", "KO")]),
        ("C3.ai revenue", [("company", "AI")]),
        ("The J. M. Smucker Company revenue", [("company", "SJM")]),
        ("General Electric revenue", [("company", "GE")]),
        ("Visa revenue", [("company", "V")]),
        # several companies, in order
        ("Compare Apple and Nvidia", [("company", "AAPL"), ("company", "NVDA")]),
        ("Tesla vs GM", [("company", "TSLA"), ("company", "GM")]),
        # known but not covered
        ("MSFT revenue", [("not_covered", "MSFT")]),
        ("Microsoft's risk factors", [("not_covered", "MSFT")]),
        ("Amazon revenue", [("not_covered", "AMZN")]),
        ("Berkshire net income", [("not_covered", "BRK-A")]),
        ("Target revenue", [("not_covered", "TGT")]),
        ("Apple Hospitality REIT revenue", [("not_covered", "APLE")]),
        # ordinary words are not tickers unless upper-case or $-prefixed
        ("is it a good company", []),
        ("all of it, now, on time", []),
        ("IT revenue", [("not_covered", "IT")]),
        ("$ALL revenue", [("not_covered", "ALL")]),
        ("NOW revenue", [("not_covered", "NOW")]),
        ("A revenue question", []),
        ("$A revenue", [("not_covered", "A")]),
        ("V revenue", [("company", "V")]),
        ("v revenue", []),
        ("$V revenue", [("company", "V")]),
        ("our revenue target", []),
        ("cost of revenue", []),
        ("net cash for the year", []),
        ("What is the EPS for FY24", []),
        ("Apple's 10-K", [("company", "AAPL")]),
        ("AI risks at Nvidia", [("company", "NVDA")]),
        ("Do they sell low-cost products", []),
        # ambiguity
        ("General revenue 2023", [("ambiguous", ["GD", "GE", "GM"])]),
        ("Johnson revenue", [("ambiguous", ["JCI", "JNJ"])]),
        ("johnson net income 2023", [("ambiguous", ["JCI", "JNJ"])]),
        ("general revenue 2023", []),
        ("selling, General and administrative", []),
        # typos of covered names (one edit, names of five letters or more)
        ("nvdia revnue fy24", [("company", "NVDA")]),
        ("walmrt sales", [("company", "WMT")]),
        ("Appel revenue", [("company", "AAPL")]),
        ("teslla", [("company", "TSLA")]),
        ("apply the rule", []),
        ("being honest", []),
        ("Tesla's lower margin", [("company", "TSLA")]),  # "lower" is a word, not a misspelt Lowe's
        ("foobar revenue", []),
        ("ZZZZ revenue", []),
        # all-caps messages: words are not tickers
        ("WHAT WAS APPLE REVENUE FOR THE YEAR", [("company", "AAPL")]),
        # possessives typed without the apostrophe, two-letter tickers in lowercase, nicknames
        ("whats teslas revenue", [("company", "TSLA")]),
        ("ba FY2024 net earnings?", [("company", "BA")]),
        ("coke vs pepsi", [("company", "KO"), ("company", "PEP")]),
        ("pep talk", []),
    ],
)
def test_find(directory, text, expected):
    assert resolve(directory, text) == expected


def test_match_carries_span_and_text(directory):
    text = "Compare Apple's and Nvidia's R&D"
    a, n = directory.find(text)
    assert text[a.start : a.end] == "Apple" and a.text == "Apple"
    assert text[n.start : n.end] == "Nvidia"
    assert a.via == "name" and n.via == "name"
    (t,) = directory.find("aapl")
    assert t.via == "ticker"
    (typo,) = directory.find("nvdia")
    assert typo.via == "typo"


def test_get_and_covered(directory):
    assert directory.get("aapl").cik == 320193
    assert directory.get("$GOOG").ticker == "GOOGL"
    assert directory.get(789019).covered is False
    assert directory.get("ZZZZ") is None
    covered = directory.covered()
    assert [c.ticker for c in covered][:3] == ["AAPL", "AI", "AMD"]
    assert all(c.covered for c in covered)
    assert directory.years[1045810] == [2024, 2025]


def test_norm_name():
    assert norm_name("Apple Inc.") == ("apple",)
    assert norm_name("McDONALD’S CORPORATION") == ("mcdonald",)
    assert norm_name("WELLS FARGO & COMPANY/MN") == ("wells", "fargo")
    assert norm_name("THE J. M. SMUCKER COMPANY") == ("j", "m", "smucker")
    assert norm_name("C3.ai, Inc.") == ("c3ai",)
    assert norm_name("Procter & Gamble Co") == ("procter", "gamble")
    assert norm_name("J&J") == ("j&j",)


def test_load_from_the_store(db):
    with db.connection() as conn:
        conn.execute("INSERT INTO companies (cik, name, tickers) VALUES (320193, 'Apple Inc.', '{AAPL}')")
        conn.execute(
            "INSERT INTO sec_tickers (ticker, cik, title) VALUES ('AAPL', 320193, 'Apple Inc.'), "
            "('MSFT', 789019, 'MICROSOFT CORP')"
        )
        conn.execute(
            "INSERT INTO filings (accession, cik, form, fiscal_year, period_end, url, content_hash) "
            "VALUES ('0000320193-24-000123', 320193, '10-K', 2024, '2024-09-28', 'u', 'h')"
        )
        directory = CompanyDirectory.load(conn)
    assert resolve(directory, "Apple and MSFT") == [("company", "AAPL"), ("not_covered", "MSFT")]
    assert resolve(directory, "microsoft") == [("not_covered", "MSFT")]
    assert directory.years == {320193: [2024]}


@pytest.mark.parametrize("text, expected", [
    # a covered ticker that is an everyday word counts in lowercase where only a company stands
    ("pep's gross margin fy2023", [("company", "PEP")]),
    ("ko vs pep operating margin", [("company", "KO"), ("company", "PEP")]),
    ("pep vs. KO revenue", [("company", "PEP"), ("company", "KO")]),
    ("apple versus low", [("company", "AAPL"), ("company", "LOW")]),
    # one letter too, set beside a company as one; and two such tickers side by side are two companies
    ("tesla vs v", [("company", "TSLA"), ("company", "V")]),
    ("v vs pep revenue", [("company", "V"), ("company", "PEP")]),
    ("is v more profitable than pep", [("company", "V"), ("company", "PEP")]),
    ("compare v and low operating margin", [("company", "V"), ("company", "LOW")]),
    # a list that ends the message, where nothing follows for the word to qualify
    ("operating income 2024: apple and pep", [("company", "AAPL"), ("company", "PEP")]),
    ("net sales fy2023, apple and low?", [("company", "AAPL"), ("company", "LOW")]),
    # and stays a word elsewhere: alone, across "vs" from another word, an acronym, a one-letter word,
    # a list no comparison opens, "than" no question asks of the first
    ("what is pep", []),
    ("high vs low estimates for apple", [("company", "AAPL")]),
    ("what does nvidia say about ai's impact", [("company", "NVDA")]),
    ("tesla vs a", [("company", "TSLA")]),
    ("v revenue", []),
    ("apple and low margins", [("company", "AAPL")]),
    ("apple margins are higher than low", [("company", "AAPL")]),
])
def test_an_everyday_word_ticker_counts_as_an_owner_or_across_vs_from_a_company(directory, text, expected):
    assert resolve(directory, text) == expected
