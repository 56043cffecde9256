"""A ratio's name as analysts type it in a hurry: "gross mrgn", "intrest coverage", "curr ratio",
"eff tax rate". Each misspelt or abbreviated word is spelled out when, and only when, the words
around it then make exactly one phrase of the metric and formula tables.

Why: the tables match exact phrases, so one dropped vowel turned a ratio the engine computes into
an unknown line item, refused. Spelling a word out is safe only inside a phrase it completes: a
lone unknown word (a company's nickname, a product) is never rewritten, a word the tables or the
filler already know is never touched, and a window that two different phrases could complete is
left as written. The rewrite happens once, before planning, so the trace shows the phrase the
question was read as.
"""

from __future__ import annotations

import functools
import re

from agent.planning.words import FILLER
from agent.retrieval.concepts import METRICS, UNKNOWN_METRICS, find_phrases, normalize
from agent.retrieval.finance import MEASURE_PHRASES
from agent.retrieval.spelling import one_edit

_TOKEN = re.compile(r"[A-Za-z][A-Za-z&/]*")
_WINDOW = 5  # the longest phrase a repaired word completes, in words
_SHORTEST = 3  # a shorter token ("op", "ni") is an abbreviation the tables list themselves, or none


@functools.cache
def _vocabulary() -> dict[str, tuple[str, ...]]:
    """Every word of the tables' phrases, by first letter."""
    words = {w for p in MEASURE_PHRASES for w in p.split() if w.isalpha() and len(w) >= 4}
    out: dict[str, list[str]] = {}
    for w in sorted(words):
        out.setdefault(w[0], []).append(w)
    return {k: tuple(v) for k, v in out.items()}


@functools.cache
def _phrase_words() -> frozenset[str]:
    return frozenset(w for p in MEASURE_PHRASES for w in p.split() if w not in FILLER)


@functools.cache
def _known() -> frozenset[str]:
    """Words never respelled: the tables' own, the filler, and the names of measures the tables do not
    map ("ebit" is no abbreviation of "ebitda": it is refused as itself)."""
    unmapped = {w for p in UNKNOWN_METRICS for w in normalize(p).split()}
    return frozenset(w for p in MEASURE_PHRASES for w in p.split()) | FILLER | unmapped


def _abbreviates(short: str, word: str) -> bool:
    """"curr" of "current", "eff" of "effective", "mrgn" of "margin", "chg" of "change", "avg" of
    "average": the word's first letter, then some of its letters in order, about half of them at
    least (or the word's first letters)."""
    if short[0] != word[0] or len(short) >= len(word):
        return False
    if word.startswith(short):
        return True
    if re.search(r"[aeiou]{2}", short):
        return False  # an abbreviation drops letters, vowels first: "gain" is a word of its own, never "gearing"
    it = iter(word)
    return all(ch in it for ch in short) and 3 * len(short) >= len(word) + 2


@functools.cache
def spellings(token: str) -> tuple[str, ...]:
    """The table words `token` may be a typo (one edit, words of five letters or more) or an
    abbreviation of; none when the token is a word the tables or the filler know."""
    if token in _known() or len(token) < _SHORTEST or not token.isalpha():
        return ()
    n = len(token)
    out = [w for w in _vocabulary().get(token[0], ())
           if (len(w) >= 5 and abs(len(w) - n) <= 1 and one_edit(token, w))
           or (n < len(w) and (w.startswith(token) or 3 * n >= len(w) + 2) and _abbreviates(token, w))]
    return tuple(out)


_OPERATOR_WORDS = frozenset("divided divide dividing over plus minus less times multiplied subtract subtracted add added "
                            "sum difference ratio per".split())


# "CFO" is a person ("what did the CFO say") unless the question asks it as an amount: "how much CFO did it report",
# "CFO in fiscal 2024", "FY24 CFO". Then it is the analysts' cash flow from operations, spelled out.
_CFO_AMOUNT = re.compile(r"(?<=\bhow much )cfo\b|\bcfo(?=\s+(?:in|for|during|of)\s+(?:the\s+)?(?:fiscal\s+(?:year\s+)?|fy\s*)?'?\d{2,4}\b)"
                         r"|(?<=\b(?:fy|19|20)\d\d )cfo\b", re.I)


