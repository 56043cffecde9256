"""The registry's formulas as expression trees, so a named ratio can be combined, shifted or pinned like a user's.

Why: a comparison across companies or years ("Apple's operating margin minus Microsoft's") needs the named ratio
as a tree of its operands; building it from the registry keeps one definition of every ratio.
"""

from __future__ import annotations

from agent.retrieval.finance import FORMULAS


def _sum(*metrics: str) -> dict:
    node = {"metric": metrics[0]}
    for m in metrics[1:]:
        node = {"op": "+", "args": [node, {"metric": m}]}
    return node


# Registry percentages over revenue whose numerator is itself a sum or difference (EBITDA, free cash flow, SG&A
# as its two rows), each as the tree it computes, so a change in them is the same points change as a margin's
_QUOTIENTS: dict[str, dict] = {
    "ebitda_margin": {"op": "/", "args": [_sum("operating_income", "depreciation_amortization"), {"metric": "revenue"}]},
    "ebitda_margin_dep_amort": {"op": "/", "args": [_sum("operating_income", "depreciation", "amortization_intangibles"),
                                                    {"metric": "revenue"}]},
    "ebitda_margin_depreciation": {"op": "/", "args": [_sum("operating_income", "depreciation"), {"metric": "revenue"}]},
    "ebit_margin": {"op": "/", "args": [{"metric": "operating_income"}, {"metric": "revenue"}]},
    "fcf_margin": {"op": "/", "args": [{"op": "-", "args": [{"metric": "operating_cash_flow"}, {"metric": "capex"}]},
                                       {"metric": "revenue"}]},
    "sga_pct_revenue_parts": {"op": "/", "args": [_sum("selling_marketing", "general_administrative"), {"metric": "revenue"}]},
}


def formula_tree(key: str) -> dict | None:
    """A registry formula as a tree when it is a quotient of two same-year metrics ("Gross profit ÷
    Revenue"), with its fallbacks of that shape as alternatives ("first"); else None. A margin
    computed from its cost ("(Revenue − Cost of revenue) ÷ Revenue") is that shape too."""
    trees, seen = [], set()
    while key and key in FORMULAS and key not in seen:
        seen.add(key)
        f = FORMULAS[key]
        ins = [i.metric for i in f.inputs]
        if key in _QUOTIENTS:
            trees.append(_QUOTIENTS[key])
        elif len(ins) == 2 and not any(i.offset for i in f.inputs) and f.operator == "÷":
            trees.append({"op": "/", "args": [{"metric": ins[0]}, {"metric": ins[1]}]})
        elif len(ins) == 2 and not any(i.offset for i in f.inputs) and f.operator == "−" and f.unit == "percent":
            trees.append({"op": "/", "args": [{"op": "-", "args": [{"metric": ins[0]}, {"metric": ins[1]}]},
                                              {"metric": ins[0]}]})
        else:
            break
        key = f.fallback
    if not trees:
        return None
    return trees[0] if len(trees) == 1 else {"op": "first", "args": trees}
