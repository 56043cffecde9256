"""A follow-up about a member of the thread's figure, or about another figure of the thread's member.

Why a module of its own: a segment, product or region question leaves two things to the thread, the figure
and the member, and a reply replaces one of them. "what about footwear?" after "Nike revenue" keeps the figure
and names a member (a line the company prints by that word first, else the member of that figure, else the word
is refused as a line or a company, never answered with the company's total); "and operating income there?" after
"Greater China net sales" keeps the member and names the figure. A member is carried to a new figure only when
the reply points back at it ("there", "that segment"): "and operating income?" alone may ask the company's.
"""

from __future__ import annotations

import re

from agent.planning.followups import POINTER
from agent.planning.words import quarterly_phrase
from agent.retrieval.concepts import METRICS, PHRASES, find_phrases, normalize
from agent.retrieval.line_items import line_parts, metric_phrases
from agent.retrieval.segments import key_parts

# "there", "in that segment", "for the same region", "that business's": the thread's member
MEMBER_POINTER = re.compile(
    r"\b(?:there|(?:that|this|the\s+same|same)\s+(?:segment|region|business|division|unit|product(?:\s+line)?|"
    r"category|market|geography|country|brand|one)(?:'s)?)\b")


def _member_keys(plan) -> list[str]:
    return [k for k in plan.metrics if k.startswith("dim:") and "|*" not in k and "|=" not in k]


# "its operating margin?" after "AWS revenue": the pronoun is of the thread's last subject, the member
_ITS = re.compile(r"\b(?:its|their)\b")


def _member_ratio(key: str) -> bool:
    """Whether a registry formula is a quotient of two same-year figures, computable within a member."""
    from agent.planning.members import ratio
    from agent.retrieval.finance import FORMULAS

    return key in FORMULAS and ratio(key, "x") is not None


def _its_ratio(plan, prev) -> bool:
    """"its operating margin?" after "AWS revenue": every figure asked is a ratio within a member that reads the
    thread's member figure, so "its" is the member's (a ratio of the company's would leave that figure unread)."""
    from agent.retrieval.finance import FORMULAS

    figures = {metric for metric, _ in _member_figures(prev)}
    return bool(plan.metrics) and all(_member_ratio(k) and figures & {i.metric for i in FORMULAS[k].inputs}
                                      for k in plan.metrics)


def thread_member(plan, prev, low: str) -> str | None:
    """The member words of the thread's one member figure, when the message names a figure of its own (or a
    ratio within a member: "and the operating margin there?") and points back at that member ("there", "that
    segment", "its"); None otherwise."""
    if prev is None or "metrics" in plan.inherited or not (MEMBER_POINTER.search(low) or _ITS.search(low)):
        return None
    if _member_keys(plan) or not any(k in METRICS or _member_ratio(k) for k in plan.metrics):
        return None
    if not MEMBER_POINTER.search(low) and not _its_ratio(plan, prev):
        return None  # "and its net income?" after "iPhone revenue": the company's, which the member does not report
    if plan.tickers and prev.tickers and set(plan.tickers) != set(prev.tickers):
        return None  # "and Walmart's operating income there?": another company, whose members are its own
    members = {member for _, member in _member_figures(prev)}
    return members.pop() if len(members) == 1 else None


def _member_figures(prev) -> list[tuple[str, str]]:
    """(metric, member words) of the thread's member figures: its member keys, and its lines made of one table
    metric and other words ("graphics revenue"), which retrieve reads as that member's figure when no row prints them."""
    out = [(key_parts(k)[0], key_parts(k)[1]) for k in _member_keys(prev)]
    for k in prev.metrics:
        if not k.startswith("line:"):
            continue
        leftover, context, _ = line_parts(k)
        words = normalize(context).split()
        spans = [(a, b, m) for a, b, m in find_phrases(" ".join(words), PHRASES) if m in METRICS]
        named = set(words[spans[0][0]:spans[0][1]]) if len(spans) == 1 else set()
        qualifier = " ".join(w for w in leftover.split() if w not in named)
        if len(spans) == 1 and qualifier:
            out.append((spans[0][2], qualifier))
    return out


