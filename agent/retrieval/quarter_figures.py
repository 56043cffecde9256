"""retrieve for a quarter: the exact period a plan's `period` names, per company, as evidence.

Why apart from retrieve's yearly path: a quarter's figure is chosen by its exact dates among the
quarter, the year to date and the year (agent.retrieval.quarters), and its computations (a fourth quarter,
growth on a quarter, trailing twelve months) cite every input with its own period. What is not
held is refused, naming the quarter and the quarters that are held: never a year's figure for a
quarter, never a year to date for three months, never a neighbouring quarter.
"""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal

from agent.answer import Calculation
from agent.refusals import as_named
from agent.retrieval.concepts import METRICS
from agent.retrieval.metric_facts import concepts_of
from agent.composing.draft import Evidence
from agent.retrieval.finance import FORMULAS, NEGATIVE_BASE, FormulaError, Operand, calculate, display_value
from agent.retrieval.quarters import ORDINAL, Calendar, Figure, Periods
from agent.retrieval.segments import known_mistags
from agent.state import plan_of
from agent.retrieval.quarter_members import line_as_member, member_measure
from store import quarters as quarters_store

# Duration concepts nearly every filer reports each quarter: the company's fiscal calendar.
CALENDAR_CONCEPTS = ["us-gaap:NetIncomeLoss", "us-gaap:ProfitLoss", "us-gaap:Revenues",
                     "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax", "us-gaap:EarningsPerShareDiluted",
                     "us-gaap:NetCashProvidedByUsedInOperatingActivities"]
MAX_QUARTERS = 8


class NotAQuarterMeasure(Exception):
    """A segment member, a formula or a user's formula asked for a quarter: answered for years only."""


class NotHeld(Exception):
    """The period asked for is not reported (nor computable from reported facts)."""


class NotReported(NotHeld):
    """The quarter is held (the company's calendar figures report it) but this measure is not reported for it:
    Travelers tags no operating income. Refused as no figure, never as a quarter that is not held."""


def _memo(memo: dict, key, compute):
    if key not in memo:
        memo[key] = compute()
    return memo[key]


def calendar_periods(conn, memo: dict, cik: int) -> Periods:
    facts = _memo(memo, ("q_calendar", cik), lambda: quarters_store.period_facts(conn, cik, CALENDAR_CONCEPTS))
    return Periods(facts, Calendar.of(facts), CALENDAR_CONCEPTS)


def year_end_label(conn, memo: dict, cik: int, end: date) -> int | None:
    """The fiscal year a date closes, if it is a fiscal year end: such a date asks for a year."""
    return calendar_periods(conn, memo, cik).cal.ends_year(end)


def latest_is_quarter(conn, memo: dict, cik: int) -> bool:
    """Whether the most recent period held is a quarter after the last fiscal year's end."""
    cal = calendar_periods(conn, memo, cik)
    quarters = [end for _, q, end in cal.three_month_ends() if q != 4]
    years = list(cal.cal.ends.values())
    return bool(quarters) and (not years or max(quarters) > max(years))


def spoken(fy: int, q: int) -> str:
    """'the second quarter of fiscal 2024' (no digit a refusal would scrub)."""
    return f"the {ORDINAL[q]} quarter of fiscal {fy}"


def _held_text(cal: Periods) -> str:
    ends = cal.three_month_ends()[-4:]
    if not ends:
        return "no quarter is held for it"
    return "quarters held: " + "; ".join(f"{ORDINAL[q]} quarter of fiscal {fy}" for fy, q, _ in ends)


def target_quarter(period: dict, cal: Periods, *, latest_from: Periods | None = None) -> tuple[int, int]:
    """The (fiscal year, quarter) a period request names, in the company's own calendar."""
    if period.get("end"):
        found = cal.locate(date.fromisoformat(period["end"]))
        if found is None:
            end = date.fromisoformat(period["end"])
            raise NotHeld(f"the quarter ended in {_month(end.month)} {end.year}")
        return found
    if period.get("end_month"):
        ends = cal.quarter_ends()
        for fy, q, end in reversed(ends):
            nominal = date.fromordinal(end.toordinal() - 4)
            if nominal.month != period["end_month"]:
                continue
            if period.get("end_year") and nominal.year != period["end_year"]:
                continue
            if period.get("fiscal_year") and fy != period["fiscal_year"]:
                continue
            return fy, q
        raise NotHeld(f"the quarter ending in {_month(period['end_month'])}"
                      + (f" {period['end_year']}" if period.get("end_year") else "")
                      + (f" of fiscal {period['fiscal_year']}" if period.get("fiscal_year") else ""))
    q = period.get("quarter")
    fy = period.get("fiscal_year")
    if q and fy:
        return fy, q
    ends = (latest_from or cal).three_month_ends()
    if q:  # "Q2" with no year: the latest Q2 held
        for efy, eq, _ in reversed(ends):
            if eq == q:
                return efy, eq
        raise NotHeld(f"a {ORDINAL[q]} quarter")
    if not ends:
        raise NotHeld("any quarter")
    return ends[-1][0], ends[-1][1]


