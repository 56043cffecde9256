"""A company named by the first word of its name, where the question's subject stands: "what does
marathon say about the bitcoin halving?" is Marathon Digital.

Why: a first word several registrants share ("marathon": Marathon Digital, Marathon Oil, Marathon
Petroleum) or an everyday word ("riot", "rocket") is no name on its own (companies.py), so the question
found no company and a brand word in it ("bitcoin") chose another miner. The grammar says the word is a
company: it stands between an auxiliary and its verb ("does marathon say", "did rocket report"), the slot
of the one the question asks about; so does an owner ("marathon's bitcoin holdings"). It is the covered company whose name begins with it when that is the
only covered one, few registrants share the word, and that company's own filings write it (they name
themselves by it). Only when the planning node lent a lookup (agent.planning.brands).
"""

from __future__ import annotations

import re

from agent.planning.brands import WORD_MIN_CHUNKS, writes_phrase
from agent.planning.companies import CompanyDirectory, CompanyMatch, norm_name

MAX_SHARING = 3  # registrants whose names begin with the word; a word more begin with ("united") names none
_SUBJECT = re.compile(r"\b(?:does|did|do|has|had|will|would|can|could|should)\s+([A-Za-z][a-z]+)\s+(?:[a-z]+)\b"
                      r"|(?<![\w'\u2019-])([A-Za-z][a-z]+)['\u2019]s\b")  # or it owns something: "marathon's bitcoin"


def subject_company(text: str, directory: CompanyDirectory) -> list[CompanyMatch]:
    """[the covered company the subject word names], or [] (module docstring)."""
    for m in _SUBJECT.finditer(text):
        said = m.group(1) or m.group(2)
        word = said.lower()
        covered = [c for c in directory.first_words.get(word, ()) if directory.companies[c].covered]
        if len(covered) != 1 or len(directory.by_first_word.get(word, ())) > MAX_SHARING:
            continue
        company = directory.companies[covered[0]]
        if norm_name(company.name)[:1] != (word,) or not writes_phrase(word, {company.cik}, WORD_MIN_CHUNKS):
            continue
        at = 1 if m.group(1) else 2
        return [CompanyMatch("company", said, m.start(at), m.end(at), company, via="subject")]
    return []
