"""Answer -> Slack Block Kit, inside Slack's limits.

Limits honoured here (Slack rejects the whole message otherwise): at most 50 blocks, section text
at most 3,000 characters, context blocks at most 10 elements, one `table` block per message with
at most 100 rows and 20 columns, placed inside the message's `attachments` as Slack documents it
(larger tables become monospaced sections, split so every row is shown), button values at most
2,000 characters. Every message also carries a plain-text `text` for notifications.

Blocks are built with slack_sdk's own models (slack_sdk.models.blocks), which know Block Kit's
shapes and check its limits as they are serialized, so a hand-written dict cannot drift from the
platform; messages travel as the plain dicts those models produce.
"""

from __future__ import annotations

import json
import re

from slack_sdk.models.blocks import (
    ActionsBlock,
    ButtonElement,
    ContextBlock,
    MarkdownTextObject,
    PlainTextObject,
    RawTextObject,
    RichTextBlock,
    RichTextElementParts,
    RichTextSectionElement,
    SectionBlock,
    TableBlock,
    TableBlockColumnSettings,
)

from agent.answer import Answer, Table
from bot import render_chat

MAX_BLOCKS = 50
SECTION_LIMIT = 3_000
CONTEXT_ELEMENTS = 10
TABLE_ROWS = 100  # header row included
TABLE_COLS = 20
BUTTON_VALUE_LIMIT = 2_000

FEEDBACK_UP = "feedback_up"
FEEDBACK_DOWN = "feedback_down"
FEEDBACK_BLOCK = "footnote_feedback"
MONO_LINE = 150  # a monospaced table wider than this is shown in column groups

_BOLD = re.compile(r"\*\*(.+?)\*\*")
_LINK = re.compile(r"\[([^\]]+)\]\((https?://[^)\s]+)\)")
_HEADING = re.compile(r"^#{1,6}\s+(.+)$", re.MULTILINE)
_BULLET = re.compile(r"^(\s*)[-*]\s+", re.MULTILINE)
_MARKER = re.compile(r"\[(\d{1,3})\](?!\()")


