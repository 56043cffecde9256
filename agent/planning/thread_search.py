"""The words a filing names a prose thread's subject by, added to a follow-up's search.

A follow-up names its subject by pointing back ("was it material to earnings?", "r they insured for that"), and
the thread carries its subject in the user's words ("cyberattack"), which are often not the filing's: the
sentences the last answer quoted say it as the filing does ("cybersecurity incident"). The follow-up's search
(its query and sub-queries, which the composer ranks sentences by too) gets those words: the words of the quotes
that share a stem with a word of the subject but that the search lacks, each with the word it heads.

Why words and not the quotes themselves: searched as one more sub-query, the whole quotes promoted the passage
the thread had already read above what the follow-up's own words found, and moved every other hit.
"""

from __future__ import annotations

import re

from agent.planning.followups import ASPECTS, leads_reply
from agent.planning.plan import Plan
from agent.planning.topics import STOPWORDS

LAST_QUOTED = 3  # the last answer's quotes the thread keeps for the next follow-up
ELIDED = re.compile(r"\s*\u2026\s*")  # an amount the quote elided ("a charge of …"): no word to search


def filing_words(question: str, plan: Plan, previous: Plan | None, last_quoted: list[str]) -> str:
    """The words the filing names the thread's subject by, as the last answer's quotes write them, that the plan's
    search lacks ("cybersecurity incident" for the user's "cyberattack"), or "" when the message is no prose
    follow-up about the thread's own company after a prose answer, or replaces the thread's subject ("and
    skyrizi?", refused unless a passage says it), or the thread quoted nothing that says its subject."""
    if plan.route != "domain" or plan.intent != "qualitative" or previous is None or previous.route != "domain" \
            or previous.intent != "qualitative" or not last_quoted or plan.unless_named:
        return ""
    if not plan.tickers or set(plan.tickers) != set(previous.tickers) or "tickers" not in plan.inherited:
        return ""  # a company named anew is searched for its own filing
    if leads_reply(question.lower()):
        return ""  # "and the escrow?": a new subject named alone replaces the thread's
    subject = previous.subject or previous.topic
    stems = _stems(subject)
    searched = set(re.findall(r"[a-z]+", " ".join([plan.query, *plan.sub_queries]).lower()))
    found: list[str] = []
    for quote in last_quoted:
        words = re.findall(r"[a-z]+", ELIDED.sub(" ", quote).lower())
        for i, w in enumerate(words):
            if len(w) < STEM or w[:STEM] not in stems or w in searched:
                continue
            # the filing's word for the subject, and the noun it heads ("cybersecurity incident")
            after = words[i + 1] if i + 1 < len(words) and words[i + 1] not in STOPWORDS and len(words[i + 1]) > 3 else ""
            found += [w, after] if after else [w]
    return " ".join(list(dict.fromkeys(w for w in found if w))[:FILING_WORDS])


FILING_WORDS = 6  # a name or two, not a sentence
STEM = 5  # letters two words share to be one subject's ("cyberattack", "cybersecurity"; "liquidity")


def _stems(subject: str) -> set[str]:
    """The stems of the subject's words; the words any subject takes ("risks", "outlook") are none."""
    return {w[:STEM] for w in re.findall(r"[a-z]+", subject.lower()) if len(w) >= STEM and w not in ASPECTS}