def _month(m: int) -> str:
    from agent.retrieval.quarters import MONTH_NAMES

    return MONTH_NAMES[m - 1]


# --- evidence ---------------------------------------------------------------------------------------


def _plain(value: Decimal) -> str:
    text = format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text or "0"


class Builder:
    """Evidence, calculations and cells for one answer, shared by every company and figure."""

    def __init__(self):
        self.evidence: dict[str, Evidence] = {}
        self.calculations: list[dict] = []
        self.cells: list[dict] = []

    def fact(self, company: dict, label: str, fig: Figure) -> str:
        f = fig.fact
        ev = Evidence(
            id=f"f:{f.id}", kind="fact",
            text=(f"{company['name']} ({company['ticker']}) {label}, {fig.period_text()}: "
                  f"{display_value(f.value, f.unit)} ({f.concept}, {f.form}, period {f.start.isoformat() + ' to ' if f.start else 'at '}"
                  f"{f.end.isoformat()})"),
            ticker=company["ticker"], cik=company["cik"], fiscal_year=f.filing_fiscal_year or fig.fiscal_year,
            accession=f.accession, form=f.form, url=f.url, concept=f.concept, value=_plain(f.value), unit=f.unit,
            period_end=f.end.isoformat(), dims=dict(f.dims),
        )
        self.evidence[ev.id] = ev
        return ev.id

    def figure(self, company: dict, label: str, fig: Figure) -> str:
        """The evidence id of a figure: its fact, or a computation citing each input."""
        if not fig.derived:
            return self.fact(company, label, fig)
        operands = []
        for name, part in fig.inputs:
            pid = self.figure(company, label, part)
            operands.append({"evidence_id": pid, "value": _plain(part.value), "unit": part.unit,
                             "fiscal_year": part.fiscal_year, "name": name, "period": part.period_text()})
        return self._calc(company, label, fig, operands, fig.formula or "", _plain(fig.value), fig.unit)

    def _calc(self, company, label, fig: Figure, operands, formula: str, value: str, unit: str) -> str:
        shown = display_value(Decimal(value), unit)
        key = f"{fig.span}:{label}:{fig.end.isoformat()}"
        calc_id = f"k:q:{company['cik']}:{key}"
        first = self.evidence[operands[0]["evidence_id"]]
        ev = Evidence(id=calc_id, kind="calc",
                      text=f"{company['name']} ({company['ticker']}) {label}, {fig.period_text()}: {shown} ({formula})",
                      ticker=company["ticker"], cik=company["cik"], fiscal_year=fig.fiscal_year, accession=first.accession,
                      form=first.form, url=first.url, concept=f"{label} ({formula})", value=value, unit=unit)
        self.evidence[calc_id] = ev
        self.calculations.append({"id": calc_id, "key": "period", "period_formula": formula, "label": f"{label}, {fig.period_text()}",
                                  "ticker": company["ticker"], "fiscal_year": fig.fiscal_year, "value": value,
                                  "unit": unit, "display": shown, "operands": operands})
        return calc_id

    def growth(self, company: dict, label: str, cur: Figure, base: Figure, kind: str) -> tuple[str, str]:
        cid, bid = self.figure(company, label, cur), self.figure(company, label, base)
        if base.value == 0:
            raise NotHeld("a growth rate on a base of zero")
        unit = "quarter" if cur.span == "quarter" else "period"
        what = f"the same {unit} a year earlier" if kind == "yoy" else "the prior quarter"
        if base.value < 0:
            # a rate over a loss reads backwards ("up 426%" from a loss to a profit), as for a year
            # (agent.retrieval.finance.negative_base_change): the change in the figure's own unit instead
            value = cur.value - base.value
            fig = Figure(value=value, fiscal_year=cur.fiscal_year, span="growth", start=cur.start, end=cur.end,
                         quarter=cur.quarter, unit=cur.unit)
            operands = [{"evidence_id": cid, "value": _plain(cur.value), "unit": cur.unit, "fiscal_year": cur.fiscal_year,
                         "name": cur.period_text(), "period": cur.period_text()},
                        {"evidence_id": bid, "value": _plain(base.value), "unit": base.unit,
                         "fiscal_year": base.fiscal_year, "name": base.period_text(), "period": base.period_text()}]
            formula = f"change on {what} = this period - base period ({NEGATIVE_BASE.replace('prior year', 'base period')})"
            return self._calc(company, f"{label} change", fig, operands, formula, _plain(value), cur.unit), what
        value = ((cur.value - base.value) / abs(base.value) * 100).quantize(Decimal("1E-10"))
        fig = Figure(value=value, fiscal_year=cur.fiscal_year, span="growth", start=cur.start, end=cur.end,
                     quarter=cur.quarter, unit="percent")
        operands = [{"evidence_id": cid, "value": _plain(cur.value), "unit": cur.unit, "fiscal_year": cur.fiscal_year,
                     "name": cur.period_text(), "period": cur.period_text()},
                    {"evidence_id": bid, "value": _plain(base.value), "unit": base.unit, "fiscal_year": base.fiscal_year,
                     "name": base.period_text(), "period": base.period_text()}]
        formula = f"growth on {what} = (this period - base period) / base period"
        calc_id = self._calc(company, f"{label} growth", fig, operands, formula, _plain(value), "percent")
        ev = self.evidence[calc_id]
        self.evidence[calc_id] = ev.model_copy(update={"text": f"{ev.text}; {display_value(abs(value), 'percent')} in size"})
        return calc_id, what


