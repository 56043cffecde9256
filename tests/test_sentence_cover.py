"""A chunk below the first places that holds the one sentence covering the question's rare words is
read among the first (agent.retrieval.sentence_cover); otherwise the search's order stands."""

from __future__ import annotations

from datetime import date

import pytest

from agent.retrieval.sentence_cover import AT, answering_first, covers, word_weights
from store import chunks

CIK, ACC = 990002, "0000990002-24-000001"

# A made-up design-software maker's 10-K, in our own words. Every chunk speaks of subscriptions and
# software; only one sentence, closing a paragraph about trademarks, says how the subscription model
# bears on piracy.
FILING = [
    ("1", "Our subscription offerings give customers access to our software and cloud services for a recurring fee, "
          "and most of our revenue now comes from subscriptions."),
    ("1", "We sell subscriptions directly through our website and through a network of resellers and distributors "
          "in many countries."),
    ("1", "Our software products compete with those of many companies, and subscription pricing in our markets is "
          "competitive."),
    ("1", "We invest in research and development of new software features for our subscription customers every year."),
    ("1", "Subscription revenue is recognized ratably over the term of each contract, and renewals are billed annually."),
    ("1", "Our employees work in offices around the world, and we offer training programs to help them grow."),
    ("1", "We register trademarks and copyrights for our product names in the countries where we sell. "
          "Our licenses let customers install the software on a limited number of devices. "
          "We believe our subscription model and cloud delivery make software piracy of our products harder."),
    ("1", "Our principal offices are in Portland, Oregon, and our website is listed on the cover of this report."),
]
PIRACY = 6  # the ordinal of the chunk that answers


@pytest.fixture
def hits(db, embedder) -> list[chunks.ChunkHit]:
    """The filing's chunks as search hits, in filing order (the answering one 7th)."""
    out = []
    with db.connection() as conn, conn.transaction():
        conn.execute("INSERT INTO companies (cik, name, tickers) VALUES (%s, 'Drafting Tools Inc.', %s)", (CIK, ["DRFT"]))
        conn.execute("INSERT INTO filings (accession, cik, form, fiscal_year, period_end, filed, url, content_hash)"
                     " VALUES (%s, %s, '10-K', 2024, %s, %s, 'https://www.sec.gov/y.htm', 'y')",
                     (ACC, CIK, date(2024, 12, 31), date(2025, 2, 20)))
        vectors = embedder.embed([t for _, t in FILING])
        for ordinal, ((item, text), vec) in enumerate(zip(FILING, vectors, strict=True)):
            row = conn.execute("INSERT INTO chunks (accession, cik, item, ordinal, text, context, n_tokens, embedding)"
                               " VALUES (%s, %s, %s, %s, %s, 'Drafting Tools 10-K 2024', 40, %s) RETURNING id",
                               (ACC, CIK, item, ordinal, text, vec)).fetchone()
            out.append(chunks.ChunkHit(row[0], ACC, CIK, item, ordinal, False, text, 2024, "10-K", "u", None,
                                       1.0 - ordinal / 100))
    return out


QUESTION = "does the subscription model help fight software piracy"


def test_the_chunk_whose_sentence_covers_the_question_is_read_among_the_first(db, hits):
    with db.connection() as conn:
        moved = answering_first(conn, hits, QUESTION, [ACC])
    assert [h.ordinal for h in moved].index(PIRACY) == AT - 1
    assert [h.ordinal for h in moved][:AT - 1] == [0, 1, 2, 3]  # the search's best keep their places
    assert sorted(h.id for h in moved) == sorted(h.id for h in hits)  # nothing dropped, nothing added
    assert moved[AT - 1].score == hits[AT - 2].score  # ranked at the place it takes


def test_a_rare_word_weighs_more_than_one_every_chunk_holds(db, hits):
    with db.connection() as conn:
        weights = word_weights(conn, ["subscription", "piracy", "fight"], [ACC])
        assert weights["piracy"] > weights["subscription"]
        assert "fight" not in weights  # no chunk holds it: it cannot tell chunks apart
        cover = covers(conn, hits, weights)
    assert max(range(len(hits)), key=cover.__getitem__) == PIRACY


def test_the_order_stands_when_the_answer_is_already_read_first_or_nothing_covers_the_question(db, hits):
    first = [hits[PIRACY], *hits[:PIRACY], *hits[PIRACY + 1:]]
    with db.connection() as conn:
        assert answering_first(conn, first, QUESTION, [ACC]) == first
        # only common words: no sentence covers the question better than the first chunks'
        assert answering_first(conn, hits, "software subscription customers", [ACC]) == hits
        assert answering_first(conn, hits[:5], QUESTION, [ACC]) == hits[:5]


def test_sentence_words_stem_as_the_search_does(db):
    with db.connection() as conn:
        held = chunks.sentence_words(conn, ["Franchisees operate most restaurants.", "We own the stores."],
                                     ["franchisee", "restaurant", "the"])
    assert held == [{"franchisee", "restaurant"}, set()]  # a stop word makes no query


def test_the_order_stands_when_a_first_chunk_already_covers_half_the_question(db, hits):
    # the 3rd chunk now also speaks of piracy, in fewer of the question's words than the 7th
    covered = chunks.ChunkHit(**{**hits[2].__dict__, "text": hits[2].text + " Strong licensing terms help limit piracy in several markets we serve."})
    first = [*hits[:2], covered, *hits[3:]]
    with db.connection() as conn:
        assert answering_first(conn, first, QUESTION, [ACC]) == first

