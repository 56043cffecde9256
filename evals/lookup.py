"""What the scorers need from the corpus, fetched once per question: chunk texts, stored facts,
the chunks that hold a question's expected evidence.

Queries read the store's tables directly (not the agent's code paths), so a bug in the agent's
retrieval cannot make its own answers look grounded.
"""

from __future__ import annotations

import re
import numpy as np

from evals.scorers import evidence_matches, to_decimal

CIK_FOR_TICKER = "SELECT cik FROM companies WHERE %s = ANY(tickers) ORDER BY cik LIMIT 1"
CHUNK_TEXT = "SELECT text FROM chunks WHERE id = %s"
CHUNKS_OF_ITEM = "SELECT text FROM chunks WHERE accession = %s AND item = %s ORDER BY ordinal"
FACT_WITH_VALUE = """
SELECT 1 FROM facts
WHERE cik = %s AND taxonomy = %s AND concept = %s AND value = %s AND (%s OR NOT dimensional)
  AND (%s::int IS NULL OR fiscal_year = %s::int)
LIMIT 1
"""
FACT_IN_FILING = """
SELECT 1 FROM facts
WHERE accession = %s AND taxonomy = %s AND concept = %s AND value = %s
LIMIT 1
"""
EVIDENCE_CANDIDATES = """
SELECT c.id, c.text FROM chunks c JOIN filings f ON f.accession = c.accession
WHERE c.cik = %(cik)s
  AND (%(fy)s::int IS NULL OR f.fiscal_year = %(fy)s::int)
  AND (%(item)s::text IS NULL OR c.item = %(item)s::text)
"""
CORPUS_COUNTS = "SELECT (SELECT count(*) FROM filings), (SELECT count(*) FROM chunks), (SELECT count(*) FROM facts)"

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\"'])")


def split_concept(concept: str) -> tuple[str, str]:
    if ":" in concept:
        taxonomy, name = concept.split(":", 1)
        return taxonomy, name
    return "us-gaap", concept


class CorpusLookup:
    def __init__(self, db, embedder=None):
        self.db = db
        self.embedder = embedder
        self._cik: dict[str, int | None] = {}
        self._chunks: dict[int, str | None] = {}

    def counts(self) -> tuple[int, int, int]:
        with self.db.connection() as conn:
            return tuple(conn.execute(CORPUS_COUNTS).fetchone())

    def cik(self, ticker: str) -> int | None:
        ticker = (ticker or "").upper()
        if ticker not in self._cik:
            with self.db.connection() as conn:
                row = conn.execute(CIK_FOR_TICKER, (ticker,)).fetchone()
            self._cik[ticker] = row[0] if row else None
        return self._cik[ticker]

    def chunk_by_id(self, chunk_id: int) -> str | None:
        if chunk_id not in self._chunks:
            with self.db.connection() as conn:
                row = conn.execute(CHUNK_TEXT, (chunk_id,)).fetchone()
            self._chunks[chunk_id] = row[0] if row else None
        return self._chunks[chunk_id]

    def chunk_text(self, citation: dict) -> str | None:
        """The cited chunk's text; without a chunk id, the cited Item's whole text."""
        if citation.get("chunk_id") is not None:
            return self.chunk_by_id(int(citation["chunk_id"]))
        if citation.get("accession") and citation.get("item"):
            with self.db.connection() as conn:
                rows = conn.execute(CHUNKS_OF_ITEM, (citation["accession"], citation["item"])).fetchall()
            return "\n".join(r[0] for r in rows) or None
        return None

    def fact_exists(self, number: dict) -> bool:
        """A stored fact with this value; a member's fact only when the number names its member
        (`dims`), so a segment figure can never pass as the company total."""
        cik = self.cik(number.get("ticker", ""))
        value = to_decimal(number.get("value"))
        if cik is None or value is None:
            return False
        taxonomy, name = split_concept(number.get("concept", ""))
        fy = number.get("fiscal_year")
        with self.db.connection() as conn:
            params = (cik, taxonomy, name, value, bool(number.get("dims")), fy, fy)
            return conn.execute(FACT_WITH_VALUE, params).fetchone() is not None

    def fact_ok(self, citation: dict) -> bool:
        """The cited filing reports this concept with this value (any period of it)."""
        value = to_decimal(citation.get("value"))
        if value is None:
            return False
        taxonomy, name = split_concept(citation.get("concept", ""))
        with self.db.connection() as conn:
            row = conn.execute(FACT_IN_FILING, (citation.get("accession"), taxonomy, name, value)).fetchone()
        if row is not None:
            return True
        # The filing may be cited while the fact came from companyfacts under another accession.
        return self.fact_exists({**citation, "value": str(value), "fiscal_year": None})

    def gold_chunks(self, evidence: list[dict]) -> set[int]:
        """Ids of the chunks that hold any one piece of the expected evidence."""
        gold: set[int] = set()
        for ev in evidence or []:
            cik = self.cik(ev["ticker"])
            if cik is None:
                continue
            params = {"cik": cik, "fy": ev.get("fiscal_year"), "item": ev.get("item")}
            with self.db.connection() as conn:
                rows = conn.execute(EVIDENCE_CANDIDATES, params).fetchall()
            gold |= {row[0] for row in rows if evidence_matches(ev, row[1])}
        return gold

    def similar(self, claim: str, chunk_text: str) -> float:
        """Best cosine between the claim and a sentence of the chunk (the agent's tier 3)."""
        if self.embedder is None:
            return 0.0
        sentences = [s for s in _SENTENCE.split(chunk_text) if s.strip()][:64]
        if not sentences:
            return 0.0
        vectors = self.embedder.embed([claim, *sentences])
        return float(np.max(vectors[1:] @ vectors[0]))
