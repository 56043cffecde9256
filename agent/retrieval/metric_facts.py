"""A metric's figure: the agent's metric table (agent/retrieval/concepts.py) chooses the concepts and unit,
store/facts.py runs the query. Selection lives here so the store knows nothing of metrics."""

from __future__ import annotations

import re

import psycopg

from agent.retrieval.concepts import METRICS
from store.facts import FactRow, annual_value
from store.labels import printed_as, printed_in_filing

# Metrics whose tags a company may use for a part and for the whole of the same line: McDonald's
# tags its restaurants' depreciation on the income statement as DepreciationDepletionAndAmortization
# ($382 million) and the company's total on the cash-flow statement as DepreciationAndAmortization
# ($1.98 billion). A part is never larger than its whole, so the widest figure is the line an analyst
# adds back; the first tag that has a fact would be the part. Johnson & Johnson tags its R&D line
# ($17.23 billion) as the expense excluding acquired in-process R&D and a $1.84 billion part of it
# as ResearchAndDevelopmentExpense.
WIDEST = frozenset({"depreciation_amortization", "rd"})


def metric_value(conn: psycopg.Connection, cik: int, metric_key: str, fiscal_year: int, *,
                 as_of_accession: str | None = None, asked: bool = False) -> FactRow | None:  # fmt: skip
    """`store.facts.annual_value` for a key of METRICS, with its concepts and unit (for a WIDEST
    metric, the largest of its tags' figures; the first tag's on a tie)."""
    metric = METRICS[metric_key]
    if metric.unit == "shares" and metric_key != "cover_shares":
        return plausible_count(conn, cik, annual_value(conn, cik, list(metric.concepts), fiscal_year,
                                                     as_of_accession=as_of_accession, unit="shares"), fiscal_year)
    if metric_key not in WIDEST:
        found = annual_value(conn, cik, list(metric.concepts), fiscal_year, as_of_accession=as_of_accession,
                             unit=metric.unit)  # fmt: skip
        later = concepts_of(conn, cik, metric_key)[len(metric.concepts):] if found is None else []
        return annual_value(conn, cik, later, fiscal_year, as_of_accession=as_of_accession,
                            unit=metric.unit) if later else found  # fmt: skip
    found = [annual_value(conn, cik, [c], fiscal_year, as_of_accession=as_of_accession, unit=metric.unit)
             for c in metric.concepts]
    found = [f for f in found if f is not None]
    # asked for by name (`asked`), never as a formula's input: an add-back (EBITDA's D&A) is the widest figure
    whole = [f for f in found if not _leaves_out(conn, f)] if asked else found
    return max(whole or found, key=lambda f: abs(f.value), default=None)


# A row that says what it leaves out ("Depreciation and amortization, excluding amortization of intangible assets")
_LEAVES_OUT = re.compile(r"\b(?:excluding|exclusive of|except|other than)\b", re.I)


def _leaves_out(conn: psycopg.Connection, fact: FactRow) -> bool:
    """Whether the filing reporting `fact` prints its concept only on rows saying what they leave out: never the figure
    of a WIDEST metric asked by its name when another of its concepts is printed under that name (Home Depot's FY2024
    cash-flow row "Depreciation and amortization, excluding amortization of intangible assets" beside its income
    statement's "Depreciation and amortization"). A formula's add-back stays the widest figure."""
    labels = printed_in_filing(conn, fact.accession, f"{fact.taxonomy}:{fact.concept}")
    return bool(labels) and all(_LEAVES_OUT.search(label) for label in labels)


def concepts_of(conn: psycopg.Connection, cik: int, metric_key: str) -> list[str]:
    """The metric's concepts for one company: the table's, then each `printed_only` concept the company prints under
    a name holding its words (Verizon's capital expenditures), never one it prints for another line."""
    metric = METRICS[metric_key]
    out = list(metric.concepts)
    for concept, words in metric.printed_only:
        if any(words in " ".join(label.lower().split()) for label in printed_as(conn, cik, concept)):
            out.append(concept)
    return out


# A share count a hundred times or more below the shares the cover reports (no split is that large) is tagged in
# thousands or millions without its scale (McDonald's FY2023 10-K tags 732.3 weighted-average diluted shares, its
# cover 722,051,488 shares outstanding; NVIDIA's fiscal 2009 count is in thousands): as a count it is false, and as
# a divisor it made McDonald's revenue per share $34.8 million. No figure then.
MISSCALED = 100


def plausible_count(conn: psycopg.Connection, cik: int, row: FactRow | None, fiscal_year: int) -> FactRow | None:
    """`row`, a share count, unless it is tagged without its scale (see MISSCALED)."""
    if row is None or row.value == 0:
        return row
    cover = annual_value(conn, cik, list(METRICS["cover_shares"].concepts), fiscal_year, unit="shares") \
        or annual_value(conn, cik, list(METRICS["cover_shares"].concepts), fiscal_year + 1, unit="shares")
    if cover is not None and abs(cover.value) >= MISSCALED * abs(row.value):
        return None
    return row


def unscaled_count(conn: psycopg.Connection, cik: int, concepts: list[str], fiscal_year: int) -> FactRow | None:
    """The share count of `concepts` for the year that `plausible_count` refuses as tagged without its scale, else
    None: what a refusal names instead of "no reported figure" (the filing reports the count, its tag is wrong)."""
    row = annual_value(conn, cik, concepts, fiscal_year, unit="shares")
    return row if row is not None and row.value and plausible_count(conn, cik, row, fiscal_year) is None else None
