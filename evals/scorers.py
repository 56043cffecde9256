"""Scorers: plain functions of (expectation, Answer as a dict, plain lookups) -> findings.

Nothing here touches the database or the agent: the runner fetches chunk texts and facts and
passes them in, so each scorer can be unit-tested with literals and a regression points at the
one rule it breaks. An Answer is handled as `Answer.model_dump(mode="json")`.

Numbers are compared as displayed (evals.display), never with a tolerance: an exact fact must
equal the expected value exactly; a shown figure ("$391.0 billion", "46.2%") must equal the exact
expected value rounded to the digits shown.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal

from evals.display import Shown, equals_as_displayed, same_value, shown_numbers, to_decimal
from evals.sentence_hash import find_hashed
from evals.sets import accepted_reasons, accepted_routes, expected_tickers



# ---------------------------------------------------------------------------------------------
# The numeric tripwire


@dataclass
class NumberFindings:
    ok: list[str]
    wrong: list[str]  # a number was given and it differs: the tripwire
    missing: list[str]  # the expected number is not in the answer at all


def check_numbers(expect: dict, answer: dict) -> NumberFindings:
    """Each expected fact against the Answer's numbers for the same company and fiscal year.

    Wrong when the answer gives, for that company and year, the expected concept with another
    value, or (single-metric questions) any other figure instead of the expected one: "revenue"
    answered with cost of revenue is a wrong number, not a missing one.
    """
    found = NumberFindings([], [], [])
    numbers = answer.get("numbers") or []
    expected = expect.get("numbers") or []
    single_metric = len({e.get("metric") for e in expected}) <= 1
    for exp in expected:
        target = Decimal(str(exp["value"]))
        label = f"{exp['ticker']} FY{exp['fiscal_year']} {exp.get('metric') or ''}".strip()
        same_scope = [
            n
            for n in numbers
            if str(n.get("ticker", "")).upper() == exp["ticker"].upper() and n.get("fiscal_year") == exp["fiscal_year"]
        ]
        if any(same_value(target, n["value"], exact=True) for n in same_scope):
            found.ok.append(label)
            continue
        concepts = set(exp.get("concepts") or [])
        same_concept = [n for n in same_scope if _concept_in(n.get("concept"), concepts)]
        culprits = same_concept or (same_scope if single_metric else [])
        if culprits:
            got = ", ".join(f"{n.get('concept')}={n['value']}" for n in culprits)
            found.wrong.append(f"{label}: expected {exp['value']}, got {got}")
        else:
            found.missing.append(f"{label}: expected {exp['value']}, not in the answer's numbers")
    return found


def calc_values(answer: dict) -> list[str]:
    """Every computed figure the answer shows: calculation results and non-fact numbers."""
    values = [c.get("result", "") for c in answer.get("calculation") or []]
    return [v for v in values if v]


def check_calc(expect: dict, answer: dict) -> NumberFindings:
    """A derived figure: the calculation's result must equal the exact expected value as shown.

    A percent may be shown as a percent (46.2%) or as a ratio (0.462); a ratio (1.07) as is.
    """
    found = NumberFindings([], [], [])
    calc = expect.get("calc")
    if not calc:
        return found
    target = Decimal(str(calc["value"]))
    label = f"{calc.get('ticker', '')} {calc.get('metric', 'calc')}".strip()
    given = calc_values(answer)
    targets = [target] + [Decimal(str(alt["value"])) for alt in calc.get("alternatives") or []]
    candidates = list(targets)
    if calc.get("unit") == "percent":
        candidates += [t / 100 for t in targets]
    if any(same_value(c, g, exact=False) for c in candidates for g in given):
        found.ok.append(label)
    elif given:
        found.wrong.append(f"{label}: expected {calc['value']} ({calc.get('unit', '')}), got {given}")
    else:
        found.missing.append(f"{label}: expected {calc['value']}, the answer has no calculation")
    return found


def backing_values(answer: dict) -> list[Decimal]:
    """Every value the answer may show: its facts, cited values, calculation results and inputs.
    (Table cells are not backing: they are checked against these.)"""
    values: list[Decimal] = []
    for n in answer.get("numbers") or []:
        values.append(to_decimal(n.get("value")))
    for c in answer.get("citations") or []:
        values.append(to_decimal(c.get("value")))
    values += _calc_values(answer)
    return [v for v in values if v is not None]


def _calc_values(answer: dict) -> list[Decimal]:
    """Values the answer computed: its calculation blocks, and computed numbers (no citation of
    their own) whose trace is not printed, such as a trend table's change column."""
    values: list[Decimal] = []
    for n in answer.get("numbers") or []:
        if n.get("citation") is None and (value := to_decimal(n.get("value"))) is not None:
            values.append(value)
    for calc in answer.get("calculation") or []:
        for piece in [calc.get("result", ""), *calc.get("steps", [])]:
            values.extend(s.value for s in shown_numbers(piece))
            values.extend(s.digits for s in shown_numbers(piece))
    return values


