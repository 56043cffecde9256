"""The retrieve node: XBRL facts (and computations over them) for numbers, chunks for prose.

Every figure that can reach an answer enters the run here, as Evidence: a fact rendered with
`agent.finance.display_value`, or a Decimal computation from such facts with its operands kept
for the trace. Prose evidence is the hybrid search's chunks, scoped to the resolved company and
filing. Nothing found means no_grounding, refused before anything is composed.
"""

from __future__ import annotations

from decimal import Decimal
from itertools import zip_longest

from agent.concepts import METRICS
from agent.draft import Evidence
from agent.finance import FORMULAS, FormulaError, Operand, calculate, display_value, growth_key
from agent.graph import status
from agent.query_vectors import embed_queries
from store import chunks as chunk_store
from store import facts as facts_store

NUMERIC_INTENTS = ("numeric", "derived", "compare", "trend")


def retrieve(state, deps, config) -> dict:
    plan = state["plan"]
    if plan["intent"] in NUMERIC_INTENTS:
        return _numbers(state, deps, config)
    return _prose(state, deps, config)


# --- numbers ---------------------------------------------------------------------------------


def _fact_evidence(company: dict, metric_key: str, fy: int, fact) -> Evidence:
    metric = METRICS[metric_key]
    shown = display_value(fact.value, fact.unit)
    return Evidence(
        id=f"f:{fact.id}",
        kind="fact",
        text=(
            f"{company['name']} ({company['ticker']}) {metric.label}, fiscal {fy}: {shown} "
            f"({fact.qualified_concept}, period ended {fact.period_end.isoformat()})"
        ),
        ticker=company["ticker"],
        cik=company["cik"],
        fiscal_year=fact.filing_fiscal_year or fy,  # the citation names the filing that reported it
        accession=fact.accession,
        form=fact.form or "10-K",
        url=fact.url,
        concept=fact.qualified_concept,
        value=_plain(fact.value),
        unit=fact.unit,
        period_end=fact.period_end.isoformat(),
    )


def _plain(value: Decimal) -> str:
    """An exact decimal string without exponent or needless trailing zeros."""
    text = format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text or "0"


class _Facts:
    """Facts fetched once per (company, metric, year) within a run."""

    def __init__(self, conn, company: dict):
        self.conn, self.company = conn, company
        self.found: dict[tuple[str, int], Evidence | None] = {}

    def get(self, metric_key: str, fy: int) -> Evidence | None:
        key = (metric_key, fy)
        if key not in self.found:
            fact = facts_store.metric_value(
                self.conn, self.company["cik"], metric_key, fy, as_of_accession=self.company.get("as_of_accession")
            )
            self.found[key] = _fact_evidence(self.company, metric_key, fy, fact) if fact else None
        return self.found[key]


def _compute(facts: _Facts, formula_key: str, fy: int) -> tuple[Evidence, dict] | None:
    """A formula's result as evidence, or None when an input has no fact (after its fallback)."""
    formula = FORMULAS[formula_key]
    inputs = [facts.get(i.metric, fy + i.offset) for i in formula.inputs]
    if any(e is None for e in inputs):
        return _compute(facts, formula.fallback, fy) if formula.fallback else None
    years = [fy + i.offset for i in formula.inputs]
    operands = [Operand(Decimal(e.value), e.unit, y) for e, y in zip(inputs, years, strict=True)]
    try:
        result = calculate(formula_key, operands)
    except FormulaError:
        return None
    company = facts.company
    calc_id = f"k:{formula_key}:{company['cik']}:{fy}"
    evidence = Evidence(
        id=calc_id,
        kind="calc",
        text=f"{company['name']} ({company['ticker']}) {formula.label}, fiscal {fy}: {result.display}",
        ticker=company["ticker"],
        cik=company["cik"],
        fiscal_year=fy,
        accession=inputs[0].accession,
        form=inputs[0].form,
        url=inputs[0].url,
        concept=formula_key,
        value=_plain(result.value),
        unit=formula.unit,
    )
    calc = {
        "id": calc_id,
        "key": formula_key,
        "ticker": company["ticker"],
        "fiscal_year": fy,
        "value": _plain(result.value),
        "unit": formula.unit,
        "display": result.display,
        "operands": [
            {"evidence_id": e.id, "value": e.value, "unit": e.unit, "fiscal_year": y} for e, y in zip(inputs, years, strict=True)
        ],
    }
    return evidence, calc


def _label(key: str) -> str:
    return METRICS[key].label if key in METRICS else FORMULAS[key].label


