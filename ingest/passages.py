"""The passage step of ingest: each prose sentence of each chunk embedded on its own (store.passages).

Run at the end of every ingest for the filings it wrote while the search weighs passages
(passages_searched), and by `footnote ingest --passages` for a corpus stored before (or to measure
the passage arm before turning it on). A sentence is embedded with its chunk's context prefix (the
company, form, year and Item), as the chunk itself is, so "revenue increased" of one filing stays
apart from another's. Lines shorter than MIN_CHARS (headings, page furniture) are not passages:
they say nothing a question could match that the chunk's own vector does not.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field

from ingest.chunking import _SENTENCE_END, embedding_input
from store import passages as store

log = logging.getLogger(__name__)

MIN_CHARS = 40  # a shorter line is a heading or a fragment, not a passage
MAX_CHARS = 600  # a longer "sentence" is a list run together; its start is what a question matches


@dataclass
class PassageSummary:
    filings: int = 0
    passages: int = 0
    embed_s: float = 0.0
    accessions: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        rate = self.passages / self.embed_s if self.embed_s else 0.0
        return [f"passages: {self.passages:,} sentences of {self.filings} filing(s) embedded in {self.embed_s:.1f} s "
                f"({rate:.0f}/s)"]  # fmt: skip


def sentences(text: str) -> list[str]:
    """The chunk's prose sentences, in order, never across a line break (a line break ends a
    heading or a paragraph in chunk text)."""
    out = []
    for line in (text or "").splitlines():
        for piece in _SENTENCE_END.split(line.strip()):
            piece = " ".join(piece.split())
            if len(piece) >= MIN_CHARS:
                out.append(piece[:MAX_CHARS])
    return out


def passages_searched() -> bool:
    """Whether the hybrid search weighs passages at all (store.chunks.PASSAGE_WEIGHT): when it does
    not, ingest embeds none (they would cost as much time as the chunks and change no answer);
    `footnote ingest --passages` still fills a corpus, to measure the arm before turning it on."""
    from store.chunks import PASSAGE_WEIGHT

    return PASSAGE_WEIGHT > 0


def add_passages(db, embedder, accessions: list[str] | None = None, *, progress: bool = False) -> PassageSummary:
    """Embed and store the passages of every pending filing (of `accessions`, when given), one
    filing per transaction, so an interrupted run keeps the filings it finished."""
    summary = PassageSummary()
    with db.connection() as conn:
        todo = store.pending(conn, accessions)
    for accession in todo:
        with db.connection() as conn:
            chunks = store.prose_chunks(conn, accession)
        rows, inputs = [], []
        for chunk_id, context, text in chunks:
            for ordinal, sentence in enumerate(sentences(text)):
                rows.append((chunk_id, ordinal))
                inputs.append(embedding_input(context, sentence))
        t0 = time.perf_counter()
        vectors = embedder.embed(inputs) if inputs else []
        summary.embed_s += time.perf_counter() - t0
        with db.connection() as conn, conn.transaction():
            store.write_filing(conn, accession, rows, vectors)
            db.bump_corpus_version(conn)  # cached answers were ranked without these
        summary.filings += 1
        summary.passages += len(rows)
        summary.accessions.append(accession)
        if progress:
            log.warning("passages: %s, %d sentences (%d of %d filings)", accession, len(rows), summary.filings, len(todo))
    return summary
