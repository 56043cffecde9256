"""A reply in a figure thread, in the words the planner reads: chat shorthand ("yr before?", "rank em",
"cash from ops both?"), a one-letter typo of a word that asks about the thread's figures ("which was
higer", "grwoth?", "as % of revenu?"), and a back-reference to the thread's figure that names no
figure ("the same calculation for Google", "back in 2017").

Why: a follow-up is read as a change to the thread's last plan, so every word it says must be read as
a slot (a company, a year, a figure) or as a word that transforms or chooses among the thread's
figures. A word left unread became a line item ("yr", "higer", "calculation") and the reply was refused
as an unknown metric although the thread said which figure was meant. Only a reply in a thread is
rewritten, and only its words: a typo is repaired when it is no English word and exactly one word of the
short follow-up vocabulary is a single edit away, so a name or a metric the user typed is never guessed.
"""

from __future__ import annotations

import functools
import re
from typing import Callable

from agent.planning.plan import Plan
from agent.retrieval.spelling import TYPO_MIN, one_edit

# chat shorthand a reply uses for the thread's slots and choices
_SHORTHAND = {"yr": "year", "yrs": "years", "y/y": "year over year", "ops": "operations", "em": "them",
              "b4": "before", "prev": "previous", "diff": "difference", "pct": "percent", "w/": "with",
              "wat": "what", "wut": "what", "hw": "how", "whos": "who is", "whats": "what is"}
_SHORT = re.compile(r"(?<![\w&'/-])(?:" + "|".join(map(re.escape, sorted(_SHORTHAND, key=len, reverse=True)))
                    + r")(?![\w&'-]|/\w)", re.I)
# "+ Google": the reply adds a company, as "and Google" does
_PLUS = re.compile(r"^\s*\+\s*(?=\w)")
# "em" is a word only after a verb that takes it ("rank em", "compare em"): elsewhere it stays as typed
_EM = re.compile(r"\b(?:rank|compare|sort|order|show|give|list|chart|plot|put|line)\s+em\b", re.I)

# The words a reply asks about the thread's figures with: choosing, ranking, transforming, pointing at a year.
_VOCABULARY = frozenset("""higher highest lower lowest bigger biggest smaller smallest larger largest greater
    faster fastest slower slowest growth growing grown revenue revenues margin margins percent percentage share
    compare compared comparison difference change changed before previous prior earlier versus ranking ranked
    which""".split())
_SAME_FIGURE = re.compile(r"\b(?:the\s+)?same\s+(?:calculation|calc|computation|math|ratio|metric|measure|figure|"
                          r"figures|number|numbers|stat|stats|analysis|breakdown|thing|things|one|question)s?\b", re.I)
# "back to Apple: gross profit?", "going back to revenue": a reply that returns to a slot the thread had,
# keeping the rest of the thread's plan (its year)
BACK_TO = re.compile(r"\b(?:go(?:ing)?\s+|get(?:ting)?\s+|switch(?:ing)?\s+)?back\s+to\b", re.I)
# "Target instead", "rather than Apple, Nvidia": a company named in place of the thread's, never beside them
INSTEAD = re.compile(r"\b(?:instead|rather\s+than|(?:go(?:ing)?\s+)?back\s+to)\b", re.I)
_BACK_IN = re.compile(r"\bback\s+(?=(?:in|for|during)\s+(?:fy|fiscal\s+(?:year\s+)?)?'?\d{2,4}\b)", re.I)
# "versus the one before", "and the one prior": the year before the thread's, said with "one"
_ONE_BEFORE = re.compile(r"\bthe\s+one\s+(before|prior|previous)\b", re.I)


@functools.cache
def _english() -> frozenset[str]:
    from agent.planning.company_words import english_words

    return frozenset(english_words())


# Short words a reply chooses or points with; typed with two letters swapped ("rnak them", "smae for 2023")
_SHORT_WORDS = frozenset("rank same both each year more less than grow grew the and how who what".split())


def _swapped(a: str, b: str) -> bool:
    """Whether `a` is `b` with two neighbouring letters swapped."""
    diff = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
    return (len(a) == len(b) and len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]])


def _repaired(word: str) -> str:
    """The one follow-up word `word` is a one-letter typo of (two letters swapped, for a short word),
    or `word` itself."""
    low = word.lower()
    if not low.isalpha() or low in _VOCABULARY or low in _SHORT_WORDS or low in _english():
        return word
    if len(low) < TYPO_MIN:
        near = [v for v in _SHORT_WORDS if _swapped(low, v)]
    else:
        near = [v for v in _VOCABULARY if abs(len(v) - len(low)) <= 1 and one_edit(low, v)]
    return near[0] if len(near) == 1 else word


