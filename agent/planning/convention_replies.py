"""A thread's reply that only restates how the thread's ratio is to be computed: "using year-end inventory
instead?", "and on average equity?", "same but with year-end total assets".

Why: such a reply names a balance, so it was planned as that balance alone ("Walmart's inventories at the end of
fiscal 2025"), a figure for another thing than the ratio the thread asks, or refused. The reply keeps the thread's
company, year and ratio, and computes the ratio under the convention said (agent.planning.defined_formulas
.balance_convention), which the answer states.
"""

from __future__ import annotations

import re

from agent.planning.defined_formulas import balance_convention, said_balance_convention
from agent.planning.plan import Plan
from agent.retrieval.finance import BALANCE_FORMS

# A form's own ratio ("roe_end" is ROE on year-end equity), so a reply can move it back to the other convention
_BASE_OF = {form: base for base, forms in BALANCE_FORMS.items() for form in forms if form}
# Words a convention reply holds besides the convention itself
_FILLER = frozenset("and so ok okay but what about how same thing ratio figure with using use on based computed "
                    "calculated calculate compute redo do it that this the instead rather please again now can you "
                    "try taking take run by its their rerun basis figures numbers".split())


def convention_reply(text: str, previous: Plan | None) -> Plan | None:
    """The thread's plan with its ratios under the balance convention the reply says, when the reply says nothing
    else; else None."""
    if previous is None or previous.route != "domain" or not previous.metrics or not previous.tickers:
        return None
    rest = said_balance_convention(text or "")
    if rest is None:
        return None
    words = re.findall(r"[a-z&'/-]+", rest.lower())
    if any(w not in _FILLER for w in words):
        return None
    metrics = [_BASE_OF.get(m, m) for m in previous.metrics]
    formed = balance_convention(metrics, text)  # (a form moved back to its ratio keeps that ratio's own convention)
    if formed == previous.metrics:
        return None
    return previous.model_copy(update={"metrics": formed, "inherited": ["tickers", "fiscal_years"], "words": [],
                                       "slots": {**previous.slots, "metrics": "thread, under the convention said"}})
