"""Words that name a KIND of figure in a follow-up, read against the thread's figure.

Why a module of its own: "what was the margin?", "how profitable were they?", "and the loss?",
"per share?" name no one figure alone, but a thread has already chosen one. After operating income
the margin is the operating margin; after revenue, "how profitable" is net income and its margin;
after net income, "per share" is diluted EPS. Alone (no thread's figure) such a word is left to the
planner, which refuses it as before; a message that names a figure of its own is never widened.
"""

from __future__ import annotations

import re

from agent.planning.followups import BASE_OF, FIGURE_ASKING, figure_base, own_subject

# The kind words ("costs", never "did it cost", a verb).
KIND_WORD = re.compile(r"\b(margins?|profitab\w*|unprofitab\w*|loss(?:es)?|costs|per[\s-]+share|charges?)\b")
# A thread's figure that is a charge: "how big was the charge?" after a goodwill impairment is that impairment
_CHARGE = re.compile(r"impair|restructur|charge|litigation|settlement|write[\s_-]?(?:down|off)|severance")
_MARGIN_OF = {"gross_profit": "gross_margin", "cost_of_revenue": "gross_margin", "operating_income": "operating_margin",
              "operating_expenses": "operating_margin", "net_income": "net_margin", "eps_diluted": "net_margin",
              "eps_basic": "net_margin", "ebitda": "ebitda_margin"}
_MARGINS = ("gross_margin", "operating_margin", "net_margin")
_PROFITS = ("gross_profit", "operating_income", "net_income")  # what a margin, a profit or a loss is of
_COSTS = ("cost_of_revenue", "operating_expenses", "rd", "sga")


def _thread_base(key: str) -> str:
    """The reported figure a thread's key is about: a growth or change through its base, a ratio
    through the figure it is computed from ("operating_margin" -> "operating_income")."""
    base = figure_base(key)
    return BASE_OF.get(base, base)


def kind_of_thread(text: str, thread_metrics: list[str], *, prose: bool = False) -> list[str]:
    """The figures a kind word in a follow-up means given the thread's figures, or [] when the
    message says more than the kind ("margins in China") or names none. Every figure of the thread
    counts, so a thread about revenue and net income asked "and the margins?" gets both margins."""
    low = text.lower().replace("\u2019", "'")
    kinds = {m.group(1) for m in KIND_WORD.finditer(low)}
    if len(kinds) != 1:
        return []
    word = kinds.pop()
    rest = [w for w in own_subject(low) if w != word and w not in FIGURE_ASKING and w != "company"
            and w not in ("were", "was", "did", "do", "does", "are", "is")]
    if rest:
        return []
    bases = [_thread_base(k) for k in thread_metrics]
    if word.startswith("margin"):
        found = [_MARGIN_OF[b] for b in bases if b in _MARGIN_OF] or [m for m in thread_metrics if m in _MARGINS]
        return list(dict.fromkeys(found)) or list(_MARGINS)
    if word.startswith("per"):  # "what was that per share?" after net income: its earnings per share
        return ["eps_diluted"] if "net_income" in bases else []
    if "profitab" in word:
        own = [b for b in bases if b in _PROFITS]
        base = own[0] if own else "net_income"
        return [base, _MARGIN_OF[base]]
    if word.startswith("charge"):
        # after a charge's figure, that figure; after a prose answer about the charge (`prose`, its figure only beside
        # the quotes), the sentences that state it, as agent.planning.thread_prose answers "how big was the charge?"
        return [] if prose else [k for k in thread_metrics if _CHARGE.search(k.lower())]
    if word.startswith("loss"):
        return [next((b for b in bases if b in _PROFITS), "net_income")]
    return [next((b for b in bases if b in _COSTS), "cost_of_revenue")]  # "and costs?": its cost of revenue
