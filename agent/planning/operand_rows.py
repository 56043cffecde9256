"""Operands named by the filing's own words: a printed statement row, or a member (segment, product, geography).

Why: analysts name line items the way the company prints them ("food & paper", "fulfillment") and narrow a
metric to a member ("AWS operating income"); those words are accepted only when a row or member of the filing
holds them, so a formula never reads a look-alike figure.
"""

from __future__ import annotations

import functools
import re

from agent.planning.words import FILLER
from agent.retrieval.concepts import find_phrases, METRICS, normalize, PHRASES
from agent.retrieval.finance import FORMULA_PHRASES
from agent.retrieval.line_items import tokens as line_tokens
from agent.retrieval.line_items import ABBREVIATIONS, IGNORABLE, SYNONYMS
from agent.planning.formula_syntax import bracket_depths, CLOSE, holds_operator, INTRODUCING, OPEN
from agent.planning.formula_trees import EXPENSE_WORDS


def is_member_word(w: str) -> bool:
    """A word a member's name may hold: not a filler, a verb that introduces a formula ("calculate"), a
    year or a company's possessive ("apple's"), which are the question's words around the name."""
    return w not in FILLER and w not in INTRODUCING and w not in _NEGATING and not re.search(r"\d|'s$", w)


# Words that negate the metric after them ("non-current term debt" is no member "non" of current
# debt): never a member's name.
_NEGATING = frozenset({"non", "not", "ex", "excluding", "less", "without"})


# Words inside a member's name, never at its edges ("Family of Apps", "Energy Generation and Storage").
INNER = frozenset({"of", "and", "&"})
# `members` in an inline formula (agent.planning.inline_definitions.find_inline): a member is read where the
# words allow no other reading, and a printed row with the same words is tried first.
INLINE = "inline"
# A bare member's words: a name of a product, segment or region, never a verb, a filler or a company's
# possessive ("compute Apple's iPhone"): those are the question's words around the formula.
_BARE_WORDS = 4


def member_words(text: str) -> str | None:
    """The words of an operand that names no metric and may name a member ("Services", "Greater
    China"), else None."""
    if any(ch in text for ch in OPEN + CLOSE) or re.search(r"\d|'s\b|\u2019s\b", text):
        return None
    t = normalize(text).strip()
    t = re.sub(r"^(?:the|its|their)\s+", "", t)
    words = t.split()
    if not 0 < len(words) <= _BARE_WORDS or not all(
            is_member_word(w) and w not in _EDGE or (w in INNER and 0 < i < len(words) - 1) for i, w in enumerate(words)):
        return None
    if find_phrases(t, PHRASES) or t in FORMULA_PHRASES:
        return None  # a metric's words: parsed (or refused) as one
    return t


def member_of(words: str, metric: str, lines: frozenset, line_first: bool) -> dict:
    """A bare operand as the member of the metric its formula names beside it ("Services as a share
    of total net sales": revenue of the Services member); a row printed under the same words is the
    other reading, tried first or second (`line_first`) against the facts."""
    node = {"metric": metric, "member": words}
    if not (lines and is_printed(words, lines)):
        return member_or_row(metric, words)
    line = {"line": words}
    return {"op": "first", "args": [line, node] if line_first else [node, line]}


def member_or_row(metric: str, words: str) -> dict:
    """The figure the words name beside a metric when no primary statement prints them as a row: words that say
    they are an expense ("advertising expense", "content amortization") are a line the company reports, never a
    member of revenue; others are the metric's member ("AWS"), else the company's row of that metric under those
    words ("franchised restaurants": "Revenues from franchised restaurants"), else the row the words name alone
    ("advertising": "Advertising expense"). Each row is resolved exact or near-exact against the company's own
    labels, or the operand refused, in retrieve.

    Why: a share asked of a line item the company reports ("advertising expense as a % of net sales") was read
    as a revenue member that no company has, and refused although the filing answers it."""
    node = {"metric": metric, "member": words}
    if words.startswith("*"):  # every member of an axis: no row
        return node
    if EXPENSE_WORDS.search(words):
        return {"line": words}
    # last, the words as a line in their own right ("advertising as a % of net sales" where no member or revenue row
    # is named so: the company's "Advertising expense" row, resolved exact or near-exact by its own label)
    return {"op": "first", "args": [node, {"line": f"{words} {METRICS[metric].label.lower()}"}, {"line": words}]}


