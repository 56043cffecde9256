"""From scored records to the split metrics: overall, per set, per kind.

Each metric says what it is over (its denominator) so a rate over three questions never reads
like one over three hundred.
"""

from __future__ import annotations

from collections import defaultdict

from evals import prose_metrics
from evals.scorers import percentile, rate


def summarize(records: list[dict]) -> dict:
    n = len(records)
    answerable = [r for r in records if r["answerable"]]
    refuse = [r for r in records if r["should_refuse"]]
    answered = [r for r in records if r["answer"].get("kind") == "answer"]
    claims = sum(r["findings"].get("claims", 0) for r in records)
    unsupported = sum(len(r["findings"].get("unsupported", [])) for r in records)
    citations = sum(r["findings"].get("citations", 0) for r in records)
    wrong_citations = sum(len(r["findings"].get("citation_errors", [])) for r in records)
    with_gold = [r for r in records if r["findings"].get("gold")]
    base = [r for r in records if "baseline" in r["findings"]]
    refused_right = [r for r in refuse if not r["findings"]["refusal_missed"]]
    latencies = [r["latency_ms"] for r in records if r["answer"].get("kind") != "error"]
    base_top5 = sum(r["findings"]["baseline"]["top5"] for r in base)
    figure_qs = [r for r in answerable if r["expect"].get("numbers") or r["expect"].get("calc")]
    return {
        "questions": n,
        "passed": sum(1 for r in records if not r["findings"]["failures"]),
        "errors": sum(1 for r in records if r["findings"]["error"]),
        "numeric_tripwire": sum(1 for r in records if r["findings"]["tripwire"]),
        "numbers_checked": sum(1 for r in answered if r["expect"].get("numbers") or r["expect"].get("calc")),
        "numbers_missing": sum(1 for r in records if r["findings"]["numbers_missing"]),
        "figure_questions": len(figure_qs),
        "figure_accuracy": rate(sum(1 for r in figure_qs if _figures_right(r)), len(figure_qs)),
        "claims": claims,
        "unsupported_claims": unsupported,
        "unsupported_rate": rate(unsupported, claims),
        "citations": citations,
        "citation_accuracy": rate(citations - wrong_citations, citations),
        "answerable": len(answerable),
        "false_refusals": sum(1 for r in answerable if r["findings"]["false_refusal"]),
        "false_refusal_rate": rate(sum(1 for r in answerable if r["findings"]["false_refusal"]), len(answerable)),
        "should_refuse": len(refuse),
        "refusal_precision": rate(len(refused_right), len(refuse)),
        "refusal_reason_accuracy": rate(sum(1 for r in refused_right if not r["findings"]["wrong_reason"]), len(refused_right)),
        "forbidden_output": sum(1 for r in records if r["findings"]["forbidden"]),
        "route_accuracy": rate(sum(1 for r in records if not r["findings"]["wrong_route"]), n),
        "recall_questions": len(with_gold),
        "recall@5": rate(sum(1 for r in with_gold if r["findings"]["recall@5"]), len(with_gold)),
        "recall@8": rate(sum(1 for r in with_gold if r["findings"]["recall@8"]), len(with_gold)),
        "evidence_not_in_corpus": sum(1 for r in records if r["findings"].get("evidence_not_in_corpus")),
        "baseline_questions": len(base),
        "baseline_recall@5": rate(sum(1 for r in base if r["findings"]["baseline"]["recall@5"]), len(base)),
        "baseline_recall@8": rate(sum(1 for r in base if r["findings"]["baseline"]["recall@8"]), len(base)),
        "baseline_wrong_company_top5": rate(sum(r["findings"]["baseline"]["wrong_company_top5"] for r in base), base_top5),
        "footnote_recall@5_on_baseline_questions": rate(sum(1 for r in base if r["findings"].get("recall@5")), len(base)),
        "latency_p50_ms": percentile(latencies, 50),
        "latency_p95_ms": percentile(latencies, 95),
        **prose_metrics.summarize(records),
    }


def _figures_right(r: dict) -> bool:
    """Every expected figure given, none wrong: the question asked was the question answered."""
    f = r["findings"]
    return r["answer"].get("kind") == "answer" and not f["numbers_missing"] and not f["tripwire"]


def summarize_all(records: list[dict]) -> dict:
    """{overall, tags: {tag: {questions, passed}}, sets: {name: summary}, kinds: {kind: summary},
    set_kinds: {set: {kind: summary}}}."""
    by_set: dict[str, list] = defaultdict(list)
    by_kind: dict[str, list] = defaultdict(list)
    by_set_kind: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    for r in records:
        by_set[r["set"]].append(r)
        by_kind[r["kind"]].append(r)
        by_set_kind[r["set"]][r["kind"]].append(r)
    by_tag: dict[str, list] = defaultdict(list)
    for r in records:
        for tag in r.get("tags") or []:
            by_tag[tag].append(r)
    return {
        "overall": summarize(records),
        "tags": {t: {"questions": len(rs), "passed": sum(1 for r in rs if not r["findings"]["failures"])} for t, rs in sorted(by_tag.items())},
        "sets": {name: summarize(rs) for name, rs in by_set.items()},
        "kinds": {kind: summarize(rs) for kind, rs in sorted(by_kind.items())},
        "set_kinds": {s: {k: summarize(rs) for k, rs in sorted(kinds.items())} for s, kinds in by_set_kind.items()},
    }


def worst(records: list[dict], n: int = 20) -> list[dict]:
    failing = [r for r in records if r["findings"]["failures"]]
    return sorted(failing, key=lambda r: (-r["findings"]["severity"], r["set"], r["id"]))[:n]
