"""The extractive draft of a quarter answer: each figure with its exact period, or a table by quarter.

Why its own: a quarter's sentence must say which period it is in the company's terms and how a
computed figure was made ("Q4 FY2024 (three months ended January 28, 2024) ... computed as the
fiscal year minus the first nine months"), and "last quarter" must say which quarter that was.
Every figure and date in a sentence is displayed by the evidence it cites (agent.retrieval.quarter_figures
renders both), so cite_check holds it to the same rule as a year's figure. The intro carries no
figure and no date: only which reading of an ambiguous period was taken.
"""

from __future__ import annotations

from agent.composing.draft import Claim, Draft, possessive


def _lower(label: str) -> str:
    first = label.split(" ", 1)[0]
    if len(first) > 1 and any(c.isupper() for c in first[1:]):
        return label
    return label[0].lower() + label[1:]


def sentence(c: dict) -> str:
    who = f"{possessive(c['name'])} {_lower(c['label'])}"
    if c.get("growth"):
        g = c["growth"]
        direction = "down" if g["value"].startswith("-") else "up"
        who = who.removesuffix(" growth")
        if g.get("change"):  # over a negative base: the change, and why no rate
            return (f"{who} for {c['period']} was {g['current']}, a change of {c['display']} from {g['prior']} in "
                    f"{g['prior_period']}, {g['base']} (that figure was negative, so a growth rate would mislead).")
        return (f"{who} for {c['period']} was {g['current']}, {direction} {c['display'].lstrip('-')} from {g['prior']} in "
                f"{g['prior_period']}, {g['base']}.")
    when = f"at {c['period']}" if c.get("instant") else f"for {c['period']}"
    text = f"{who} {when} was {c['display']}"
    if c.get("derived"):
        text += f", computed as the {c['derived']}"
    if c.get("latest"):
        source = f"its {c['form']}" if c.get("form") else "its filings: the year's 10-K and the quarters' 10-Q"
        text += f"; this is the most recent period held (from {source})"
    return text + "."


def quarter_draft(cells: list[dict]) -> Draft:
    found = [c for c in cells if c.get("evidence_id")]
    notes = list(dict.fromkeys(c["note"] for c in found if c.get("note")))
    intro = " ".join(notes)
    several_periods = len({(c["ticker"], c["end"], c["metric"]) for c in found}) > len({(c["ticker"], c["metric"]) for c in found})
    if not several_periods:
        return Draft(intro=intro, claims=[Claim(text=sentence(c), evidence_id=c["evidence_id"], kind="number") for c in found],
                     composer="extractive")
    return Draft(intro=" ".join(p for p in (intro, _table_intro(found)) if p), claims=[], tables=[_table(found)],
                 composer="extractive")


def _table_intro(cells: list[dict]) -> str:
    labels = ", ".join(dict.fromkeys(c["label"] for c in cells))
    names = ", ".join(dict.fromkeys(c["name"] for c in cells))
    derived = any(c.get("derived") for c in cells)
    extra = " (a fourth quarter is the fiscal year minus its first nine months)" if derived else ""
    return f"{labels} for {names} by fiscal quarter, from XBRL facts in the 10-Q and 10-K filings{extra}:"


def _table(cells: list[dict]) -> dict:
    companies = list(dict.fromkeys(c["ticker"] for c in cells))
    metrics = list(dict.fromkeys(c["metric"] for c in cells))
    labels = {c["metric"]: c["label"] for c in cells}
    multi = len(companies) > 1
    columns = (["Company"] if multi else []) + ["Quarter", "Period ended", *[labels[m] for m in metrics]]
    periods = sorted({(c["ticker"], c["end"], c.get("quarter"), c["fiscal_year"]) for c in cells},
                     key=lambda t: (companies.index(t[0]), t[1]))
    by_key = {(c["ticker"], c["end"], c["metric"]): c for c in cells}
    rows, citations = [], []
    for ticker, end, q, fy in periods:
        row = ([ticker] if multi else []) + [f"Q{q} FY{fy}" if q else f"FY{fy}", end]
        cites: list[list[str]] = [[] for _ in row]
        for m in metrics:
            c = by_key.get((ticker, end, m))
            row.append(c["display"] if c else "not reported")
            cites.append([c["evidence_id"]] if c else [])
        rows.append(row)
        citations.append(cites)
    name = cells[0]["name"] if not multi else "by company"
    title = f"{', '.join(labels[m] for m in metrics)}: {name}, by quarter"
    return {"title": title, "columns": columns, "rows": rows, "cell_citations": citations}
