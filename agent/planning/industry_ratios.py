"""An industry's headline ratios by their names, over the rows its companies print: a health insurer's medical care
ratio (medical costs over premiums).

Why: these ratios are named in every analyst question about those companies, yet their operands are no curated
metric; the rows are printed under plain names ("Medical costs", "Premiums"). The name is read as the user's own
definition written after it, so the formula path finds each row in the company's statements (agent.planning.inline_formulas,
rows by their printed words), restates the definition in the answer, and refuses naming the row a company does not
print. A definition the user writes beside the name is theirs instead. Initials ("MLR") are left alone: they read as
tickers.
"""

from __future__ import annotations

import re

# (the ratio's names, its definition in the words the rows are printed under)
_RATIOS: tuple[tuple[str, str], ...] = (
    (r"medical\s+(?:care|cost|costs|loss|benefits?)\s+ratio", "medical costs as a % of premiums"),
)
# the name followed by a definition of the user's: left to them
_DEFINED_AFTER = r"(?!\s*[(:=]|\s*,?\s*(?:defined|calculated|computed|measured)\b|\s+(?:is|as)\s+(?:defined|calculated)\b)"
_NAMED = [(re.compile(rf"\b(?P<name>{names})\b{_DEFINED_AFTER}", re.I), said) for names, said in _RATIOS]


# a question about what moves the ratio ("what's driving the medical cost ratio"): prose, the filing's words
_CAUSE = re.compile(r"\b(?:driv\w*|why|explain\w*|caus\w*|reasons?|behind|pressur\w*|affect\w*|impact\w*|trend\w*|"
                    r"outlook|expect\w*|guidance)\b", re.I)


def with_industry_definitions(text: str) -> str:
    """The text with an industry ratio's name followed by its definition over printed rows, in brackets."""
    if _CAUSE.search(text):
        return text
    for pattern, said in _NAMED:
        text = pattern.sub(lambda m: f"{m.group('name')} ({said})", text, count=1)
    return text
