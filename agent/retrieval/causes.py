"""What a "why" about a figure searches for: the figure's own words and the way it moved.

"why?" after "Walmart revenue fy2025", "what drove it?", "why did Nike's gross margin drop?": MD&A
explains a change in a recognisable register ("Net sales increased $X, or Y%, primarily due to
..."), and it names the figure in the filing's words and the direction of the change. So the
search states both: the metric's filing words (a growth rate or a margin through the figure it is
computed from) and "increased" or "decreased", read from the XBRL facts of the year and the year
before; a loss that grew is "net loss increased". With no prior-year fact the direction is left
out ("changed").
"""

from __future__ import annotations

import re
from decimal import Decimal

from agent.composing.sentence_rank import CAUSE as FILING_CAUSE  # a stated cause in the filing's register
from agent.planning.followups import own_subject as asked_subject
from agent.planning.prose_route import CAUSE
from agent.planning.topics import WHY
from agent.retrieval.concepts import METRICS
from agent.retrieval.finance import FORMULAS, match_measures
from agent.retrieval.metric_facts import metric_value

CAUSE_TAIL = "compared to the prior year, primarily due to"
# Metrics whose negative value the filing names a loss ("net loss", "operating loss").
_LOSS_WORDS = {"net_income": "net loss", "operating_income": "operating loss", "gross_profit": "gross loss"}


# Earnings per share are discussed through the net income they divide.
EXPLAINED_BY = {"eps_diluted": ("net_income",), "eps_basic": ("net_income",)}


def subject_metric(key: str) -> str | None:
    """The reported figure a key is about: a table metric itself, a formula (growth, a margin, a
    share of revenue) its first input, anything else (a line item, a user's formula) none."""
    if key in METRICS:
        return key
    if key in FORMULAS and FORMULAS[key].inputs:
        first = FORMULAS[key].inputs[0].metric
        return first if first in METRICS else None
    return None


def words(key: str) -> str:
    """The words a filing uses for a metric: its label and its search words, each once."""
    m = METRICS[key]
    seen: list[str] = []
    for w in f"{m.label.lower()} {m.query}".replace(",", " ").split():
        if w not in seen:
            seen.append(w)
    return " ".join(seen)


def direction(now: Decimal | None, before: Decimal | None) -> str:
    if now is None or before is None or now == before:
        return "changed"
    return "increased" if now > before else "decreased"


def movement(conn, company: dict, key: str, fiscal_year: int) -> tuple[str, str]:
    """(the figure's words, its direction) for one company and year, from its facts."""
    as_of = company.get("as_of_accession")
    now = metric_value(conn, company["cik"], key, fiscal_year, as_of_accession=as_of)
    before = metric_value(conn, company["cik"], key, fiscal_year - 1, as_of_accession=as_of)
    return moved(key, now.value if now else None, before.value if before else None)


def moved(key: str, now: Decimal | None, before: Decimal | None) -> tuple[str, str]:
    """(the figure's words, its direction) from its values this year and the year before."""
    if key in _LOSS_WORDS and now is not None and now < 0 and (before is None or before < 0):
        # a loss both years is discussed as a loss, whose size moves the other way
        return _LOSS_WORDS[key], direction(-now, -before if before is not None else None)
    return words(key), direction(now, before)


def ratio(key: str) -> bool:
    """A formula discussed under its own name (a margin, a rate), not through its inputs; growth
    is discussed as the change of the figure it is computed from."""
    return key in FORMULAS and not key.endswith("_growth") and bool(FORMULAS[key].query)


def ratio_movement(conn, company: dict, key: str, fiscal_year: int) -> tuple[str, str]:
    """(a ratio's words, its direction): "gross margin percentage decreased", from the facts of both years."""
    formula = FORMULAS[key]
    said = " ".join(dict.fromkeys(f"{formula.label.lower()} {formula.query}".split()))
    return said, direction(*(ratio_value(conn, company, key, year) for year in (fiscal_year, fiscal_year - 1)))


