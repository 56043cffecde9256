"""Conversation and prose metrics over scored records: what the development set on prose,
small talk and follow-ups is judged by.

- key_sentence_recall: of the questions that name key sentences and expect an answer, the share
  whose answer quotes at least one of them (evals.key_sentences; a refusal recalls nothing);
- unrelated_quote_rate: of those questions answered with at least one prose quote, the share with
  a quote that matches no key sentence and shares no content word with the question;
- meta_routing: of the messages expecting a META reply, the share routed META;
- thread_accuracy: of the threads, the share with every turn free of failures.
(Refusal precision, the share of must-refuse messages refused, is in evals.metrics.)
"""

from __future__ import annotations

from collections import defaultdict

from evals.scorers import answer_route, rate


def summarize(records: list[dict]) -> dict:
    keyed = [r for r in records if "key_sentences" in r["findings"] and r["expect"].get("answer") == "answer"]
    quoted = [r for r in keyed if r["answer"].get("kind") == "answer" and r["findings"]["key_sentences"]["quotes"]]
    meta = [r for r in records if r["expect"].get("answer") == "meta"]
    threads: dict[str, list[dict]] = defaultdict(list)
    for r in records:
        if r.get("thread"):
            threads[r["thread"]].append(r)
    threads_right = [t for t, turns in threads.items() if all(not r["findings"]["failures"] for r in turns)]
    return {
        "key_sentence_questions": len(keyed),
        "key_sentence_recall": rate(sum(1 for r in keyed if r["findings"]["key_sentences"]["recalled"]), len(keyed)),
        "key_sentences_unresolved": sum(len(r["findings"].get("key_unresolved") or []) for r in records),
        "quoted_answers": len(quoted),
        "unrelated_quote_rate": rate(sum(1 for r in quoted if r["findings"]["unrelated_quote"]), len(quoted)),
        "meta_questions": len(meta),
        "meta_routing": rate(sum(1 for r in meta if answer_route(r["answer"]) == "meta"), len(meta)),
        "threads": len(threads),
        "thread_accuracy": rate(len(threads_right), len(threads)),
    }
