"""`footnote ingest`, `footnote tickers` and `footnote bench ingest`.

    footnote ingest --from ../shared/sec [--tickers AAPL,NVDA]   a local folder in SEC's layout (10-Ks and 10-Qs)
    footnote ingest AAPL MSFT --years 2021-2024 [--no-quarters] from SEC EDGAR (needs SEC_IDENTITY)
    footnote ingest --reembed                                   the stored chunks embedded again on
                                                                FOOTNOTE_EMBEDDING_RUNTIME (nothing re-parsed)
    footnote ingest --passages [TICKER ...]                     the stored filings' sentences embedded (a corpus
                                                                ingested before passages existed)
    footnote tickers [FILTER]                                   what the corpus covers

Exit status of `ingest`: 0 when every document went in (or was unchanged), 3 when some failed
(each named in the summary), 2 for a usage or configuration problem.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from store.errors import FootnoteError

PARTIAL = 3


def register(sub) -> None:
    ingest = sub.add_parser("ingest", help="ingest 10-K and 10-Q filings from SEC EDGAR or from a local folder in SEC's formats")
    ingest.add_argument("tickers", nargs="*", metavar="TICKER", help="companies to fetch from SEC (e.g. AAPL MSFT)")
    ingest.add_argument("--from", dest="folder", type=Path, help="a folder in SEC's layout (e.g. ../shared/sec)")
    ingest.add_argument("--tickers", dest="ticker_list", help="with --from: only these companies, comma-separated")
    ingest.add_argument("--years", help="fiscal years to fetch from SEC: 2024 or 2021-2024 (default: all SEC lists)")
    ingest.add_argument("--no-quarters", action="store_true", help="from SEC: annual reports (10-K) only, no 10-Qs")
    ingest.add_argument("--workers", type=int, default=1, help="document-parsing processes beside the embedder (0: inline)")
    ingest.add_argument("--quiet", action="store_true", help="no progress bar")
    ingest.add_argument("--refresh-labels", action="store_true",
                        help="with --from: only re-read the statement row labels of filings already ingested "
                             "(fast; nothing is re-embedded)")
    ingest.add_argument("--reembed", action="store_true",
                        help="embed every stored chunk again on FOOTNOTE_EMBEDDING_RUNTIME and record it as the "
                             "corpus's runtime (nothing is parsed; the vectors are written in one transaction)")
    ingest.add_argument("--passages", action="store_true",
                        help="embed the sentences of stored filings that have none yet (a corpus ingested before "
                             "passages existed; TICKERs limit it to those companies); nothing is parsed")
    ingest.set_defaults(func=cmd_ingest)

    tickers = sub.add_parser("tickers", help="the companies covered: fiscal years, filings, chunks, facts")
    tickers.add_argument("filter", nargs="?", help="part of a ticker or company name")
    tickers.set_defaults(func=cmd_tickers)


def register_bench(bench_sub) -> None:
    bench = bench_sub.add_parser("ingest", help="pipeline throughput against the embedding model's own")
    bench.add_argument("--from", dest="folder", type=Path, default=Path("../shared/sec"),
                       help="a folder in SEC's layout (default ../shared/sec)")
    bench.add_argument("--limit", type=int, help="only the first N 10-K documents")
    bench.add_argument("--workers", type=int, default=1, help="document-parsing processes beside the embedder (0: inline)")
    bench.add_argument("--repeat", type=int, default=1, help="runs of both measurements; medians are reported")
    bench.add_argument("--runtime", choices=["onnx", "onnx-int8", "torch"], default=None,
                       help="the runtime measured (default: FOOTNOTE_EMBEDDING_RUNTIME)")
    bench.add_argument("--compare-runtime", choices=["onnx", "onnx-int8", "torch"], default=None,
                       help="also measure the local model on this runtime, in the same run (e.g. torch)")
    bench.add_argument("--out", type=Path, default=Path("bench-results/ingest.json"),
                       help="where the figures are written (default bench-results/ingest.json)")
    bench.add_argument("--baseline", type=Path, default=None,
                       help="another source tree (e.g. main's worktree) measured the same way, alternating with this one")
    bench.set_defaults(func=cmd_bench)

    emb = bench_sub.add_parser("embedding", help="another runtime's vectors against the corpus's: cosines and speed")
    emb.add_argument("--runtime", choices=["onnx", "onnx-int8", "torch"], default="onnx-int8",
                     help="the runtime measured (default onnx-int8)")
    emb.add_argument("--reference", choices=["onnx", "onnx-int8", "torch"], default=None,
                     help="the runtime compared with (default: the one that embedded the corpus)")
    emb.add_argument("--sample", type=int, default=1000, help="stored chunks read from the corpus (default 1000)")
    emb.add_argument("--questions", type=Path, nargs="*", default=[],
                     help="JSON-lines question files whose questions are compared too")
    emb.add_argument("--recipes", nargs="*", default=[], metavar="NAME",
                     help="int8 quantisation recipes measured too (store/onnx_export.py RECIPES; 'all' for every one)")
    emb.add_argument("--repeat", type=int, default=1, help="timed runs of each runtime, alternating; medians reported")
    emb.add_argument("--out", type=Path, default=Path("bench-results/embedding.json"),
                     help="where the figures are written (default bench-results/embedding.json)")
    emb.set_defaults(func=cmd_bench_embedding)


def parse_years(text: str | None) -> tuple[int, int] | None:
    """'2024' -> (2024, 2024); '2021-2024' -> (2021, 2024); None -> None (every year)."""
    if not text:
        return None
    m = re.fullmatch(r"\s*(\d{4})\s*(?:[-:]\s*(\d{4}))?\s*", text)
    if not m:
        raise FootnoteError(f"--years must look like 2024 or 2021-2024, not {text!r}")
    first, last = int(m[1]), int(m[2] or m[1])
    if first > last:
        raise FootnoteError(f"--years {text}: the first year is after the last")
    return first, last


def _split(text: str | None) -> list[str]:
    return [t.strip() for t in re.split(r"[,\s]+", text or "") if t.strip()]


def cmd_ingest(args, settings) -> int:
    from tqdm.contrib.logging import logging_redirect_tqdm

    from store.embedding import make_embedder
    from ingest.parse_worker import ParseWorkers
    from ingest.pipeline import ingest_folder
    from store.cli import open_for

    tickers = list(args.tickers) + _split(args.ticker_list)
    if getattr(args, "reembed", False):
        return _reembed(args, settings, tickers)
    if getattr(args, "passages", False):
        return _passages(args, settings, tickers)
    if args.folder is None and not tickers:
        raise FootnoteError("say what to ingest: tickers (footnote ingest AAPL MSFT) or a folder (--from ../shared/sec)")
    if getattr(args, "refresh_labels", False) and args.folder is None:
        raise FootnoteError("--refresh-labels reads the documents of an ingested folder: give it with --from DIR")
    if args.folder is not None and args.years:
        raise FootnoteError("--years applies to the SEC download; a local folder is ingested as it is")
    download_errors = []
    folder = args.folder
    if folder is None:
        from ingest.sec import download_to_folder

        result = download_to_folder(settings.sec_options(), tickers, parse_years(args.years), settings.data_dir / "sec-cache",
                                    progress=not args.quiet, quarters=not getattr(args, "no_quarters", False))  # fmt: skip
        download_errors = result.errors
        for err in download_errors:
            print(f"SEC: {err.ticker}: {err.reason}", file=sys.stderr)
        folder, tickers = result.folder, []
        if not result.filings:
            print("nothing to ingest: no 10-K or 10-Q was downloaded", file=sys.stderr)
            return PARTIAL
    elif not folder.is_dir():
        raise FootnoteError(f"{folder}: no such folder")
    if getattr(args, "refresh_labels", False):
        from ingest.refresh_labels import refresh_labels

        with open_for(settings) as db:
            refreshed = refresh_labels(db, folder, tickers=tickers or None, progress=not args.quiet)
        for line in refreshed.lines():
            print(line)
        return PARTIAL if refreshed.failed else 0
    embedder = make_embedder(settings.embedding_options())
    # The parse workers start (a process and edgartools' import each) while the database starts.
    # A log line (edgartools, the database) is printed above the progress bar, not through it.
    with ParseWorkers(args.workers) as started, open_for(settings) as db, logging_redirect_tqdm():
        summary = ingest_folder(db, embedder, folder, tickers=tickers or None, progress=not args.quiet,
                                workers=args.workers, parse_workers=started)  # fmt: skip
    for line in summary.lines():
        print(line)
    return PARTIAL if (summary.failed or summary.errors or download_errors) else 0


def _passages(args, settings, tickers) -> int:
    from ingest.passages import add_passages
    from store import passages
    from store.cli import open_for
    from store.embedding import make_embedder

    if args.folder is not None:
        raise FootnoteError("--passages embeds what is stored; give no folder with it")
    with open_for(settings) as db:
        accessions = None
        if tickers:
            with db.connection() as conn:
                accessions = [a for t in tickers for a in passages.filings_of(conn, t)]
            if not accessions:
                raise FootnoteError(f"no stored filing of {', '.join(tickers)}")
        done = add_passages(db, make_embedder(settings.embedding_options()), accessions, progress=not args.quiet)
    for line in done.lines():
        print(line)
    return 0


def _reembed(args, settings, tickers) -> int:
    from ingest.reembed import reembed
    from store.cli import open_for
    from store.embedding import make_embedder

    if args.folder is not None or tickers:
        raise FootnoteError("--reembed re-embeds what is stored; give no folder or tickers with it")
    with open_for(settings) as db:
        done = reembed(db, make_embedder(settings.embedding_options()), progress=not args.quiet)
    for line in done.lines():
        print(line)
    return 0


def cmd_tickers(args, settings) -> int:
    from store.cli import open_for
    from store.coverage import coverage

    with open_for(settings, check_embedding=False) as db, db.connection() as conn:
        rows = coverage(conn, args.filter)
    if not rows:
        print("no companies ingested yet" + (f" matching {args.filter!r}" if args.filter else "")
              + ": try footnote ingest --from ../shared/sec")  # fmt: skip
        return 0
    print(format_coverage(rows))
    return 0


def format_coverage(rows: list[dict]) -> str:
    """A plain-text table: ticker, company, 10-K years, figures-only years, 10-Q quarters, filings,
    chunks, facts."""
    from store.coverage import plural, years_text

    table = [("TICKER", "COMPANY", "10-K FILINGS", "FIGURES ONLY", "10-Q QUARTERS", "FILINGS", "CHUNKS", "FACTS")]
    for r in rows:
        table.append((r["ticker"] or "-", (r.get("display_name") or r["name"])[:40], years_text(r["fiscal_years"]) or "-",
                      years_text(r.get("figures_only_years")) or "-", _quarters_cell(r.get("quarters")),
                      f"{r['filings']}", f"{r['chunks']:,}", f"{r['facts']:,}"))  # fmt: skip
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    lines = []
    for row in table:
        cells = [c.ljust(w) if i < 5 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))]
        lines.append("  ".join(cells).rstrip())
    lines.append(f"{plural(len(rows), 'company', 'companies')}, {plural(sum(r['filings'] for r in rows), 'filing')}")
    lines.append("10-K filings: figures and what the filing says. Figures only: reported figures (from SEC's "
                 "companyfacts or a later 10-K's prior-year columns), no filing text. 10-Q quarters: the company's "
                 "own fiscal quarters with a quarterly report.")
    return "\n".join(lines)


def _quarters_cell(quarters) -> str:
    """[(2024, 1), (2024, 2), (2025, 1)] -> 'FY2024 Q1–Q2; FY2025 Q1'."""
    from store.coverage import quarters_text

    text = quarters_text(quarters)
    return text.replace(": ", " ").replace(" 10-Q", "") or "-"


def cmd_bench_embedding(args, settings) -> int:
    from ingest.embedding_bench import run_embedding_bench

    from store.onnx_export import RECIPES

    recipes = list(RECIPES) if args.recipes == ["all"] else args.recipes
    unknown = [r for r in recipes if r not in RECIPES]
    if unknown:
        print(f"bench embedding: unknown recipe {', '.join(unknown)} (one of {', '.join(RECIPES)}, or all)")
        return 2
    return run_embedding_bench(settings, runtime=args.runtime, reference=args.reference, sample=args.sample,
                               questions=args.questions, out=args.out, recipes=recipes, repeat=args.repeat)  # fmt: skip


def cmd_bench(args, settings) -> int:
    from ingest.bench import run_bench

    return run_bench(settings, args.folder, limit=args.limit, out=args.out, workers=args.workers,
                     repeat=args.repeat, compare_runtime=args.compare_runtime, runtime=args.runtime,
                     baseline=args.baseline)  # fmt: skip