def ratio_value(conn, company: dict, key: str, year: int) -> Decimal | None:
    """A ratio of the registry for one company and year, from its facts (None when one is missing)."""
    formula = FORMULAS[key]
    found = [metric_value(conn, company["cik"], i.metric, year + i.offset,
                          as_of_accession=company.get("as_of_accession")) for i in formula.inputs]
    try:
        return None if any(f is None for f in found) else formula.compute([f.value for f in found])
    except (ArithmeticError, ValueError):
        return None


def cause_query(conn, company: dict, metrics: list[str], fiscal_year: int | None) -> str | None:
    """The search for what moved the thread's figures at one company, or None when no metric is a
    reported figure (a line item the user named has no words of ours to add)."""
    ratios = [m for m in metrics if ratio(m)]
    if ratios:  # "why did gross margin drop?": the margin, in its words and direction
        key = ratios[0]
        if fiscal_year is None:
            return f"{FORMULAS[key].label.lower()} {FORMULAS[key].query} changed {CAUSE_TAIL}"
        said, moved = ratio_movement(conn, company, key, fiscal_year)
        return f"{said} {moved} {CAUSE_TAIL}"
    keys = list(dict.fromkeys(k for k in (subject_metric(m) for m in metrics) if k))
    if not keys:
        return None
    keys = list(dict.fromkeys([*keys[:2], *(k for key in keys[:1] for k in EXPLAINED_BY.get(key, ()))]))
    parts = []
    for key in keys[:3]:
        if fiscal_year is None:
            parts.append(f"{words(key)} changed")
        else:
            said, moved = movement(conn, company, key, fiscal_year)
            parts.append(f"{said} {moved}")
    return f"{', '.join(parts)} {CAUSE_TAIL}"


def subject_query(metrics: list[str]) -> str:
    """The figures' own words, plain: where the filing discusses them at all (capital expenditures
    in the liquidity section, not only in the results' register of causes)."""
    ratios = [m for m in metrics if ratio(m)]
    if ratios:
        return f"{FORMULAS[ratios[0]].label.lower()} {FORMULAS[ratios[0]].query}"
    keys = list(dict.fromkeys(k for k in (subject_metric(m) for m in metrics) if k))
    return " ".join(words(k) for k in keys[:2])


def cause_queries(conn, plan, question: str, companies: list[dict], metrics: list[str]) -> dict[int, str]:
    """Per company (by CIK), the search for what moved the figures a why-question is about ("why?"
    after a figure, "what drove the revenue decline?"); empty for any other prose question.
    `metrics`: the plan's measures retrieval can answer."""
    low = question.lower()
    thread_cause = (plan.slots or {}).get("metrics") == "thread, its cause"
    if plan.intent != "qualitative" or not metrics or not (thread_cause or WHY.search(low) or CAUSE.search(low)):
        return {}
    # the reply's own subject beside the figure ("what about Humira?" after why revenue fell): searched too
    own = own_subject(getattr(plan, "topic", "") or "", figure_words(metrics)) if thread_cause else ""
    out = {}
    for company in companies:
        years = company.get("fiscal_years") or []
        query = cause_query(conn, company, metrics, None if plan.period or not years else max(years))
        if query:
            out[company["cik"]] = f"{own} {query}" if own else query
    return out


# How MD&A says the figure's amount in prose: "$11,311 million", "$8.5 billion", "$130.50 billion".
_SCALES = ((Decimal(10) ** 9, "billion", (1, 2)), (Decimal(10) ** 6, "million", (0, 1)))
# What a why-turn adds to a figure that is no subject of its own: "why'd it fall", "why so flat",
# "what's behind the growth".
_NO_SUBJECT = re.compile(r"^(?:why'?d?|how|come|so|flat|growth|grow\w*|gain\w*|rise|rose|jump\w*|drop\w*|fall\w*|fell|"
                         r"declin\w*|decreas\w*|increas\w*|change\w*|up|down|big|bigger|weak\w*|strong\w*|"
                         r"behind|driv\w*|drove|caus\w*|reasons?|that|it|this|there|then|year|yr|attribut\w*|"
                         r"explain\w*|explanation|factors?|contribut\w*|mgmt|management)$", re.I)


