"""The retrieve node: XBRL facts (and computations over them) for numbers, chunks for prose.

Every figure that can reach an answer enters the run here, as Evidence: a fact rendered with
`agent.retrieval.finance.display_value`, or a Decimal computation from such facts with its operands kept
for the trace. Prose evidence is the hybrid search's chunks, scoped to the resolved company and
filing. Nothing found means no_grounding, refused before anything is composed.
"""

from __future__ import annotations

from collections import Counter
import functools
import re
from datetime import date
from decimal import Decimal
from itertools import combinations, zip_longest

from agent.retrieval.concepts import METRICS, PHRASES, find_phrases, fold_plural, normalize
from agent.composing.draft import Evidence
from agent.retrieval.finance import (DEBT_PARTS, DEBT_WITH_CURRENT, FORMULAS, NEGATIVE_BASE, FormulaError, Operand, calculate, display_value,
                                     fallback_chain, growth_key, negative_base_change, negative_denominator,
                                     stated_convention)
from agent.progress import status
from agent.refusals import UNSCALED, as_named
from agent.retrieval.line_items import (LineMatch, company_line, economic_name, label_side, labels_of, line_key,
                                        line_optional, line_parts,
                                        printed_index, printed_label, printed_order, printed_rows, printed_whole, same_printed_row,
                                        without_note_refs)
from agent.retrieval.line_items import IGNORABLE, metric_phrases, tokens, unaccented
from agent.retrieval.causes import (amount_patterns, asked_figures, asks_cause_of, cause_queries, cut_before_cause, explaining_first, figure_names,
                                    stated_amounts, subject_query)
from agent.planning.prose_route import ASKS_NOTES, ASKS_RISK, NAMED_SECTION, NARRATIVE
from agent.retrieval.metric_facts import WIDEST, metric_value, plausible_count, unscaled_count
from agent.planning.conventions import missing_divisor
from agent.planning.formula_trees import (choose, evaluate, metrics_of, operand_key, operand_label, operand_parts,
                                          operand_ticker, restate, said_of)
from agent.checking.quoted_figures import MONEY_UNITS, change_ranges
from agent.checking.quoted_figures import ranges as amount_ranges
from agent.retrieval import quarter_members
from agent.retrieval.row_members import row_on_member
from agent.retrieval.segments import (axes_for, display_name, find_member, key_parts, known_mistags, member_names,
                                      member_parts, places_as_asked, two_member_cell)
from agent.planning.in_words import names_all, prose_fallback
from agent.retrieval.prose_counts import find_count
from agent.state import plan_of
from agent.retrieval.query_vectors import embed_queries
from agent.retrieval.widening import reads_earlier, widened_location, widens
from agent.retrieval.sentence_cover import answering_first
from agent.retrieval.earlier_filing import EARLIER_SLOT, told_earlier
from store import chunks as chunk_store
from store import filing_amounts
from store import facts as facts_store
from store import labels as labels_store
from store import segments as segments_store

NUMERIC_INTENTS = ("numeric", "derived", "compare", "trend")


def retrieve(state, deps, config) -> dict:
    """Figures or passages. A figure refused as unknown here (no line or member of those words) whose
    question asks what the filing says is searched in prose instead (agent.planning.in_words.prose_fallback):
    the plan is replaced and `reprose` sends the turn back through fetch, the refusal kept on the plan."""
    plan = plan_of(state)
    if plan.intent in NUMERIC_INTENTS:
        found = _numbers(state, deps, config)
        refusal = found.get("refusal")
        if refusal and not state.get("reprose") and getattr(deps, "directory", None) is not None:
            refused = plan.model_copy(update={"route": "refusal", "refusal_reason": refusal.get("reason"),
                                              "refusal_detail": refusal.get("detail")})
            prose = prose_fallback(refused, state["question"], deps.directory)
            if prose is not None:
                return {"plan": prose.model_dump(mode="json"), "reprose": refusal}
        return found
    if state.get("refusal") and widens(state):  # the route's Items answered nothing: the whole filing
        state = {**state, "located": widened_location(state["located"])}
        found = _prose(state, deps, config)
        return {"located": state["located"], "widened": True, "draft": None, "checked": None, "refusal": None,
                **found}
    if state.get("refusal") and reads_earlier(state):  # the latest's whole filing answered nothing
        return _earlier_prose(state, deps, config)
    found = _prose(state, deps, config)
    return {**found, "reprose": None} if state.get("reprose") else found


def _earlier_prose(state, deps, config) -> dict:
    """The passages of an earlier held 10-K that tells what a question naming no year asked, when the latest's
    whole filing answered nothing (agent.retrieval.earlier_filing.told_earlier); else the refusal stands. The plan
    names the earlier filing as read for that reason, so the answer says which year's filing and why."""
    plan = plan_of(state)
    company = state["resolved"][0]
    filings = {int(y): f for y, f in (company.get("filings") or {}).items()}
    with deps.db.connection() as conn:
        year = told_earlier(conn, deps.embedder, plan.query or state["question"], filings,
                            max(company["fiscal_years"]), names=(company.get("name") or "", *(company.get("tickers") or [])))
    if year is None:
        return {"earlier_read": True}
    plan = plan.model_copy(update={"latest": False, "fiscal_years": [year],
                                   "slots": {**(plan.slots or {}), "fiscal_years": EARLIER_SLOT}})
    resolved = [{**company, "fiscal_years": [year]}]
    located = {**state["located"], "items": [], "told": [],
               "accessions": {str(company["cik"]): [filings[year]["accession"]]}}
    earlier = {**state, "plan": plan.model_dump(mode="json"), "resolved": resolved, "located": located}
    found = _prose(earlier, deps, config)
    return {"plan": earlier["plan"], "resolved": resolved, "located": located, "earlier_read": True, "draft": None,
            "checked": None, "refusal": None, **found}


# --- numbers ---------------------------------------------------------------------------------


def _annual_value(conn, cik: int, concepts, fy: int, **kw):
    """`store.facts.annual_value`, never a share count tagged without its scale (metric_facts.plausible_count):
    a printed row names the count as well as a metric does ("Weighted-average shares outstanding-diluted")."""
    fact = facts_store.annual_value(conn, cik, concepts, fy, **kw)
    return plausible_count(conn, cik, fact, fy) if fact is not None and fact.unit == "shares" else fact


def _fact_evidence(company: dict, metric_key: str, fy: int, fact, label: str | None = None) -> Evidence:
    label = label or METRICS[metric_key].label
    shown = display_value(fact.value, fact.unit)
    return Evidence(
        id=f"f:{fact.id}",
        kind="fact",
        text=(
            f"{company['name']} ({company['ticker']}) {label}, fiscal {fy}: {shown} "
            f"({fact.qualified_concept}, period ended {fact.period_end.isoformat()})"
        ),
        ticker=company["ticker"],
        cik=company["cik"],
        fiscal_year=fact.filing_fiscal_year or fy,  # the citation names the filing that reported it
        accession=fact.accession,
        form=fact.form or "10-K",
        url=fact.url,
        concept=fact.qualified_concept,
        value=_plain(fact.value),
        unit=fact.unit,
        period_end=fact.period_end.isoformat(),
    )


def _plain(value: Decimal) -> str:
    """An exact decimal string without exponent or needless trailing zeros."""
    text = format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text or "0"


# A concept netting income against expense (InterestIncomeExpenseNet, InterestRevenueExpenseNet): never one
# side of it
_NETTED = re.compile(r"(?:Income|Revenue)Expense|ExpenseIncome")


class _Facts:
    """Facts fetched once per (company, metric, year) within a run."""

    def __init__(self, conn, company: dict, orders: dict[str, list[str]] | None = None, lines: dict | None = None):
        self.conn, self.company = conn, company
        self.orders = orders or {}  # metric key -> its concepts, the user's printed row first
        self.found: dict[tuple[str, int], Evidence | None] = {}
        self.memo: dict | None = None  # set to read a missing formula input from the company's printed row
        # a formula's printed-row operands: the run's one cache of resolved rows (_collect's), keyed by
        # (cik, line key), so a row named both as an operand and as a figure is resolved once
        self.lines: dict = {} if lines is None else lines
        self.absent: dict[str, list[str]] = {}  # a formula's member operand the filing has no member for -> those it has
        self.row_labels: dict[str, str] = {}  # a formula's printed-row operand (its words) -> the label of the row found
        self.others: dict[str, _Facts] = {}  # ticker -> the run's facts of each company asked (a formula across two)

    def get(self, metric_key: str, fy: int, printed: bool = False, asked: bool = False) -> Evidence | None:
        """The metric's fact for the year; with `printed` (a formula's input), else the row the company
        prints under the metric's name. `asked`: the figure the user named itself, not a formula's input
        (agent.retrieval.metric_facts.metric_value)."""
        key = (metric_key, fy, "asked") if asked and metric_key in WIDEST else (metric_key, fy)
        if printed and self.get(metric_key, fy) is None and self.memo is not None:
            slot = (f"{metric_key}#printed", fy)
            if slot not in self.found:
                fact = self._printed(metric_key, fy)  # through _annual_value: never a count tagged unscaled
                self.found[slot] = _fact_evidence(self.company, metric_key, fy, fact) if fact else None
            return self.found[slot]
        if key not in self.found:
            if metric_key in self.orders:
                fact = _annual_value(
                    self.conn, self.company["cik"], self.orders[metric_key], fy,
                    as_of_accession=self.company.get("as_of_accession"), unit=METRICS[metric_key].unit)
            else:
                fact = metric_value(
                    self.conn, self.company["cik"], metric_key, fy, as_of_accession=self.company.get("as_of_accession"),
                    asked=asked)
            self.found[key] = _fact_evidence(self.company, metric_key, fy, fact) if fact else None
        return self.found[key]

    def _printed(self, metric_key: str, fy: int):
        """A formula input none of the table's concepts holds, read from the row the company prints
        under the metric's name ("Inventories" tagged with a concept of the company's own), exact or
        near-exact label matches only (agent.retrieval.line_items)."""
        names = _printed_names(METRICS[metric_key])
        match, _ = company_line(self.conn, self.memo, self.company["cik"], line_key(names[0]))
        printed = {_whole_words(r["label"]) for r in labels_of(self.conn, self.memo, self.company["cik"])} \
            if match is None else set()
        for said in names[1:] if match is None else []:
            # a synonym is taken only as the row's whole name: near-exact reading of "cost of revenue" finds
            # "Revenues", another figure. No row of that whole name, no reading: a full one costs ~30 ms a synonym
            if _whole_words(said) not in printed:
                continue
            found, _ = company_line(self.conn, self.memo, self.company["cik"], line_key(said))
            if found is not None and _named_whole(found.label, said):
                match = found
                break
        if match is None:
            return None
        if METRICS[metric_key].period == "instant" and match.statement != "balance":
            # a balance is read from the balance sheet: Abbott prints no "Total liabilities", and the row its lease
            # note labels "Total Liability" is its lease liabilities, a part stated as the whole
            return None
        if _NETTED.search(match.concept) and not any(_NETTED.search(c) for c in METRICS[metric_key].concepts):
            # "Interest - net" (InterestRevenueExpenseNet) read for "Interest expense": income netted against
            # the expense, signed as income; a formula over it would state a different figure, or its sign flipped
            return None
        fact = _annual_value(self.conn, self.company["cik"], [match.concept], fy,
                                        as_of_accession=self.company.get("as_of_accession"),
                                        unit=METRICS[metric_key].unit)
        period_ok = fact is not None and (fact.period_start is None) == (METRICS[metric_key].period == "instant")
        return fact if period_ok else None


def _printed_names(metric) -> list[str]:
    """The names a formula input's printed row may carry: the table's label, then its longer synonyms
    ("Income before provision for income taxes", which McDonald's prints and tags with a concept of its
    own). Why only synonyms of three words or more: a short one ("sales", "pretax income") is a word an
    unrelated row's label may hold as well; a long one names the line itself."""
    names = [normalize(metric.label)]
    names += [s for s in metric.synonyms if len(s.split()) >= 3 and s not in names]
    return names


def _named_whole(label: str, said: str) -> bool:
    """Whether a printed row's label is the phrase itself, a plural, case, punctuation or note mark apart."""
    return _whole_words(label) == _whole_words(said)


@functools.lru_cache(maxsize=8192)  # a company's labels are read again for every formula input it lacks
def _whole_words(text: str) -> tuple[str, ...]:
    return tuple(fold_plural(w) for w in normalize(without_note_refs(text)).split())


def _tagged_form(formula_key: str) -> str | None:
    """The table metric a formula is the computed form of (the effective tax rate for "Effective tax rate
    (computed)"): the metric whose fallback it is."""
    return next((k for k, m in METRICS.items() if m.fallback == formula_key), None)


def _read_twice(operands) -> set:
    """The operands, given as (name, the fact each was read from or None), read from a fact an operand of
    another name read first: AMD prints its current debt as "Current portion of long-term debt" and tags it
    ShortTermBorrowings, so the current portion and the short-term borrowings of total debt were one $751
    million fact counted twice. Such an operand is no figure of its own: the formula does not hold with it."""
    first: dict = {}
    twice = set()
    for name, fact in operands:
        if fact is not None and first.setdefault(fact, name) != name:
            twice.add(name)
    return twice