def _segments(text: str) -> list[tuple[str, set[int]]]:
    """The text cut after each run of [n] markers and at line ends: (segment, its markers)."""
    out = []
    for line in (text or "").splitlines():
        pos = 0
        for match in re.finditer(r"(?:\s*\[\d+\])+", line):
            out.append((line[pos : match.start()], {int(n) for n in re.findall(r"\d+", match.group(0))}))
            pos = match.end()
        if line[pos:].strip():
            out.append((line[pos:], set()))
    return out


def _unbacked(text: str, backing: list[Decimal]) -> list[str]:
    stray = []
    for shown in shown_numbers(text):
        if abs(shown.digits) < 10 and shown.decimals == 0 and shown.scale == 1 and not shown.percent:
            continue  # counts and ordinals ("2 companies", "3 years")
        if not _backed(shown, backing):
            stray.append(shown.raw)
    return stray


def stray_numbers(answer: dict) -> list[str]:
    """Amounts in the answer's own words (not its quotes) that no fact, citation or calculation backs.

    A figure written in thousands or millions without a scale word ("180,683") is matched at
    those scales too. Sentences citing prose are left to the claim check: filings' sentences carry
    their own numbers, and those are verified as quotes.
    """
    if answer.get("kind") != "answer":
        return []
    prose = {c["n"] for c in answer.get("citations") or [] if not c.get("concept") and c.get("quote")}
    backing = backing_values(answer)
    stray = []
    for segment, markers in _segments(answer.get("text", "")):
        if markers & prose:
            continue
        stray += _unbacked(segment, backing)
    return stray


def table_mismatches(answer: dict) -> list[str]:
    """Table cells whose amount is not the value of the citation(s) the cell carries (or, for an
    uncited cell, of anything the answer cites or computes)."""
    if answer.get("kind") != "answer":
        return []
    by_n = {c["n"]: c for c in answer.get("citations") or []}
    everything = backing_values(answer)
    calcs = _calc_values(answer)
    out = []
    for table in answer.get("tables") or []:
        marks = table.get("cell_citations") or []
        for r, row in enumerate(table.get("rows") or []):
            for c, cell in enumerate(row):
                cited = marks[r][c] if r < len(marks) and c < len(marks[r]) else []
                if cited:
                    backing = [to_decimal(by_n[n].get("value")) for n in cited if n in by_n] + calcs
                    backing = [v for v in backing if v is not None]
                else:
                    backing = everything
                for raw in _unbacked(str(cell), backing):
                    out.append(f"table '{table.get('title', '')}' row {r + 1}: {raw} is not what {cited or 'the answer'} cites")
    return out


def _backed(shown: Shown, backing: Iterable[Decimal]) -> bool:
    scales = [shown.scale] if shown.scale != 1 else [Decimal(1), Decimal(10) ** 3, Decimal(10) ** 6, Decimal(10) ** 9]
    for value in backing:
        for scale in scales:
            probe = Shown(shown.digits, shown.decimals, scale, shown.percent, shown.raw)
            candidates = [value, abs(value)]
            if shown.percent:
                candidates += [value * 100]
            if any(equals_as_displayed(c, probe) or equals_as_displayed(-c, probe) for c in candidates):
                return True
    return False