def stated_percent(value: Decimal) -> list[str]:
    """Regular expressions for a ratio (in percent) as prose writes it: "42.7%", "42.7 percent"."""
    return [rf"(^|[^0-9.]){re.escape(f'{value:.1f}')} ?(%|percent)"]


def stated_patterns(value: Decimal) -> list[str]:
    """Regular expressions for an amount as prose writes it, in millions (whole, or with a decimal)
    and billions (one or two decimals), with or without the dollar sign; never a bare number, which
    a table's every column may hold."""
    size = abs(value)
    out = []
    for unit, word, places in _SCALES:
        if size < unit:
            continue
        for n in places:
            said = f"{size / unit:,.{n}f}"
            out.append(rf"(^|[^0-9.,]){re.escape(said)} {word}")
    return list(dict.fromkeys(out))


def figure_words(metrics: list[str]) -> set[str]:
    """Every word the thread's figures are searched and named by: the reported figure's words, the
    keys', and a formula's own label and search words. A thread about a growth rate keeps the
    formula's words as its topic ("revenue net sales increased decreased compared to prior year"),
    and none of them is a subject the user added."""
    words = set(subject_query(metrics).split()) | {w for k in metrics for w in k.replace("_", " ").split()}
    for key in metrics:
        if key in FORMULAS:
            words |= set(f"{FORMULAS[key].label.lower()} {FORMULAS[key].query}".split())
            words |= {w for name in FORMULAS[key].synonyms for w in name.lower().split()}
        if key in METRICS:  # "op income": a synonym's words name the figure too
            words |= {w for name in METRICS[key].synonyms for w in name.lower().split()}
    return words


def asks_cause_of(question: str) -> bool:
    """The question asks why something moved or what drove it."""
    low = question.lower()
    return bool(WHY.search(low) or CAUSE.search(low))


def asked_figures(plan, question: str, metrics: list[str]) -> list[str]:
    """The figures a why-question is about: the plan's own, else the one figure its topic names and
    nothing else ("meta 2024 op income jumped, what drove it": operating income), so the search
    states it in the filing's words and direction (cause_query) and reads first where MD&A states
    its total (stated_amounts). A topic with words of its own beside the figure ("auto revenue",
    "comparable sales in the US", a segment) is not the company's total: none."""
    if metrics or plan.intent != "qualitative" or plan.period or not asks_cause_of(question):
        return metrics
    topic = getattr(plan, "topic", "") or ""
    found = [k for k in match_measures(topic) if subject_metric(k) or ratio(k)][:1]
    return found if found and not own_subject(topic, figure_words(found)) else []


def own_subject(topic: str, figure_words: set[str]) -> str:
    """The words a why-turn's topic adds to the thread's figure ("north america" in "how did north
    america do - what drove it?"), without words of movement and asking."""
    return " ".join(w for w in asked_subject(topic) if w not in figure_words and not _NO_SUBJECT.match(w))