def trace(calc: dict, markers: list[int]) -> Calculation:
    """A period computation's trace for the answer, each input with its footnote."""
    steps = []
    for o, n in zip(calc["operands"], markers, strict=True):
        name = o.get("name") or o.get("period") or ""
        period = o.get("period") if o.get("period") and o.get("period") != name else ""
        shown = display_value(Decimal(o["value"]), o["unit"])
        steps.append(f"{name}{' — ' + period if period else ''}: {shown} [{n}]")
    return Calculation(metric=calc["label"], formula=calc["period_formula"], steps=steps, result=calc["display"])


# --- the retrieve step ------------------------------------------------------------------------------


def _measure(conn, memo: dict, cik: int, key: str, phrase: str = "") -> tuple[list[str], str | None, bool, str] | None:
    """(concepts, unit, is a balance, label) of a measure a quarter can be asked for: a table metric,
    or a line the company's statements print. `phrase`: the user's words for a table metric, whose concept
    the company prints under those words comes first, as for a year ("Net sales", not "Total revenues")."""
    if key in METRICS:
        m = METRICS[key]
        concepts = concepts_of(conn, cik, key) if m.printed_only else list(m.concepts)
        if phrase and m.by_label:
            from agent.retrieval.line_items import labels_of, printed_index, printed_order

            index = memo.get(("printed", cik))
            if index is None:
                index = memo[("printed", cik)] = printed_index(labels_of(conn, memo, cik))
            concepts = printed_order(index, concepts, phrase)
        return concepts, m.unit, m.period == "instant", m.label
    if key.startswith("line:"):
        from agent.retrieval.line_items import company_line, line_parts, printed_label, same_printed_row

        match, candidates = company_line(conn, memo, cik, key)
        if match is None and same_printed_row(candidates) and len({c.statement for c in candidates}) == 1:
            # one printed row tagged under two concepts across filings: the quarter's fact decides which
            first = candidates[0]
            return ([c.concept for c in candidates], None, first.statement == "balance",
                    printed_label(first)[:1].upper() + printed_label(first)[1:])
        if match is None:
            return None
        # a balance at the quarter's end, or a flow over it: as the company's facts of the concept are dated (a
        # segment table holding total assets is read as a balance sheet, yet its "Income tax expense" is a flow)
        kinds = {kind for concept, kind in memo.get(("concepts", cik)) or [] if concept == match.concept}
        balance = "instant" in kinds if kinds else match.statement == "balance"
        return [match.concept], None, balance, match.label[:1].upper() + match.label[1:] if match.label else line_parts(key)[2]
    return None