def numeric_tripwire(expect: dict, answer: dict) -> list[str]:
    """Every number the answer gives that differs from the expected fact or computation, plus
    every amount in its text that nothing backs. Must be empty, always."""
    if answer.get("kind") != "answer":
        return []
    trips = check_numbers(expect, answer).wrong + check_calc(expect, answer).wrong
    trips += [f"unbacked amount in text: {raw}" for raw in stray_numbers(answer)]
    trips += table_mismatches(answer)
    return trips


def unknown_facts(answer: dict, fact_exists: Callable[[dict], bool]) -> list[str]:
    """Numbers claiming to be XBRL facts that the store does not hold with that value."""
    out = []
    for n in answer.get("numbers") or []:
        concept = n.get("concept") or ""
        if ":" not in concept or concept.split(":", 1)[0] not in ("us-gaap", "dei", "ifrs-full", "srt"):
            continue
        if not fact_exists(n):
            out.append(f"{n.get('ticker')} FY{n.get('fiscal_year')} {concept}={n.get('value')} is not a stored fact")
    return out


def _concept_in(concept: str | None, concepts: set[str]) -> bool:
    if not concepts or not concept:
        return False
    bare = concept.split(":", 1)[-1]
    return concept in concepts or bare in {c.split(":", 1)[-1] for c in concepts}


# ---------------------------------------------------------------------------------------------
# Prose claims


_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-", "\u00a0": " ", "\u2009": " "})
_ELLIPSIS = re.compile(r"\s*(?:\.\.\.|…)\s*")


def normalize(text: str) -> str:
    """Case, quotes, dashes, whitespace and markdown emphasis do not make a quote unfaithful."""
    text = (text or "").translate(_QUOTES)
    text = re.sub(r"[*_`]+", "", text)
    text = re.sub(r"\s+", " ", text).strip().lower()
    return text.strip(" \"'>-•:;,.")


@dataclass(frozen=True)
class ClaimRef:
    text: str
    n: int


def prose_claims(answer: dict) -> list[ClaimRef]:
    """Each [n] marker that points at a prose citation, with the text it closes.

    The claim is what runs from the previous marker (or line start) to the marker; two markers in
    a row share one claim. Prose citations the text never marks are claimed by their quote.
    """
    prose = {c["n"]: c for c in answer.get("citations") or [] if not c.get("concept")}
    text = answer.get("text") or ""
    claims: list[ClaimRef] = []
    used: set[int] = set()
    start = 0
    previous = ""
    for match in re.finditer(r"\[(\d+)\]", text):
        n = int(match.group(1))
        line_start = text.rfind("\n", 0, match.start()) + 1
        piece = text[max(start, line_start) : match.start()]
        start = match.end()
        claim = piece.strip() or previous
        previous = claim
        if n in prose and claim:
            claims.append(ClaimRef(claim, n))
            used.add(n)
    for n, c in prose.items():
        if n not in used and c.get("quote"):
            claims.append(ClaimRef(c["quote"], n))
    return claims


def _contained(piece: str, haystack: str) -> bool:
    parts = [normalize(p) for p in _ELLIPSIS.split(piece) if normalize(p)]
    hay = normalize(haystack)
    return bool(parts) and all(p in hay for p in parts)


def claim_supported(claim: str, quote: str | None, chunk_text: str | None, similar: Callable[[str, str], float] | None = None) -> str:
    """'verbatim', 'paraphrase' (cosine >= 0.85 to a sentence of the chunk) or 'unsupported'."""
    if not chunk_text:
        return "unsupported"
    if _contained(claim, chunk_text):
        return "verbatim"
    if quote and _contained(quote, chunk_text):
        c, q = normalize(claim), normalize(quote)
        if c and (c in q or q in c):
            return "verbatim"
    if similar is not None and similar(claim, chunk_text) >= 0.85:
        return "paraphrase"
    return "unsupported"


