"""Scope that reads the whole question: a verdict asked of Footnote is refused whichever company a
name resolves to; a surname is no company; a company named beside a covered one is what is missing
first; how a company does something is asked in words. Wordings here are not in exemplars.tsv."""

from __future__ import annotations

import pytest

from agent.planning.brands import brands_from
from agent.planning.companies import CompanyDirectory
from agent.planning.exemplars import load, meaning_from
from agent.planning.rules import plan_rules
from tests.test_companies import COVERED, SEC

MORE_COVERED = [(37996, "FORD MOTOR CO", ["F"]), (1800, "ABBOTT LABORATORIES", ["ABT"])]
MORE_SEC = [("F", 37996, "FORD MOTOR CO"), ("ABT", 1800, "ABBOTT LABORATORIES"), ("TIMB", 1071321, "TIM S.A."),
            ("RIVN", 1874178, "Rivian Automotive, Inc. / DE"), ("TM", 1094517, "TOYOTA MOTOR CORP/"),
            ("APWC", 1052595, "ASIA PACIFIC WIRE & CABLE CORP LTD"), ("AVGO", 1730168, "Broadcom Inc.")]


@pytest.fixture(scope="module")
def directory() -> CompanyDirectory:
    return CompanyDirectory.from_rows(
        COVERED + MORE_COVERED, SEC + MORE_SEC,
        {320193: [2023, 2024], 1045810: [2024, 2025], 104169: [2024, 2025], 1318605: [2023, 2024],
         37996: [2023, 2024], 1800: [2023, 2024], 91419: [2023, 2024]},
    )


@pytest.fixture
def judged(embedder):
    """As in the service: the planning node lends the sentence model to the exemplar judge."""
    with meaning_from(embedder):
        yield


def plan(directory, text, previous=None):
    return plan_rules(text, previous=previous, directory=directory)


VERDICTS = [
    "Is Robert Ford doing a good job running Abbott?",  # "Ford" is a covered company's name
    "Is Mark Smucker the right leader for Smucker's?",
    "is Jensen Huang overrated?",
    "would you trust Elon Musk to run Tesla?",
    "Rate Lisa Su's performance at AMD",
    "honestly, is Walmart better managed than Target?",
    "should I load up on Nvidia ahead of earnings?",
    "Is Tesla a good company?",
    "should Apple's chief executive step down?",
    "Was it a mistake for Tesla to build the Cybertruck?",
]


def test_these_wordings_are_not_exemplars():
    texts = {t.lower() for _, t in load()}
    assert not texts & {t.lower() for t in VERDICTS}


@pytest.mark.parametrize("text", VERDICTS)
def test_a_verdict_is_refused_whatever_company_a_name_resolves_to(directory, text):
    """By the rules alone (no sentence model lent): checked before any company is looked up."""
    p = plan(directory, text)
    assert (p.route, p.refusal_reason) == ("refusal", "out_of_scope"), p


@pytest.mark.parametrize("text", [
    "Is the Boeing board doing its job?",
    "Is Walmart worth it at this price?",
])
def test_a_verdict_no_rule_names_is_refused_by_meaning(directory, judged, text):
    p = plan(directory, text)
    assert (p.route, p.refusal_reason) == ("refusal", "out_of_scope"), p


@pytest.mark.parametrize("text", [
    "What does Ford say about its best-selling trucks?",
    "Which Apple segment had the best operating income in 2024?",
    "Who is Walmart's CEO?",
    "Is Boeing's debt a concern?",
    "what does Tesla say is the right level of capital spending?",
    "How well did Walmart's eCommerce business do in fiscal 2025?",
    "Is Apple doing well in China?",  # judges no one: what its filing says of Greater China
    "What's good about Nvidia's business model?",
])
def test_a_question_about_the_filing_with_a_verdict_word_is_not_refused(directory, judged, text):
    p = plan(directory, text)
    assert p.route == "domain", p


def test_a_surname_that_is_a_company_name_is_a_person(directory):
    found = directory.find("What does Abbott say about Robert Ford's pay?")
    assert [m.company.ticker for m in found] == ["ABT"]
    assert directory.find("Is Satya Nadella smarter than Tim Cook?") == []  # "Tim" is a ticker's name too


@pytest.mark.parametrize("text, tickers", [
    ("Compare Tesla and Ford revenue", ["TSLA", "F"]),
    ("What Was Ford's Revenue In 2023?", ["F"]),  # Title Case: capitals say nothing
    ("Ford revenue 2023", ["F"]),
    ("Did Ford outsell GM in 2023?", ["F", "GM"]),
])
def test_a_company_beside_other_capitalised_words_is_still_found(directory, text, tickers):
    assert [m.company.ticker for m in directory.find(text)] == tickers