def _ambiguity(period: dict, cal: Periods, company: dict) -> str | None:
    """A year written beside a quarter without "fiscal", for a company whose fiscal year is not the
    calendar year: the answer says it read the year as the company's own label."""
    fy = period.get("fiscal_year")
    if not fy or period.get("year_is_fiscal") or not (period.get("quarter") or period.get("months")):
        return None
    end = cal.cal.end(fy)
    if end is None or end.month == 12 or (end.month == 1 and end.day <= 5):
        return None
    asked = f"Q{period['quarter']}" if period.get("quarter") else period.get("phrase") or "the quarter"
    return (f"\u201c{asked} {fy}\u201d is read as {company['name']}'s own fiscal "
            f"{fy}, whose year ends in {_month(end.month)}; ask for a calendar quarter by its end month to get another one.")


class _Measure:
    """One measure's every period for one company: its label, whether it is a balance, its figures."""

    def __init__(self, conn, memo, cik: int, key: str, cal: Periods, phrase: str = "", company: dict | None = None,
                 period: dict | None = None):
        member = member_measure(conn, memo, company or {"cik": cik}, key, cal, period or {}) \
            if key.startswith("dim:") else None
        if key.startswith("dim:") and member is None:
            if "|*" in key:  # "revenue by segment" for a quarter: no one member named
                raise NotAQuarterMeasure(key)
            metric, qualifier = key[4:].split("|", 1)
            raise LookupError(f"{qualifier} {METRICS[metric].label.lower()}" if metric in METRICS else qualifier)
        if member is not None:
            concepts, names, self.instant, self.label = member
            # the member's own name first; another name of it only where the first has no quarter at all
            wrong = known_mistags(conn, memo, cik)
            every = [quarters_store.member_period_facts(conn, cik, concepts, axis, name, wrong=wrong)
                     for axis, name in names]
            self.facts = next((f for f in every if any(x.form.startswith("10-Q") for x in f)), every[0])
        else:
            measure = _measure(conn, memo, cik, key, phrase)
            if measure is None:
                raise LookupError(key)
            concepts, unit, self.instant, self.label = measure
            self.facts = quarters_store.period_facts(conn, cik, concepts, unit)
        self.p = Periods(self.facts, cal.cal if cal.cal.starts else Calendar.of(self.facts), concepts)


def _target(period: dict, cal: Periods, m: _Measure) -> tuple:
    """What a non-table period request means for this measure: ('quarter'|'ytd'|'ttm'|'instant'|'half', ...)."""
    kind = period["kind"]
    if m.instant:
        if kind == "date":
            return ("instant", date.fromisoformat(period["end"]))
        if period.get("latest") and not period.get("quarter"):
            ends = [f.end for f in m.facts if f.start is None]
            if not ends:
                raise NotHeld("any quarter")
            return ("instant", max(ends))
        fy, q = target_quarter(period, cal)
        end = next((e for efy, eq, e in cal.quarter_ends() if (efy, eq) == (fy, q)), None)
        if end is None:
            raise NotHeld(spoken(fy, q))
        return ("instant", end)
    if kind == "ytd":
        months = period.get("months")
        if period.get("quarter") == 0:  # the second half: the year minus the first six months
            ends = cal.three_month_ends()
            fy = period.get("fiscal_year") or (ends[-1][0] if ends else None)
            if fy is None:
                raise NotHeld("a second half")
            return ("half", fy)
        if period.get("end"):
            found = cal.locate(date.fromisoformat(period["end"]))
            if found is None:
                raise NotHeld(f"the period ended in {_month(int(period['end'][5:7]))} {period['end'][:4]}")
            fy, q = found
            return ("ytd", fy, months or 3 * q)
        if period.get("fiscal_year") and months:
            return ("ytd", period["fiscal_year"], months)
        ends = [(fy, q) for fy, q, _ in cal.quarter_ends() if q < 4 and (not months or 3 * q == months)]
        if period.get("fiscal_year"):
            ends = [(fy, q) for fy, q in ends if fy == period["fiscal_year"]]
        if not ends:
            year = f" of fiscal {period['fiscal_year']}" if period.get("fiscal_year") else ""
            raise NotHeld(f"a year to date{year}")
        fy, q = ends[-1]
        return ("ytd", fy, months or 3 * q)
    if kind == "date":
        found = m.p.locate(date.fromisoformat(period["end"]))
        if found is None:
            raise NotHeld(f"the quarter ended in {_month(int(period['end'][5:7]))} {period['end'][:4]}")
        fy, q = found
    else:
        fy, q = target_quarter(period, cal, latest_from=m.p)
    return ("ttm" if kind == "ttm" else "quarter", fy, q)


