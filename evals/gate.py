"""The gate: metrics against evals/thresholds.toml, the one file that holds the thresholds."""

from __future__ import annotations

import tomllib
from pathlib import Path

THRESHOLDS = Path(__file__).parent / "thresholds.toml"


def load_thresholds(path: Path = THRESHOLDS) -> dict:
    with open(path, "rb") as fh:
        return tomllib.load(fh)


def check(metrics: dict, rules: dict) -> list[dict]:
    """One row per rule: {rule, metric, value, limit, ok}. A metric with no data passes only
    when nothing was there to measure (e.g. no claims at all), and says so."""
    rows = []
    for rule, limit in rules.items():
        for suffix, test in (("_max", lambda v, l: v <= l), ("_min", lambda v, l: v >= l), ("_below", lambda v, l: v < l)):
            if rule.endswith(suffix):
                metric = rule[: -len(suffix)]
                break
        else:
            raise ValueError(f"thresholds.toml: {rule!r} must end in _max, _min or _below")
        if metric not in metrics:
            raise ValueError(f"thresholds.toml: no metric named {metric!r}")
        value = metrics[metric]
        ok = True if value is None else bool(test(value, limit))
        rows.append({"rule": rule, "metric": metric, "value": value, "limit": limit, "ok": ok, "no_data": value is None})
    return rows


def evaluate(metrics: dict, thresholds: dict | None = None) -> dict:
    thresholds = thresholds or load_thresholds()
    gate = check(metrics, thresholds.get("gate", {}))
    targets = check(metrics, thresholds.get("targets", {}))
    return {"passed": all(r["ok"] for r in gate), "gate": gate, "targets": targets}
