"""The baseline to beat: plain dense retrieval, measured in the same run as Footnote.

Top-k cosine between the raw question's embedding and every chunk of the corpus: no company or
filing scope, no keyword search, no Item routing, no query expansion. The scan is exact (the
HNSW index is bypassed), so the baseline is the method itself, not an approximation of it.
"""

from __future__ import annotations

from store.lookups import dense_top_k as exact_top_k


def dense_top_k(db, embedder, question: str, k: int = 8) -> list[tuple[int, int]]:
    """[(chunk id, cik)] of the k chunks nearest to the question, best first."""
    vector = embedder.embed_query(question)
    with db.connection() as conn:
        return exact_top_k(conn, vector, k)


def score_baseline(hits: list[tuple[int, int]], gold: set[int], expected_ciks: set[int]) -> dict:
    """Recall@5/@8 of the evidence chunk and the share of top-5 hits from another company."""
    ids = [h[0] for h in hits]
    top5 = hits[:5]
    wrong = sum(1 for _, cik in top5 if expected_ciks and cik not in expected_ciks)
    return {
        "recall@5": bool(gold) and any(i in gold for i in ids[:5]),
        "recall@8": bool(gold) and any(i in gold for i in ids[:8]),
        "wrong_company_top5": wrong,
        "top5": len(top5),
        "retrieved": ids,
    }
