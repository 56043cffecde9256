"""Answer -> Adaptive Cards (schema 1.5, which Teams renders, Table element included), each within
Teams' message size.

Teams refuses a message past ~28 KB and counts its characters as UTF-16, so every card is measured
that way and kept under CARD_BUDGET. A larger answer is split across several messages (tables by
rows, under their header again, "rows 21–40 of 60"), each saying it continues; past MAX_MESSAGES
the last one says how many rows were left out. Nothing is dropped without saying so.

Text goes in TextBlocks (Teams renders a small markdown subset: bold, italics, lists, links),
footnotes as links to the SEC documents, `fallbackText` a short plain-text version, and the last
card carries 👍/👎 (Action.Submit, stored like Slack's).
"""

from __future__ import annotations

import json

from agent.answer import Answer, Table
from bot import render_chat

CARD_BUDGET = 24_000  # UTF-16 bytes per card: Teams' ~28 KB, less the activity around it
MAX_MESSAGES = 6
TEXT_PIECE = 3_000  # characters per TextBlock of prose
FALLBACK_LIMIT = 1_000
FEEDBACK_KEY = "footnote_feedback"


def utf16_bytes(obj) -> int:
    """The size Teams holds a message to: its JSON in UTF-16."""
    return len(json.dumps(obj, ensure_ascii=False).encode("utf-16-le"))


def card(body: list[dict], fallback: str, actions: list[dict] | None = None) -> dict:
    out = {
        "type": "AdaptiveCard",
        "$schema": "http://adaptivecards.io/schemas/adaptive-card.json",
        "version": "1.5",
        "fallbackText": fallback[:FALLBACK_LIMIT],
        "msteams": {"width": "Full"},
        "body": body,
    }
    if actions:
        out["actions"] = actions
    return out


def text_block(text: str, **style) -> dict:
    return {"type": "TextBlock", "text": text, "wrap": True, **style}


def _row(values: list[str]) -> dict:
    return {"type": "TableRow", "cells": [{"type": "TableCell", "items": [text_block(v or " ")]} for v in values]}


def _table(columns: list[str], rows: list[dict]) -> dict:
    return {"type": "Table", "columns": [{"width": 1} for _ in columns], "rows": [_row(list(columns))] + rows,
            "firstRowAsHeader": True, "gridStyle": "accent"}


