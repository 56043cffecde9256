"""The Answer: one model for every channel. Rendering it is the adapters' job, not the agent's."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, Field, field_validator

RefusalReason = Literal[
    "no_company",
    "ambiguous_company",
    "not_covered",
    "year_not_available",
    "unknown_metric",
    "ambiguous_metric",
    "out_of_scope",
    "no_grounding",
    "input_too_long",
    "internal_error",
]


MAX_QUESTION_CHARS = 2000  # a question, not a pasted document: 20 KB is refused politely


class Turn(BaseModel):
    """What an adapter hands the agent: nothing platform-specific."""

    thread_key: str  # e.g. slack:T1:C1:1700000000.000100, teams:tenant:conv, cli:default
    user: str
    text: str

    @field_validator("thread_key", "user", "text")
    @classmethod
    def _storable(cls, value: str) -> str:
        """Every field is stored (checkpoints, cache, logs): no NUL, no unpaired surrogate."""
        from agent.input_text import clean_text

        return clean_text(value)


class Citation(BaseModel):
    n: int
    ticker: str
    cik: int
    form: str
    fiscal_year: int
    accession: str
    url: str
    item: str | None = None  # prose citations: the 10-K Item
    concept: str | None = None  # numeric citations: the XBRL concept, e.g. us-gaap:Revenues
    quote: str | None = None  # the verbatim text relied on
    value: str | None = None  # the fact's value as a decimal string
    chunk_id: int | None = None
    period_end: date | None = None


class Number(BaseModel):
    value: str  # exact decimal string, never a float
    unit: str
    concept: str
    ticker: str
    fiscal_year: int
    period_end: date | None = None
    citation: int | None = None
    dims: dict[str, str] = Field(default_factory=dict)  # a segment, product or region member: {axis: member}


class Table(BaseModel):
    title: str
    columns: list[str]
    rows: list[list[str]]
    cell_citations: list[list[list[int]]] = Field(default_factory=list)  # per row, per cell: markers


class Calculation(BaseModel):
    metric: str
    formula: str
    steps: list[str]  # human-readable trace, each input with its [n]
    result: str


class Answer(BaseModel):
    kind: Literal["answer", "refusal", "meta"]
    text: str  # markdown with [n] markers
    refusal_reason: RefusalReason | None = None
    citations: list[Citation] = Field(default_factory=list)
    numbers: list[Number] = Field(default_factory=list)
    tables: list[Table] = Field(default_factory=list)
    calculation: list[Calculation] = Field(default_factory=list)
    planner: str = "rules"
    composer: str = "extractive"
    fallback: str | None = None  # why a model path fell back to the deterministic one
    partial: bool = False  # some claims failed their check and were dropped
    cached: bool = False
    timings: dict[str, float] = Field(default_factory=dict)  # milliseconds per node
    route: Literal["meta", "domain", "refusal"] | None = None
    plan: dict | None = None  # the plan the answer was built from, for traces and evals
    retrieved: list[int] = Field(default_factory=list)  # chunk ids retrieve returned, best first: evals score Recall@k
