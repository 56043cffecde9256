"""A count the filing states only in words ("how many employees", "store count", "route miles").

Why: a number of employees, stores or route miles is seldom an XBRL fact, yet the 10-K states it in
one sentence ("we had approximately 77,800 employees"). Such a question is answered by quoting that
sentence, cited, and only when a sentence states a number of the very things asked, as the
company's own count; otherwise the figure's refusal stands (agent.retrieval.prose_counts finds the
sentence). A count that is a figure the tables map ("shares outstanding") never comes here: only a
question already refused as an unknown metric is read for a count.
"""

from __future__ import annotations

import re

# The people a company employs, each named as some 10-K prints them: one count, whichever word the
# user or the filing uses ("headcount", "associates" at Home Depot, "team members").
PEOPLE = ("employees", "associates", "team members", "people", "workers")
_PEOPLE_WORDS = frozenset({"employee", "employees", "associate", "associates", "headcount", "staff", "workforce",
                           "people", "workers", "personnel", "employ", "employed"})
_NOUN = r"((?:[a-z][a-z-]*\s+){0,2}?[a-z][a-z-]*s)\b"
# "how many stores", "number of employees", "total count of restaurants", "no. of route miles"
_ASKED = (re.compile(r"\bhow\s+many\s+(?:total\s+|full[\s-]time\s+)?" + _NOUN),
          re.compile(r"\b(?:number|no\.?|count|total\s+count)\s+of\s+(?:total\s+|full[\s-]time\s+)?" + _NOUN))
# "store count", "employee count", "headcount"
_COUNT_AFTER = re.compile(r"\b((?:[a-z][a-z-]*\s+)?[a-z][a-z-]*?)\s*counts?\b")
_SPLIT = re.compile(r"\s+")
# words a count's name may carry that say nothing of what is counted
_FILLER = frozenset({"company", "companys", "the", "its", "their", "total", "of", "did", "does", "do", "has", "have", "had", "are", "were",
                     "is", "was", "a", "an", "in", "at", "for", "current", "overall", "global", "worldwide", "head"})


def counted(text: str) -> tuple[str, ...] | None:
    """The things a question asks the number of, as the words a sentence must print (PEOPLE for a
    headcount), or None when it asks no count. `text`: the question."""
    low = re.sub(r"'s\b", "", text.lower().replace("’", "'"))  # "company's store count": the stores
    if re.search(r"\bhead\s*-?counts?\b|\bworkforce\b|\bstaff\s+size\b", low):
        return PEOPLE
    for pattern in _ASKED:
        m = pattern.search(low)
        if m:
            return _named(m.group(1))
    m = _COUNT_AFTER.search(low)
    if m and m.group(1).split()[-1] not in ("word", "share", "body", "account"):
        return _named(m.group(1))
    return None


def _named(phrase: str) -> tuple[str, ...] | None:
    words = [w for w in _SPLIT.split(phrase.strip()) if w and w not in _FILLER]
    if not words:
        return None
    if words[-1] in _PEOPLE_WORDS or words[-1].rstrip("s") in _PEOPLE_WORDS:
        return PEOPLE
    return (" ".join(words),)
