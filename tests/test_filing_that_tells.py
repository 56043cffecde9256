"""A year-less prose question about something both 10-Ks name is read in the older one when the latest only
refers back to it (names it with earlier years alone) and the older tells it as its own year's, in more
sentences. Real Postgres; the filings are made up, in our own words, with enough other passages that the
thing asked about is particular to a few of them."""

from __future__ import annotations

import uuid

import pytest

from agent.answer import Turn
from agent.retrieval.earlier_filing import better_earlier, told_when
from tests.made_up_filings import hold, routes

CIK = 990088
OLD, NEW = "0000990088-24-000001", "0000990088-25-000001"
FILINGS = {
    (OLD, 2023): routes(2023) + [
        ("8", "Brightwater strike. In June 2023 drivers at our Brightwater depot went on strike over shift patterns. "
              "The Brightwater strike lasted six weeks and halted deliveries to forty stores. In August 2023 we agreed "
              "a new contract with the Brightwater drivers, which raised pay and ended the stoppage."),
        ("1", "In 2023 we launched Trackline, an online booking service that lets grocery customers schedule truck "
              "pickups from their own loading docks."),
    ],
    (NEW, 2024): routes(2024) + [
        ("7", "The Brightwater strike of 2023, when drivers at our Brightwater depot stopped work over shift patterns, "
              "added overtime at our other depots."),
        ("1", "Trackline, our online booking service, lets grocery customers schedule truck pickups from their own "
              "loading docks."),
    ],
}


@pytest.fixture
def held(db, embedder):
    hold(db, embedder, CIK, "Lanternway Freight Inc.", "LWF", FILINGS)


FILED = {2023: {"accession": OLD, "period_end": "2023-12-31"}, 2024: {"accession": NEW, "period_end": "2024-12-31"}}


def test_how_each_filing_tells_a_thing_it_names(db, held):
    with db.connection() as conn:
        # the older tells the strike as its year's (a heading, two dated sentences, one undated); the latest
        # names it once, as 2023's
        assert told_when(conn, "brigh", 2023, FILED[2023]) == (4, 2, 0)
        assert told_when(conn, "brigh", 2024, FILED[2024]) == (1, 0, 1)


def test_the_10k_that_tells_an_event_in_its_year_is_read_when_the_latest_only_refers_back(db, embedder, held):
    with db.connection() as conn:
        assert better_earlier(conn, embedder, "Brightwater strike", FILED, 2024) == 2023
        # the routes both tell as their own year's: the latest
        assert better_earlier(conn, embedder, "how many trucks run on the Akron route", FILED, 2024) is None


def test_the_10k_that_tells_the_asked_thing_whole_is_read_though_the_latest_names_it(db, embedder, held):
    """Both 10-Ks name the service; only the earlier one tells the launch asked about, in one sentence."""
    with db.connection() as conn:
        assert better_earlier(conn, embedder, "when did launch Trackline", FILED, 2024) == 2023
        # what the service does, both tell alike: the latest
        assert better_earlier(conn, embedder, "what does Trackline let grocery customers do", FILED, 2024) is None


@pytest.fixture
def footnote(db, embedder, held):
    from bot.settings import Settings
    from bot.wiring import build_footnote

    return build_footnote(db, embedder, Settings(llm="off"), use_cache=False)


def test_an_answer_from_the_earlier_10k_says_why_it_was_read(footnote):
    answer = footnote.answer(Turn(thread_key=f"test:{uuid.uuid4().hex}", user="u",
                                  text="when did Lanternway launch Trackline?"))
    assert answer.kind == "answer" and {c.fiscal_year for c in answer.citations} == {2023}, answer.text
    assert "where this is told; the fiscal 2024 10-K, the newest held, tells it less fully" in answer.text, answer.text


def test_the_companys_own_name_is_no_word_asked():
    from agent.retrieval.earlier_filing import asked_stems

    assert asked_stems("what does Lanternway say about the Brightwater strike", ("Lanternway Freight Inc.", "LWF")) \
        == ["brigh", "strik"]
    assert "lante" in asked_stems("what does Lanternway say about the Brightwater strike")


def test_an_acronyms_spelling_out_is_no_more_words_asked():
    from agent.retrieval.earlier_filing import asked_stems

    assert asked_stems("what does Lanternway say about competition in AI (artificial intelligence)") \
        == ["lante", "compe"]
    assert asked_stems("the FTC (Federal Trade Commission) case") == ["ftc", "case"]