def _what(target: tuple) -> str:
    kind = target[0]
    if kind == "instant":
        return f"the balance at the end of {_month(target[1].month)} {target[1].year}"
    if kind == "half":
        return f"the second half of fiscal {target[1]}"
    if kind == "ytd":
        months = {3: "three", 6: "six", 9: "nine", 12: "twelve"}.get(target[2], str(target[2]))
        return f"the first {months} months of fiscal {target[1]}"
    if kind == "ttm":
        return f"the twelve months to the end of {spoken(target[1], target[2])}"
    return spoken(target[1], target[2])


def _calendar_holds(cal: Periods, target: tuple) -> bool:
    """Whether the company reports figures for a quarter (its three months) or a quarter's end (a balance)."""
    if target[0] == "quarter":
        return any((fy, q) == (target[1], target[2]) for fy, q, _ in cal.three_month_ends())
    if target[0] == "instant":
        return any(end == target[1] for _, _, end in cal.quarter_ends())
    return False


def _figure(m: _Measure, target: tuple) -> Figure | None:
    kind = target[0]
    if kind == "instant":
        return m.p.instant(target[1])
    if kind == "half":
        return m.p.second_half(target[1])
    if kind == "ytd":
        return m.p.year(target[1]) if target[2] == 12 else m.p.ytd(target[1], target[2])
    if kind == "ttm":
        return m.p.ttm(target[1], target[2])
    return m.p.quarter(target[1], target[2])


def _base(target: tuple, growth: str) -> tuple:
    """The period a growth rate is measured on: the same period a year earlier, or the quarter before."""
    kind = target[0]
    if kind == "instant":
        return ("instant", target[1].replace(year=target[1].year - 1)) if growth == "yoy" else target
    if kind in ("ytd", "ttm"):
        return (kind, target[1] - 1, target[2])
    if kind == "half":
        return ("half", target[1] - 1)
    fy, q = target[1], target[2]
    if growth == "yoy":
        return ("quarter", fy - 1, q)
    return ("quarter", fy, q - 1) if q > 1 else ("quarter", fy - 1, 4)


def _printed_instead(conn, memo, cik: int, m: _Measure, period: dict, cal: Periods, phrase: str) -> _Measure:
    """A table metric none of whose concepts holds the period: the row the company prints under the user's words
    ("Operating costs", tagged SellingGeneralAndAdministrativeExpense), exact or near-exact only, as for a year
    (agent.retrieval.retrieve); else the metric as it was, to be refused as not held."""
    from agent.retrieval.line_items import line_key

    try:
        if _figure(m, _target(period, cal, m)) is not None:
            return m
    except NotHeld:
        pass
    try:
        printed = _Measure(conn, memo, cik, line_key(phrase), cal)
        if printed.instant == m.instant and _figure(printed, _target(period, cal, printed)) is not None:
            return printed
    except (LookupError, NotHeld):
        pass
    return m


_PERIOD_ORDER = {"Q1": 1, "Q2": 2, "Q3": 3, "FY": 4}


def _filing_order(x) -> tuple:
    """A fact's filing in the order filings come: by fiscal year, then Q1..Q3 before the 10-K (the filing date is
    not always known)."""
    return (x.filing_fiscal_year or 0, _PERIOD_ORDER.get(x.filing_period or "", 0))


def _filed_before(x, f) -> bool:
    """Whether fact `x`'s filing came before fact `f`'s: by filing date when both are known, else by _filing_order."""
    if x.filed and f.filed:
        return x.filed < f.filed
    return bool(x.filing_fiscal_year and f.filing_fiscal_year) and _filing_order(x) < _filing_order(f)