def _compute(facts: _Facts, formula_key: str, fy: int) -> tuple[Evidence, dict] | None:
    """A formula's result as evidence, or None when an input has no fact (after its fallback)."""
    formula = FORMULAS[formula_key]
    inputs = [facts.get(i.metric, fy + i.offset, printed=True) for i in formula.inputs]
    inputs = [None if e is not None and e.concept in i.exclude else e for e, i in zip(inputs, formula.inputs)]
    if any(e is None for e in inputs) or _read_twice(
            (i.metric, None if e is None else (e.id, i.offset)) for e, i in zip(inputs, formula.inputs)):
        return _compute(facts, formula.fallback, fy) if formula.fallback else None
    return _computed_from(facts, formula_key, fy, inputs)


def _computed_from(facts: _Facts, formula_key: str, fy: int, inputs: list[Evidence]) -> tuple[Evidence, dict] | None:
    """A formula's result over the given facts (one per input, in the formula's order), as evidence and its
    calculation; None when the formula does not hold over them."""
    formula = FORMULAS[formula_key]
    years = [fy + i.offset for i in formula.inputs]
    operands = [Operand(Decimal(e.value), e.unit, y) for e, y in zip(inputs, years, strict=True)]
    try:
        result = calculate(formula_key, operands)
    except FormulaError:
        return None
    company = facts.company
    calc_id = f"k:{formula_key}:{company['cik']}:{fy}"
    evidence = Evidence(
        id=calc_id,
        kind="calc",
        text=f"{company['name']} ({company['ticker']}) {formula.label}, fiscal {fy}: {result.display}",
        ticker=company["ticker"],
        cik=company["cik"],
        fiscal_year=fy,
        accession=inputs[0].accession,
        form=inputs[0].form,
        url=inputs[0].url,
        concept=formula_key,
        value=_plain(result.value),
        unit=formula.unit,
    )
    calc = {
        "id": calc_id,
        "key": formula_key,
        "ticker": company["ticker"],
        "fiscal_year": fy,
        "value": _plain(result.value),
        "unit": formula.unit,
        "display": result.display,
        "operands": [
            {"evidence_id": e.id, "value": e.value, "unit": e.unit, "fiscal_year": y} for e, y in zip(inputs, years, strict=True)
        ],
    }
    return evidence, calc


def _label(key: str) -> str:
    if key.startswith("line:"):
        return line_parts(key)[2]
    if key.startswith("udf:"):
        return key[4:]
    if key.startswith("dim:"):
        metric, qualifier, _ = key_parts(key)
        return f"{METRICS[metric].label} ({qualifier})"
    return METRICS[key].label if key in METRICS else FORMULAS[key].label


def known(key: str) -> bool:
    """A measure retrieve can answer: a table metric, a formula, or a line-item phrase."""
    return key in METRICS or key in FORMULAS or key.startswith(("line:", "udf:", "dim:"))


_OPENING = re.compile(r"\b(?:beginning|opening|start)\b", re.I)


def _amount_row(conn, company: dict, candidates: list, fy: int):
    """One printed row tagged twice, as an amount and as its percent-of-sales column ("Pre-tax earnings":
    a dollar concept and a ...Percent one): the amount is the row's figure. Only when every candidate is
    that one printed label and exactly one of them holds an amount for the year, or all that do hold the same
    amount (a filer that moved the row to another concept between filings, "Medical costs"; a row tagged
    for basic and for diluted alike): the figure is the same whichever concept. Else the user is asked."""
    if not same_printed_row(candidates):
        return None
    amounts, values, facts = [], set(), []
    for c in candidates:
        fact = _annual_value(conn, company["cik"], [c.concept], fy,
                                        as_of_accession=company.get("as_of_accession"))
        if fact is not None and fact.unit != "pure":
            amounts.append(c)
            facts.append(fact)
            values.add(Decimal(fact.value))
    if amounts and len(values) > 1:
        # the label on two concepts across filings, each with its own amount for the year (Intel's "Proceeds from
        # sales of subsidiary shares", tagged one year as its partner contributions' concept): the row the filing
        # that reports the year prints under the label is the one asked; none or both, the user is asked
        shown = printed_label(amounts[0])
        own = [c for c, fact in zip(amounts, facts)
               if labels_store.printed_in(conn, fact.accession, c.concept, shown)]
        amounts, values = (own, {Decimal(facts[amounts.index(own[0])].value)}) if len(own) == 1 else (amounts, values)
    if not amounts or len(values) != 1:
        return None
    return type(amounts[0])(amounts[0].concept, printed_label(amounts[0]), amounts[0].source, amounts[0].statement)


def _same_row_other_concept(conn, deps, company: dict, match, fy: int):
    """(fact, row) of the year for the row printed under the matched label on the same statement (else, when
    none, anywhere without dimensions) but tagged with another concept that year ("Digital assets": a company concept one year, CryptoAssetFairValueCurrent
    the next), when exactly one amount answers; else None."""
    cik = company["cik"]
    shown = printed_label(match)
    # the same statement's rows first; then the label printed anywhere else without dimensions (a filing whose
    # statement was filed as another table: JCI's "Cash used by investing activities from continuing operations")
    printed = [r for r in labels_of(conn, deps.memo if deps is not None else {}, cik)
               if r["label"] == shown and not r["dims"] and r["concept"] != match.concept]
    others = {r["concept"] for r in printed if r["statement"] == match.statement} or {r["concept"] for r in printed}
    found = []
    for concept in sorted(others):
        fact = _annual_value(conn, cik, [concept], fy, as_of_accession=company.get("as_of_accession"))
        if fact is not None and fact.unit != "pure":
            found.append((fact, type(match)(concept, match.label, match.source, match.statement)))
    return found[0] if found and len({Decimal(f.value) for f, _ in found}) == 1 else None


def _line_cell(conn, deps, company: dict, key: str, fy: int, cell: dict, lines: dict) -> Evidence | None:
    """A line-item phrase resolved against the company's labels (agent.retrieval.line_items), and its fact."""
    cik = company["cik"]
    if (cik, key) not in lines:
        lines[(cik, key)] = company_line(conn, deps.memo if deps is not None else {}, cik, key)
    match, candidates = lines[(cik, key)]
    if match is None:
        match = _amount_row(conn, company, candidates, fy)
    if match is None and not candidates:
        curated = _curated_as_said(key)
        if curated is not None:
            # "accounts receivable, net" where the company prints its row in other words: the curated metric the
            # words name, the word left over one every row may or may not print
            fact = _annual_value(conn, cik, list(METRICS[curated].concepts), fy,
                                            as_of_accession=company.get("as_of_accession"), unit=METRICS[curated].unit)
            if fact is not None:
                cell.update(label=METRICS[curated].label, concept=fact.qualified_concept,
                            instant=fact.period_start is None)
                return _fact_evidence(company, curated, fy, fact)
    if match is None:
        cell["candidates"] = [c.label for c in candidates]
        return None
    fact = _annual_value(conn, cik, [match.concept], fy, as_of_accession=company.get("as_of_accession"))
    if fact is None and match.source == "company":
        fact, match = _same_row_other_concept(conn, deps, company, match, fy) or (None, match)
    whole = _whole_of_noncurrent(conn, deps, company, match, key, fy) if fact is not None else None
    if whole is not None:  # "operating lease liabilities": the total, never the balance sheet's noncurrent part
        fact, match = whole
    if fact is not None and fact.period_start is None and _OPENING.search(match.label):
        # "..., beginning balances": the year's opening balance is the prior year's closing one
        fact = _annual_value(conn, cik, [match.concept], fy - 1,
                                        as_of_accession=company.get("as_of_accession"))
        cell["opening"] = True
    shown = without_note_refs(match.label)
    reported = shown if match.source == "company" else _printed_row_of(conn, deps, cik, match.concept)
    cell.update(label=shown[:1].upper() + shown[1:], reported_as=reported,
                concept=match.concept, instant=fact is not None and fact.period_start is None and not cell.get("opening"))
    if fact is None:
        return None
    said = economic_name(match.label, match.concept, fact.value)
    printed = -fact.value if match.negated else fact.value
    if said and (printed < 0 or label_side(match.label) is None):
        # a netted row printed negative, or whose label names no side ("Interest expense (income), net": (161);
        # "Interest, net"): its sentence also names the figure by what it is, "net interest income of $161 million"
        cell["economic"] = {"name": said, "display": display_value(abs(fact.value), fact.unit)}
    # the row's printed sign: the figure as the statement shows it, in a sentence, a table and a formula alike
    return _fact_evidence(company, key, fy, fact, label=shown).model_copy(update={"negated": match.negated})


def _metric_row(conn, deps, company: dict, key: str, said: str, fy: int, cell: dict, lines: dict) -> Evidence | None:
    """A curated metric none of whose concepts the company reports, read from the row it prints under the user's
    words; when two rows fit them ("Accounts receivable" gross and "Accounts receivable, net" at Verizon), the
    metric's own name decides ("Accounts receivable, net"). A balance the balance sheet prints under the metric's name
    comes before a note's row of the user's words ("Accounts Receivable" among Verizon's contract balances, a part)."""
    first: tuple[dict, Evidence] | None = None
    for words in dict.fromkeys((said, normalize(METRICS[key].label))):
        probe = {**cell}
        ev = _line_cell(conn, deps, company, line_key(words), fy, probe, lines)
        match, candidates = lines[(company["cik"], line_key(words))]
        rows = [match] if match is not None else candidates
        if ev is not None and METRICS[key].period == "instant" and any(r.statement != "balance" for r in rows):
            first = first or (probe, ev)
            continue
        if ev is not None or (len(candidates) < 2 and first is None):
            cell.update(probe)
            return ev
    probe, ev = first or (probe, None)
    cell.update(probe)
    return ev


def _printed_row_of(conn, deps, cik: int, concept: str) -> str | None:
    """The company's own label for a concept matched by its standard name ("additional paid-in capital" is
    Coca-Cola's "Capital surplus"): the primary statements' row, which the answer names as reported."""
    rows = printed_rows(conn, deps.memo if deps is not None else {}, cik, concept)
    return next(iter(rows)) if len(rows) == 1 else None


def printed_value(ev: Evidence) -> Decimal:
    """A fact's value as its statement row prints it: negated where the row prints the other side first."""
    return -Decimal(ev.value) if ev.negated else Decimal(ev.value)


def _curated_as_said(key: str) -> str | None:
    """The one curated metric a line key names when its leftover words are only "net" or "total" and the metric's own
    label says them: "accounts receivable net" is the metric "Accounts receivable, net"; else None."""
    leftover, context, _ = line_parts(key)
    left = set(normalize(leftover).split())
    if not left or tokens(leftover) or not left <= {"net", "total"}:
        return None  # (other words any row may print, "outflow", "expected", "number", say what the figure is)
    said = tokens(context)
    found = {k for k, m in METRICS.items() if m.unit == "USD" and said and left <= set(normalize(m.label).split())
             and any(tokens(name) == said for name in (m.label, *m.synonyms))}
    return found.pop() if len(found) == 1 else None


# the noncurrent part, named or described as the whole less its current part ("less current portion")
_NONCURRENT_ASKED = re.compile(r"\b(?:non\s?current|long\s?term|longterm|due after one year|"
                               r"(?:less|excluding|net of|minus)\s+(?:the\s+)?current\s+(?:portion|maturities|part))\b")


def _whole_of_noncurrent(conn, deps, company: dict, match: LineMatch, key: str, fy: int):
    """(the total's fact, its LineMatch) when the row the words found is a noncurrent part the balance sheet
    prints under the whole's name ("Operating lease liabilities": OperatingLeaseLiabilityNoncurrent, beside
    "Current portion of operating lease liabilities") and the company reports the whole (OperatingLeaseLiability);
    None when the user asked for the noncurrent part, or no total is reported.

    Why: asked for "operating lease liabilities", the noncurrent row alone is a part stated as the whole."""
    if not match.concept.endswith("Noncurrent") or _NONCURRENT_ASKED.search(" ".join(line_parts(key)).replace("-", " ")):
        return None
    if _NONCURRENT_ASKED.search(match.label.lower().replace("-", " ")) or "noncurrent" in match.label.lower():
        return None  # the row says it is the noncurrent part: the user's words did not name it so
    total = match.concept[: -len("Noncurrent")]
    printed = labels_of(conn, deps.memo if deps is not None else {}, company["cik"])
    if not any(r["concept"] == total + "Current" and r["statement"] == "balance" and not r["dims"] for r in printed):
        return None  # no current part printed beside it: the row is the company's whole line
    fact = _annual_value(conn, company["cik"], [total], fy, as_of_accession=company.get("as_of_accession"))
    if fact is None:
        return None
    label = f"{printed_label(match)} (current and noncurrent)"
    return fact, LineMatch(total, label, "standard", match.statement)


