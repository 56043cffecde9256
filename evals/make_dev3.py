"""Build evals/data/dev3_figures.jsonl: the third held-out development set on figures, over the real corpus.

    python -m evals.make_dev3 [--from ../shared/sec] [--out evals/data/dev3_figures.jsonl]

A third, independent set in the spirit of evals/make_dev2.py (same classes, same expectation
schema, same scorer), written without reading the agent's code or vocabulary, to measure whether
the product generalises to questions nobody tuned it on. Its questions live in
evals/data/dev3_figures_spec.py, beside the generated file, so the rule "never open
evals/data/dev3_*" keeps both out of sight of whoever changes the agent. The expected values are
read from the filings' inline XBRL and companyfacts (evals.xbrl_facts, evals.dev_spec), never from
the agent. Generated once and frozen: a question is never edited after its result has been seen;
new questions go into a new file.
"""

from __future__ import annotations

import sys
from pathlib import Path

from evals.make_dev import expand_set
from evals.make_dev2 import load_spec as _load_spec
from evals.sets import DATA
from evals.xbrl_facts import collect

SPEC_FILE = DATA / "dev3_figures_spec.py"
ID_PREFIX = "d3f"


def load_spec(path: Path = SPEC_FILE) -> tuple[list[dict], list[dict]]:
    """(SPEC, THREADS) of the dev3 spec file (read by path, as make_dev2 reads its own)."""
    return _load_spec(path)


def build(corpus: Path, spec_file: Path = SPEC_FILE) -> tuple[list[dict], list[str]]:
    spec, threads = load_spec(spec_file)
    return expand_set(spec, threads, collect(corpus), ID_PREFIX)


def main(argv: list[str] | None = None) -> int:
    from evals.make_shared import write_set

    return write_set(build, DATA / "dev3_figures.jsonl", __doc__.split("\n\n")[0], argv)


if __name__ == "__main__":
    sys.exit(main())
