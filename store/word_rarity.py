"""How often words occur in chunks: in the filings read, and across every filing held.

Why: the composer's relevance floor counts the question's words a sentence holds. A word 10-Ks say in a
chunk of every few ("results", "December", "report") tells no sentence's subject, in the filing read as
in any other: counting it as one word let a sentence sharing only it pass for an answer
(agent.composing.informative). Words are matched as the full-text search stems them (tsv, english), so
"initiatives" holds "initiative". Served by chunks_scope (a filing's chunks) and chunks_tsv (every filing's).
"""

from __future__ import annotations

from dataclasses import dataclass

import psycopg

# Per word, the chunks of the filings that hold it, with their count.
CHUNKS_HOLDING_SQL = """
WITH scoped AS MATERIALIZED (SELECT tsv FROM chunks WHERE accession = ANY(%(accessions)s))
SELECT w.word,
       (SELECT count(*) FROM scoped WHERE scoped.tsv @@ plainto_tsquery('english', w.word)),
       (SELECT count(*) FROM scoped)
  FROM unnest(%(words)s::text[]) AS w(word)
"""

# Per word, whether at least `at_least` chunks of all filings hold it: counting stops there, so a common
# word costs no more than a rarer one (an index probe, then as many rows as the count needs).
HELD_WIDELY_SQL = """
SELECT w.word, (SELECT count(*) FROM (SELECT 1 FROM chunks c WHERE c.tsv @@ plainto_tsquery('english', w.word)
                                      LIMIT %(at_least)s) AS held) >= %(at_least)s
  FROM unnest(%(words)s::text[]) AS w(word)
"""

ALL_CHUNKS_SQL = "SELECT count(*) FROM chunks"


@dataclass(frozen=True)
class WordCounts:
    """`chunks`: the filings' chunk count; `holding`: word -> chunks of theirs holding it."""

    chunks: int
    holding: dict[str, int]


def word_counts(conn: psycopg.Connection, words: list[str], accessions: list[str]) -> WordCounts:
    words = [w for w in dict.fromkeys(words) if w]
    if not words or not accessions:
        return WordCounts(0, {})
    rows = conn.execute(CHUNKS_HOLDING_SQL, {"words": words, "accessions": list(accessions)}).fetchall()
    return WordCounts(int(rows[0][2]) if rows else 0, {word: int(n) for word, n, _ in rows})


def held_widely(conn: psycopg.Connection, words: list[str], share: float) -> dict[str, bool]:
    """Per word, whether more than `share` of all filings' chunks hold it."""
    words = [w for w in dict.fromkeys(words) if w]
    if not words:
        return {}
    total = int(conn.execute(ALL_CHUNKS_SQL).fetchone()[0])
    at_least = int(share * total) + 1
    return {word: bool(wide) for word, wide in conn.execute(HELD_WIDELY_SQL, {"words": words, "at_least": at_least})}