def _operand(conn, deps, facts: _Facts, key: str, fy: int, orders: dict | None = None) -> Evidence | None:
    """One operand of a formula (agent.planning.formula_trees.operand_key) for fiscal year `fy`: a table
    metric's fact, or a member's dimensional fact ('revenue@iphone'), of that year or an earlier one."""
    ticker = operand_ticker(key)
    if ticker is not None:  # another company's figure ("HD revenue / LOW revenue"): read from that company's facts
        other = facts.others.get(ticker, facts if ticker == facts.company["ticker"] else None)
        return _operand(conn, deps, other, key.partition("^")[0], fy, other.orders) if other is not None else None
    metric, member, offset = operand_parts(key)
    year = fy + offset
    if key.startswith("#"):  # a row the company prints, by the user's words: exact or near-exact only
        phrase = metric[1:]
        slot = (f"#{phrase}", year)
        if slot not in facts.found:
            cell: dict = {}
            facts.found[slot] = _line_cell(conn, deps, facts.company, line_key(phrase), year, cell, facts.lines)
            if cell.get("label"):
                facts.row_labels[phrase] = cell["label"]
        return facts.found[slot]
    if member is None:
        return facts.get(metric, year, printed=True)
    slot = (key.split("~")[0], year)
    if slot not in facts.found:
        found = _member_cells(conn, deps, facts.company, f"dim:{metric}|{member}", year, {}, orders)
        facts.found[slot] = found[0][1] if found else None
        if found and found[0][1] is None and "members" in found[0][0]:
            facts.absent[key.split("~")[0]] = found[0][0]["members"]  # named in the refusal
    return facts.found[slot]


def _rows_without_member_words(tree: dict, facts: _Facts) -> set[str]:
    """The printed-row operands of a formula read either as a row or as a member of a metric ("services cost of
    sales": the row, else cost of revenue of the Services member) whose row, as found, prints none of the member's
    words: the member's figure is the one asked, never a row that dropped the word naming it.

    Why: near-exact matching found "Total cost of sales" for "services cost of sales", the total stated as the part."""
    out: set[str] = set()
    if "args" not in tree:
        return out
    if tree.get("op") == "first":
        members = [a["member"] for a in tree["args"] if a.get("member") and not a["member"].startswith("*")]
        for a in tree["args"]:
            label = facts.row_labels.get(a.get("line", ""))
            printed = re.sub(r"\s*\([^()]*\)$", "", label or "")  # the row's own words, not the words it was asked by
            if label is not None and any(not tokens(m) <= tokens(printed) for m in members):
                out.add(operand_key(a))
    for a in tree["args"]:
        out |= _rows_without_member_words(a, facts)
    return out


# The current part of debt, as the curated metrics read it: summed with a long-term debt that holds it, twice
_CURRENT_DEBT_CONCEPTS = frozenset(METRICS["current_debt"].concepts) | frozenset(METRICS["debt_current"].concepts)


def _added_to_itself(tree: dict, read=lambda key: key) -> str | None:
    """The operand key a sum or difference takes twice as terms of its own ("A + A"), else None: two things the
    user named apart that were read as one figure. `read`: what each key was read as (its fact), when two keys may
    be one figure. A quotient over an operand of its numerator ("(revenue - cost) / revenue") is no such case."""
    if "args" not in tree:
        return None
    if tree.get("op") in ("+", "-"):
        leaves = [operand_key(a) for a in tree["args"] if "metric" in a or "line" in a]
        read_as = [read(k) for k in leaves]
        twice = next((k for k, r in zip(leaves, read_as) if read_as.count(r) > 1), None)
        if twice is not None:
            return twice
    return next((k for k in (_added_to_itself(a, read) for a in tree["args"]) if k is not None), None)


def _user_formula(facts: _Facts, definition: dict, fy: int, cell: dict, conn=None, deps=None,
                  orders: dict | None = None) -> tuple[Evidence, dict] | None:
    """A formula the user defined (agent.planning.formula_definitions), or one over a member (agent.planning.members),
    computed like the registry's, or None with the missing inputs named in the cell."""
    keys = metrics_of(definition["tree"])
    if not keys:  # only constants: nothing in it is a filing's figure, so there is nothing to cite
        cell["missing_inputs"] = ["a reported line item (the formula names none)"]
        return None
    same = _added_to_itself(definition["tree"])
    if same is not None:
        # "energy generation and storage sales + energy generation and storage revenue": both read as the segment's one
        # figure, which a sum would state twice over (Tesla's $10.09 billion as $20.17 billion)
        cell["missing_inputs"] = [f"{operand_label(same)} apart from itself (two of the formula's terms read as this one "
                                  "figure)"]
        return None
    inputs = {k: _operand(conn, deps, facts, k, fy, orders) for k in dict.fromkeys(keys)}
    if any(operand_parts(k)[0] in ("current_assets", "current_liabilities") for k in keys):
        # a formula over current items ("(cash + marketable securities + receivables) / current liabilities"): a
        # printed row the company prints both current and noncurrent is its current one, as the formula reads it
        for k, e in inputs.items():
            metric, _, offset = operand_parts(k)
            if e is None and metric.startswith("#") and not metric[1:].startswith(("current", "noncurrent", "non-current")):
                inputs[k] = _operand(conn, deps, facts, f"#current {metric[1:]}" + (f"~{offset}" if offset else ""),
                                     fy, orders)
    for k in _rows_without_member_words(definition["tree"], facts):
        inputs[k] = None  # "services cost of sales": never the total cost of sales, whose row prints no "services"
    ltd = inputs.get("long_term_debt")
    # the long-term debt tagged with its current maturities in it (LongTermDebt): a sum with the current portion would
    # count them twice, so an alternative without the current debt is taken (long-term debt alone: the whole)
    current = {k for k, e in inputs.items() if e is not None and e.concept in _CURRENT_DEBT_CONCEPTS}
    doubled = current if ltd is not None and ltd.concept in DEBT_WITH_CURRENT else set()
    # two operands read from one fact (AMD tags its "Current portion of long-term debt" ShortTermBorrowings): the later
    # is no figure of its own, so an alternative without it is taken (_read_twice)
    tree = choose(definition["tree"], lambda k: inputs[k] is not None and k not in doubled)
    # the operands the formula computes with, not its unused alternatives
    twice = _read_twice((k, None if inputs[k] is None else inputs[k].id) for k in dict.fromkeys(metrics_of(tree)))
    if twice:
        tree = choose(definition["tree"], lambda k: inputs[k] is not None and k not in doubled | twice)
    for k in twice & set(metrics_of(tree)):
        inputs[k] = None  # the user named both: the second is not reported apart from the first, never counted twice
    if doubled and set(metrics_of(tree)) >= {"long_term_debt"} and set(metrics_of(tree)) & doubled:
        # no alternative without the current part: the sum would state the current maturities twice
        inputs["long_term_debt"] = None
    if tree != definition["tree"]:
        definition = {**definition, "tree": tree, "formula": restate(tree, top=True)}
        inputs = {k: inputs[k] for k in dict.fromkeys(metrics_of(tree))}
    same = _added_to_itself(definition["tree"], lambda k: inputs[k].id if inputs.get(k) is not None else k)
    if same is not None:  # two terms named apart, read from one fact ("operating loss" and "operating income")
        cell["missing_inputs"] = [f"{operand_label(same)} apart from another term (two of the formula's terms read "
                                  "as one figure)"]
        return None
    missing = [operand_label(k).replace("(prior year)", f"(fiscal {fy - 1})") for k, e in inputs.items() if e is None]
    if missing:
        cell["missing_inputs"] = missing
        absent = [k.split("~")[0] for k, e in inputs.items() if e is None and k.split("~")[0] in facts.absent]
        if absent and len(absent) == len(missing) and facts.absent[absent[0]]:
            # "Vision Pro as a share of net sales": no such member, so the members that exist (never the total)
            label = operand_label(absent[0])
            cell["absent_member"] = label[:1].lower() + label[1:]
            cell["members"] = facts.absent[absent[0]]
        return None
    try:
        value = evaluate(definition["tree"], {k: printed_value(e) for k, e in inputs.items()}, definition["unit"])
    except (FormulaError, ArithmeticError):
        return None
    value = value.quantize(Decimal("1E-10"))
    unit = definition["unit"] if definition["unit"] != "pure" else "ratio"
    shown = display_value(value, unit)
    company = facts.company
    key = f"udf:{definition['name']}"
    calc_id = f"k:{key}:{company['cik']}:{fy}"
    first = next(iter(inputs.values()))
    evidence = Evidence(
        # the definition as restated, so a constant the user wrote into it ("365 × ...") is the evidence's own
        id=calc_id, kind="calc",
        text=f"{company['name']} ({company['ticker']}) {definition['name']} ({definition['formula']}), fiscal {fy}: {shown}",
        ticker=company["ticker"], cik=company["cik"], fiscal_year=fy, accession=first.accession, form=first.form,
        url=first.url, concept=key, value=_plain(value), unit=unit,
    )
    calc = {
        "id": calc_id, "key": key, "ticker": company["ticker"], "fiscal_year": fy, "value": _plain(value), "unit": unit,
        "display": shown, "definition": definition,
        "operands": [{"evidence_id": e.id, "value": _plain(printed_value(e)), "unit": e.unit, "fiscal_year": fy + operand_parts(k)[2],
                      "metric": k} for k, e in inputs.items()],
    }
    return evidence, calc


def _key_words(name: str) -> frozenset[str]:
    """A company's name words that may stand in a member's name ("Walmart" in "Walmart U.S.")."""
    return frozenset(w for w in tokens(name) if len(w) > 2 and w not in ("inc", "corp", "company", "the", "co"))


def _axis_of(tree: dict) -> str | None:
    """The axis word of a member formula asked over every member ('*segment'), else None."""
    if "metric" in tree:
        member = tree.get("member") or ""
        return member[1:] if member.startswith("*") else None
    return next((a for a in (_axis_of(t) for t in tree.get("args", ())) if a), None)


def _on_member(tree: dict, member: str) -> dict:
    if "metric" in tree:
        return {**tree, "member": member} if (tree.get("member") or "").startswith("*") else tree
    if "args" in tree:
        return {**tree, "args": [_on_member(t, member) for t in tree["args"]]}
    return tree


def _each_member(facts: _Facts, definition: dict, axis: str, fy: int, cell: dict, evidence: dict,
                 calculations: list[dict], conn, deps, orders) -> list[dict]:
    """A member formula over every member of an axis: one computed cell per member, the highest
    first; with no member on that axis, one empty cell saying so."""
    # the members are listed by the first of the formula's figures tagged by member on that axis: a gross margin by
    # segment lists the segments' revenue where the company tags their gross profit only as revenue less cost
    metrics = list(dict.fromkeys(operand_parts(k)[0] for k in metrics_of(definition["tree"])))
    metric, listed = metrics[0], []
    for candidate in metrics:
        if candidate not in METRICS:
            continue
        found = _member_cells(conn, deps, facts.company, f"dim:{candidate}|*{axis}", fy, {}, orders)
        if any(ev is not None and c.get("member") for c, ev in found):
            metric, listed = candidate, found
            break
        if not listed:
            metric, listed = candidate, found
    whole = _of_whole(definition["tree"])
    if whole:
        listed = _mix_parts(listed)
    out, taken, unmet = [], [], []
    for member_cell, ev in listed:
        if ev is None or not member_cell.get("member"):
            continue
        shown = re.sub(r"^.*?\((.*)\)$", r"\1", member_cell["label"])
        what = definition["name"].replace(f" by {axis}", "")
        one = {**definition, "name": f"{shown.lower()} {what}", "tree": _on_member(definition["tree"], f"={member_cell['member']}")}
        one["formula"] = definition["formula"].replace(f"({axis})", f"({shown})").replace(f"(*{axis})", f"({shown})")
        mine = {**cell, "metric": f"udf:{one['name']}", "label": one["name"]}
        computed = _user_formula(facts, one, fy, mine, conn, deps, orders)
        if computed is not None:
            taken.append((computed, mine))
            out.append((Decimal(computed[1]["value"]), mine))
        elif mine.get("missing_inputs") and not unmet:
            unmet = mine["missing_inputs"]  # the members are there, an input of their formula is not
    if whole and out and (len(out) < 2 or not MIX_COVERS[0] <= sum(v for v, _ in out) <= MIX_COVERS[1]):
        # GM's members tagged with revenue are GM Financial and Cruise alone: 8% of the total is no mix; nor is
        # one member alone (Home Depot's "Other", 100%)
        return [{**cell, "missing_inputs": [f"{METRICS[metric].label.lower()} by {axis} making up the total "
                                            f"(fiscal {fy})"]}]
    for computed, mine in taken:
        _take_calc(facts, computed, mine, evidence, calculations)
    if not out:
        return [{**cell, "missing_inputs": unmet or [f"{METRICS[metric].label.lower()} by {axis} (fiscal {fy} and {fy - 1})"]}]
    return [c for _, c in sorted(out, key=lambda x: -x[0])]


# The shares of a mix add to about the whole: segments' sales before intersegment eliminations run over (RTX
# 103%, UnitedHealth 138% with Optum selling to UnitedHealthcare), a subtotal counted beside its parts doubles
# (about 200%), and a set of members that is not the breakdown falls far short (GM's Financial and Cruise, 8%)
MIX_COVERS = (Decimal(90), Decimal(150))


def _of_whole(tree: dict) -> bool:
    """Whether a member formula is each member's share of the company's total (a divisor on no member)."""
    return tree.get("op") == "/" and "metric" in tree["args"][1] and not tree["args"][1].get("member")


