"""What the scorers need from the corpus, fetched once per question: chunk texts, stored facts,
the chunks that hold a question's expected evidence.

Queries (store/lookups.py) read the store's tables directly (not the agent's code paths), so a
bug in the agent's retrieval cannot make its own answers look grounded.
"""

from __future__ import annotations

import re
import numpy as np

from evals.scorers import evidence_matches, to_decimal
from store import lookups
from store.inventory import corpus_counts

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
            return corpus_counts(conn)

    def cik(self, ticker: str) -> int | None:
        ticker = (ticker or "").upper()
        if ticker not in self._cik:
            with self.db.connection() as conn:
                self._cik[ticker] = lookups.cik_for_ticker(conn, ticker)
        return self._cik[ticker]

    def chunk_by_id(self, chunk_id: int) -> str | None:
        if chunk_id not in self._chunks:
            with self.db.connection() as conn:
                self._chunks[chunk_id] = lookups.chunk_text(conn, chunk_id)
        return self._chunks[chunk_id]

    def chunk_text(self, citation: dict) -> str | None:
        """The cited chunk's text; without a chunk id, the cited Item's whole text."""
        if citation.get("chunk_id") is not None:
            return self.chunk_by_id(int(citation["chunk_id"]))
        if citation.get("accession") and citation.get("item"):
            with self.db.connection() as conn:
                texts = lookups.item_chunk_texts(conn, citation["accession"], citation["item"])
            return "\n".join(texts) or None
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
            return lookups.fact_with_value(conn, cik, taxonomy, name, value, dimensional=bool(number.get("dims")),
                                           fiscal_year=fy)  # fmt: skip

    def fact_ok(self, citation: dict) -> bool:
        """The cited filing reports this concept with this value (any period of it)."""
        value = to_decimal(citation.get("value"))
        if value is None:
            return False
        taxonomy, name = split_concept(citation.get("concept", ""))
        with self.db.connection() as conn:
            if lookups.fact_in_filing(conn, citation.get("accession"), taxonomy, name, value):
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
            with self.db.connection() as conn:
                rows = lookups.evidence_candidates(conn, cik, ev.get("fiscal_year"), ev.get("item"))
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
