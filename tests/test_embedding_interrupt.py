"""An interrupt during a long embedding stops it after the batches in flight, never after every batch queued:
`footnote bench ingest` embeds a whole corpus in one call, and a stop signal waited for all of it."""

from __future__ import annotations

import threading

import numpy as np
import pytest


class _Session:
    """An ONNX session stand-in: the second batch run is interrupted, as a signal would interrupt it."""

    def __init__(self, dim: int):
        self.dim, self.calls, self.lock = dim, 0, threading.Lock()

    def run(self, _outputs, feed):
        with self.lock:
            self.calls += 1
            call = self.calls
        if call == 2:
            raise KeyboardInterrupt
        return [np.zeros((feed["input_ids"].shape[0], self.dim), dtype=np.float32)]


def test_an_interrupt_cancels_the_batches_not_started(embedder):
    embedder.threads = 2  # two streams, as on a two-core machine
    try:
        session = _Session(embedder.dim)
        texts = [f"sentence number {i} about revenue" for i in range(400)]
        with pytest.raises(KeyboardInterrupt):
            embedder._embed_onnx(session, texts, 4, False)  # a hundred batches of four
        assert session.calls <= 4, session.calls  # the batches in flight, not the hundred queued
    finally:
        embedder.threads = None
