"""The Item where a filing writes the question's particular words together joins the Items a prose question
searches when its route holds them less well (agent.retrieval.told_items); a question naming no year that the
latest 10-K does not answer is weighed against an earlier 10-K that tells it (agent.retrieval.earlier_filing.
told_earlier, agent.retrieval.widening.reads_earlier). Real Postgres; the filings are made up, in our own words,
with enough other passages that the things asked about are particular to a few of them."""

from __future__ import annotations

import pytest

from agent.retrieval.earlier_filing import told_earlier
from agent.retrieval.told_items import asked_pieces, told_items
from tests.made_up_filings import hold, routes

CIK = 990093
OLD, NEW = "0000990093-24-000001", "0000990093-25-000001"
FILINGS = {
    (OLD, 2023): routes(2023) + [
        ("8", "Orchard Lane depot. In April 2023 we agreed to buy the Orchard Lane depot from a regional carrier, and "
              "the Orchard Lane purchase closed in June 2023 for cash on hand."),
    ],
    (NEW, 2024): routes(2024) + [
        ("1A", "Our safety rules may draw claims. In May 2024 we settled a lawsuit the state of Vermont brought over our "
               "loading-dock safety rules, and we agreed to train every driver again."),
        ("8", "In March 2024 we entered into a delayed-draw facility with two banks, which we may draw until 2026 to "
              "fund new trucks; nothing was drawn at year end."),
        ("8", "Capital spending planned for 2025 covers new trucks and the repair of two loading docks."),
        ("8", "After December the board reviews each depot lease."),
        ("1", "Our depots, including Orchard Lane, serve grocery customers across the region."),
    ],
}


@pytest.fixture
def held(db, embedder):
    hold(db, embedder, CIK, "Quillmoor Haulage Inc.", "QMH", FILINGS)


NAMES = ("Quillmoor Haulage Inc.", "QMH")


def test_a_name_told_in_another_item_joins_the_route_after_its_own_items(db, held):
    with db.connection() as conn:
        assert told_items(conn, "what did Quillmoor settle with the state of Vermont", ["1", "7"], NEW, NAMES) \
            == ["1", "7", "1A"]
        # a route that tells it keeps its Items
        assert told_items(conn, "what did Quillmoor settle with the state of Vermont", ["1A"], NEW, NAMES) == ["1A"]
        # a route bounding the search that holds some of the words is kept; a preference is still widened
        asked = "what did Quillmoor settle with the state of Vermont near Orchard"
        assert told_items(conn, asked, ["1"], NEW, NAMES, bound=True) == ["1"]
        assert told_items(conn, asked, ["1"], NEW, NAMES) == ["1", "1A"]


def test_plain_words_written_together_join_the_route_and_one_plain_word_does_not(db, held):
    with db.connection() as conn:
        assert told_items(conn, "how big is the delayed-draw facility", ["1", "7"], NEW, NAMES) == ["1", "7", "8"]
        # "planned" alone, lowercase, is in one passage only: it places nothing
        assert told_items(conn, "anything planned", ["1", "7"], NEW, NAMES) == ["1", "7"]
        # a month is capitalised, yet names no thing
        assert told_items(conn, "what happens in December", ["1", "7"], NEW, NAMES) == ["1", "7"]
        # a question of no particular words, nothing at all
        assert told_items(conn, "what do the routes do", ["1", "7"], NEW, NAMES) == ["1", "7"]


def test_a_joined_name_is_one_piece_and_the_companys_own_name_none():
    assert asked_pieces("jd.com stake - did they sell it") == ["jd.com", "stake", "sell"]
    assert "quill" not in asked_pieces("what did Quillmoor settle with Vermont", NAMES)


FILED = {2023: {"accession": OLD, "period_end": "2023-12-31"}, 2024: {"accession": NEW, "period_end": "2024-12-31"}}


def test_an_earlier_10k_telling_more_of_the_asked_words_is_weighed_once_the_latest_answered_nothing(db, embedder,
                                                                                                     held):
    with db.connection() as conn:
        # the latest names the depot; only the earlier tells its purchase
        assert told_earlier(conn, embedder, "when did the Orchard Lane depot purchase close", FILED, 2024, NAMES) == 2023
        # what both tell alike stays refused where it was
        assert told_earlier(conn, embedder, "how many trucks run on the Akron route", FILED, 2024, NAMES) is None


def _state(**over):
    from agent.planning.plan import Plan

    plan = Plan(route="domain", intent="qualitative", tickers=["QMH"], latest=True,
                slots={"fiscal_years": "latest filing"})
    state = {"question": "when did the Orchard Lane purchase close?", "plan": plan.model_dump(mode="json"),
             "refusal": {"reason": "no_grounding"}, "widened": True, "located": {"items": ["1", "7"]},
             "resolved": [{"cik": CIK, "fiscal_years": [2024], "filings": {"2023": FILED[2023], "2024": FILED[2024]}}]}
    return {**state, **over}


def test_only_a_year_less_question_refused_after_its_whole_latest_filing_reads_an_earlier_10k():
    from agent.retrieval.widening import reads_earlier

    assert reads_earlier(_state())
    assert not reads_earlier(_state(widened=None))  # its route's Items only: the whole filing is searched first
    assert reads_earlier(_state(widened=None, located={"items": []}))  # no route: that was the whole filing
    assert not reads_earlier(_state(earlier_read=True))  # once a turn
    assert not reads_earlier(_state(refusal={"reason": "out_of_scope"}))
    assert not reads_earlier(_state(question="when did the Orchard Lane purchase close in 2024?",
                                    plan={**_state()["plan"], "latest": False, "fiscal_years": [2024]}))
    assert not reads_earlier(_state(resolved=[{"cik": CIK, "fiscal_years": [2024], "filings": {"2024": FILED[2024]}}]))
