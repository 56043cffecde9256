"""Expression trees of a formula: their units, keys, restatement in words, evaluation and calculation trace.

Why: the answer restates the formula it computed and shows every step; one set of tree functions serves
the user's formulas and the registry's, so the figure, the restatement and the trace always agree.
"""

from __future__ import annotations

import re
from decimal import Decimal

from agent.retrieval.concepts import METRICS, normalize, PHRASES
from agent.retrieval.finance import FORMULA_PHRASES, FormulaError, FORMULAS, HUNDRED
from agent.planning.formula_syntax import PCT_NAMES, RATIO_NAMES


def choose(tree: dict, found) -> dict:
    """The tree with each set of alternatives ("first") replaced by the first whose operands all have
    a fact (`found(operand key)`), else by the first alternative (so the refusal names its inputs)."""
    if tree.get("op") == "first":
        pick = next((a for a in tree["args"] if all(found(k) for k in metrics_of(a))), tree["args"][0])
        return choose(pick, found)
    if "args" in tree:
        return {**tree, "args": [choose(a, found) for a in tree["args"]]}
    return tree


EXPENSE_WORDS = re.compile(r"\b(?:amortization|depreciation|impairments?|restructuring|compensation|expenses?|charges?|"
                            r"costs?|write[\s-]?downs?)\b", re.I)


def are_balances(node: dict) -> bool:
    """Alternatives ("first") each a balance: a printed row or an instant metric."""
    return node.get("op") == "first" and all("line" in a or ("metric" in a and not a.get("offset")
                                                             and METRICS[a["metric"]].period == "instant")
                                             for a in node["args"])


def is_profit(node: dict) -> bool:
    return node.get("metric") in PROFITS or node.get("of") in PROFITS


def is_expense(node: dict) -> bool:
    """An expense a profit was reached after: a curated expense, or a printed row named as an expense."""
    if node.get("op") == "first":  # D&A read as its tagged total or its printed rows: the first reading's kind
        return is_expense(node["args"][0])
    return node.get("metric") in EXPENSES or bool("line" in node and not node.get("offset")
                                                   and EXPENSE_WORDS.search(node["line"]))


def is_quotient(node: dict) -> bool:
    return node.get("op") == "/"


def is_amount(node: dict) -> bool:
    """A dollar amount: a USD metric, a printed row, or their sum or difference."""
    if "metric" in node:
        return METRICS[node["metric"]].unit == "USD"
    if "line" in node:
        return True
    return node.get("op") in ("+", "-", "first") and all(is_amount(a) for a in node["args"])
# Income-statement profits, and the expenses deducted to reach them. A cash-flow figure is not one:
# "free cash flow excluding stock-based compensation" deducts it, as the cash flow added it back.
# EBITDA (a registry sum, expanded into its operands) is a profit too: "EBITDA excluding stock-based
# compensation" adds it back, as analysts' add-back conventions do.
PROFITS = frozenset({"operating_income", "net_income", "gross_profit", "pretax_income", "ebitda"})
EXPENSES = frozenset({"stock_compensation", "depreciation_amortization", "depreciation", "rd", "sga",
                       "interest_expense", "income_tax", "operating_expenses", "cost_of_revenue"})


def is_itself(tree: dict) -> bool:
    """A quotient or difference of one operand with itself ("WhatsApp revenue as a fraction of total
    revenue" with the name left outside): no one asks it, so the words left out were the question."""
    args = [{k: v for k, v in a.items() if k != "said"} for a in tree.get("args") or []]  # "revenue", "total revenue"
    return tree.get("op") in ("/", "-") and len(args) == 2 and args[0] == args[1]


