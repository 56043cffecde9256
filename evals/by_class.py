"""The development set's report: per class of question (CLASSES below), the four figures
the product is judged by.

- wrong figures: an answer that states a figure other than the one asked for (a look-alike metric,
  the company total for a segment, a year for a quarter, any figure where a refusal was due). The
  trust bug: it must be 0.
- right: every expected figure given exactly (numbers as facts; a formula's result as displayed,
  under the expected convention or a named alternative, or as the fact a company reports for it),
  nothing wrong beside it.
- refusal precision: questions that must be refused, refused (a refusal carries no figure).
- names what is missing: refusals whose text names the company, metric or period that is missing
  (any word of `expect.names`).

Computed from the runner's records, so it needs no database and can be tested with literals.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

from evals import scorers
from evals.display import same_value, to_decimal
from evals.metrics import _figures_right

# class -> what it measures (the report lists them in this order)
CLASSES = {
    "line_item": "a reported line item beyond the curated metrics",
    "own_label": "a line item asked for in the company's own words",
    "longer_phrase": "a metric inside a longer phrase that names another line item",
    "segment": "a segment, product or geography member (dimensional fact)",
    "segment_missing": "a qualifier the filing has no member or fact for: must refuse",
    "formula": "a standard ratio or formula, computed from reported facts",
    "user_formula": "a formula the question defines",
    "comparative_year": "a year only a later 10-K reports, as a comparative",
    "trend": "improving / declining over three or more years",
    "quarterly": "a quarter or half-year: refused until quarters are supported",
    "impossible_year": "a year no held filing reports",
    "unknown_company": "a company outside the corpus",
    "must_refuse": "prices, forecasts, advice, metrics no filing reports",
    "followup": "a follow-up turn that narrows, switches company or period",
}

FIGURE_KINDS = ("numeric", "derived", "compare", "trend")


def _stated(answer: dict) -> list[Decimal]:
    values = [to_decimal(n.get("value")) for n in answer.get("numbers") or []]
    values += [to_decimal(c.get("result")) for c in answer.get("calculation") or []]
    return [v for v in values if v is not None]


def _reported(calc: dict, answer: dict) -> bool:
    """The formula's result given as a reported fact (a tagged effective tax rate: 0.133 for
    13.26%), equal as displayed, with three significant digits at least so a bare "9" never
    passes for 9.19."""
    targets = [Decimal(str(calc["value"]))] + [Decimal(str(a["value"])) for a in calc.get("alternatives") or []]
    if calc.get("unit") == "percent":
        targets += [t / 100 for t in targets]
    for n in answer.get("numbers") or []:
        value = to_decimal(n.get("value"))
        if value is None or len(str(abs(value)).replace(".", "").lstrip("0")) < 3:
            continue
        if any(same_value(t, str(n["value"]), exact=False) for t in targets):
            return True
    return False


def judge(record: dict) -> dict:
    """{right, wrong_figure, refused, false_refusal, reason_ok, names_ok} for one record
    (None where a check does not apply)."""
    exp, ans, f = record["expect"], record["answer"], record["findings"]
    should_refuse = exp.get("answer") == "refusal"
    refused = scorers.is_refusal(ans)
    out: dict = {"right": None, "wrong_figure": bool(f.get("tripwire")), "refused": refused,
                 "false_refusal": None, "reason_ok": None, "names_ok": None}
    if should_refuse:
        out["right"] = refused
        out["wrong_figure"] = out["wrong_figure"] or bool(_stated(ans))
        if refused:
            out["reason_ok"] = scorers.reason_ok(exp, ans)
            missing = scorers.names_missing(exp, ans)
            out["names_ok"] = None if missing is None else not missing
        return out
    if exp.get("answer") != "answer":
        out["right"] = not f.get("failures")
        return out
    out["false_refusal"] = ans.get("kind") in ("refusal", "error")
    if exp.get("calc"):
        calc = scorers.check_calc(exp, ans)
        ok = bool(calc.ok) or _reported(exp["calc"], ans)
        right = ans.get("kind") == "answer" and ok and not f.get("tripwire")
        inputs = {Decimal(str(i["value"])) for i in exp["calc"].get("inputs") or []}
        # a figure that is neither the result nor one of its inputs answers another question
        other = [v for v in _stated(ans) if v not in inputs and not ok]
        out["right"] = right
        out["wrong_figure"] = out["wrong_figure"] or (ans.get("kind") == "answer" and (bool(calc.wrong and not ok) or bool(other)))
    elif exp.get("numbers"):
        right = _figures_right(record)
        out["right"] = right
        expected = {Decimal(str(n["value"])) for n in exp["numbers"]}
        stated = _stated(ans)
        # expected figures missing while others are given: the answer is about something else
        out["wrong_figure"] = out["wrong_figure"] or (
            ans.get("kind") == "answer" and bool(stated) and not expected <= set(stated) and any(v not in expected for v in stated))
    else:
        out["right"] = not f.get("failures")
    return out


def fmt(value, style: str = "") -> str:
    if value is None:
        return "–"
    return f"{100 * value:.1f}%" if style == "pct" else str(value)


def _rate(k: int, n: int) -> float | None:
    return None if n == 0 else k / n


def _summary(records: list[dict]) -> dict:
    judged = [(r, judge(r)) for r in records]
    answerable = [(r, j) for r, j in judged if r["expect"].get("answer") == "answer"]
    refuse = [(r, j) for r, j in judged if r["expect"].get("answer") == "refusal"]
    refusals_given = [j for _, j in refuse if j["refused"]]
    named = [j for j in refusals_given if j["names_ok"] is not None]
    return {
        "questions": len(records),
        "right": sum(1 for _, j in judged if j["right"]),
        "right_rate": _rate(sum(1 for _, j in judged if j["right"]), len(records)),
        "wrong_figures": sum(1 for _, j in judged if j["wrong_figure"]),
        "answerable": len(answerable),
        "false_refusals": sum(1 for _, j in answerable if j["false_refusal"]),
        "should_refuse": len(refuse),
        "refused": len(refusals_given),
        "refusal_precision": _rate(len(refusals_given), len(refuse)),
        "reason_ok": _rate(sum(1 for j in refusals_given if j["reason_ok"]), len(refusals_given)),
        "names_checked": len(named),
        "names_ok": _rate(sum(1 for j in named if j["names_ok"]), len(named)),
    }


def summarize(records: list[dict]) -> dict:
    """{headline, classes: {class: summary}, wrong: [{id, question, stated}]}."""
    by: dict[str, list] = defaultdict(list)
    for r in records:
        by[r.get("class") or r["kind"]].append(r)
    order = [c for c in CLASSES if c in by] + sorted(c for c in by if c not in CLASSES)
    figures = [r for r in records if r["expect"].get("answer") == "answer" and r["kind"] in FIGURE_KINDS]
    numeric = [r for r in figures if r["kind"] != "derived"]
    derived = [r for r in figures if r["kind"] == "derived"]
    overall = _summary(records)
    headline = {
        "wrong_figures": overall["wrong_figures"],
        "numeric_right": _rate(sum(1 for r in numeric if judge(r)["right"]), len(numeric)),
        "numeric_questions": len(numeric),
        "derived_right": _rate(sum(1 for r in derived if judge(r)["right"]), len(derived)),
        "derived_questions": len(derived),
        "figures_right": _rate(sum(1 for r in figures if judge(r)["right"]), len(figures)),
        "figure_questions": len(figures),
        "refusal_precision": overall["refusal_precision"],
        "should_refuse": overall["should_refuse"],
        "names_ok": overall["names_ok"],
        "names_checked": overall["names_checked"],
    }
    wrong = []
    for r in records:
        if judge(r)["wrong_figure"]:
            stated = [f"{n.get('concept')}={n.get('value')}" for n in r["answer"].get("numbers") or []]
            stated += [f"{c.get('metric')}={c.get('result')}" for c in r["answer"].get("calculation") or []]
            wrong.append({"id": r["id"], "class": r.get("class") or r["kind"], "question": r["question"], "stated": stated[:4],
                          "tripwire": r["findings"].get("tripwire", [])[:2]})
    return {"headline": headline, "classes": {c: _summary(by[c]) for c in order}, "overall": overall, "wrong": wrong}


COLUMNS = [
    ("questions", "n", ""), ("right", "right", ""), ("right_rate", "right %", "pct"), ("wrong_figures", "wrong figures", ""),
    ("false_refusals", "false refusals", ""), ("refusal_precision", "refusal prec.", "pct"),
    ("reason_ok", "reason ok", "pct"), ("names_ok", "names what is missing", "pct"),
]


def headline(summary: dict) -> str:
    h = summary["headline"]
    return (f"Wrong figures {h['wrong_figures']} · numeric right {fmt(h['numeric_right'], 'pct')} (of {h['numeric_questions']}) · "
            f"derived right {fmt(h['derived_right'], 'pct')} (of {h['derived_questions']}) · "
            f"refusal precision {fmt(h['refusal_precision'], 'pct')} (of {h['should_refuse']}) · "
            f"refusals naming what is missing {fmt(h['names_ok'], 'pct')} (of {h['names_checked']})")


def table(summary: dict) -> tuple[list[str], list[list[str]]]:
    """(header, rows): one row per class, then all."""
    header = ["class", *[label for _, label, _ in COLUMNS]]
    rows = list(summary["classes"].items()) + [("all", summary["overall"])]
    return header, [[name, *[fmt(s.get(key), style) for key, _, style in COLUMNS]] for name, s in rows]


def markdown(summary: dict, *, held_out: bool = False) -> str:
    out = ["## Development set by class", "", headline(summary), ""]
    header, rows = table(summary)
    out.append("| " + " | ".join(header) + " |")
    out.append("|" + "---|" * len(header))
    out += ["| " + " | ".join(row) + " |" for row in rows]
    if summary["wrong"]:
        out.append("")
        out.append(f"Wrong figures ({len(summary['wrong'])}):")
        for w in summary["wrong"]:
            if held_out:  # the id and class only: a held-out question stays unread
                out.append(f"- `{w['id']}` ({w['class']})")
                continue
            out.append(f"- `{w['id']}` ({w['class']}) {w['question']!r}: stated {', '.join(w['stated']) or '(in text)'}"
                       + (f" — {w['tripwire'][0]}" if w["tripwire"] else ""))
    return "\n".join(out) + "\n"
