"""Vectors of a fixed list of texts, embedded once per model and kept beside it on disk.

The routing exemplars (agent/planning/exemplars.tsv, about 500 lines) are embedded for the first
message a process routes by meaning: a second or more of CPU on every cold `footnote ask help`
and every bot restart, for vectors that change only when the texts, the weights or the runtime do.
So they are read from a .npy file in the model cache, named by a digest of all three; an embedder
that cannot name its weights and runtime (`vector_identity` absent: a fake, a remote model) embeds
every time, as before.
"""

from __future__ import annotations

import hashlib
import logging
import os
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

log = logging.getLogger(__name__)


def cached_vectors(embedder, texts: list[str], name: str) -> np.ndarray:
    """`embedder.embed(texts)` as float32, from `<cache>/<name>-<digest>.npy` when that file exists."""
    import numpy as np

    identity = getattr(embedder, "vector_identity", None)
    folder = getattr(embedder, "vector_cache_dir", None)
    if identity is None or folder is None:
        return np.asarray(embedder.embed(texts), dtype=np.float32)
    digest = hashlib.sha256("\0".join([identity, *texts]).encode()).hexdigest()[:16]
    path = Path(folder) / f"{name}-{digest}.npy"
    try:
        vectors = np.load(path, allow_pickle=False)
        if vectors.shape == (len(texts), embedder.dim) and vectors.dtype == np.float32:
            return vectors
        log.warning("ignoring %s: shape %s, not (%d, %d)", path, vectors.shape, len(texts), embedder.dim)
    except (OSError, ValueError):
        pass  # not made yet, or cut short: embed and write it again
    vectors = np.asarray(embedder.embed(texts), dtype=np.float32)
    _write(path, vectors)
    return vectors


def _write(path: Path, vectors: np.ndarray) -> None:
    """Written beside and moved in, so a reader finds the whole file or none; a cache that cannot
    be written (a read-only model folder) costs the next process the embedding, nothing else."""
    import numpy as np

    scratch = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(scratch, "wb") as fh:
            np.save(fh, vectors, allow_pickle=False)
        os.replace(scratch, path)
    except OSError as exc:
        log.warning("could not keep the vectors in %s (%s); they are embedded again next time", path, exc)
        scratch.unlink(missing_ok=True)
