"""Query embeddings memoized per embedder.

Retrieval embeds a turn's sub-queries, and the extractive composer scores sentences against the
same sub-queries a moment later: one query costs ~15 ms to embed on a busy core, so the second
use reads the first's vector. `functools.lru_cache` keyed by (embedder, text): another embedder
never sees these vectors, and the cache is bounded.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np  # imported where vectors are compared: a numeric answer never compares any

MAX_ENTRIES = 256


@functools.lru_cache(maxsize=MAX_ENTRIES)
def _vector(embedder, text: str) -> np.ndarray:
    return embedder.embed([text])[0]


def embed_queries(embedder, texts: list[str]) -> np.ndarray:
    """Normalized vectors for `texts`, in order (as `embedder.embed` returns them)."""
    if not texts:
        return embedder.embed(texts)
    import numpy as np

    try:
        return np.stack([_vector(embedder, t) for t in texts])
    except TypeError:  # an embedder that cannot be a cache key: no memo
        return embedder.embed(texts)
