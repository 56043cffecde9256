"""A company named by the first word of its name, where the question's subject stands: "what does
marathon say about the bitcoin halving?" is Marathon Digital.

Why: a first word several registrants share ("marathon": Marathon Digital, Marathon Oil, Marathon
Petroleum) or an everyday word ("riot", "rocket") is no name on its own (companies.py), so the question
found no company and a brand word in it ("bitcoin") chose another miner. The grammar says the word is a
company: it stands between an auxiliary and its verb ("does marathon say", "did rocket report"), the slot
of the one the question asks about. It is the covered company whose name begins with it when that is the
only covered one, few registrants share the word, and that company's own filings write it (they name
themselves by it). Only when the planning node lent a lookup (agent.planning.brands).
"""

from __future__ import annotations

import re

from agent.planning.brands import WORD_MIN_CHUNKS, writes_phrase
from agent.planning.companies import CompanyDirectory, CompanyMatch, norm_name

MAX_SHARING = 3  # registrants whose names begin with the word; a word more begin with ("united") names none
_SUBJECT = re.compile(r"\b(?:does|did|do|has|had|will|would|can|could|should)\s+([A-Za-z][a-z]+)\s+(?:[a-z]+)\b")


def subject_company(text: str, directory: CompanyDirectory) -> list[CompanyMatch]:
    """[the covered company the subject word names], or [] (module docstring)."""
    for m in _SUBJECT.finditer(text):
        word = m.group(1).lower()
        covered = [c for c in directory.first_words.get(word, ()) if directory.companies[c].covered]
        if len(covered) != 1 or len(directory.by_first_word.get(word, ())) > MAX_SHARING:
            continue
        company = directory.companies[covered[0]]
        if norm_name(company.name)[:1] != (word,) or not writes_phrase(word, {company.cik}, WORD_MIN_CHUNKS):
            continue
        return [CompanyMatch("company", m.group(1), m.start(1), m.end(1), company, via="subject")]
    return []
