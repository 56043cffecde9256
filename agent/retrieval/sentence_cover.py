"""A chunk that holds one sentence naming what the question asks is read among the first, though
the rest of the chunk is about something else.

Why: a chunk is ranked as a whole, by one vector over ~250 word pieces and by its words' cover
density. A filing's answer is often a single sentence at the edge of a chunk about another subject
(a piracy remark closing a licensing paragraph, a supply-agreement caveat after a list of
components), so the chunk ranks 6th to 12th and the composer, which reads the first few best,
quotes a sentence from a chunk that only shares the topic. A sentence that holds most of the
question's informative words, weighed by how rarely the company's filing uses each (a word every
chunk holds says nothing of where the answer is), is the surest cheap sign of the passage that
answers: no embedding, one full-text reading of the candidates' sentences.

The reading moves at most one chunk, and only when none of the chunks already read first holds a
sentence covering half the question (MIN_COVER), and one below them does, clearly better
(COVER_LEAD); it takes the last of the first places (AT), so the search's own best keep theirs.
When the first five already hold such a sentence, the composer has the question's words at hand,
and a chunk moved up would only compete with it for the quote, with a sentence that may share the
question's words and not its subject.
"""

from __future__ import annotations

import math

from agent.checking.guards import split_sentences
from store import chunks as chunk_store

FIRST = 5  # the places the composer reads first (and Recall@5 counts)
AT = 5  # where a better-covering chunk is put: the last of the first places
MIN_COVER = 0.5  # share of the question's word weight one sentence must hold
COVER_LEAD = 0.1  # by how much it must out-cover every sentence of the first places
MIN_SENTENCE = 40  # characters: a heading or a table caption covers words without saying anything
MIN_WORDS = 2  # a question of one informative word has no sentence to cover it better than its chunk


def word_weights(conn, words: list[str], accessions: list[str]) -> dict[str, float]:
    """Each question word's weight: its inverse document frequency over the company's filing(s) read.
    A word no chunk holds (a typo, a word of the question's frame) weighs nothing: it cannot tell
    chunks apart."""
    total, counts = chunk_store.term_counts(conn, words, accessions=accessions)
    return {w: math.log((total + 1) / (n + 0.5)) for w, n in counts.items() if n > 0}


def covers(conn, hits: list, weights: dict[str, float]) -> list[float]:
    """Each hit's best sentence's share of the question's word weight."""
    total = sum(weights.values())
    sentences, owner = [], []
    for i, hit in enumerate(hits):
        for sentence in split_sentences(hit.text):
            if len(sentence) >= MIN_SENTENCE:
                sentences.append(sentence)
                owner.append(i)
    best = [0.0] * len(hits)
    if not total or not sentences:
        return best
    for i, held in zip(owner, chunk_store.sentence_words(conn, sentences, list(weights)), strict=True):
        best[i] = max(best[i], sum(weights[w] for w in held) / total)
    return best


def answering_first(conn, hits: list, query: str, accessions: list[str]) -> list:
    """The hits, with the one below the first FIRST whose sentence covers the question best put at AT,
    when it covers it well and none of the first does; otherwise unchanged."""
    if len(hits) <= FIRST:
        return hits
    words = [w for w in chunk_store.keyword_query(query).split(" or ") if w]
    weights = word_weights(conn, words, accessions)
    if len(weights) < MIN_WORDS:
        return hits
    cover = covers(conn, hits, weights)
    lead = max(cover[:FIRST])
    best = max(range(FIRST, len(hits)), key=lambda i: (cover[i], -i))
    if lead >= MIN_COVER or cover[best] < MIN_COVER or cover[best] < lead + COVER_LEAD:
        return hits
    at = AT - 1
    moved = chunk_store.with_score(hits[best], float(hits[at - 1].score))
    rest = hits[:best] + hits[best + 1:]
    return [*rest[:at], moved, *rest[at:]]
