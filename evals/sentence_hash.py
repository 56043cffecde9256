"""A key sentence's fingerprint: its normalised text hashed, so question sets can name a sentence of a
filing without copying it. Both the key-sentence scorer and the evidence matcher use it."""

from __future__ import annotations

import hashlib
import re

_PLAIN = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-", "\u00a0": " ", "\u2009": " ", "\u202f": " "})


def norm(text: str) -> str:
    """The hashed form. Frozen: changing it orphans every stored reference."""
    text = (text or "").translate(_PLAIN)
    return re.sub(r"\s+", " ", text).strip().lower()


def digest(sentence: str) -> str:
    return hashlib.sha1(norm(sentence).encode("utf-8")).hexdigest()


def find_hashed(text: str, sha1: str, chars: int) -> str | None:
    """The normalised window of `text` with this hash and length, starting at a word, if any."""
    flat = norm(text)
    if chars <= 0 or len(flat) < chars:
        return None
    starts = [0] + [m.end() for m in re.finditer(r"[ (\"'\[]", flat)]
    for i in starts:
        window = flat[i : i + chars]
        if len(window) == chars and hashlib.sha1(window.encode("utf-8")).hexdigest() == sha1:
            return window
    return None
