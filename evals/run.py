"""Run question sets through the agent and score every answer.

The agent is called in-process through its front door (`Footnote.answer(Turn)`), one turn at a
time, each thread under its own fresh thread key so earlier runs' memory never leaks in. Each
case becomes one record: the question, the Answer (as JSON), its latency and every scorer's
findings; the records are what metrics, the gate and the report are computed from.
"""

from __future__ import annotations

import time
import traceback
import uuid
from collections.abc import Callable

from evals import key_sentences, scorers
from evals.baseline import dense_top_k, score_baseline
from evals.sets import Case

# How much each kind of failure weighs when ranking the worst ones for the report.
SEVERITY = {
    "error": 100,
    "tripwire": 100,
    "forbidden": 90,
    "refusal_missed": 80,
    "unsupported": 60,
    "unrelated_quote": 55,
    "citation_errors": 50,
    "false_refusal": 40,
    "key_sentence_miss": 35,
    "numbers_missing": 30,
    "wrong_kind": 25,
    "wrong_reason": 20,
    "mentions_missing": 15,
    "wrong_route": 10,
    "recall_miss": 5,
}

AnswerFn = Callable[[str, str], object]  # (thread_key, question) -> agent.answer.Answer


def score_case(case: Case, answer: dict, lookup, *, similar=None, earlier: str = "") -> dict:
    """Every scorer's findings for one answer, plus the list of failures it amounts to.
    `earlier`: the thread's previous questions, what a follow-up such as "why?" is about."""
    exp = case.expect
    f: dict = {}
    f["tripwire"] = scorers.numeric_tripwire(exp, answer)
    if lookup is not None:
        f["tripwire"] += scorers.unknown_facts(answer, lookup.fact_exists)
    nums = scorers.check_numbers(exp, answer)
    calc = scorers.check_calc(exp, answer)
    f["numbers_missing"] = (nums.missing + calc.missing) if answer.get("kind") == "answer" else []
    f["claims"], f["unsupported"] = scorers.unsupported_claims(
        answer, lookup.chunk_text if lookup else (lambda c: None), similar
    )
    f["citations"], f["citation_errors"] = scorers.citation_errors(exp, answer, lookup.fact_ok if lookup else None)
    f["false_refusal"] = scorers.false_refusal(case, answer)
    f["refusal_missed"] = scorers.refusal_missed(case, answer)
    f["wrong_kind"] = not scorers.kind_ok(exp, answer) and not f["false_refusal"] and not f["refusal_missed"]
    f["wrong_reason"] = case.should_refuse and scorers.is_refusal(answer) and not scorers.reason_ok(exp, answer)
    f["wrong_route"] = not scorers.route_ok(exp, answer)
    f["forbidden"] = scorers.forbidden_hits(exp, answer)
    f["mentions_missing"] = scorers.missing_mentions(exp, answer) if answer.get("kind") != "error" else []
    f["error"] = scorers.crashed(answer)
    if exp.get("evidence") and lookup is not None:
        gold = lookup.gold_chunks(exp["evidence"])
        retrieved = scorers.retrieved_ids(answer)
        f["gold"] = sorted(gold)
        f["evidence_not_in_corpus"] = not gold
        f["recall@5"] = scorers.recall_at_k(retrieved, gold, 5)
        f["recall@8"] = scorers.recall_at_k(retrieved, gold, 8)
        f["recall_miss"] = bool(gold) and not f["recall@5"]
    f.update(key_sentences.findings(f"{earlier} {case.question}".strip(), exp, answer, lookup))
    f["failures"] = failures_of(f)
    f["severity"] = sum(SEVERITY[name] for name in f["failures"])
    return f


def failures_of(f: dict) -> list[str]:
    out = []
    for name in SEVERITY:
        value = f.get(name)
        if value:
            out.append(name)
    return out


def run_cases(
    cases: list[Case],
    answer_fn: AnswerFn,
    *,
    lookup=None,
    db=None,
    embedder=None,
    baseline: bool = True,
    progress: Callable[[str], None] | None = None,
) -> list[dict]:
    """Answer and score every case in order; threads keep one thread key across their turns."""
    run_id = uuid.uuid4().hex[:8]
    similar = lookup.similar if lookup is not None and embedder is not None else None
    records = []
    asked: dict[str, str] = {}  # thread -> its questions so far
    for i, case in enumerate(cases, start=1):
        thread_key = f"eval:{run_id}:{case.thread or case.id}"
        started = time.perf_counter()
        trace = None
        try:
            answer = answer_fn(thread_key, case.question)
            answer_dict = answer.model_dump(mode="json") if hasattr(answer, "model_dump") else dict(answer)
        except Exception as exc:  # a crash is a scored failure, not the end of the run
            answer_dict = {"kind": "error", "text": f"{exc.__class__.__name__}: {exc}"}
            trace = traceback.format_exc(limit=8)
        latency_ms = (time.perf_counter() - started) * 1000
        findings = score_case(case, answer_dict, lookup, similar=similar, earlier=asked.get(case.thread or "", ""))
        if case.thread:
            asked[case.thread] = f"{asked.get(case.thread, '')} {case.question}".strip()
        if baseline and case.kind == "qualitative" and case.thread is None and "gold" in findings and db is not None:
            expected_ciks = {lookup.cik(e["ticker"]) for e in case.expect["evidence"]} - {None}
            hits = dense_top_k(db, embedder, case.question, k=8)
            findings["baseline"] = score_baseline(hits, set(findings["gold"]), expected_ciks)
        records.append(
            {
                "id": case.id,
                "set": case.set,
                "kind": case.kind,
                "class": case.cls or case.kind,
                "thread": case.thread,
                "turn": case.turn,
                "question": case.question,
                "tags": case.tags,
                "note": case.note,
                "expect": case.expect,
                "answerable": case.answerable,
                "should_refuse": case.should_refuse,
                "answer": answer_dict,
                "latency_ms": round(latency_ms, 2),
                "traceback": trace,
                "findings": findings,
            }
        )
        if progress is not None:
            mark = "ok" if not findings["failures"] else ",".join(findings["failures"])
            progress(f"[{i}/{len(cases)}] {case.id} {case.kind}: {mark} ({latency_ms:.0f} ms)")
    return records