@functools.cache
def _shorthands() -> dict[str, tuple[str, str]]:
    """A metric's listed one-word shorthand or typo ("rev", "revnue") -> (the metric's one word it stands for
    ("revenue"), the metric's key)."""
    out: dict[str, tuple[str, str]] = {}
    for key, metric in METRICS.items():
        ones = [w for w in (metric.label.lower(), *metric.synonyms) if w.isalpha()]
        for short in metric.misspellings:
            if short.isalpha():
                full = next((w for w in ones if w != short and (_abbreviates(short, w) or one_edit(short, w))), None)
                if full is not None and short not in (f"{full}s", f"{full}es"):  # a plural is no shorthand: the
                    # tables print "Total revenues" as often as "Total revenue", and a row's name is matched as printed
                    out.setdefault(short, (full, key))
    return out


def _qualified_shorthand(text: str, keep: list[tuple[int, int]]) -> str:
    """"net rev", "total rev", "cost of rev": a metric's shorthand after words that, with it spelled out, make one
    phrase of the tables ("net revenue", "cost of revenue"): spelled out, so the words before it are the phrase's own,
    never a member's name asked of the revenue (the tables list the shorthand alone)."""
    short = _shorthands()
    tokens = [m for m in _TOKEN.finditer(text) if not any(s <= m.start() < e for s, e in keep)]
    out, at = [], 0
    for i, m in enumerate(tokens):
        hit = short.get(m.group(0).lower())
        if hit is None or not i:
            continue
        for k in range(min(3, i), 0, -1):
            before = tokens[i - k:i]
            if any(text[x.end():y.start()].strip() for x, y in zip(before, before[1:] + [m])):
                continue  # a phrase's words stand together
            phrase = normalize(" ".join(x.group(0).lower() for x in before) + f" {hit[0]}")
            spans = find_phrases(phrase, MEASURE_PHRASES)
            if len(spans) == 1 and spans[0][:2] == (0, len(phrase.split())):
                out += [text[at:m.start()], hit[0]]
                at = m.end()
                break
    return "".join(out) + text[at:]


def spelled_out(text: str, keep: list[tuple[int, int]] = ()) -> str:
    """`text` with each misspelt or abbreviated word of a metric or ratio name spelled out, where
    the window of words around it then reads as exactly one table phrase. `keep`: character spans
    (company names) never rewritten."""
    text = _qualified_shorthand(_CFO_AMOUNT.sub("operating cash flow", text), keep)
    tokens = [m for m in _TOKEN.finditer(text) if not any(s <= m.start() < e for s, e in keep)]
    low = [m.group(0).lower() for m in tokens]
    named = _phrase_words()
    near = {j for i, w in enumerate(low) if w in named for j in range(i - _WINDOW + 1, i + _WINDOW)}
    # a phrase holds a known word; an operator's word is never a misspelt name ("cash divided by capex")
    options = [spellings(w) if i in near and w not in _OPERATOR_WORDS else () for i, w in enumerate(low)]
    if not any(options):
        return text
    repairs: dict[int, str] = {}
    i = 0
    while i < len(tokens):
        done = False
        for n in range(min(_WINDOW, len(tokens) - i), 1, -1):
            span = range(i, i + n)
            if not any(options[j] for j in span) or any(j in repairs for j in span):
                continue
            if any(text[tokens[j].end() : tokens[j + 1].start()].strip(" -") for j in range(i, i + n - 1)):
                continue  # a phrase's words stand together: no punctuation between them
            found = _complete(low[i : i + n], options[i : i + n])
            if found is not None:
                repairs.update({j: w for j, w in zip(span, found) if w != low[j]})
                i, done = i + n, True
                break
        if not done:
            i += 1
    out, at = [], 0
    for j, word in sorted(repairs.items()):
        out += [text[at : tokens[j].start()], word]
        at = tokens[j].end()
    return "".join(out) + text[at:]


def _complete(words: list[str], options: list[tuple[str, ...]]) -> list[str] | None:
    """The one reading of `words` (each unknown word replaced by one of its spellings) that is a
    whole table phrase, or None when there is none or more than one phrase."""
    readings = [[]]
    for w, opts in zip(words, options):
        readings = [r + [o] for r in readings for o in (opts or (w,))]
        if len(readings) > 64:
            return None
    hits = {}
    for r in readings:
        norm = normalize(" ".join(r))
        spans = find_phrases(norm, MEASURE_PHRASES)
        if len(spans) == 1 and spans[0][0] == 0 and spans[0][1] == len(norm.split()):
            hits.setdefault(spans[0][2], r)
    return next(iter(hits.values())) if len(hits) == 1 else None
