"""A reply in a prose thread that the figure path read as a printed row of its own words.

"was it material to earnings?" or "r they insured for that" after "tell me about the cyberattack Johnson
Controls had" name no figure of their own: the planner made a line lookup of the leftover words
("material earnings", "r insured") and retrieval refused it unknown_metric, a false refusal of a question
about what the thread discussed. Such a reply, pointing back at the thread ("it", "that", "they") and naming
no other company, is what the filing says of the thread's subject in the reply's words
(agent.planning.in_words.as_prose, which searches the thread's subject beside them). Its line keys stay the
plan's probe, so a row the company does print by those words ("how big was that goodwill impairment?") is
still answered as that figure (agent.retrieval.fetch._probe_lines).
"""

from __future__ import annotations

from agent.planning.companies import CompanyDirectory
from agent.planning.followups import POINTER, points_back
from agent.planning.in_words import as_prose
from agent.planning.plan import Plan
from agent.planning.scope import strip_quotes
from agent.planning.thread import usable_previous


def prose_reply(plan: Plan, text: str, previous: Plan | None, directory: CompanyDirectory) -> Plan | None:
    """`plan` as a prose follow-up about the thread's subject when it is a line lookup of a reply in a prose
    thread (see the module's docstring); None otherwise."""
    thread = usable_previous(previous)
    if thread is None or thread.route != "domain" or thread.intent != "qualitative" or not thread.tickers \
            or not (thread.topic or thread.subject):
        return None
    if plan.route != "domain" or plan.intent != "numeric" or not plan.metrics \
            or not all(k.startswith("line:") for k in plan.metrics) or plan.period:
        return None
    if not set(plan.tickers) <= set(thread.tickers) or str(plan.slots.get("fiscal_years", "")) == "message":
        return None  # another company, or a year of the message's own: a figure asked anew
    low = strip_quotes(text or "").lower()
    if not (points_back(low) or POINTER.search(low)):
        return None
    prose = as_prose(plan, text, low, directory, thread)
    # where the thread found its subject told, after MD&A, which tells what it did to the results
    prose.items = list(dict.fromkeys([*prose.items[:1], *thread.items, *prose.items[1:]]))
    prose.slots = {**plan.slots, **prose.slots, "metrics": "none: prose (a reply about the thread's subject no row prints)"}
    return prose
