"""The agent's front door for every channel (CLI, Slack, Teams): a Turn in, an Answer out.

Adapters hold one Footnote per process. It owns the compiled graph, its Postgres checkpointer
and the embedder; nothing here knows about Slack or Teams.
"""

from __future__ import annotations

from collections.abc import Callable

from agent.answer import Answer, Turn


class Footnote:
    """Placeholder contract; the graph issue fills it in."""

    def __init__(self, db, embedder, settings, *, llm=None):
        self.db = db
        self.embedder = embedder
        self.settings = settings
        self.llm = llm

    def answer(
        self,
        turn: Turn,
        *,
        on_status: Callable[[str], None] | None = None,
        on_text: Callable[[str], None] | None = None,
    ) -> Answer:
        """Answer one turn in its thread. `on_status` gets short progress notes ("Reading Apple's
        FY2024 10-K..."); `on_text` gets streamed draft text when a model composes (the final,
        verified Answer is what is returned and what must be shown last)."""
        raise NotImplementedError

    def coverage(self, filter_text: str | None = None) -> list[dict]:
        """Covered companies: [{ticker, cik, name, fiscal_years, filings, chunks, facts}]."""
        raise NotImplementedError

    def filings(self, ticker: str) -> list[dict]:
        """A company's ingested filings: [{accession, form, fiscal_year, period_end, filed, url}]."""
        raise NotImplementedError

    def help_text(self) -> str:
        raise NotImplementedError