@pytest.mark.parametrize("text, reason, detail", [
    # a well-known company that files nothing with the SEC: known, and not covered
    ("Compare Apple and Adidas revenue in 2023", "not_covered", "Adidas"),
    ("Walmart vs. Aldi gross margin 2024", "not_covered", "Aldi"),
    ("Apple and Samsung R&D spending 2023", "not_covered", "Samsung"),
    ("Compare Ford and Rivian R&D in 2023", "not_covered", "Rivian (RIVN)"),
])
def test_a_company_listed_beside_a_covered_one_is_what_is_missing(directory, text, reason, detail):
    """Never "unknown metric: adidas revenue", never Apple's revenue alone."""
    p = plan(directory, text)
    assert (p.route, p.refusal_reason, p.refusal_detail) == ("refusal", reason, detail), p


def test_a_brand_listed_beside_its_company_is_no_other_company(directory):
    """The company's own filings name it most, and often: its brand or segment, looked up as one."""
    with brands_from(lambda phrase: [(320193, 40)] if phrase.lower() == "beats" else []):
        p = plan(directory, "Apple and Beats revenue 2024")
    assert p.refusal_reason != "no_company", p


def test_a_listed_name_needs_a_list_word_not_letters_of_one(directory):
    """"For Visa FY2024" holds "or" inside "For": no name is listed there."""
    p = plan(directory, "Let cash returned = dividends paid + share repurchases. For Visa FY2024, what is cash "
                        "returned as a % of operating cash flow?")
    assert p.route == "domain", p


def test_how_a_company_does_something_is_asked_in_words(directory):
    p = plan(directory, "How does Apple account for the amortization of its capitalized software?")
    assert (p.route, p.intent) == ("domain", "qualitative"), p


def test_what_to_ask_about_a_company_is_help(directory):
    p = plan(directory, "What can I ask you about Apple?")
    assert (p.route, p.intent) == ("meta", "help"), p


def test_a_greeting_to_a_company_team_is_small_talk(directory, judged):
    assert (plan(directory, "Good morning Walmart team!").route) == "meta"
    p = plan(directory, "Good morning, what was Walmart's revenue in fiscal 2024?")
    assert (p.route, p.tickers) == ("domain", ["WMT"]), p


def test_an_off_topic_ask_naming_a_place_is_no_unknown_company(directory, judged):
    p = plan(directory, "Could you put together a 4-day itinerary for Porto?")
    assert (p.route, p.refusal_reason) == ("refusal", "out_of_scope"), p


def test_advice_on_a_named_company_is_refused_by_its_neighbours_together(directory):
    """Near advice and opinion exemplars both: neither alone is the majority, together they refuse."""
    p = plan(directory, "Is Tesla a buy at these levels?")
    assert (p.route, p.refusal_reason) == ("refusal", "out_of_scope"), p


def test_a_year_no_filing_has_reached_asked_of_footnote_is_a_prediction(directory):
    """Not "I don't have fiscal 2031": no one has; a count asked for then is a forecast."""
    p = plan(directory, "How many stores will Walmart operate in 2031?")
    assert (p.route, p.refusal_reason) == ("refusal", "out_of_scope"), p
    p = plan(directory, "What debt matures for Apple in 2031?")  # what the filing tabulates by year
    assert p.route == "domain", p


def test_a_likeness_to_another_product_is_a_question_about_footnote(directory, judged):
    p = plan(directory, "is this like Kagi?")
    assert (p.route, p.intent) == ("meta", "about"), p


def test_thanks_with_nothing_asked_is_thanks(directory, judged):
    p = plan(directory, "ok now, thanks a ton")
    assert (p.route, p.intent) == ("meta", "thanks"), p


@pytest.mark.parametrize("text", [
    "What are the risks to Apple's services revenue?",
    "Where does Visa earn most of its net revenue?",
    "How is Boeing addressing its negative free cash flow?",
    "How sensitive is Walmart's operating income to fuel prices?",
    "Walk me through Tesla's capital expenditures",
])
def test_a_description_asked_for_is_prose_whatever_figure_it_names(directory, text):
    """Never the figure alone: the question asks what the filing says about it."""
    p = plan(directory, text)
    assert (p.route, p.intent) == ("domain", "qualitative"), p


@pytest.mark.parametrize("text", [
    "What was Apple's services revenue in fiscal 2024?",
    "How much did Tesla spend on capital expenditures in 2023?",
    "Where did Walmart's operating income land in fiscal 2025, above $25 billion?",
])
def test_a_figure_asked_for_stays_a_figure(directory, text):
    p = plan(directory, text)
    assert p.route == "domain" and p.intent != "qualitative", p


