"""Which of the question's words 10-Ks say everywhere: words that name no sentence's subject.

Why: the relevance floor let a sentence pass for an answer when it held half the question's words.
"what did UNH say about the shooting of its executive in December?" then quoted a sentence for
"December", a word in almost half its 10-K's chunks ("for the year ended December 31"). A word more
than one chunk in ten say (COMMON), in the filings read and across all filings held, is common; a
sentence holding only such words of the question is no answer by its words, only by its meaning
(sentence_rank.answers). Both: a company's own subject is common in its filing and rare elsewhere
("rail" at Union Pacific, "clients" at Visa, "acquisition" at AbbVie), and a sentence holding only it
still speaks of what was asked. Why not weigh every word by its rarity: the asker's own scaffolding
("correct?", "sued") is rare in a 10-K too, and weighing it up held the Department of Justice's passage
below the floor.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from agent.composing import sentence_rank
from store.word_rarity import held_widely, word_counts


COMMON = 0.1  # a word in more than this share of the chunks names no sentence's subject


@dataclass(frozen=True)
class Informative:
    """`common`: the question's terms (as `sentence_rank.cased_terms` reads them, "#" aside) that more than
    COMMON of the chunks hold, of the filings read and of all filings."""

    common: frozenset[str]


def words_of(texts: list[str]) -> dict[str, str]:
    """Each word of the texts (as typed, lowercase) -> the term the floor reads it as."""
    out: dict[str, str] = {}
    for text in texts:
        for word in sentence_rank.words(text):
            out.setdefault(word, sentence_rank.stem(word))
    return out


def read(conn, texts: list[str], accessions: list[str], memo: dict | None = None) -> Informative | None:
    """The common words of `texts` (the question and the plan's query) in the filings `accessions` and
    across all filings (what all filings say is kept in `memo`, the service's per corpus version)."""
    words = words_of(texts)
    counts = word_counts(conn, list(words), accessions)
    if not counts.chunks:
        return None
    here = [w for w in words if counts.holding.get(w, 0) > COMMON * counts.chunks]
    memo = {} if memo is None else memo
    unread = [w for w in here if ("held_widely", w) not in memo]
    for word, wide in held_widely(conn, unread, COMMON).items():
        memo[("held_widely", word)] = wide
    return Informative(frozenset(words[w] for w in here if memo.get(("held_widely", w))))
