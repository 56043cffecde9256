"""The cite_check node: only claims that hold up ship, numbered as footnotes, in one Answer.

The rules are in agent.checking.guards; this node applies them to the draft, drops or re-points claims,
numbers the citations in reading order and builds the Answer (text with [n] markers, tables with
per-cell markers, facts as Numbers, the calculation trace with its inputs' markers). A last pass
checks the whole assembled text: every figure in it must be displayed by something it cites.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from agent.answer import Answer, Calculation, Citation, Number, Table
from agent.composing.draft import Draft, Evidence
from agent.progress import status
from agent.checking.guards import check_claims, check_table, evidence_sources, numbers_supported
from agent.state import plan_of, traced_plan


class _Footnotes:
    """Evidence ids -> footnote numbers, in the order the reader meets them. A computation is
    cited through the facts it was computed from."""

    def __init__(self, evidence: dict[str, Evidence], calc_inputs: dict[str, list[str]]):
        self.evidence = evidence
        self.calc_inputs = calc_inputs
        self.numbers: dict[str, int] = {}

    def markers(self, evidence_id: str) -> list[int]:
        ids = self.calc_inputs.get(evidence_id) or [evidence_id]
        out = []
        for i in ids:
            if i not in self.numbers:
                self.numbers[i] = len(self.numbers) + 1
            out.append(self.numbers[i])
        return out


def _quoted_list(lines: list[tuple[str, str]], several: bool) -> str:
    """The quoted sentences as a list, each company's under its ticker when there are several.

    Why not "AMZN: <sentence>": a label inside the line reads as part of the quote, and the line is
    then no longer the filing's words that its footnote vouches for."""
    if not several:
        return "\n".join(f"- {line}" for _, line in lines)
    tickers = list(dict.fromkeys(t for t, _ in lines))
    return "\n\n".join(f"{t}:\n" + "\n".join(f"- {line}" for who, line in lines if who == t) for t in tickers)


def _marks(ns: list[int]) -> str:
    return "".join(f"[{n}]" for n in ns)


def cite_check(state, deps, config) -> dict:
    status("Checking every figure and quote against the filing...")
    draft = Draft.model_validate(state["draft"])
    evidence = {e["id"]: Evidence.model_validate(e) for e in state.get("evidence") or []}
    calculations = state.get("calculations") or []
    calc_inputs = {c["id"]: [o["evidence_id"] for o in c["operands"]] for c in calculations}
    result = check_claims(draft.claims, evidence, calc_inputs=calc_inputs, embedder=deps.embedder)
    for table in draft.tables:
        result.table_failures.extend(check_table(table, evidence, calc_inputs))
    checked = [
        {"claim": c.claim.text, "evidence_id": c.evidence_id, "cited": c.claim.evidence_id, "status": c.status,
         "detail": c.detail, "score": c.score}
        for c in result.claims
    ] + [{"table": f, "status": "fail"} for f in result.table_failures]
    verdict = result.verdict()
    if not draft.claims and draft.tables and not result.table_failures:
        verdict = "ok"  # a table-only answer: every cell was checked above
    if verdict == "refuse":  # the composer may already have said what it searched
        return {"checked": checked, "refusal": state.get("refusal") or {"reason": "no_grounding", "detail": None}}

    answer = _assemble(state, draft, result, evidence, calculations, calc_inputs)
    cited_ids = [c.evidence_id for c in result.passed]
    leaks = numbers_supported(answer.text, [s for i in cited_ids for s in evidence_sources(i, evidence, calc_inputs)])
    leaks += numbers_supported(draft.intro, [])
    if leaks:
        checked.append({"text": "assembled answer", "status": "fail", "detail": f"unsupported figure {leaks[0]}"})
        return {"checked": checked, "refusal": {"reason": "no_grounding", "detail": None}}
    answer.partial = verdict == "partial"
    return {"checked": checked, "answer": answer.model_dump(mode="json")}


