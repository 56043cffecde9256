"""Find 10-K Items in plain document text by their headings, and tidy an Item's text.

The fallback for when edgartools returns an empty or cross-reference-only Item: every line
shaped like an Item heading ("Item 7. Management's Discussion ...") is a candidate; the table of
contents and page headers lose to the body heading because the body heading is followed by the
longest run of text before the next Item. Tables are recognised in the rendered text (rows of
cells separated by runs of spaces) and re-rendered as `cell | cell` rows, so the chunker can
keep them whole.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

WANTED_ITEMS = ("1", "1A", "1C", "7", "7A", "8")

# Heading title words per Item: a heading line must name its Item's subject (or stop at the
# number), which keeps cross-references like "Item 8 of this report contains" out.
TITLE_WORDS = {
    "1": r"business",
    "1A": r"risk\s+factors",
    "1B": r"unresolved",
    "1C": r"cyber",
    "1D": r"",
    "2": r"propert",
    "3": r"legal",
    "4": r"mine|submission|\(?removed|reserved",
    "5": r"market",
    "6": r"\[?\s*reserved|selected",
    "7": r"management",
    "7A": r"quantitative|market\s+risk",
    "8": r"financial\s+statements",
    "9": r"changes\s+in|disagreements",
    "9A": r"controls",
    "9B": r"other\s+information",
    "9C": r"disclosure|foreign",
    "10": r"directors",
    "11": r"executive\s+compensation",
    "12": r"security\s+ownership",
    "13": r"certain\s+relationships",
    "14": r"principal\s+account",
    "15": r"exhibit",
    "16": r"form\s+10-k\s+summary|summary",
}

_HEADING = re.compile(
    r"^[ \t]*(?:part\s+[ivx]+\s*[,.:\-–—]?\s*)?items?[ \t\u00a0]+(\d{1,2}[a-d]?)\b[ \t\u00a0]*[.:\-–—]?[ \t\u00a0]*(.*)$",
    re.IGNORECASE | re.MULTILINE,
)
HEADING = _HEADING  # an Item heading line: group 1 the Item number, group 2 the rest of the line (ingest.sections10q)
_STUB_REFERENCE = re.compile(
    r"incorporated\s+(?:herein\s+)?by\s+reference|is\s+(?:set\s+forth|included|contained|presented|found)"
    r"|are\s+(?:set\s+forth|included|contained|presented)|see\s+(?:the\s+)?(?:information|item|part|note|[\"“])"
    r"|refer\s+to|appears?\s+(?:under|in|on)|beginning\s+on\s+page|can\s+be\s+found|not\s+applicable",
    re.IGNORECASE,
)
_FS_START = re.compile(
    r"^[ \t]*(?:report\s+of\s+independent\s+registered\s+public\s+accounting\s+firm|"
    r"consolidated\s+statements?\s+of\s+(?:income|operations|earnings))\b",
    re.IGNORECASE | re.MULTILINE,
)
_AMOUNT = re.compile(r"\d{1,3},\d{3}")
_MIN_AMOUNTS = 10
_FS_END = re.compile(
    r"^[ \t]*(?:exhibit\s+index|index\s+to\s+exhibits|signatures|schedule\s+ii\b|item\s+16\b)",
    re.IGNORECASE | re.MULTILINE,
)


@dataclass(frozen=True)
class ItemText:
    text: str
    start: int | None
    end: int | None
    relocated: bool = False  # Item 8's statements found under another heading (Item 15)


def find_items(full: str) -> dict[str, ItemText]:
    """Each Item's text in `full`, located by its body heading."""
    heads: list[tuple[int, str]] = []
    for m in _HEADING.finditer(full):
        item = m.group(1).upper()
        if item not in TITLE_WORDS:
            continue
        rest = " ".join(m.group(2).split())
        if len(rest) > 200:
            continue
        words = TITLE_WORDS[item]
        if rest and words and not re.match(rf"[\W\d]*(?:[\w’'&,\s-]*?\s)?(?:{words})", rest, re.IGNORECASE):
            if not re.match(r"^(?:and|&|,)\s*\d", rest):  # "Items 1 and 2. Business and Properties"
                continue
        heads.append((m.start(), item))
    heads.sort()
    best: dict[str, tuple[int, int, int]] = {}  # item -> (span, start, end)
    for i, (pos, item) in enumerate(heads):
        end = len(full)
        for npos, nitem in heads[i + 1:]:
            if nitem != item:
                end = npos
                break
        span = end - pos
        if item not in best or span > best[item][0]:
            best[item] = (span, pos, end)
    out = {item: ItemText(full[start:end].strip(), start, end) for item, (_, start, end) in best.items()}
    fs = _financial_statements(full, best)
    if fs is not None and ("8" not in out or is_stub(out["8"].text, "8")):
        out["8"] = fs
    return out