def stated_amounts(conn, plan, companies: list[dict], metrics: list[str], question: str = "") -> dict[int, list[tuple[Decimal, str]]]:
    """Per company (by CIK), the amounts MD&A states the thread's figure by, for a "why?" about that
    figure, or a why-question about the company's figure: its value and its change over the year
    before (USD), or a margin's value (as a fraction, "pure"). The passage that states the company's total ("Operating income was $11,311 million in
    2023 ...", "Revenues increased by $11,186 million") is the one that explains it, where a search
    by words also finds every segment's and product's. Empty when the turn names a subject of its
    own (a segment) or the year is not known."""
    thread_cause = (plan.slots or {}).get("metrics") == "thread, its cause"
    if plan.period or not (thread_cause or (plan.intent == "qualitative" and asks_cause_of(question))):
        return {}
    if own_subject(getattr(plan, "topic", "") or "", figure_words(metrics)):
        return {}
    ratios = [m for m in metrics if ratio(m)][:1]
    keys = list(dict.fromkeys(k for k in (subject_metric(m) for m in metrics) if k))[:1]
    out = {}
    for company in companies:
        years = company.get("fiscal_years") or []
        if not years:
            continue
        if ratios:  # "why did gross margin drop?": where MD&A states the margin ("... decreased to 42.7%")
            value = ratio_value(conn, company, ratios[0], max(years))
            if value is not None:
                out[company["cik"]] = [(value / 100, "pure")]
            continue
        if not keys or METRICS[keys[0]].unit != "USD":
            continue
        as_of = company.get("as_of_accession")
        found = metric_value(conn, company["cik"], keys[0], max(years), as_of_accession=as_of)
        if found is None or not found.value:
            continue
        before = metric_value(conn, company["cik"], keys[0], max(years) - 1, as_of_accession=as_of)
        change = found.value - before.value if before is not None else None
        out[company["cik"]] = [(found.value, "USD"), *([(change, "USD")] if change else [])]
    return out


def amount_patterns(amounts: list[tuple[Decimal, str]]) -> list[str]:
    """The patterns of `stated_amounts`' amounts as prose writes them."""
    out = []
    for value, unit in amounts:
        out += stated_percent(value * 100) if unit == "pure" else stated_patterns(value)
    return list(dict.fromkeys(out))


# Words of a metric's names that name no figure in particular.
_GENERIC = frozenset("net total and of the from to by in before after top line bottom op inc loss".split())
NEAR = 200  # characters before an amount within which the figure's name is said ("Net sales were $X")


def figure_names(metrics: list[str]) -> set[str]:
    """The words a filing names the thread's figure with (its label's and synonyms'), for telling the
    figure's own amount from another that happens to round alike."""
    ratios = [m for m in metrics if ratio(m)][:1]
    if ratios:  # a margin is named by its own words ("gross margin"), not its inputs'
        return {w for w in re.findall(r"[a-z]+", FORMULAS[ratios[0]].label.lower()) if w not in _GENERIC and len(w) > 2}
    keys = [k for k in (subject_metric(m) for m in metrics) if k][:1]
    return {w for k in keys for name in (METRICS[k].label, *METRICS[k].synonyms)
            for w in re.findall(r"[a-z]+", name.lower()) if w not in _GENERIC and len(w) > 2}


def explaining_first(stated: list, patterns: list[str], names: set[str] = frozenset(), limit: int = 2) -> list:
    """Of the chunks that state the figure (its amount with one of its `names` just before it), the
    ones whose statement is followed by a cause first ("... an increase of $402 million, or 4%. The
    increase in operating income was primarily driven by ..."), then filing order; at most `limit`."""
    said = [re.compile(p, re.I) for p in patterns]
    named = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(names))) + r")", re.I) if names else None

    def places(text: str) -> list[tuple[int, int]]:
        return [(m.start(), m.end()) for p in said for m in p.finditer(text)
                if named is None or named.search(text[max(0, m.start() - NEAR):m.start()])]

    def explains(text: str) -> bool:
        return any(FILING_CAUSE.search(text[end:end + 600]) for _, end in places(text))

    return sorted((h for h in stated if places(h.text)), key=lambda h: not explains(h.text))[:limit]


def cut_before_cause(hit_text: str, next_text: str) -> bool:
    """A chunk whose last sentence states an amount without its cause, followed by a chunk that opens
    with a cause ("... was $4,435 million and $3,742 million, respectively." | "The increase in
    operating income was primarily driven by ..."): the chunker cut one statement in two."""
    from agent.checking.guards import split_sentences

    last = (split_sentences(hit_text) or [""])[-1]
    first = (split_sentences(next_text) or [""])[0]
    return bool(re.search(r"[$]\s?\d|\d\s?%", last)) and not FILING_CAUSE.search(last) \
        and bool(FILING_CAUSE.search(first))