def on_thread_member(plan, member: str) -> None:
    """The plan's figures narrowed to the thread's member: a metric as the member's figure, a registry ratio as that
    ratio within the member (agent.planning.members.ratio), computed and restated like a user's formula."""
    from agent.planning.members import ratio

    metrics, added = [], []
    for k in plan.metrics:
        if k in METRICS:
            metrics.append(f"dim:{k}|{member}")
        elif _member_ratio(k):
            definition = ratio(k, member)
            added.append(definition)
            metrics.append(f"udf:{definition['name']}")
        else:
            metrics.append(k)
    plan.metrics = metrics
    if added:
        plan.definitions = [*plan.definitions, *added]
        if plan.intent == "numeric":
            plan.intent = "derived"


def member_of_thread_metric(metrics: list[str], leftover: str, prev, low: str = "") -> list[str]:
    """"what about footwear?" after "Nike revenue": a `line:` key of the word with the thread's figure beside it,
    answered by a row printed by the word (the figure's words allowed) or else by the figure's member of that
    name (agent.retrieval.retrieve reads a line made of one metric and other words as a member); none when the
    thread asked several figures, since which one the word narrows is unsaid."""
    if len(metrics) != 1 or metrics[0] not in METRICS or not leftover or prev is None \
            or prev.intent not in ("numeric", "trend", "compare"):
        return []  # after "why did revenue rise?", "and commercial airplanes?" asks the same why of it: a search
    reply = _REPLY_NAMING.match(low)
    if reply is None or set(reply.group("said").split()) & _NOT_A_MEMBER:
        # a question of its own ("what is driving demand there?") stays the search it was read as; so does a part
        # asked for ("how much of that came from price increases?"): a member's figure only when the company tags
        # a member by the words (member_probe), else what the filing says of it
        return []
    key = metrics[0]
    said = metric_phrases(prev.words if prev is not None else []).get(key) or METRICS[key].label.lower()
    phrase = f"{leftover} {said}"
    return [f"line:{leftover}|{phrase}|{phrase}"]


def thread_metric_words(plan, prev) -> list[dict]:
    """The thread's words for a figure the follow-up keeps ("net sales" after "Walmart International net
    sales"), so that the member's figure is the row printed under those words, as it was for the thread."""
    if prev is None or "metrics" not in plan.inherited:
        return []
    said = metric_phrases(prev.words)
    kept = {key_parts(k)[0] if k.startswith("dim:") else k for k in plan.metrics}
    return [{"word": w, "as": f"metric:{k}", "from": "thread"} for k, words in said.items() if k in kept
            for w in words.split()]


# "and services?", "what about the americas?": a reply naming one thing, after a figure
_REPLY_NAMING = re.compile(r"^\W*(?:(?:ok(?:ay)?|so|and|also|now)\W+)*(?:what\s+about|how\s+about|and|same\s+for|now)\s+"
                           r"(?:the\s+|its\s+|their\s+)?(?P<said>[a-z][\w&'.\- ]{1,40}?)\s*[?.!]*\s*$")
# "how much of that came from franchised restaurants?", "how much of it was from the US?": a part of the thread's
# figure, named by where it came from; the same reply as "and franchised restaurants?", put as a question
_PART_NAMING = re.compile(r"^\W*(?:(?:ok(?:ay)?|so|and|also|now)\W+)*how\s+much\s+(?:of\s+(?:it|that|this|those|them|the\s+total)\s+)?"
                          r"(?:(?:came|comes|come|was|were|is|are)\s+)?(?P<prep>(?:from|in|through|out\s+of)\s+)?"
                          r"(?:the\s+|its\s+|their\s+)?(?P<said>[a-z][\w&'.\- ]{1,40}?)\s*[?.!]*\s*$")


def _naming(low: str):
    """The reply naming one thing of the thread's figure ("and services?", "how much of it came from the US?")."""
    return _REPLY_NAMING.match(low) or _PART_NAMING.match(low)


_NOT_A_MEMBER = frozenset("it them that this those these why how what risks risk strategy outlook guidance".split())


