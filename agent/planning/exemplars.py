"""What kind of message an unfamiliar one is, by the labelled exemplars it is nearest to.

Why exemplars and not more patterns: people greet, thank, sign off and ask about the bot in
endless wordings, and a pattern list only ever learns the last one that failed. A few hundred
labelled short messages (agent/planning/exemplars.tsv) cover the kinds; a new wording is judged by the
ones it resembles. Two judges read the exemplars:

- character n-grams (`nearest`): the planner runs on every message, numbers included, and must not
  wait for (or load) a sentence model; n-gram TF-IDF cosine over a few hundred exemplars takes well
  under a millisecond and tolerates typos ("thnks", "helo"). But letters are not meaning: "should I
  ask my boss for a raise?" shares its words with "what should I ask?".
- the sentence model (`by_meaning`), asked only for a message with no subject of its own (no
  company, metric, topic or year: never a numeric question), and only when the planning node has
  lent it the service's embedder (`meaning_from`). The exemplars are embedded once per embedder, at
  the first such message. Its verdict carries a margin, the lead of the winning kind over the next:
  a small margin is "don't know", and the message is left to the domain path.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import math
import re
import threading
from collections import Counter
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np  # imported where vectors are compared: a numeric answer never compares any

log = logging.getLogger(__name__)

EXEMPLARS = Path(__file__).with_name("exemplars.tsv")
META = ("greeting", "thanks", "goodbye", "ack", "help", "about", "coverage")
REFUSE = ("offtopic", "forecast", "advice", "price", "opinion")
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
    shares: tuple[tuple[str, float], ...] = ()  # each label's share of the neighbours' vote


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
    total = sum(votes.values()) or 1.0
    return Nearest(label, votes[label] / K, top[0][1], index.texts[top[0][0]], kinds[kind(label)] / K,
                   tuple((lb, v / total) for lb, v in votes.items()))


# --- the sentence model's judgement -------------------------------------------------------------

K_MEANING = 5  # neighbours that vote by meaning
SHARPEN = 4  # each votes with its cosine to this power: the closest count most ("help me plan a wedding"
# outweighs four faint "how do I start?"s)
_EMBEDDER: ContextVar = ContextVar("exemplar_embedder", default=None)
_VECTORS: dict[int, tuple[object, np.ndarray]] = {}  # id(embedder) -> (embedder, exemplar vectors)
_VECTORS_LOCK = threading.Lock()


@dataclass(frozen=True)
class Meaning:
    kind: str  # meta | refuse | domain: the kind whose neighbours weigh most
    label: str  # the label of the nearest exemplar of that kind
    score: float  # the kind's share of the neighbours' weighted vote, 0..1
    margin: float  # its lead over the next kind's share: small means "don't know"
    top: float  # cosine of the nearest exemplar
    text: str  # that exemplar, for traces
    shares: tuple[tuple[str, float], ...] = ()  # each label's share of the neighbours' weighted vote


@contextlib.contextmanager
def meaning_from(embedder):
    """Within the block, `by_meaning` judges with `embedder` (the planning node lends the service's).
    A context variable, not a global: one run's embedder never leaks into another's planner."""
    token = _EMBEDDER.set(embedder)
    try:
        yield
    finally:
        _EMBEDDER.reset(token)


def _exemplar_vectors(embedder) -> np.ndarray:
    """The exemplars' vectors, embedded once per model and runtime (store/vector_cache.py)."""
    from store.vector_cache import cached_vectors

    with _VECTORS_LOCK:
        hit = _VECTORS.get(id(embedder))
        if hit is None or hit[0] is not embedder:
            hit = (embedder, cached_vectors(embedder, _index().texts, "exemplars"))
            _VECTORS[id(embedder)] = hit
        return hit[1]


def prepare(embedder) -> None:
    """Embed the exemplars on a background thread (a server's warm-up), so that the first message
    with no subject finds them ready. A failure is logged; the first such message retries."""
    def run():
        try:
            _exemplar_vectors(embedder)
        except Exception:
            log.warning("embedding the routing exemplars in the background failed", exc_info=True)

    threading.Thread(target=run, name="footnote-exemplars", daemon=True).start()


def by_meaning(text: str) -> Meaning | None:
    """The kind the message's nearest exemplars by sentence embedding vote for, or None when no
    embedder is lent or it fails (the n-gram judge then decides alone)."""
    embedder = _EMBEDDER.get()
    if embedder is None or not text.strip():
        return None
    import numpy as np

    try:
        from agent.retrieval.query_vectors import embed_queries

        vectors = _exemplar_vectors(embedder)
        query = np.asarray(embed_queries(embedder, [text])[0], dtype=np.float32)
    except Exception as exc:  # a model that will not load must not stop a greeting being answered
        log.warning("exemplar embedding failed (%s); judging by n-grams alone", exc.__class__.__name__)
        return None
    sims = vectors @ query
    top = np.argsort(-sims)[:K_MEANING]
    labels = _index().labels
    kinds: dict[str, float] = {}
    by_label: dict[str, float] = {}
    for i in top:
        weight = max(float(sims[i]), 0.0) ** SHARPEN
        kinds[kind(labels[i])] = kinds.get(kind(labels[i]), 0.0) + weight
        by_label[labels[i]] = by_label.get(labels[i], 0.0) + weight
    ranked = sorted(kinds.items(), key=lambda kv: -kv[1])
    best, weight = ranked[0]
    second = ranked[1][1] if len(ranked) > 1 else 0.0
    total = sum(kinds.values()) or 1.0
    # the kind by the neighbours' vote (robust), the label by the nearest of that kind (specific):
    # "alright then, see ya" is small talk by all its neighbours, and a goodbye by the nearest
    label = next(labels[i] for i in top if kind(labels[i]) == best)
    return Meaning(best, label, weight / total, (weight - second) / total, float(sims[top[0]]),
                   _index().texts[int(top[0])], tuple((lb, w / total) for lb, w in by_label.items()))
