"""Which covered companies' filings name a word: the corpus's own evidence of whose brand it is.

A product, drug, service or subsidiary ("Humira", "Peacock", "Gulfstream") is rarely a company
name, yet its maker's filings name it again and again while others name it seldom or never. The
full-text index finds the chunks that hold a phrase in one indexed query; their text comes back too,
so the caller can tell a name (written capitalised) from an everyday word that stems the same.
"""

from __future__ import annotations

import psycopg

# chunks holding the phrase (the 'english' configuration is the one the generated tsv column is
# built with, so stemming agrees); a word in thousands of chunks is no brand, so a sample suffices, and
# the same sample whatever plan the server picks: an unordered LIMIT read other chunks late in a long batch
# and took "receivable" for a company's brand
CHUNKS_NAMING = """
SELECT cik, text
FROM chunks
WHERE tsv @@ phraseto_tsquery('english', %(phrase)s)
ORDER BY id
LIMIT %(limit)s
"""


def chunks_naming(conn: psycopg.Connection, phrase: str, *, limit: int = 600) -> list[tuple[int, str]]:
    """[(cik, chunk text)] of chunks whose words include `phrase`, at most `limit` of them."""
    with conn.cursor() as cur:
        cur.execute(CHUNKS_NAMING, {"phrase": phrase, "limit": limit})
        return [(int(cik), text) for cik, text in cur.fetchall()]


# how many chunks of these companies' filings hold the phrase in any case, counted up to a cap
CHUNKS_WRITING = """
SELECT count(*) FROM (
    SELECT 1 FROM chunks
    WHERE cik = ANY(%(ciks)s) AND tsv @@ phraseto_tsquery('english', %(phrase)s)
    LIMIT %(cap)s
) AS held
"""


def chunks_writing(conn: psycopg.Connection, phrase: str, ciks: list[int], *, cap: int = 50) -> int:
    """Chunks of the filings of `ciks` whose words include `phrase` (stemmed, any case), at most `cap`."""
    with conn.cursor() as cur:
        cur.execute(CHUNKS_WRITING, {"phrase": phrase, "ciks": list(ciks), "cap": cap})
        return int(cur.fetchone()[0])
