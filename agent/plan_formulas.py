"""User-defined formulas: "define adjusted margin as operating income plus stock-based compensation over revenue".

Why: analysts bring their own definitions, and an answer that silently uses a different one is a
different figure. The definition is parsed into the same Decimal engine as agent.finance (a small
expression tree over table metrics and constants), kept in the plan (and the thread, so "and for
2022?" or "what is adjusted margin for Nvidia?" reuse it), and the answer restates the formula it
computed. "Over" / "divided by" / "as a percentage of" split the whole expression (the way people
say "A plus B over C" meaning (A + B) ÷ C); the restated formula shows the parentheses. An operand
that is not exactly a known metric is refused with its words, never approximated.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from agent.concepts import METRICS, PHRASES, find_phrases, normalize
from agent.finance import HUNDRED, FormulaError

DEFINE = re.compile(
    r"\b(?:define|defining|let|treat|call|calculate|compute)\s+(?P<name>[a-z][\w&'\- ]{0,40}?)\s+(?:as|=|to be|be)\s+"
    r"(?P<expr>.+?)(?=\s*(?:[;?!]|\.\s|\.$|,\s*(?:and\s+)?(?:what|how|show|give|tell|then|compute|calculate)\b|"
    r"\s+(?:and|then)\s+(?:what|how|show|give|tell|compute|calculate)\b|$))",
    re.I,
)
_DIV = re.compile(r"\s+(?:over|divided\s+by|÷|/|as\s+a\s+(?:%|percent(?:age)?)\s+of|per)\s+|\s*[÷/]\s*", re.I)
_ADD = re.compile(r"\s+(?:plus|\+|add|adding)\s+|\s*\+\s*", re.I)
_SUB = re.compile(r"\s+(?:minus|less|-|−|excluding|net\s+of|subtracting)\s+|\s+[-−]\s+", re.I)
_MUL = re.compile(r"\s+(?:times|×|\*|multiplied\s+by)\s+|\s*[×*]\s*", re.I)
_PCT_NAMES = re.compile(r"\b(?:margin|rate|percent|percentage|%|share|ratio of .* to|yield|mix|conversion)\b", re.I)


class DefinitionError(ValueError):
    """The definition names something that is not a known metric: refused with its words."""


def _operand(text: str) -> dict:
    t = normalize(text).strip()
    t = re.sub(r"^(?:the|total|a|an|its|their)\s+", "", t) if t not in PHRASES else t
    try:
        return {"const": str(Decimal(t.replace(",", "")))}
    except InvalidOperation:
        pass
    spans = find_phrases(t, PHRASES)
    if len(spans) == 1 and spans[0][0] == 0 and spans[0][1] == len(t.split()):
        return {"metric": spans[0][2]}
    raise DefinitionError(text.strip())


def _terms(text: str) -> dict:
    """Sums and differences of products, left to right."""
    parts = re.split(r"(" + _ADD.pattern + r"|" + _SUB.pattern + r")", text, flags=re.I)
    # re.split with a group keeps separators (and None for the unmatched alternatives)
    pieces = [p for p in parts if p is not None]
    node = _products(pieces[0])
    i = 1
    while i + 1 < len(pieces):
        sep, right = pieces[i], pieces[i + 1]
        op = "+" if _ADD.fullmatch(sep) else "-"
        node = {"op": op, "args": [node, _products(right)]}
        i += 2
    return node


def _products(text: str) -> dict:
    parts = _MUL.split(text)
    node = _operand(parts[0])
    for p in parts[1:]:
        node = {"op": "*", "args": [node, _operand(p)]}
    return node


def parse_expression(text: str) -> dict:
    parts = _DIV.split(text.strip(), maxsplit=1)
    if len(parts) == 2:
        return {"op": "/", "args": [_terms(parts[0]), _terms(parts[1])]}
    return _terms(parts[0])


def find_definition(text: str) -> tuple[dict | None, str, str | None]:
    """(definition {name, tree, unit, formula}, the text without it, or the words refused)."""
    m = DEFINE.search(text)
    if not m:
        return None, text, None
    name = " ".join(m.group("name").split()).strip(" '\"")
    expr = m.group("expr").strip(" '\"")
    if not _DIV.search(expr) and not _ADD.search(expr) and not _SUB.search(expr) and not _MUL.search(expr):
        return None, text, None  # "treat X as a priority": not a formula
    try:
        tree = parse_expression(expr)
    except DefinitionError as exc:
        return None, text[: m.start()] + text[m.end() :], str(exc)
    unit = unit_of(tree, name)
    definition = {"name": name.lower(), "tree": tree, "unit": unit, "formula": restate(tree, top=True)}
    return definition, text[: m.start()] + " " + text[m.end() :], None


def unit_of(tree: dict, name: str) -> str:
    if "const" in tree:
        return "pure"
    if "metric" in tree:
        return METRICS[tree["metric"]].unit
    a, b = (unit_of(x, name) for x in tree["args"])
    if tree["op"] in "+-":
        return a if a != "pure" else b
    if tree["op"] == "*":
        return a if b == "pure" else b
    if a == b:
        return "percent" if _PCT_NAMES.search(name) else "ratio"
    return a if b == "pure" else "ratio"


def restate(tree: dict, top: bool = False) -> str:
    if "const" in tree:
        return tree["const"]
    if "metric" in tree:
        return METRICS[tree["metric"]].label
    sym = {"+": "+", "-": "−", "*": "×", "/": "÷"}[tree["op"]]
    inner = f" {sym} ".join(restate(a) for a in tree["args"])
    return inner if top or tree["op"] in "*" else f"({inner})"


def metrics_of(tree: dict) -> list[str]:
    if "metric" in tree:
        return [tree["metric"]]
    if "const" in tree:
        return []
    return [m for a in tree["args"] for m in metrics_of(a)]


def evaluate(tree: dict, values: dict[str, Decimal], unit: str) -> Decimal:
    def ev(node: dict) -> Decimal:
        if "const" in node:
            return Decimal(node["const"])
        if "metric" in node:
            return values[node["metric"]]
        a, b = (ev(x) for x in node["args"])
        if node["op"] == "+":
            return a + b
        if node["op"] == "-":
            return a - b
        if node["op"] == "*":
            return a * b
        if b == 0:
            raise FormulaError("zero denominator")
        return a / b

    result = ev(tree)
    return result * HUNDRED if unit == "percent" else result


def trace(definition: dict, operands: list, shown: str):
    """The Calculation an answer shows for a user's formula: each input with its [n], then the
    definition as computed. `operands`: (metric key, agent.finance.Operand) in tree order."""
    from agent.answer import Calculation
    from agent.finance import display_value

    steps = []
    for key, op in operands:
        marker = f" [{op.marker}]" if op.marker is not None else ""
        steps.append(f"{METRICS[key].label} (FY{op.fiscal_year}): {display_value(op.value, op.unit)}{marker}")
    pct = " × 100" if definition["unit"] == "percent" else ""
    steps.append(f"{definition['formula']}{pct} = {shown}")
    return Calculation(metric=f"{definition['name']} (your definition)", formula=definition["formula"] + pct,
                       steps=steps, result=shown)
