"""Asides: a clause beside the question that asks nothing, with an everyday word shouted in it.

Why: "what was Apple's revenue in fiscal 2024? NOW thanks", "TEAM please: Adobe revenue", "Visa net
income fiscal 2024? I need it REAL". SEC's ticker map holds thousands of everyday words (NOW, ALL, IT,
FUN, TEAM, REAL, SAFE). Read as a ticker, the shouted word refused the question for a company nobody
asked about (`not_covered`); read as a word, word accounting joined it to the metric across the
question mark ("net income real") and refused an unknown metric. A word is decided by what is known
about it and where it stands: an everyday English word, typed in capitals in a message that is not
itself written in capitals, that is no covered company's ticker, standing in a clause that names no
figure, no number, no company and holds nothing but filler words besides, while another clause of the
message asks the question. Such a clause is set aside before the message is read. A shouted word in
the clause that asks ("NOW revenue 2023", "what about NOW?") is still a ticker.
"""

from __future__ import annotations

import re

from agent.planning.company_words import ACRONYMS, ENGLISH, english_words
from agent.retrieval.concepts import find_phrases, normalize
from agent.retrieval.finance import MEASURE_PHRASES

# Where one clause ends and another begins: a sentence's end, a colon, a semicolon, a dash between words.
_CLAUSE_END = re.compile(r"[?!;:]+|\s[\u2014\u2013-]{1,2}\s|[\u2014\u2013]|\.(?=\s|$)")
# What an aside may hold besides the shouted word: courtesy, urgency and the words that carry them.
_COURTESY = frozenset("""i i'm im we you u it that this me my us our please pls plz thanks thank thx ty if you can could
    would will need needed want like now asap quick quickly one just so ok okay really very too much and or but the a an
    is are be do get got have has had for of to on at with by as soon possible right away today again kindly cheers
    appreciate appreciated great good nice cool awesome""".split())
_SHOUTED = re.compile(r"(?<![\w$'\u2019.&-])[A-Z]{2,}(?![\w'\u2019.&-])")
_WORD = re.compile(r"[\w'\u2019&$.%-]+")


# Footnote spoken to by name ("hey Footnote, ...", "thanks Footnote."): after a greeting, or before a pause.
_OWN_NAME = re.compile(r"\bfootnote\b", re.I)
_GREETING_BEFORE = re.compile(r"\b(?:hey|hi|hello|yo|thanks|thank\s+you|thx|ok|okay|morning|cheers|dear)[\s,]*$", re.I)
_PAUSE_AFTER = re.compile(r"\s*(?:[,.!?:;\u2014\u2013]|\s-\s|$)")


def addressed(text: str) -> str:
    """The text with Footnote's own name blanked where the user speaks to it: "hey Footnote, what's
    Apple's revenue?" asks for Apple's revenue, never a line called "footnote revenue". A footnote
    of the filing ("footnote 7", "the footnote on leases") is no address and stays."""
    out = text
    for m in _OWN_NAME.finditer(text):
        before = text[: m.start()]
        spoken = _GREETING_BEFORE.search(before) or (not before.strip() and _PAUSE_AFTER.match(text, m.end())) \
            or (m.group(0)[0] == "F" and _PAUSE_AFTER.match(text, m.end()) and not re.search(r"\bthe\s*$", before, re.I))
        if spoken:
            out = out[: m.start()] + " " * (m.end() - m.start()) + out[m.end():]
    return out


def set_aside(text: str, directory) -> str:
    """The text with each aside clause blanked (same length, so every other span keeps its place),
    and Footnote's name where the user speaks to it (`addressed`)."""
    text = addressed(text)
    if not _SHOUTED.search(text) or _mostly_upper(text):
        return text
    clauses = _clauses(text)
    if len(clauses) < 2:
        return text
    asides = [(s, e) for s, e in clauses if _aside(text[s:e], directory)]
    if not asides or len(asides) == len(clauses):
        return text
    if not any(_asks(text[s:e], directory) for s, e in clauses if (s, e) not in asides):
        return text  # nothing else in the message names a figure or a company: the shouted word may be one
    out = text
    for s, e in asides:
        out = out[:s] + " " * (e - s) + out[e:]
    return out


def _clauses(text: str) -> list[tuple[int, int]]:
    spans, start = [], 0
    for m in _CLAUSE_END.finditer(text):
        if text[start : m.start()].strip():
            spans.append((start, m.start()))
        start = m.end()
    if text[start:].strip():
        spans.append((start, len(text)))
    return spans


def _aside(clause: str, directory) -> bool:
    """Words of courtesy or urgency and at least one shouted everyday word, nothing else: no number,
    and no word that narrows what is asked ("ALL years", "ALL segments" ask for more)."""
    words = _WORD.findall(clause)
    shouted = [w for w in words if _SHOUTED.fullmatch(w) and _everyday(w, directory)]
    if not shouted or re.search(r"\d", clause):
        return False
    if any(m.kind == "company" for m in directory.find(clause)):
        return False  # "ADOBE INC. revenue ...": the shouted words are a covered company's name
    rest = [w for w in words if w not in shouted]
    return all(re.sub(r"['\u2019](?:s|m|ll|re|d)$", "", w.lower()) in _COURTESY for w in rest)


def _everyday(word: str, directory) -> bool:
    low = word.lower()
    if not (low in english_words() or low in ENGLISH or word in ACRONYMS):
        return False
    company = directory.get(word)
    return company is None or not company.covered  # "LOW", "V": a covered company's ticker stays one


def _asks(clause: str, directory) -> bool:
    """The clause names a figure, a number or a covered company: the question is there."""
    if re.search(r"\d", clause):
        return True
    if find_phrases(" ".join(normalize(clause).split()), MEASURE_PHRASES):
        return True
    return any(m.kind == "company" for m in directory.find(clause))


def _mostly_upper(text: str) -> bool:
    letters = [ch for ch in text if ch.isalpha()]
    return bool(letters) and sum(ch.isupper() for ch in letters) / len(letters) > 0.6


def aside_words(text: str, directory) -> list[dict]:
    """The words `set_aside` blanks, as word-trace entries ({"word", "as": "aside"}): the plan's trace shows
    why "NOW" in "Apple revenue 2024? NOW thanks" named no company and joined no metric."""
    kept = set_aside(text, directory)
    if kept == text:
        return []
    out, start = [], None
    for i, (a, b) in enumerate(zip(text, kept)):
        if a != b and start is None:
            start = i
        elif a == b and start is not None:
            out += [{"word": w, "as": "aside"} for w in _WORD.findall(text[start:i])]
            start = None
    if start is not None:
        out += [{"word": w, "as": "aside"} for w in _WORD.findall(text[start:])]
    return out