def unit_of(tree: dict, name: str) -> str:
    if "const" in tree:
        return "pure"
    if "line" in tree:  # a printed statement row: an amount
        return "USD"
    if "metric" in tree:
        return METRICS[tree["metric"]].unit
    if tree["op"] in ("abs", "first"):
        return unit_of(tree["args"][0], name)
    if tree["op"] == "root":
        return "ratio"
    if tree.get("percent"):
        return "percent"
    scale = tree["args"][1].get("const") if tree["op"] == "*" else None
    if scale is not None and tree["args"][0].get("op") == "/":  # a quotient scaled by the user: as written
        return "days" if Decimal(scale) in (360, 365, 366) else "ratio"
    a, b = (unit_of(x, name) for x in tree["args"])
    if tree["op"] == "-" and a == b == "percent":
        return "points"  # "gross margin minus operating margin": a gap between two percentages, in points
    if tree["op"] in ("+", "-", "avg"):
        return a if a != "pure" else b
    if tree["op"] == "*":
        if {a, b} == {"USD/shares", "shares"}:  # dividends per share × diluted shares: dollars
            return "USD"
        if b in ("pure", "ratio") and a not in ("pure", "ratio"):
            return a  # "operating income × (1 − tax rate)": an amount scaled by a fraction is an amount
        return a if b == "pure" else b
    if a == b:  # "over", "divided by", "to": a ratio, unless the definition's name says a percentage ("margin")
        named = FORMULA_PHRASES.get(normalize(name))  # "ROE is defined as ...": a percentage, as the registry's ROE
        if named is not None and FORMULAS[named].unit in ("percent", "ratio"):
            return FORMULAS[named].unit
        if METRICS.get(PHRASES.get(normalize(name), "")) is not None and METRICS[PHRASES[normalize(name)]].unit == "pure":
            return "percent"  # "effective tax rate = ...": a rate, as the table's tagged rate is shown
        return "percent" if PCT_NAMES.search(name) and not RATIO_NAMES.search(name) else "ratio"
    if (a, b) == ("USD", "shares"):
        return "USD/shares"  # net income ÷ diluted shares: a per-share amount
    return a if b == "pure" else "ratio"


def operand_key(node: dict) -> str:
    """An operand's identity: a table metric ('revenue'), narrowed to a member ('revenue@iphone'), of
    an earlier year ('revenue@iphone~-1')."""
    if "line" in node:  # a printed row by the user's words ('#marketing expense', '#marketing expense~-1')
        key = f"#{node['line']}" + (f"~{node['offset']}" if node.get("offset") else "")
        return key + (f"^{node['ticker']}" if node.get("ticker") else "")
    key = node["metric"]
    if node.get("member"):
        key += f"@{node['member']}"
    if node.get("offset"):
        key += f"~{node['offset']}"
    if node.get("ticker"):  # another company's figure, in a formula across two companies ('revenue^LOW')
        key += f"^{node['ticker']}"
    return key


def operand_ticker(key: str) -> str | None:
    """The company an operand is pinned to ('revenue^LOW' -> 'LOW'), or None: the answer's own company."""
    return key.partition("^")[2] or None


def operand_parts(key: str) -> tuple[str, str | None, int]:
    """(metric, member or None, year offset) of an operand key."""
    rest, _, offset = key.partition("^")[0].partition("~")
    metric, _, member = rest.partition("@")
    return metric, member or None, int(offset or 0)


def operand_label(key: str) -> str:
    ticker = operand_ticker(key)
    if ticker:
        return f"{operand_label(key.partition('^')[0])} ({ticker})"
    metric, member, offset = operand_parts(key)
    if key.startswith("#"):
        label = metric[1:2].upper() + metric[2:]
        return label + (" (prior year)" if offset == -1 else f" ({offset:+d} years)" if offset else "")
    if member and member.startswith("="):  # a member by its QName: its name in words ("Combat Systems")
        from agent.retrieval.segments import display_name

        member = display_name(member[1:], set(), frozenset())
    label = METRICS[metric].label + (f" ({member})" if member else "")
    return label + (" (prior year)" if offset == -1 else f" ({offset:+d} years)" if offset else "")


def restate(tree: dict, top: bool = False) -> str:
    if "const" in tree:
        return tree["const"]
    if "metric" in tree or "line" in tree:
        return operand_label(operand_key(tree))
    if tree["op"] == "abs":
        return f"|{restate(tree['args'][0], top=True)}|"
    if tree["op"] == "first":  # before the facts pick one: the convention's name, else the first reading
        if "of" in tree and not tree.get("forms"):
            return FORMULAS[tree["of"]].label
        return restate(tree["args"][0], top)  # a registry sum's forms ("EBITDA"): its first, as the registry states it
    if tree["op"] == "avg":  # the year's opening and closing balances, averaged
        return f"average {restate(tree['args'][0]).lower()} (opening and closing)"
    if tree["op"] == "root":
        return f"({restate(tree['args'][0], top=True)})^(1/{tree['n']})"
    sym = {"+": "+", "-": "−", "*": "×", "/": "÷"}[tree["op"]]
    inner = f" {sym} ".join(restate(a) for a in tree["args"])
    if tree.get("added_back"):
        inner += " (the excluded expense added back)"
    return inner if top or tree["op"] in "*" else f"({inner})"


