"""The expected quarterly figures of the quarterly set, read from the 10-Qs' own inline XBRL and
from companyfacts' 10-Q and 10-K rows, without the agent.

Why a reader of its own: a 10-Q reports three periods for one line (the quarter, the year to date,
and both again a year earlier), and the trap the set measures is exactly the confusion between
them. So every value here is keyed by its exact (start, end), and the questions name which one
they expect:
- `three_month`: a duration of 80-100 days ending at the period asked;
- `ytd`: a duration from the fiscal year's start (six or nine months) ending there;
- `instant`: a balance at the quarter's end;
- `annual`: a 10-K's year (357-378 days), for fourth quarters derived as the year minus nine months.
Within one document, rounded repeats give way to the most precise value; a real disagreement means
no expected value (the question is not written).
"""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

from evals.xbrl_truth import _date, _read, parse_ixbrl

THREE_MONTHS = (80, 100)
SIX_MONTHS = (170, 190)
NINE_MONTHS = (260, 285)
YEAR = (357, 378)


class TruthError(LookupError):
    """No single value for what a question asks: the question is not written."""


@dataclass
class Quarterly:
    ticker: str
    name: str
    cik: int
    tenq: list[dict] = field(default_factory=list)  # {fiscal_year, quarter, period_end, accession}
    # (concept, start|None, end) -> [(value, decimals, accession, form, filed)]
    obs: dict = field(default_factory=lambda: defaultdict(list))


def _days(start: date | None, end: date) -> int | None:
    return None if start is None else (end - start).days


def collect(corpus: Path, tickers: set[str] | None = None) -> dict[str, Quarterly]:
    """Every non-dimensional fact of each 10-Q document, and companyfacts' 10-Q/10-K rows."""
    rows = list(csv.DictReader(open(corpus / "filings" / "index.csv", encoding="utf-8")))
    out: dict[str, Quarterly] = {}
    for row in rows:
        if row["form"] != "10-Q" or (tickers and row["ticker"] not in tickers):
            continue
        comp = out.setdefault(row["ticker"], Quarterly(row["ticker"], row["company"], int(row["cik"])))
        comp.tenq.append({"fiscal_year": int(row["fiscal_year"]), "quarter": row["fiscal_period"],
                          "period_end": _date(row["period_end"]), "accession": row["accession"]})
        for concept, start, end, value, decimals in parse_ixbrl(_read(corpus / row["file"]))["facts"]:
            comp.obs[(concept, _date(start) if start else None, _date(end))].append(
                (value, decimals, row["accession"], "10-Q", None))
    for row in rows:  # the 10-Ks of those companies: their years, for fourth quarters and "latest"
        if row["form"] != "10-K" or row["ticker"] not in out or not (corpus / row["file"]).exists():
            continue
        for concept, start, end, value, decimals in parse_ixbrl(_read(corpus / row["file"]))["facts"]:
            out[row["ticker"]].obs[(concept, _date(start) if start else None, _date(end))].append(
                (value, decimals, row["accession"], "10-K", row.get("filing_date") or None))
    for comp in out.values():
        comp.tenq.sort(key=lambda f: f["period_end"])
        for suffix in (".json.gz", ".json"):
            path = corpus / "companyfacts" / f"CIK{comp.cik:010d}{suffix}"
            if path.exists():
                add_companyfacts(comp, json.loads(_read(path))["facts"].get("us-gaap", {}))
                break
    return out


def collect_companyfacts(corpus: Path, ticker: str, name: str, cik: int) -> Quarterly:
    """A company known from companyfacts alone (its quarters beyond the 10-Q documents)."""
    comp = Quarterly(ticker, name, cik)
    add_companyfacts(comp, json.loads(_read(corpus / "companyfacts" / f"CIK{cik:010d}.json.gz"))["facts"].get("us-gaap", {}))
    return comp


def add_companyfacts(comp: Quarterly, facts: dict) -> None:
    for name, body in facts.items():
        for unit_rows in body.get("units", {}).values():
            for r in unit_rows:
                if r.get("form") not in ("10-Q", "10-K", "10-Q/A", "10-K/A"):
                    continue
                start = _date(r["start"]) if "start" in r else None
                comp.obs[(f"us-gaap:{name}", start, _date(r["end"]))].append(
                    (Decimal(str(r["val"])), None, r.get("accn", ""), r["form"], r.get("filed")))


