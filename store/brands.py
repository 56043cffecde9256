"""Which covered companies' filings name a word: the corpus's own evidence of whose brand it is.

A product, drug, service or subsidiary ("Humira", "Peacock", "Gulfstream") is rarely a company
name, yet its maker's filings name it again and again while others name it seldom or never. The
full-text index already holds every word of every chunk, so counting the chunks that contain a
phrase, per company, is one indexed query.
"""

from __future__ import annotations

import psycopg

# chunks naming the phrase, per company, most first (the 'english' configuration is the one the
# generated tsv column is built with, so stemming agrees)
COMPANIES_NAMING = """
SELECT cik, count(*) AS chunks
FROM chunks
WHERE tsv @@ phraseto_tsquery('english', %(phrase)s)
GROUP BY cik
ORDER BY chunks DESC, cik
LIMIT %(limit)s
"""


def companies_naming(conn: psycopg.Connection, phrase: str, *, limit: int = 6) -> list[tuple[int, int]]:
    """[(cik, chunks that name `phrase`)], most first."""
    with conn.cursor() as cur:
        cur.execute(COMPANIES_NAMING, {"phrase": phrase, "limit": limit})
        return [(int(cik), int(n)) for cik, n in cur.fetchall()]
