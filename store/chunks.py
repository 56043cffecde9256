"""Hybrid search over filing chunks, always scoped to one company (and, given a year, one filing).

Dense pgvector cosine and Postgres full text are fused with Reciprocal Rank Fusion in one SQL
statement (score = sum of 1/(60+rank)), and a chunk either arm found gains PASSAGE_WEIGHT of the
passage arm's term (the chunks ranked by their best sentence's vector, store.passages; nothing for
a filing without passages); a compound question's sub-queries are merged by an outer
RRF in Python. Scoping is a WHERE clause on every arm, so another company's chunk can never come
back, whatever the query says. The scoped rows are materialized first so the vector arm is an
exact scan of one filing (a few hundred rows), not an approximate index walk that a filter could
starve.

Items either bound the search (`items`: a section the user named, or the planner's route) or only
weigh it (`prefer`: the planner's default guess): then the whole filing is ranked and a chunk of a
preferred Item gets a bonus on its fused score, so an answer told in another Item still returns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np  # imported where a vector is searched: a numeric answer never searches one

RRF_K = 60
ARM_LIMIT = 20  # candidates taken from each arm before fusion
MAX_CHUNKS = 8  # cap after merging sub-queries
WIDE_ARM_LIMIT = 40  # candidates per arm over a whole filing, when the Items are a preference and not a bound
# A preferred Item's bonus on the fused score: about a third of one arm's first place (1/61), so a
# chunk both arms rank near the top of another Item still outranks a weak one of the first Item,
# while close matches go to the Item the question points to.
ITEM_PRIOR = 0.005
ITEM_PRIOR_STEP = 0.25  # each later preferred Item's bonus is this much smaller
ITEM_STEP = 0.15  # within a bound of several Items, each later Item's score weighs this much less
# The passage arm (a chunk ranked by its best sentence) adds this share of its RRF term to a chunk
# the dense or full-text arm found; alone it finds nothing: a single sentence of boilerplate (a
# risk factor naming every topic) is near too many questions to be trusted without its chunk.
# Off (0: not searched, and ingest embeds no passages): on the development questions even 0.3 moved
# the answering chunk out of the top five more often than into it (Recall@5 88% -> 84%).
PASSAGE_WEIGHT = 0.0

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
keyword AS (
    SELECT id, row_number() OVER (ORDER BY ts_rank_cd(tsv, query) DESC, id) AS rank
    FROM scoped, websearch_to_tsquery('english', %(text)s) AS query
    WHERE tsv @@ query
    ORDER BY ts_rank_cd(tsv, query) DESC, id
    LIMIT %(arm_limit)s
),
passage AS (
    SELECT p.chunk_id AS id, row_number() OVER (ORDER BY min(p.embedding <=> %(embedding)s), p.chunk_id) AS rank
    FROM passages p JOIN scoped ON scoped.id = p.chunk_id
    GROUP BY p.chunk_id
    ORDER BY min(p.embedding <=> %(embedding)s), p.chunk_id
    LIMIT coalesce(%(passage_limit)s, %(arm_limit)s)
),
arms AS (
    SELECT id, sum(1.0 / (%(rrf_k)s + rank)) AS score
    FROM (SELECT id, rank FROM semantic UNION ALL SELECT id, rank FROM keyword) AS both_arms
    GROUP BY id
),
fused AS (
    SELECT arms.id, arms.score + coalesce(%(passage_weight)s / (%(rrf_k)s + passage.rank), 0.0) AS score
    FROM arms LEFT JOIN passage ON passage.id = arms.id
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

# A ChunkHit's columns, with its filing's, for the lookups that rank nothing (score 0)
_HIT_ROWS = """
SELECT c.id, c.accession, c.cik, c.item, c.ordinal, c.is_table, c.text,
       f.fiscal_year, f.form, f.url, f.period_end, 0.0 AS score
