"""Growth and change over a span of years: the year a change is measured from when the message names
its base, and growth or change the registry cannot compute (over several years, of a sum, of a
percentage, compounded) written as a formula with its years.

Why a module of its own: the planner's flow (agent.planning.rules) reads the asked year from here
and hands its finished plan here for the rewrite; both read the same base-year words.
"""

from __future__ import annotations

import re

from agent.planning.formula_trees import compound_growth, points_change, restate, shifted
from agent.planning.registry_trees import formula_tree
from agent.planning.measures import absolute_words, growth_words, implies_change
from agent.planning.plan import Plan
from agent.planning.reading import Reading, base_metric
from agent.planning.years import NUMBER_WORDS
from agent.retrieval.concepts import METRICS, normalize
from agent.retrieval.finance import FORMULAS


_BASE_YEAR = re.compile(r"\b(?:from|over|vs\.?|versus|than|compared\s+(?:to|with))\s+(?:in\s+|for\s+)?(?:the\s+)?(?:(?:fiscal|fy)\s*(?:year\s+)?)?"
                        r"'?((?:19|20)?\d\d)\b(?!\s*(?:to|through|-|–)\s*(?:fiscal\s+|fy\s*)?'?\d)")


# a figure said to differ from a named year ("lower than 2023", "up versus fy22"): that year is the base
_COMPARED_TO_BASE = re.compile(r"\b(?:higher|lower|more|less|bigger|smaller|larger|up|down|better|worse|change[ds]?|"
                               r"differ\w*)\b.*\b(?:than|from|vs\.?|versus|compared\s+(?:to|with))\s")


def _named_base(low: str) -> int | None:
    """The year a change is measured from, when the message names one ("growth over fy23" -> 2023)."""
    m = _BASE_YEAR.search(low)
    return None if m is None else int(m.group(1)) + (2000 if len(m.group(1)) == 2 else 0)


_GREW = re.compile(r"\b(?:grow|grew|grown|growth|growing)\b")
_COMPOUND = re.compile(r"\b(?:cagr|compound(?:ed)?\s+annual(?:\s+growth)?(?:\s+rate)?|annualized\s+growth(?:\s+rate)?)\b")
_N_YEAR = re.compile(r"\b(two|three|four|five|[2-5])[\s-]+years?\b")


def spanned_changes(plan: Plan, text: str) -> Plan:
    """Growth or change the registry cannot compute, as a formula with its years: over more than one
    year ("growth over fy2023" asked of fy2025: fiscal 2025 against fiscal 2023, never 2025's own
    growth), of a registry sum or difference ("free cash flow growth", never the level), of a
    percentage ("operating margin change from 2023 to 2024": the difference in percentage points,
    never either year's margin alone), and compounded ("revenue CAGR 2023 to 2025", "2-year CAGR
    through fiscal 2025": the annual rate that compounds to the whole change)."""
    if plan.route != "domain" or plan.intent == "qualitative" or not plan.fiscal_years:
        return plan
    low = normalize(text)
    compound = bool(_COMPOUND.search(low))
    asks_change = growth_words(low) or implies_change(low) or compound
    if len(plan.fiscal_years) >= 2:  # "from 2023 to 2024": a change of a percentage or a compound rate only
        ratios = [k for k in plan.metrics if k in FORMULAS and FORMULAS[k].unit in ("percent", "ratio", "days")
                  and formula_tree(k)]
        if not asks_change or not (compound or (ratios and len(plan.fiscal_years) == 2)) or len(plan.metrics) != 1:
            return plan
        first, last = min(plan.fiscal_years), max(plan.fiscal_years)
        plan.fiscal_years = [last]
        span = last - first
    else:
        base = _named_base(low)
        said = _N_YEAR.search(low)
        span = plan.fiscal_years[0] - base if base is not None and base < plan.fiscal_years[0] else \
            NUMBER_WORDS[said.group(1)] if compound and said else 1
    absolute = asks_change and absolute_words(low)
    metrics, added = [], []
    for key in plan.metrics:
        node, label, unit = None, None, None
        if compound and base_metric(key) in METRICS and span > 1 and METRICS[base_metric(key)].period == "duration":
            metric = base_metric(key)
            tree = compound_growth(metric, span)
            name = f"{METRICS[metric].label.lower()} cagr, fiscal {plan.fiscal_years[0] - span} to {plan.fiscal_years[0]}"
            added.append({"name": name, "tree": tree, "unit": "percent", "derived": True,
                          "formula": restate(tree, top=True) + " (compound annual growth rate)"})
            metrics.append(f"udf:{name}")
            continue
        if span > 1 and key.endswith(("_growth", "_change")) and base_metric(key) in METRICS:
            node, label = {"metric": base_metric(key)}, METRICS[base_metric(key)].label.lower()
            absolute = key.endswith("_change")
        elif key in FORMULAS and asks_change and not key.endswith(("_growth", "_change")):
            f = FORMULAS[key]
            if f.unit == "USD" and len(f.inputs) == 2 and f.operator in ("+", "−") and not any(i.offset for i in f.inputs):
                node = {"op": "+" if f.operator == "+" else "-", "args": [{"metric": i.metric} for i in f.inputs]}
                label = f.label.lower()
            elif f.unit == "USD" and len(f.inputs) == 1 and not f.inputs[0].offset:
                # "how much did EBIT grow": a named line's change (EBIT as operating income), never its level
                node, label = {"metric": f.inputs[0].metric}, f.label.lower()
            elif f.unit == "percent" and formula_tree(key) is not None:
                node, label, unit = formula_tree(key), f.label.lower(), "points"
            elif f.unit in ("ratio", "days") and formula_tree(key) is not None and not _GREW.search(low):
                # "the change in the current ratio from 2023 to 2024": the difference of the two ratios, in the
                # ratio's own unit, never either year's ratio alone (its growth rate, asked "grew", is a growth)
                node, label, unit = formula_tree(key), f.label.lower(), f.unit
        if node is None:
            metrics.append(key)
            continue
        prior = shifted(node, -span)
        diff = {"op": "-", "args": [node, prior]}
        since = f" from fiscal {plan.fiscal_years[0] - span}" if span > 1 else ""
        if unit == "points":
            tree, name = points_change(node, span), f"{label} change{since or ' from the prior year'} (percentage points)"
        elif unit in ("ratio", "days"):
            tree, name = diff, f"{label} change{since or ' from the prior year'}"
        elif absolute:
            tree, unit, name = diff, "USD", f"{label} change{since}"
        else:
            tree, unit, name = {"op": "/", "args": [diff, {"op": "abs", "args": [prior]}]}, "percent", f"{label} growth{since}"
        added.append({"name": name, "tree": tree, "unit": unit, "formula": restate(tree, top=True), "derived": True})
        metrics.append(f"udf:{name}")
    if not added:
        return plan
    plan.metrics = metrics
    plan.definitions = [*plan.definitions, *added]
    plan.intent = "derived" if len(plan.tickers) == 1 else plan.intent
    return plan


