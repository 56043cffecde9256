"""How the development set's expectations are computed: fact look-ups by concept (and axis/member)
and Decimal formulas over them, from `evals.xbrl_facts`, never from the agent.

Kept apart from the question text (evals/make_dev.py) so the rules can be read and tested alone.
"""

from __future__ import annotations

import ast
import operator
from decimal import Decimal, getcontext

from evals.xbrl_facts import Company, FactError, fact

getcontext().prec = 40


def _prefixed(concept: str) -> str:
    return concept if ":" in concept else f"us-gaap:{concept}"


def lookup(comp: Company, concepts, fy: int, dims: dict | None = None, instant: bool | None = None) -> dict:
    """The first of `concepts` the filings report for the year (and member); FactError if none."""
    concepts = [concepts] if isinstance(concepts, str) else list(concepts)
    errors = []
    for concept in concepts:
        try:
            rec = fact(comp, _prefixed(concept), fy, dims, instant=instant)
        except FactError as exc:
            errors.append(str(exc))
            continue
        rec["acceptable"] = [_prefixed(c) for c in concepts]
        return rec
    raise FactError("; ".join(errors))


def expected_number(comp: Company, metric: str, concepts, fy: int, dims: dict | None = None, instant: bool | None = None) -> dict:
    rec = lookup(comp, concepts, fy, dims, instant)
    out = {"ticker": comp.ticker, "fiscal_year": fy, "value": rec["value"], "metric": metric,
           "concepts": rec["acceptable"], "source_concept": rec["concept"], "source_filing_fy": rec["filing_fy"]}
    if dims:
        out["dims"] = dims
    if rec["label"]:
        out["label"] = rec["label"]
    if rec["restated"]:
        out["restated"] = True
    return out


_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}


def evaluate(formula: str, values: dict[str, Decimal]) -> Decimal:
    """A formula over named inputs: + - * /, parentheses, numbers and avg(a, b), in Decimal."""

    def ev(node):
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -ev(node.operand)
        if isinstance(node, ast.Name):
            return values[node.id]
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return Decimal(str(node.value))
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "avg":
            args = [ev(a) for a in node.args]
            return sum(args, Decimal(0)) / len(args)
        raise ValueError(f"unsupported formula element {ast.dump(node)}")

    return ev(ast.parse(formula, mode="eval"))


def compute(comp: Company, fy: int, formula: str, inputs: dict, unit: str) -> dict:
    """{value, unit, formula, inputs: [{name, concept, fiscal_year, value, dims?}]} for a formula.

    `inputs` maps a name to (concepts, year offset, dims or None); `unit` percent multiplies by 100."""
    values, used = {}, []
    for name, spec in inputs.items():
        spec = spec if isinstance(spec, tuple) else (spec,)
        concepts, offset, dims = spec[0], (spec[1] if len(spec) > 1 else 0), (spec[2] if len(spec) > 2 else None)
        rec = lookup(comp, concepts, fy + offset, dims)
        values[name] = Decimal(rec["value"])
        entry = {"name": name, "concept": rec["concept"], "fiscal_year": fy + offset, "value": rec["value"]}
        if dims:
            entry["dims"] = dims
        used.append(entry)
    result = evaluate(formula, values)
    if unit == "percent":
        result *= 100
    return {"value": format(round(result, 10).normalize(), "f"), "unit": unit, "formula": formula, "inputs": used}
