"""Hybrid search over filing chunks, always scoped to one company (and, given a year, one filing).

Dense pgvector cosine and Postgres full text are fused with Reciprocal Rank Fusion in one SQL
statement (score = sum of 1/(60+rank)); a compound question's sub-queries are merged by an outer
RRF in Python. Scoping is a WHERE clause on every arm, so another company's chunk can never come
back, whatever the query says. The scoped rows are materialized first so the vector arm is an
exact scan of one filing (a few hundred rows), not an approximate index walk that a filter could
starve.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

RRF_K = 60
ARM_LIMIT = 20  # candidates taken from each arm before fusion
WIDE_ARM_LIMIT = 40  # the same over a whole filing, when the Items are a preference and not a bound
MAX_CHUNKS = 8  # cap after merging sub-queries
# A preferred Item's bonus on the fused score: about a third of one arm's first place (1/61), so a
# chunk both arms rank near the top of an unpreferred Item still outranks a weak one of the first
# Item, while equal matches go to the Item the question points to.
ITEM_PRIOR = 0.005
ITEM_PRIOR_STEP = 0.25  # each later preferred Item's bonus is this much smaller

HYBRID_SQL = """
WITH scoped AS MATERIALIZED (
    SELECT id, embedding, tsv FROM chunks
    WHERE cik = %(cik)s
      AND (%(accessions)s::text[] IS NULL OR accession = ANY(%(accessions)s::text[]))
      AND (%(items)s::text[] IS NULL OR item = ANY(%(items)s::text[]))
),
semantic AS (
    SELECT id, row_number() OVER (ORDER BY embedding <=> %(embedding)s) AS rank
    FROM scoped
    ORDER BY embedding <=> %(embedding)s
    LIMIT %(arm_limit)s
),
terms AS MATERIALIZED (
    SELECT w.query, count(scoped.id) AS n
    FROM (SELECT DISTINCT plainto_tsquery('english', word) AS query FROM unnest(%(words)s::text[]) AS word) AS w
    JOIN scoped ON scoped.tsv @@ w.query
    WHERE numnode(w.query) > 0
    GROUP BY w.query
),
weighted AS (
    SELECT terms.query, ln(1.0 + (total.n - terms.n + 0.5) / (terms.n + 0.5)) AS idf
    FROM terms, (SELECT count(*) AS n FROM scoped) AS total
),
matched AS (
    SELECT scoped.id, sum(weighted.idf * ts_rank(scoped.tsv, weighted.query)) AS score
    FROM scoped JOIN weighted ON scoped.tsv @@ weighted.query
    GROUP BY scoped.id
),
keyword AS (
    SELECT id, row_number() OVER (ORDER BY score DESC, id) AS rank
    FROM matched
    ORDER BY score DESC, id
    LIMIT %(arm_limit)s
),
fused AS (
    SELECT coalesce(semantic.id, keyword.id) AS id,
           coalesce(1.0 / (%(rrf_k)s + semantic.rank), 0.0)
         + coalesce(1.0 / (%(rrf_k)s + keyword.rank), 0.0) AS score
    FROM semantic FULL OUTER JOIN keyword ON semantic.id = keyword.id
),
scored AS (
    SELECT fused.id, fused.score + coalesce(
               %(prior)s * greatest(0.0, 1.0 - %(prior_step)s * (array_position(%(prefer)s::text[], c.item) - 1)),
               0.0) AS score
    FROM fused JOIN chunks c ON c.id = fused.id
)
SELECT c.id, c.accession, c.cik, c.item, c.ordinal, c.is_table, c.text,
       f.fiscal_year, f.form, f.url, f.period_end, scored.score
