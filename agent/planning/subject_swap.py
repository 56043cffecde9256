"""A reply that hands a prose thread's question to another subject: "and services?" after "why did Greater
China fall?", "what about north america?" after "how fast did AWS grow and why?" or after Amazon's competition.

Why a module of its own: such a reply names only its new subject, so read alone it is a bare word: a line
of a figure to look up ("north america" matched an asset row), a topic searched with nothing of the
question around it ("services" in the business description), or a refusal. In a thread whose last turn was
a prose question, the reply keeps that question (its form, its Items, whether it asks a cause, the
company and year) and changes only what it is about. After a cause, the thread's subject words give way to
the reply's, while the words of the figure the cause was asked of stay ("and services?" after why revenue fell
in Greater China asks why Services revenue moved). After a topic, words the planner knows as no topic or
figure are searched beside the thread's topic ("and gaming?" after Nvidia's export controls).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from agent.planning.followups import ASPECTS, FIGURE_CUE, figure_words, joined_topic, lead_rest, own_subject
from agent.planning.plan import Plan
from agent.planning.reading import Reading
from agent.planning.topics import SECTION_ONLY, expand_query, metric_query
from agent.planning.word_accounting import FIGURE_ASK
from agent.retrieval.concepts import METRICS

# Words a reply puts around its new subject that are no part of it ("what about China specifically?")
_AROUND = re.compile(r"\b(?:specifically|in\s+particular|particularly|too|as\s+well|then|instead|please|pls|"
                     r"for\s+(?:that|this)\s+(?:matter|one))\b", re.I)
_MAX_WORDS = 4  # a subject, not a question of its own
# a verb, a pronoun or a question word: "and are export controls a risk to it?" asks a question of its own
_CLAUSE = re.compile(r"\b(?:is|are|was|were|be|been|do|does|did|has|have|had|can|could|will|would|should|may|might|"
                     r"it|they|them|that|this|these|those|he|she|we|you|what|why|how|which|who|when|where)\b", re.I)


def reply_subject(outside: str) -> str | None:
    """The subject an "and X?" / "what about X?" / "same for X" reply names, as written; None for no such reply."""
    rest = lead_rest(outside)
    if rest is None:
        return None
    rest = _AROUND.sub(" ", rest)
    rest = re.sub(r"^\s*(?:the|its|their)\s+", "", rest.strip(" ?.!,"), flags=re.I)
    rest = re.sub(r"\s+", " ", rest).strip(" ?.!,")
    words = own_subject(rest)
    if not words or len(words) > _MAX_WORDS or re.search(r"\d", rest) or _CLAUSE.search(rest):
        return None
    return rest


def _figure_vocabulary() -> frozenset[str]:
    """The words the registry's figures are searched with ("revenue", "net", "sales", "income"): in a thread's
    subject they say which figure a cause was asked of, and stay when the reply names another part of it."""
    global _VOCABULARY
    if _VOCABULARY is None:
        _VOCABULARY = frozenset(w for k in METRICS for w in re.findall(r"[a-z]+", metric_query(k).lower()))
    return _VOCABULARY


_VOCABULARY: frozenset[str] | None = None


def _without(text: str, words: set[str]) -> str:
    """`text` without `words` (whole words, any case)."""
    if not words:
        return text
    pattern = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, words), key=len, reverse=True)) + r")\b", re.I)
    return re.sub(r"\s+", " ", pattern.sub(" ", text)).strip(" ,")


def swapped_subject(outside: str, r: Reading, thread: Plan | None, names_company: Callable[[str], bool],
                    written: Callable[[str], bool], filed: Callable[[str], bool] = lambda words: False) -> Plan | None:
    """The thread's last prose question asked of the subject the reply names, or None when the message is
    no such reply: the thread's last plan is no answered prose question, or the reply names a company, a
    year, a figure of the registry, a cause of its own or only an aspect ("and the risks?"): those are planned as
    the planner reads them. Only a question that asked a cause is handed on so: its form ("what drove it") is
    what the reply keeps; after a question about a topic, "what about China?" may narrow the topic as well
    as replace it, and the planner searches both words."""
    if thread is None or thread.route != "domain" or thread.intent != "qualitative" or not thread.tickers \
            or not thread.query:
        return None
    subject = reply_subject(outside)
    if subject is None or r.matches or r.years.given or r.why or (r.unmappable and FIGURE_ASK.search(r.low)):
        return None  # "what about the gross spread?" asks a figure of its own, however unknown
    if names_company(subject):
        return None  # "what about Ford?": a company asked about, answered or refused for it, never the thread's
    if not written(subject) and not (subject == subject.lower() and filed(subject)):
        return None  # no part of what the thread's filings discuss: the planner reads it (a line, or a refusal)
    # a term other companies' filings write and the thread's do not ("and wearables?" after Tesla's competition):
    # the same question of it, refused below unless a passage found says it
    if any(not k.startswith("line:") for k in r.measures):
        return None  # "and net income?": a figure of its own, the thread's figure logic answers it
    if set(own_subject(subject)) <= ASPECTS | SECTION_ONLY:
        return None  # "and the risks?", "what about the outlook?": an aspect of the same subject, read as one
    if not thread.asks_cause:
        return _beside_topic(subject, r, thread)
    figure = _figure_vocabulary() | {w for k in thread.metrics for w in figure_words(k).lower().split()}
    said = {w.lower() for w in subject.split()}
    # the thread's own subject words give way to the reply's; the figure a cause was asked of stays
    gone = {w for w in thread.subject.lower().split() if w not in figure and w not in said}
    subject_query = expand_query(subject)
    query = f"{subject_query} {_without(thread.query, gone)}".strip()
    subs = [f"{subject_query} {_without(q, gone)}".strip() for q in thread.sub_queries]
    kept_topic = " ".join(w for w in thread.topic.split() if w.lower() not in gone)
    kept_figure = " ".join(w for w in thread.subject.split() if w.lower() in figure)
    return Plan(
        route="domain", intent="qualitative", tickers=list(thread.tickers), fiscal_years=list(thread.fiscal_years),
        latest=thread.latest, year_offsets=list(thread.year_offsets), items=list(thread.items),
        as_of_filing_year=thread.as_of_filing_year, query=query, sub_queries=subs,
        inherited=["tickers", "fiscal_years", "items", "query"],
        slots={"tickers": "thread", "fiscal_years": "thread", "items": "thread",
               "topic": "message, in the thread's question"},
        thread_tickers=list(thread.thread_tickers), company_years=dict(thread.company_years),
        asks_cause=thread.asks_cause, period=thread.period,
        topic=joined_topic(subject.lower(), kept_topic), subject=joined_topic(subject.lower(), kept_figure),
        unless_named=_named(subject),
    )


def _named(subject: str) -> dict:
    """What the answer must be about: no passage found says the reply's subject (Tesla reports no "north america"
    to give the cause of), and nothing is quoted for it; the thread's other words alone would answer another
    question."""
    return {"reason": "no_grounding", "detail": subject, "words": own_subject(subject)}


def _beside_topic(subject: str, r: Reading, thread: Plan) -> Plan | None:
    """After a question about a topic, a reply naming words that are no topic or figure the planner knows ("and
    north america?" after Amazon's competition, "and gaming?" after Nvidia's export controls): searched in the
    thread's filing (its Items) as written and beside the thread's topic, since it may narrow the topic
    ("gaming" GPUs under export controls) or name a thing of its own (the litigation's escrow account).

    Why: left to the planner, such words were matched to a printed row of the company's statements, and the
    bare reply was answered as that row's figure (an asset total for "north america": a true figure for another
    question) or refused as an unknown metric, though the thread asks what the filing says."""
    if r.measures or r.has_topic or FIGURE_CUE.search(r.low):
        return None  # a word the planner reads as a topic or a figure, or a figure asked for, is planned as it reads
    topic = thread.subject or thread.topic
    return Plan(
        route="domain", intent="qualitative", tickers=list(thread.tickers), fiscal_years=list(thread.fiscal_years),
        latest=thread.latest, year_offsets=list(thread.year_offsets), items=list(thread.items),
        as_of_filing_year=thread.as_of_filing_year, query=expand_query(subject),
        sub_queries=[expand_query(subject), expand_query(f"{subject} {topic}")],
        inherited=["tickers", "fiscal_years", "items"],
        slots={"tickers": "thread", "fiscal_years": "thread", "items": "thread"},
        thread_tickers=list(thread.thread_tickers), company_years=dict(thread.company_years), period=thread.period,
        topic=joined_topic(subject.lower(), topic), subject=topic, unless_named=_named(subject),
    )
