"""Sentence vectors for scoring quotes, kept in-process between answers.

The extractive composer embeds a shortlist of candidate sentences for every prose answer, and that
embedding is most of its time (about 8 ms a sentence on a busy core). The vectors are compared
only with the question's, inside compose, never with the corpus index, so they need not come from
the stored chunk vectors: the same sentence is read again whenever a follow-up, a rephrasing or
another year's filing (risk factors barely change) brings its chunk back, and then its vector is
read from here. Least recently used first out, bounded; keyed by embedder, so another embedder
never sees these vectors.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np  # imported where vectors are compared: a numeric answer never compares any

MAX_SENTENCES = 4096  # 384 float32 each: about 6 MB


class SentenceVectors:
    """An LRU map from (embedder, text) to the text's normalized vector."""

    def __init__(self, size: int = MAX_SENTENCES):
        self.size = size
        self._by_embedder: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()  # the Slack and Teams workers answer on threads

    def embed(self, embedder, texts: list[str]) -> np.ndarray:
        """Vectors for `texts`, in order: the ones held read back, the others embedded in one call."""
        import numpy as np

        try:
            with self._lock:
                held = self._by_embedder.setdefault(embedder, OrderedDict())
        except TypeError:  # an embedder that cannot be a weak key: no memo
            return embedder.embed(texts)
        with self._lock:
            missing = list(dict.fromkeys(t for t in texts if t not in held))
        if missing:
            fresh = embedder.embed(missing)
            with self._lock:
                for text, vector in zip(missing, fresh, strict=True):
                    held[text] = vector
        with self._lock:
            out = []
            for text in texts:
                vector = held.get(text)
                if vector is None:  # pushed out by another thread's answer meanwhile
                    vector = embedder.embed([text])[0]
                held[text] = vector
                held.move_to_end(text)
                out.append(vector)
            while len(held) > self.size:
                held.popitem(last=False)
        return np.stack(out) if out else embedder.embed(texts)


SENTENCES = SentenceVectors()
