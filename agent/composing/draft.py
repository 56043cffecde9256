"""What a composer hands cite_check: discrete claims, each naming the evidence it relies on.

Both composers (extractive and model) produce a Draft; cite_check decides what ships.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, Field


class Evidence(BaseModel):
    """One thing an answer may cite: a retrieved chunk, an XBRL fact, or a computed value."""

    id: str  # stable within a run: 'c:<chunk_id>', 'f:<fact_id>', 'k:<calc name>'
    kind: Literal["chunk", "fact", "calc"]
    text: str  # chunk text, or the fact/calculation rendered as displayed
    ticker: str
    cik: int
    fiscal_year: int
    accession: str
    form: str = "10-K"
    url: str
    item: str | None = None
    concept: str | None = None
    value: str | None = None  # exact decimal string for facts and calcs
    unit: str | None = None
    chunk_id: int | None = None
    score: float | None = None
    period_end: str | None = None  # facts: the period's end date (ISO), for the footnote
    dims: dict[str, str] = Field(default_factory=dict)  # a member's fact: {axis: member}, never the total
    negated: bool = False  # a fact its statement row prints with the opposite sign (line_items.printed_negated)


class Claim(BaseModel):
    text: str  # one sentence as the user will read it, without markers
    evidence_id: str  # the Evidence.id it relies on
    kind: Literal["prose", "number"] = "prose"
    quote: str | None = None  # prose: the whole verbatim sentence, when the text shows only part of it
    figures: list[str] = Field(default_factory=list)  # prose: the XBRL facts (of the same filing) its amounts equal


class Draft(BaseModel):
    intro: str = ""  # a lead-in line with no figures ("From Apple's fiscal 2024 10-K:"); checked too
    claims: list[Claim] = Field(default_factory=list)
    tables: list[dict] = Field(default_factory=list)  # agent.answer.Table fields, cells citing evidence ids
    composer: str = "extractive"
    fallback: str | None = None


def possessive(name: str) -> str:
    """A company's name as owner. A name that is already a possessive ("McDonald's", "Lowe's") is its
    own owner form: adding another mark would print "McDonald's'"."""
    if re.search(r"['’]s$", name):
        return name
    return f"{name}'" if name.endswith("s") else f"{name}'s"
