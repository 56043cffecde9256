"""A reply in a prose thread that the figure path read as a printed row of its own words.

"was it material to earnings?" or "r they insured for that" after "tell me about the cyberattack Johnson
Controls had" name no figure of their own: the planner made a line lookup of the leftover words
("material earnings", "r insured") and retrieval refused it unknown_metric, a false refusal of a question
about what the thread discussed. Such a reply, pointing back at the thread ("it", "that", "they") and naming
no other company, is what the filing says of the thread's subject in the reply's words
(agent.planning.in_words.as_prose, which searches the thread's subject beside them). Its line keys stay the
plan's probe, so a row the company does print by those words ("how big was that goodwill impairment?") is
still answered as that figure (agent.retrieval.fetch._probe_lines). A reply naming its row with "the" ("how big was
the charge?") refers back as a pronoun does; it is answered only where a passage says the row's words.
"""

from __future__ import annotations

import re

from agent.planning.companies import CompanyDirectory
from agent.planning.followups import POINTER, joined_topic, points_back, thread_topic
from agent.planning.in_words import as_prose
from agent.planning.plan import Plan
from agent.planning.scope import strip_quotes
from agent.planning.thread import usable_previous

def prose_reply(plan: Plan, text: str, previous: Plan | None, directory: CompanyDirectory) -> Plan | None:
    """`plan` as a prose follow-up about the thread's subject when it is a line lookup of a reply in a prose
    thread (see the module's docstring); None otherwise."""
    thread = usable_previous(previous)
    if thread is None or thread.route != "domain" or thread.intent != "qualitative" or not thread.tickers \
            or not (thread.topic or thread.subject):
        return None
    if plan.route != "domain" or plan.intent != "numeric" or not plan.metrics \
            or not all(k.startswith("line:") for k in plan.metrics) or plan.period:
        return None
    if not set(plan.tickers) <= set(thread.tickers) or str(plan.slots.get("fiscal_years", "")) == "message":
        return None  # another company, or a year of the message's own: a figure asked anew
    low = strip_quotes(text or "").lower()
    pointed = bool(points_back(low) or POINTER.search(low))
    if not (pointed or _refers_back(low, plan.metrics)):
        return None
    prose = as_prose(plan, text, low, directory, thread)
    subject = thread.subject or thread_topic(thread)
    if subject and not set(subject.split()) <= set(prose.query.lower().split()):
        # "how big was the charge?": the charge of the thread's subject, searched beside it, and the thread's
        # subject stays what the thread is about for the turn after
        prose.query = f"{prose.query} {subject}"
        prose.topic, prose.subject = joined_topic(prose.topic, subject), subject
    # where the thread found its subject told, after MD&A, which tells what it did to the results
    prose.items = list(dict.fromkeys([*prose.items[:1], *thread.items, *prose.items[1:]]))
    if not pointed and not prose.unless_named:
        # "how big was the charge?" after a topic that had none: answered only where a passage says the row's words
        # and the subject's in one sentence ("…goodwill impairment charge of…"), else refused as the row would have
        # been, never with sentences about other charges or about the subject that name no charge
        words = _row_words(plan.metrics)
        named = max((w for w in subject.split() if len(w) >= 5 and w not in words), key=len, default=None)
        if words:
            prose.unless_named = {"reason": "unknown_metric", "detail": " ".join(words),
                                  "words": [*words, *([named] if named else [])]}
    prose.slots = {**plan.slots, **prose.slots, "metrics": "none: prose (a reply about the thread's subject no row prints)"}
    return prose


def _refers_back(low: str, keys: list[str]) -> bool:
    """The reply refers to something the thread already has without a pronoun: the words of its row asked with
    "the" ("how big was the charge?": the charge the thread discussed). Why: a row of those words asked afresh says
    whose and which ("Verizon's 2023 impairment charge"); "the charge" alone is the one just discussed."""
    words = _row_words(keys)
    return bool(words) and bool(re.search(rf"\bthe\s+(?:\w+\s+)?{re.escape(words[0])}\b", low))


def _row_words(keys: list[str]) -> list[str]:
    """The words of the reply's row as the message wrote them ('line:charge|charge|charge|how big was' -> ["charge"])."""
    for key in keys:
        parts = key[5:].split("|")
        words = (parts[2] if len(parts) > 2 else parts[-1]).split()
        if words:
            return words
    return []
