"""Answer -> the pieces every chat surface shows: footnote labels, a provenance line, refusal
wording, monospaced tables and a plain-text fallback.

Slack (bot/slack/blocks.py) and Teams (bot/teams/cards.py) lay these pieces out in their own
formats; keeping the wording here means both platforms say the same thing.
"""

from __future__ import annotations

import logging

import re

from agent.answer import Answer, Citation, Table
from store.items import item_label

REFUSAL_HEADLINES = {
    "no_company": "Which company do you mean?",
    "ambiguous_company": "That name matches more than one company.",
    "not_covered": "That company isn't in Footnote's filings yet.",
    "year_not_available": "That fiscal year isn't in the filings Footnote has.",
    "unknown_metric": "Footnote doesn't know that figure.",
    "out_of_scope": "That's outside what Footnote answers.",
    "no_grounding": "The filings don't support an answer to that.",
    "input_too_long": "That message is too long to answer.",
    "internal_error": "Something went wrong on Footnote's side.",
}

REFUSAL_INSTEAD = (
    "Footnote answers from 10-K filings only: figures from their XBRL facts, and what the filings "
    "say about business, risks and results. Try `/tickers` to see which companies it covers."
)

POLITE_ERROR = (
    "Sorry, something went wrong while answering that. Nothing was made up: please try again in "
    "a moment, or ask in a different way."
)

PLAIN_LIMIT = 3_900  # Slack shows at most ~4,000 characters of a notification's fallback text


def citation_label(c: Citation) -> str:
    """`AAPL 10-K FY2024, Item 7` or `AAPL 10-K FY2024, us-gaap:Revenues`."""
    where = item_label(c.item) if c.item else (c.concept or "")  # a 10-Q's "II-1A": "Part II, Item 1A"
    label = f"{c.ticker} {c.form} FY{c.fiscal_year}"
    return f"{label}, {where}" if where else label


def provenance(answer: Answer, *, details: bool = False) -> str:
    """One short line: which filings the answer stands on. How it was made (planner, composer,
    cache) is for logs and admins (`details`), not for the people asking."""
    filings: list[str] = []
    for c in answer.citations:
        name = f"{c.ticker} {c.form} FY{c.fiscal_year}"
        if name not in filings:
            filings.append(name)
    parts = []
    if filings:
        shown = ", ".join(filings[:4]) + (f" and {len(filings) - 4} more" if len(filings) > 4 else "")
        parts.append(f"From {shown}")
    if details:
        parts.append(f"planner: {answer.planner}")
        parts.append(f"composer: {answer.composer}")
        if answer.cached:
            parts.append("cached")
        if answer.timings.get("total") is not None:
            parts.append(f"{answer.timings['total']:.0f} ms")
    if answer.partial:
        parts.append("some unverified sentences were left out")
    if answer.fallback and details:
        parts.append("model unavailable, used the deterministic path")
    return " · ".join(parts)


_MARKER = re.compile(r"\[(\d{1,3})\](?!\()")
_REPEATED = re.compile(r"(\[(\d{1,3})\])(?:\s*\[\2\](?!\())+")


def collapse_citations(answer: Answer) -> Answer:
    """Citations a reader cannot tell apart (same document, same label) shown once: `[1]`, not
    `[1][2][3]` for three passages of one Item. Only the rendering changes; each claim was checked
    against its own passage before this."""
    first: dict[tuple[str, str], int] = {}
    renumber: dict[int, int] = {}
    kept: list[Citation] = []
    for c in answer.citations:
        key = (c.url, citation_label(c))
        if key not in first:
            first[key] = len(kept) + 1
            kept.append(c.model_copy(update={"n": first[key]}))
        renumber[c.n] = first[key]
    if len(kept) == len(answer.citations) and all(k == v for k, v in renumber.items()):
        return answer

    def mark(m: re.Match) -> str:
        n = int(m.group(1))
        return f"[{renumber.get(n, n)}]"

    def fix(text: str) -> str:
        return _REPEATED.sub(r"\1", _MARKER.sub(mark, text))

    tables = []
    for t in answer.tables:
        cells = [[list(dict.fromkeys(renumber.get(n, n) for n in cell)) for cell in row] for row in t.cell_citations]
        tables.append(t.model_copy(update={"cell_citations": cells}))
    calcs = [c.model_copy(update={"steps": [fix(s) for s in c.steps], "formula": fix(c.formula)}) for c in answer.calculation]
    numbers = [n.model_copy(update={"citation": renumber.get(n.citation, n.citation)}) for n in answer.numbers]
    return answer.model_copy(update={"text": fix(answer.text), "citations": kept, "tables": tables,
                                     "calculation": calcs, "numbers": numbers})


def refusal_headline(answer: Answer) -> str:
    return REFUSAL_HEADLINES.get(answer.refusal_reason or "", "Footnote can't answer that from the filings.")


