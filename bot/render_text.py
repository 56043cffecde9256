"""An Answer as terminal text: the markdown body, tables, the calculation, footnotes with URLs.

Only the CLI uses this; Slack and Teams render the same Answer in their own formats (bot/).
"""

from __future__ import annotations

from agent.answer import Answer, Citation, Table
from store.items import item_label


def render(answer: Answer, *, show_meta: bool = True) -> str:
    parts = [answer.text.strip()]
    for table in answer.tables:
        parts.append(render_table(table))
    for calc in answer.calculation:
        lines = [f"Calculation: {calc.metric} = {calc.formula}"] + [f"  {s}" for s in calc.steps] + [f"  = {calc.result}"]
        parts.append("\n".join(lines))
    if answer.partial:
        parts.append("(Some statements were dropped because the filing text did not support them.)")
    if answer.citations:
        parts.append("\n".join(footnote(c) for c in answer.citations))
    if show_meta:
        meta = [f"planner: {answer.planner}", f"composer: {answer.composer}"]
        if answer.kind == "refusal":
            meta.insert(0, f"refused: {answer.refusal_reason}")
        if answer.cached:
            meta.append("cached")
        if answer.fallback:
            meta.append(f"fallback: {answer.fallback}")
        if answer.timings.get("total") is not None:
            meta.append(f"{answer.timings['total']:.0f} ms")
        parts.append("— " + ", ".join(meta))
    return "\n\n".join(p for p in parts if p)


def footnote(c: Citation) -> str:
    where = item_label(c.item) if c.item else (c.concept or "")  # a 10-Q's "II-1A": "Part II, Item 1A"
    period = f", period ended {c.period_end.isoformat()}" if c.period_end else ""
    head = f"[{c.n}] {c.ticker} {c.form} FY{c.fiscal_year}, {where}{period} — {c.url}"
    if c.quote:
        quote = c.quote if len(c.quote) <= 240 else c.quote[:237] + "..."
        head += f"\n    \"{quote}\""
    return head


def render_table(table: Table) -> str:
    rows = [table.columns] + [
        [cell + _markers(table, r, c) for c, cell in enumerate(row)] for r, row in enumerate(table.rows)
    ]
    widths = [max(len(row[c]) for row in rows if c < len(row)) for c in range(len(table.columns))]
    lines = [table.title]
    for i, row in enumerate(rows):
        lines.append("  ".join(cell.ljust(widths[c]) if c == 0 else cell.rjust(widths[c]) for c, cell in enumerate(row)))
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _markers(table: Table, r: int, c: int) -> str:
    try:
        ns = table.cell_citations[r][c]
    except IndexError:
        return ""
    return "".join(f" [{n}]" for n in ns)
