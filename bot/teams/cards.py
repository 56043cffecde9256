"""Answer -> an Adaptive Card (schema 1.5, which Teams renders, Table element included).

Text goes in TextBlocks (Teams renders a small markdown subset: bold, italics, lists, links),
tables in a Table element, footnotes as links to the SEC documents, and `fallbackText` carries
the plain-text version for clients that cannot show the card.
"""

from __future__ import annotations

from agent.answer import Answer, Table
from bot import render_chat

CARD_ROWS = 60  # Teams caps a message near 28 KB; a longer table is cut with a note
CARD_TEXT = 12_000


def card(body: list[dict], fallback: str) -> dict:
    return {
        "type": "AdaptiveCard",
        "$schema": "http://adaptivecards.io/schemas/adaptive-card.json",
        "version": "1.5",
        "fallbackText": fallback,
        "msteams": {"width": "Full"},
        "body": body,
    }


def text_block(text: str, **style) -> dict:
    return {"type": "TextBlock", "text": text, "wrap": True, **style}


def table_element(table: Table) -> list[dict]:
    columns = table.columns or [""]
    shown = table.rows[:CARD_ROWS]

    def row(values: list[str]) -> dict:
        return {"type": "TableRow", "cells": [{"type": "TableCell", "items": [text_block(v or " ")]} for v in values]}

    rows = [row(list(columns))]
    rows += [row([render_chat.cell_text(table, r, c) for c in range(len(columns))]) for r in range(len(shown))]
    out = []
    if table.title:
        out.append(text_block(f"**{table.title}**", spacing="Medium"))
    out.append({"type": "Table", "columns": [{"width": 1} for _ in columns], "rows": rows,
                "firstRowAsHeader": True, "gridStyle": "accent"})
    if len(table.rows) > CARD_ROWS:
        out.append(text_block(f"… {len(table.rows) - CARD_ROWS} more rows", isSubtle=True, size="Small"))
    return out


def answer_card(answer: Answer) -> dict:
    body: list[dict] = []
    if answer.kind == "refusal":
        body.append(text_block(render_chat.refusal_headline(answer), weight="Bolder", color="Attention"))
    if answer.text.strip():
        body.append(text_block(answer.text.strip()[:CARD_TEXT]))
    for table in answer.tables:
        body.extend(table_element(table))
    calc = render_chat.calculation_lines(answer)
    if calc:
        body.append(text_block("\n\n".join(calc), fontType="Monospace", size="Small", spacing="Medium"))
    if answer.kind == "refusal":
        body.append(text_block(render_chat.REFUSAL_INSTEAD.replace("`/tickers`", "“tickers”"), isSubtle=True, size="Small"))
    if answer.citations:
        notes = "\n\n".join(f"[{c.n}] [{render_chat.citation_label(c)}]({c.url})" for c in answer.citations)
        body.append(text_block(notes, size="Small", separator=True, spacing="Medium"))
    if answer.kind != "meta":
        body.append(text_block(render_chat.provenance(answer), isSubtle=True, size="Small"))
    return card(body, render_chat.plain_text(answer))


def listing_card(title: str, columns: list[str], rows: list[list[str]], *, note: str | None = None) -> dict:
    table = Table(title=title, columns=columns, rows=rows)
    body = table_element(table)
    if note:
        body.append(text_block(note, isSubtle=True, size="Small"))
    return card(body, f"{title}\n{render_chat.table_monospace(table, limit=render_chat.PLAIN_LIMIT)}")
