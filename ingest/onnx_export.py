"""all-MiniLM-L6-v2 as an ONNX graph, exported once from the packaged weights and cached.

ONNX Runtime serves the model on the CPU faster than PyTorch and without importing torch or
transformers at all, which is most of a cold start. No ONNX file ships with the weights and the
hub is out of reach, so the first use exports one locally (torch + transformers, about half a
minute) into the model cache under the data dir; every later process just opens the file.

The graph ends in mean pooling and L2 normalisation, so it returns what sentence-transformers'
`encode(normalize_embeddings=True)` returns (cosine 1.0 to the float32 PyTorch vectors). The
file name carries the weights' size and mtime and the export recipe's version, so new weights
or a new recipe never reuse a stale file.
"""

from __future__ import annotations

import logging
import os
import uuid
from pathlib import Path

log = logging.getLogger(__name__)

EXPORT_VERSION = 1  # bump when the graph below changes
OPSET = 17
INPUTS = ("input_ids", "attention_mask", "token_type_ids")


def cached_model(model_path: Path, cache_dir: Path, model_name: str) -> Path:
    """The ONNX file for the weights in `model_path`, exported into `cache_dir` if not there yet."""
    weights = Path(model_path) / "model.safetensors"
    stat = weights.stat()
    target = Path(cache_dir) / f"{model_name}-v{EXPORT_VERSION}-{stat.st_size}-{stat.st_mtime_ns}.onnx"
    if target.exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    log.info("Preparing %s for ONNX Runtime (once, about half a minute): %s", model_name, target)
    partial = target.with_name(f".{target.name}.{uuid.uuid4().hex[:8]}.partial")
    try:
        export(Path(model_path), partial)
        os.replace(partial, target)  # atomic: a concurrent export just replaces it with an identical file
    finally:
        partial.unlink(missing_ok=True)
    return target


def export(model_path: Path, out: Path) -> None:
    """Trace the transformer plus pooling and normalisation into one graph (batch and length dynamic)."""
    import warnings

    import torch
    from transformers import AutoModel
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    # Eager attention traces to plain MatMul/Softmax, valid for every sequence length.
    model = AutoModel.from_pretrained(str(model_path), local_files_only=True, attn_implementation="eager").eval()

    class Pooled(torch.nn.Module):
        def __init__(self, encoder):
            super().__init__()
            self.encoder = encoder

        def forward(self, input_ids, attention_mask, token_type_ids):
            hidden = self.encoder(input_ids=input_ids, attention_mask=attention_mask,
                                  token_type_ids=token_type_ids).last_hidden_state  # fmt: skip
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
            mean = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(mean, p=2, dim=1)

    example = tuple(torch.ones(2, 8, dtype=torch.long) for _ in INPUTS)
    axes = {name: {0: "batch", 1: "tokens"} for name in INPUTS} | {"embedding": {0: "batch"}}
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # tracer notes about Python booleans in the attention code
        torch.onnx.export(Pooled(model), example, str(out), input_names=list(INPUTS), output_names=["embedding"],
                          dynamic_axes=axes, opset_version=OPSET, dynamo=False)  # fmt: skip
