"""Counts the filing states only in words (employees, stores, route miles): the company's own sentence is
quoted, never a sentence counting something narrower, and printed rows named whole are read as rows."""

from __future__ import annotations

import pytest

from agent.planning.counts import PEOPLE, counted
from agent.planning.words import account
from agent.retrieval.line_items import resolve
from agent.retrieval.prose_counts import count_pattern, find_count
from tests import agent_corpus


def test_a_count_names_the_things_counted_and_a_headcount_names_people_however_printed():
    assert counted("how many employees did Nike have in 2025?") == PEOPLE
    assert counted("HD headcount end of fiscal 2024?") == PEOPLE
    assert counted("company employee count 2024") == PEOPLE
    assert counted("How many route miles does the company's network have?") == ("route miles",)
    assert counted("company store count fiscal 2023") == ("store",)
    assert counted("number of restaurants at year end") == ("restaurants",)
    # no count asked: an amount
    assert counted("what was Apple's revenue in 2024?") is None
    assert counted("how much did the company spend on stores?") is None


def test_only_a_sentence_where_the_company_holds_the_count_states_it():
    pattern = count_pattern(PEOPLE, ["Cisco", "CSCO"])
    assert pattern.search("As of July 27, 2024, we had approximately 90,400 employees.")
    assert pattern.search("At the end of fiscal 2024, we employed approximately 470,100 associates, of whom ...")
    assert pattern.search("As of September 28, 2024, the Company had approximately 164,000 full-time equivalent "
                          "employees.")
    assert pattern.search("As of December 31, 2024 and 2023, our Company had approximately 69,700 and 79,100 "
                          "employees, respectively.")
    # a part of the workforce, or people the sentence is about for another reason: no count of the company's
    assert not pattern.search("Our worldwide sales and marketing functions consisted of approximately 28,000 employees.")
    assert not pattern.search("As of December 31, 2024, approximately 400 employees in North America were covered by "
                              "collective bargaining agreements.")
    assert not pattern.search("We expect to hire 2,000 engineers.")
    miles = count_pattern(("route miles",), ["Union Pacific"])
    assert miles.search("We have 32,880 route miles, connecting Pacific Coast and Gulf Coast ports.")
    assert not miles.search("We have 32,880 miles of track.")


@pytest.fixture
def corpus(db, embedder):
    return agent_corpus.load(db, embedder)


def test_the_count_is_read_from_the_asked_filings_own_sentence_as_the_company_states_it(db, embedder, corpus):
    acc = agent_corpus.ACC[("AAPL", 2024)]
    written = ["Our sales teams of approximately 9,000 employees work closely with channel partners.",
               "As of the fiscal year end, Apple\u2019s workforce grew. Apple employed approximately 161,000 full-time "
               "associates worldwide.", "The Company\u2019s stores had 52,000 visitors a day."]
    with db.connection() as conn:
        for n, (text, vec) in enumerate(zip(written, embedder.embed(written), strict=True)):
            conn.execute("INSERT INTO chunks (accession, cik, item, ordinal, text, context, n_tokens, embedding)"
                         " VALUES (%s, %s, '1', %s, %s, 'Apple 10-K 2024', 30, %s)",
                         (acc, agent_corpus.APPLE, 900 + n, text, vec))
        found = find_count(conn, PEOPLE, agent_corpus.APPLE, [acc], ["Apple Inc.", "Apple", "AAPL"])
        assert found is not None and found[1] == "Apple employed approximately 161,000 full-time associates worldwide."
        # stores named, but no count of them the company holds
        assert find_count(conn, ("stores",), agent_corpus.APPLE, [acc], ["Apple"]) is None


def _row(label, concept, statement="balance"):
    return {"label": label, "concept": concept, "statement": statement, "dims": {}}


def test_a_printed_row_named_whole_is_that_row_not_the_metrics_inside_its_name():
    names = frozenset({frozenset({"asset", "held", "sale"}), frozenset({"equity", "income"})})
    trace, _ = account("assets held for sale 2024", [], printed_names=names)
    assert [t["as"] for t in trace[:4]] == ["unaccounted"] * 4
    trace, _ = account("equity income 2023", [], printed_names=names)
    assert [t["as"] for t in trace[:2]] == ["unaccounted"] * 2
    # not printed so: the metrics stay what they are
    trace, _ = account("assets held for sale 2024", [], printed_names=frozenset())
    assert trace[0]["as"].startswith("metric:")
    # a metric narrowed by the user's word before it is left to the member and line lookups, and a formula's
    # operator is no word of a row's name
    trace, _ = account("deferred revenue 2024", [], printed_names=frozenset({frozenset({"deferred", "revenue"})}))
    assert trace[1]["as"] == "metric:revenue"
    trace, _ = account("operating income / interest expense", [],
                       printed_names=frozenset({frozenset({"operating", "income"})}))
    assert trace[0]["as"].startswith("metric:")