def table_parts(table: Table, budget: int = CARD_BUDGET // 2) -> list[list[dict]]:
    """A table as one or more groups of elements, each under `budget`, every row in one of them."""
    columns = table.columns or [""]
    rows = [_row([render_chat.cell_text(table, r, c) for c in range(len(columns))]) for r in range(len(table.rows))]
    chunks: list[list[dict]] = []
    current: list[dict] = []
    for row in rows:
        if current and utf16_bytes(_table(columns, current + [row])) > budget:
            chunks.append(current)
            current = []
        current.append(row)
    chunks.append(current)
    parts, start = [], 0
    for i, chunk in enumerate(chunks):
        group = []
        if table.title:
            title = f"**{table.title}**" + (f" (rows {start + 1}–{start + len(chunk)} of {len(rows)})" if len(chunks) > 1 else "")
            group.append(text_block(title, spacing="Medium"))
        group.append(_table(columns, chunk))
        parts.append(group)
        start += len(chunk)
    return parts


def _text_parts(text: str) -> list[list[dict]]:
    text = text.strip()
    pieces = []
    while len(text) > TEXT_PIECE:
        cut = text.rfind("\n\n", 0, TEXT_PIECE)
        if cut < TEXT_PIECE // 2:
            cut = text.rfind(" ", 0, TEXT_PIECE)
        if cut < TEXT_PIECE // 2:
            cut = TEXT_PIECE
        pieces.append(text[:cut].rstrip())
        text = text[cut:].lstrip()
    if text:
        pieces.append(text)
    return [[text_block(p)] for p in pieces]


def with_votes(card_: dict, up: int, down: int) -> dict:
    """The card with its 👍/👎 buttons showing how many people chose each."""
    for action in card_.get("actions") or []:
        choice = (action.get("data") or {}).get(FEEDBACK_KEY)
        if choice in ("up", "down"):
            emoji, count = ("👍", up) if choice == "up" else ("👎", down)
            action["title"] = f"{emoji} {count}" if count else emoji
    return card_


def feedback_actions(thread_key: str, question: str) -> list[dict]:
    data = {"t": thread_key, "q": question[:1_000]}
    return [
        {"type": "Action.Submit", "title": "👍", "data": {FEEDBACK_KEY: "up", **data}},
        {"type": "Action.Submit", "title": "👎", "data": {FEEDBACK_KEY: "down", **data}},
    ]


REASON_KEY = "footnote_reason"


def reason_card(feedback_id: int, reasons: dict[str, str]) -> dict:
    """After a 👎: what was wrong (stored with the vote)."""
    choices = [{"title": label, "value": value} for value, label in reasons.items()]
    body = [
        text_block("Thanks for the 👎. What was wrong?", weight="Bolder"),
        {"type": "Input.ChoiceSet", "id": "reason", "style": "expanded", "choices": choices, "value": "other"},
        {"type": "Input.Text", "id": "comment", "isMultiline": True, "maxLength": 2000, "placeholder": "Anything else? (optional)"},
    ]
    return card(body, "Thanks for the 👎. What was wrong?", [{"type": "Action.Submit", "title": "Send", "data": {REASON_KEY: feedback_id}}])


def answer_cards(answer: Answer, *, thread_key: str | None = None, question: str | None = None,
                 show_path: bool = False) -> list[dict]:
    """One card, or several when the answer is larger than a Teams message."""
    answer = render_chat.collapse_citations(answer)
    parts: list[list[dict]] = []
    if answer.kind == "refusal":
        parts.append([text_block(render_chat.refusal_headline(answer), weight="Bolder", color="Attention")])
    parts += _text_parts(answer.text)
    for table in answer.tables:
        parts += table_parts(table)
    calc = render_chat.calculation_lines(answer)
    if calc:
        parts.append([text_block("\n\n".join(calc), fontType="Monospace", size="Small", spacing="Medium")])
    tail: list[dict] = []
    if answer.kind == "refusal":
        tail.append(text_block(render_chat.REFUSAL_INSTEAD.replace("`/tickers`", "“tickers”"), isSubtle=True, size="Small"))
    if answer.citations:
        notes = "\n\n".join(f"[{c.n}] [{render_chat.citation_label(c)}]({c.url})" for c in answer.citations)
        tail.append(text_block(notes, size="Small", separator=True, spacing="Medium"))
    if answer.kind != "meta":
        line = render_chat.provenance(answer, details=show_path)
        if line:
            tail.append(text_block(line, isSubtle=True, size="Small"))
    if tail:
        parts.append(tail)
    actions = feedback_actions(thread_key, question or "") if thread_key and answer.kind != "meta" else None
    return pack(parts, render_chat.plain_text(answer), actions, rows=[len(t.rows) for t in answer.tables])


def pack(parts: list[list[dict]], fallback: str, actions: list[dict] | None, *, rows: list[int] = ()) -> list[dict]:
    """Fill cards with whole parts in order; the last card carries `actions`."""
    bodies: list[list[dict]] = [[]]
    reserve = utf16_bytes(card([], fallback, actions)) + 600  # the envelope, the actions, a "continued" line
    for part in parts:
        if bodies[-1] and utf16_bytes(bodies[-1] + part) + reserve > CARD_BUDGET:
            bodies.append([])
        bodies[-1].extend(part)
    if len(bodies) > MAX_MESSAGES:
        left = bodies[MAX_MESSAGES - 1:]
        hidden_rows = sum(len(e["rows"]) - 1 for b in left[:-1] for e in b if e.get("type") == "Table")
        note = f"… {hidden_rows} more rows are too many for Teams messages; ask a narrower question." if hidden_rows else \
            "… the rest is too long for Teams messages; ask a narrower question."
        bodies = bodies[: MAX_MESSAGES - 1] + [[text_block(note, isSubtle=True)] + left[-1]]
    n = len(bodies)
    cards = []
    for i, body in enumerate(bodies):
        if n > 1:
            if i:
                body = [text_block(f"_(continued, part {i + 1} of {n})_", isSubtle=True, size="Small")] + body
            if i < n - 1:
                body = body + [text_block("_Continued in the next message…_", isSubtle=True, size="Small")]
        cards.append(card(body, fallback if i == 0 else f"(continued, part {i + 1} of {n})", actions if i == n - 1 else None))
    return cards


def answer_card(answer: Answer) -> dict:
    """The first card of an answer (callers that expect one card)."""
    return answer_cards(answer)[0]


def listing_card(title: str, columns: list[str], rows: list[list[str]], *, note: str | None = None) -> list[dict]:
    table = Table(title=title, columns=columns, rows=rows)
    parts = table_parts(table)
    if note:
        parts.append([text_block(note, isSubtle=True, size="Small")])
    return pack(parts, f"{title}\n{render_chat.table_monospace(table, limit=FALLBACK_LIMIT)}", None)
