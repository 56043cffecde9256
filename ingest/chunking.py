"""Cut an Item into chunks that the embedding model sees whole.

all-MiniLM-L6-v2 silently truncates past 256 word pieces, so every chunk is sized in the
model's own tokens with its context prefix included, and checked once more after assembly:
nothing is ever cut by the model. Prose is packed sentence by sentence into overlapping
windows (a sentence too long for a window is split by words); financial tables are their own
chunks, kept whole when they fit, otherwise split by rows with the header row repeated.

Counting is done once per sentence or row, not per candidate window: the counts of
whitespace-separated pieces add up (word-piece tokenizers split on whitespace first), less the
special tokens that `count_tokens` includes in every call. A counter that says its counts add up
exactly (`count_tokens.additive`: BERT's per-character normalizer, its whitespace and punctuation
pre-tokenizer and word pieces, store.embedding.TokenCounter) has each assembled chunk's count
summed from its pieces' instead of counted again; any other counter (tiktoken's BPE merges across
a space) has every chunk counted whole.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from store.parsed import ChunkDraft, FilingMeta, Section
from store.items import QUARTERLY_TITLES, item_label

ITEM_TITLES = {
    "1": "Business",
    "1A": "Risk Factors",
    "1B": "Unresolved Staff Comments",
    "1C": "Cybersecurity",
    "2": "Properties",
    "3": "Legal Proceedings",
    "7": "Management's Discussion and Analysis",
    "7A": "Quantitative and Qualitative Disclosures About Market Risk",
    "8": "Financial Statements and Supplementary Data",
}

# A sentence ends at . ! ? (optionally closed by a quote or bracket) followed by whitespace and
# something that can start a sentence.
_SENTENCE_END = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][\"'”’)\]]))\s+(?=[\"'“‘(\[]?[A-Z0-9•●▪■\-–—$])")
_PARAGRAPHS = re.compile(r"\n\s*\n")


def context_prefix(meta: FilingMeta, item: str, title: str | None = None) -> str:
    """`Apple Inc. (AAPL) 10-K FY2024 — Item 1A Risk Factors:` (a 10-Q's: `... 10-Q Q2 FY2024 —
    Part II, Item 1A Risk Factors:`): embedded with every chunk."""
    who = f"{meta.company} ({meta.ticker})" if meta.ticker else meta.company
    title = title or ITEM_TITLES.get(item) or QUARTERLY_TITLES.get(item, "")
    label = f"{item_label(item)} {title}".strip()
    period = f"{meta.fiscal_period} FY{meta.fiscal_year}" if meta.is_quarterly else f"FY{meta.fiscal_year}"
    return f"{who} {meta.form} {period} — {label}:"


def embedding_input(context: str, text: str) -> str:
    """The exact string embedded for a chunk (and the one its n_tokens counts)."""
    return f"{context}\n{text}"


def chunk_sections(
    meta: FilingMeta,
    sections: list[Section],
    *,
    count_tokens: Callable[[str], int],
    max_tokens: int,
    target_tokens: int | None = None,
    overlap_tokens: int = 32,
) -> list[ChunkDraft]:
    """Chunks for every Item, ordinals 0..n-1 per Item in document order; none exceeds max_tokens.

    `count_tokens` counts a string in the model's tokens, special tokens included; max_tokens
    bounds `embedding_input(context, text)`. target_tokens is the preferred size of a prose
    window's text (default: all the room the context prefix leaves); consecutive prose windows
    share up to overlap_tokens of whole sentences.
    """
    chunker = _Chunker(count_tokens, max_tokens)
    out: list[ChunkDraft] = []
    for section in sections:
        context = context_prefix(meta, section.item, section.title)
        budget = max_tokens - count_tokens(embedding_input(context, ""))
        if budget < 16:
            raise ValueError(f"context prefix leaves no room for text: {context!r}")
        target = min(target_tokens or budget, budget)
        overlap = max(0, min(overlap_tokens, target // 2))
        pieces: list[tuple[str, bool, int]] = []
        for block, is_table in _blocks(section):
            if is_table:
                pieces.extend((t, True, c) for t, c in chunker.table_parts(block, budget))
            else:
                pieces.extend((t, False, c) for t, c in chunker.prose_windows(block, target, budget, overlap))
        ordinal = 0
        for text, is_table, cost in pieces:
            for part, n_tokens in chunker.verified(context, text, cost):
                out.append(
                    ChunkDraft(
                        item=section.item,
                        ordinal=ordinal,
                        text=part,
                        context=context,
                        is_table=is_table,
                        n_tokens=n_tokens,
                    )
                )
                ordinal += 1
    return out


def _blocks(section: Section) -> list[tuple[str, bool]]:
    """The Item as (text, is_table) runs in document order.

    Tables appear in `section.text` as whole paragraphs identical to an entry of
    `section.tables`; a table not found there is appended after the prose.
    """
    tables = {t.strip() for t in section.tables if t.strip()}
    found: set[str] = set()
    blocks: list[tuple[str, bool]] = []
    prose: list[str] = []
    for para in _PARAGRAPHS.split(section.text):
        para = para.strip()
        if not para:
            continue
        if para in tables:
            if prose:
                blocks.append(("\n\n".join(prose), False))
                prose = []
            blocks.append((para, True))
            found.add(para)
        else:
            prose.append(para)
    if prose:
        blocks.append(("\n\n".join(prose), False))
    for t in section.tables:
        if t.strip() and t.strip() not in found:
            blocks.append((t.strip(), True))
            found.add(t.strip())
    return blocks


class _Chunker:
    """Pieces come with their exact cost (the sum of their sentences', rows' or words' costs) beside
    the budgeted one, which adds a token of headroom per piece boundary and decides the cuts."""

    def __init__(self, count_tokens: Callable[[str], int], max_tokens: int):
        self.count = count_tokens
        self.max_tokens = max_tokens
        self.specials = count_tokens("")
        self.additive = bool(getattr(count_tokens, "additive", False))
        self._prefix: dict[str, int] = {}  # context -> tokens of embedding_input(context, "")
        # piece -> its cost. A filing repeats many pieces (a table's 'Total' rows, its column
        # headings, boilerplate sentences): about a quarter of the counts asked of a 10-K, and
        # counting is most of chunking's CPU, which the parse worker spends beside the embedder.
        self._costs: dict[str, int] = {}

    def cost(self, piece: str) -> int:
        """Tokens a piece adds to a window (its count without the special tokens)."""
        c = self._costs.get(piece)
        if c is None:
            c = self._costs[piece] = max(0, self.count(piece) - self.specials)
        return c

    # -- prose ---------------------------------------------------------------------------
    def prose_windows(self, text: str, target: int, budget: int, overlap: int) -> list[tuple[str, int]]:
        units: list[tuple[str, int, bool, int]] = []  # (sentence, cost, starts a paragraph, exact cost)
        for para in _PARAGRAPHS.split(text):
            para = " ".join(para.split())
            if not para:
                continue
            first = True
            for sentence in _SENTENCE_END.split(para):
                sentence = sentence.strip()
                if not sentence:
                    continue
                c = self.cost(sentence)
                if c > budget:
                    for part, pc, exact in self.split_words(sentence, budget):
                        units.append((part, pc, first, exact))
                        first = False
                else:
                    units.append((sentence, c, first, c))
                    first = False
        windows: list[tuple[str, int]] = []
        i = 0
        while i < len(units):
            total, j = 0, i
            while j < len(units) and (j == i or total + units[j][1] + 1 <= target):
                total += units[j][1] + 1  # +1: headroom for a piece boundary merging differently
                j += 1
            windows.append((_join(units[i:j]), sum(u[3] for u in units[i:j])))
            if j >= len(units):
                break
            # Step back over trailing sentences worth at most `overlap` tokens, always advancing.
            k, back = j, 0
            while k - 1 > i and back + units[k - 1][1] <= overlap:
                back += units[k - 1][1]
                k -= 1
            i = k
        return windows

    def split_words(self, text: str, budget: int) -> list[tuple[str, int, int]]:
        """Split an over-long sentence (or row) into runs of words that fit `budget`:
        (run, budgeted cost, exact cost)."""
        parts: list[tuple[str, int, int]] = []
        current: list[str] = []
        total = exact = 0
        for word in text.split():
            c = self.cost(word)
            if c > budget:  # one enormous 'word' (a URL, a run of digits): cut it by characters
                if current:
                    parts.append((" ".join(current), total, exact))
                    current, total, exact = [], 0, 0
                parts.extend((piece, pc, pc) for piece, pc in self._split_chars(word, budget))
                continue
            if current and total + c + 1 > budget:
                parts.append((" ".join(current), total, exact))
                current, total, exact = [], 0, 0
            current.append(word)
            total += c + 1
            exact += c
        if current:
            parts.append((" ".join(current), total, exact))
        return parts

    def _split_chars(self, word: str, budget: int) -> list[tuple[str, int]]:
        c = self.cost(word)
        if c <= budget or len(word) <= 1:
            return [(word, c)]
        mid = len(word) // 2
        return self._split_chars(word[:mid], budget) + self._split_chars(word[mid:], budget)

    # -- tables --------------------------------------------------------------------------
    def table_parts(self, table: str, budget: int) -> list[tuple[str, int]]:
        """(part, exact cost) runs of rows, the header rows repeated atop each when it is split."""
        rows = [r for r in table.split("\n") if r.strip()]
        if not rows:
            return []
        costs = [self.cost(r) for r in rows]
        if sum(costs) + len(rows) <= budget:
            return [("\n".join(rows), sum(costs))]
        n_head = _header_rows(rows)
        header, header_cost = "\n".join(rows[:n_head]), sum(costs[:n_head]) + n_head
        header_exact = sum(costs[:n_head])
        if header_cost > budget // 2:  # a header that big cannot be repeated usefully
            header, header_cost, header_exact = "", 0, 0
            body = list(zip(rows, costs))
        else:
            body = list(zip(rows[n_head:], costs[n_head:]))
        room = budget - header_cost - 1
        parts: list[tuple[str, int]] = []
        current: list[str] = []
        total = exact = 0
        for row, c in body:
            if c + 1 > room:
                if current:
                    parts.append((_table_text(header, current), header_exact + exact))
                    current, total, exact = [], 0, 0
                parts.extend((_table_text(header, [p]), header_exact + pc) for p, _, pc in self.split_words(row, room - 1))
                continue
            if current and total + c + 1 > room:
                parts.append((_table_text(header, current), header_exact + exact))
                current, total, exact = [], 0, 0
            current.append(row)
            total += c + 1
            exact += c
        if current:
            parts.append((_table_text(header, current), header_exact + exact))
        return parts

    # -- the final check -----------------------------------------------------------------
    def verified(self, context: str, text: str, cost: int | None = None) -> list[tuple[str, int]]:
        """(text, tokens of context + text) as one chunk if it fits, else halves of it, checked
        again. The count is handed on: it is the chunk's n_tokens, not counted a second time.
        `cost`, the text's exact cost summed from its pieces, stands for counting it when the
        counter's counts add up."""
        if cost is not None and self.additive:
            if context not in self._prefix:
                self._prefix[context] = self.count(embedding_input(context, ""))
            n = self._prefix[context] + cost
        else:
            n = self.count(embedding_input(context, text))
        if n <= self.max_tokens:
            return [(text, n)]
        words = text.split(" ") if " " in text else None
        if words and len(words) > 1:
            mid = len(words) // 2
            left, right = " ".join(words[:mid]), " ".join(words[mid:])
        elif len(text) > 1:
            mid = len(text) // 2
            left, right = text[:mid], text[mid:]
        else:
            raise ValueError("a single character exceeds the token budget")
        return self.verified(context, left) + self.verified(context, right)


def _join(units: list[tuple[str, int, bool, int]]) -> str:
    out: list[str] = []
    for i, (sentence, _, starts_paragraph, _) in enumerate(units):
        if i and starts_paragraph:
            out.append("\n\n")
        elif i:
            out.append(" ")
        out.append(sentence)
    return "".join(out)


_AMOUNT_CELL = re.compile(r"^[\$€£(]*[-−]?\d[\d,.]*%?\)?%?$")
_YEAR_CELL = re.compile(r"^(?:fiscal\s+|fy\s*)?(?:19|20)\d\d$", re.IGNORECASE)


def _header_rows(rows: list[str]) -> int:
    """How many leading rows are column headings ("Years ended" / "September 28, | ..." / "2024 | 2023").

    A heading row carries no amounts (years aside); after the first row it must have several
    cells, so a section label such as "Net sales:" ends the header.
    """
    n = 0
    for i, row in enumerate(rows[:5]):
        cells = [c.strip() for c in row.split(" | ")]
        has_amount = any(_AMOUNT_CELL.match(c) and not _YEAR_CELL.match(c) for c in cells)
        if has_amount or (i > 0 and len(cells) < 2):
            break
        n = i + 1
    return max(1, min(n, len(rows) - 1))


def _table_text(header: str, rows: list[str]) -> str:
    return "\n".join([header, *rows]) if header else "\n".join(rows)