def _mix_parts(listed: list) -> list:
    """The members a mix is made of: a subtotal ("Total Optum", "Total reportable segments") already counts
    its parts, a member held twice under two names (Coca-Cola's Pacific) counts once, a member with nothing
    (Walmart's Corporate and support, 0) has no share, and members tagged under a second concept (Walmart's
    Sam's Club beside Sam's Club U.S.) restate the ones under the concept most members carry."""
    held = [(c, ev) for c, ev in listed if ev is not None and c.get("member")]
    if not held:
        return listed
    concept = Counter(c.get("concept") for c, _ in held).most_common(1)[0][0]
    out, seen = [], set()
    for c, ev in held:
        shown = normalize(re.sub(r"^.*?\((.*)\)$", r"\1", c["label"]))
        value = Decimal(str(ev.value))
        if c.get("concept") != concept or value == 0 or (shown, value) in seen:
            continue
        seen.add((shown, value))
        out.append((c, ev, shown, value))
    # a "Total ..." member counts parts held beside it only when they are there: Nike's Total NIKE Brand beside
    # Converse, Colgate's Total Oral, Personal and Home Care beside Pet Nutrition are the parts of their mix
    kept = [(c, ev) for c, ev, shown, value in out
            if shown.split()[:1] != ["total"] or sum(v for *_, n, v in out if n != shown and v > 0) < value]
    return _without_sums(kept)


def _without_sums(parts: list) -> list:
    """The parts without a member that is the sum of others beside it (Apple's Products, its iPhone, Mac, iPad
    and Wearables together, on the same axis as Services)."""
    values = [Decimal(str(ev.value)) for _, ev in parts]
    if len(parts) > 12:
        return parts  # too many members to search every subset: the coverage check still guards the mix
    dropped, summed = set(), set()  # a subtotal is larger than its parts: the largest first, its parts never sums
    for i in sorted(range(len(values)), key=lambda k: -values[k]):
        if i in summed or values[i] <= 0:
            continue
        others = [j for j in range(len(values)) if j != i and j not in dropped and values[j] > 0]
        found = next((c for n in range(2, len(others) + 1) for c in combinations(others, n)
                      if abs(sum(values[j] for j in c) - values[i]) <= values[i] / 1000), None)
        if found is not None:
            dropped.add(i)
            summed.update(found)
    return [p for i, p in enumerate(parts) if i not in dropped]


# "per square foot", "for each store": what follows is a rate's denominator; "per segment" still asks by an axis
_PER = re.compile(r"\b(?:per|each|every)\b", re.I)
_AXIS_WORDS = frozenset("segment segments region regions geography geographies product products category categories "
                        "division divisions business businesses country countries market markets line lines".split())
# a plus sign or "plus" inside a line phrase: a sum the planner could not read as one (two members' figures added),
# which no single member's figure answers
_SUMMED = re.compile(r"(?:^|\s)(?:\+|plus)(?:\s|$)|\w\s*\+\s*\w", re.I)
_SUBTRACTED = re.compile(r"\b(?:net\s+of|excluding|less|minus|ex|without)\b", re.I)


def _line_as_member(key: str) -> str | None:
    """A line phrase no label names, made of one table metric and other words: a member lookup."""
    leftover, context, shown = line_parts(key)
    if _SUBTRACTED.search(shown):
        return None  # "revenue net of incentives": the member named is what the figure leaves out, never the figure
    if _SUMMED.search(shown):
        return None  # "professional visualization + compute revenue": a sum of two, never the first member alone
    rate = _PER.search(shown)
    if rate and not _AXIS_WORDS & set(normalize(shown[rate.end():]).split()):
        return None  # "revenue per club member": a rate's denominator, never a member narrowing the metric
    words = normalize(context).split()
    spans = [(s, e, k) for s, e, k in find_phrases(" ".join(words), PHRASES) if k in METRICS]
    if len(spans) != 1:
        return None
    # the metric's own words are no part of the member's name ("services and other revenue": "services other")
    named = set(words[spans[0][0]:spans[0][1]])
    qualifier = " ".join(w for w in leftover.split() if w not in named)
    return f"dim:{spans[0][2]}|{qualifier}" if qualifier else None


def _line_metric_said(key: str) -> dict[str, str]:
    """{metric: the words the line's clause names it with} of a line phrase made of one table metric and others."""
    words = normalize(line_parts(key)[1]).split()
    spans = [(s, e, k) for s, e, k in find_phrases(" ".join(words), PHRASES) if k in METRICS]
    return {spans[0][2]: " ".join(words[spans[0][0]:spans[0][1]])} if len(spans) == 1 else {}


def _row_member_cell(conn, deps, company: dict, said: str, fy: int, base: dict, optional: str = ""):
    """(cell, evidence) of a printed row narrowed by a member (agent.retrieval.row_members), or None."""
    found = row_on_member(conn, deps.memo if deps is not None else {}, company, said, fy, optional)
    if found is None:
        return None
    match, fact = found
    labels = (deps.memo if deps is not None else {}).get(("member_labels", company["cik"]), {})
    row = without_note_refs(printed_label(match))
    shown = display_name(fact.member, labels.get(fact.member, set()), tokens(row))
    # a row printed on its member under the user's whole phrase ("Cost of products") is named by its label alone
    whole = tokens(said) <= tokens(row)
    if (tokens(said) - tokens(row)) & _FIGURE_KINDS:
        # "cost of services and other": the row printed "Services and other" among the costs is named by the figure the
        # user asked, never by the row's name alone, which the revenues print too
        row_name = " ".join(said.split())
        label = f"{row_name[:1].upper() + row_name[1:]} ({shown})"
    else:
        label = row[:1].upper() + row[1:] if whole else f"{row[:1].upper() + row[1:]} ({shown})"
    ev = _member_evidence(company, label, fy, fact)
    cell = {**base, "label": label, "instant": fact.period_start is None, "concept": fact.concept,
            "member": fact.member, "evidence_id": ev.id, "display": display_value(fact.value, fact.unit),
            "reported_as": row if match.source == "company" else None}
    return cell, ev


_FIGURE_KINDS = frozenset({"cost", "revenue", "sale"})


def _member_evidence(company: dict, label: str, fy: int, f) -> Evidence:
    shown = display_value(f.value, f.unit)
    return Evidence(
        id=f"f:{f.id}", kind="fact",
        text=(f"{company['name']} ({company['ticker']}) {label}, fiscal {fy}: {shown} "
              f"({f.concept}, {f.axis} = {f.member}, period ended {f.period_end.isoformat()})"),
        ticker=company["ticker"], cik=company["cik"], fiscal_year=f.filing_fiscal_year or fy, accession=f.accession,
        form=f.form or "10-K", url=f.url, concept=f.concept, value=_plain(f.value), unit=f.unit,
        period_end=f.period_end.isoformat(), dims={f.axis: f.member},
    )


# the figures a segment, product or region table usually carries: a member asked for another is told which
_MEMBER_METRICS = ("revenue", "operating_income", "total_assets")


def _reported_elsewhere(conn, company: dict, qualifier: str, metric: str, fy: int, labels: dict) -> tuple[str, list[str]] | None:
    """(the member's name, the figures it does report) when the qualifier names a member exactly under
    other figures than the one asked ("iPhone operating income": iPhone reports net sales only), so the
    refusal says what exists instead of only which members carry the asked figure."""
    owner = _key_words(company.get("name") or "")
    for other in (k for k in _MEMBER_METRICS if k != metric and k in METRICS):
        om = METRICS[other]
        rows = _metric_members(conn, company["cik"], other, fy)
        found, exact = find_member(qualifier, [(r.axis, r.member) for r in rows], labels, owner,
                                   metric_words=_key_words(" ".join(om.synonyms)))
        if exact and len({mem for _, mem in found}) == 1:
            shown = display_name(found[0][1], labels.get(found[0][1], set()), tokens(" ".join(om.synonyms)))
            reports = [METRICS[k].label.lower() for k in _MEMBER_METRICS if k != metric and k in METRICS
                       and (k == other or _member_has(conn, company, found[0], k, fy))]
            return shown, reports
    return None


def _member_has(conn, company: dict, pair: tuple[str, str], metric: str, fy: int) -> bool:
    return any((r.axis, r.member) == pair for r in _metric_members(conn, company["cik"], metric, fy))


def _metric_members(conn, cik: int, metric: str, fy: int) -> list:
    m = METRICS[metric]
    return segments_store.member_values(conn, cik, m.concepts, fy,
                                        instant=m.period == "instant")


def _most_said(found: list[tuple[str, str]], labels: dict, owner: frozenset[str], asked: str
               ) -> list[tuple[str, str]]:
    """Of members the qualifier names exactly, those with the longest printed name the question holds word
    for word (`asked`: its words in order): "revenue from its automotive sales business" is Tesla's
    "Automotive sales" line, not the Automotive segment the metric's word "sales" also reaches. A tie, or
    no name held whole, keeps them all in their order."""
    def held(pair):
        names = member_names(pair[1], labels.get(pair[1], set()), owner)
        return max((len(w) for w in (_words(n) for n in names) if w and f" {' '.join(w)} " in f" {asked} "), default=0)
    most = max(held(f) for f in found)
    return [f for f in found if held(f) == most] if most else found


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", unaccented(text).lower())


# words that ask for every member of an axis, not a member named like the axis
_EVERY = frozenset("by each every per across which all breakdown split mix among between".split())


def _named_as_axis(word: str, rows: list, labels: dict, asked: str, metric_words: frozenset[str] = frozenset()
                   ) -> list[tuple[str, str]] | None:
    """The members named exactly as a breakdown's axis word ("Product", "Products": us-gaap:ProductMember)
    when the question asked for no breakdown ("product revenue", not "revenue by product"), else None."""
    if not asked or _EVERY & set(asked.split()):
        return None
    found, exact = find_member(word, list(dict.fromkeys((r.axis, r.member) for r in rows)), labels,
                               metric_words=metric_words)
    forms = ([word], [word.rstrip("s")], [word.rstrip("s") + "s"])  # "Product revenues" is "product" too
    exact_names = [f for f in found if any([w for w in _words(n) if w not in metric_words] in forms
                                           for n in member_names(f[1], labels.get(f[1], set())))]
    return list(dict.fromkeys(exact_names)) if exact and exact_names else None


def _renamed(rows: list, alike: list[tuple[str, str]]):
    """The one member two QNames of one axis name when they report the same figure for the year (NVIDIA's
    ComputeAndNetworkingMember became ComputeAndNetworkingSegmentMember in a later filing): the one the
    latest filing tags, else None, and the user is asked which."""
    same = [r for r in rows if (r.axis, r.member) in alike]
    if len({(r.concept, r.value, r.period_end) for r in same}) != 1:
        return None
    latest = max(same, key=lambda r: (r.filed or r.period_end, r.id))
    return latest.axis, latest.member