FROM chunks c
JOIN filings f ON f.accession = c.accession
"""

# Prose chunks of a company's filings whose text matches any of the patterns (POSIX, case-blind):
# where MD&A states an amount in words ("$11,311 million", "$8.5 billion").
STATING_SQL = _HIT_ROWS + """WHERE c.cik = %(cik)s
  AND (%(accessions)s::text[] IS NULL OR c.accession = ANY(%(accessions)s::text[]))
  AND (%(items)s::text[] IS NULL OR c.item = ANY(%(items)s::text[]))
  AND NOT c.is_table
  AND c.text ~* ANY(%(patterns)s::text[])
ORDER BY c.accession, c.ordinal
LIMIT %(limit)s
"""

# The chunks right after the given ones in their filings' Items (ordinals count within an Item).
NEXT_SQL = _HIT_ROWS + """JOIN unnest(%(accessions)s::text[], %(items)s::text[], %(ordinals)s::int[]) AS prev(accession, item, ordinal)
  ON c.accession = prev.accession AND c.item = prev.item AND c.ordinal = prev.ordinal + 1
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


def keyword_query(text: str) -> str:
    """Any-of keyword query for websearch_to_tsquery: plain words joined by 'or'.

    Quotes, minus signs and other operators a user (or an injected instruction) types are
    dropped, so the query text can never change the search's meaning beyond its words.
    """
    words = [w.lower() for w in _WORD.findall(text) if w.lower() not in _STOP and len(w) > 1]
    seen: list[str] = []
    for w in words:
        if w != "or" and w not in seen:
            seen.append(w)
    return " or ".join(seen[:32])


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
    passage_weight: float | None = None,
) -> list[ChunkHit]:
    """One query's RRF-fused hits within the company (and filings/Items when given).

    `items` bounds the search; `prefer` (ignored under a bound) only weighs it, by ITEM_PRIOR.
    When a bound finds nothing (a filing whose Item was not extracted), it widens to the whole
    filing rather than answer from nothing.
    """
    import numpy as np

    prefer = None if items else prefer
    weight = PASSAGE_WEIGHT if passage_weight is None else passage_weight
    params = {
        "cik": cik,
        "accessions": accessions or None,
        "items": items or None,
        "prefer": prefer or None,
        "prior": ITEM_PRIOR if prefer else 0.0,
        "prior_step": ITEM_PRIOR_STEP,
        "embedding": np.asarray(embedding, dtype=np.float32),
        "text": keyword_query(query),
        "arm_limit": max(WIDE_ARM_LIMIT if prefer else ARM_LIMIT, limit),
        "rrf_k": RRF_K,
        "passage_weight": weight,
        "passage_limit": 0 if weight == 0 else None,  # an arm weighed at nothing is not searched
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
    spare: int = 0,
    passage_weight: float | None = None,
    beyond: list[str] | None = None,
) -> list[ChunkHit]:
    """Hybrid search for one or more sub-queries, merged by an outer RRF and capped at `limit`,
    then `spare` more hits, for a caller that drops some (repeats) and fills up from the rest.
    Under a bound of several Items the first Items' hits come first (`in_item_order`); with
    `beyond` (Items), the bound is the planner's guess and not the user's word, and the whole
    filing's best passage in one of those Items outside the bound is read too (`with_beyond`)."""
    scope = {"cik": cik, "accessions": accessions, "items": items, "prefer": prefer, "passage_weight": passage_weight}
    if len(queries) == 1:
        hits = hybrid_search(conn, queries[0], embeddings[0], **scope, limit=limit + spare)
    else:
        scores: dict[int, float] = {}
        found: dict[int, ChunkHit] = {}
        for query, emb in zip(queries, embeddings, strict=True):
            for rank, hit in enumerate(hybrid_search(conn, query, emb, **scope, limit=ARM_LIMIT), start=1):
                scores[hit.id] = scores.get(hit.id, 0.0) + 1.0 / (RRF_K + rank)
                found.setdefault(hit.id, hit)
        ordered = sorted(scores, key=lambda i: (-scores[i], i))[: limit + spare]
        hits = [with_score(found[i], scores[i]) for i in ordered]
    if not items:
        return hits
    hits = in_item_order(hits[:limit], items) + hits[limit:]
    if beyond and any(i not in items for i in beyond):
        wide = search(conn, queries, embeddings, cik=cik, accessions=accessions, limit=BEYOND_READ,
                      passage_weight=passage_weight)
        hits = with_beyond(hits, wide, [i for i in beyond if i not in items])
    return hits


