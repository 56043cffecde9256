"""Any fact of the held 10-Ks, dimensional or not, by concept and fiscal year: the expected values
of the development set, read from the filings' inline XBRL without the agent.

`evals.xbrl_truth` reads a fixed list of metrics without dimensions; the development set asks for
any line item (SG&A, dividends paid, a company's own label), for segment, product and geography
members, and for formulas over them, so it needs every fact with its axis/member pairs and the
label of the statement row it sits in. The rules are xbrl_truth's:
- only 10-K documents (10-Qs are held too, and their quarter ends are not fiscal year ends);
- durations of a whole fiscal year (357-378 days) ending at a fiscal year end, or instants at one;
- a period's fiscal year counts back from the filing's own `fiscal_year` and period end;
- when several 10-Ks report a period, the most recent one wins (restatements); within one
  filing, rounded repeats give way to the most precise value, and a real disagreement means no
  expected value (the question is not written).
"""

from __future__ import annotations

import csv
import json
import pickle
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from pathlib import Path

from lxml import etree

from evals.xbrl_truth import NS, _date, _read, _year_end, fact_value, fiscal_year_of

XBRLDI = "http://xbrl.org/2006/xbrldi"
XSI_NIL = "{http://www.w3.org/2001/XMLSchema-instance}nil"


@dataclass(frozen=True)
class Obs:
    concept: str  # prefixed, e.g. us-gaap:SellingGeneralAndAdministrativeExpense
    dims: tuple  # sorted ((axis, member), ...); () for the company total
    fiscal_year: int
    instant: bool
    value: Decimal
    decimals: int | None
    filing_fy: int
    accession: str
    label: str  # first cell of the statement row the fact sits in ("" outside tables)


@dataclass
class Company:
    ticker: str
    name: str
    cik: int
    filings: list[dict] = field(default_factory=list)
    obs: dict = field(default_factory=lambda: defaultdict(list))  # (concept, dims, fy, instant) -> [Obs]


def _row_label(el) -> str:
    """The text of the first non-empty cell of the table row holding `el`."""
    tr = el.getparent()
    while tr is not None and not (isinstance(tr.tag, str) and tr.tag.endswith("}tr") or tr.tag == "tr"):
        tr = tr.getparent()
    if tr is None:
        return ""
    for td in tr:
        text = " ".join("".join(td.itertext()).split())
        if text:
            return text[:160]
    return ""


def parse_document(raw: bytes) -> list[tuple]:
    """[(concept, start|None, end, dims, value, decimals, row label)] for every numeric fact."""
    root = etree.fromstring(raw, etree.XMLParser(recover=True, huge_tree=True))
    contexts: dict[str, tuple] = {}
    for ctx in root.iter("{%s}context" % NS["xbrli"]):
        dims = []
        for member in ctx.iter("{%s}explicitMember" % XBRLDI):
            dims.append((member.get("dimension", ""), (member.text or "").strip()))
        for member in ctx.iter("{%s}typedMember" % XBRLDI):
            dims.append((member.get("dimension", ""), " ".join("".join(member.itertext()).split())))
        start = ctx.findtext(".//{%s}startDate" % NS["xbrli"])
        end = ctx.findtext(".//{%s}endDate" % NS["xbrli"])
        inst = ctx.findtext(".//{%s}instant" % NS["xbrli"])
        contexts[ctx.get("id")] = (tuple(sorted(dims)), start.strip() if start else None, (end or inst or "").strip())
    facts = []
    for el in root.iter("{%s}nonFraction" % NS["ix"]):
        ctx = contexts.get(el.get("contextRef"))
        if ctx is None or el.get(XSI_NIL) == "true":
            continue
        read = fact_value(el)
        if read is None:
            continue
        value, precision = read
        facts.append((el.get("name"), ctx[1], ctx[2], ctx[0], value, precision, _row_label(el)))
    return facts


