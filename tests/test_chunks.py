"""Hybrid search: RRF over vectors and full text, scoped so another company's chunk never returns."""

from __future__ import annotations

import pytest

from store import chunks
from tests import agent_corpus


@pytest.fixture
def corpus(db, embedder):
    return agent_corpus.load(db, embedder)


def _search(db, embedder, query, **scope):
    queries = [query] if isinstance(query, str) else query
    with db.connection() as conn:
        return chunks.search(conn, queries, embedder.embed(queries), **scope)


def test_scoped_to_the_company_whatever_the_query_names(db, embedder, corpus):
    # The question is about Microsoft's words, but the scope is Apple: nothing of Microsoft's comes back.
    hits = _search(db, embedder, "Microsoft Azure cloud competition open-source", cik=agent_corpus.APPLE)
    assert hits
    assert {h.cik for h in hits} == {agent_corpus.APPLE}
    assert set(h.id for h in hits) <= set(corpus[("AAPL", 2024)])


def test_scoped_to_the_filing_and_items(db, embedder, corpus):
    acc = agent_corpus.ACC[("AAPL", 2024)]
    hits = _search(db, embedder, "supplier disruption risks", cik=agent_corpus.APPLE, accessions=[acc], items=["1A"])
    assert hits and all(h.item == "1A" and h.accession == acc for h in hits)
    assert "supplier" in hits[0].text


def test_item_routing_widens_when_the_item_is_missing(db, embedder, corpus):
    hits = _search(db, embedder, "GPU foundry supply", cik=agent_corpus.NVIDIA, items=["1C"])
    assert hits and hits[0].item == "1A"


def test_fusion_ranks_the_keyword_and_vector_match_first(db, embedder, corpus):
    hits = _search(db, embedder, "Chief Information Security Officer audit committee", cik=agent_corpus.APPLE)
    assert hits[0].item == "1C"
    # both arms found it: its fused score is above one arm's best possible (1/61)
    assert hits[0].score > 1 / 61


def test_sub_queries_are_merged_and_capped(db, embedder, corpus):
    hits = _search(
        db, embedder, ["research and development expense increase", "cybersecurity program oversight"],
        cik=agent_corpus.APPLE, limit=3,
    )
    assert len(hits) == 3
    items = {h.item for h in hits}
    assert {"7", "1C"} <= items
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_keyword_query_drops_operators():
    assert chunks.keyword_query('"capex" -risk OR drop; table') == "capex or risk or drop or table"


def test_stating_finds_the_prose_chunks_that_state_an_amount_in_filing_order(db, embedder, corpus):
    acc = agent_corpus.ACC[("AAPL", 2024)]
    written = ["Net sales were $4,321 million in the year, up 3%, primarily due to higher services revenue.",
               "Segment net sales of $14,321 million are presented by region below.",
               "Total net sales rose to $4,321 million, driven by wearables."]
    with db.connection() as conn:
        for n, (text, vec) in enumerate(zip(written, embedder.embed(written), strict=True)):
            conn.execute("INSERT INTO chunks (accession, cik, item, ordinal, text, context, n_tokens, embedding)"
                         " VALUES (%s, %s, '7', %s, %s, 'Apple 10-K 2024', 30, %s)",
                         (acc, agent_corpus.APPLE, 900 - n, text, vec))
        pattern = r"(^|[^0-9.,])4,321 million"
        hits = chunks.stating(conn, [pattern], cik=agent_corpus.APPLE, accessions=[acc], items=["7"])
        # the amount itself, never inside a larger one; in the filing's order
        assert [h.text for h in hits] == [written[2], written[0]]
        assert chunks.stating(conn, [pattern], cik=agent_corpus.MICROSOFT) == []
        assert chunks.stating(conn, [pattern], cik=agent_corpus.APPLE, items=["1A"]) == []
        assert chunks.stating(conn, [], cik=agent_corpus.APPLE) == []


def test_following_is_the_next_chunk_of_the_same_item_and_filing(db, embedder, corpus):
    acc = agent_corpus.ACC[("AAPL", 2024)]
    with db.connection() as conn:
        hits = chunks.search(conn, ["supplier disruption risks"], embedder.embed(["supplier disruption risks"]),
                             cik=agent_corpus.APPLE, accessions=[acc])
        after = chunks.following(conn, hits)
        assert after, "some hit has a chunk after it"
        for hit in hits:
            if hit.id in after:
                nxt = after[hit.id]
                assert (nxt.accession, nxt.item, nxt.ordinal) == (hit.accession, hit.item, hit.ordinal + 1)
        assert chunks.following(conn, []) == {}


def _insert(conn, embedder, texts, item, acc, cik, first=800):
    for n, (text, vec) in enumerate(zip(texts, embedder.embed(texts), strict=True)):
        conn.execute("INSERT INTO chunks (accession, cik, item, ordinal, text, context, n_tokens, embedding)"
                     " VALUES (%s, %s, %s, %s, %s, 'Apple 10-K 2024', 30, %s)", (acc, cik, item, first + n, text, vec))


def _hit(id_, item, score):
    return chunks.ChunkHit(id_, "acc", 1, item, id_, False, f"text {id_}", 2024, "10-K", "", None, score)


def test_with_beyond_reads_the_filings_best_passage_outside_the_bound_third():
    bound = [_hit(1, "7", 0.03), _hit(2, "8", 0.02), _hit(3, "7", 0.01)]
    wide = [_hit(2, "8", 0.03), _hit(9, "1", 0.02), _hit(8, "1", 0.01)]
    got = chunks.with_beyond(bound, wide, ["1"])
    assert [h.id for h in got] == [1, 2, 9, 3]
    assert got[2].score == 0.02  # ranked where it is put, below the hit before it
    # only from the Items named: a best passage in the notes or the properties is not added
    assert [h.id for h in chunks.with_beyond(bound, [_hit(7, "2", 0.05)], ["1"])] == [1, 2, 3]
    # nothing outside the bound among the filing's best: the bound's hits as they were
    assert chunks.with_beyond(bound, [_hit(1, "7", 0.03)], ["1"]) == bound


def test_a_bound_search_with_beyond_adds_the_filings_best_passage_of_another_item(db, embedder, corpus):
    query = ["research and development expense increase"]
    with db.connection() as conn:
        plain = chunks.search(conn, query, embedder.embed(query), cik=agent_corpus.APPLE, items=["1C"])
        wider = chunks.search(conn, query, embedder.embed(query), cik=agent_corpus.APPLE, items=["1C"], beyond=["7"])
    assert all(h.item == "1C" for h in plain)
    assert [h.item for h in wider].count("7") == 1 and wider[min(2, len(plain))].item == "7"