def said_of(tree: dict) -> dict[str, str]:
    """Metric key -> the user's words for it in a formula ("net sales"), where the metric's printed row
    depends on them (agent.retrieval.line_items.printed_order)."""
    if "metric" in tree:
        return {tree["metric"]: tree["said"]} if tree.get("said") else {}
    return {k: v for a in tree.get("args", ()) for k, v in said_of(a).items()}


def metrics_of(tree: dict) -> list[str]:
    """The operand keys (operand_key) of a tree, in order."""
    if "metric" in tree or "line" in tree:
        return [operand_key(tree)]
    if "const" in tree:
        return []
    return [m for a in tree["args"] for m in metrics_of(a)]


def evaluate(tree: dict, values: dict[str, Decimal], unit: str) -> Decimal:
    def ev(node: dict) -> Decimal:
        if "const" in node:
            return Decimal(node["const"])
        if "metric" in node or "line" in node:
            return values[operand_key(node)]
        if node["op"] == "abs":
            return abs(ev(node["args"][0]))
        if node["op"] == "first":
            return ev(choose(node, lambda k: k in values))
        if node["op"] == "root":  # a compound rate's n-th root (CAGR): Decimal's correctly rounded power
            base = ev(node["args"][0])
            if base <= 0:
                raise FormulaError("no compound rate across a sign change or from zero")
            return base ** (Decimal(1) / Decimal(node["n"]))
        a, b = (ev(x) for x in node["args"])
        if node["op"] == "+":
            return a + b
        if node["op"] == "avg":
            return (a + b) / 2
        if node["op"] == "-":
            return a - b
        if node["op"] == "*":
            return a * b
        if b == 0:
            raise FormulaError("zero denominator")
        return a / b

    result = ev(tree)
    return result * HUNDRED if unit in ("percent", "points") else result


def trace(definition: dict, operands: list, shown: str):
    """The Calculation an answer shows for a user's formula: each input with its [n], then the
    definition as computed. `operands`: (metric key, agent.retrieval.finance.Operand) in tree order."""
    from agent.answer import Calculation
    from agent.retrieval.finance import display_value

    steps = []
    for key, op in operands:
        marker = f" [{op.marker}]" if op.marker is not None else ""
        label = operand_label(key).replace(" (prior year)", "")
        steps.append(f"{label} (FY{op.fiscal_year}): {display_value(op.value, op.unit)}{marker}")
    pct = " × 100" if definition["unit"] in ("percent", "points") else ""
    steps.append(f"{definition['formula']}{pct} = {shown}")
    whose = "" if definition.get("derived") else " (your definition)"
    return Calculation(metric=f"{definition['name']}{whose}", formula=definition["formula"] + pct,
                       steps=steps, result=shown)


def pinned(tree: dict, ticker: str) -> dict:
    """The tree with every operand read from company `ticker` (a formula across two companies)."""
    if "metric" in tree or "line" in tree:
        return {**tree, "ticker": ticker}
    if "args" in tree:
        return {**tree, "args": [pinned(t, ticker) for t in tree["args"]]}
    return tree


def shifted(tree: dict, offset: int) -> dict:
    """The tree with every operand `offset` fiscal years from its own."""
    if "metric" in tree or "line" in tree:
        return {**tree, "offset": tree.get("offset", 0) + offset}
    if "args" in tree:
        return {**tree, "args": [shifted(t, offset) for t in tree["args"]]}
    return tree


# --- changes of a ratio, and compound growth --------------------------------------------------------

def points_change(tree: dict, span: int) -> dict:
    """A percentage's change over `span` years, in percentage points: the ratio now less the ratio
    then (evaluated × 100 under the unit "points"), never a growth rate of a rate."""
    return {"op": "-", "args": [tree, shifted(tree, -span)]}


def compound_growth(metric: str, span: int) -> dict:
    """The compound annual growth rate of a metric over `span` years: (now ÷ then)^(1/span) − 1
    (evaluated × 100 under the unit "percent")."""
    ratio = {"op": "/", "args": [{"metric": metric}, {"metric": metric, "offset": -span}]}
    return {"op": "-", "args": [{"op": "root", "n": str(span), "args": [ratio]}, {"const": "1"}]}
