"""Prose search: Items a question is routed to by default weigh chunks instead of bounding them;
repeated passages take one place; the reason for a standing choice is read with the strategy."""

from __future__ import annotations

from datetime import date
from types import SimpleNamespace

import pytest

from agent.planning.companies import CompanyDirectory
from agent.planning.prose_route import asks_rationale, order_items
from agent.planning.rules import plan_rules
from agent.retrieval.earlier_filing import EARLIER_SLOT
from agent.retrieval.retrieve import _item_scope, distinct_hits
from store import chunks
from tests.test_companies import COVERED, SEC

CIK, ACC = 990001, "0000990001-24-000001"

# A made-up miner's 10-K, in our own words: the answer to "what does it say about the next
# halving?" is in the business description, while MD&A (where a statement question is sent by
# default) speaks of the year's results with the same vocabulary.
FILING = [
    ("1", "Bitcoin halving. The block reward paid to miners is cut in half roughly every four years. "
          "The next halving is expected in April 2024, when the reward will fall from 6.25 to 3.125 bitcoin per block."),
    ("1", "We operate data centers in Texas and Georgia and sell the bitcoin we mine on regulated exchanges."),
    ("1A", "A halving reduces our revenue per block, and if the bitcoin price does not rise our mining margin could "
           "shrink or turn negative."),
    ("7", "Revenue increased in 2023 because the average bitcoin price rose and our hash rate grew as new miners "
          "were energized."),
    ("7", "Cost of revenue increased in 2023 primarily due to higher power costs at our Texas facility."),
    ("7", "We expect capital expenditures in 2024 to be funded from cash on hand and the sale of mined bitcoin."),
]


@pytest.fixture
def filing(db, embedder) -> dict[str, int]:
    """The filing's chunks, keyed 'item:ordinal' -> id."""
    ids = {}
    with db.connection() as conn, conn.transaction():
        conn.execute("INSERT INTO companies (cik, name, tickers) VALUES (%s, 'Hashmark Mining Inc.', %s)", (CIK, ["HSHM"]))
        conn.execute("INSERT INTO filings (accession, cik, form, fiscal_year, period_end, filed, url, content_hash)"
                     " VALUES (%s, %s, '10-K', 2023, %s, %s, 'https://www.sec.gov/x.htm', 'x')",
                     (ACC, CIK, date(2023, 12, 31), date(2024, 2, 20)))
        vectors = embedder.embed([t for _, t in FILING])
        for ordinal, ((item, text), vec) in enumerate(zip(FILING, vectors, strict=True)):
            row = conn.execute("INSERT INTO chunks (accession, cik, item, ordinal, text, context, n_tokens, embedding)"
                               " VALUES (%s, %s, %s, %s, %s, 'Hashmark 10-K 2023', 40, %s) RETURNING id",
                               (ACC, CIK, item, ordinal, text, vec)).fetchone()
            ids[f"{item}:{ordinal}"] = row[0]
    return ids


def _search(db, embedder, query, **scope):
    with db.connection() as conn:
        return chunks.search(conn, [query], embedder.embed([query]), cik=CIK, accessions=[ACC], **scope)


def test_a_preferred_item_does_not_hide_the_answer_told_in_another(db, embedder, filing):
    query = "what does it say about the next bitcoin halving"
    bounded = _search(db, embedder, query, items=["7"])
    assert {h.item for h in bounded} == {"7"}  # a bound keeps the search inside the Item
    preferred = _search(db, embedder, query, prefer=["7"], limit=3)
    assert filing["1:0"] in [h.id for h in preferred]  # the business description's halving passage comes back
    assert filing["1:0"] not in [h.id for h in bounded]