def _collect(conn, companies: list[dict], metrics: list[str], *, changes: bool = False,
             ) -> tuple[dict[str, Evidence], list[dict], list[dict]]:  # fmt: skip
    """Facts and computations for every (company, fiscal year, measure): evidence, calculations,
    and one cell per ask (evidence_id None when no fact reports it). With `changes` (a trend), a
    reported figure's cell also carries its growth over the year before, when both are reported."""
    evidence: dict[str, Evidence] = {}
    calculations: list[dict] = []
    cells: list[dict] = []
    for company in companies:
        facts = _Facts(conn, company)
        for fy in company["fiscal_years"]:
            for key in metrics:
                cell = {"ticker": company["ticker"], "name": company["name"], "fiscal_year": fy, "metric": key,
                        "label": _label(key), "evidence_id": None, "display": None,
                        "instant": key in METRICS and METRICS[key].period == "instant"}
                if key in METRICS:
                    ev = facts.get(key, fy)
                    if ev is not None:
                        evidence[ev.id] = ev
                        cell.update(evidence_id=ev.id, display=display_value(Decimal(ev.value), ev.unit))
                else:
                    computed = _compute(facts, key, fy)
                    if computed is not None:
                        ev, calc = computed
                        for operand in calc["operands"]:
                            found = next(e for e in facts.found.values() if e is not None and e.id == operand["evidence_id"])
                            evidence[found.id] = found
                        evidence[ev.id] = ev
                        calculations.append(calc)
                        cell.update(evidence_id=ev.id, display=calc["display"])
                if changes and cell["evidence_id"] and fy - 1 in company["fiscal_years"]:
                    _add_change(facts, key, fy, cell, evidence, calculations)
                cells.append(cell)
    return evidence, calculations, cells


def _add_change(facts: _Facts, key: str, fy: int, cell: dict, evidence: dict, calculations: list[dict]) -> None:
    """The cell's growth over the prior fiscal year, as a computation citing both facts. Its trace
    is not printed: the table cell shows the two footnotes, and the row above shows the prior value."""
    if key not in METRICS or growth_key(key) not in FORMULAS or facts.get(key, fy - 1) is None:
        return
    computed = _compute(facts, growth_key(key), fy)
    if computed is None:
        return
    ev, calc = computed
    evidence[facts.get(key, fy - 1).id] = facts.get(key, fy - 1)
    evidence[ev.id] = ev
    calculations.append({**calc, "trace": False})
    shown = calc["display"]
    cell.update(change_id=ev.id, change_display=shown if shown.startswith("-") else f"+{shown}")


def _numbers(state, deps, config) -> dict:
    plan = state["plan"]
    metrics = [m for m in plan.get("metrics") or [] if m in METRICS or m in FORMULAS]
    if not metrics:
        return {"refusal": {"reason": "unknown_metric", "detail": plan.get("refusal_detail")}}
    with deps.db.connection() as conn:
        evidence, calculations, cells = _collect(conn, state["resolved"], metrics, changes=plan["intent"] == "trend")
    retrieval = {"cells": cells, "facts": sum(1 for e in evidence.values() if e.kind == "fact"),
                 "missing": [f"{c['ticker']} {c['metric']} FY{c['fiscal_year']}" for c in cells if not c["evidence_id"]]}
    if not any(c["evidence_id"] for c in cells):
        what = ", ".join(dict.fromkeys(c["label"].lower() for c in cells))
        years = ", ".join(str(y) for y in sorted({c["fiscal_year"] for c in cells}))
        return {
            "retrieval": retrieval,
            "refusal": {"reason": "no_grounding", "detail": f"no reported XBRL figure for {what} in fiscal {years}"},
        }
    return {
        "evidence": [e.model_dump(mode="json") for e in evidence.values()],
        "calculations": calculations,
        "retrieval": retrieval,
    }


# --- prose -----------------------------------------------------------------------------------


def _prose(state, deps, config) -> dict:
    located = state["located"]
    queries = located["queries"] or [state["question"]]
    status(config, "Searching the filing...")
    embeddings = embed_queries(deps.embedder, queries)  # the composer reuses these vectors
    companies = state["resolved"]
    per_company = max(4, chunk_store.MAX_CHUNKS // max(1, len(companies)))
    per_company_hits: list[list[Evidence]] = []
    with deps.db.connection() as conn:
        for company in companies:
            accessions = located["accessions"].get(str(company["cik"]))
            if not accessions:
                continue  # no filing for the asked year: never widen to the company's other years
            hits = chunk_store.search(
                conn,
                queries,
                embeddings,
                cik=company["cik"],
                accessions=accessions,
                items=located["items"] or None,
                limit=per_company,
            )
            found: list[Evidence] = []
            per_company_hits.append(found)
            for hit in hits:
                found.append(
                    Evidence(
                        id=f"c:{hit.id}",
                        kind="chunk",
                        text=hit.text,
                        ticker=company["ticker"],
                        cik=hit.cik,
                        fiscal_year=hit.fiscal_year,
                        accession=hit.accession,
                        form=hit.form,
                        url=hit.url,
                        item=hit.item,
                        chunk_id=hit.id,
                        score=float(hit.score),
                    )
                )
        # several companies: take their best chunks in turn, so each is heard from
        evidence = [ev for rank in zip_longest(*per_company_hits) for ev in rank if ev is not None]
        # "How much did it spend on R&D, and on what?": the figure from XBRL, the why from the text.
        metrics = [m for m in state["plan"].get("metrics") or [] if m in METRICS or m in FORMULAS]
        facts, calculations, cells = _collect(conn, companies, metrics) if metrics else ({}, [], [])
    cells = [c for c in cells if c["evidence_id"]]
    retrieval = {"chunk_ids": [e.chunk_id for e in evidence], "queries": queries, "items": located["items"],
                 "cells": cells}
    if not evidence:
        return {"retrieval": retrieval, "refusal": {"reason": "no_grounding", "detail": None}}
    return {
        "evidence": [e.model_dump(mode="json") for e in [*facts.values(), *evidence]],
        "calculations": calculations,
        "retrieval": retrieval,
    }
