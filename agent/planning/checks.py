"""Checks a figure plan must pass beyond word accounting (agent.planning.words): a balance asked with a
flow's words, and the conventions a formula applies.

Why: "how much cash did it generate" accounts for every word (cash, a verb of earning), yet the
balance is a different figure from the flow asked; "ROE using year-end equity" names a convention
the registry's ROE does not apply. Each is refused with what is missing or asked back, never
answered with the look-alike.
"""

from __future__ import annotations

from agent.retrieval.concepts import METRICS
from agent.retrieval.finance import BALANCE_FORMS, FORMULAS
from agent.planning.plan import Plan

# Words that ask for an amount over the year: a flow ("cash flow", "cash generated", "spent", "paid").
_FLOW_WORDS = frozenset("flow flows generate generated generates generating spend spent spends spending burn burned "
                        "burnt burns burning raise raised raises return returned returns pay paid pays use used uses "
                        "bring brought earn earned earns make made makes".split())


def balance_as_flow(plan: Plan, trace: list[dict]) -> tuple[str, str, list[str]] | None:
    """A balance asked for with a flow's words ("cash flow", "how much cash did it generate") is not
    the balance: the balance is a different figure. Refused, offering the flows named like it
    ("operating cash flow", "free cash flow"), so the user picks one: (reason, detail, candidates); None
    when no balance is so asked."""
    balances = [k for k in plan.metrics if k in METRICS and METRICS[k].period == "instant"]
    flows = [t["word"] for t in trace if t["word"] in _FLOW_WORDS and t["as"] in ("filler", "unaccounted")]
    left = {t["word"] for t in trace if t["as"] == "unaccounted"}
    if not balances or not flows or not left <= _FLOW_WORDS | {"net"}:
        return None
    key = balances[0]
    head = METRICS[key].label.lower().split()[0]
    candidates = [m.label for m in METRICS.values() if m.period == "duration" and head in m.label.lower().split()]
    candidates += [f.label for f in FORMULAS.values() if f.unit == "USD" and head in f.label.lower().split()]
    named = " ".join(t["word"] for t in trace if t["as"] == f"metric:{key}")
    detail = f"{named} {flows[0]}"
    return ("ambiguous_metric" if candidates else "unknown_metric"), detail, candidates


_AVERAGE = frozenset({"average", "averaged", "avg", "mean"})


def conventions(plan: Plan, trace: list[dict]) -> list[tuple[int, int]]:
    """Words that name a convention the asked formula applies ("inventory turns using average
    inventory", "ROE on average equity") are consumed as that convention, marked in the trace; the
    leftover runs that remain. A convention the formula does not apply stays unaccounted."""
    averaged = {i.metric for k in plan.metrics if k in FORMULAS for i in FORMULAS[k].inputs if i.offset == -1}
    if averaged or any(BALANCE_FORMS.get(k, (None, None))[0] for k in plan.metrics):  # its average form is asked
        for t in trace:
            if t["as"] == "unaccounted" and t["word"] in _AVERAGE:
                t["as"] = "convention"
    runs, i = [], 0
    while i < len(trace):
        if trace[i]["as"] == "unaccounted":
            j = i
            while j < len(trace) and trace[j]["as"] == "unaccounted":
                j += 1
            runs.append((i, j))
            i = j
        else:
            i += 1
    return runs


def other_convention(plan: Plan, trace: list[dict]) -> str | None:
    """A convention the asked formula does not apply ("ROE using year-end equity" when ROE averages
    the opening and closing balances): never computed silently the other way; what is missing, said."""
    for k in plan.metrics:
        if k not in FORMULAS or BALANCE_FORMS.get(k, (None, None))[1]:
            continue  # a formula with a year-end form is computed so (agent.planning.defined_formulas.balance_convention)
        averaged = {i.metric for i in FORMULAS[k].inputs if i.offset == -1}
        for i, t in enumerate(trace):
            key = t["as"][7:] if t["as"].startswith("metric:") else None
            if key in averaged and i > 0 and trace[i - 1]["word"] in ("end", "ending", "closing", "year-end"):
                return (f"{FORMULAS[k].label.lower()} on year-end {METRICS[key].label.lower()} (it is computed on "
                        f"the average of the opening and closing balances)")
    return None
