"""Which 10-K Item answers a prose question, by the labelled questions it is nearest to in meaning.

Why exemplars beside the routing rules (agent.planning.prose_route): the rules read the form of a
question and its topic words, and people ask of the notes, the risk factors and MD&A in endless
wordings that no pattern names. A few hundred questions labelled with the Item that answers them
(agent/planning/item_exemplars.tsv) cover the kinds; a new wording is judged by the ones it resembles.
Their vote is one judge among three where an Item is chosen (agent.retrieval.item_lead): the rules,
the filing's own passages, and this.

Needs the service's sentence model: the exemplars are embedded once per embedder (and cached on disk,
store/vector_cache.py), the question once (memoized, agent.retrieval.query_vectors).
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np  # imported where vectors are compared

log = logging.getLogger(__name__)

EXEMPLARS = Path(__file__).with_name("item_exemplars.tsv")
ITEMS = ("1", "1A", "7", "8")
K = 7  # neighbours that vote
SHARPEN = 4  # each votes with its cosine to this power: the closest count most


@dataclass(frozen=True)
class Vote:
    item: str  # the Item whose neighbours weigh most
    share: float  # its share of the neighbours' weighted vote, 0..1
    margin: float  # its lead over the next Item's share
    top: float  # cosine of the nearest exemplar
    text: str  # that exemplar, for traces


def load(path: Path = EXEMPLARS) -> list[tuple[str, str]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        label, _, text = line.partition("\t")
        if label.strip() in ITEMS and text.strip():
            rows.append((label.strip(), text.strip()))
    return rows


_ROWS: list[tuple[str, str]] | None = None
_VECTORS: dict[int, tuple[object, np.ndarray]] = {}  # id(embedder) -> (embedder, exemplar vectors)
_LOCK = threading.Lock()


def _rows() -> list[tuple[str, str]]:
    global _ROWS
    if _ROWS is None:
        _ROWS = load()
    return _ROWS


def _exemplar_vectors(embedder) -> np.ndarray:
    """The exemplars' vectors, embedded once per model and runtime (store/vector_cache.py)."""
    from store.vector_cache import cached_vectors

    with _LOCK:
        hit = _VECTORS.get(id(embedder))
        if hit is None or hit[0] is not embedder:
            hit = (embedder, cached_vectors(embedder, [t for _, t in _rows()], "item-exemplars"))
            _VECTORS[id(embedder)] = hit
        return hit[1]


def vote(text: str, embedder) -> Vote | None:
    """The Item the question's nearest exemplars vote for, or None without an embedder (or when it
    fails: the caller then decides without the vote)."""
    if embedder is None or not text.strip():
        return None
    import numpy as np

    try:
        from agent.retrieval.query_vectors import embed_queries

        vectors = _exemplar_vectors(embedder)
        query = np.asarray(embed_queries(embedder, [text])[0], dtype=np.float32)
    except Exception as exc:  # a model that will not load must not stop a question being answered
        log.warning("item exemplar embedding failed (%s); routing by the rules alone", exc.__class__.__name__)
        return None
    sims = vectors @ query
    top = np.argsort(-sims)[:K]
    rows = _rows()
    weights: dict[str, float] = {}
    for i in top:
        weights[rows[i][0]] = weights.get(rows[i][0], 0.0) + max(float(sims[i]), 0.0) ** SHARPEN
    ranked = sorted(weights.items(), key=lambda kv: -kv[1])
    total = sum(weights.values()) or 1.0
    best, weight = ranked[0]
    second = ranked[1][1] if len(ranked) > 1 else 0.0
    return Vote(best, weight / total, (weight - second) / total, float(sims[top[0]]), rows[int(top[0])][1])