def test_less_current_portion_is_the_noncurrent_row_and_buy_back_the_repurchase_row():
    labels = [_row("Operating lease liability, current portion", "us-gaap:OperatingLeaseLiabilityCurrent"),
              _row("Operating lease liability, less current portion", "us-gaap:OperatingLeaseLiabilityNoncurrent")]
    trace, runs = account("operating lease liability, less current portion 2023", [])
    said = " ".join(t["word"] for t in trace if t["as"] == "unaccounted")
    assert "less" in said
    match, _ = resolve(said, said, labels, [])
    assert match is not None and match.concept == "us-gaap:OperatingLeaseLiabilityNoncurrent"
    rows = [_row("Repurchases of Class A common stock", "us-gaap:PaymentsForRepurchaseOfCommonStock", "cash"),
            _row("Proceeds from issuance of preferred stock", "us-gaap:ProceedsFromIssuanceOfPreferredStock", "cash")]
    match, _ = resolve("class stock buy back", "class stock buy back", rows, [])
    assert match is not None and match.concept == "us-gaap:PaymentsForRepurchaseOfCommonStock"
    # "common" is implied for stock, never for another class the user names
    match, _ = resolve("preferred stock buy back", "preferred stock buy back", rows, [])
    assert match is None


@pytest.fixture(scope="module")
def directory():
    from agent.planning.companies import CompanyDirectory
    from tests.test_companies import COVERED, SEC

    return CompanyDirectory.from_rows(COVERED, SEC, {104169: [2025], 320193: [2024], 63908: [2023]})


@pytest.fixture(scope="module")
def _judged_by_meaning(embedder):
    from agent.planning.exemplars import meaning_from

    with meaning_from(embedder):
        yield


@pytest.mark.parametrize("text", [
    "What is included in Walmart's membership and other income?",
    "what makes up Apple's services revenue?",
    "what does McDonald's other operating income include?",
])
def test_what_a_figure_is_made_of_is_asked_of_the_filings_words(directory, _judged_by_meaning, text):
    from agent.planning.rules import plan_rules

    p = plan_rules(text, directory=directory)
    assert p.route == "domain" and p.intent == "qualitative" and not p.metrics and not p.probe, \
        (p.route, p.intent, p.metrics, p.probe)


def test_a_count_no_table_maps_searches_the_companys_sentence_and_keeps_its_refusal(directory, _judged_by_meaning):
    from agent.planning.in_words import prose_fallback
    from agent.planning.plan import refusal_plan

    def refused(detail):
        return refusal_plan("unknown_metric", detail, tickers=["WMT"], fiscal_years=[2025])

    p = prose_fallback(refused("employees"), "how many employees did Walmart have in fiscal 2025?", directory)
    assert p is not None and p.route == "domain" and p.unless_named["count"] == list(PEOPLE)
    assert p.unless_named["reason"] == "unknown_metric" and p.items[0] == "1"
    # asked in words, it is the filing's discussion, not a count
    p = prose_fallback(refused("headcount"), "why did Walmart's headcount fall in fiscal 2025?", directory)
    assert p is None or not (p.unless_named or {}).get("count")


def test_a_member_named_by_the_words_a_question_asks_in_is_no_member(directory):
    from agent.planning.in_words import prose_fallback
    from agent.planning.plan import refusal_plan

    detail = "thinking advertising revenue (members reported: United States, International)"
    p = prose_fallback(refusal_plan("unknown_metric", detail, tickers=["AAPL"]),
                       "How is Apple thinking about advertising revenue?", directory)
    assert p is not None and p.route == "domain" and p.intent == "qualitative"
    # a member the company lacks, asked as a figure, keeps its refusal
    detail = "zorble revenue drop (members reported: United States, International)"
    assert prose_fallback(refusal_plan("unknown_metric", detail, tickers=["AAPL"]), "apple zorble revenue drop",
                          directory) is None
