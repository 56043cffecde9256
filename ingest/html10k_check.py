"""Dev check: parse every 10-K (or 10-Q) in a folder in SEC's layout and print what was found.

    python -m ingest.html10k_check ../shared/sec [--tickers NVDA,IBM] [--chunks] [--form 10-Q]

One line per filing: Items found and by which method (e = edgartools, h = headings, i = cross-reference index), missing
Items, facts, parse seconds; and where an `__expected-sections.json` exists, the Items our
parse and the annotated copy disagree on (their counts are characters of HTML, markup
included, so only presence and relative size are compared).
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import statistics
import sys
import time
from pathlib import Path

from ingest.html10k import FilingParseError, parse_10k
from ingest.html10q import parse_10q
from ingest.sections import WANTED_ITEMS
from store.items import QUARTERLY_ITEMS

# An expected Item smaller than this (HTML characters) is itself a stub or a pointer.
EXPECTED_STUB_CHARS = 3000


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path, help="a folder in SEC's layout (e.g. ../shared/sec)")
    ap.add_argument("--tickers", default="", help="only these companies, comma-separated")
    ap.add_argument("--data-dir", type=Path, default=Path(".footnote"),
                    help="where edgartools keeps its caches (default .footnote, as FOOTNOTE_DATA_DIR)")
    ap.add_argument("--chunks", action="store_true", help="also chunk with the local embedder's tokenizer")
    ap.add_argument("--form", choices=["10-K", "10-Q"], default="10-K", help="which reports to parse (default 10-K)")
    args = ap.parse_args(argv)
    tickers = {t.strip().upper() for t in args.tickers.split(",") if t.strip()}
    quarterly = args.form == "10-Q"
    parse, wanted = (parse_10q, QUARTERLY_ITEMS) if quarterly else (parse_10k, WANTED_ITEMS)
    files = sorted((args.folder / "filings" / args.form).glob("*/*.htm.gz"))
    if tickers:
        files = [f for f in files if f.parent.name in tickers]
    embedder = None
    if args.chunks:
        from store.embedding import LocalEmbedder

        embedder = LocalEmbedder()
    from ingest.edgar_dirs import confine_edgartools

    confine_edgartools(args.data_dir)  # before edgar is imported: nothing under ~/.edgar
    import edgar.documents  # noqa: F401 - imported before timing: its import takes seconds

    times: list[float] = []
    cpus: list[float] = []  # CPU seconds: wall time is noisy on a shared machine
    failures = 0
    disagreements = 0
    found_total = 0
    for path in files:
        raw = gzip.decompress(path.read_bytes())
        t0, c0 = time.perf_counter(), time.process_time()
        try:
            parsed = parse(raw, source=str(path))
        except FilingParseError as exc:
            failures += 1
            print(f"FAIL {path.parent.name:6} {exc}")
            continue
        dt, cpu = time.perf_counter() - t0, time.process_time() - c0
        times.append(dt)
        cpus.append(cpu)
        by_item = {s.item: s for s in parsed.sections}
        found_total += len(by_item)
        found = " ".join(f"{i}{s.method[0]}:{len(s.text) // 1000}k"
                         for i, s in by_item.items())
        period = f"{parsed.meta.fiscal_period} FY{parsed.meta.fiscal_year}" if quarterly else f"FY{parsed.meta.fiscal_year}"
        line = (f"{path.parent.name:6} {period} {parsed.meta.period_end} "
                f"{found:60} missing={','.join(parsed.missing_items) or '-':10} "
                f"facts={len(parsed.facts):5} {dt:5.2f}s wall {cpu:5.2f}s cpu")
        cik10, _, rest = path.name.partition("-")
        if (parsed.meta.ticker != path.parent.name or parsed.meta.cik != int(cik10)
                or not path.name.endswith(f"{parsed.meta.period_end.isoformat()}.htm.gz")):
            line += f"  COVER MISMATCH ticker={parsed.meta.ticker} cik={parsed.meta.cik}"
        expected_path = Path(str(path).removesuffix(".htm.gz") + "__expected-sections.json")
        if expected_path.exists():
            notes = _compare(by_item, json.loads(expected_path.read_text()), wanted)
            disagreements += bool(notes)
            line += f"  expected: {'ok' if not notes else '; '.join(notes)}"
        if embedder is not None:
            from ingest.chunking import chunk_sections

            t1 = time.perf_counter()
            chunks = chunk_sections(parsed.meta, parsed.sections, count_tokens=embedder.count_tokens,
                                    max_tokens=embedder.max_tokens)
            line += (f"  chunks={len(chunks)} tables={sum(c.is_table for c in chunks)} "
                     f"max_tokens={max((c.n_tokens for c in chunks), default=0)} {time.perf_counter() - t1:.2f}s")
        print(line, flush=True)
    if times:
        print(f"\n{len(times)} parsed, {failures} failed; Items found {found_total}/{len(times) * len(wanted)}; "
              f"{disagreements} disagree with expected-sections; parse seconds median "
              f"{statistics.median(times):.2f} wall / {statistics.median(cpus):.2f} cpu, "
              f"max {max(times):.2f} wall / {max(cpus):.2f} cpu, total {sum(times):.1f} wall")
    return 1 if failures else 0


def _compare(by_item: dict, expected: list[dict], wanted=WANTED_ITEMS) -> list[str]:
    sizes = {_key(e["identifier"]): int(e["character_count"]) for e in expected}
    notes = []
    for item in wanted:
        if item not in sizes:
            continue  # 1C is never listed in the annotated copies
        big = sizes[item] >= EXPECTED_STUB_CHARS
        if big and item not in by_item:
            notes.append(f"{item} missing (expected {sizes[item]} html chars)")
        elif item in by_item and big and len(by_item[item].text) < sizes[item] * 0.02:
            notes.append(f"{item} small ({len(by_item[item].text)} vs {sizes[item]} html chars)")
    return notes


def _key(identifier: str) -> str:
    """The annotated copies' identifiers as ours: '1A' -> '1A'; 'part2item1a' -> 'II-1A'."""
    m = re.fullmatch(r"part(\d)item(\w+)", identifier.lower())
    return f"{'I' * int(m[1])}-{m[2].upper()}" if m else identifier.upper()


if __name__ == "__main__":
    sys.exit(main())
