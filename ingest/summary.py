"""What an ingest run did, per filing and in total, and how it is printed.

Failures are kept one line each, naming the file and the reason, and Items that a filing lacks
are listed per filing: nothing is dropped silently.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class FilingOutcome:
    source: str  # the file (or URL) it came from
    status: str  # 'ingested' | 'failed'
    reason: str = ""
    accession: str | None = None
    ticker: str | None = None
    fiscal_year: int | None = None
    sections: int = 0
    chunks: int = 0
    facts: int = 0
    missing_items: list[str] = field(default_factory=list)
    form: str = "10-K"
    fiscal_period: str = "FY"
    items: list[str] = field(default_factory=list)  # the Items found, in document order

    @property
    def label(self) -> str:
        if self.form.upper().startswith("10-Q"):
            return f"{self.ticker or '?'} {self.fiscal_period} FY{self.fiscal_year} {self.form} ({self.accession})"
        return f"{self.ticker or '?'} FY{self.fiscal_year} ({self.accession})"


@dataclass
class IngestSummary:
    filings_seen: int = 0
    unchanged: int = 0
    ingested: list[FilingOutcome] = field(default_factory=list)
    failed: list[FilingOutcome] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)  # (file or ticker, reason): not a filing
    companyfacts_loaded: int = 0
    companyfacts_unchanged: int = 0
    tickers_loaded: int = 0
    chunks: int = 0
    facts: int = 0  # fact rows added (documents and companyfacts)
    embedded_chunks: int = 0
    reused_vectors: int = 0  # of those, chunks whose vector was already stored or computed for a twin
    elapsed_s: float = 0.0
    filings_s: float = 0.0  # the 10-K documents alone (companyfacts and the ticker map excluded)
    embed_s: float = 0.0
    chunk_s: float = 0.0  # chunking on the main process (0 when the parsing worker chunks)
    parse_wait_s: float = 0.0  # main process waiting for a parsed document
    write_s: float = 0.0
    index_s: float = 0.0  # building the chunks' vector index after a load into an empty corpus
    parse_cpu_s: float = 0.0  # CPU time of the parse workers (import, parse, chunk); 0 when parsing inline
    write_cpu_s: float = 0.0  # CPU time of the writer thread (companyfacts, rows, COPY, fiscal years), Postgres's own aside
    parse_peak_mb: float = 0.0  # the largest parse worker's peak resident memory
    passages: int = 0  # sentences of the written filings embedded on their own (ingest.passages)

    def add(self, outcome: FilingOutcome) -> None:
        if outcome.status == "ingested":
            self.ingested.append(outcome)
            self.chunks += outcome.chunks
            self.facts += outcome.facts
        else:
            self.failed.append(outcome)

    @property
    def changed(self) -> bool:
        return bool(self.ingested or self.companyfacts_loaded or self.tickers_loaded)

    @property
    def missing_items(self) -> dict[str, list[str]]:
        return {o.label: o.missing_items for o in self.ingested if o.missing_items}

    def lines(self) -> list[str]:
        quarterly = sum(1 for o in self.ingested if o.form.upper().startswith("10-Q"))
        out = [
            f"10-K and 10-Q documents: {self.filings_seen} seen, {len(self.ingested)} ingested"
            + (f" ({len(self.ingested) - quarterly} 10-K, {quarterly} 10-Q)" if quarterly else "")
            + f", {self.unchanged} unchanged, {len(self.failed) - self._cf_failures()} failed",
            f"companyfacts: {self.companyfacts_loaded} loaded, {self.companyfacts_unchanged} unchanged, "
            f"{self._cf_failures()} failed",
            f"added: {self.chunks:,} chunks, {self.facts:,} facts in {self.elapsed_s:.1f}s"
            + (f" (embedding {self.embed_s:.1f}s)" if self.embed_s else "")
            + (f"; {self.passages:,} passages" if self.passages else ""),
        ]
        for label, items in self.missing_items.items():
            out.append(f"missing Items: {label}: {', '.join(items)}")
        for outcome in self.failed:
            out.append(f"FAILED: {outcome.reason}")
        for where, reason in self.errors:
            out.append(f"ERROR: {where}: {reason}" if where not in reason else f"ERROR: {reason}")
        return out

    def _cf_failures(self) -> int:
        return sum(1 for o in self.failed if "/companyfacts/" in o.source.replace("\\", "/"))