def _assemble(state, draft: Draft, result, evidence, calculations, calc_inputs) -> Answer:
    from agent.retrieval.finance import Operand, calculate
    from agent.planning.formula_trees import trace as user_trace

    plan = plan_of(state)
    notes = _Footnotes(evidence, calc_inputs)
    quotes: dict[str, str] = {}
    lines, figure_lines = [], []
    passed = result.passed
    prose_tickers = list(dict.fromkeys(evidence[c.evidence_id].ticker for c in passed if evidence[c.evidence_id].kind == "chunk"))
    several = len(prose_tickers) > 1
    if several:  # figures first, then each company's quotes together, labelled
        passed = sorted(passed, key=lambda c: (evidence[c.evidence_id].kind == "chunk",
                                               prose_tickers.index(evidence[c.evidence_id].ticker)
                                               if evidence[c.evidence_id].kind == "chunk" else 0))
    for c in passed:
        ns = notes.markers(c.evidence_id)
        ev = evidence[c.evidence_id]
        if ev.kind == "chunk":
            ns += sorted({n for fid in c.claim.figures if fid in evidence for n in notes.markers(fid)})  # its amounts' facts
            quote = c.detail if c.status == "paraphrase" else (c.claim.quote or c.claim.text)
            quotes.setdefault(c.evidence_id, quote)
            lines.append((ev.ticker, f"{c.claim.text} {_marks(ns)}"))
        else:
            figure_lines.append(f"{c.claim.text} {_marks(ns)}")
    tables = []
    for t in draft.tables:
        cell_markers = [[[n for i in ids for n in notes.markers(i)] for ids in row] for row in t.get("cell_citations", [])]
        tables.append(Table(title=t["title"], columns=t["columns"], rows=t["rows"], cell_citations=cell_markers))

    calcs = []
    for calc in calculations:
        if not _is_cited(calc["id"], result, draft) or calc.get("trace") is False:
            continue
        operands = [
            Operand(Decimal(o["value"]), o["unit"], o["fiscal_year"], notes.markers(o["evidence_id"])[0])
            for o in calc["operands"]
        ]
        if calc.get("period_formula"):  # a quarter's computation (agent.retrieval.quarter_figures)
            from agent.retrieval.quarter_figures import trace as period_trace

            trace = period_trace(calc, [op.marker for op in operands])
        elif calc.get("definition"):  # the user's own formula (agent.planning.formula_trees)
            trace = user_trace(calc["definition"], [(o["metric"], op) for o, op in zip(calc["operands"], operands)],
                               calc["display"])
        else:
            trace = calculate(calc["key"], operands).calculation
        if calc.get("ticker"):
            trace = Calculation(
                metric=f"{trace.metric} ({calc['ticker']}, FY{calc['fiscal_year']})",
                formula=trace.formula, steps=trace.steps, result=trace.result,
            )
        calcs.append(trace)

    figures = " ".join(figure_lines)
    if plan.intent == "qualitative":  # the figure first, then what the filing says, as a list
        text = "\n\n".join(p for p in (figures, draft.intro, _quoted_list(lines, several)) if p)
    elif several:
        text = "\n\n".join(p for p in (draft.intro, figures, _quoted_list(lines, several)) if p)
    else:
        text = "\n\n".join(p for p in (draft.intro, " ".join([figures, *(line for _, line in lines)]).strip()) if p)

    if plan.brand:  # the company was never named: say whose brand the word was read as, and why
        text = f"{brand_note(plan.brand)}\n\n{text}"

    # a fact's own fiscal year (the citation's is the reporting filing's)
    retrieval = state.get("retrieval") or {}
    fact_years = dict(retrieval.get("fact_years") or {})  # the facts a quoted sentence's amounts equal
    fact_years.update({c["evidence_id"]: c["fiscal_year"] for c in retrieval.get("cells") or [] if c.get("evidence_id")})
    for calc in calculations:
        fact_years.update({o["evidence_id"]: o["fiscal_year"] for o in calc["operands"]})
    citations, numbers = [], []
    for evidence_id, n in sorted(notes.numbers.items(), key=lambda kv: kv[1]):
        ev = evidence[evidence_id]
        citations.append(
            Citation(
                n=n, ticker=ev.ticker, cik=ev.cik, form=ev.form, fiscal_year=ev.fiscal_year,
                accession=ev.accession, url=ev.url, item=ev.item, concept=ev.concept,
                quote=quotes.get(evidence_id) if ev.kind == "chunk" else None,
                value=ev.value if ev.kind != "chunk" else None,
                chunk_id=ev.chunk_id, period_end=date.fromisoformat(ev.period_end) if ev.period_end else None,
            )
        )
        if ev.kind == "fact":
            numbers.append(
                Number(value=ev.value, unit=ev.unit or "", concept=ev.concept or "", ticker=ev.ticker,
                       fiscal_year=fact_years.get(evidence_id, ev.fiscal_year), period_end=date.fromisoformat(ev.period_end) if ev.period_end else None,
                       citation=n, dims=ev.dims)
            )
    for calc in calculations:
        if _is_cited(calc["id"], result, draft):
            numbers.append(Number(value=calc["value"], unit=calc["unit"], concept=calc["key"], ticker=calc.get("ticker", ""),
                                  fiscal_year=calc["fiscal_year"], citation=None))
    retrieved = [e.chunk_id for e in evidence.values() if e.kind == "chunk" and e.chunk_id is not None]
    return Answer(
        kind="answer", text=text, citations=citations, numbers=numbers, tables=tables, calculation=calcs,
        planner=state.get("planner") or "rules", composer=draft.composer,
        fallback="; ".join(f for f in (state.get("plan_fallback"), draft.fallback) if f) or None,
        route="domain", plan=traced_plan(state), retrieved=retrieved,
    )


def _is_cited(calc_id: str, result, draft: Draft) -> bool:
    if any(c.evidence_id == calc_id for c in result.passed):
        return True
    return any(calc_id in ids for t in draft.tables for row in t.get("cell_citations", []) for ids in row)


def brand_note(brand: dict) -> str:
    """The line that says a company was read from a brand ("Humira"): its filings name it most."""
    return (f"_\"{brand['word']}\" read as {brand['name']} ({brand['ticker']}): its filings name it far more "
            f"often than any other company's._")