def _member_cells(conn, deps, company: dict, key: str, fy: int, base: dict, orders: dict | None = None,
                  asked: str = "", question: str = "") -> list[tuple[dict, Evidence | None]]:
    """Cells for a 'dim:' key (agent.retrieval.segments): the named member's figure, or every member of the
    axis a breakdown names; with no such member, one empty cell listing the members that exist."""
    metric, qualifier, breakdown = key_parts(key)
    m = METRICS[metric]
    memo = deps.memo if deps is not None else {}
    cik = company["cik"]
    if ("member_labels", cik) not in memo:
        memo[("member_labels", cik)] = segments_store.member_labels(conn, cik)
    labels = memo[("member_labels", cik)]
    concepts = (orders or {}).get(metric) or m.concepts
    rows = segments_store.member_values(conn, cik, concepts, fy, instant=m.period == "instant",
                                        wrong=known_mistags(conn, memo, cik))
    metric_words = tokens(" ".join(m.synonyms))

    def name(r) -> str:
        return display_name(r.member, labels.get(r.member, set()), metric_words)

    order = ("Segment", "ProductOrService", "Geographical")
    rows.sort(key=lambda r: (next((i for i, a in enumerate(order) if a.lower() in r.axis.lower()), 9), r.id))
    named = _named_as_axis(qualifier, rows, labels, asked, _key_words(" ".join(m.synonyms))) if breakdown else None
    if named and len(named) > 1:  # two members printed "Product" (Cisco): which one, never every product
        return [({**base, "label": f"{qualifier} {m.label.lower()}", "members": list(dict.fromkeys(name(r) for r in rows if (r.axis, r.member) in named))}, None)]
    if named:  # "Adobe product revenue": the member the filing names "Product", not every product
        chosen = [r for r in rows if (r.axis, r.member) == named[0]]
    elif breakdown:
        axes = axes_for(qualifier, list(dict.fromkeys(r.axis for r in rows)))
        chosen = [r for r in rows if axes and r.axis == axes[0]]
        if chosen and not places_as_asked(qualifier, chosen[0].axis, [name(r) for r in chosen]):
            chosen = []  # "TXN revenue by geography": its segments name no place
    elif qualifier.startswith("="):  # one member by its QName (a formula over each member of an axis)
        chosen = [r for r in rows if r.member == qualifier[1:]][:1]
    else:
        pairs = [(r.axis, r.member) for r in rows]
        owner = _key_words(company.get("name") or "")
        found, exact = find_member(qualifier, pairs, labels, owner, metric_words=_key_words(" ".join(m.synonyms)))
        bare = " ".join(w for w in qualifier.split() if w not in _REVENUE_WORDS)
        if not found and metric == "cost_of_revenue" and bare and bare != qualifier:
            # "cost of services revenue": the member "Services", named without its revenue's words
            found, exact = find_member(bare, pairs, labels, owner, metric_words=_key_words(" ".join(m.synonyms)))
        if exact and len(found) > 1 and asked:
            found = _most_said(found, labels, owner, asked)
        alike = [f for f in found if f[0] == found[0][0]] if exact else []
        if len({member for _, member in alike}) > 1:
            renamed = _renamed(rows, alike)
            if renamed is not None:
                found, alike = [renamed], [renamed]
        if len({member for _, member in alike}) > 1:
            # two members of one axis go by the name ("Décor" the product line, "Decor" the department): which one
            members = list(dict.fromkeys(name(r) for r in rows if (r.axis, r.member) in alike))
            return [({**base, "label": f"{qualifier} {m.label.lower()}", "members": members}, None)]
        if found and not exact and len(set(found)) > 1:
            # the words fall inside several members' names ("services": "Global Services" the segment, "Sales of
            # services" the product line): the one whose name holds nothing unsaid, else which one is no guess
            said = _said_whole_one(found, labels, qualifier, question or asked, owner,
                                   lambda pairs: len({r.value for r in rows if (r.axis, r.member) in set(pairs)}) == 1)
            if said is not None:
                found = [said]
            else:
                members = list(dict.fromkeys(name(r) for r in rows if (r.axis, r.member) in set(found)))
                return [({**base, "label": f"{qualifier} {m.label.lower()}", "members": members}, None)]
        if found:
            chosen = [r for r in rows if (r.axis, r.member) == found[0]]
        else:  # "iphone and mac": each part one member, or nothing
            each = [find_member(part, pairs, labels, owner)[0] for part in member_parts(qualifier)]
            chosen = [r for f in each if f for r in rows if (r.axis, r.member) == f[0]] if len(each) > 1 and all(each) else []
        if not chosen:  # "Humira": tagged only beside its portfolio, always the same one
            paired = segments_store.member_pair_values(conn, cik, concepts,
                                                       fy, instant=m.period == "instant")
            alone = [r for r in paired if (r.axis, r.member) not in set(pairs)]
            # the company's own brand counts as its name ("Google advertising" at Alphabet, asked "googl ad revenue")
            branded = owner | _brand_words(company.get("ticker") or "")
            found, exact = find_member(qualifier, [(r.axis, r.member) for r in alone], labels, branded)
            # one member whose name holds the words and nothing the question did not say ("search": "Google Search
            # & other", its "Google" said as the company); never a narrower member ("YouTube": "YouTube ads"), and
            # of several holding the words, the one such member ("advertising": "Google advertising", the whole
            # of which "YouTube ads" is a part)
            pick = found[0] if found and exact else _said_whole_one(found, labels, qualifier, question or asked, branded)
            chosen = [r for r in alone if (r.axis, r.member) == pick] if pick else []
            if not chosen and len(found) > 1:  # several members hold the words and none is the one: which one
                names = list(dict.fromkeys(name(r) for r in alone if (r.axis, r.member) in set(found)))
                return [({**base, "label": f"{qualifier} {m.label.lower()}", "members": names}, None)]
        if not chosen:  # "Walmart U.S. grocery", "streaming revenues in EMEA": the cell of the two members named
            cell = two_member_cell(conn, company["cik"], concepts, fy, m.period == "instant", qualifier, labels, owner)
            if cell is not None:
                fact, shown = cell
                label = f"{m.label} ({shown})"
                return [({**base, "label": label, "instant": m.period == "instant", "concept": fact.concept,
                          "member": fact.member}, _member_evidence(company, label, fy, fact))]
    if not chosen:
        members = list(dict.fromkeys(name(r) for r in rows))
        cell = {**base, "label": f"{qualifier} {m.label.lower()}", "members": members}
        if not breakdown and not qualifier.startswith("="):
            elsewhere = _reported_elsewhere(conn, company, qualifier, metric, fy, labels)
            if elsewhere:
                cell["member_reports"] = elsewhere
        return [(cell, None)]
    out = []
    for r in chosen:
        shown = name(r)
        cell_key = f"dim:{metric}|={r.member}" if breakdown or len(chosen) > 1 else key
        label = f"{m.label} ({shown})"
        cell = {**base, "metric": cell_key, "label": label, "instant": m.period == "instant",
                "concept": r.concept, "member": r.member}
        out.append((cell, _member_evidence(company, f"{m.label} ({shown})", fy, r)))
    return out


_REVENUE_WORDS = frozenset({"revenue", "revenues", "sales"})
# Words a member's name may hold beside the ones asked: they name no narrower part of it
_BESIDE_NAME = frozenset({"other", "and", "&"})


def _said_whole_one(found: list[tuple[str, str]], labels: dict, qualifier: str, asked: str,
                    owner: frozenset[str], same_figure=None) -> tuple[str, str] | None:
    """Of the members the words fall inside, the one whose name holds nothing unsaid (_said_whole); of several such,
    the one whose name's words are within each other's ("Energy generation and storage", the segment, beside its
    "Energy generation and storage sales" line), or the first of those printed alike when `same_figure` says they
    state one figure; else None (which one is the user's to say)."""
    said = [f for f in dict.fromkeys(found) if _said_whole(f[1], labels, qualifier, asked, owner)]
    if len(said) <= 1:
        return said[0] if said else None
    words = {f: [set(re.findall(r"[a-z0-9]+", n.lower())) for n in member_names(f[1], labels.get(f[1], set()), owner)]
             for f in said}
    inside = [f for f in said if all(any(any(a <= b for b in words[g]) for a in words[f]) for g in said if g != f)]
    if len(inside) > 1 and same_figure is not None and same_figure(inside):
        return inside[0]  # one name on two axes ("Energy generation and storage" the segment and the product line)
    return inside[0] if len(inside) == 1 else None


def _brand_words(ticker: str) -> frozenset[str]:
    """The one-word names analysts call a company by (agent.planning.company_words.ALIASES: "google" for GOOGL)."""
    from agent.planning.company_words import ALIASES

    return frozenset(a for a in ALIASES.get(ticker.upper(), ()) if " " not in a)


def _said_whole(member: str, labels: dict, qualifier: str, asked: str, owner: frozenset[str]) -> bool:
    """Whether one of the member's names holds no word beyond the qualifier's, the question's and filler ones."""
    said = tokens(qualifier) | tokens(asked) | _BESIDE_NAME
    return any(tokens(name) <= said for name in member_names(member, labels.get(member, set()), owner))


def _orders(conn, deps, cik: int, phrases: dict[str, str]) -> dict[str, list[str]]:
    """Per metric the question named, its concepts with the one printed under the user's words first
    (agent.retrieval.line_items.printed_order); only metrics whose order that changes."""
    if not phrases:
        return {}
    memo = deps.memo if deps is not None else {}
    index = memo.get(("printed", cik))
    if index is None:
        index = memo[("printed", cik)] = printed_index(labels_of(conn, memo, cik))
    out = {}
    for key, phrase in phrases.items():
        if key in METRICS and (METRICS[key].by_label or phrase.startswith("consolidated ")):
            order = printed_order(index, METRICS[key].concepts, phrase)
            if order != list(METRICS[key].concepts):
                out[key] = order
    return out


def _printed_as(conn, deps, cik: int, concept: str, phrase: str) -> str | None:
    """The label of the company's income statement or balance sheet row printing `concept` under the user's
    words (agent.retrieval.line_items.printed_order), as printed."""
    want = tokens(phrase)
    memo = deps.memo if deps is not None else {}
    for row in labels_of(conn, memo, cik):
        if row["concept"] == concept and row["statement"] in ("income", "balance") and not row["dims"] \
                and tokens(row["label"]) == want:
            return without_note_refs(row["label"])
    return None


def spare_words(words: list[dict]) -> str:
    """The question's words the plan took as filler or claimed elsewhere: a printed row's label may hold
    them ("changes in merchandise inventories"), as a `line:` key's fourth field (agent.planning.words)."""
    return " ".join(dict.fromkeys(w["word"] for w in words or [] if w.get("as") in ("filler", "other", "growth")
                                  and w["word"] not in IGNORABLE))


def _topic_cells(conn, deps, company: dict, key: str, fy: int, cell: dict, orders: dict, topic: str,
                 evidence: dict, cells: list) -> bool:
    """The member of `key` the thread's topic names (agent.retrieval.topic_members), its cell added; False when
    the topic names none, so the company's figure is read as before."""
    from agent.retrieval.topic_members import topic_member

    said = topic_member(conn, deps.memo if deps is not None else {}, company, key, fy, topic)
    found = _member_cells(conn, deps, company, f"dim:{key}|{said}", fy, cell, orders) if said else []
    if len(found) != 1 or found[0][1] is None:
        return False
    member_cell, ev = found[0]
    evidence[ev.id] = ev
    member_cell.update(evidence_id=ev.id, display=display_value(printed_value(ev), ev.unit))
    cells.append(member_cell)
    return True


