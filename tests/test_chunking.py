"""Chunks fit the embedding model whole: measured with the real MiniLM tokenizer."""

from datetime import date

import pytest

from ingest.chunking import chunk_sections, context_prefix, embedding_input
from store.parsed import FilingMeta, Section

META = FilingMeta(
    cik=9999001,
    company="Example Widgets Inc.",
    ticker="WDGT",
    form="10-K",
    fiscal_year=2024,
    fiscal_period="FY",
    period_end=date(2024, 1, 28),
    accession="0009999001-24-000001",
)

# Our own prose. Long sentences, numbers, hyphenated words and abbreviations: the word-piece
# count of such text is far above its word count, which is what a character budget misses.
SENTENCES = [
    "Revenue from precision gears rose in fiscal 2024 as appliance makers rebuilt inventories.",
    "Our three largest customers, each a maker of washing machines, dryers and dishwashers in "
    "North America and Europe, together accounted for approximately 52.3% of consolidated net "
    "revenue, compared with 48.9% in fiscal 2023 and 47.1% in fiscal 2022, and we expect that "
    "concentration to persist because long-term supply agreements (LTSAs) with those customers "
    "run through fiscal 2027, subject to early-termination rights exercisable on 180 days' notice.",
    "Metal costs fell.",
    'Management called the year "a turning point." (Orders rose in every region.)',
    "A twenty-basis-point change in the EUR/USD exchange rate would change revenue by about "
    "$2.4 million, and a 10% change in copper, nickel, zinc or cold-rolled steel prices would "
    "change cost of revenue by $11.7 million, $3.2 million, $0.9 million and $14.6 million "
    "respectively, before any pass-through under the index-linked pricing clauses described in "
    "Note 7, which reset quarterly (Q1-Q4) on the basis of the LME and CRU indices.",
]


def _long_text(n_paragraphs: int = 12) -> str:
    paras = []
    for i in range(n_paragraphs):
        paras.append(" ".join(SENTENCES[(i + k) % len(SENTENCES)] for k in range(6)))
    # One sentence with no full stop at all, far longer than a chunk: must be split by words.
    paras.append(", ".join(f"item {i} of the list of plant-and-equipment categories" for i in range(120)))
    return "\n\n".join(paras)


@pytest.fixture(scope="module")
def long_chunks(embedder):
    section = Section(item="7", title="Management's Discussion and Analysis", text=_long_text(),
                      start_offset=None, end_offset=None, method="edgartools")
    return chunk_sections(META, [section], count_tokens=embedder.count_tokens, max_tokens=embedder.max_tokens)


def test_no_chunk_exceeds_the_model_window(embedder, long_chunks):
    assert embedder.max_tokens == 256
    assert len(long_chunks) > 10
    for c in long_chunks:
        real = embedder.count_tokens(embedding_input(c.context, c.text))
        assert real <= embedder.max_tokens, (real, c.text[:80])
        assert c.n_tokens == real


def test_chunks_are_not_tiny_and_cover_the_text(long_chunks):
    # Windows are filled: on average well over half the budget.
    assert sum(c.n_tokens for c in long_chunks) / len(long_chunks) > 150
    joined = " ".join(c.text for c in long_chunks)
    for word in ("LTSAs", "CRU", "item 119 of the list"):
        assert word in joined


def test_sentences_are_kept_verbatim(long_chunks):
    joined = "\n".join(c.text for c in long_chunks)
    for sentence in SENTENCES:
        assert sentence in joined, sentence


def test_ordinals_and_context(long_chunks):
    assert [c.ordinal for c in long_chunks] == list(range(len(long_chunks)))
    ctx = "Example Widgets Inc. (WDGT) 10-K FY2024 — Item 7 Management's Discussion and Analysis:"
    assert {c.context for c in long_chunks} == {ctx}
    assert context_prefix(META, "1A") == "Example Widgets Inc. (WDGT) 10-K FY2024 — Item 1A Risk Factors:"


def test_consecutive_windows_overlap(long_chunks):
    prose = [c for c in long_chunks if not c.is_table]
    overlapping = sum(1 for a, b in zip(prose, prose[1:]) if b.text.split(". ")[0] in a.text)
    assert overlapping >= len(prose) // 2