def test_a_preferred_item_wins_among_equal_matches(db, embedder, filing):
    # "revenue increased in 2023" is said once, in MD&A; with MD&A preferred its chunks lead the rest
    hits = _search(db, embedder, "revenue cost increased 2023 bitcoin", prefer=["7"], limit=6)
    plain = _search(db, embedder, "revenue cost increased 2023 bitcoin", limit=6)
    rank = {h.id: i for i, h in enumerate(hits)}
    plain_rank = {h.id: i for i, h in enumerate(plain)}
    moved = [i for i in rank if i in plain_rank]
    assert all(rank[i] <= plain_rank[i] for i in moved if i in (filing["7:3"], filing["7:4"], filing["7:5"]))
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_the_planners_default_items_are_a_preference_and_its_routes_a_bound():
    guessed = SimpleNamespace(items_guessed=True)
    routed = SimpleNamespace(items_guessed=False)
    assert _item_scope("what does it say about the next halving?", guessed, ["7"]) == {"prefer": ["7"]}
    # the planner's route bounds the search, its best passage in MD&A or the business description read beside it
    assert _item_scope("how dependent is it on its bottlers?", routed, ["1A", "1", "7"]) == {
        "items": ["1A", "1", "7"], "beyond": ["7", "1"]}
    # a cause is told in MD&A, the route's first Item: nothing beside it
    cause = SimpleNamespace(items_guessed=False, asks_cause=True)
    assert _item_scope("why did margins fall?", cause, ["7", "8"]) == {"items": ["7", "8"]}
    # a section the question names bounds the search even when the planner had no other route, and nothing beside it
    assert _item_scope("what do the risk factors say about halving?", guessed, ["1A"]) == {"items": ["1A"]}
    assert _item_scope("what do the risk factors say about halving?", routed, ["1A"]) == {"items": ["1A"]}
    # no Item chosen at all: the whole filing, MD&A and the business description preferred
    assert _item_scope("anything on mining margins?", guessed, []) == {"prefer": ["7", "1"]}
    # unless the question asks for the risks or the notes themselves
    assert _item_scope("any risks to mining margins?", guessed, []) == {}
    assert _item_scope("what do the notes say about impairment testing of miners?", guessed, []) == {}
    # an earlier 10-K read for the passage that tells the event (agent.retrieval.earlier_filing): wherever it lies
    earlier = SimpleNamespace(items_guessed=False, slots={"fiscal_years": EARLIER_SLOT})
    assert _item_scope("what happened with the harborline arbitration?", earlier, ["7", "1A"]) == {"prefer": ["7", "1A"]}


def test_with_no_item_chosen_risk_boilerplate_does_not_win_on_shared_words(db, embedder, filing):
    """A risk factor repeats the topic's words ("halving", "revenue", "bitcoin price", "margin"):
    ranked plainly it leads, though MD&A tells what happened; with the narrative prior it yields."""
    query = "how did the bitcoin price and halving affect hashmark revenue and mining margin"
    plain = _search(db, embedder, query, limit=6)
    prior = _search(db, embedder, query, **_item_scope(query, SimpleNamespace(items_guessed=True), []), limit=6)
    assert plain[0].id == filing["1A:2"]  # the fixture's premise: overlap alone puts the risk factor first
    assert prior[0].item in ("7", "1")
    assert [h.id for h in prior].index(filing["1A:2"]) > 0


def test_the_planner_marks_only_its_default_items_as_guessed():
    directory = CompanyDirectory.from_rows(COVERED, SEC, {1318605: [2023, 2024]})
    said = plan_rules("what does tesla say about the next bitcoin halving?", directory=directory)
    assert said.intent == "qualitative" and said.items_guessed
    risks = plan_rules("what are tesla's risk factors about the supply chain?", directory=directory)
    assert risks.intent == "qualitative" and not risks.items_guessed
    why = plan_rules("why did tesla's automotive revenue fall in 2024?", directory=directory)
    assert why.intent == "qualitative" and not why.items_guessed
    # plans and expectations are MD&A's own route, not a default
    capex = plan_rules("what does tesla expect for capex in 2025?", directory=directory)
    assert capex.items == ["7"] and not capex.items_guessed
    # a quoted row name is the row's figure; were it searched as prose, it would keep its bound (a note's
    # neighbouring amounts would be quoted for it)
    phrase = plan_rules("tesla 'dividends to shareholders' fy2024", directory=directory)
    assert phrase.intent == "numeric" and not phrase.items_guessed


def _hit(i: int, text: str):
    return SimpleNamespace(id=i, text=text, item="7", score=1.0 / (60 + i))


def test_a_repeated_passage_takes_one_place_and_the_next_distinct_one_fills_it():
    outlook = ("We expect deliveries of the new aircraft to begin after certification, which we anticipate in the "
               "first half of next year. Revenue for the segment is expected to rise to about twelve billion dollars.")
    hits = [
        _hit(1, outlook),
        _hit(2, "Segment overview.\n" + outlook),  # the same passage under another heading (Item 1 and MD&A)
        _hit(3, "Operating margin increased fifty basis points on higher deliveries of large-cabin aircraft this year."),
        _hit(4, "Backlog at year end included firm orders from fractional ownership operators and corporations."),
    ]
    kept = distinct_hits(hits, 3)
    assert [h.id for h in kept] == [1, 3, 4]
    # chunks sharing one sentence at their edges are different passages: both stay
    edge = [_hit(5, outlook + " Backlog rose."), _hit(6, "Revenue for the segment is expected to rise to about twelve "
                                                      "billion dollars. Margins should improve with the new model's "
                                                      "entry into service and a richer mix of deliveries.")]
    assert [h.id for h in distinct_hits(edge, 2)] == [5, 6]