def _collect(conn, companies: list[dict], metrics: list[str], deps=None, definitions: list[dict] | None = None,
             *, changes: bool = False, phrases: dict[str, str] | None = None, spare: str = "",
             asked: str = "", question: str = "", topic: str = "") -> tuple[dict[str, Evidence], list[dict], list[dict]]:
    """Facts and computations for every (company, fiscal year, measure): evidence, calculations,
    and one cell per ask (evidence_id None when no fact reports it). With `changes` (a trend), a
    reported figure's cell also carries its growth over the year before, when both are reported."""
    evidence: dict[str, Evidence] = {}
    calculations: list[dict] = []
    cells: list[dict] = []
    lines: dict = {}
    beside: list[dict] = []  # a computed twin's cell, after its tagged figure's
    alone = len(companies) == 1 and len(metrics) == 1 and len(companies[0]["fiscal_years"]) == 1 and not changes
    every: dict[str, _Facts] = {}
    for company in companies:
        every[company["ticker"]] = _Facts(conn, company, _orders(conn, deps, company["cik"], phrases or {}), lines)
        every[company["ticker"]].memo = deps.memo if deps is not None else {}
        every[company["ticker"]].others = every
    for company in companies:
        facts = every[company["ticker"]]
        orders = facts.orders
        for fy in company["fiscal_years"]:
            for key in metrics:
                cell = {"ticker": company["ticker"], "name": company["name"], "fiscal_year": fy, "metric": key,
                        "label": _label(key), "evidence_id": None, "display": None,
                        "instant": key in METRICS and METRICS[key].period == "instant"}
                if key.startswith("dim:"):
                    found = _member_cells(conn, deps, company, key, fy, cell, orders, asked, question)
                    if len(found) == 1 and found[0][1] is None and not key_parts(key)[2]:
                        # no such member: "deferred revenue", "current deferred revenue" may be a printed row
                        metric, qualifier, _ = key_parts(key)
                        said = f"{qualifier} {(phrases or {}).get(metric) or METRICS[metric].label.lower()}"
                        line = {**cell}
                        ev = _line_cell(conn, deps, company, line_key(said, spare), fy, line, lines)
                        if ev is not None:
                            evidence[ev.id] = ev
                            line.update(evidence_id=ev.id, display=display_value(printed_value(ev), ev.unit))
                            cells.append(line)
                            continue
                        if len(line.get("candidates") or []) > 1:  # a printed row twice: ask which one
                            cells.append({**line, "metric": line_key(said)})
                            continue
                        narrowed = _row_member_cell(conn, deps, company, said, fy, cell)
                        if narrowed is not None:  # "long-lived assets in Israel": a row's fact on a member
                            evidence[narrowed[1].id] = narrowed[1]
                            cells.append(narrowed[0])
                            continue
                    for member_cell, ev in found:
                        if ev is not None:
                            evidence[ev.id] = ev
                            member_cell.update(evidence_id=ev.id, display=display_value(printed_value(ev), ev.unit))
                        cells.append(member_cell)
                    continue
                if key.startswith("udf:"):
                    definition = next((d for d in definitions or [] if f"udf:{d['name']}" == key), None)
                    if definition and definition.get("across") and definition["across"][0] != company["ticker"]:
                        continue  # a formula across two companies is the first one's figure, computed once
                    axis = _axis_of(definition["tree"]) if definition else None
                    if axis:  # "which segment grew fastest?": the formula for each member, highest first
                        cells += _each_member(facts, definition, axis, fy, cell, evidence, calculations, conn, deps, orders)
                        continue
                    computed = _user_formula(facts, definition, fy, cell, conn, deps, orders) if definition else None
                    otherwise = (definition or {}).get("otherwise")
                    if computed is None and otherwise and known(otherwise):
                        # "debt to equity, term debt over equity" whose terms are not all reported: the measure the
                        # comma named, as it is standardly computed, saying that the definition asked was not
                        computed = _compute(facts, otherwise, fy)
                        if computed is not None:
                            missing = ", ".join(cell.pop("missing_inputs", []))
                            cell["label"] = f"{_label(otherwise)} (as standardly computed: {missing} not reported)"
                            _take_calc(facts, computed, cell, evidence, calculations)
                            cells.append(cell)
                            continue
                    if definition and not definition.get("derived"):
                        # as computed: where an operand's alternatives ("D&A" as depreciation plus amortization
                        # of intangibles, "debt" as its tagged parts) picked one, the answer says which
                        shown = computed[1]["definition"]["formula"] if computed is not None else definition["formula"]
                        cell["label"] = f"{definition['name']} (defined as {shown})"
                    elif definition:
                        cell["label"] = definition["name"]
                    if computed is not None:
                        _take_calc(facts, computed, cell, evidence, calculations)
                elif key.startswith("line:"):
                    ev = _line_cell(conn, deps, company, key, fy, cell, lines)
                    # rows the company prints under these very words ("Equity income (loss)" twice) are asked about,
                    # never read as a metric narrowed by a member ("equity" of a member named like "income")
                    member = _line_as_member(key) if ev is None and not cell.get("concept") \
                        and not cell.get("candidates") else None
                    if member and printed_whole(labels_of(conn, deps.memo if deps is not None else {}, company["cik"]),
                                                line_parts(key)[0]):
                        # "same for accrued interest" after total assets: the row the reply's own words name, whole,
                        # before the thread's figure narrowed by them (a member of total assets called so)
                        whole = {**cell}
                        alone = _line_cell(conn, deps, company, line_key(line_parts(key)[0]), fy, whole, lines)
                        if alone is not None:
                            evidence[alone.id] = alone
                            whole.update(evidence_id=alone.id, display=display_value(printed_value(alone), alone.unit))
                            cells.append(whole)
                            continue
                    # the member's figure under the metric's words the user said ("intl net sales": Net sales)
                    said = {**_line_metric_said(key), **(phrases or {})} if member else {}
                    found = _member_cells(conn, deps, company, member, fy, cell, _orders(conn, deps, company["cik"], said),
                                          question=question) if member else []
                    if found and found[0][1] is not None:  # "commercial airplanes revenue": a member's figure
                        for member_cell, mev in found:
                            evidence[mev.id] = mev
                            member_cell.update(evidence_id=mev.id, display=display_value(Decimal(mev.value), mev.unit))
                            cells.append(member_cell)
                        continue
                    if ev is None and not cell.get("candidates") and not _SUMMED.search(line_parts(key)[2]):
                        # (a row found with no figure for the year, too: Adobe's FY2024 10-K prints "Services and
                        # other" on its service member, no longer company-wide)
                        narrowed = _row_member_cell(conn, deps, company, line_parts(key)[2], fy, cell,
                                                    line_optional(key))
                        if narrowed is not None:  # "GE Aerospace intangible assets": a row's fact on a member
                            evidence[narrowed[1].id] = narrowed[1]
                            cells.append(narrowed[0])
                            continue
                    if ev is not None:
                        evidence[ev.id] = ev
                        cell.update(evidence_id=ev.id, display=display_value(printed_value(ev), ev.unit))
                    elif found and found[0][0].get("members") and not cell.get("concept"):
                        cell["members"] = found[0][0]["members"]  # "spine revenue": no such member; these exist
                elif key in METRICS and topic and _topic_cells(conn, deps, company, key, fy, cell, orders, topic, evidence,
                                                             cells):
                    continue  # "how big was the operating loss?" in a thread about Reality Labs: that member's figure
                elif key in METRICS:
                    ev = facts.get(key, fy, asked=True)
                    if ev is None and (phrases or {}).get(key):
                        # none of the table's concepts: the row the company prints under the user's words
                        # ("Inventories" tagged InventoryFinishedGoodsNetOfReserves), or nothing
                        ev = _metric_row(conn, deps, company, key, phrases[key], fy, cell, lines)
                        if ev is None:
                            cell.pop("concept", None)
                    if ev is None and METRICS[key].unit == "USD/shares" and len(companies) == 1:
                        # a per-share figure reported only by class of stock (Visa's Class A, B-1, B-2, C): each
                        # class's, named, never one of them passed off as the company's. One company only: set
                        # beside another company's one figure, a class's is no comparison (said as not compared)
                        by_class = _member_cells(conn, deps, company, f"dim:{key}|*class", fy, cell, orders)
                        if by_class and all(ev_ is not None for _, ev_ in by_class):
                            # in the classes' order (A, B-1, C), a class with no shares that year ("—", tagged 0) left out
                            by_class = sorted([(c, e) for c, e in by_class if e.value and Decimal(e.value)] or by_class,
                                              key=lambda ce: ce[0]["label"])
                            for member_cell, mev in by_class:
                                evidence[mev.id] = mev
                                member_cell.update(evidence_id=mev.id, display=display_value(printed_value(mev), mev.unit),
                                                   metric=key)
                                cells.append(member_cell)
                            continue
                    if ev is not None:
                        evidence[ev.id] = ev
                        cell.update(evidence_id=ev.id, display=display_value(printed_value(ev), ev.unit))
                        if key in orders and ev.concept == orders[key][0] and (phrases or {}).get(key):
                            # the row printed under the user's words, where the company prints the metric on two:
                            # the answer names it ("Consolidated Net Income", with the noncontrolling share)
                            cell["reported_as"] = _printed_as(conn, deps, company["cik"], ev.concept, phrases[key])
                        if METRICS[key].fallback and alone and METRICS[key].unit == "pure":
                            # a tagged rate asked alone is the company's (often rounded) figure: the calculation
                            # from the lines that define it follows, cited, when they are reported, so whoever
                            # asked for the ratio sees how it is computed and both figures' sources
                            computed = _compute(facts, METRICS[key].fallback, fy)
                            if computed is not None:
                                beside_cell = {**cell, "metric": METRICS[key].fallback,
                                               "label": FORMULAS[METRICS[key].fallback].label, "instant": False}
                                _take_calc(facts, computed, beside_cell, evidence, calculations)
                                beside.append(beside_cell)
                    elif METRICS[key].fallback:
                        # a rate the company does not tag ("effective tax rate"): computed from the lines that
                        # define it, its trace naming the formula, never a figure passed off as reported
                        computed = _compute(facts, METRICS[key].fallback, fy)
                        if computed is not None:
                            _take_calc(facts, computed, cell, evidence, calculations)
                            cell["label"] = FORMULAS[METRICS[key].fallback].label
                            said = stated_convention(computed[1]["key"])
                            if said:  # "operating expenses (as total costs and expenses less cost of revenue ...)"
                                cell["convention"] = said

                else:
                    computed = _compute(facts, key, fy)
                    tagged = _tagged_form(key) if computed is None else None
                    ev = facts.get(tagged, fy) if tagged is not None else None
                    if ev is not None:
                        # "effective tax rate, calculated from the income statement" where a line it is computed
                        # from is not reported: the rate the company reports, under its own name, never a refusal
                        # of a figure the filing states (nor a computation passed off as done)
                        evidence[ev.id] = ev
                        cell.update(metric=tagged, label=_label(tagged), evidence_id=ev.id,
                                    display=display_value(Decimal(ev.value), ev.unit))
                        cells.append(cell)
                        continue
                    if computed is None:  # what each way of computing it lacked ("gross profit; cost of revenue")
                        cell["missing_inputs"] = list(dict.fromkeys(
                            METRICS[i.metric].label + (f" (fiscal {fy + i.offset})" if i.offset else "")
                            for k in fallback_chain(key) for i in FORMULAS[k].inputs
                            if facts.get(i.metric, fy + i.offset, printed=True) is None))
                    instead = negative_base_change(key, computed[1]["operands"]) if computed is not None else None
                    change = _compute(facts, instead, fy) if instead is not None else None
                    if change is not None:
                        computed = change  # a growth over a loss: the change, said why
                        cell["label"] = FORMULAS[instead].label
                    if computed is not None:
                        _take_calc(facts, computed, cell, evidence, calculations)
                        # a named measure whose figure depends on a convention says which in its sentence
                        cell["convention"] = NEGATIVE_BASE if instead else stated_convention(computed[1]["key"])
                        own = _own_total_debt(conn, deps, company, computed[1], fy) if not instead else None
                        if own and cell["convention"]:  # the company's own "Total debt" row is this sum: said so
                            cell["convention"] += f", which equals the \u201c{own}\u201d row the company prints"
                if changes and cell["evidence_id"] and fy - 1 in company["fiscal_years"]:
                    _add_change(facts, key, fy, cell, evidence, calculations)
                cells.append(cell)
                cells += beside
                beside.clear()
    # the planner's member reading and its line reading of one phrase ("deferred revenues - initial franchise fees")
    # may find the same fact: one figure, said once
    seen: set[tuple] = set()
    kept = []
    for cell in cells:
        mark = (cell["ticker"], cell["fiscal_year"], cell["evidence_id"])
        if cell["evidence_id"] and mark in seen and not cell.get("change_id"):
            continue
        seen.add(mark)
        kept.append(cell)
    cells = kept
    filings = {c["ticker"]: c.get("filings") or {} for c in companies}
    restated = []  # (cell, its evidence, the year's own 10-K): checked together below
    between = []  # (cell, its evidence, an earlier held 10-K that also reports the year): likewise
    for cell in cells:  # the year's own 10-K is not held: a later 10-K's prior-year column says it
        ev = evidence.get(cell["evidence_id"]) if cell.get("evidence_id") else None
        if ev is not None and ev.kind == "fact" and str(cell["fiscal_year"]) not in filings[cell["ticker"]] \
                and ev.fiscal_year != cell["fiscal_year"]:
            cell["source_note"] = f"as reported in the fiscal {ev.fiscal_year} 10-K's prior-year figures"
            earlier = _earlier_held(filings[cell["ticker"]], cell["fiscal_year"], ev.fiscal_year)
            if earlier is not None and ev.concept and not ev.dims:
                between.append((cell, ev, earlier))
        elif ev is not None and ev.kind == "fact" and ev.fiscal_year > cell["fiscal_year"] and ev.concept \
                and not ev.dims:
            restated.append((cell, ev, filings[cell["ticker"]].get(str(cell["fiscal_year"]))))
    for cell, ev in _first_reported_otherwise(conn, restated):
        # the year's own 10-K is held and printed another amount: the later 10-K's restated column is the
        # figure (store.facts reads the most recent filing), and the answer says which filing it is, as above
        cell["source_note"] = (f"as restated in the fiscal {ev.fiscal_year} 10-K's prior-year figures; the "
                               f"fiscal {cell['fiscal_year']} 10-K reported another amount")
    printed_in = {id(cell): earlier["fiscal_year"] for cell, _, earlier in between}
    for cell, ev in _first_reported_otherwise(conn, between):
        # the year's own 10-K is not held, and an earlier one that is printed the year another way (a stock split,
        # a business since discontinued): the latest filing's figure, said to differ from what was first printed
        cell["source_note"] = (f"as restated in the fiscal {ev.fiscal_year} 10-K's prior-year figures; the fiscal "
                               f"{printed_in[id(cell)]} 10-K reported another amount")
    return evidence, calculations, cells


def _earlier_held(held: dict, year: int, read_in: int) -> dict | None:
    """The earliest held 10-K after fiscal `year` and before the one the figure was read in (`read_in`), which
    reports the year among its prior-year figures too: Nvidia's fiscal 2024 10-K for fiscal 2023, read in the
    fiscal 2025 10-K after a ten-for-one split."""
    later = sorted(int(y) for y in held if str(y).isdigit() and year < int(y) < read_in)
    return {**held[str(later[0])], "fiscal_year": later[0]} if later else None


def _first_reported_otherwise(conn, cells: list[tuple[dict, Evidence, dict | None]]) -> list[tuple[dict, Evidence]]:
    """The (cell, evidence) pairs whose year's own 10-K (the third item, its filings entry) reports the evidence's
    concept for the same period with another value, read in one query: Home Depot's fiscal 2024 10-K reprints
    fiscal 2023's depreciation and amortization without the intangibles' amortization, $3.06 billion against the
    $3.25 billion its fiscal 2023 10-K printed."""
    asked = [(cell, ev, own) for cell, ev, own in cells
             if own and own.get("accession") and own["accession"] != ev.accession and ev.value is not None]
    if not asked:
        return []
    from store.facts import values_in_filings

    found = values_in_filings(conn, [(ev.cik, own["accession"], ev.concept, date.fromisoformat(ev.period_end))
                                     for _, ev, own in asked])
    return [(cell, ev) for (cell, ev, _), values in zip(asked, found)
            if values and all(v != Decimal(ev.value) for v in values)]


_TOTAL_DEBT_ROW = re.compile(r"total\s+(?:term\s+|long[\s-]term\s+)?(?:debt|borrowings)(?:\s+outstanding)?", re.I)


def _own_total_debt(conn, deps, company: dict, calc: dict, fy: int) -> str | None:
    """The label of a row the company prints as its total debt ("Total debt", "Total term debt") whose figure for the
    year is the debt a measure over debt summed (finance.DEBT_PARTS), else None. Why: the answer then says that the
    convention it states is the company's own figure, not only the analysts' reading."""
    n = DEBT_PARTS.get(calc["key"])
    if not n or len(calc["operands"]) < n:
        return None
    debt = sum((Decimal(str(o["value"])) for o in calc["operands"][:n]), Decimal(0))
    for row in labels_of(conn, deps.memo if deps is not None else {}, company["cik"]):
        if row.get("dims") or not _TOTAL_DEBT_ROW.fullmatch((row.get("label") or "").strip(" :")):
            continue
        fact = _annual_value(conn, company["cik"], [row["concept"]], fy, as_of_accession=company.get("as_of_accession"))
        if fact is not None and Decimal(str(fact.value)) == debt:
            return row["label"].strip(" :")
    return None


def _take_calc(facts: _Facts, computed: tuple[Evidence, dict], cell: dict, evidence: dict, calculations: list[dict]) -> None:
    """A computation's result into its cell, with the facts it was computed from as evidence."""
    ev, calc = computed
    for operand in calc["operands"]:
        found = next(e for f in (facts, *facts.others.values()) for e in f.found.values()
                     if e is not None and e.id == operand["evidence_id"])
        evidence[found.id] = found
    evidence[ev.id] = ev
    calculations.append(calc)
    cell.update(evidence_id=ev.id, display=calc["display"])
    why = negative_denominator(calc["key"], calc["operands"])
    if why:  # a ratio over negative equity: said not meaningful, its operands shown (the trace keeps the quotient)
        cell.update(display="not meaningful", not_meaningful=why[0], operands_shown=why[1])


