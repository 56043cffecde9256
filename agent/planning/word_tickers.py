"""A ticker that is also an everyday word, typed in lowercase: a company only where a company stands.

Why: "ups and downs of Tesla's margins", "any meta commentary from Home Depot?", "how did the dow do
today?" use "ups", "meta" and "dow" as words; read as UPS, Meta and Dow Inc., the question gains a
company nobody asked about (a second company's figures, or the wrong company's filing quoted). Typed
as a ticker ("UPS", "$ups"), owning a figure ("meta's revenue"), set beside another company ("ko + pep",
"v vs ma") or before a figure's name ("ups revenue"), the same word is the company. So such a word
counts as a company unless the message says otherwise: an article before it ("the dow"), or another
company named clearly while the word stands by itself (not listed with it, owning nothing, naming no
figure).

The mention is weak only when the word typed is the company's own ticker in lowercase and a
dictionary word: a name such as "apple" or "intel" stays a name wherever it stands.
"""

from __future__ import annotations

import re

from agent.planning.companies import CompanyMatch
from agent.planning.company_words import english_words
from agent.retrieval.concepts import find_phrases, normalize
from agent.retrieval.finance import MEASURE_PHRASES

# what lists companies side by side, said right before or after a mention
_JOINER_BEFORE = re.compile(r"(?:\b(?:and|or|vs\.?|versus|against|than|with|to|between|compare|comparing)|[,&+/])\s*$",
                            re.I)
_JOINER_AFTER = re.compile(r"^\s*(?:\b(?:and|or|vs\.?|versus|against)\b|[,&+/])\s*", re.I)
_ARTICLE_BEFORE = re.compile(r"\b(?:the|a|an|some|any|those|these)\s+$", re.I)
_OWNER_AFTER = re.compile(r"^['\u2019]s?\b")
# the subject's slot: after an auxiliary that opens a question, before its verb ("what does meta say about
# competition from google", "how did ups handle the teamsters"): the company the question is about
_SUBJECT_BEFORE = re.compile(r"\b(?:does|did|do|has|have|will|would|can|could|should)\s+$", re.I)
_VERB_AFTER = re.compile(r"^\s+(?:say|said|says|describe|discuss|mention|expect|think|see|view|report|disclose|explain|"
                         r"handle|plan|consider|note|cite|state|talk|write|do|make|manage|address|approach)\b", re.I)
_WORD = re.compile(r"[a-z][a-z&.-]*")


def weak(m: CompanyMatch) -> bool:
    """The mention is the company's ticker typed in lowercase, and that ticker is a dictionary word."""
    if m.kind != "company" or m.company is None or not m.text.islower() or " " in m.text or m.text.startswith("$"):
        return False
    return m.text.upper() in m.company.tickers and m.text in english_words()


def _names_figure(text: str, end: int) -> bool:
    """A figure's name follows the word ("ups revenue", "meta's operating margin")."""
    words = _WORD.findall(text[end:].lower())[:4]
    return any(find_phrases(normalize(" ".join(words[:n])), MEASURE_PHRASES) for n in range(1, len(words) + 1))


def _listed(text: str, m: CompanyMatch, others: list[CompanyMatch]) -> bool:
    """The word is set beside another company mention by a joiner ("ko + pep", "v vs ma", "visa and ma")."""
    before = text[: m.start]
    if _JOINER_BEFORE.search(before) and any(o.end <= m.start and not text[o.end : m.start].strip(" ,&+/").count(" ") > 2
                                             for o in others):
        return True
    after = _JOINER_AFTER.match(text[m.end :])
    return bool(after) and any(o.start >= m.end and o.start - (m.end + after.end()) <= 6 for o in others)


def drop_word_tickers(text: str, matches: list[CompanyMatch]) -> list[CompanyMatch]:
    """`matches` without the everyday-word tickers the message uses as words (module docstring)."""
    weak_ones = [m for m in matches if weak(m)]
    if not weak_ones:
        return matches
    clear = [m for m in matches if m.kind == "company" and m not in weak_ones]
    dropped = []
    for m in weak_ones:
        if _OWNER_AFTER.match(text[m.end :]):
            continue  # "meta's revenue": it owns a figure
        figure = _names_figure(text, m.end)
        if _ARTICLE_BEFORE.search(text[: m.start]) and not figure:
            dropped.append(m)  # "the dow", "any meta commentary": an article takes a word, never a ticker
            continue
        others = [o for o in matches if o is not m and o.kind in ("company", "not_covered")]
        subject = bool(_SUBJECT_BEFORE.search(text[: m.start]) and _VERB_AFTER.match(text[m.end :]))
        if clear and not _listed(text, m, others) and not figure and not subject:
            dropped.append(m)  # "ups and downs of tesla's margins": Tesla is named; "ups" is a word
    return [m for m in matches if m not in dropped] if dropped else matches
