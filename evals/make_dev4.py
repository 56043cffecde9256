"""Build evals/data/dev4_figures.jsonl: the fourth held-out development set on figures, over the real corpus.

    python -m evals.make_dev4 [--from ../shared/sec] [--out evals/data/dev4_figures.jsonl]

Its prose half, evals/data/dev4_prose.jsonl, is built by `python -m evals.make_dev_prose SPEC.json
--out evals/data/dev4_prose.jsonl` from a spec kept outside the project (its key substrings are
filing text; only their hashes enter the set).

A fourth, independent set in the spirit of evals/make_dev3.py (same classes, same expectation
schema, same scorer), written without reading the agent's code or vocabulary, to measure whether
the product generalises to questions nobody tuned it on. Beside dev3's kinds it asks 10-Q
quarters (`QT` entries: the three months, or the balance, ending on a 10-Q's date, read with
evals.quarter_truth). Its questions live in evals/data/dev4_figures_spec.py, so the rule "never
open evals/data/dev4_*" keeps them out of sight of whoever changes the agent. The expected values
are read from the filings' inline XBRL and companyfacts, never from the agent. Generated once and
frozen: a question is never edited after its result has been seen; new questions go into a new file.
"""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path

from evals import quarter_truth
from evals.make_dev import expand_set
from evals.make_dev2 import load_spec as _load_spec
from evals.sets import DATA
from evals.xbrl_facts import FactError, collect

SPEC_FILE = DATA / "dev4_figures_spec.py"
ID_PREFIX = "d4f"


def load_spec(path: Path = SPEC_FILE) -> tuple[list[dict], list[dict]]:
    """(SPEC, THREADS) of the dev4 spec file (read by path, as make_dev2 reads its own)."""
    return _load_spec(path)


def _quarter_line(entry: dict, comp: quarter_truth.Quarterly) -> dict:
    """A 10-Q figure as a question line: the fact of exactly that quarter (or that balance date),
    in the fiscal year of the 10-Q that reports it."""
    end = date.fromisoformat(entry["end"])
    filing = next((f for f in comp.tenq if f["period_end"] == end), None)
    if filing is None:
        raise KeyError(f"{comp.ticker}: no 10-Q for the period ending {end}")
    if entry["instant"]:
        got = quarter_truth.instant(comp, entry["concepts"], end)
    else:
        got = quarter_truth.duration(comp, entry["concepts"], end, quarter_truth.THREE_MONTHS)
    value = format(got["value"], "f")
    value = value.rstrip("0").rstrip(".") if "." in value else value
    number = {"ticker": comp.ticker, "fiscal_year": filing["fiscal_year"], "value": value, "metric": entry["metric"],
              "concepts": [c if ":" in c else f"us-gaap:{c}" for c in entry["concepts"]], "source_concept": got["concept"],
              "period_end": got["end"].isoformat()}
    if got["start"] is not None:
        number["period_start"] = got["start"].isoformat()
    return {"class": entry["cls"], "question": entry["q"], "kind": "numeric",
            "expect": {"answer": "answer", "numbers": [number]}}


def build(corpus: Path, spec_file: Path = SPEC_FILE) -> tuple[list[dict], list[str]]:
    spec, threads = load_spec(spec_file)
    tenq = quarter_truth.collect(corpus, {e["tk"] for e in spec if e["t"] == "qtr"})

    def quarter(entry: dict) -> dict:
        try:
            return _quarter_line(entry, tenq[entry["tk"]])
        except quarter_truth.TruthError as exc:
            raise FactError(str(exc)) from exc

    return expand_set(spec, threads, collect(corpus), ID_PREFIX, extra={"qtr": ("qtr", quarter)})


def main(argv: list[str] | None = None) -> int:
    from evals.make_shared import write_set

    return write_set(build, DATA / "dev4_figures.jsonl", __doc__.split("\n\n")[0], argv)


if __name__ == "__main__":
    sys.exit(main())
