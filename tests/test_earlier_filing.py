"""A prose question naming no year reads the latest 10-K, unless the latest's best passage is weak and an
earlier 10-K held answers it much better (an event the latest no longer discusses): then the earlier one,
named in the answer. A no_grounding refusal after a search bounded to the route's Items comes only once the
whole filing was searched. Real Postgres, the whole graph; the filings are made up, in our own words."""

from __future__ import annotations

import uuid
import pytest

from agent.answer import Turn
from agent.retrieval.earlier_filing import better_earlier, is_name
from agent.retrieval.widening import widens
from tests.made_up_filings import hold

CIK = 990077
OLD, NEW = "0000990077-24-000001", "0000990077-25-000001"
FILINGS = {
    (OLD, 2023): [
        ("1", "Quillfeather operates regional freight terminals in Ohio and Indiana and leases a fleet of electric "
              "delivery vans to serve parcel customers across the Midwest."),
        ("7", "Revenue increased in 2023 primarily due to higher freight volumes at our Ohio terminals."),
        ("1A", "Our delivery vans depend on a single battery supplier, and a disruption at that supplier could halt "
               "deliveries for weeks."),
        ("1", "Our vans are serviced under a maintenance contract with Tollgrove Motors, which also supplies spare "
              "parts to our terminals."),
        ("8", "Harborline arbitration. In 2021 we terminated our agreement to acquire Harborline Shipping after "
              "Harborline failed to meet the closing conditions. Harborline disputed our right to terminate the "
              "agreement, and the dispute is in arbitration before a tribunal in London, which we expect to conclude "
              "in 2024."),
    ],
    (NEW, 2024): [
        ("1", "Quillfeather operates regional freight terminals in Ohio, Indiana and Michigan and leases a fleet of "
              "electric delivery vans to serve parcel customers across the Midwest."),
        ("7", "Revenue increased in 2024 primarily due to the new Michigan terminal and higher parcel volumes."),
        ("1A", "Our delivery vans depend on a single battery supplier, and a disruption at that supplier could halt "
               "deliveries for weeks."),
        ("1", "Our vans are serviced under maintenance contracts with regional dealers, which also supply spare "
              "parts to our terminals."),
        ("8", "Dockside litigation. In March 2024 Dockside Carriers filed a lawsuit against us in Ohio state court, "
              "alleging that our rules on access to our terminals breach state competition law and seeking damages."),
        ("8", "Leases. We lease our terminals and vans under operating leases with terms of up to ten years."),
    ],
}


@pytest.fixture
def held(db, embedder) -> dict[tuple[str, int], list[int]]:
    """Two 10-Ks of a made-up carrier; chunk ids per filing, in order."""
    return hold(db, embedder, CIK, "Quillfeather Logistics Inc.", "QFL", FILINGS)


@pytest.fixture
def footnote(db, embedder, held):
    from bot.settings import Settings
    from bot.wiring import build_footnote

    return build_footnote(db, embedder, Settings(llm="off"), use_cache=False)


def ask(footnote, text, thread=None):
    return footnote.answer(Turn(thread_key=thread or f"test:{uuid.uuid4().hex}", user="u", text=text))


def _cited(answer) -> set[int]:
    return {c.fiscal_year for c in answer.citations}


def test_an_event_only_an_earlier_10k_tells_is_answered_from_it_and_named(footnote, held):
    answer = ask(footnote, "what happened with Quillfeather's Harborline arbitration?")
    assert answer.kind == "answer", answer.text
    assert _cited(answer) == {2023}, answer.text
    assert "fiscal 2023 10-K" in answer.text and "latest" not in answer.text.split("\n")[0], answer.text
    assert "Harborline disputed our right to terminate" in answer.text, answer.text


def test_the_thread_goes_on_at_the_latest_after_an_earlier_filing_was_read(footnote, held):
    thread = f"test:{uuid.uuid4().hex}"
    assert _cited(ask(footnote, "what happened with Quillfeather's Harborline arbitration?", thread)) == {2023}
    answer = ask(footnote, "and what does it say about its battery supplier?", thread)
    assert answer.kind == "answer" and _cited(answer) == {2024}, answer.text