def test_a_registrant_named_in_a_follow_up_is_that_registrant_not_the_thread_company(directory):
    with brands_from(lambda phrase: []):
        p = plan_rules("and Toyota in 2022?", previous=plan(directory, "Ford revenue 2023"), directory=directory)
    assert (p.route, p.refusal_reason, p.tickers) == ("refusal", "not_covered", ["TM"]), p


def test_a_word_the_thread_company_writes_is_no_other_registrant(directory):
    """Apple's filings write "Asia": a region of Apple's, whatever registrant's name begins with it."""
    from agent.planning.brands import registrant_not_theirs

    with brands_from(lambda phrase: [(320193, 12)] if phrase == "Asia" else []):
        assert registrant_not_theirs("and Asia?", directory, ["AAPL"]) is None
        assert registrant_not_theirs("and sales in Asia?", directory, ["NVDA"]) is None  # a place
        assert registrant_not_theirs("and Toyota?", directory, ["AAPL"])[0] == "Toyota"


@pytest.mark.parametrize("text, intent", [
    ("Happy Friday Walmart folks", "greeting"),
    ("gtg, meeting with Tesla", "goodbye"),
    ("thanks, that was super helpful for my Apple deck", "thanks"),
])
def test_small_talk_that_names_a_company_asks_nothing_of_it(directory, text, intent):
    p = plan(directory, text)
    assert (p.route, p.intent) == ("meta", intent), p


@pytest.mark.parametrize("text", ["Hi, Apple's revenue in fiscal 2024?", "thanks. now Tesla's risk factors",
                                  "hello Nvidia 10-K"])
def test_small_talk_before_a_question_leaves_the_question(directory, text):
    assert plan(directory, text).route != "meta"


def test_a_refusal_by_letters_needs_the_words_beside_the_company(directory):
    """"Broadcom VMware integration costs" is near "do you like the company?" only by the masked
    name: what it asks is about Broadcom, which we do not cover, never investment advice."""
    p = plan(directory, "Broadcom VMware integration costs")
    assert (p.route, p.refusal_reason) == ("refusal", "not_covered"), p


@pytest.mark.parametrize("text", [
    "What projections does Apple make about its services growth?",
    "What guidance does Tesla give on capital expenditures?",
    "Does Walmart consider its eCommerce business a good investment?",
])
def test_what_a_company_projects_or_holds_is_asked_of_its_filing(directory, judged, text):
    p = plan(directory, text)
    assert (p.route, p.intent) == ("domain", "qualitative"), p


@pytest.mark.parametrize("text", [
    "What projections do analysts make for Nvidia?",
    "do you consider Tesla a good investment?",
])
def test_the_same_asked_of_others_or_of_footnote_is_refused(directory, text):
    p = plan(directory, text)
    assert (p.route, p.refusal_reason) == ("refusal", "out_of_scope"), p


@pytest.mark.parametrize("text", [
    "write a poem about Apple's earnings",
    "compose a little haiku on Nvidia's revenue growth",
    "tell me a joke about Boeing's net loss in 2024",
])
def test_a_piece_of_writing_asked_for_is_out_of_scope_whatever_figure_it_is_about(directory, text):
    p = plan_rules(text, directory=directory)
    assert (p.route, p.refusal_reason) == ("refusal", "out_of_scope"), p


def test_an_off_topic_word_inside_a_question_about_a_filing_is_still_asked(directory):
    p = plan_rules("how did the weather affect Apple's revenue in 2024?", directory=directory)
    assert p.route == "domain", p


@pytest.mark.parametrize("text, framed", [
    ("is tesla predicting higher deliveries next year?", True),  # the company's prediction: its filing's words
    ("does nvidia foresee supply constraints easing?", True),
    ("are you predicting higher tesla deliveries next year?", False),  # Footnote's own: refused
    ("do analysts predict higher nvidia revenue?", False),
])
def test_a_prediction_asked_of_the_company_is_its_filings_statement(directory, text, framed):
    from agent.planning.scope import filing_framed

    assert filing_framed(text) is framed
    p = plan(directory, text)
    assert (p.route == "refusal" and p.refusal_reason == "out_of_scope") is not framed, p