def _financial_statements(full: str, best: dict[str, tuple[int, int, int]]) -> ItemText | None:
    """The statements themselves when Item 8 only points to them (often under Item 15)."""
    if "8" not in best:
        return None
    _, start8, end8 = best["8"]
    if not is_stub(full[start8:end8], "8"):
        return None
    # An index of the statements comes first and looks the same; the statements themselves
    # are the longest run from a start heading to the exhibits, schedules or signatures.
    spans = []
    for m in _FS_START.finditer(full, end8):
        stop = _FS_END.search(full, m.end())
        end = stop.start() if stop else len(full)
        spans.append((end - m.start(), m.start(), end))
    if not spans:
        return None
    size, start, end = max(spans)
    if size < 2000:
        return None
    # Statements are tables of amounts; a list of exhibits or an index of pages is not.
    if len(_AMOUNT.findall(full, start, end)) < _MIN_AMOUNTS:
        return None
    heading = full[start8:end8].strip()
    text = heading + "\n\n" + full[start:end].strip()
    return ItemText(text, start, end, relocated=True)


def split_statements(text: str) -> int | None:
    """Where the financial statements begin inside another Item's text (PepsiCo puts them in
    Item 7), or None. A contents line ("Consolidated Statement of Income | 61") is not a start:
    a start is followed closely by tables of amounts."""
    for m in _FS_START.finditer(text):
        line_end = text.find("\n", m.start())
        line = text[m.start(): line_end if line_end >= 0 else len(text)]
        if re.search(r"\|\s*\d{1,3}\s*$", line):
            continue
        if len(_AMOUNT.findall(text, m.start(), m.start() + 4000)) >= _MIN_AMOUNTS:
            return m.start()
    return None


def overlap_ratio(text: str, other: str) -> float:
    """Share of `text`'s long paragraphs that also appear in `other`."""
    paras = [p for p in text.split("\n\n") if len(p) > 200]
    if not paras:
        return 0.0
    return sum(1 for p in paras if p in other) / len(paras)


_MAJOR_HEADING = re.compile(
    r"critical\s+accounting|recent(?:ly)?\s+(?:issued\s+)?accounting|non-gaap|cautionary|forward-looking"
    r"|results\s+of\s+operations|liquidity\s+and\s+capital|off-balance|contractual\s+obligations",
    re.IGNORECASE,
)
_POINTED_MAX_CHARS = 15000


def resolve_pointer(stub: str, target: str) -> str | None:
    """The part of `target` (Item 7) that a stub Item points to ("See 'Risk Management' in Item 7").

    The named heading is the heading paragraph of `target` whose words appear in the pointer,
    the one named last (the most specific in "MD&A - Liquidity - Market risk"). The part runs to
    the next heading of the same capitals style, a major MD&A heading, or a size cap.
    """
    pointer = " ".join(body_of(stub.strip()).split()).lower()
    paras = target.split("\n\n")
    named: list[tuple[int, int, int]] = []  # (start, end) in the pointer, paragraph index
    for i, para in enumerate(paras[1:], start=1):
        head = para.strip().rstrip(".:")
        if not _is_heading(para) or len(head) < 8 or head.lower().startswith("item"):
            continue
        at = pointer.rfind(head.lower())
        if at >= 0:
            named.append((at, at + len(head), i))
    # "Credit Risk" inside "... Commodity Price and Credit Risk Exposure" is not what is named.
    named = [n for n in named if not any(o[0] <= n[0] and n[1] <= o[1] and o[:2] != n[:2] for o in named)]
    if not named:
        return None
    start = max(named)[2]
    upper = paras[start].isupper()
    out = [paras[start]]
    size = len(paras[start])
    for para in paras[start + 1:]:
        if _is_heading(para) and ((upper and para.isupper()) or _MAJOR_HEADING.search(para)):
            break
        if size + len(para) > _POINTED_MAX_CHARS:
            break
        out.append(para)
        size += len(para) + 2
    while len(out) > 1 and _is_heading(out[-1]):
        out.pop()  # a heading whose text was left out
    return "\n\n".join(out) if len(out) > 1 else None