def escape(text: str) -> str:
    """Slack's three control characters; everything else is shown as written."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def to_mrkdwn(markdown: str, urls: dict[int, str] | None = None) -> str:
    """The agent's markdown in Slack's mrkdwn dialect; [n] markers become links to the filing."""
    text = escape(markdown)
    text = _BULLET.sub(lambda m: m.group(1) + "• ", text)
    text = _HEADING.sub(r"*\1*", text)
    text = _BOLD.sub(r"*\1*", text)
    text = _LINK.sub(lambda m: f"<{m.group(2)}|{m.group(1)}>", text)
    if urls:
        text = _MARKER.sub(lambda m: f"<{urls[int(m.group(1))]}|[{m.group(1)}]>" if int(m.group(1)) in urls else m.group(0), text)
    return text


def split_text(text: str, limit: int = SECTION_LIMIT) -> list[str]:
    """Split at paragraph, then line, then word boundaries so each piece fits one section, and
    never inside a Slack link `<url|label>`."""
    pieces: list[str] = []
    rest = text.strip()
    while len(rest) > limit:
        window = rest[:limit]
        cut = max(window.rfind("\n\n"), window.rfind("\n"))
        if cut < limit // 2:
            cut = window.rfind(" ")
        if cut < limit // 2:
            cut = limit
        opened = rest.rfind("<", 0, cut)
        if opened > rest.rfind(">", 0, cut) and opened > 0:
            cut = opened  # the link moves whole to the next piece
        pieces.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    if rest:
        pieces.append(rest)
    return pieces


def section(text: str) -> dict:
    return SectionBlock(text=MarkdownTextObject(text=text[:SECTION_LIMIT])).to_dict()


def context(texts: list[str], *, block_id: str | None = None) -> dict:
    elements = [MarkdownTextObject(text=t[:SECTION_LIMIT]) for t in texts[:CONTEXT_ELEMENTS]]
    return ContextBlock(elements=elements, block_id=block_id).to_dict()


def fits_table_block(table: Table) -> bool:
    return len(table.rows) + 1 <= TABLE_ROWS and 0 < len(table.columns) <= TABLE_COLS


def table_block(table: Table) -> dict:
    """A native Slack table: the header row, then one row per table row, every cell raw text."""
    ncols = len(table.columns)
    rows = [[raw_cell(c) for c in table.columns]]
    for r in range(len(table.rows)):
        rows.append([raw_cell(render_chat.cell_text(table, r, c)) for c in range(ncols)])
    numeric = [bool(table.rows) and all(_looks_numeric(str(row[c])) for row in table.rows if c < len(row)) for c in range(ncols)]
    settings = [TableBlockColumnSettings(align="right" if num else "left", is_wrapped=True) for num in numeric]
    return TableBlock(rows=rows, column_settings=settings).to_dict()


def raw_cell(text: str) -> dict:
    return RawTextObject(text=text or " ").to_dict()


def link_cell(text: str, url: str) -> dict:
    return RichTextBlock(elements=[RichTextSectionElement(elements=[RichTextElementParts.Link(url=url, text=text)])]).to_dict()


def _looks_numeric(value: str) -> bool:
    return bool(re.fullmatch(r"[\s$€(\-−]*[\d,.]+%?\)?\s*(\[\d+\]\s*)*", value)) if value else True


def monospace_table(table: Table) -> dict:
    body = render_chat.table_monospace(table, limit=SECTION_LIMIT - 10)
    return section(f"```{body}```")


def monospace_sections(table: Table) -> list[dict]:
    """A table as monospaced sections with every row shown: too wide, it is cut into column groups
    (the first column repeated); too long, its rows continue in the next section under the header."""
    out: list[dict] = []
    groups = _column_groups(table)
    for i, cols in enumerate(groups):
        part = _subtable(table, cols)
        lines = render_chat.table_monospace(part).split("\n")
        head, rows = lines[:2], lines[2:]
        if len(groups) > 1:
            out.append(section(f"_Columns {cols[1] + 1 if len(cols) > 1 else 1}–{cols[-1] + 1} of {len(table.columns)}_"))
        chunk: list[str] = []
        for line in rows:
            line = line[: SECTION_LIMIT - 200]
            if chunk and len("\n".join(head + chunk + [line])) > SECTION_LIMIT - 10:
                out.append(section("```" + escape("\n".join(head + chunk)) + "```"))
                chunk = []
            chunk.append(line)
        out.append(section("```" + escape("\n".join(head + chunk)) + "```"))
    return out


def _column_groups(table: Table) -> list[list[int]]:
    ncols = len(table.columns)
    widths = [max([len(str(table.columns[c]))] + [len(render_chat.cell_text(table, r, c)) for r in range(len(table.rows))]) + 2
              for c in range(ncols)]
    if sum(widths) <= MONO_LINE or ncols <= 2:
        return [list(range(ncols))]
    groups, current = [], [0]
    for c in range(1, ncols):
        if len(current) > 1 and sum(widths[i] for i in current) + widths[c] > MONO_LINE:
            groups.append(current)
            current = [0]
        current.append(c)
    groups.append(current)
    return groups


def _subtable(table: Table, cols: list[int]) -> Table:
    rows = [[row[c] if c < len(row) else "" for c in cols] for row in table.rows]
    cites = [[cell[c] if c < len(cell) else [] for c in cols] for cell in table.cell_citations]
    return Table(title=table.title, columns=[table.columns[c] for c in cols], rows=rows, cell_citations=cites)


def table_blocks(tables: list[Table]) -> tuple[list[dict], bool]:
    """Slack allows one table block per message: the first table that fits gets it. Returns the
    blocks and whether one of them is a native table (which must travel in an attachment)."""
    blocks: list[dict] = []
    native_used = False
    for table in tables:
        if table.title:
            blocks.append(section(f"*{escape(table.title)}*"))
        if not native_used and fits_table_block(table):
            blocks.append(table_block(table))
            native_used = True
        else:
            blocks.extend(monospace_sections(table))
    return blocks, native_used


def footnote_blocks(answer: Answer) -> list[dict]:
    """Footnotes as links to the SEC documents, a few per context element, ten elements a block."""
    elements: list[str] = []
    for c in answer.citations:
        line = f"[{c.n}] <{c.url}|{escape(render_chat.citation_label(c))}>"
        if elements and len(elements[-1]) + len(line) + 3 <= 600:
            elements[-1] += "   " + line
        else:
            elements.append(line)
    return [context(elements[i : i + CONTEXT_ELEMENTS]) for i in range(0, len(elements), CONTEXT_ELEMENTS)]


def feedback_block(thread_key: str, question: str, votes: tuple[int, int] = (0, 0)) -> dict:
    """👍/👎 buttons; the value carries what the feedback row needs (the answer is the message).
    Once people have voted, each button shows its count."""
    value = json.dumps({"t": thread_key, "q": question[:1_200]}, ensure_ascii=False)
    while len(value) > BUTTON_VALUE_LIMIT:
        question = question[: len(question) // 2]
        value = json.dumps({"t": thread_key, "q": question}, ensure_ascii=False)
    up, down = votes

    def button(action_id: str, emoji: str, count: int) -> ButtonElement:
        label = f"{emoji} {count}" if count else emoji
        return ButtonElement(action_id=action_id, text=PlainTextObject(text=label, emoji=True), value=value)

    return ActionsBlock(block_id=FEEDBACK_BLOCK, elements=[button(FEEDBACK_UP, "👍", up), button(FEEDBACK_DOWN, "👎", down)]).to_dict()


def with_votes(message: dict, votes: tuple[int, int], note: str | None = None) -> dict:
    """The same message with the feedback buttons showing `votes` (and a short note under them)."""

    def swap(blocks: list[dict]) -> list[dict]:
        out = []
        for b in blocks:
            if b.get("type") == "context" and b.get("block_id") == FEEDBACK_BLOCK + "_note":
                continue
            if b.get("type") == "actions" and b.get("block_id") == FEEDBACK_BLOCK:
                carried = json.loads(b["elements"][0]["value"])
                out.append(feedback_block(carried.get("t", ""), carried.get("q", ""), votes))
                if note:
                    out.append(context([escape(note)], block_id=FEEDBACK_BLOCK + "_note"))
            else:
                out.append(b)
        return out

    updated = {"text": message.get("text") or " ", "blocks": swap(message.get("blocks") or [])}
    if message.get("attachments"):
        updated["attachments"] = [{**a, "blocks": swap(a.get("blocks") or [])} for a in message["attachments"]]
    return updated


def answer_message(answer: Answer, *, thread_key: str | None = None, question: str | None = None,
                   show_path: bool = False) -> dict:
    """`{text, blocks[, attachments]}` for chat.postMessage / chat.update. A native table and what
    follows it travel in one attachment, where Slack documents the table block."""
    answer = render_chat.collapse_citations(answer)
    urls = {c.n: c.url for c in answer.citations}
    head: list[dict] = []
    if answer.kind == "refusal":
        head.append(section(f":no_entry_sign: *{escape(render_chat.refusal_headline(answer))}*"))
    body = [section(p) for p in split_text(to_mrkdwn(answer.text, urls))] if answer.text.strip() else []
    tables, native = table_blocks(answer.tables)
    calc = render_chat.calculation_lines(answer)
    calc_blocks = [section("```" + escape(p) + "```") for p in split_text("\n".join(calc), SECTION_LIMIT - 6)] if calc else []
    tail: list[dict] = []
    if answer.kind == "refusal":
        tail.append(context([escape(render_chat.REFUSAL_INSTEAD)]))
    tail.extend(footnote_blocks(answer))
    if answer.kind != "meta":
        line = render_chat.provenance(answer, details=show_path)
        if line:
            tail.append(context([escape(line)]))
    if answer.kind != "meta" and thread_key:
        tail.append(feedback_block(thread_key, question or ""))

    blocks = head + body + tables + calc_blocks
    room = MAX_BLOCKS - len(tail)
    if len(blocks) > room:
        hidden = len(blocks) - (room - 1)
        blocks = blocks[: room - 1] + [context([f"… {hidden} more parts are too long for one Slack message; ask a narrower question."])]
    text = escape(render_chat.plain_text(answer))
    if not native:
        return {"text": text, "blocks": blocks + tail}
    split = len(head) + len(body)
    return {"text": text, "blocks": blocks[:split], "attachments": [{"blocks": blocks[split:] + tail}]}


def text_message(text: str) -> dict:
    """A short notice (placeholder, error, help) as one or more sections plus the fallback."""
    mrkdwn = to_mrkdwn(text)
    return {"text": escape(text[: render_chat.PLAIN_LIMIT]), "blocks": [section(p) for p in split_text(mrkdwn)][:MAX_BLOCKS]}


def plain_message(message: dict) -> dict:
    """The fallback when Slack refuses a message's blocks: its text alone, which always fits.
    (`text` is already escaped for mrkdwn: &, < and > as Slack asks.)"""
    return {"text": (message.get("text") or " ")[: render_chat.PLAIN_LIMIT], "blocks": [], "attachments": []}


def listing_message(title: str, columns: list[str], rows: list[list[str | tuple[str, str]]], *, note: str | None = None) -> dict:
    """Slash-command listings (/tickers, /filings) as a table block; a `(text, url)` cell is a link.

    Past Slack's table limits the listing becomes monospaced text with the links listed below."""
    plain_rows = [[c[0] if isinstance(c, tuple) else c for c in row] for row in rows]
    table = Table(title=title, columns=columns, rows=plain_rows)
    blocks: list[dict] = [section(f"*{escape(title)}*")]
    links = [f"{c[0]}: {c[1]}" for row in rows for c in row if isinstance(c, tuple)]
    plain = escape("\n".join([title, render_chat.table_monospace(table), *links]))[: render_chat.PLAIN_LIMIT]
    tail = [context([escape(note)])] if note else []
    if fits_table_block(table):
        cells = [[raw_cell(c) for c in columns]]
        cells += [[link_cell(*c) if isinstance(c, tuple) else raw_cell(c) for c in row] for row in rows]
        return {"text": plain, "blocks": blocks, "attachments": [{"blocks": [TableBlock(rows=cells).to_dict()] + tail}]}
    return {"text": plain, "blocks": (blocks + monospace_sections(table))[: MAX_BLOCKS - len(tail)] + tail}
