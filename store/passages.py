"""Passage vectors: each prose sentence of a chunk embedded on its own, stored beside the chunk.

A chunk's vector is the mean of everything in it. When the sentence that answers a question sits
under a heading and boilerplate about something else, the chunk's vector lands far from the
question (dense ranks of 50 to 200 in a filing of 400 chunks) although that one sentence's vector
is close: the passage arm of store.chunks.HYBRID_SQL ranks a chunk by its best passage too.

Passages are written per filing, in one transaction, with the filing's last chunk id, so a filing
whose chunks were written again (a re-ingest) is found pending and done again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

PENDING_SQL = """
SELECT f.accession
FROM filings f
JOIN (SELECT accession, max(id) AS last_chunk FROM chunks GROUP BY accession) c ON c.accession = f.accession
LEFT JOIN passage_filings p ON p.accession = f.accession
WHERE (p.accession IS NULL OR p.last_chunk <> c.last_chunk)
  AND (%(accessions)s::text[] IS NULL OR f.accession = ANY(%(accessions)s::text[]))
ORDER BY f.accession
"""

PROSE_CHUNKS_SQL = """
SELECT id, context, text FROM chunks WHERE accession = %s AND NOT is_table ORDER BY id
"""


def pending(conn, accessions: list[str] | None = None) -> list[str]:
    """The filings whose passages are missing or older than their chunks."""
    return [r[0] for r in conn.execute(PENDING_SQL, {"accessions": accessions or None}).fetchall()]


def prose_chunks(conn, accession: str) -> list[tuple[int, str, str]]:
    """(id, context, text) of the filing's prose chunks: a table row is matched by the chunk itself."""
    return conn.execute(PROSE_CHUNKS_SQL, (accession,)).fetchall()


def write_filing(conn, accession: str, rows: list[tuple[int, int]], vectors: np.ndarray) -> None:
    """Replace the filing's passages by `rows` ((chunk_id, ordinal), one per vector) and mark it
    done; call inside a transaction, so a filing is wholly done or not at all."""
    import numpy as np

    conn.execute("DELETE FROM passages WHERE chunk_id IN (SELECT id FROM chunks WHERE accession = %s)", (accession,))
    with conn.cursor() as cur, cur.copy("COPY passages (chunk_id, ordinal, embedding) FROM STDIN") as copy:
        for (chunk_id, ordinal), vec in zip(rows, vectors, strict=True):
            copy.write_row((chunk_id, ordinal, "[" + ",".join(f"{x:.6g}" for x in np.asarray(vec, dtype=np.float32)) + "]"))
    conn.execute(
        """INSERT INTO passage_filings (accession, last_chunk, passages)
           SELECT %s, coalesce(max(id), 0), %s FROM chunks WHERE accession = %s
           ON CONFLICT (accession) DO UPDATE SET last_chunk = excluded.last_chunk, passages = excluded.passages""",
        (accession, len(rows), accession),
    )


def forget_all(conn) -> None:
    """Every filing pending again: the chunks were embedded on another runtime, and a passage's
    vector must come from the same one as the question's."""
    conn.execute("DELETE FROM passage_filings")
    conn.execute("DELETE FROM passages")


def filings_of(conn, ticker: str) -> list[str]:
    """The stored filings of the company with this ticker (a backfill limited to some companies)."""
    rows = conn.execute(
        "SELECT f.accession FROM filings f JOIN companies c ON c.cik = f.cik WHERE upper(%s) = ANY(c.tickers) "
        "ORDER BY f.accession", (ticker,)).fetchall()  # fmt: skip
    return [r[0] for r in rows]