def test_tables_are_whole_chunks_in_document_order(embedder):
    table = "Fiscal 2024 | Fiscal 2023\nRevenue | $1,234.5 | $1,100.0\nNet income | $150 | $120"
    text = f"Item 7. Results\n\nRevenue grew in fiscal 2024.\n\n{table}\n\nNet income rose too."
    section = Section(item="7", title="Management's Discussion and Analysis", text=text,
                      start_offset=0, end_offset=len(text), method="edgartools", tables=(table,))
    chunks = chunk_sections(META, [section], count_tokens=embedder.count_tokens, max_tokens=256)
    assert [c.is_table for c in chunks] == [False, True, False]
    assert chunks[1].text == table
    assert "Revenue | $1,234.5" not in chunks[0].text + chunks[2].text


def test_long_table_is_split_by_rows_with_the_header_repeated(embedder):
    header = "Segment | Fiscal 2024 | Fiscal 2023 | Fiscal 2022"
    rows = [f"Product line number {i} revenue, net of returns | ${i * 13},{i:03d} | ${i * 11},{i:03d} | ${i * 7},{i:03d}"
            for i in range(1, 80)]
    table = "\n".join([header, *rows])
    section = Section(item="8", title="Financial Statements and Supplementary Data", text=table,
                      start_offset=None, end_offset=None, method="edgartools", tables=(table,))
    chunks = chunk_sections(META, [section], count_tokens=embedder.count_tokens, max_tokens=256)
    assert len(chunks) > 3
    assert all(c.is_table for c in chunks)
    assert all(c.text.split("\n")[0] == header for c in chunks)
    assert all(c.n_tokens <= 256 for c in chunks)
    body = [line for c in chunks for line in c.text.split("\n")[1:]]
    assert body == rows  # every row once, in order, none cut


def test_a_multi_line_header_is_repeated_whole(embedder):
    header = ["Years ended", "January 28, | January 29, | January 30,", "2024 | 2023 | 2022"]
    rows = [f"Cost line {i} of the consolidated statement of operations | {i},{i:03d} | ({i},500) | $1,{i:03d}"
            for i in range(1, 60)]
    table = "\n".join(header + ["Operating expenses:"] + rows)
    section = Section(item="8", title="Financial Statements and Supplementary Data", text=table,
                      start_offset=None, end_offset=None, method="edgartools", tables=(table,))
    chunks = chunk_sections(META, [section], count_tokens=embedder.count_tokens, max_tokens=256)
    assert len(chunks) > 2
    assert all(c.text.split("\n")[:3] == header for c in chunks)
    assert chunks[0].text.split("\n")[3] == "Operating expenses:"


def test_tables_not_found_in_text_are_still_chunked(embedder):
    section = Section(item="8", title="", text="Short prose.", start_offset=None, end_offset=None,
                      method="headings", tables=("A | 1 | 2\nB | 3 | 4",))
    chunks = chunk_sections(META, [section], count_tokens=embedder.count_tokens, max_tokens=256)
    assert [(c.text, c.is_table) for c in chunks] == [("Short prose.", False), ("A | 1 | 2\nB | 3 | 4", True)]


def test_an_undercounting_tokenizer_is_caught_by_the_final_check():
    # A count that is not additive (bytes/3, like the OpenAI estimate): the final check still holds.
    count = lambda s: len(s.encode()) // 3 + 1  # noqa: E731
    section = Section(item="1A", title="Risk Factors", text=_long_text(4), start_offset=None,
                      end_offset=None, method="edgartools")
    chunks = chunk_sections(META, [section], count_tokens=count, max_tokens=120)
    assert chunks and all(count(embedding_input(c.context, c.text)) <= 120 for c in chunks)


def test_chunking_is_fast(embedder):
    import time

    section = Section(item="1A", title="Risk Factors", text=_long_text(200), start_offset=None,
                      end_offset=None, method="edgartools")
    t0 = time.perf_counter()
    chunks = chunk_sections(META, [section], count_tokens=embedder.count_tokens, max_tokens=256)
    elapsed = time.perf_counter() - t0
    n_chars = len(section.text)
    assert chunks
    # ~250k characters: counting once per sentence keeps this well under the time to embed them.
    assert elapsed < 5.0, (elapsed, n_chars)


