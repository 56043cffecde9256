"""Passages: each prose sentence of a chunk embedded on its own, and a chunk ranked by its best one."""

from __future__ import annotations

import pytest

from ingest.passages import MIN_CHARS, add_passages, passages_searched, sentences
from store import chunks
from store import passages as store
from tests import agent_corpus

# Our own prose: one sentence about freight costs sits among sentences about other things, so the
# chunk's vector is about leases and headcount while one of its sentences answers the question.
MIXED = (
    "Retail store leases are generally for terms of five to ten years and include renewal options.\n\n"
    "The Company had approximately 160,000 full-time equivalent employees at the end of the year. "
    "Freight costs fell during the year because ocean container rates returned to their usual levels. "
    "The Company's headquarters campus in Cupertino is owned, as are most of its data centers.\n\n"
    "Notes"
)


@pytest.fixture
def corpus(db, embedder):
    ids = agent_corpus.load(db, embedder)
    acc = agent_corpus.ACC[("AAPL", 2024)]
    with db.connection() as conn, conn.transaction():
        vec = embedder.embed([f"Apple Inc. 10-K 2024. {MIXED}"])[0]
        row = conn.execute(
            "INSERT INTO chunks (accession, cik, item, ordinal, text, context, n_tokens, embedding)"
            " VALUES (%s, %s, '7', 99, %s, 'Apple Inc. 10-K 2024', 80, %s) RETURNING id",
            (acc, agent_corpus.APPLE, MIXED, vec),
        ).fetchone()
    return {"ids": ids, "mixed": row[0], "acc": acc}


def test_sentences_are_lines_and_sentences_without_headings():
    found = sentences(MIXED)
    assert found[0].startswith("Retail store leases")
    assert any(s.startswith("Freight costs fell") for s in found)
    assert "Notes" not in found and all(len(s) >= MIN_CHARS for s in found)
    assert len(found) == 4


def _hit(db, embedder, query: str, acc: str, weight: float = 1.0):
    with db.connection() as conn:
        hits = chunks.search(conn, [query], embedder.embed([query]), cik=agent_corpus.APPLE, accessions=[acc], limit=8,
                             passage_weight=weight)
    return hits


def test_a_chunk_ranks_by_its_best_passage(db, embedder, corpus):
    question = "why did freight costs go down"
    before = {h.id: h.score for h in _hit(db, embedder, question, corpus["acc"])}
    done = add_passages(db, embedder)
    # every filing with chunks (one of the corpus's filings has none)
    assert set(done.accessions) == {agent_corpus.ACC[k] for k in agent_corpus.CHUNKS} and done.passages > 0
    after = _hit(db, embedder, question, corpus["acc"])
    assert after[0].id == corpus["mixed"]
    # the passage arm's place is added to what the chunk's own vector and words scored
    assert after[0].score > before.get(corpus["mixed"], 0.0) + 1 / (chunks.RRF_K + chunks.ARM_LIMIT)
    # weighed at nothing, the passages change nothing
    unweighted = {h.id: h.score for h in _hit(db, embedder, question, corpus["acc"], weight=0.0)}
    assert unweighted == before


def test_passages_are_written_once_and_again_when_the_chunks_change(db, embedder, corpus):
    add_passages(db, embedder)
    with db.connection() as conn:
        assert store.pending(conn) == []
    assert add_passages(db, embedder).filings == 0
    with db.connection() as conn, conn.transaction():  # a re-ingest writes the filing's chunks again
        conn.execute("DELETE FROM chunks WHERE id = %s", (corpus["mixed"],))
        conn.execute(
            "INSERT INTO chunks (accession, cik, item, ordinal, text, context, n_tokens, embedding)"
            " SELECT accession, cik, item, 100, text, context, n_tokens, embedding FROM chunks WHERE accession = %s"
            " ORDER BY id LIMIT 1", (corpus["acc"],))  # fmt: skip
    with db.connection() as conn:
        assert store.pending(conn) == [corpus["acc"]]
    assert add_passages(db, embedder).filings == 1


def test_a_search_without_passages_is_the_two_arm_fusion(db, embedder, corpus):
    # no passages stored: the third arm is empty and every score is what dense and full text gave
    hits = _hit(db, embedder, "Chief Information Security Officer audit committee", corpus["acc"])
    assert hits[0].item == "1C" and hits[0].score <= 2 / (chunks.RRF_K + 1) + 1e-9


def test_ingest_writes_passages_only_while_the_search_weighs_them(corpus_db):
    with corpus_db.connection() as conn:
        stored = conn.execute("SELECT count(*) FROM passages").fetchone()[0]
        pending = store.pending(conn)
    if passages_searched():
        assert stored > 0 and pending == []
    else:
        assert stored == 0 and pending
