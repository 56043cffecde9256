"""Query embeddings memoized per embedder.

Retrieval embeds a turn's sub-queries, and the extractive composer scores sentences against the
same sub-queries a moment later: one query costs ~15 ms to embed on a busy core, so the second
use reads the first's vector. Kept on the embedder object itself (so another embedder never sees
its vectors), bounded, keyed by the exact text.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np

MAX_ENTRIES = 256
_ATTR = "_footnote_query_vectors"
_lock = threading.Lock()


def embed_queries(embedder, texts: list[str]) -> np.ndarray:
    """Normalized vectors for `texts`, in order (as `embedder.embed` returns them)."""
    with _lock:
        memo = getattr(embedder, _ATTR, None)
        if memo is None:
            try:
                memo = OrderedDict()
                setattr(embedder, _ATTR, memo)
            except AttributeError:  # an embedder that takes no attributes: no memo
                memo = None
    if memo is None:
        return embedder.embed(texts)
    with _lock:
        missing = [t for t in dict.fromkeys(texts) if t not in memo]
    fresh = embedder.embed(missing) if missing else []
    with _lock:
        for text, vector in zip(missing, fresh, strict=True):
            memo[text] = vector
        found = [memo.get(t) for t in texts]
        for t in texts:
            if t in memo:
                memo.move_to_end(t)
        while len(memo) > MAX_ENTRIES:
            memo.popitem(last=False)
    if any(v is None for v in found):
        return embedder.embed(texts)
    return np.stack(found)