def _is_heading(para: str) -> bool:
    para = para.strip()
    return 0 < len(para) <= 120 and "\n" not in para and " | " not in para and not para.endswith(".") \
        and para[0].isupper()


def body_of(text: str) -> str:
    """The Item's text without its heading line."""
    m = _HEADING.match(text)
    return text[m.end():] if m else text


def is_stub(text: str, item: str) -> bool:
    """Empty, or too short to be more than a pointer to text elsewhere."""
    body = " ".join(body_of(text.strip()).split())
    if len(body) < 250:
        return True
    limit = 1500 if item in ("1C", "7A") else 3000
    if len(body) >= limit:
        return False
    # A pointer says so up front; a short real Item may cite other parts further down.
    first = re.split(r"\n\s*\n", body_of(text.strip()).strip(), maxsplit=1)[0]
    return bool(_STUB_REFERENCE.search(first[:600]))


# -- text and tables -------------------------------------------------------------------------

_LEADING_NOISE = re.compile(r"^(?:part\s+[ivx]+\b.{0,80}|table\s+of\s+contents|index)$", re.IGNORECASE)
_PAGE_NOISE = re.compile(r"^(?:table\s+of\s+contents|\d{1,3}|page\s+\d{1,3})$", re.IGNORECASE)
_RULE = re.compile(r"^[\s─━═\-=_—–|+]*$")
_CELL_GAP = re.compile(r"\S(?: {2,}|\t|\u00a0{2,})\S")
_NUMERIC = re.compile(r"^[\$€£(]*[-−]?[\d,.]*\d[\d,.]*%?\)?%?$|^[—–-]+$|^\(?\d+(?:\.\d+)?\)?%$")
_CURRENCY = {"$", "€", "£", "¥"}
_CLOSERS = {"%", ")", "%)", ")%"}


def normalize_item_text(text: str) -> tuple[str, list[str]]:
    """Prose paragraphs and financial tables (as `cell | cell` rows), in document order.

    Returns the Item text (paragraphs separated by blank lines, each table as one paragraph)
    and the list of table renderings that appear in it.
    """
    paras: list[str] = []
    tables: list[str] = []
    for block in re.split(r"\n\s*\n", text):
        lines = [ln for ln in block.split("\n") if ln.strip() and not _RULE.match(ln)]
        if not lines:
            continue
        rows = [_cells(ln) for ln in lines]
        cells = [c for r in rows for c in r]
        numeric = sum(1 for c in cells if _NUMERIC.match(c))
        multi = sum(1 for r in rows if len(r) > 1)
        if multi >= 1 and numeric >= 2 and numeric >= 0.2 * len(cells) and (len(rows) >= 2 or len(rows[0]) >= 3):
            rendered = "\n".join(" | ".join(r) for r in rows)
            paras.append(rendered)
            tables.append(rendered)
        else:
            for r in rows:
                line = " ".join(r)
                if paras and not paras[-1].endswith((".", ":", "?", "!")) and _continues(line) and paras[-1] not in tables:
                    paras[-1] = f"{paras[-1]} {line}"
                else:
                    paras.append(line)
    while len(paras) > 1 and _LEADING_NOISE.match(paras[0]) and paras[0] not in tables:
        paras.pop(0)  # "PART II" / "Table of Contents" above the Item heading
    paras = [p for p in paras if not _PAGE_NOISE.match(p)]
    return "\n\n".join(paras), tables


def _continues(line: str) -> bool:
    """A line starting lowercase continues the previous line (a wrapped cell or paragraph)."""
    return bool(line) and line[0].islower()


def _cells(line: str) -> list[str]:
    raw = [c.strip() for c in re.split(r" {2,}|\t|\u00a0{2,}", line.strip()) if c.strip()]
    cells: list[str] = []
    pending = ""
    for c in raw:
        if c in _CURRENCY:
            pending += c
            continue
        if pending:
            c, pending = pending + c, ""
        if c in _CLOSERS and cells:
            cells[-1] += c
            continue
        cells.append(" ".join(c.split()))
    if pending:
        cells.append(pending)
    return cells