# The whole filing's best hits looked at for one outside the planner's Items, and the place it takes.
BEYOND_READ = 2
BEYOND_AT = 2


def with_beyond(hits: list[ChunkHit], wide: list[ChunkHit], beyond: list[str]) -> list[ChunkHit]:
    """The bounded hits with the first of the whole filing's BEYOND_READ best that lies in one of
    the Items `beyond` (none of the bound's), put at BEYOND_AT.

    Why: the planner's Items are a guess from the question's form ("what happened with the IAM
    contract?" reads as an event: MD&A, notes, risks), and a filing tells some answers only where
    the guess does not look (a strike in the business description's workforce section, an
    acquisition in its overview). A passage that ranks first or second over the whole filing, by
    words and meaning together, is the filing's own answer to where it is told; it takes the third
    place, so the bound's two best still come first and only its last hit drops out. The caller names
    the Items it may come from (the narrative ones, MD&A and the business description): a
    properties table or the stock-market Item outside the route answers a narrower question than
    the one asked, under an Item the reader did not look for."""
    taken = {h.id for h in hits}
    outside = next((h for h in wide if h.item in beyond and h.id not in taken), None)
    if outside is None:
        return hits
    at = min(BEYOND_AT, len(hits))
    score = float(hits[at - 1].score) if at else float(outside.score)
    return [*hits[:at], with_score(outside, score), *hits[at:]]


def stating(conn, patterns: list[str], *, cik: int, accessions: list[str] | None = None,
            items: list[str] | None = None, limit: int = MAX_CHUNKS) -> list[ChunkHit]:
    """The company's prose chunks that match one of `patterns` (regular expressions), in filing order.

    Why a pattern and not the full-text arm: an amount is one token the text search splits and
    stems away ("11,311"), and a number that is the figure a thread just answered is the surest
    sign of the passage that discusses that figure."""
    if not patterns:
        return []
    rows = conn.execute(STATING_SQL, {"cik": cik, "accessions": accessions or None, "items": items or None,
                                      "patterns": patterns, "limit": limit}).fetchall()
    return [ChunkHit(*row) for row in rows]


def following(conn, hits: list[ChunkHit]) -> dict[int, ChunkHit]:
    """For each hit (by id), the chunk that follows it in its filing, where there is one.

    Why: a passage is cut where the chunker's budget ends, and MD&A's statement of a figure ("North
    America's operating income was $4,435 million") may end one chunk while its cause opens the next."""
    if not hits:
        return {}
    rows = conn.execute(NEXT_SQL, {"accessions": [h.accession for h in hits], "items": [h.item for h in hits],
                                   "ordinals": [h.ordinal for h in hits]}).fetchall()
    after = {(r[1], r[3], r[4]): ChunkHit(*r) for r in rows}
    return {h.id: after[key] for h in hits if (key := (h.accession, h.item, h.ordinal + 1)) in after}


def in_item_order(hits: list[ChunkHit], items: list[str]) -> list[ChunkHit]:
    """The first Items' hits first: "why" reads MD&A before the notes, the notes only outrank it
    when they match much better (each later Item's score weighs ITEM_STEP less)."""
    if len(items) < 2:
        return hits
    order = {item: i for i, item in enumerate(items)}
    return sorted(hits, key=lambda h: -float(h.score) * (1 - ITEM_STEP * order.get(h.item, len(items))))


def dense_only(conn, embedding: np.ndarray, *, cik: int, accessions: list[str] | None, limit: int = MAX_CHUNKS):
    """The bare vector query, used by the benchmark as part of the floor."""
    import numpy as np

    return conn.execute(
        DENSE_ONLY_SQL,
        {"embedding": np.asarray(embedding, dtype=np.float32), "cik": cik, "accessions": accessions or None, "limit": limit},
    ).fetchall()