def table_monospace(table: Table, *, limit: int | None = None) -> str:
    """A table as aligned plain text, for surfaces (or sizes) without a native table."""
    cells = [list(table.columns)] + [[cell_text(table, r, c) for c in range(len(row))] for r, row in enumerate(table.rows)]
    ncols = max(len(r) for r in cells)
    cells = [r + [""] * (ncols - len(r)) for r in cells]
    widths = [max(len(r[i]) for r in cells) for i in range(ncols)]
    lines = ["  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    text = "\n".join(lines)
    if limit is not None and len(text) > limit:
        cut = text[: limit - 40].rsplit("\n", 1)[0]
        shown = cut.count("\n") - 1
        text = f"{cut}\n… {len(table.rows) - max(shown, 0)} more rows"
    return text


def cell_text(table: Table, r: int, c: int) -> str:
    """A cell's value with its footnote markers, e.g. `391,035 [1]`."""
    value = str(table.rows[r][c]) if c < len(table.rows[r]) else ""
    marks = []
    if r < len(table.cell_citations) and c < len(table.cell_citations[r]):
        marks = table.cell_citations[r][c]
    return value + "".join(f" [{n}]" for n in marks)


def calculation_lines(answer: Answer) -> list[str]:
    lines = []
    for calc in answer.calculation:
        lines.append(f"{calc.metric} = {calc.formula}")
        lines.extend(f"  {step}" for step in calc.steps)
        lines.append(f"  = {calc.result}")
    return lines


def plain_text(answer: Answer, *, limit: int = PLAIN_LIMIT) -> str:
    """The whole answer as plain text: notifications, screen readers, clients without blocks."""
    parts: list[str] = []
    if answer.kind == "refusal":
        parts.append(refusal_headline(answer))
    parts.append(answer.text.strip())
    for table in answer.tables:
        parts.append(f"{table.title}\n{table_monospace(table)}")
    calc = calculation_lines(answer)
    if calc:
        parts.append("\n".join(calc))
    if answer.citations:
        parts.append("\n".join(f"[{c.n}] {citation_label(c)}: {c.url}" for c in answer.citations))
    text = "\n\n".join(p for p in parts if p)
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return text


COVERAGE_COLUMNS = ["Ticker", "Company", "10-K filings", "Figures only", "10-Q quarters"]
COVERAGE_NOTE = (
    "10-K filings: figures and what the filing says. Figures only: reported figures (from SEC's "
    "companyfacts or a later 10-K's prior-year columns), no filing text."
)


def coverage_listing(rows: list[dict], *, mention: str = "") -> tuple[list[list[str]], str]:
    """Coverage rows as table rows under COVERAGE_COLUMNS, and a note that tells the two kinds of
    year apart and gives an example question about a company the store holds."""
    from store.coverage import years_text

    listing = [[r["ticker"], r.get("display_name") or r["name"], years_text(r["fiscal_years"], prefix="") or "—",
                years_text(r.get("figures_only_years"), prefix="") or "—", quarters_cell(r.get("quarters"))]
               for r in rows]
    note = COVERAGE_NOTE
    example = next((r for r in rows if r["fiscal_years"]), None)
    if example is not None:
        name = example.get("display_name") or example["name"]
        note += f" Ask about any of them, e.g. {mention}what was {name}'s revenue in fiscal {example['fiscal_years'][-1]}?"
    return listing, note


def quarters_cell(quarters) -> str:
    """[(2024, 1), (2024, 2)] -> 'Q1–Q2 FY2024'; several years separated by '; '."""
    from store.coverage import quarters_text

    parts = []
    for year_part in filter(None, quarters_text(quarters).split("; ")):
        year, held = year_part.split(": ", 1)
        parts.append(f"{held.removesuffix(' 10-Q')} {year}")
    return "; ".join(parts) or "—"


def filings_listing(rows: list[dict]) -> tuple[str, list[dict]]:
    """A company's filings as /filings shows them: a summary of what is held per fiscal year
    ('FY2024: 10-K, Q2 10-Q; FY2025: 10-K') and each row's period label ('2024', 'Q2 2024')."""
    from store.coverage import quarters_text

    years = sorted({r["fiscal_year"] for r in rows if not str(r["form"]).upper().startswith("10-Q")})
    quarters = sorted({(r["fiscal_year"], int(r["fiscal_period"][1])) for r in rows
                       if str(r["form"]).upper().startswith("10-Q") and str(r.get("fiscal_period") or "")[:1] == "Q"})
    labelled = [{**r, "period_label": (f"{r['fiscal_period']} {r['fiscal_year']}"
                                       if str(r.get("fiscal_period") or "FY") != "FY" else str(r["fiscal_year"]))}
                for r in rows]  # fmt: skip
    return quarters_text(quarters, years=years), labelled


def years_label(values) -> str:
    """[2022, 2023, 2024] -> `2022–2024`; years with gaps are listed one by one."""
    ys = sorted({int(v) for v in values or []})
    if not ys:
        return "—"
    if len(ys) > 2 and ys == list(range(ys[0], ys[-1] + 1)):
        return f"{ys[0]}–{ys[-1]}"
    return ", ".join(map(str, ys))


def covered_example(footnote) -> str:
    """An example question about a company the store holds; a generic one when coverage cannot be read."""
    from agent.refusals import example_question

    try:
        return example_question(footnote.coverage())
    except Exception:
        logging.getLogger(__name__).warning("could not read coverage for an example question", exc_info=True)
        return example_question([])