def unsupported_claims(
    answer: dict,
    chunk_text: Callable[[dict], str | None],
    similar: Callable[[str, str], float] | None = None,
) -> tuple[int, list[str]]:
    """(claims checked, the unsupported ones): prose claims whose words are not in the cited chunk."""
    if answer.get("kind") != "answer":
        return 0, []
    by_n = {c["n"]: c for c in answer.get("citations") or []}
    claims = prose_claims(answer)
    bad = []
    for claim in claims:
        cit = by_n[claim.n]
        status = claim_supported(claim.text, cit.get("quote"), chunk_text(cit), similar)
        if status == "unsupported":
            bad.append(f"[{claim.n}] {cit.get('ticker')} FY{cit.get('fiscal_year')} Item {cit.get('item')}: {claim.text[:160]!r}")
    return len(claims), bad


# ---------------------------------------------------------------------------------------------
# Citations


def citation_errors(expect: dict, answer: dict, fact_ok: Callable[[dict], bool] | None = None) -> tuple[int, list[str]]:
    """(citations checked, the wrong ones). Right means: the expected company; for a number, an
    acceptable concept whose value the cited filing really reports; for prose, the expected Item
    of the expected filing; and always a SEC URL."""
    if answer.get("kind") != "answer":
        return 0, []
    cits = answer.get("citations") or []
    tickers = expected_tickers(expect)
    concepts: dict[str, set[str]] = {}
    for exp in expect.get("numbers") or []:
        concepts.setdefault(exp["ticker"].upper(), set()).update(exp.get("concepts") or [])
    for c in (expect.get("calc") or {}).get("concepts") or []:
        concepts.setdefault((expect["calc"].get("ticker") or "").upper(), set()).add(c)
    evidence: dict[str, list[dict]] = {}
    for ev in expect.get("evidence") or []:
        evidence.setdefault(ev["ticker"].upper(), []).append(ev)
    wrong = []
    for cit in cits:
        ticker = str(cit.get("ticker", "")).upper()
        label = f"[{cit.get('n')}] {ticker} FY{cit.get('fiscal_year')} {cit.get('concept') or 'Item ' + str(cit.get('item'))}"
        problems = []
        if tickers and ticker not in tickers:
            problems.append(f"company {ticker} not in {sorted(tickers)}")
        if not cit.get("url"):
            problems.append("no SEC URL")
        if cit.get("concept"):
            wanted = concepts.get(ticker)
            if wanted and not _concept_in(cit["concept"], wanted):
                problems.append(f"concept not one of {sorted(wanted)}")
            named = _named_filing(expect, ticker, cit)
            if named is not None and cit.get("fiscal_year") != named:
                problems.append(f"cites the FY{cit.get('fiscal_year')} 10-K, the question names the FY{named} 10-K")
            if fact_ok is not None and cit.get("value") is not None and not fact_ok(cit):
                problems.append(f"value {cit.get('value')} is not what filing {cit.get('accession')} reports")
        elif ticker in evidence:
            evs = evidence[ticker]
            items = {str(e["item"]).upper() for e in evs if e.get("item")}
            years = {e["fiscal_year"] for e in evs if e.get("fiscal_year")}
            if items and str(cit.get("item", "")).upper() not in items:
                problems.append(f"Item {cit.get('item')} not one of {sorted(items)}")
            if years and cit.get("fiscal_year") not in years:
                problems.append(f"filing FY{cit.get('fiscal_year')} not one of {sorted(years)}")
        if problems:
            wrong.append(f"{label}: " + "; ".join(problems))
    return len(cits), wrong


