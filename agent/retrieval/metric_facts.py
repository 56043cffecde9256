"""A metric's figure: the agent's metric table (agent/retrieval/concepts.py) chooses the concepts and unit,
store/facts.py runs the query. Selection lives here so the store knows nothing of metrics."""

from __future__ import annotations

import psycopg

from agent.retrieval.concepts import METRICS
from store.facts import FactRow, annual_value


def metric_value(conn: psycopg.Connection, cik: int, metric_key: str, fiscal_year: int, *,
                 as_of_accession: str | None = None) -> FactRow | None:  # fmt: skip
    """`store.facts.annual_value` for a key of METRICS, with its concepts and unit."""
    metric = METRICS[metric_key]
    return annual_value(conn, cik, list(metric.concepts), fiscal_year, as_of_accession=as_of_accession,
                        unit=metric.unit)  # fmt: skip
