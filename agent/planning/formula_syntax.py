"""How a user's formula is written: its operators, the ways a definition is introduced, and bracket depth.

Why: every reader of a formula (a named definition, an inline one, a restatement in words) must split the
same words the same way — "A plus B over C" is (A + B) ÷ C wherever it is said — so the patterns that say
where a definition starts and which words are operators live in one place, apart from what the operands mean.
"""

from __future__ import annotations

import re

from agent.retrieval.concepts import METRICS

END = (r"(?=\s*(?:[;?!]|\.\s|\.$|,\s*(?:and\s+)?(?:what|how|show|give|tell|then|compute|calculate|for)\b|"
        r"\s+(?:and|then)\s+(?:what|how|show|give|tell|compute|calculate)\b|$))")
_NAME = r"(?P<q>['\"\u2018\u201c])?(?P<name>[a-z][\w&'\- ]{0,40}?)(?(q)['\"\u2019\u201d])"
DEFINE = re.compile(
    r"\b(?:define|defining|let|treat|call|calculate|compute)\s+" + _NAME + r"\s+(?:as|=|to be|be)\s+"
    r"(?P<expr>.+?)" + END,
    re.I,
)
# "my 'opex intensity' metric = (SG&A + R&D) / revenue", "net debt is defined as ...": a name, then its formula
_CALLED = r"(?:\s+(?:metric|ratio|measure|figure))?\s*(?:=|:=|\bis\s+defined\s+as\b:?|,?\s*defined\s+as\b:?)\s*"
NAMED = re.compile(
    r"(?:(?:\bmy|\bour|\bthe)\s+)?(?<!\w)(?P<q>['\"\u2018\u201c])(?P<name>[a-z][\w&'\- ]{0,40}?)['\"\u2019\u201d]"
    + r"(?:" + _CALLED + r"|(?P<tail>(?:\s+[a-z]+){0,2})\s*:\s+)" + r"(?P<expr>.+?)" + END
    + r"|(?:^|(?<=[.;:?!]\s)|(?<=\bwhere\s)|(?<=\bwith\s))(?P<bare>[a-z](?:(?!\s(?:where|with)\s)[\w&'\- ]){0,40}?)\s*(?:=|:=)\s*(?P<bexpr>.+?)"
    + END,  # "…, where leverage = A / B", "debt / EBITDA, with EBITDA = A + B"
    re.I,
)
# "…, where adjusted margin is operating income plus SBC over revenue": the name after "where" or "with",
# then "is", "equals", "means" or "(is) defined as" (at a sentence's start "X is A over B" is a question)
WHERE_IS = re.compile(r"\b(?:where|with)\s+(?P<q>['\"\u2018\u201c])?(?P<name>[a-z][\w&'\- ]{0,40}?)(?(q)['\"\u2019\u201d])\s+"
                      r"(?:is|equals|means|(?:is\s+)?(?:defined|calculated|computed)\s+as)\s+(?P<expr>.+?)" + END, re.I)
# "Adjusted margin is defined as …. What was it for Apple?": a name opening a sentence, then "is defined as"
# "What is Palantir's stock comp burden? Defined as A divided by B.": a definition of the measure just asked,
# named by that question (agent.planning.defined_formulas.pronoun_named), as "it is defined as" is
DEFINED_BARE = re.compile(r"(?:(?<=[.;!?]\s)|(?<=[.;!?]))\s*(?P<name>)(?:(?:please\s+)?(?:defined|calculated|computed|measured|"
                          r"(?:calculate|compute)(?:\s+(?:it|this|that))?)\s+as:?)\s+(?P<expr>.+?)" + END, re.I)
# "What is Apple's debt-to-equity? Debt is long-term debt plus its current portion.": a sentence after the question
# that gives a name of at most three words a formula with "is", "=" or "equals"
_NOT_A_NAME = r"(?!(?:what|how|which|who|where|when|why|it|this|that|there|here|the\s+answer|answer)\b)"
SAID_IS = re.compile(r"(?:(?<=[.;!?]\s)|(?<=[.;!?]))\s*(?:(?:my|our|the)\s+)?" + _NOT_A_NAME +
                     r"(?P<name>[a-z][\w&'\-]*(?:\s+[a-z][\w&'\-]*){0,2}?)\s+(?:is|equals|means|should\s+be)\s+"
                     r"(?:taken\s+as\s+|the\s+sum\s+of\s+)?(?P<expr>.+?)" + END, re.I)
IS_DEFINED = re.compile(r"(?:^|(?<=[.;!?]\s))(?:(?:my|our|the)\s+)?(?P<name>[a-z][\w&'\- ]{0,40}?)\s+is\s+"
                        r"(?:defined|calculated|computed|measured)\s+as:?\s+(?P<expr>.+?)" + END, re.I)
