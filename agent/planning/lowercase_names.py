"""Companies typed in lowercase where a company stands: beside a named one ("tesla vs ford revenue",
"boeing and lockheed operating income", "nike vs adidas"), or typed without the apostrophe or country
their registered name has ("wendys", "t-mobile").

Why a module of its own: in chat's lowercase a name is told from a figure's words only by what is known
of companies (SEC's map, the covered companies' own filings, a short list of well-known companies that
file nothing with the SEC), never by its case; these readings are kept together, apart from the
capitalised mentions agent.planning.company_mentions reads.
"""

from __future__ import annotations

import re

from agent.planning.brands import covered_by_word, named_by, uncovered_registrant
from agent.planning.companies import CompanyDirectory, CompanyMatch, listed_lowercase, norm_name
from agent.planning.company_words import (COMPARED_NOT_COMPANIES, LEGAL_SUFFIXES, NAME_QUALIFIERS, NON_REGISTRANTS,
                                          english_words)
from agent.planning.topics import STOPWORDS, expand_query, route_items
from agent.retrieval.concepts import normalize
from agent.retrieval.finance import MEASURE_PHRASES


def company_word(phrase: str, directory: CompanyDirectory) -> bool:
    """Whether lowercase words are a company's name by what is known of companies, not by their case:
    a registrant's whole name in SEC's map ("keurig dr pepper"), one word that begins only uncovered
    registrants' names ("lockheed") or one covered company's that its filings write ("ford"), or a
    well-known company that files nothing with the SEC ("adidas")."""
    words = norm_name(phrase)
    if not words:
        return False
    if registrant_ciks(words, directory):
        return True
    core = [w for w in words if w not in LEGAL_SUFFIXES]
    if len(core) != 1:
        return False
    word = core[0]
    return word in NON_REGISTRANTS or uncovered_registrant(word, directory) is not None \
        or covered_by_word(word, directory) is not None


def _not_a_name(word: str) -> bool:
    """A word that cannot begin a company's name where one is listed: a question's small word, a
    figure's word, a year, a topic or abbreviation, or what a company is compared with that is no
    company ("peers", "last year")."""
    low = re.sub(r"['\u2019]s$", "", word.lower())
    return (not low or low in STOPWORDS or low in COMPARED_NOT_COMPANIES or low[:1].isdigit()
            or re.fullmatch(r"(?:fy|q[1-4]|h[12])\W*\d*", low) is not None
            or normalize(low) in MEASURE_PHRASES or _MEASURE_FIRST.search(normalize(low)) is not None
            or expand_query(low) != low or bool(route_items(low)[1]))


_MEASURE_FIRST = re.compile(r"^(?:" + "|".join(sorted({re.escape(p.split()[0]) for p in MEASURE_PHRASES if p.split()},
                                                       key=len, reverse=True)) + r")$")


def lowercase_listed(outside: str, matches: list[CompanyMatch], directory: CompanyDirectory,
                     ciks: set[int] = frozenset()) -> str | None:
    """A company typed in lowercase beside a company mention ("tesla vs ford revenue", "boeing and
    lockheed operating income", "nike vs adidas"), as the user wrote it.

    Why: lowercase, such a name is no capitalised name for `named_beside`, and left alone it is read
    as words of the mentioned company's figure ("ford revenue" as a line of Tesla's). A word counts when
    what is known of companies makes it one (`_company_word`), or, beside "vs"/"compared with" (which
    put a company on each side), when no dictionary holds it ("danaher", "accenture"). Everyday
    words ("afford", "cash", "peers", "target margin" after no joiner) are never reached or never pass;
    after a mere "and", a dictionary word that the listed companies' (`ciks`) own filings name most is
    their segment or brand ("boeing and defense revenue"), whatever registrant's name begins with it."""
    for words, after, strong in listed_lowercase(outside, [m for m in matches if m.kind == "company"]):
        words = [re.sub(r"['\u2019]s$", "", w).strip(".,") for w in words]
        if not after:
            words = words[::-1]  # nearest the joiner first
        for n in (3, 2, 1):
            if len(words) < n or any(_not_a_name(w) for w in words[:n]):
                continue
            phrase = " ".join(words[:n] if after else words[:n][::-1])
            if company_word(phrase, directory):
                theirs = not strong and phrase in english_words() and phrase not in NON_REGISTRANTS \
                    and norm_name(phrase) not in directory.names and named_by(phrase, set(ciks))
                if not theirs:
                    return phrase
                continue
            if n == 1 and strong and phrase not in english_words() and phrase.isalpha() and len(phrase) >= 3:
                return phrase
    return None


def registrant_ciks(words: tuple[str, ...], directory: CompanyDirectory) -> set[int]:
    """The registrants whose whole name is `words` (norm_name), or that with a region after it, or, for a name typed without its
    possessive's apostrophe ("wendys", "dillards"), whose name is the possessive ("Wendy's Co"). Why:
    chat drops the apostrophe, and the refusal should still name the registrant, not "no company"."""
    ciks = directory.names.get(words, set())
    if not ciks and words:  # "t-mobile": T-Mobile US, a registrant's name with its country or region after it
        ciks = set().union(*(directory.names.get((*words, q), set()) for q in NAME_QUALIFIERS))
    if ciks or not words or not words[-1].endswith("s") or len(words[-1]) < 4:
        return set(ciks)
    bare = (*words[:-1], words[-1][:-1])
    return {c for c in directory.names.get(bare, set()) if c in directory.companies
            and re.search(r"['\u2019]s\b", directory.companies[c].name, re.I)}