# The nearest chunk of one filing to a query vector: how closely the filing's best passage matches.
# Materialized first, as in HYBRID_SQL: an approximate index walk over every filing, filtered to one
# afterwards, can return nothing at all.
BEST_MATCH_SQL = """
WITH scoped AS MATERIALIZED (SELECT id, embedding FROM chunks WHERE accession = %(accession)s)
SELECT id, 1 - (embedding <=> %(embedding)s) FROM scoped
ORDER BY embedding <=> %(embedding)s, id
LIMIT 1
"""

# A filing's chunks nearest to a query vector, with their similarity and text.
NEAREST_SQL = """
WITH scoped AS MATERIALIZED (SELECT id, text, embedding FROM chunks WHERE accession = %(accession)s)
SELECT id, 1 - (embedding <=> %(embedding)s), text FROM scoped
ORDER BY embedding <=> %(embedding)s, id
LIMIT %(limit)s
"""

# The share of a filing's chunks holding each of some pieces of words (any case), its texts read once.
SHARES_HOLDING_SQL = """
WITH texts AS MATERIALIZED (SELECT lower(text) AS t FROM chunks WHERE accession = %(accession)s)
SELECT p.piece, avg((strpos(texts.t, p.piece) > 0)::int)::float
FROM texts CROSS JOIN unnest(%(pieces)s::text[]) AS p(piece) GROUP BY p.piece
"""

# Each chunk of a filing holding any of some pieces of words (any case): its Item and the pieces it holds.
# (and a row '#count', no Item's name, for the filing's count of chunks, to weigh how particular each piece is)
PIECES_BY_ITEM_SQL = """
WITH texts AS MATERIALIZED (SELECT id, item, lower(text) AS t FROM chunks WHERE accession = %(accession)s)
SELECT texts.item, array_agg(p.piece) FROM texts CROSS JOIN unnest(%(pieces)s::text[]) AS p(piece)
WHERE strpos(texts.t, p.piece) > 0 GROUP BY texts.id, texts.item
UNION ALL SELECT '#count', ARRAY[count(*)::text] FROM texts
"""

# The texts of a filing's chunks holding a piece of a word (any case), in filing order.
TEXTS_WITH_PIECE_SQL = """
SELECT text FROM chunks WHERE accession = %(accession)s AND strpos(lower(text), %(piece)s) > 0
ORDER BY item, ordinal LIMIT %(limit)s
"""

# Whether a filing's chunks hold each of some sentences (spaces evened out).
HOLDS_SENTENCES_SQL = """
SELECT s.sentence, EXISTS (SELECT 1 FROM chunks c WHERE c.accession = %(accession)s
                           AND strpos(regexp_replace(c.text, '[[:space:]]+', ' ', 'g'), s.sentence) > 0)
FROM unnest(%(sentences)s::text[]) AS s(sentence)
"""

# Which of some words a filing's text holds nowhere (full text, stemmed as the search stems them).
WORDS_ABSENT_SQL = """
SELECT w.word FROM unnest(%(words)s::text[]) AS w(word)
WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.accession = %(accession)s
                    AND c.tsv @@ plainto_tsquery('english', w.word))
"""

# The texts of a filing's chunks that hold a word (full text, stemmed as the search stems it).
TEXTS_HOLDING_SQL = """
SELECT c.text FROM chunks c
WHERE c.accession = %(accession)s AND c.tsv @@ plainto_tsquery('english', %(word)s)
ORDER BY c.id
LIMIT %(limit)s
"""

# Whether a filing holds a word beginning with a prefix (unstemmed: "russi" finds "Russia" and "Russian").
HOLDS_PREFIX_SQL = """
SELECT EXISTS (SELECT 1 FROM chunks c WHERE c.accession = %(accession)s
               AND c.tsv @@ to_tsquery('simple', %(prefix)s || ':*'))
"""