FROM scored
JOIN chunks c ON c.id = scored.id
JOIN filings f ON f.accession = c.accession
ORDER BY scored.score DESC, c.id
LIMIT %(limit)s
"""


DENSE_ONLY_SQL = """
SELECT c.id, c.embedding <=> %(embedding)s AS distance
FROM chunks c
WHERE c.cik = %(cik)s AND (%(accessions)s::text[] IS NULL OR c.accession = ANY(%(accessions)s::text[]))
ORDER BY c.embedding <=> %(embedding)s
LIMIT %(limit)s
"""

SENTENCE_EMBEDDINGS_SQL = "SELECT id, text FROM chunks WHERE id = ANY(%s)"

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'\-]*")
_STOP = frozenset(
    "a an and are as at be by did do does for from has have how in is it its of on or the their this to "
    "was were what when where which who why will with about company companys".split()
)


@dataclass(frozen=True)
class ChunkHit:
    id: int
    accession: str
    cik: int
    item: str
    ordinal: int
    is_table: bool
    text: str
    fiscal_year: int
    form: str
    url: str
    period_end: object
    score: float


def query_words(text: str) -> list[str]:
    """The query's distinct plain words, lowercased, at most 32, for the IDF-weighted keyword arm.

    Quotes, minus signs and other operators a user (or an injected instruction) types are
    dropped, and each word becomes its own plainto_tsquery, so the query text can never change
    the search's meaning beyond its words.
    """
    words = [w.lower() for w in _WORD.findall(text) if w.lower() not in _STOP and len(w) > 1]
    return list(dict.fromkeys(w for w in words if w != "or"))[:32]


def keyword_query(text: str) -> str:
    """The same words as an any-of query, as printed in traces."""
    return " or ".join(query_words(text))


def hybrid_search(
    conn,
    query: str,
    embedding: np.ndarray,
    *,
    cik: int,
    accessions: list[str] | None = None,
    items: list[str] | None = None,
    prefer: list[str] | None = None,
    limit: int = MAX_CHUNKS,
) -> list[ChunkHit]:
    """One query's RRF-fused hits within the company (and filings/Items when given).

    `items` bounds the search (a section the user named); `prefer` only weighs it: the whole
    filing is ranked and a chunk of an Item the question points to gets ITEM_PRIOR (less for each
    later one), so the answer found outside the routed Items (a plan described in Item 1 when the
    question was routed to MD&A) still comes back. When a bound finds nothing (a filing whose
    Item was not extracted), it widens to the whole filing rather than answer from nothing.
    """
    params = {
        "cik": cik,
        "accessions": accessions or None,
        "items": items or None,
        "prefer": prefer or None,
        "prior": ITEM_PRIOR if prefer else 0.0,
        "prior_step": ITEM_PRIOR_STEP,
        "embedding": np.asarray(embedding, dtype=np.float32),
        "words": query_words(query),
        "arm_limit": max(WIDE_ARM_LIMIT if prefer and not items else ARM_LIMIT, limit),
        "rrf_k": RRF_K,
        "limit": limit,
    }
    rows = conn.execute(HYBRID_SQL, params).fetchall()
    if not rows and items:
        params["items"] = None
        rows = conn.execute(HYBRID_SQL, params).fetchall()
    return [ChunkHit(*row) for row in rows]


def search(
    conn,
    queries: list[str],
    embeddings: np.ndarray,
    *,
    cik: int,
    accessions: list[str] | None = None,
    items: list[str] | None = None,
    prefer: list[str] | None = None,
    limit: int = MAX_CHUNKS,
) -> list[ChunkHit]:
    """Hybrid search for one or more sub-queries, merged by an outer RRF and capped at `limit`."""
    scope = {"cik": cik, "accessions": accessions, "items": items, "prefer": prefer}
    if len(queries) == 1:
        return hybrid_search(conn, queries[0], embeddings[0], **scope, limit=limit)
    scores: dict[int, float] = {}
    hits: dict[int, ChunkHit] = {}
    for query, emb in zip(queries, embeddings, strict=True):
        for rank, hit in enumerate(hybrid_search(conn, query, emb, **scope, limit=ARM_LIMIT), start=1):
            scores[hit.id] = scores.get(hit.id, 0.0) + 1.0 / (RRF_K + rank)
            hits.setdefault(hit.id, hit)
    ordered = sorted(scores, key=lambda i: (-scores[i], i))[:limit]
    return [_with_score(hits[i], scores[i]) for i in ordered]


def dense_only(conn, embedding: np.ndarray, *, cik: int, accessions: list[str] | None, limit: int = MAX_CHUNKS):
    """The bare vector query, used by the benchmark as part of the floor."""
    return conn.execute(
        DENSE_ONLY_SQL,
        {"embedding": np.asarray(embedding, dtype=np.float32), "cik": cik, "accessions": accessions or None, "limit": limit},
    ).fetchall()


def _with_score(hit: ChunkHit, score: float) -> ChunkHit:
    return ChunkHit(**{**hit.__dict__, "score": score})