# "per share" is never a division ("dividends per share" is one figure): no metric is named "share"
DIV = re.compile(r"\s+(?:over|divided\s+by|÷|/|relative\s+to|in\s+relation\s+to|as\s+a\s+multiple\s+of|"
                  r"(?:expressed\s+)?as\s+(?:a\s+)?(?:%|percent(?:age)?|pct|share|proportion|portion|fraction)\s+of|"
                  r"per(?!\s+(?:common\s+)?shares?\b))\s+|"
                  r"\s*[÷/]\s*", re.I)
# A divisor that is the numerator's member's own ("its revenue", "the segment's sales").
OWN = re.compile(r"\s*(?:its|their|(?:the|that)\s+(?:segment|division|unit)(?:'s|s')?)\s", re.I)
# A division that asks for a share of a total ("as a share of", "as a portion of"), not a ratio ("over", "per").
SHARE_OF = re.compile(r"\s+(?:expressed\s+)?as\s+(?:a\s+)?(?:%|percent(?:age)?|pct|share|proportion|portion|fraction)\s+of\s+",
                       re.I)
FRACTION = re.compile(r"\bfraction\b", re.I)
ADD = re.compile(r"\s+(?:plus|\+|add|adding)\s+|\s*\+\s*", re.I)
SUB = re.compile(r"\s+(?:minus|less|-|−|excluding|net\s+of|subtracting)\s+|\s+[-−]\s+", re.I)
ADD_OR_SUB = re.compile(ADD.pattern + r"|" + SUB.pattern, re.I)  # where a sum's terms split
MUL = re.compile(r"\s+(?:times|×|\*|multiplied\s+by)\s+|\s*[×*]\s*|\s+x\s+(?=\d)", re.I)  # "… x 365"
# Names that make a same-unit quotient a percentage ("margin", "yield", "return", "payout", "as a % of"); a
# "rate" or a "ratio" stays a ratio ("reinvestment rate" = capex ÷ D&A = 2.4). A quotient over revenue is a share
# of revenue whatever its name ("opex intensity").
PCT_NAMES = re.compile(r"(?:\b(?:margin|percent|percentage|pct|share|yield|mix|conversion|intensity|return|payout|"
                        r"tax\s+rates?)\b|%)",
                        re.I)
# A name that says a ratio ("funding ratio", "payback multiple", "coverage (x)") keeps a ratio whatever else it says.
RATIO_NAMES = re.compile(r"\b(?:ratio|multiple|times|coverage|turns?|turnover)\b", re.I)


class DefinitionError(ValueError):
    """The definition names something that is not a known metric: refused with its words."""


OPEN, CLOSE = "([{", ")]}"


def bracket_depths(text: str) -> list[int] | None:
    """Each character's bracket depth, or None when the brackets do not pair up."""
    depth, out = 0, []
    for ch in text:
        if ch in CLOSE:
            depth -= 1
            if depth < 0:
                return None
        out.append(depth)
        if ch in OPEN:
            depth += 1
    return out if depth == 0 else None


def split_top(text: str, pattern: re.Pattern, maxsplit: int = 0) -> list[str]:
    """`text` split at the matches of `pattern` outside brackets, with the separators kept."""
    depths = bracket_depths(text)
    if depths is None:
        raise DefinitionError(text.strip())
    out, last = [], 0
    for m in pattern.finditer(text):
        if m.start() < last or depths[m.start()] or (m.end() > m.start() and depths[m.end() - 1]):
            continue
        out += [text[last : m.start()], m.group(0)]
        last = m.end()
        if maxsplit and len(out) // 2 >= maxsplit:
            break
    return out + [text[last:]]


def unwrap(text: str) -> str | None:
    """The inside of a bracket pair that wraps the whole text, else None."""
    t = text.strip()
    if len(t) >= 2 and t[0] in OPEN and t[-1] in CLOSE:
        depths = bracket_depths(t)
        if depths is not None and all(d > 0 for d in depths[1:-1]):
            return t[1:-1]
    return None


def is_a_whole(node: dict) -> bool:
    """Whether an operand named beside its parts ("operating lease liabilities") may be their whole: a table metric
    not tagged only as its current part. A printed row may be the current one only (Accrued liabilities under current
    liabilities), so it never is."""
    if "metric" not in node or node.get("member"):
        return False
    concepts = METRICS[node["metric"]].concepts
    return not all(c.endswith("Current") and not c.endswith("Noncurrent") for c in concepts)


def kind_of_unit(unit: str) -> str:
    """A unit's kind: a percentage, a ratio and a pure number are one (a quotient shown two ways), so a payout
    ratio defined as a quotient of per-share figures is the user's definition of it, never the registry's."""
    return "quotient" if unit in ("percent", "ratio", "pure", "points") else unit


def holds_operator(text: str) -> bool:
    return any(p.search(text) for p in (DIV, ADD, SUB, MUL))


def has_operator(text: str) -> bool:
    """Whether the text holds a formula's operator (the planner's test before it takes a formula's name)."""
    return holds_operator(f" {text} ")


# Words that may stand beside a formula written into a question without belonging to an operand.
INTRODUCING = frozenset("compute computed calculate calculated calc calcs define defined using use work out figure "
                         "i.e. ie = ratio formula".split())  # "ratio: A / B", "the formula (A - B) / A"
