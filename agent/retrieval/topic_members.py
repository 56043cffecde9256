"""A figure asked in a thread about a segment, product or region: that member's figure, when the company tags one.

Why: "What did Meta say about Reality Labs losses?" then "how big was the operating loss in 2024?" asks Reality
Labs' operating loss; Meta's total operating income is a true figure for another thing. The thread's topic (in the
user's words, agent.planning.topics) is read against the members the company tags for the metric that year: its
words that say which side of its results was discussed ("losses") or what kind of unit it is ("business") are
set aside, and the rest must be one member's whole name (agent.retrieval.segments.find_member, exact): "China" in a
thread about Apple's risks in China is no question about Greater China. None found, the question is the company's figure, as before.
"""

from __future__ import annotations

from agent.retrieval.concepts import METRICS
from agent.retrieval.line_items import tokens
from agent.retrieval.segments import AXIS_WORDS, GENERIC, find_member, known_mistags
from store import segments as segments_store


# Words a topic holds beside a member's name that say which side of its results it is about, not which member
_ASPECT = frozenset("loss losses gain gains profit profits profitability margin margins growth performance results "
                    "operations demand sales revenue revenues costs cost spending investment investments".split())


def topic_member(conn, memo: dict, company: dict, metric: str, fy: int, topic: str) -> str | None:
    """The qualifier naming the one member of `metric` the topic is about, or None."""
    m = METRICS.get(metric)
    if m is None or not topic:
        return None
    cik = company["cik"]
    key = ("member_labels", cik)
    if key not in memo:
        memo[key] = segments_store.member_labels(conn, cik)
    labels = memo[key]
    rows = segments_store.member_values(conn, cik, m.concepts, fy, instant=m.period == "instant",
                                        wrong=known_mistags(conn, memo, cik))
    if not rows:
        return None
    pairs = [(r.axis, r.member) for r in rows]
    owner = tokens(company.get("name") or "")
    metric_words = tokens(" ".join(m.synonyms))
    said = [w for w in topic.lower().split() if w not in GENERIC and w not in AXIS_WORDS and w not in owner
            and w not in metric_words]
    # the topic's words as said ("aws", a member's initials), else without the words that say which side of the
    # member's results was discussed ("Reality Labs losses"); any other word is a topic beyond the member
    for words in (said, [w for w in said if w not in _ASPECT]):
        qualifier = " ".join(words)
        found, exact = find_member(qualifier, pairs, labels, owner, metric_words=metric_words) if qualifier else ([], False)
        if found and exact:  # the member's whole name ("Greater China"), never a word of it ("China" risks)
            return qualifier
    return None
