"""Build evals/data/dev_prose.jsonl from a question spec kept outside the project.

    python -m evals.make_dev_prose SPEC.json [--from ../shared/sec] [--cache DIR] [--out ...]

The spec holds the questions and, for each qualitative one, substrings that point at its key
sentences in the filings. Those substrings are filing text, so the spec never enters the
project: this script turns each into a hashed reference (evals.key_sentences), and reads every
expected figure from the filings' XBRL (evals.xbrl_truth), never from the agent.

A spec entry is a case or a thread ({id, tags, turns: [case without id]}); a case is
{id, kind, question, tags?, note?, expect?, keys?, xbrl?, calc?}:
  keys  [[ticker, fiscal_year, item, substring], ...]   -> expect.evidence (hashed references)
  xbrl  [[ticker, metric, fiscal_year], ...]             -> expect.numbers
  calc  [op, [ticker, metric, fy], [ticker, metric, fy]] -> expect.calc; op: pct | growth | minus
"""

from __future__ import annotations

import argparse
import json
import sys
from decimal import Decimal
from pathlib import Path

from evals import key_sentences
from evals.corpus import SHARED_CORPUS
from evals.sets import DATA, parse_line
from evals.xbrl_truth import METRICS, collect, values_of


class SpecError(ValueError):
    pass


class Builder:
    def __init__(self, corpus: Path, cache: Path | None):
        self.corpus = corpus
        self.cache = cache
        self.values, _ = values_of(collect(corpus))
        self._items: dict[tuple, dict] = {}

    def key(self, ticker: str, fy: int, item: str, needle: str) -> dict:
        if (ticker, fy) not in self._items:
            self._items[(ticker, fy)] = key_sentences.filing_items(self.corpus, ticker, fy, self.cache)
        found = {key_sentences.norm(s): s for s in key_sentences.pick(self._items[(ticker, fy)], item, needle)}
        if len(found) != 1:
            raise SpecError(f"{ticker} FY{fy} Item {item}: {len(found)} sentences match a key substring")
        return key_sentences.reference(ticker, fy, item, next(iter(found.values())))

    def number(self, ticker: str, metric: str, fy: int) -> dict:
        v = self.values.get((ticker, metric, fy))
        if v is None:
            raise SpecError(f"no unambiguous XBRL value for {ticker} {metric} FY{fy}")
        return {"ticker": ticker, "fiscal_year": fy, "value": v["value"], "metric": metric,
                "concepts": [f"us-gaap:{c}" for c in METRICS[metric]], "source_filing_fy": v["filing_fy"],
                "source_concept": f"us-gaap:{v['concept']}"}

    def calc(self, op: str, a: list, b: list) -> dict:
        x, y = (Decimal(self.number(*p)["value"]) for p in (a, b))
        if op == "pct":
            value, unit, metric = x / y * 100, "percent", f"{a[1]}_pct_{b[1]}"
        elif op == "growth":
            value, unit, metric = (x - y) / y * 100, "percent", f"{a[1]}_growth"
        elif op == "minus":
            value, unit, metric = x - y, "USD", f"{a[1]}_minus_{b[1]}"
        else:
            raise SpecError(f"unknown calc op {op!r}")
        concepts = [f"us-gaap:{c}" for c in METRICS[a[1]] + METRICS[b[1]]]
        return {"ticker": a[0], "fiscal_year": a[2], "metric": metric, "value": str(round(value, 10)), "unit": unit, "concepts": concepts}

    def case(self, spec: dict) -> dict:
        out = {k: spec[k] for k in ("id", "kind", "question", "tags", "note") if k in spec}
        expect = dict(spec.get("expect") or {"answer": "answer"})
        if spec.get("keys"):
            expect["evidence"] = [self.key(t, fy, item, needle) for t, fy, item, needle in spec["keys"]]
        if spec.get("xbrl"):
            expect["numbers"] = [self.number(*n) for n in spec["xbrl"]]
        if spec.get("calc"):
            expect["calc"] = self.calc(*spec["calc"])
        out["expect"] = expect
        return out

    def line(self, spec: dict) -> dict:
        if "turns" in spec:
            return {"id": spec["id"], "tags": spec.get("tags", []), "turns": [self.case(t) for t in spec["turns"]]}
        return self.case(spec)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("spec", type=Path)
    p.add_argument("--from", dest="corpus", type=Path, default=SHARED_CORPUS)
    p.add_argument("--cache", type=Path, default=None, help="parsed filings, outside the project")
    p.add_argument("--out", type=Path, default=DATA / "dev_prose.jsonl")
    args = p.parse_args(argv)
    builder = Builder(args.corpus, args.cache)
    lines, errors = [], []
    for spec in json.loads(args.spec.read_text(encoding="utf-8")):
        try:
            line = builder.line(spec)
            parse_line(line, "dev_prose", spec["id"])  # the set's own validation
            lines.append(line)
        except (SpecError, ValueError) as exc:
            errors.append(f"{spec.get('id')}: {exc}")
    for e in errors:
        print("error:", e, file=sys.stderr)
    if errors:
        return 1
    with open(args.out, "w", encoding="utf-8") as fh:
        for line in lines:
            fh.write(json.dumps(line, ensure_ascii=False) + "\n")
    print(f"wrote {len(lines)} lines to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
