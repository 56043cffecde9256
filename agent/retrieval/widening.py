"""A prose search the route bounded to some Items, refused for want of an answer there, is searched
once more over the whole filing before the refusal stands.

Why: the planner's Items are its reading of the question's form ("what does Euronet allege" reads
as an event: MD&A, risks), and a filing tells many answers only elsewhere: a lawsuit, a
collaboration's terms or a tax case in the notes (Item 8), a spin-off's tax risk in the risk
factors. A no_grounding refusal says nothing in the filing answers; it is true only once the whole
filing was read. The second search is the one a question no route chose gets (narrative Items
preferred, every Item ranked), and the composer's relevance floor judges it as it judged the first,
so a question the filing does not answer is still refused, now saying it searched all Items.
"""

from __future__ import annotations

from agent.planning.prose_route import NAMED_SECTION
from agent.state import plan_of


def widens(state) -> bool:
    """The turn was refused no_grounding after a prose search bounded to the route's Items (not a
    section the user named, not a quarter's 10-Q), and not yet searched wider."""
    refusal = state.get("refusal") or {}
    located = state.get("located") or {}
    if refusal.get("reason") != "no_grounding" or state.get("widened") or not located.get("items"):
        return False
    plan = plan_of(state)
    if plan.intent != "qualitative" or plan.period or plan.unless_named:
        return False
    return not NAMED_SECTION.search(state["question"].lower()) and any(located.get("accessions", {}).values())


def reads_earlier(state) -> bool:
    """The turn was refused no_grounding after its whole latest filing was searched (widened, or no route bounded
    it), its one company's latest 10-K chosen only because no year was named, and an earlier 10-K is held: the
    earlier one is weighed once (agent.retrieval.earlier_filing.told_earlier)."""
    from agent.retrieval.fetch import latest_by_default

    refusal = state.get("refusal") or {}
    located = state.get("located") or {}
    if refusal.get("reason") != "no_grounding" or state.get("earlier_read"):
        return False
    if located.get("items") and not state.get("widened"):
        return False
    plan = plan_of(state)
    resolved = state.get("resolved") or []
    if plan.intent != "qualitative" or plan.unless_named or len(resolved) != 1:
        return False
    held = [int(y) for y in resolved[0].get("filings") or {}]
    return (latest_by_default(state["question"], plan.model_dump(mode="json"))
            and min(held, default=0) < max(resolved[0].get("fiscal_years") or [0]))


def widened_location(located: dict) -> dict:
    """The same filings and queries, no Items: the whole filing (agent.retrieval.retrieve._item_scope)."""
    return {**located, "items": []}