def _add_change(facts: _Facts, key: str, fy: int, cell: dict, evidence: dict, calculations: list[dict]) -> None:
    """The cell's growth over the prior fiscal year, as a computation citing both facts. Its trace
    is not printed: the table cell shows the two footnotes, and the row above shows the prior value."""
    if key not in METRICS or growth_key(key) not in FORMULAS or facts.get(key, fy - 1) is None:
        return
    if key in WIDEST:
        # the figures the table shows are the widest reading asked ("Depreciation and amortization" as the cash-flow
        # statement's total): the change is of those two figures, never of the formula inputs' narrower line
        shown = [facts.get(key, fy, asked=True), facts.get(key, fy - 1, asked=True)]
        if any(e is None for e in shown) or shown[0].id != cell.get("evidence_id"):
            return
        computed = _computed_from(facts, growth_key(key), fy, shown)
    else:
        computed = _compute(facts, growth_key(key), fy)
    if computed is None or negative_base_change(growth_key(key), computed[1]["operands"]):
        return  # no rate over a negative base: the table's two rows show the change
    ev, calc = computed
    for operand in calc["operands"]:  # every fact the change reads is cited with it
        found = next((e for e in facts.found.values() if e is not None and e.id == operand["evidence_id"]), None)
        if found is not None:
            evidence[found.id] = found
    evidence[ev.id] = ev
    calculations.append({**calc, "trace": False})
    shown = calc["display"]
    cell.update(change_id=ev.id, change_display=shown if shown.startswith("-") else f"+{shown}")


def _numbers(state, deps, config) -> dict:
    plan = plan_of(state)
    if plan.period:  # a quarter, half, year to date or trailing twelve months: exact periods
        from agent.retrieval.quarter_figures import quarter_numbers

        return quarter_numbers(state, deps)
    metrics = [m for m in plan.metrics or [] if known(m)]
    if not metrics:
        return {"refusal": {"reason": "unknown_metric", "detail": plan.refusal_detail}}
    with deps.db.connection() as conn:
        evidence, calculations, cells = _collect(conn, state["resolved"], metrics, deps, plan.definitions,
                                                 changes=plan.intent == "trend",
                                                 phrases=_phrases(plan), spare=spare_words(plan.words),
                                                 asked=" ".join(_words(" ".join(w["word"] for w in plan.words or []))),
                                                 question=state.get("question") or "", topic=plan.member_topic or "")
    if getattr(plan, "calendar_note", None):  # "nvidia revenue in calendar 2023": the fiscal year read, said
        for cell in cells:
            if cell.get("evidence_id"):
                cell["source_note"] = "; ".join(n for n in (cell.get("source_note"), plan.calendar_note) if n)
    refusal = _unresolved_lines(cells)
    if refusal and plan.lone_name and refusal["reason"] in ("unknown_metric", "ambiguous_metric"):
        # "what about samsung?": no line or segment of the thread's company, so a company, never its figure
        names = " or ".join(c["name"] for c in state["resolved"])
        refusal = dict(plan.lone_refusal) if plan.lone_refusal else \
            {"reason": "no_company", "detail": f"{plan.lone_name}: no company I know by that name, "
                                               f"nor a line or segment {names} reports"}
    if refusal:
        return {"retrieval": {"cells": cells}, "refusal": refusal}
    retrieval = {"cells": cells, "facts": sum(1 for e in evidence.values() if e.kind == "fact"),
                 "missing": [f"{c['ticker']} {c['metric']} FY{c['fiscal_year']}" for c in cells if not c["evidence_id"]]}
    if not any(c["evidence_id"] for c in cells):
        what = ", ".join(dict.fromkeys(c["label"].lower().split(" (defined as")[0] for c in cells))
        missing = list(dict.fromkeys(m for c in cells for m in c.get("missing_inputs") or []))
        years = ", ".join(str(y) for y in sorted({c["fiscal_year"] for c in cells}))
        detail = f"no reported XBRL figure for {what} in fiscal {years}"
        if missing:  # a formula: say which reported input it lacks
            detail = f"no reported {'; '.join(m[:1].lower() + m[1:] for m in missing)} to compute {what} for fiscal {years}"
        with deps.db.connection() as conn:
            unscaled = _unscaled(conn, state["resolved"], cells)
        if unscaled:  # the filing reports the count, tagged without its scale: said so, not "no figure"
            detail = UNSCALED + unscaled
        return {"retrieval": retrieval, "refusal": {"reason": "no_grounding", "detail": detail}}
    return {
        "evidence": [e.model_dump(mode="json") for e in evidence.values()],
        "calculations": calculations,
        "retrieval": retrieval,
    }


def _share_concepts(cell: dict) -> list[list[str]]:
    """The share-count concepts a figure-less cell was to read: its metric's, a formula's share inputs' (along its
    fallbacks), or the printed row's concept when it is a count."""
    key = cell["metric"]
    if key in METRICS and METRICS[key].unit == "shares":
        return [list(METRICS[key].concepts)]
    if key in FORMULAS:
        return [list(METRICS[i.metric].concepts) for k in fallback_chain(key) for i in FORMULAS[k].inputs
                if METRICS[i.metric].unit == "shares"]
    concept = cell.get("concept")
    return [[concept]] if concept and "Shares" in concept else []


def _unscaled(conn, companies: list[dict], cells: list[dict]) -> str | None:
    """"<company>|<what>|<fiscal year>" for the first share count the filing tags without its scale among the
    figures not found (metric_facts.unscaled_count), else None."""
    names = {c["ticker"]: c["name"] for c in companies}
    ciks = {c["ticker"]: c["cik"] for c in companies}
    for cell in cells:
        for concepts in _share_concepts(cell):
            row = unscaled_count(conn, ciks[cell["ticker"]], concepts, cell["fiscal_year"])
            if row is not None:
                what = next((m.label for m in METRICS.values() if row.qualified_concept.split(":")[-1] in
                             [c.split(":")[-1] for c in m.concepts] and m.unit == "shares"), "its share count")
                return f"{names[cell['ticker']]}|{what[:1].lower() + what[1:]}|{cell['fiscal_year']}"
    return None


def _phrases(plan, text: str = "") -> dict[str, str]:
    """Metric key -> the user's words for it: in the question's word accounting, else in a formula the
    question defined ("operating income to net sales": the row printed "Net sales")."""
    said = {k: v for d in plan.definitions or [] for k, v in said_of(d.get("tree") or {}).items()}
    named = metric_phrases(plan.words)
    for key in plan.metrics or []:
        # a question read without word accounting (a why about the ratio, `text`) says its inputs in its own words
        phrase = named.get(key) or normalize(text)
        if key in FORMULAS and phrase:
            # "operating expenses as a % of net sales": a catalogued ratio's inputs said inside its name are the
            # rows printed so (Walmart's "Net sales", never its "Total revenues")
            for metric in dict.fromkeys(i.metric for i in FORMULAS[key].inputs if i.metric in METRICS):
                inside = [w for w in (METRICS[metric].label.lower(), *METRICS[metric].synonyms)
                          if re.search(rf"(?<![\w&]){re.escape(w)}(?![\w&])", phrase)]
                if inside:
                    said.setdefault(metric, max(inside, key=len))
    return {**said, **named}


def _unresolved_lines(cells: list[dict]) -> dict | None:
    """A line-item phrase no company's labels name, when nothing else was found: refused with the
    phrase (or, when several lines fit, the user is asked which one) — never another figure."""
    if any(c["evidence_id"] for c in cells):
        return None
    for c in cells:
        if c["metric"].startswith("udf:") and c.get("absent_member"):
            reported = ", ".join(c["members"][:12]) or "none tagged"
            return {"reason": "unknown_metric", "detail": f"{c['absent_member']} (members reported: {reported})"}
        if c["metric"].startswith("dim:") and "members" in c:
            reported = ", ".join(c["members"][:12]) or "none tagged"
            if c.get("member_reports"):  # "iphone operating income": the member exists, the figure not for it
                shown, reports = c["member_reports"]
                return {"reason": "unknown_metric", "detail": f"{c['label']} ({shown} reports {' and '.join(reports)} only; "
                                                              f"members reported with it: {reported})"}
            return {"reason": "unknown_metric", "detail": f"{c['label']} (members reported: {reported})"}
        if not c["metric"].startswith("line:") or c.get("concept"):
            continue
        phrase = line_parts(c["metric"])[2]
        if len(c.get("candidates") or []) > 1:
            return {"reason": "ambiguous_metric", "detail": phrase, "candidates": c["candidates"][:6]}
        if c.get("members"):  # no label and no member by these words: the members that exist
            return {"reason": "unknown_metric", "detail": f"{phrase} (members reported: {', '.join(c['members'][:12])})"}
        return {"reason": "unknown_metric", "detail": missing_divisor(phrase)}  # "square foot (in your formula: ...)"
    return None


# --- prose -----------------------------------------------------------------------------------

def narrative_prior(question: str) -> list[str]:
    """The Items a question no route chose is searched with a preference for: MD&A, then the
    business description, the sections that tell what the company did and does. The whole filing
    is still ranked, so an answer told only in the notes or the risk factors returns; but without
    a preference the risk factors' and notes' boilerplate, which repeat every topic word of the
    filing ("AI", "737 production", "pricing"), win on overlap alone. A question that asks for
    risks or for the notes, or names a section, keeps the plain ranking."""
    low = question.lower()
    if ASKS_RISK.search(low) or ASKS_NOTES.search(low) or NAMED_SECTION.search(low):
        return []
    return list(NARRATIVE)


def _item_scope(question: str, plan, items: list[str], told: list[str] | None = None) -> dict:
    """The planner's Items as a bound when a topic word or the form of the question chose them
    (or the question names its section), as a preference (store.chunks.hybrid_search) when they
    are only the planner's default: a bound on a default loses every answer told elsewhere (what
    "does X say about the next halving" is told in the business description, not MD&A). A bound
    the user did not name is still the planner's reading of the question, so the whole filing's
    best passage outside it is read beside it (store.chunks.with_beyond). `told`: the Items where the filing
    writes the question's particular words (agent.retrieval.told_items), preferred first when no route chose any."""
    if not items:
        prior = narrative_prior(question)
        told = list(told or [])
        return {"prefer": [*told, *(i for i in prior if i not in told)]} if prior else {}
    if NAMED_SECTION.search(question.lower()):
        return {"items": items}
    if (getattr(plan, "slots", None) or {}).get("fiscal_years") == EARLIER_SLOT:
        # an earlier 10-K read for its best passage (agent.retrieval.earlier_filing), wherever it lies:
        # the route's Items weigh the search and do not bound it away from that passage
        return {"prefer": items}
    if not plan.items_guessed:
        # the planner's route; unless it asks a cause (told in MD&A, its route's first Item), the
        # filing's best passage in the narrative Items is read beside it
        return {"items": items, **({} if getattr(plan, "asks_cause", False) else {"beyond": list(NARRATIVE)})}
    return {"prefer": items}


SAME_TEXT = 0.75  # share of the smaller chunk's sentences another holds: the same passage again
SPARE_HITS = 4  # hits fetched beyond the cap, so dropping repeats still leaves a full list
MIN_SENTENCE = 40  # characters: shorter lines (headings, "Table of Contents") say nothing of a passage


def _sentence_set(text: str) -> frozenset[str]:
    from agent.checking.guards import split_sentences

    return frozenset(s.lower() for s in split_sentences(text) if len(s) >= MIN_SENTENCE)


def distinct_hits(hits: list, limit: int) -> list:
    """The hits without a passage already among the better ones, capped at `limit`.

    A 10-K repeats itself: a segment's outlook in Item 1 and again in MD&A, an event in the risk
    factors and in the notes, and chunks overlap at their edges. Two copies of one passage would
    take two of the few places the composer reads, so a hit whose sentences are mostly (SAME_TEXT)
    those of a better hit is left out and the next distinct one takes its place."""
    kept, seen = [], []
    for hit in hits:
        sentences = _sentence_set(hit.text)
        if sentences and any(len(sentences & other) >= SAME_TEXT * min(len(sentences), len(other))
                             for other in seen if other):
            continue
        kept.append(hit)
        seen.append(sentences)
        if len(kept) == limit:
            break
    return kept


MD_A = ["7"]
STATING_READ = 16  # MD&A chunks stating the amount read for the one that names the figure beside it


STATED_ASKED = {"at": 3, "limit": 1}  # where a question's own why places the statement of its figure (_stating_first)
CUT_READ = 3  # the best hits whose next chunk is read for a cause cut off from its statement


def _with_causes_cut_off(conn, hits: list) -> list:
    """The hits, each of the best CUT_READ followed by the next chunk of its filing when the chunker cut
    its last statement from the cause that opens the next (causes.cut_before_cause)."""
    after = chunk_store.following(conn, hits[:CUT_READ])
    out, taken = [], set()
    for hit in hits:
        if hit.id in taken:
            continue  # moved up, right after the statement it ends
        out.append(hit)
        taken.add(hit.id)
        nxt = after.get(hit.id)
        if nxt is not None and nxt.id not in taken and cut_before_cause(hit.text, nxt.text):
            out.append(chunk_store.with_score(nxt, hit.score))
            taken.add(nxt.id)
    return out