def restated_note(facts: list, fig: Figure, label: str) -> str | None:
    """Words saying a figure is a later filing's restatement, when the period's own filing reported another
    amount (Johnson & Johnson's quarters before the Kenvue separation, restated in the next year's 10-Qs).

    Why: the later filing's figure is taken (agent.retrieval.quarters._best), as a year's is, but a reader
    holding the quarter's own 10-Q finds another amount there; a year's answer says which filing it read,
    and a quarter's said nothing. No amount in the words: the intro carries none."""
    f = fig.fact
    if f is None or f.own_period:
        return None
    same = [x for x in facts if x.concept == f.concept and x.start == f.start and x.end == f.end
            and x.dims == f.dims and x.value != f.value]
    first = [x for x in same if x.own_period]
    # the period's own filing not held: an earlier-filed one reporting it among its comparatives (Johnson &
    # Johnson's Q2 FY2022 in its Q2 FY2023 10-Q, before the fiscal 2023 10-K restated it without Kenvue)
    earlier = sorted((x for x in same if _filed_before(x, f)), key=_filing_order)
    if not first and not earlier:
        return None

    def named(x) -> str:
        return f"the {x.form} for fiscal {x.filing_fiscal_year}" + (
            f" {x.filing_period}" if x.filing_period and x.filing_period != "FY" else "")

    when = f"Q{fig.quarter} FY{fig.fiscal_year}" if fig.span == "quarter" and fig.quarter else "that period"
    said = (f"the period's own {first[0].form} first reported" if first
            else f"an earlier filing ({named(earlier[0])}) reported")
    return f"The {label.lower()} for {when} is as restated in a later filing ({named(f)}), not the amount {said}."


# How far apart two quarters' ends may be and still cover the same months (a fiscal quarter ending July 1 and one
# ending July 30 share two months; one ending October 29 shares none with one ending July 1)
SAME_MONTHS_DAYS = 46


def own_quarter(conn, memo: dict, company: dict, period: dict) -> tuple[dict, str | None]:
    """A period another company's fiscal calendar names (`period["of"]`, a thread's "same for amd" after Nvidia's Q2
    FY2024) as this company's own quarter of the same months, and the note saying so: AMD's Q2 FY2023, the three
    months ended July 1, 2023, for Nvidia's Q2 FY2024 ended July 30, 2023, never AMD's Q2 FY2024 a year later. The
    period itself when it is this company's or names no quarter."""
    source = period.get("of")
    if not source or source == company["ticker"] or period["kind"] not in ("quarter", "ytd", "ttm"):
        return period, None
    from store.companies import company_by_ticker
    from agent.composing.draft import possessive
    from store.display_names import display_name

    row = company_by_ticker(conn, source)
    if row is None:
        return period, None
    theirs = calendar_periods(conn, memo, row[0])
    try:
        if period["kind"] == "ytd" and period.get("fiscal_year") and period.get("months") and not period.get("end"):
            fy, q = period["fiscal_year"], period["months"] // 3  # "the first half of fiscal 2024": its second quarter
        else:
            fy, q = target_quarter(period, theirs)
    except NotHeld:
        return period, None
    end = next((e for efy, eq, e in theirs.quarter_ends() if (efy, eq) == (fy, q)), None)
    if end is None:
        return period, None
    ours = calendar_periods(conn, memo, company["cik"])
    near = [(abs((e - end).days), efy, eq, e) for efy, eq, e in ours.quarter_ends()
            if abs((e - end).days) <= SAME_MONTHS_DAYS and (period["kind"] != "ytd" or eq < 4)]
    if not near:  # (no digit a refusal would scrub)
        raise NotHeld(f"its own quarter nearest in time to {possessive(as_named(display_name(row[1])))} {spoken(fy, q)}")
    _, ofy, oq, oend = min(near)
    own = {k: v for k, v in period.items() if k not in ("of", "end", "end_month", "end_year", "latest", "or_year")}
    own.update(quarter=oq, fiscal_year=ofy, year_is_fiscal=True)
    if period["kind"] == "ytd":
        own.update(months=3 * oq)
    kind = "year to date" if period["kind"] == "ytd" else "fiscal quarter"
    # a name with a figure in it ("3M") is said by its ticker: a note may state no number the filings do not
    ours_said = company["name"] if not re.search(r"\b\d", company["name"]) else company["ticker"]
    theirs_said = display_name(row[1]) if not re.search(r"\b\d", display_name(row[1])) else source
    return own, (f"Read as {possessive(ours_said)} own {kind} nearest in time to "
                 f"{possessive(theirs_said)} Q{q} FY{fy} (their fiscal calendars differ).")


