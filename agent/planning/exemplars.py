"""What kind of message an unfamiliar one is, by the labelled exemplars it is nearest to.

Why exemplars and not more patterns: people greet, thank, sign off and ask about the bot in
endless wordings, and a pattern list only ever learns the last one that failed. A few hundred
labelled short messages (agent/planning/exemplars.tsv) cover the kinds; a new wording is judged by the
ones it resembles. Why character n-grams and not the embedding model: the planner runs on every
message, numbers included, and must not wait for (or load) a sentence model; n-gram TF-IDF
cosine over a few hundred exemplars takes well under a millisecond and tolerates typos
("thnks", "helo").
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

EXEMPLARS = Path(__file__).with_name("exemplars.tsv")
META = ("greeting", "thanks", "goodbye", "ack", "help", "about", "coverage")
REFUSE = ("offtopic", "forecast", "advice", "price")
K = 3  # neighbours that vote
SAME = 0.95  # a message this close to one exemplar is that exemplar: its label, whatever the others vote
_CLEAN = re.compile(r"[^a-z0-9&'%$ ]+")


@dataclass(frozen=True)
class Nearest:
    label: str  # the winning label
    score: float  # its similarity-weighted vote, 0..1 (the mean cosine of its neighbours among the K)
    top: float  # cosine of the single nearest exemplar
    text: str  # that exemplar, for traces
    kind_score: float = 0.0  # the mean cosine of the neighbours whose label is of the winner's kind


def kind(label: str) -> str:
    """The decision a label makes at routing: small talk (any META label), a refusal, or a domain ask."""
    return "meta" if label in META else "refuse" if label in REFUSE else "domain"


def _clean(text: str) -> str:
    return " ".join(_CLEAN.sub(" ", text.lower().replace("\u2019", "'")).split())


def _features(text: str) -> Counter:
    """Character 2-4-grams inside word boundaries, plus whole words (which carry the most)."""
    t = _clean(text)
    feats: Counter = Counter()
    for word in t.split():
        padded = f" {word} "
        for n in (2, 3, 4):
            for i in range(len(padded) - n + 1):
                feats["c:" + padded[i : i + n]] += 1
        feats["w:" + word] += 2
    return feats


@dataclass
class _Index:
    labels: list[str]
    texts: list[str]
    vectors: list[dict[str, float]]
    postings: dict[str, list[tuple[int, float]]]
    idf: dict[str, float]


def _weigh(feats: Counter, idf: dict[str, float]) -> dict[str, float]:
    vec = {f: (1 + math.log(c)) * idf[f] for f, c in feats.items() if f in idf}
    norm = math.sqrt(sum(v * v for v in vec.values())) or 1.0
    return {f: v / norm for f, v in vec.items()}


def load(path: Path = EXEMPLARS) -> list[tuple[str, str]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        label, _, text = line.partition("\t")
        rows.append((label.strip(), text.strip()))
    return rows


@functools.cache
def _index() -> _Index:
    rows = load()
    feats = [_features(text) for _, text in rows]
    df: Counter = Counter()
    for f in feats:
        df.update(f.keys())
    n = len(rows)
    idf = {f: math.log((1 + n) / (1 + d)) + 1 for f, d in df.items()}
    vectors = [_weigh(f, idf) for f in feats]
    postings: dict[str, list[tuple[int, float]]] = {}
    for i, vec in enumerate(vectors):
        for f, w in vec.items():
            postings.setdefault(f, []).append((i, w))
    return _Index([r[0] for r in rows], [r[1] for r in rows], vectors, postings, idf)


def nearest(text: str) -> Nearest | None:
    """The label the message's K nearest exemplars vote for, or None when nothing is alike."""
    index = _index()
    query = _weigh(_features(text), index.idf)
    if not query:
        return None
    sims: dict[int, float] = {}
    for f, w in query.items():
        for i, v in index.postings.get(f, ()):
            sims[i] = sims.get(i, 0.0) + w * v
    if not sims:
        return None
    top = sorted(sims.items(), key=lambda s: -s[1])[:K]
    votes: dict[str, float] = {}
    for i, s in top:
        votes[index.labels[i]] = votes.get(index.labels[i], 0.0) + s
    label = max(votes, key=lambda k: votes[k])
    if top[0][1] >= SAME:
        label = index.labels[top[0][0]]  # "what is footnote?" is about Footnote, though two greetings name it too
    kinds: dict[str, float] = {}
    for i, s in top:
        kinds[kind(index.labels[i])] = kinds.get(kind(index.labels[i]), 0.0) + s
    return Nearest(label, votes[label] / K, top[0][1], index.texts[top[0][0]], kinds[kind(label)] / K)