def reply_spelled(raw: str, previous: Plan | None, is_name: Callable[[str], bool] | None = None) -> str:
    """`raw` as the planner should read it when it replies to a figure thread (`previous`, the thread's
    last plan, holds figures or asked for one); the message unchanged otherwise. `is_name` tells a word
    that names a company ("Lowes", one letter from "lower"), which is never respelled."""
    if previous is None or previous.route == "meta" or not (previous.metrics or previous.tickers):
        return raw
    # a capitalised word inside the message is a name as the user wrote it ("what about Acme?"): kept
    def repaired(m: re.Match) -> str:
        word = m.group(0)
        if word[0].isupper() and raw[: m.start()].strip(" \t\"'("):
            return word
        fixed = _repaired(word)
        return word if fixed != word and is_name is not None and is_name(word) else fixed

    text = re.sub(r"[A-Za-z]+", repaired, raw)
    text = _EM.sub(lambda m: m.group(0)[:-2] + "them", text)
    text = _SHORT.sub(lambda m: m.group(0) if m.group(0).lower() == "em" else _SHORTHAND[m.group(0).lower()], text)
    text = _PLUS.sub("and ", text)
    text = _BACK_IN.sub("", text)
    if previous.metrics:
        text = _SAME_FIGURE.sub("the same", text)
    if previous.fiscal_years or previous.latest or previous.year_offsets:
        text = _ONE_BEFORE.sub(lambda m: f"the year {m.group(1).lower()}", text)
    return text


# one letter doubled or undoubled ("tarrifs", "recesion"): the commonest misspelling, often two edits away
_DOUBLED = re.compile(r"(.)\1+")
SUBJECT_TYPO_MIN = 6  # a one-letter slip is repaired in longer words only: "capex" is no "caper"


@functools.cache
def _measure_words() -> frozenset[str]:
    """Every word of the catalogue's figure names ("payout", "payable", "noncurrent"): a finance word the
    dictionary lacks, never a slip of an everyday one ("layout", "playable")."""
    from agent.retrieval.finance import FORMULAS, MEASURE_PHRASES

    names = [*MEASURE_PHRASES, *(s for f in FORMULAS.values() for s in f.synonyms)]
    return frozenset(w for name in names for w in re.findall(r"[a-z]+", name.lower()))


@functools.cache
def _undoubled() -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for word in _english():
        if len(word) >= TYPO_MIN:
            out.setdefault(_DOUBLED.sub(r"\1", word), set()).add(word)
    return {k: frozenset(v) for k, v in out.items()}


def _subject_word(word: str) -> str:
    """The one English word `word` is a slip of: a letter doubled or undoubled, or (six letters or more)
    one letter dropped, added, changed or two swapped; `word` itself when it is a word, or no single word
    is that near."""
    low = word.lower()
    if not low.isalpha() or len(low) < TYPO_MIN or low in _english() or low in _measure_words():
        return word
    near = set(_undoubled().get(_DOUBLED.sub(r"\1", low), ())) - {low}
    if not near and len(low) >= SUBJECT_TYPO_MIN:
        near = {v for v in _english() if abs(len(v) - len(low)) <= 1 and len(v) >= TYPO_MIN and one_edit(low, v)}
    # a word holding another whole ("ecommerce", "nonrecurring") is a compound as typed, no slip of it
    near = {v for v in near if v not in low}
    return next(iter(near)) if len(near) == 1 else word


_NAMING = re.compile(r"\b(?:define[sd]?|call(?:ed)?\s+(?:it|this|that)|named|name\s+it|let\s+\w+\s+be)\b|[\"\u201c\u2018]"
                     r"|(?<!\w)'", re.I)


def subject_spelled(raw: str, previous: Plan | None, is_name: Callable[[str], bool] | None = None) -> str:
    """`raw` with each misspelt word of what it asks about respelled ("does it say anything about tarrifs?"
    -> "tariffs"), in a reply to a prose answer (`previous`, the thread's last plan); unchanged otherwise. A capitalised
    word inside the message, a word with a capital inside it ("eCommerce"), or a word naming a company
    is a name or term as the user wrote it, and kept.

    Why: the thread's filing is searched with the reply's own words; a misspelt one matches no filing's
    text, and the reply was refused as if the filing said nothing about what was asked."""
    if previous is None or previous.route != "domain" or previous.intent != "qualitative" or not previous.tickers \
            or _NAMING.search(raw):
        # only after a prose answer, whose filing is searched with the reply's words; a figure thread's reply
        # is read by the figure path's own spellings, and a message that names something spells it as meant
        return raw
    # the thread's own words (a formula it named, "payback multiple"; its topic) are spelled as meant
    said = " ".join([previous.query, previous.topic, *(f"{d.get('name', '')} {d.get('formula', '')}"
                                                       for d in previous.definitions)]).lower()
    own = set(re.findall(r"[a-z]+", said))

    def repaired(m: re.Match) -> str:
        word = m.group(0)
        if any(ch.isupper() for ch in word[1:]) or (word[0].isupper() and raw[: m.start()].strip(" \t\"'(")):
            return word  # "eCommerce", "iPhone": spelled as the user meant it
        if word.lower() in own:
            return word
        fixed = _subject_word(word)
        return word if fixed != word and is_name is not None and is_name(word) else fixed

    return re.sub(r"[A-Za-z]+", repaired, raw)