@pytest.mark.parametrize("text, reason, detail", [
    ("gm vs toyota net income 2023 pls", "not_covered", "toyota (TM)"),  # a registrant by its name's first word
    ("compare tesla and rivian r&d 2023", "not_covered", "rivian (RIVN)"),
    ("tesla versus adidas net income 2023", "not_covered", "adidas"),  # a well-known company the SEC has no filing of
    ("boeing compared with zorbleq revenue 2023", "no_company", "zorbleq"),  # compared: a word no dictionary holds
    ("zorbleq vs boeing revenue 2023", "no_company", "zorbleq"),
])
def test_a_company_typed_in_lowercase_beside_a_covered_one_is_a_company(directory, text, reason, detail):
    """Never a line of the first company's statements named "toyota net income"."""
    p = plan(directory, text)
    assert (p.route, p.refusal_reason, p.refusal_detail) == ("refusal", reason, detail), p


def test_a_covered_company_typed_in_lowercase_beside_another_is_compared(directory):
    """"ford" is an everyday word, so it names Ford only where its filings write it and it is listed."""
    with brands_from(lambda phrase: [(37996, 40)] if phrase.lower() == "ford" else []):
        p = plan(directory, "tesla vs ford revenue fy2023")
    assert (p.route, sorted(p.tickers), p.metrics) == ("domain", ["F", "TSLA"], ["revenue"]), p


@pytest.mark.parametrize("text", [
    "could tesla afford its capex in 2023?",  # "ford" inside a word
    "tesla vs peers gross margin 2023",
    "tesla revenue 2023 vs 2022",
    "tesla and energy revenue 2023",  # an everyday word no registrant's name is known by
    "apple and cash and cash equivalents 2024",
])
def test_a_lowercase_word_beside_a_company_is_no_company_by_its_place_alone(directory, text):
    p = plan(directory, text)
    assert p.refusal_reason not in ("no_company", "not_covered"), p


def test_an_industry_word_after_and_is_the_company_s_segment_not_a_registrant():
    """"boeing and defense revenue": Boeing's defense segment, never a small registrant named Defense…"""
    d = CompanyDirectory.from_rows(COVERED, SEC + [("DTII", 1172069, "Defense Technologies International Corp")])
    p = plan(d, "boeing and defense revenue 2023")
    assert p.refusal_reason not in ("no_company", "not_covered"), p


def test_the_registrant_known_by_a_shared_name_is_the_one_trading_under_its_letters():
    d = CompanyDirectory.from_rows(COVERED, SEC + [("CBDY", 1424404, "Target Group Inc.")])
    p = plan(d, "walmart vs target revenue 2024")
    assert (p.refusal_reason, p.tickers) == ("not_covered", ["TGT"]), p


def test_a_registrant_typed_without_its_apostrophe_is_that_registrant(directory):
    d = CompanyDirectory.from_rows(COVERED, SEC + [("WEN", 30697, "WENDY'S CO")])
    p = plan(d, "mcdonalds vs wendys net income 2023")
    assert (p.refusal_reason, p.refusal_detail) == ("not_covered", "wendys (WEN)"), p


def test_what_about_a_well_known_non_registrant_after_prose_is_that_company(directory):
    """Never a topic of the thread's company searched in its 10-K ("samsung" is a dictionary word too)."""
    first = plan(directory, "what does apple say about competition in smartphones?")
    p = plan(directory, "what about samsung?", previous=first)
    assert (p.refusal_reason, p.refusal_detail) == ("not_covered", "samsung"), p


def test_a_lowercase_possessive_owner_is_the_registrant_it_names(directory):
    """"toyota's net income": toyota owns the figure, so it is Toyota, though "toyota" is in a dictionary."""
    p = plan(directory, "toyota's net income 2023")
    assert (p.refusal_reason, p.refusal_detail) == ("not_covered", "toyota (TM)"), p


@pytest.mark.parametrize("text", ["apple and us revenue 2024", "apple and china revenue 2024"])
def test_a_place_after_and_is_a_member_not_a_registrant(text):
    """"china" begins many registrants' names; beside a company and a figure it is where revenue came from."""
    d = CompanyDirectory.from_rows(COVERED, SEC + [("USB", 36104, "US BANCORP \\DE\\"),
                                                   ("CHNR", 793628, "CHINA NATURAL RESOURCES INC")])
    p = plan(d, text)
    assert p.refusal_reason not in ("no_company", "not_covered"), p


def test_a_registrant_named_with_its_country_after_it_is_that_registrant():
    d = CompanyDirectory.from_rows(COVERED + [(732712, "VERIZON COMMUNICATIONS INC", ["VZ"])],
                                   SEC + [("TMUS", 1283699, "T-Mobile US, Inc.")])
    p = plan(d, "verizon and t-mobile operating income 2023")
    assert (p.refusal_reason, p.tickers) == ("not_covered", ["TMUS"]), p