def test_what_the_latest_10k_answers_stays_on_the_latest(footnote, held):
    answer = ask(footnote, "what does Quillfeather say about its battery supplier?")
    assert answer.kind == "answer" and _cited(answer) == {2024}, answer.text


def test_a_named_latest_filing_is_read_even_where_an_earlier_one_says_more(footnote, held):
    answer = ask(footnote, "what does Quillfeather's latest 10-K say about the Harborline arbitration?")
    assert 2023 not in _cited(answer), answer.text


def test_the_earlier_filing_is_chosen_by_how_well_each_answers(db, embedder, held):
    filings = {2023: {"accession": OLD}, 2024: {"accession": NEW}}
    with db.connection() as conn:
        assert better_earlier(conn, embedder, "Harborline arbitration dispute", filings, 2024) == 2023
        assert better_earlier(conn, embedder, "battery supplier disruption", filings, 2024) is None
        # the earlier MD&A matches closer, but every word asked is in the latest too: the latest still discusses it
        assert better_earlier(conn, embedder, "higher freight volumes", filings, 2024) is None
        assert better_earlier(conn, embedder, "Harborline arbitration dispute", {2024: filings[2024]}, 2024) is None


def test_a_name_only_an_earlier_10k_holds_reads_it_though_both_match_alike(db, embedder, held):
    filings = {2023: {"accession": OLD}, 2024: {"accession": NEW}}
    with db.connection() as conn:
        # both 10-Ks tell of the vans' maintenance in nearly the same words; only the earlier names Tollgrove
        assert better_earlier(conn, embedder, "who services the vans, Tollgrove? spare parts and maintenance", filings, 2024) == 2023
        assert better_earlier(conn, embedder, "maintenance contract spare parts", filings, 2024) is None


def test_a_name_is_a_word_the_filing_capitalises_where_no_sentence_starts():
    assert is_name(["serviced under a contract with Tollgrove Motors.", "Tollgrove also supplies parts."], "tollgrove")
    assert is_name(["Adam N. Selipsky | 57 | CEO", "Mr. Selipsky has served as CEO"], "selipsky")
    assert is_name(["goals submitted to the Science Based Targets initiative (SBTi) in 2023"], "sbti")
    # a word the question frames itself with is written lowercase, or capitalised only where a sentence starts
    assert not is_name(["the tribunal decided. Tribunal costs were shared", "the tribunal ruled"], "tribunal")
    assert not is_name(["Happened once. Happened twice."], "happened")
    assert not is_name(["the AI platform"], "ai")  # too short to tell


def test_a_no_grounding_refusal_comes_only_after_the_whole_filing_was_searched(footnote, held):
    answer = ask(footnote, "What does Dockside allege in its claim against Quillfeather?")
    assert answer.kind == "answer", answer.text
    assert "Dockside Carriers filed a lawsuit" in answer.text and _cited(answer) == {2024}, answer.text


def test_only_a_refusal_for_want_of_an_answer_in_the_routes_items_is_searched_again():
    plan = {"route": "domain", "intent": "qualitative", "tickers": ["QFL"]}
    state = {"question": "what does Dockside allege?", "plan": plan, "refusal": {"reason": "no_grounding"},
             "located": {"items": ["1", "1A"], "queries": ["x"], "accessions": {str(CIK): [NEW]}}}
    assert widens(state)
    assert not widens({**state, "widened": True})  # once
    assert not widens({**state, "refusal": {"reason": "out_of_scope"}})
    assert not widens({**state, "located": {**state["located"], "items": []}})  # the whole filing was searched
    assert not widens({**state, "question": "what do the risk factors say about Dockside?"})  # a section named
    assert not widens({**state, "plan": {**plan, "intent": "numeric"}})