def only_member_metric(nodes: list[dict]) -> str | None:
    """The one table metric the member operands beside a bare one narrow ("iPhone minus Mac net
    sales": revenue), else None."""
    found = {n["metric"] for n in nodes if n.get("member") and not n.get("offset")}
    return found.pop() if len(found) == 1 else None


LINE_WORDS = 6
# A row's name as said, its small words counted ("proceeds from issuance of long term debt", "maturities and
# sales of non marketable securities"): its words without them are at most LINE_WORDS
_LINE_SAID_WORDS = 9
# Words a printed row's name never starts or ends with.
_EDGE = frozenset("for in of at by to from on the a an and or with during its their per as vs".split())


@functools.lru_cache(maxsize=4096)  # an inline formula's search meets the same operand words many times
def is_printed(t: str, lines: frozenset) -> bool:
    """Whether operand words name a row some company prints on a primary statement (its label's or
    concept's words, agent.retrieval.line_items.tokens): "marketing expense", "net cash used in
    investing activities". The company's own row is found, or the operand refused, in retrieve."""
    words = t.split()
    if not 0 < len(words) <= _LINE_SAID_WORDS or any(ch.isdigit() for ch in t) or all(w in FILLER for w in words):
        return False
    if words[0] in _EDGE or words[-1] in _EDGE:  # "revenue for": a metric and the question's next words
        return False
    vocabulary = _vocabulary(lines)  # a cheap test first: most candidate spans hold a word no row prints
    said = [w for w in re.split(r"[\s&]+", t) if w]  # "food & paper", "food&paper": the row's words, "&" its "and"
    if any(w not in IGNORABLE and not _spellings(w) & vocabulary for w in said) and not _SPELLED_OUT.search(t):
        return False  # (an abbreviation is the row's words spelled out: "pre-tax earnings", "G&A")
    return line_tokens(t) in lines


# The words of a row printed only in words every row may print ("Total costs and expenses", "Costs and expenses")
_PLAIN_ROW_WORDS = frozenset("total costs cost expenses expense and".split())


def is_plainly_printed(said: str) -> bool:
    words = said.split()
    return len([w for w in words if w != "and" and w != "total"]) >= 2 and all(w in _PLAIN_ROW_WORDS for w in words) \
        and words[-1] != "and" and not line_tokens(said)


def as_said(said: str, t: str, lines: frozenset) -> str:
    """A printed row's words as the user wrote them, "total" included ("total term debt" is the row "Total
    term debt", not "Term debt" current or non-current), when those words are the row too."""
    return said if said != t and said.endswith(t) and is_printed(said, lines) else t


def bracketed_row(text: str, lines: frozenset) -> str | None:
    """The words of an operand with brackets in it, as written, when they name a printed row ("Income
    (loss) before income taxes", "Net cash provided by (used for) investing activities", "Interest and
    other income (expense)"); else None. The row's sign words and its "used in / provided by" pair are
    no words of its name (agent.retrieval.line_items.tokens), so the brackets are kept for the resolver."""
    t = " ".join(text.lower().replace("\u2019", "'").split())
    if not lines or not t or t[0] in OPEN or any(ch.isdigit() for ch in t) or bracket_depths(t) is None:
        return None  # a name never starts with a bracket: "provided/(used) by ..." is one row's sign pair
    inside = " ".join(re.findall(r"\(([^()]*)\)", t))
    if holds_operator(" " + inside + " "):
        return None  # "(A minus B)": a formula in brackets, not a row's name
    plain = normalize(re.sub(r"[()\[\]{}]", " ", t)).split()
    if not plain or plain[0] in _EDGE or plain[-1] in _EDGE:
        return None
    words = line_tokens(t)
    if not 0 < len(words) <= LINE_WORDS or words not in lines:
        return None
    return t


# The statements' abbreviations (agent.retrieval.line_items.ABBREVIATIONS): words no row prints as such.
_SPELLED_OUT = re.compile(r"(?<![\w&])(?:" + "|".join(re.escape(a) for a in ABBREVIATIONS) + r")(?![\w&])")


def _spellings(word: str) -> set[str]:
    """The word and its singulars, as agent.retrieval.line_items.tokens may have stemmed it."""
    out = {word, word[:-1], word[:-2], word[:-3] + "y"}
    return out | {SYNONYMS[w] for w in out if w in SYNONYMS}


@functools.lru_cache(maxsize=2)
def _vocabulary(lines: frozenset) -> frozenset[str]:
    return frozenset(w for name in lines for w in name)