def _figures(conn, memo, company: dict, key: str, period: dict, b: Builder, phrase: str = "") -> list[dict]:
    """Cells for one company and measure (evidence and calculations go to the builder)."""
    cik = company["cik"]
    cal = calendar_periods(conn, memo, cik)
    period, carried = own_quarter(conn, memo, company, period)
    growth = period.get("growth")
    base_key = key
    if key.endswith("_growth") and key[: -len("_growth")] in METRICS:
        base_key, growth = key[: -len("_growth")], growth or "yoy"
    formula = FORMULAS.get(base_key)
    if formula is not None and any(i.offset for i in formula.inputs):
        formula = None
    if base_key.startswith("line:") and _measure(conn, memo, cik, base_key) is None:
        base_key = line_as_member(base_key) or base_key  # "family of apps revenue": a member's figure, as for a year
    if base_key.startswith("udf:") or "|=" in base_key \
            or (base_key not in METRICS and formula is None and not base_key.startswith(("line:", "dim:"))):
        raise NotAQuarterMeasure(base_key)
    inputs = [_Measure(conn, memo, cik, i.metric, cal) for i in formula.inputs] if formula else []
    m = inputs[0] if formula else _Measure(conn, memo, cik, base_key, cal, phrase, company, period)
    if not formula and base_key in METRICS and phrase and period["kind"] != "quarters":
        m = _printed_instead(conn, memo, cik, m, period, cal, phrase)
    label = formula.label if formula else m.label
    note = carried or _ambiguity(period, cal, company)
    latest = bool(period.get("latest"))
    base = {"ticker": company["ticker"], "name": company["name"], "metric": key, "label": label,
            "instant": m.instant and not formula}

    def value_of(target: tuple) -> Figure | None:
        if not formula:
            return _figure(m, target)
        parts = [_figure(i, target) for i in inputs]
        if any(f is None for f in parts):
            return None
        try:
            value = calculate(formula.key, [Operand(f.value, f.unit, f.fiscal_year) for f in parts]).value
        except FormulaError:
            return None
        first = parts[0]
        return Figure(value=value, fiscal_year=first.fiscal_year, span=first.span, start=first.start, end=first.end,
                      quarter=first.quarter, months=first.months, formula=formula.expression.lower(),
                      inputs=[(i.label, f) for i, f in zip(inputs, parts, strict=True)], unit=formula.unit)

    def cell(fig: Figure | None, what: str) -> dict:
        if fig is None:
            raise NotHeld(what)
        eid = b.figure(company, label, fig)
        said = " ".join(x for x in (note, None if formula else restated_note(m.facts, fig, label)) if x) or None
        return {**base, "fiscal_year": fig.fiscal_year, "evidence_id": eid, "display": display_value(fig.value, fig.unit),
                "period": fig.period_text(), "end": fig.end.isoformat(), "quarter": fig.quarter,
                "derived": fig.formula, "form": fig.fact.form if fig.fact else None, "note": said, "latest": latest}

    if period["kind"] == "quarters":
        if period.get("fiscal_year"):
            wanted = [(period["fiscal_year"], q) for q in (1, 2, 3, 4)]
        else:
            source = cal if m.instant else m.p
            wanted = [(fy, q) for fy, q, _ in source.three_month_ends()][-min(period.get("count") or 4, MAX_QUARTERS):]
        cells = []
        if growth and not formula and not m.instant:
            # "quarterly revenue growth": each quarter's growth on the same quarter a year earlier, never the
            # quarters' revenue itself, which answered the growth asked with the levels
            skipped = []
            for fy, q in wanted:
                fig, prior = value_of(("quarter", fy, q)), value_of(("quarter", fy - 1, q))
                if fig is None or prior is None or prior.value == 0:
                    continue
                if prior.value < 0:
                    skipped.append(spoken(fy, q))
                    continue
                calc_id, what_base = b.growth(company, label, fig, prior, "yoy")
                cells.append(_growth_cell(base, b, calc_id, fig, prior, what_base, note, latest))
            if not cells:
                raise NotHeld(f"the quarters of fiscal {period['fiscal_year']} and the same quarters a year earlier, "
                              "the bases of their growth rates" if period.get("fiscal_year") else
                              "any quarter with the same quarter a year earlier, the base of its growth rate")
            if skipped:
                left = f"{', '.join(skipped)} left out: the same quarter a year earlier was negative, so a growth rate would mislead."
                for c in cells:
                    c["note"] = " ".join(x for x in (c.get("note"), left) if x)
            return cells
        for fy, q in wanted:
            if m.instant and not formula:
                end = next((e for efy, eq, e in cal.quarter_ends() if (efy, eq) == (fy, q)), None)
                fig = m.p.instant(end) if end else None
            else:
                fig = value_of(("quarter", fy, q))
            if fig is not None:
                cells.append(cell(fig, spoken(fy, q)))
        if not cells:
            raise NotHeld(f"any quarter of fiscal {period['fiscal_year']}" if period.get("fiscal_year") else "any quarter")
        return cells

    target = _target(period, cal, m)
    fig = value_of(target)
    if fig is None:
        if _calendar_holds(cal, target):
            when = _what(target)  # "in the third quarter of fiscal 2023", "at the end of June 2023"
            raise NotReported(f"{label.lower()} " + (when.removeprefix("the balance ") if target[0] == "instant" else f"in {when}"))
        raise NotHeld(_what(target))
    if growth and formula:
        # "gross margin for the quarter, compared with the prior-year quarter": a ratio has no growth rate of its
        # own to state; both periods' ratios, each computed from its own cited facts, answer the comparison
        prior = value_of(_base(target, growth))
        if prior is not None:
            return [cell(fig, _what(target)), cell(prior, _what(_base(target, growth)))]
    if growth and not formula:
        prior_target = _base(target, growth)
        prior = value_of(prior_target)
        if prior is None:
            raise NotHeld(f"{_what(prior_target)}, the base of the growth rate")
        calc_id, what_base = b.growth(company, label, fig, prior, growth)
        return [_growth_cell(base, b, calc_id, fig, prior, what_base, note, latest)]
    return [cell(fig, _what(target))]


