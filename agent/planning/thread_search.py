"""What a prose follow-up searches beside its own words: the sentences the thread's last answer quoted.

A follow-up names its subject by pointing back ("was it material to earnings?", "how'd they pay for it",
"what options are they looking at?"), and the thread's subject is carried in the user's words ("cyberattack",
"VillageMD at walgreens"), which are often not the filing's ("cybersecurity incident", "Village Practice
Management Company"). The sentences the last answer quoted say the subject as the filing does, beside the
facts the follow-up most often asks about next (the same section, the same paragraph), so a search of the
follow-up's own words with them finds the passage its own words and the user's topic rank below.

It is one search beside the plan's own (agent.retrieval.fetch.locate reads `Plan.thread_query`), never the
composer's: ranked by it, the sentences already quoted would come first again.
"""

from __future__ import annotations

import re

from agent.planning.company_mentions import strip_for_query
from agent.planning.followups import ASPECTS, leads_reply, own_subject
from agent.planning.plan import Plan

LAST_QUOTED = 3  # the last answer's quotes the thread keeps for the next search
QUOTE_WORDS = 60  # the words of them searched: a passage's worth, not the whole answer
ELIDED = re.compile(r"\s*\u2026\s*")  # an amount the quote elided ("a charge of …"): no word to search


def thread_query(question: str, plan: Plan, previous: Plan | None, last_quoted: list[str], directory) -> str:
    """The follow-up's own words with the last answer's quotes, or "" when the message is no prose follow-up
    about the thread's own company after a prose answer, or replaces the thread's subject ("and skyrizi?",
    refused unless a passage says it), or the thread quoted nothing."""
    if plan.route != "domain" or plan.intent != "qualitative" or previous is None or previous.route != "domain" \
            or previous.intent != "qualitative" or not last_quoted or plan.unless_named:
        return ""
    if not plan.tickers or set(plan.tickers) != set(previous.tickers) or "tickers" not in plan.inherited:
        return ""  # a company named anew is searched for its own filing
    low = question.lower()
    if leads_reply(low):
        return ""  # "and the escrow?": a new subject named alone replaces the thread's
    said = [q for q in last_quoted if _says_subject(q, previous.subject or previous.topic)]
    if not said:
        return ""  # quotes that never say the subject (a boilerplate sentence) would only search for themselves
    own = " ".join(own_subject(strip_for_query(question, directory.find(question))))
    words = ELIDED.sub(" ", " ".join(said)).split()[:QUOTE_WORDS]
    return f"{own} {' '.join(words)}".strip()


STEM = 5  # letters two words share to be one subject's ("cyberattack", "cybersecurity"; "liquidity")


def _says_subject(quote: str, subject: str) -> bool:
    """The quote says a word of the thread's subject, or one of its stem (the filing's "cybersecurity incident"
    for the user's "cyberattack"); the words any subject takes ("risks", "outlook") say none."""
    stems = {w[:STEM] for w in re.findall(r"[a-z]+", subject.lower()) if len(w) >= STEM and w not in ASPECTS}
    return bool(stems) and any(w[:STEM] in stems for w in re.findall(r"[a-z]+", quote.lower()) if len(w) >= STEM)