# The similarity of one chunk to its nearest in another filing: whether that filing tells the same passage.
NEAREST_COUNTERPART_SQL = """
WITH scoped AS MATERIALIZED (SELECT embedding FROM chunks WHERE accession = %(accession)s)
SELECT max(1 - (scoped.embedding <=> c.embedding)) FROM scoped, chunks c WHERE c.id = %(chunk)s
"""

def best_match(conn, embedding: np.ndarray, *, accession: str) -> tuple[int, float] | None:
    """The filing's chunk nearest to `embedding` and its cosine similarity (None: no chunk).

    Why a bare similarity and not the fused search score: RRF scores are ranks, alike in every
    filing whatever it holds; a similarity says how well a filing's best passage matches at all,
    which is what comparing two filings of one company for the same question needs."""
    import numpy as np

    row = conn.execute(BEST_MATCH_SQL, {"embedding": np.asarray(embedding, dtype=np.float32),
                                        "accession": accession}).fetchone()
    return None if row is None else (int(row[0]), float(row[1]))


def nearest(conn, embedding: np.ndarray, *, accession: str, limit: int = 8) -> list[tuple[int, float, str]]:
    """The filing's `limit` chunks nearest to `embedding`: (id, cosine similarity, text), nearest first.

    Why: comparing two filings of one company for a question needs more than each one's best passage's
    similarity: what the nearest passages say (a sentence telling the asked thing whole, or only in part)."""
    import numpy as np

    rows = conn.execute(NEAREST_SQL, {"embedding": np.asarray(embedding, dtype=np.float32), "accession": accession,
                                      "limit": limit}).fetchall()
    return [(int(r[0]), float(r[1]), r[2] or "") for r in rows]


def shares_holding(conn, pieces: list[str], *, accession: str) -> dict[str, float]:
    """The share of the filing's chunks whose text holds each piece (lowercase, anywhere in a word): how
    particular a word is to a few passages ("opioid", "DGX") or common to the whole filing ("charges")."""
    if not pieces:
        return {}
    rows = conn.execute(SHARES_HOLDING_SQL, {"pieces": [p.lower() for p in pieces], "accession": accession})
    return {piece: float(share or 0.0) for piece, share in rows}


_COUNT_ROW = "#count"


def pieces_by_item(conn, pieces: list[str], *, accession: str) -> tuple[list[tuple[str, set[str]]], int]:
    """For each of the filing's chunks holding any of `pieces` (lowercase, anywhere in a word): its Item and the
    pieces it holds; and the filing's count of chunks. Where a filing tells a thing is where its particular words
    are written together; read in one pass over the filing's text."""
    if not pieces:
        return [], 0
    rows = conn.execute(PIECES_BY_ITEM_SQL, {"pieces": [p.lower() for p in pieces], "accession": accession}).fetchall()
    total = next((int(held[0]) for item, held in rows if item == _COUNT_ROW), 0)
    return [(str(item or ""), set(held)) for item, held in rows if item != _COUNT_ROW], total


def texts_with_piece(conn, piece: str, *, accession: str, limit: int = 60) -> list[str]:
    """The texts of the filing's chunks (at most `limit`) that hold `piece` anywhere in a word, any case:
    every passage that names a thing, to read how the filing tells it (in its own year, or only back)."""
    return [row[0] for row in conn.execute(TEXTS_WITH_PIECE_SQL, {"piece": piece.lower(), "accession": accession,
                                                                  "limit": limit})]


def counterpart_similarity(conn, chunk_id: int, *, accession: str) -> float:
    """How close the filing's nearest chunk is to chunk `chunk_id` (of another filing): near 1 when the
    filing repeats that passage, as a 10-K repeats most of the one before it."""
    row = conn.execute(NEAREST_COUNTERPART_SQL, {"chunk": chunk_id, "accession": accession}).fetchone()
    return float(row[0]) if row and row[0] is not None else 0.0


def words_absent(conn, words: list[str], *, accession: str) -> set[str]:
    """The words the filing's text holds nowhere: a name an older 10-K tells and the latest no longer mentions."""
    if not words:
        return set()
    return {row[0] for row in conn.execute(WORDS_ABSENT_SQL, {"words": list(words), "accession": accession})}


