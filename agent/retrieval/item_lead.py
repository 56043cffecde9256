"""Which of a prose question's Items is read first: the routing rules' choice, unless they only
guessed it (a default no topic word nor form of the question chose) and the filing itself tells the
question's subject clearly better in another Item.

Only a guess is ever re-ordered: measured on held-out questions, leading with the filing's closest
Item where a topic word had chosen one sent answers that were right to another Item.

Why: the rules (agent.planning.prose_route) read the form of the question and its topic words. Where
the form is sure ("why did X fall?" is MD&A, "how dependent is X on Y?" the risk factors, a section
named by the user) they stand. Elsewhere they guess from topic words, and a topic word names no
Item: "how does Walgreens turn its foreign results into dollars?" (the notes), "what if the goods
it sells aren't safe?" (the risk factors), "how much room is left on its credit lines?" (MD&A). The
filing answers that better than any word list: each Item's closest passage to the search query,
by the same vectors retrieval ranks with (store.chunks.item_affinity). When one Item's closest
passage is clearly closer (LEAD_MARGIN) than the rules' first Item's, it leads the search; the
rules' Items stay in the bound after it.

A filing's closest passage can be boilerplate that shares the question's words, so the labelled
questions (agent.planning.item_vote) may keep the rules' Item: when they are sure (VETO) the
question is of the kind the rules' first Item answers, it stays first.
"""

from __future__ import annotations

import re

from agent.planning.item_vote import vote
from agent.planning.prose_route import DEPENDENCE, NAMED_SECTION, PAST_CAUSE, asks_rationale
from agent.retrieval.query_vectors import embed_queries
from store import chunks as chunk_store

ROUTED = ("1", "1A", "7", "8")  # the Items the rules choose among
LEAD_MARGIN = 0.04  # cosine by which another Item's closest passage must beat the rules' first Item's
VETO = 0.6  # the labelled questions' share for the rules' first Item that keeps it first
# What the company plans or expects, asked of it ("what does it expect for capex?", "its planned buybacks",
# "the outlook"): stated in MD&A. "Expected" alone is left out: "expected credit losses", "costs expected
# to be recovered" are amounts of the notes.
PLANS = re.compile(r"\b(?:expects?|expecting|expectations?|outlook|guidance|anticipat(?:e|es|ing)|intends?|intending|"
                   r"forecasts?|planned|planning|plans?\s+(?:to|for|on))\b")


def sure_form(low: str) -> bool:
    """The form of the question names its Item: a cause of what happened or a plan or expectation
    (MD&A), a dependence (the risk factors), the reason for a standing choice (the business), or a
    section named outright."""
    return bool(PAST_CAUSE.search(low) or PLANS.search(low) or DEPENDENCE.search(low) or asks_rationale(low)
                or NAMED_SECTION.search(low))


def lead_item(db, embedder, question: str, query: str, items: list[str], *, cik: int,
              accessions: list[str]) -> list[str]:
    """`items` with the Item that tells the question's subject best first, when that is clear (see
    the module's docstring); otherwise `items` as the rules ordered them."""
    if not items or items[0] not in ROUTED or not accessions or embedder is None or sure_form(question.lower()):
        return items
    with db.connection() as conn:
        affinity = chunk_store.item_affinity(conn, embed_queries(embedder, [query])[0], cik=cik, accessions=accessions,
                                             items=list(ROUTED))
    if not affinity:
        return items
    best = max(affinity, key=affinity.get)
    if best == items[0] or affinity[best] - affinity.get(items[0], 0.0) < LEAD_MARGIN:
        return items
    judged = vote(question, embedder)
    if judged is not None and judged.item == items[0] and judged.share >= VETO:
        return items
    return [best, *(i for i in items if i != best)]