def year_of_change(r: Reading, low: str, prev: Plan | None) -> int | None:
    """The asked year of a change named by its base ("the change from fy2023", "growth over 2022"):
    the thread's later year, else the year after the base. None when the message names no base year."""
    if len(r.years.years) != 1:
        return None
    base = _named_base(low)
    if base is None or base != r.years.years[0]:
        return None
    later = [y for y in (prev.fiscal_years if prev is not None else []) if y > base]
    if r.growth:
        return max(later) if later else base + 1
    # "why was it lower than 2023?" after a 2024 figure: the thread's year, measured against the one named
    same_subject = prev is not None and set(r.tickers) <= set(prev.tickers)
    return max(later) if later and same_subject and (r.why or _COMPARED_TO_BASE.search(low)) else None


# "how much did X increase", "by how much": the amount's change beside its rate ("in percent" keeps the rate)
_HOW_MUCH = re.compile(r"\bby\s+how\s+much\b|\bhow\s+much\s+(?:did|has|have|had|does|do)\b")
_RATE_SAID = re.compile(r"%|\b(?:percent|percentage|pct|rate)\b")
# the participles a change is asked with ("how much has it grown / risen / gone up?")
_CHANGED = re.compile(r"\b(?:grown|risen|fallen|dropped|declined|increased|decreased|changed|gone\s+(?:up|down)|shrunk)\b")


def line_changes(plan: Plan, text: str) -> Plan:
    """A printed line's growth or change, asked of one year or of two ("Meta total costs and expenses growth
    2024", "how much did its net PP&E grow from FY2023 to FY2024?"), as a formula over the line and the
    same line a year (or the span) before: the rate, the amount's change for "dollar change", and both
    for "by how much". The growth words are only taken where the row's name does not hold them (they are
    the line key's spare words, not its own: "Increase in receivables" is a row).

    Why: the growth words were read as words a row's label may carry, and the level of the line was
    stated for its growth, a figure for another question."""
    if plan.route != "domain" or plan.intent == "qualitative" or plan.period or len(plan.fiscal_years) > 2:
        return plan
    low = normalize(text)
    lines = [k for k in plan.metrics if k.startswith("line:")]
    if not lines or len(plan.metrics) != 1:
        return plan
    key = lines[0]
    parts = (key[5:].split("|") + ["", "", "", ""])[:4]
    shown, spare = parts[2] or parts[1] or parts[0], parts[3]
    if not (growth_words(spare) or implies_change(spare) or _CHANGED.search(spare)) or growth_words(shown) \
            or _CHANGED.search(shown) or _COMPOUND.search(low):
        return plan
    span = 1
    if len(plan.fiscal_years) == 2:
        first, last = sorted(plan.fiscal_years)
        span, plan.fiscal_years = last - first, [last]
    node = {"line": shown}
    prior = shifted(node, -span)
    diff = {"op": "-", "args": [node, prior]}
    since = f" from fiscal {plan.fiscal_years[0] - span}" if span > 1 and plan.fiscal_years else ""
    rate = {"op": "/", "args": [diff, {"op": "abs", "args": [prior]}]}
    both = bool(_HOW_MUCH.search(low)) and not _RATE_SAID.search(low)
    added = []
    if absolute_words(low) or both:
        added.append({"name": f"{shown} change{since}", "tree": diff, "unit": "USD", "derived": True,
                      "formula": restate(diff, top=True)})
    if not absolute_words(low):
        added.append({"name": f"{shown} growth{since}", "tree": rate, "unit": "percent", "derived": True,
                      "formula": restate(rate, top=True)})
    plan.metrics = [f"udf:{d['name']}" for d in added]
    plan.definitions = [*plan.definitions, *added]
    plan.intent = "derived" if len(plan.tickers) == 1 else plan.intent
    return plan