def test_the_reason_for_a_standing_choice_reads_the_strategy_first():
    assert asks_rationale("why does coca-cola refranchise its bottling operations?")
    assert asks_rationale("why is texas instruments investing in 300mm fabs?")
    assert not asks_rationale("why is revenue down at nike?")  # a change: MD&A's causes
    assert not asks_rationale("why did the company refranchise bottlers in 2023?")
    assert order_items("why does coca-cola refranchise its bottling operations?", ["7"]) == ["1", "1A", "7"]
    assert order_items("why did gross margin fall?", ["7"]) == ["7", "8"]


# MD&A tells every line's change in one register ("... increased primarily due to ... compared to the
# prior year"): the register alone finds them all, whichever line they explain.
VARIANCE = [
    ("7", "Cost of revenue increased primarily due to higher power costs compared to the prior year."),
    ("7", "Operating expenses decreased primarily due to lower headcount compared to the prior year."),
    ("7", "Interest expense increased primarily due to higher borrowings compared to the prior year."),
    ("7", "General and administrative expenses increased primarily due to higher legal fees compared to the prior year."),
    ("7", "Hosting margin increased primarily due to higher utilization compared to the prior year."),
]


def test_a_why_searches_the_register_of_a_change_about_its_own_subject(db, embedder):
    from agent.retrieval.fetch import EXPLAIN_QUERY, explain_query

    cik, acc = 990002, "0000990002-24-000001"
    with db.connection() as conn, conn.transaction():
        conn.execute("INSERT INTO companies (cik, name, tickers) VALUES (%s, 'Hashmark Hosting Inc.', %s)", (cik, ["HSHH"]))
        conn.execute("INSERT INTO filings (accession, cik, form, fiscal_year, period_end, filed, url, content_hash)"
                     " VALUES (%s, %s, '10-K', 2023, %s, %s, 'https://www.sec.gov/y.htm', 'y')",
                     (acc, cik, date(2023, 12, 31), date(2024, 2, 20)))
        for ordinal, ((item, text), vec) in enumerate(zip(VARIANCE, embedder.embed([t for _, t in VARIANCE]),
                                                          strict=True)):
            conn.execute("INSERT INTO chunks (accession, cik, item, ordinal, text, context, n_tokens, embedding)"
                         " VALUES (%s, %s, %s, %s, %s, 'Hashmark 10-K 2023', 20, %s)",
                         (acc, cik, item, ordinal, text, vec))

    def first(query: str) -> str:
        with db.connection() as conn:
            return chunks.search(conn, [query], embedder.embed([query]), cik=cik, accessions=[acc], items=["7"],
                                 limit=1)[0].text

    assert explain_query(None) == explain_query("  ") == EXPLAIN_QUERY
    assert not first(EXPLAIN_QUERY).startswith("Hosting margin")  # the register alone: any line's change
    assert first(explain_query("hosting margin")).startswith("Hosting margin increased")


@pytest.mark.parametrize("question, items, expected", [
    # what happened in a named year is told in MD&A, before the timeless business description
    ("how did humira do in the us in 2023?", ["1", "7"], ["7", "1"]),
    ("how did walmart fare in fy24", ["1", "7"], ["7", "1"]),
    # no year, or a description asked for: the business description first, as before
    ("how did walmart fare", ["1", "7"], ["1", "7"]),
    ("tell me about walmart in fiscal 2024", ["1", "7"], ["1", "7"]),
])
def test_a_named_year_reads_mdna_before_the_business_description(question, items, expected):
    assert order_items(question, items) == expected


@pytest.mark.parametrize("question, items, expected", [
    # what the company met in a year is told in MD&A; the risk factors only say what may happen
    ("what headwinds did boeing face in 2024?", ["1A"], ["7", "1A"]),
    ("what uncertainty did unitedhealth describe around medicaid in 2023?", ["1A"], ["7", "1A"]),
    # risks asked for, or no year and no past: the risk factors first, as before
    ("what risks did intel face in 2023?", ["1A"], ["1A"]),
    ("what challenges does intel face?", ["1A"], ["1A"]),
])
def test_what_happened_in_a_year_reads_mdna_before_the_risk_factors(question, items, expected):
    assert order_items(question, items) == expected