def _stating_first(conn, hits: list, patterns: list[str], cik: int, accessions: list[str], names: set[str],
                   at: int = 0, limit: int = 2) -> list:
    """The search's hits with the MD&A chunks that state the figure and go on to explain it
    (causes.explaining_first, at most `limit`) placed at `at`, each taking the score of the hit
    above it (the best hit's, first), so the composer reads them among the first.

    A "why?" after a figure reads them first: the thread's figure is the whole subject. A question
    that asks it in its own words keeps the search's best hit first: the words it chose may name the
    figure's cause passage better than the statement of the total does."""
    found = chunk_store.stating(conn, patterns, cik=cik, accessions=accessions, items=MD_A, limit=STATING_READ)
    lead = explaining_first(found, patterns, names, limit=limit)
    ahead = {h.id for h in hits[:at]}
    if not lead or all(h.id in ahead for h in lead):  # the search already reads it before `at`
        return hits
    lead = [h for h in lead if h.id not in ahead]
    taken = {h.id for h in lead}
    rest = [h for h in hits if h.id not in taken]
    at = min(at, len(rest))
    top = float(rest[at - 1].score) if at else max((float(h.score) for h in hits), default=0.0)
    return rest[:at] + [chunk_store.with_score(h, top) for h in lead] + rest[at:]


def _prose(state, deps, config) -> dict:
    located = state["located"]
    if (plan_of(state).period or {}).get("changes"):  # what a 10-Q's risk factors add to the 10-K's
        return _risk_changes(state, deps)
    if (plan_of(state).unless_named or {}).get("count"):
        return _stated_count(state, deps)
    queries = located["queries"] or [state["question"]]
    status("Searching the filing...")
    companies = state["resolved"]
    per_company = max(4, chunk_store.MAX_CHUNKS // max(1, len(companies)))
    per_company_hits: list[list[Evidence]] = []
    plan = plan_of(state)
    cause_plan = None
    with deps.db.connection() as conn:
        figures = asked_figures(plan, state["question"], [m for m in plan.metrics or [] if known(m)])
        causes = cause_queries(conn, plan, state["question"], companies, figures)
        thread_cause = (plan.slots or {}).get("metrics") == "thread, its cause"
        asks_why = plan.intent == "qualitative" and asks_cause_of(state["question"])
        stated = stated_amounts(conn, plan, companies, figures, state["question"])
        for company in companies:
            accessions = located["accessions"].get(str(company["cik"]))
            if not accessions:
                continue  # no filing for the asked year: never widen to the company's other years
            cause = causes.get(company["cik"])
            asked = queries
            if cause:  # "why?" after a figure: its words and direction replace the question's placeholder
                rest = [q for q in queries if q != plan.query] if thread_cause else queries
                asked = [cause, *([subject_query(plan.metrics)] if thread_cause else []), *rest][:3]
                if thread_cause and cause_plan is None:  # the composer ranks sentences by the same search
                    # and prefers the sentences stating the amounts searched for (compose.STATED_BONUS)
                    cause_plan = {**state["plan"], "query": cause, "figure_amounts": [
                        [str(v), unit, c["ticker"]] for c in companies for v, unit in stated.get(c["cik"], [])]}
            hits = chunk_store.search(
                conn,
                asked,
                embed_queries(deps.embedder, asked),  # the composer reuses these vectors
                cik=company["cik"],
                accessions=accessions,
                **_item_scope(state["question"], plan, located["items"] or [], located.get("told")),
                limit=per_company,
                spare=SPARE_HITS,
            )
            if plan.intent == "qualitative" and not (cause or stated.get(company["cik"])):  # a figure's cause: its own readings
                hits = answering_first(conn, hits, asked[0], accessions)
            if cause or asks_why:  # a statement cut from its cause by a chunk's end: the cause is read right after it
                hits = _with_causes_cut_off(conn, hits)
            if stated.get(company["cik"]):  # "why?" after a figure: where MD&A states that figure, first
                hits = _stating_first(conn, hits, amount_patterns(stated[company["cik"]]), company["cik"], accessions,
                                      figure_names(figures), **({} if thread_cause else STATED_ASKED))
            hits = distinct_hits(hits, per_company)
            found: list[Evidence] = []
            per_company_hits.append(found)
            for hit in hits:
                found.append(
                    Evidence(
                        id=f"c:{hit.id}",
                        kind="chunk",
                        text=hit.text,
                        ticker=company["ticker"],
                        cik=hit.cik,
                        fiscal_year=hit.fiscal_year,
                        accession=hit.accession,
                        form=hit.form,
                        url=hit.url,
                        item=hit.item,
                        chunk_id=hit.id,
                        score=float(hit.score),
                    )
                )
        # several companies: take their best chunks in turn, so each is heard from
        evidence = [ev for rank in zip_longest(*per_company_hits) for ev in rank if ev is not None]
        # "How much did it spend on R&D, and on what?": the figure from XBRL, the why from the text.
        metrics = [m for m in plan.metrics or [] if known(m)]
        if metrics and plan.period:  # the quarter's own figures beside its 10-Q's words
            facts, calculations, cells = _quarter_cells(state, deps)
        else:
            # the figures of the years asked ("SG&A for 2021 through 2023, rising or falling?"), each read where a
            # filing reports it (a later 10-K's comparatives), though the passages come from the filings held
            figured = [{**c, "fiscal_years": c.get("figure_years") or c["fiscal_years"]} for c in companies]
            facts, calculations, cells = (_collect(conn, figured, metrics, deps, plan.definitions,
                                                   phrases=_phrases(plan, state["question"]))
                                          if metrics else ({}, [], []))
        quoted = _quoted_amounts(conn, evidence)
        for ev, _ in quoted:
            facts.setdefault(ev.id, ev)
    cells = [c for c in cells if c["evidence_id"]]
    retrieval = {"chunk_ids": [e.chunk_id for e in evidence], "queries": queries, "items": located["items"],
                 "cells": cells, "fact_years": {ev.id: year for ev, year in quoted if year is not None}}
    if causes:
        first = next(iter(causes.values()))
        rest = [q for q in queries if q != plan.query] if thread_cause else queries
        retrieval["queries"] = [first, *([subject_query(plan.metrics)] if thread_cause else []), *rest][:3]
    if not evidence:
        return {"retrieval": retrieval, "refusal": plan.unless_named and _kept(plan.unless_named)
                or {"reason": "no_grounding", "detail": None}}
    if plan.unless_named and not any(names_all(ev.text, plan.unless_named["words"]) for ev in evidence):
        # a figure no table maps, searched in prose: no passage names it, so its refusal stands
        return {"retrieval": retrieval, "refusal": _kept(plan.unless_named)}
    return {
        "evidence": [e.model_dump(mode="json") for e in [*facts.values(), *evidence]],
        "calculations": calculations,
        "retrieval": retrieval,
        **({"plan": cause_plan} if cause_plan is not None else {}),
    }


def _stated_count(state, deps) -> dict:
    """A count no table maps ("how many employees"): the one sentence of the asked year's filing where the company
    states it (agent.retrieval.prose_counts), quoted alone; none, and the figure's refusal stands."""
    plan = plan_of(state)
    located = state["located"]
    evidence: list[Evidence] = []
    with deps.db.connection() as conn:
        for company in state["resolved"]:
            accessions = located["accessions"].get(str(company["cik"])) or []
            names = [company["name"], company["name"].split()[0] if len(company["name"].split()[0]) > 3 else "",
                     company["ticker"]]
            found = find_count(conn, tuple(plan.unless_named["count"]), company["cik"], accessions, names)
            if found is None:
                continue
            hit, sentence = found
            evidence.append(Evidence(id=f"c:{hit.id}", kind="chunk", text=sentence, ticker=company["ticker"],
                                     cik=hit.cik, fiscal_year=hit.fiscal_year, accession=hit.accession, form=hit.form,
                                     url=hit.url, item=hit.item, chunk_id=hit.id, score=float(hit.score)))
    retrieval = {"chunk_ids": [e.chunk_id for e in evidence], "queries": [], "items": located["items"], "cells": []}
    if not evidence:
        return {"retrieval": retrieval, "refusal": _kept(plan.unless_named)}
    return {"evidence": [e.model_dump(mode="json") for e in evidence], "calculations": [], "retrieval": retrieval}


def _kept(unless_named: dict) -> dict:
    return {"reason": unless_named["reason"], "detail": unless_named["detail"]}


def _risk_changes(state, deps) -> dict:
    """Sentences of the 10-Q's Part II Item 1A that Item 1A of the 10-K before it does not have."""
    from agent.retrieval.quarter_prose import new_sentences
    from store import quarters as quarters_store

    company = state["resolved"][0]
    tenq = company["filings"][str(company["fiscal_years"][0])]
    annual = tenq.get("prior_10k")
    with deps.db.connection() as conn:
        quarter_chunks = quarters_store.section_chunks(conn, tenq["accession"], "II-1A")
        annual_chunks = quarters_store.section_chunks(conn, annual["accession"], "1A") if annual else []
    if not annual_chunks:
        return {"refusal": {"reason": "year_not_available", "detail": (
            f"{as_named(company['name'])}'s annual report (10-K) from before its quarterly report for {tenq['spoken']} "
            "(the risk factors a quarterly report updates)")}}
    if not quarter_chunks:
        return {"refusal": {"reason": "no_grounding", "detail": (
            f"searched {company['name']}'s quarterly report for {tenq['spoken']}: it has no risk factors section")}}
    picks = new_sentences(quarter_chunks, annual_chunks)
    used = {c.id for c, _ in picks}
    evidence = [Evidence(id=f"c:{c.id}", kind="chunk", text=c.text, ticker=company["ticker"], cik=c.cik,
                         fiscal_year=c.fiscal_year, accession=c.accession, form=c.form, url=c.url, item=c.item,
                         chunk_id=c.id, score=1.0) for c in quarter_chunks if c.id in used]
    retrieval = {"chunk_ids": [e.chunk_id for e in evidence], "queries": [], "items": ["II-1A", "1A"],
                 "new_sentences": [[c.id, s] for c, s in picks],
                 "quarter_label": f"{company['name']}'s 10-Q for {tenq['label']}",
                 "annual_label": f"its fiscal {annual['fiscal_year']} 10-K"}
    if not evidence:
        return {"retrieval": retrieval, "refusal": {"reason": "no_grounding", "detail": (
            f"searched {company['name']}'s 10-Q for {tenq['label']} (Part II, Item 1A): it repeats its 10-K's risk factors")}}
    return {"evidence": [e.model_dump(mode="json") for e in evidence], "calculations": [], "retrieval": retrieval}


def _quarter_cells(state, deps) -> tuple[dict, list[dict], list[dict]]:
    """A prose question's figures for its quarter (agent.retrieval.quarter_figures); none when not held."""
    from agent.retrieval.quarter_figures import quarter_numbers

    period = {k: v for k, v in state["plan"]["period"].items() if k not in ("changes", "growth")}
    got = quarter_numbers({**state, "plan": {**state["plan"], "period": period}}, deps)
    if "refusal" in got:
        return {}, [], []
    evidence = {e["id"]: Evidence.model_validate(e) for e in got["evidence"]}
    return evidence, got["calculations"], got["retrieval"]["cells"]


MAX_AMOUNTS = 6  # a sentence with more figures than this is a table row, never quoted whole
MAX_PAIR_FACTS = 300  # facts read for changes between years, per filing: the rest would only be look-alikes


def _quoted_amounts(conn, chunks: list[Evidence]) -> list[tuple[Evidence, int | None]]:
    """The XBRL facts of each chunk's own filing that an amount in its sentences may equal
    (agent.checking.quoted_figures), with each fact's own fiscal year: the composer quotes such a sentence
    whole, citing them."""
    from agent.checking.guards import split_sentences
    from agent.checking.quoted_figures import amounts

    texts: dict[tuple[int, str], list[str]] = {}
    for chunk in chunks:
        found = [s for s in split_sentences(chunk.text) if 0 < len(amounts(s)) <= MAX_AMOUNTS]
        texts.setdefault((chunk.cik, chunk.accession), []).extend(found)
    out = []
    for (cik, accession), sentences in texts.items():
        ticker = next(c.ticker for c in chunks if c.accession == accession)
        found = filing_amounts.facts_in_ranges(conn, cik, accession, amount_ranges(sentences))
        # "increased $4.2 billion, or 12%": a change between two of the filing's facts a year apart
        pairs = filing_amounts.changes_in_ranges(conn, accession, change_ranges(sentences), MONEY_UNITS)
        have = {f.id for f in found}
        found += filing_amounts.facts_by_id(conn, cik, accession,
                                            sorted({i for pair in pairs for i in pair} - have)[:MAX_PAIR_FACTS])
        for f in found:
            member = f" ({', '.join(f.dims.values())})" if f.dims else ""
            out.append((Evidence(
                id=f"f:{f.id}", kind="fact",
                text=f"{ticker} {f.concept}{member}{f' ({f.labels})' if f.labels else ''}, period ended "  # name, then when
                     f"{f.period_end.isoformat()}: {display_value(f.value, f.unit)}",
                ticker=ticker, cik=cik, fiscal_year=f.filing_fiscal_year or f.fiscal_year or 0, accession=accession,
                url=f.url, concept=f.concept, value=_plain(f.value), unit=f.unit,
                period_end=f.period_end.isoformat(), dims=f.dims,
            ), f.fiscal_year))
    return out


quarter_members.lend(_member_cells, _line_as_member)  # a member's quarters are found as its year is