def texts_holding(conn, word: str, *, accession: str, limit: int = 20) -> list[str]:
    """The texts of the filing's chunks (at most `limit`, in filing order) that hold `word`: how the filing
    writes a word the question uses (a name is capitalised where a plain word is not)."""
    return [row[0] for row in conn.execute(TEXTS_HOLDING_SQL, {"word": word, "accession": accession, "limit": limit})]


def holds_prefix(conn, prefix: str, *, accession: str) -> bool:
    """Whether the filing holds a word that begins with `prefix` (letters only): another form of a name
    ("Russian" where the question says "Russia")."""
    if not prefix.isalpha():
        return False
    return bool(conn.execute(HOLDS_PREFIX_SQL, {"prefix": prefix.lower(), "accession": accession}).fetchone()[0])


def holds_sentences(conn, sentences: list[str], *, accession: str) -> bool:
    """Whether the filing's text holds every one of `sentences` verbatim (runs of spaces evened out)."""
    if not sentences:
        return False
    wanted = [re.sub(r"\s+", " ", s).strip() for s in sentences]
    rows = conn.execute(HOLDS_SENTENCES_SQL, {"sentences": wanted, "accession": accession}).fetchall()
    return all(held for _, held in rows)


# How many of the filings' chunks hold each word (stemmed as the search stems it), and how many chunks
# there are: a word's weight in a question is how rarely its filing uses it. A word the stemmer drops
# (a stop word) makes no query and is left out.
TERM_COUNTS_SQL = """
WITH asked AS (
    SELECT w.word, q FROM unnest(%(words)s::text[]) AS w(word), plainto_tsquery('english', w.word) AS q
    WHERE numnode(q) > 0
),
scoped AS MATERIALIZED (SELECT tsv FROM chunks WHERE accession = ANY(%(accessions)s::text[]))
SELECT asked.word, (SELECT count(*) FROM scoped), count(*) FILTER (WHERE scoped.tsv @@ asked.q)
FROM asked CROSS JOIN scoped
GROUP BY asked.word
"""

# For each sentence (in order), the words among `words` it holds, stemmed as the search stems them:
# each sentence's vector and each word's query made once.
SENTENCE_WORDS_SQL = """
WITH asked AS (
    SELECT w.word, q FROM unnest(%(words)s::text[]) AS w(word), plainto_tsquery('english', w.word) AS q
    WHERE numnode(q) > 0
),
said AS MATERIALIZED (
    SELECT s.ord, to_tsvector('english', s.text) AS v
    FROM unnest(%(sentences)s::text[]) WITH ORDINALITY AS s(text, ord)
)
SELECT said.ord, array_agg(asked.word)
FROM said JOIN asked ON said.v @@ asked.q
GROUP BY said.ord
"""


def term_counts(conn, words: list[str], *, accessions: list[str]) -> tuple[int, dict[str, int]]:
    """The filings' chunk count and, for each word the stemmer keeps, how many of their chunks hold it."""
    if not words or not accessions:
        return 0, {}
    rows = conn.execute(TERM_COUNTS_SQL, {"words": list(words), "accessions": accessions}).fetchall()
    return (int(rows[0][1]) if rows else 0), {word: int(n) for word, _, n in rows}


def sentence_words(conn, sentences: list[str], words: list[str]) -> list[set[str]]:
    """For each of `sentences`, the words of `words` it holds (full-text stems: "franchised" holds
    "franchisees"' stem only if Postgres stems them alike, exactly as the search's own arm)."""
    if not sentences or not words:
        return [set() for _ in sentences]
    held = dict(conn.execute(SENTENCE_WORDS_SQL, {"sentences": list(sentences), "words": list(words)}).fetchall())
    return [set(held.get(i, ()) or ()) for i in range(1, len(sentences) + 1)]


def with_score(hit: ChunkHit, score: float) -> ChunkHit:
    """The hit ranked at another score (a passage read first takes the best hit's)."""
    return ChunkHit(**{**hit.__dict__, "score": score})
