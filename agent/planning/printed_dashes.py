"""A spaced hyphen inside a row name the filings print is the name's punctuation, never a minus.

Why: formula reading takes " - " between two phrases as a difference, so "UnitedHealth total revenues -
unaffiliated customers 2023" was computed as total revenues minus the unaffiliated customers' revenue ($4.09
billion) instead of the printed line itself ($367.53 billion). When the question holds, word for word, a printed
name with a spaced hyphen, that hyphen becomes an en dash, which no formula reads as an operator and the line-item
and member readers treat as the same name."""

from __future__ import annotations

import re

# footnote marks a printed name carries that a question leaves out: "(1)", "(a)", "*", a trailing colon
_MARKS = re.compile(r"\s*(?:\((?:\d{1,2}|[a-z])\)|\*+|:)\s*$", re.I)


def _plain(label: str) -> str:
    text = " ".join(label.split()).lower()
    while True:
        cut = _MARKS.sub("", text)
        if cut == text:
            return text
        text = cut


def dashed_index(labels) -> frozenset[str]:
    """The lower-cased printed names with a spaced hyphen and words on both sides of it (not "2030 - 2034")."""
    out = set()
    for label in labels:
        text = _plain(label)
        if any(re.search(r"[a-z]", part) for part in text.split(" - ")[1:]) and re.search(r"[a-z]", text.split(" - ")[0]):
            out.add(text)
    return frozenset(out)


def dashes_kept(text: str, dashed) -> str:
    """`text` with the spaced hyphen of every printed name it holds word for word (`dashed`, dashed_index's set or a
    Deferred of it) turned into an en dash; `text` itself when it holds no spaced hyphen."""
    if " - " not in text:
        return text
    names = dashed.get() if hasattr(dashed, "get") else dashed
    lowered = text.lower()
    spans = []
    for name in names:
        for m in re.finditer(rf"(?<![\w]){re.escape(name)}(?![\w])", lowered):
            spans.append((m.start(), m.end()))
    if not spans:
        return text
    out = list(text)
    for start, end in spans:
        for at in range(start, end - 2):
            if text[at:at + 3] == " - ":
                out[at + 1] = "\u2013"
    return "".join(out)
