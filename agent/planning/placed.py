"""A line asked on a named statement ("deferred income taxes on the cash flow statement", "change in
accounts payable in the cash flow", "noncontrolling interest on the balance sheet").

Why: the statement's name is where the row is printed, not words of its name; read as words it
either made another figure ("cash", the balance) or left the line unmatched. The planner plans the
question without it (agent.planning.rules); here its line keys get the statement as their fifth field,
which agent.retrieval.line_items resolves among that statement's rows only. A balance-sheet metric
asked on the cash-flow statement is that statement's line of its name (its change in working capital,
"Accounts payable" under operating activities), never the balance.
"""

from __future__ import annotations

from agent.planning.plan import Plan
from agent.retrieval.concepts import METRICS


def _with_place(key: str, place: str) -> str:
    parts = key[5:].split("|")
    parts = (parts + ["", "", "", ""])[:4]
    parts[2] = parts[2] or parts[1] or parts[0]
    return "line:" + "|".join(parts) + f"|{place}"


def _said(plan: Plan, metric: str) -> str:
    """The words the question named a metric with, else its label."""
    words = [w["word"] for w in plan.words or [] if w.get("as") == f"metric:{metric}"]
    return " ".join(words) or METRICS[metric].label.lower()


def placed(plan: Plan, place: str) -> Plan:
    """The plan with its line keys (and probe keys) kept to the statement `place` names."""
    if plan.route != "domain":
        return plan
    metrics = []
    for key in plan.metrics:
        if key.startswith("line:"):
            key = _with_place(key, place)
        elif place == "cash" and key in METRICS and METRICS[key].period == "instant":
            said = _said(plan, key)
            changes = " ".join(w["word"] for w in plan.words or []
                               if w.get("word") in ("change", "changes", "increase", "decrease"))
            key = f"line:{said}|{said}|{said}|{changes}|cash"
        metrics.append(key)
    plan.metrics = list(dict.fromkeys(metrics))
    plan.probe = [_with_place(k, place) for k in plan.probe]
    return plan
