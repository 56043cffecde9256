"""The sentence of a filing that states a count the user asked (agent.planning.counts).

Why a sentence of the company's own and nothing looser: "our worldwide sales and marketing functions
consisted of approximately 28,000 employees" is a number of employees, but not the company's; a
quote answers only when the company is the sentence's subject and the number counts exactly the
things asked ("As of July 27, 2024, we had approximately 90,400 employees"). The answer quotes
that one sentence verbatim and cites its chunk; with none, the figure's refusal stands.
"""

from __future__ import annotations

import re

from agent.checking.guards import split_sentences

_NUMBER = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:\s+(?:million|thousand|billion))?"
# the company as the sentence's subject, then how it holds the things counted
_HOLDER = (r"(?:\bwe|\bthe\s+company|\bour\s+company|{name})(?:\s+(?:currently|collectively|also|globally|together))?"
           r"\s+(?:had|have|has|employ|employs|employed|operate|operates|operated|own|owns|owned|lease|leases|leased|"
           r"serve|serves|served|ha[ds]\s+a\s+total\s+of|had\s+a\s+total\s+of)")
_BETWEEN = r"(?:\s+(?:approximately|about|over|more\s+than|nearly|almost|roughly|a\s+total\s+of|around))?"
_MODIFIERS = r"(?:\s+(?:full[\s-]time(?:\s+equivalent)?|part[\s-]time|total|active|company[\s-]operated|retail|regular)(?:\s+and\s+[a-z-]+)?)?"
_APOSTROPHE = re.compile(r"['’]")
# sentences a count's holder may live in, the human capital and properties text first
_ITEMS = ("1", "2", "7")


def _plural_free(noun: str) -> str:
    """`noun` as a pattern matching its singular and plural."""
    words = noun.split()
    last = words[-1]
    stem = last[:-1] if last.endswith("s") and not last.endswith("ss") else last
    return r"\s+".join([*map(re.escape, words[:-1]), re.escape(stem) + r"s?"])


def count_pattern(nouns: tuple[str, ...], names: list[str]) -> re.Pattern:
    """A sentence where the company (`names`: its names as the filing prints them) holds a number of `nouns`."""
    name = "|".join(re.escape(_APOSTROPHE.sub("", n)) for n in names if n) or r"(?!x)x"
    nouns_re = "|".join(_plural_free(n) for n in nouns)
    # "79,100 and 82,500 employees, respectively": the years' counts side by side
    return re.compile(_HOLDER.format(name=name) + _BETWEEN + r"\s+(?P<n>" + _NUMBER + r")(?:\s+and\s+" + _NUMBER + ")?"
                      + _MODIFIERS
                      + r"\s+(?:" + nouns_re + r")\b", re.I)


def find_count(conn, nouns: tuple[str, ...], cik: int, accessions: list[str], names: list[str]):
    """(chunk hit, sentence) of the first filing in `accessions` whose text states the count, Items 1, 2, 7 in
    that order, or None."""
    from store import chunks as chunk_store

    pattern = count_pattern(nouns, names)
    heads = [_plural_free(n).split(r"\s+")[-1] for n in nouns]
    for accession in accessions:
        hits = chunk_store.stating(conn, heads, cik=cik, accessions=[accession], limit=400)
        ranked = sorted(hits, key=lambda h: (_ITEMS.index(h.item) if h.item in _ITEMS else len(_ITEMS), h.ordinal))
        for hit in ranked:
            for sentence in split_sentences(hit.text):
                if pattern.search(_APOSTROPHE.sub("", sentence)):  # "Lowe’s employed", the name "Lowes"
                    return hit, sentence
    return None