def _one(values: list[tuple]) -> tuple[Decimal, str]:
    """The most precise value when the others are its rounded repeats; the latest filing wins
    between filings (restatements)."""
    latest = max(values, key=lambda v: (v[4] or "", v[2]))
    same_filing = [v for v in values if v[2] == latest[2]] or values
    best = max(same_filing, key=lambda v: 99 if v[1] is None else v[1])
    for v in same_filing:
        if v[1] is not None and round(best[0], v[1]) != round(v[0], v[1]):
            raise TruthError(f"disagreeing values {best[0]} and {v[0]}")
    return best[0], best[2]


def value(comp: Quarterly, concepts: list[str], start: date | None, end: date, *, slack: int = 0) -> dict:
    """{concept, value, start, end, accession} for the first concept with a value for exactly that
    period (an end within `slack` days, for a prior-year period found by date)."""
    for concept in concepts:
        q = concept if ":" in concept else f"us-gaap:{concept}"
        keys = [k for k in comp.obs if k[0] == q and abs((k[2] - end).days) <= slack
                and (k[1] == start if start is None or slack == 0 else k[1] is not None
                     and abs((k[1] - start).days) <= slack)]
        if len(keys) > 1:
            keys = [min(keys, key=lambda k: abs((k[2] - end).days))]
        if keys:
            v, acc = _one(comp.obs[keys[0]])
            return {"concept": q, "value": v, "start": keys[0][1], "end": keys[0][2], "accession": acc}
    raise TruthError(f"{comp.ticker}: no {concepts[0]} for {start}..{end}")


def duration(comp: Quarterly, concepts: list[str], end: date, days: tuple[int, int], *, slack: int = 0) -> dict:
    """The first concept's duration fact of that length ending at `end` (± slack days)."""
    for concept in concepts:
        q = concept if ":" in concept else f"us-gaap:{concept}"
        keys = [k for k in comp.obs if k[0] == q and k[1] is not None and abs((k[2] - end).days) <= slack
                and days[0] <= _days(k[1], k[2]) <= days[1]]
        if keys:
            key = min(keys, key=lambda k: abs((k[2] - end).days))
            v, acc = _one(comp.obs[key])
            return {"concept": q, "value": v, "start": key[1], "end": key[2], "accession": acc}
    raise TruthError(f"{comp.ticker}: no {concepts[0]} of {days} days ending {end}")


def instant(comp: Quarterly, concepts: list[str], end: date) -> dict:
    return value(comp, concepts, None, end)


def year_before(end: date) -> date:
    return end - timedelta(days=364)


def fourth_quarter(comp: Quarterly, concepts: list[str], fy_end: date) -> dict:
    """Q4 = the fiscal year minus its first nine months, checked: the nine months equal the three
    quarters' sum when all are reported, and a reported Q4 three-month fact (rare) must agree."""
    year = duration(comp, concepts, fy_end, YEAR, slack=0)
    nine = duration(comp, [year["concept"]], _nine_month_end(comp, year), NINE_MONTHS)
    if nine["start"] != year["start"]:
        raise TruthError(f"{comp.ticker}: nine months start {nine['start']}, the year {year['start']}")
    q4 = year["value"] - nine["value"]
    reported = [k for k in comp.obs if k[0] == year["concept"] and k[2] == fy_end and k[1] is not None
                and THREE_MONTHS[0] <= _days(k[1], k[2]) <= THREE_MONTHS[1]]
    if reported and _one(comp.obs[reported[0]])[0] != q4:
        raise TruthError(f"{comp.ticker}: derived Q4 {q4} differs from the reported {_one(comp.obs[reported[0]])[0]}")
    return {"value": q4, "year": year, "nine_months": nine}


def _nine_month_end(comp: Quarterly, year: dict) -> date:
    ends = [k[2] for k in comp.obs if k[0] == year["concept"] and k[1] == year["start"]
            and NINE_MONTHS[0] <= _days(k[1], k[2]) <= NINE_MONTHS[1]]
    if not ends:
        raise TruthError(f"{comp.ticker}: no nine months for the year ending {year['end']}")
    return max(ends)