def test_each_chunk_is_counted_once_its_fit_check_giving_its_n_tokens(embedder):
    """The fit check's count is the chunk's n_tokens: counting the same input twice cost a
    share of every filing's parse."""
    seen: list[str] = []

    def counting(text: str) -> int:
        seen.append(text)
        return embedder.count_tokens(text)

    section = Section(item="7", title="Management's Discussion and Analysis", text=_long_text(),
                      start_offset=None, end_offset=None, method="edgartools")
    chunks = chunk_sections(META, [section], count_tokens=counting, max_tokens=embedder.max_tokens)
    inputs = [embedding_input(c.context, c.text) for c in chunks]
    assert len(chunks) > 10
    assert all(seen.count(text) == inputs.count(text) for text in inputs)  # once per chunk (texts may repeat)
    assert [c.n_tokens for c in chunks] == [embedder.count_tokens(text) for text in inputs]


def test_an_additive_counter_sums_each_chunk_from_its_pieces_to_the_same_chunks(embedder):
    """BERT's word pieces never span a space, so a chunk's count is the sum of its sentences',
    rows' or words' counts: the chunks and their n_tokens are the ones counting each chunk gives,
    and no assembled chunk is counted again."""
    counter = embedder.token_counter()
    assert counter.additive
    seen: list[str] = []

    class Counting:
        additive = True

        def __call__(self, text: str) -> int:
            seen.append(text)
            return counter(text)

    rows = ["Segment | 2024 | 2023"] + [f"Region {i} plant-and-equipment, net (Note {i}) | $1,{i:03d}.5 | (2{i}.7)" for i in range(60)]
    sections = [
        Section(item="7", title="Management's Discussion and Analysis", text=_long_text(), start_offset=None,
                end_offset=None, method="edgartools"),
        Section(item="8", title="", text="Intro.\n\n" + "\n".join(rows), start_offset=None, end_offset=None,
                method="edgartools", tables=("\n".join(rows),)),
    ]  # fmt: skip
    summed = chunk_sections(META, sections, count_tokens=Counting(), max_tokens=embedder.max_tokens)
    counted = chunk_sections(META, sections, count_tokens=embedder.count_tokens, max_tokens=embedder.max_tokens)
    assert summed == counted and len(summed) > 10 and any(c.is_table for c in summed)
    assert not {embedding_input(c.context, c.text) for c in summed} & set(seen)


def test_a_piece_repeated_in_a_filing_is_counted_once(embedder):
    """Filings repeat sentences and rows (totals, headings, boilerplate); counting is most of
    chunking's CPU, so each distinct piece is counted once and the chunks are the same."""
    seen: list[str] = []

    def counting(text: str) -> int:
        seen.append(text)
        return embedder.count_tokens(text)

    rows = ["Segment | 2024 | 2023"] + ["Total | $1,000.5 | (27.7)", "Other | 3 | 4"] * 40
    sections = [
        Section(item="7", title="Management's Discussion and Analysis", text=_long_text(), start_offset=None,
                end_offset=None, method="edgartools"),
        Section(item="8", title="", text="Intro.\n\n" + "\n".join(rows), start_offset=None, end_offset=None,
                method="edgartools", tables=("\n".join(rows),)),
    ]  # fmt: skip
    chunks = chunk_sections(META, sections, count_tokens=counting, max_tokens=embedder.max_tokens)
    whole = {embedding_input(c.context, c.text) for c in chunks}
    whole |= {embedding_input(context_prefix(META, s.item, s.title), "") for s in sections}
    pieces = [text for text in seen if text not in whole]
    assert len(pieces) > 20 and len(pieces) == len(set(pieces))
    assert sum(SENTENCES[0] == p for p in pieces) == 1  # a sentence the text holds a dozen times
    assert chunks == chunk_sections(META, sections, count_tokens=embedder.count_tokens, max_tokens=embedder.max_tokens)