def _named_filing(expect: dict, ticker: str, cit: dict) -> int | None:
    """The filing year the question names ("per the FY2024 10-K") for the number this citation backs."""
    value = to_decimal(cit.get("value"))
    for exp in expect.get("numbers") or []:
        if exp.get("filing_fy") is None or exp["ticker"].upper() != ticker:
            continue
        if value is not None and value == Decimal(str(exp["value"])):
            return exp["filing_fy"]
    return None


# ---------------------------------------------------------------------------------------------
# Refusals and routes


def is_refusal(answer: dict) -> bool:
    """A refusal is a refusal only if it carries no financial figure."""
    return answer.get("kind") == "refusal" and not answer.get("numbers")


def crashed(answer: dict) -> bool:
    """The agent raised, or caught its own exception and said so (internal_error)."""
    return answer.get("kind") == "error" or answer.get("refusal_reason") == "internal_error"


def false_refusal(case, answer: dict) -> bool:
    """An answerable question refused (or crashed: an error answers nothing)."""
    return case.answerable and (answer.get("kind") in ("refusal", "error"))


def refusal_missed(case, answer: dict) -> bool:
    """Something that must be refused was not (an answer, a meta reply, a figure in a refusal)."""
    return case.should_refuse and not is_refusal(answer)


def reason_ok(expect: dict, answer: dict) -> bool:
    return answer.get("refusal_reason") in accepted_reasons(expect)


def answer_route(answer: dict) -> str | None:
    if answer.get("route"):
        return answer["route"]
    return {"meta": "meta", "refusal": "refusal", "answer": "domain"}.get(answer.get("kind"))


def route_ok(expect: dict, answer: dict) -> bool:
    return answer_route(answer) in accepted_routes(expect)


def kind_ok(expect: dict, answer: dict) -> bool:
    return answer.get("kind") == expect.get("answer") or (
        expect.get("accept_refusal") and answer.get("kind") == "refusal"
    )


def forbidden_hits(expect: dict, answer: dict) -> list[str]:
    text = normalize(answer.get("text", ""))
    return [f for f in expect.get("forbid") or [] if normalize(f) and normalize(f) in text]


def names_missing(expect: dict, answer: dict) -> bool | None:
    """For an expected refusal that was given: True when its text names none of `expect.names`
    (the company, metric or period that is missing); None when there is nothing to check."""
    names = expect.get("names")
    if not names or not is_refusal(answer):
        return None
    text = normalize(answer.get("text", ""))
    return not any(normalize(n) in text for n in names)


def missing_mentions(expect: dict, answer: dict) -> list[str]:
    text = (answer.get("text") or "").lower()
    return [m for m in expect.get("mentions") or [] if m.lower() not in text]


# ---------------------------------------------------------------------------------------------
# Retrieval


def retrieved_ids(answer: dict) -> list[int]:
    """What retrieval returned, best first; the cited chunks when the Answer does not say."""
    if answer.get("retrieved"):
        return [int(i) for i in answer["retrieved"]]
    out: list[int] = []
    for c in answer.get("citations") or []:
        if c.get("chunk_id") is not None and int(c["chunk_id"]) not in out:
            out.append(int(c["chunk_id"]))
    return out


def recall_at_k(retrieved: list[int], gold: set[int], k: int) -> bool:
    return bool(gold) and any(i in gold for i in retrieved[:k])


def evidence_matches(ev: dict, text: str) -> bool:
    """A chunk is the expected evidence when it holds the phrase, all the keywords or the key sentence."""
    if ev.get("sha1"):
        return find_hashed(text, ev["sha1"], int(ev.get("chars") or 0)) is not None
    hay = normalize(text)
    if ev.get("phrase"):
        return normalize(ev["phrase"]) in hay
    return all(normalize(k) in hay for k in ev.get("keywords") or [])


# ---------------------------------------------------------------------------------------------
# Aggregates


def percentile(values: list[float], p: float) -> float | None:
    """Nearest-rank percentile (p in 0..100)."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))
    return ordered[int(rank) - 1]


def rate(numerator: int, denominator: int) -> float | None:
    return None if denominator == 0 else numerator / denominator