def collect(corpus: Path, cache: Path | None = None) -> dict[str, Company]:
    """{ticker: Company} over every 10-K of the corpus (cached in `cache` when given: parsing
    68 documents takes a minute)."""
    if cache is not None and cache.exists():
        return pickle.loads(cache.read_bytes())
    rows = [r for r in csv.DictReader(open(corpus / "filings" / "index.csv", encoding="utf-8")) if r["form"] == "10-K"]
    out: dict[str, Company] = {}
    for row in sorted(rows, key=lambda r: r["period_end"]):
        ticker = row["ticker"]
        comp = out.setdefault(ticker, Company(ticker, row["company"], int(row["cik"])))
        filing_end, fy = _date(row["period_end"]), int(row["fiscal_year"])
        accession = row["accession"] or f"doc-{row['period_end']}"
        comp.filings.append({"fiscal_year": fy, "period_end": row["period_end"], "accession": accession})
        for concept, start, end, dims, value, decimals, label in parse_document(_read(corpus / row["file"])):
            e = _date(end)
            if not _year_end(e, filing_end):
                continue
            if start is not None and not 357 <= (e - _date(start)).days <= 378:
                continue
            year = fiscal_year_of(e, filing_end, fy)
            comp.obs[(concept, dims, year, start is None)].append(
                Obs(concept, dims, year, start is None, value, decimals, fy, accession, label))
    for comp in out.values():
        for sub in ("", "trimmed/"):
            path = corpus / "companyfacts" / f"{sub}CIK{comp.cik:010d}.json.gz"
            if path.exists():
                _add_companyfacts(comp, json.loads(_read(path))["facts"])
    if cache is not None:
        cache.write_bytes(pickle.dumps(out))
    return out


def _add_companyfacts(comp: Company, facts: dict) -> None:
    """companyfacts' 10-K rows (no dimensions): they carry later 10-Ks than the documents held,
    whose figures win for the years they report, as they do for the agent."""
    anchor = comp.filings[-1]
    anchor_end, anchor_fy = _date(anchor["period_end"]), anchor["fiscal_year"]
    for taxonomy in ("us-gaap", "dei"):
        for name, body in facts.get(taxonomy, {}).items():
            for unit_rows in body.get("units", {}).values():
                for r in unit_rows:
                    if r.get("form") not in ("10-K", "10-K/A") or r.get("fy") is None:
                        continue
                    end = _date(r["end"])
                    start = _date(r["start"]) if "start" in r else None
                    if start is not None and not 357 <= (end - start).days <= 378:
                        continue
                    if not _year_end(end, anchor_end):
                        continue
                    year = fiscal_year_of(end, anchor_end, anchor_fy)
                    comp.obs[(f"{taxonomy}:{name}", (), year, start is None)].append(
                        Obs(f"{taxonomy}:{name}", (), year, start is None, Decimal(str(r["val"])).normalize(), None,
                            int(r["fy"]), r.get("accn", ""), ""))


def _precise(obs: list[Obs]) -> Decimal | None:
    best = max(obs, key=lambda o: 99 if o.decimals is None else o.decimals)
    for o in obs:
        if o.decimals is None and o.value != best.value:
            return None
        if o.decimals is not None and round(best.value, o.decimals) != round(o.value, o.decimals):
            return None
    return best.value


class FactError(LookupError):
    """No single expected value: the question must not be written."""


def fact(comp: Company, concept: str, fy: int, dims: dict | None = None, *, instant: bool | None = None) -> dict:
    """The expected value of one fact: {value, concept, dims, filing_fy, accessions, label, restated}.

    `dims` {axis: member} must match the context's dimensions exactly ({} or None: the total)."""
    key_dims = tuple(sorted((dims or {}).items()))
    kinds = [instant] if instant is not None else [False, True]
    obs = [o for k in kinds for o in comp.obs.get((concept, key_dims, fy, k), [])]
    if not obs:
        raise FactError(f"{comp.ticker} {concept} {dict(key_dims)} FY{fy}: not reported")
    latest_fy = max(o.filing_fy for o in obs)
    latest = [o for o in obs if o.filing_fy == latest_fy]
    value = _precise(latest)
    if value is None:
        raise FactError(f"{comp.ticker} {concept} FY{fy}: the FY{latest_fy} filing disagrees {sorted({str(o.value) for o in latest})}")
    older = {_precise([o]) for o in obs if o.filing_fy < latest_fy} - {value}
    labels = [o.label for o in latest if o.label]
    return {
        "value": format(value, "f") if value != 0 else "0",
        "concept": concept,
        "dims": dict(key_dims),
        "filing_fy": latest_fy,
        "accessions": sorted({o.accession for o in latest}),
        "label": labels[0] if labels else "",
        "restated": bool(older),
    }


def members(comp: Company, concept: str, fy: int, axis: str) -> dict[str, str]:
    """{member: value} of one concept along one axis (single-axis contexts only)."""
    out = {}
    for (c, dims, year, _), obs in comp.obs.items():
        if c == concept and year == fy and len(dims) == 1 and dims[0][0] == axis:
            v = _precise([o for o in obs if o.filing_fy == max(x.filing_fy for x in obs)])
            if v is not None:
                out[dims[0][1]] = format(v, "f")
    return out