def member_probe(prev, low: str) -> list[str]:
    """"and services?" after "Apple net sales": a `dim:` probe of the thread's one figure on the member the reply
    names, which turns the reply into that member's figure only when the company tags a member of exactly that
    name (agent.retrieval.fetch); otherwise the reply stays the passage search it was read as."""
    if prev is None or prev.intent not in ("numeric", "trend", "compare") or (prev.period or {}).get("kind") not in (
            None, "quarter", "ytd"):
        return []  # a quarter's or a year to date's figure is narrowed for that same period (its probe_period)
    m = _naming(low)
    if m is None:
        return []
    said = m.group("said").strip()
    phrase = quarterly_phrase(said)
    if phrase:  # "and data center in q2?": the member is "data center", the quarter is the reply's period
        said = re.sub(rf"\s*\b(?:(?:in|for|during|of|over)\s+)?(?:the\s+)?{re.escape(phrase)}\b", " ", said).strip()
    if not said or set(said.split()) & _NOT_A_MEMBER or len(said.split()) > 4:
        return []
    figures = [key_parts(k)[0] if k.startswith("dim:") and "|*" not in k and "|=" not in k else k for k in prev.metrics]
    figures = [k for k in dict.fromkeys(figures) if k in METRICS]
    if len(figures) != 1 or len(figures) != len(prev.metrics):
        return []
    return [f"dim:{figures[0]}|{said}"]


def member_reply(prev) -> bool:
    """The thread's last answer was one figure a member may narrow (a table metric, or a member's figure): a
    reply naming something ("what about the Americas?") may be a member of it before it is a company's name."""
    if prev is None or prev.intent not in ("numeric", "trend", "compare") or prev.route != "domain" or prev.period:
        return False
    keys = [k for k in prev.metrics]
    return len(keys) == 1 and (keys[0] in METRICS or (keys[0].startswith("dim:") and "|*" not in keys[0]))


# "the company's total revenue", "overall", "consolidated": the company's own figure, whatever the thread discussed
_WHOLE_COMPANY = re.compile(r"\b(?:total|overall|consolidated|company(?:-wide|wide)?|whole|entire|all\s+of)\b")


def topic_of_reply(plan, prev, low: str) -> str | None:
    """The thread's prose topic a figure reply may be about: the reply names no company of its own and asks the
    thread's company's figure unqualified ("what was its revenue?" after "Describe Tesla's energy storage
    business"); agent.retrieval.topic_members answers with the member the topic names, if any."""
    if prev is None or prev.intent != "qualitative" or not prev.topic or "tickers" not in plan.inherited:
        return None
    if _WHOLE_COMPANY.search(low) or not plan.metrics or not all(k in METRICS for k in plan.metrics):
        return None
    return prev.topic


def part_probed(plan, prev, text: str):
    """A reply asking how much of the thread's figure came from a part it names ("how much of it came from the
    US?"), searched in prose since no line bears its words: its probe is the figure's member of that name, so
    the reply is that member's figure when the company tags one (agent.retrieval.fetch), else what the filing
    says of it ("how much of that came from price increases?")."""
    low = re.sub(r"\s+", " ", text.lower().replace("\u2019", "'")).strip()
    if plan.route != "domain" or plan.intent != "qualitative" or not _PART_NAMING.match(low):
        return plan
    probe = member_probe(prev, low)
    if probe:
        plan.probe = probe
    return plan


def names_member_figure(words: str, low: str) -> bool:
    """The words a reply asks with end in a figure's name ("services net sales", "data center revenue"): a part's
    figure asked as a first turn would ask it, not what the thread's filing says of a topic, unless the reply points
    back ("was it material to earnings?", answered in the filing's words; agent.planning.thread_prose).

    Why: after "what does Apple say about services?", "what were services net sales in 2024?" was searched in the
    business description and answered with sentences, though a first turn gets the member's tagged figure."""
    said = normalize(words).split()
    spans = find_phrases(" ".join(said), PHRASES)
    return bool(spans) and spans[-1][1] == len(said) and spans[-1][0] > 0 and not POINTER.search(low)