def _growth_cell(base: dict, b: Builder, calc_id: str, fig: Figure, prior: Figure, what: str, note, latest) -> dict:
    calc = next(c for c in b.calculations if c["id"] == calc_id)
    return {**base, "label": f"{base['label']} growth", "fiscal_year": fig.fiscal_year, "evidence_id": calc_id,
            "display": calc["display"], "period": fig.period_text(), "end": fig.end.isoformat(), "quarter": fig.quarter,
            "growth": {"base": what, "value": calc["value"], "current": display_value(fig.value, fig.unit),
                       "change": calc["unit"] != "percent",
                       "prior": display_value(prior.value, prior.unit), "prior_period": prior.period_text()},
            "note": note, "latest": latest}


def quarter_numbers(state, deps) -> dict:
    """retrieve's numbers for a plan with a `period`: cells, evidence and calculations, or a refusal."""
    plan = plan_of(state)
    period = plan.period
    b = Builder()
    memo = deps.memo if deps is not None else {}
    refusal = None
    from agent.retrieval.line_items import metric_phrases

    phrases = metric_phrases(plan.words)
    with deps.db.connection() as conn:
        for company in state["resolved"]:
            for key in plan.metrics or []:
                try:
                    b.cells.extend(_figures(conn, memo, company, key, period, b, phrases.get(key, "")))
                except NotAQuarterMeasure:
                    refusal = refusal or {"reason": "out_of_scope", "detail": (
                        "segment, product and region figures, margins and ratios by quarter: for a quarter I answer "
                        "the company's reported totals, their growth, the fourth quarter and trailing twelve months")}
                except LookupError as unknown:
                    said = unknown.args[0] if unknown.args and key.startswith("dim:") else key.split("|")[0]
                    refusal = refusal or {"reason": "unknown_metric", "detail": said.removeprefix("line:")}
                except NotReported as missing:
                    refusal = refusal or {"reason": "no_grounding", "detail": f"no reported XBRL figure for {missing}"}
                except NotHeld as missing:
                    held = _held_text(calendar_periods(conn, memo, company["cik"]))
                    refusal = refusal or {"reason": "year_not_available",
                                          "detail": f"{as_named(company['name'])}'s figures for {missing} ({held})"}
    if not b.cells:
        return {"refusal": refusal or {"reason": "no_grounding", "detail": None}}
    return {
        "evidence": [e.model_dump(mode="json") for e in b.evidence.values()],
        "calculations": b.calculations,
        "retrieval": {"cells": b.cells, "facts": sum(1 for e in b.evidence.values() if e.kind == "fact"),
                      "period": period, **({"missing": [refusal["detail"]]} if refusal else {})},
    }
