"""An effect on the company asked in the future tense is searched for in its filing: the cause must be named.

Why a module of its own: it is one last look at a finished prose plan (agent.planning.rules.plan_rules), as
agent.planning.annual_only is. "what will be the effect of the new tariffs on Nike's costs?" is no forecast
asked of Footnote (agent.planning.scope.EXPOSURE): the risk factors and MD&A state how tariffs may affect the
company. But a filing that never names tariffs has no answer, and a sentence about some other cost is no
answer either: the quoted sentence must name the cause asked about, else nothing answered (no_grounding).
"""

from __future__ import annotations

import re

from agent.planning.plan import Plan
from agent.planning.scope import strip_quotes
from agent.planning.topics import STOPWORDS

# "the effect of <cause> on ...", asked with a future ("will", "going to") or a modal
_EFFECT_OF = re.compile(r"\b(?:impacts?|effects?|implications?|consequences?|ramifications?)\s+of\s+(?P<cause>[^?.!]{2,60}?)"
                        r"\s+(?:be\s+)?(?:on|for)\b")
_FUTURE = re.compile(r"\b(?:will|would|could|might|going\s+to)\b")
_WORD = re.compile(r"[a-z][a-z&'-]+")
_PLAIN = frozenset({"new", "any", "recent", "current", "future", "higher", "lower", "rising", "falling", "potential",
                    "possible", "proposed", "continued", "ongoing", "such", "these", "those", "this", "that"})


def cause_named(plan: Plan, text: str) -> Plan:
    """`plan` with the words of the cause an effect question names required of its quoted sentence, when the
    question asks in the future tense what something will do to the company and the plan searches its prose."""
    if plan.route != "domain" or plan.intent != "qualitative" or plan.unless_named is not None:
        return plan
    low = strip_quotes(text or "").lower()
    m = _EFFECT_OF.search(low)
    if m is None or not _FUTURE.search(low):
        return plan
    words = [w for w in _WORD.findall(m.group("cause")) if w not in STOPWORDS and w not in _PLAIN and len(w) > 2]
    if words:
        plan.unless_named = {"reason": "no_grounding", "detail": None, "words": list(dict.fromkeys(words))[:3]}
    return plan
