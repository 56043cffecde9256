"""The words around a user's formula: a definition's name kept apart from the company and year
written before it, the formulas' names taken out of the words the planner reads, and whether
operators said in words name a registry formula the words as written did not.

Why a module of its own: agent.planning.formula_parse and its neighbours read the formulas themselves; these are the glue
by which the planner's flow (agent.planning.rules) plans a message around them.
"""

from __future__ import annotations

import re

from agent.planning.companies import CompanyDirectory
from agent.planning.formula_parse import parse_expression
from agent.planning.formula_syntax import holds_operator
from agent.planning.formula_trees import restate, shifted, unit_of
from agent.planning.registry_trees import formula_tree
from agent.planning.plan import Plan, refusal_plan
from agent.planning.years import NUMBER_WORDS
from agent.retrieval.concepts import METRICS, PHRASES, find_phrases, normalize
from agent.retrieval.finance import BALANCE_FORMS, FORMULA_PHRASES, FORMULAS, formula_inputs, match_formulas


_NAME_YEAR = re.compile(r"\b(?:fiscal\s+(?:year\s+)?|fy\s*)?'?(?:19|20)\d\d\b|\bfy\s*'?\d\d\b|\bfiscal\b", re.I)


def _company_and_year_apart(text: str, directory: CompanyDirectory) -> tuple[list[str], list[str]]:
    """(the text's pieces around its company names and years, those names and years): what a measure's
    name keeps, and what is the question's. No company or year: ([text], [])."""
    spans = [(m.start, m.end + len(re.match(r"(?:['\u2019]s?)?", text[m.end:]).group(0)))  # "Amazon's": all of it
             for m in directory.find(text) if m.kind == "company"]
    spans += [(m.start(), m.end()) for m in _NAME_YEAR.finditer(text)]
    kept, moved, at = [], [], 0
    for start, end in sorted(spans):
        if start < at:
            continue
        kept.append(text[at:start])
        moved.append(text[start:end])
        at = end
    kept.append(text[at:])
    return kept, moved


def name_aside(definition: dict, rest: str, directory: CompanyDirectory, after: bool = False) -> tuple[dict, str]:
    """"Medtronic fiscal 2024 shareholder payout = ...": the company and the year written before the
    formula's name are the question's, not the name's; they move to the rest of the question (`after`: to its
    end, where the question's own words were around the name, "Calculate Apple's FY2024 widget ratio, ...")."""
    kept, moved = _company_and_year_apart(definition["name"], directory)
    if not moved:
        return definition, rest
    words = re.sub(r"\(\s*\)", " ", " ".join(kept)).split()  # "revenue (FY2025)": no brackets left empty
    while words and words[-1].strip(" ,:'\"").lower() in _EDGE_WORDS:  # "effective tax rate of <tesla> in <2024>"
        words.pop()
    left = " ".join(words).strip(" ,:'\"")
    if not left:
        return definition, rest
    return {**definition, "name": left}, f"{rest} {' '.join(moved)}" if after else f"{' '.join(moved)} {rest}"


_PRONOUNS = frozenset({"it", "this", "that", "the ratio", "this ratio", "that ratio", "the metric", "this metric",
                       "the measure", "this measure", "the figure", "this figure"})
_ASKING = re.compile(r"^\s*(?:(?:so|and|ok|okay|hey|please|pls)[,\s]+)?(?:what(?:'s|\s+is|\s+was|\s+were|\s+are)?|"
                     r"how\s+(?:much|high|big)\s+(?:is|was)|compute|calculate|give\s+me|show\s+me|tell\s+me|find)\b\s*",
                     re.I)
_SENTENCE = re.compile(r"(?<=[?.!])\s+")
_EDGE_WORDS = frozenset("the a an for in of at its their on during".split())


def pronoun_named(definition: dict, rest: str, directory: CompanyDirectory) -> tuple[dict, str]:
    """"What is Apple's FY2024 shareholder return ratio? Define it as (A + B) divided by C": a definition
    named "it" (or "this ratio") is of the measure the question's sentence names; that measure takes the
    definition's place under its own name, the company and year staying the question's. The registry's
    formula of that name is then not asked beside it: the user's definition wins."""
    if definition["name"] not in _PRONOUNS:
        return definition, rest
    sentences = _SENTENCE.split(rest.strip())
    for i, sentence in enumerate(sentences):
        kept, moved = _company_and_year_apart(sentence, directory)
        if not moved:
            continue
        words = re.sub(r"['\u2019]s\b|[?.!,:;]", " ", _ASKING.sub("", " ".join(kept))).lower().split()
        while words and words[0] in _EDGE_WORDS:
            words = words[1:]
        while words and words[-1] in _EDGE_WORDS:
            words = words[:-1]
        if not 0 < len(words) <= 8 or any(ch.isdigit() for w in words for ch in w):
            continue
        others = sentences[:i] + sentences[i + 1:]
        name = " ".join(words)
        # the unit the measure's own name says ("return on equity": a percentage, as the registry's), which "it" did not
        unit = unit_of(definition["tree"], name) if definition.get("unit") == unit_of(definition["tree"], "") else definition["unit"]
        return {**definition, "name": name, "unit": unit}, " ".join([*moved, *others])
    return definition, rest


def margin_of_defined(definition: dict, rest: str) -> tuple[dict, str]:
    """"... 3 year average unadjusted EBITDA % margin ...? Define unadjusted EBITDA as A + B": the question asks
    the defined amount's margin, the amount over revenue, never the amount itself. The definition becomes that
    margin (its name the question's words), the rest asking it by that name."""
    name = definition["name"]
    said = re.search(rf"\b{re.escape(name)}\s*(?:%\s*)?margins?\b", rest, re.I)
    if said is None or definition["unit"] != "USD":
        return definition, rest
    tree = {"op": "/", "args": [definition["tree"], {"metric": "revenue"}], "percent": True}
    margin = {**definition, "name": f"{name} margin", "tree": tree, "unit": "percent",
              "formula": f"({definition['formula']}) ÷ Revenue"}
    return margin, rest[: said.start()] + f"{name} margin" + rest[said.end():]


def without_names(text: str, definitions: list[dict]) -> str:
    for d in definitions:
        text = re.sub(rf"\b{re.escape(d['name'])}\b", " ", text, flags=re.I)
    return text


def names_more_formulas(spoken: Plan, written: Plan) -> bool:
    """Whether the operators said in words name a registry formula the words as written did not,
    with nothing left unaccounted: the rewrite is the question ("what share of sales was SG&A")."""
    if spoken.route != "domain" or any(w.get("as") == "unaccounted" for w in spoken.words):
        return False
    return bool({m for m in spoken.metrics if m in FORMULAS} - set(written.metrics))


# "…, call it 'cash cover'", "(let's call this adjusted margin)": the name of the formula written before it
_CALL_IT = re.compile(
    r"[,;(\u2013\u2014]?\s*\b(?:and\s+)?(?:let'?s\s+|we(?:'ll)?\s+|i(?:'ll)?\s+)?(?:call|name|label|dub)\s+"
    r"(?:it|this|that|the\s+(?:result|ratio|figure|quotient))\s+(?P<q>['\"\u2018\u201c])?"
    r"(?P<name>[a-z][\w&'\- ]{0,40}?)(?(q)['\"\u2019\u201d])\s*\)?(?=\s*(?:[.;,!?]|$))",
    re.I)
# "…, as a %", "(in percent)", "as a ratio": the unit the user asks a formula's quotient in, never "as a % of"
_UNIT_SAID = re.compile(
    r"[,;]?\s*\(?\b(?:express(?:ed)?\s+(?:it\s+|this\s+|that\s+|the\s+result\s+)?|shown\s+|given\s+)?(?:as|in)\s+(?:a\s+)?"
    r"(?P<unit>%|percent(?:age)?|pct|ratio|multiple|decimal|fraction)"
    r"(?!\s*(?:of|points?)\b)(?![\w%])\s*\)?",
    re.I)


def given_name(text: str, has_formula) -> tuple[str | None, str]:
    """(the name the user gives the formula after writing it, the text without those words); the name is
    taken only when the rest of the text holds a formula (`has_formula`), else nothing is taken."""
    m = _CALL_IT.search(text)
    if m is None:
        return None, text
    rest = text[: m.start()] + text[m.end():]
    if not has_formula(rest):
        return None, text
    return " ".join(m.group("name").split()).lower(), rest


_NOT_PERCENT = re.compile(r"[,;]?\s*\(?\bnot\s+(?:as\s+|in\s+)?(?:a\s+)?(?:%|percent(?:age)?|pct)(?![\w%])\s*\)?", re.I)


def unit_said(text: str) -> tuple[str | None, str]:
    """(percent | ratio | None, the text without the words that ask it)."""
    m = _NOT_PERCENT.search(text)
    if m is not None:  # "(not a percentage)", "not as a percent": the quotient itself
        return "ratio", text[: m.start()] + " " + text[m.end():]
    m = _UNIT_SAID.search(text)
    if m is None:
        return None, text
    unit = m.group("unit").lower()
    # "answer as a decimal", "as a fraction": the quotient itself (0.35), never its percentage (35%)
    return ("ratio" if unit in ("ratio", "multiple", "decimal", "fraction") else "percent"), \
        text[: m.start()] + " " + text[m.end():]


def as_said(definition: dict, name: str | None, unit: str | None, unit_of) -> dict:
    """The definition under the name the user gave it, in the unit the user asked: a quotient of two
    amounts of one unit is a percentage or a ratio as said (the name's words decide when no unit is said);
    any other figure keeps its own unit."""
    if name:
        definition = {**definition, "name": name}
        if definition["unit"] in ("percent", "ratio") and not definition["tree"].get("percent"):
            definition["unit"] = unit_of(definition["tree"], name)
    if unit and definition["unit"] in ("percent", "ratio") and definition["tree"].get("op") == "/":
        definition = {**definition, "unit": unit}
    return definition


_BALANCE = (r"(?:balances?|(?:accounts\s+)?receivables?|a/?r|inventor(?:y|ies)|(?:accounts\s+)?payables?|a/?p|"
            r"(?:total\s+)?assets|(?:total\s+)?(?:(?:share|stock)holders'?\s+)?equity|pp&e|ppe|"
            r"property,?\s+plant,?\s+and\s+equipment|fixed\s+assets)")
# "using average accounts receivable", "avg inventory", "the average of opening and closing balances",
# "average PP&E between FY2022 and FY2023": the balances averaged over the year's two ends
_AVERAGE_SAID = re.compile(r"\b(?:average|avg\.?|mean)\s+(?:of\s+(?:the\s+)?)?(?:(?:opening|beginning)\s+and\s+"
                           r"(?:closing|ending)\s+|(?:two\s+)?year[\s-]?end\s+)?(?:net\s+)?" + _BALANCE + r"\b", re.I)
# "year-end receivables", "ending inventory", "use year-end balances": the closing balance alone
_YEAR_END_SAID = re.compile(r"\b(?:year[\s-]?end(?:ing)?|ending|closing|end[\s-]of[\s-](?:the[\s-])?(?:fiscal[\s-])?year|"
                            r"period[\s-]end)\s+(?:net\s+)?" + _BALANCE + r"\b", re.I)


def said_balance_convention(text: str) -> str | None:
    """The text without the balance convention it says ("year-end inventory", "average equity", "on year-end
    balances"); None when it says none, or both."""
    average, year_end = _AVERAGE_SAID.search(text or ""), _YEAR_END_SAID.search(text or "")
    said = [m for m in (average, year_end) if m is not None]
    if len(said) != 1:
        return None
    out = text
    for m in sorted(said, key=lambda m: m.start(), reverse=True):
        out = out[: m.start()] + " " + out[m.end():]
    return out


def balance_convention(metrics: list[str], text: str) -> list[str]:
    """The asked ratios under the balance convention the question states: a ratio over a balance (DSO,
    inventory turnover, ROE...) is computed over the year's average or its closing balance as the words
    say ("using average accounts receivable", "year-end inventory"), under the form whose expression says
    so; unsaid, or said both ways, each ratio keeps its own convention, which its expression states."""
    average, year_end = bool(_AVERAGE_SAID.search(text or "")), bool(_YEAR_END_SAID.search(text or ""))
    if average == year_end:
        return metrics
    formed = [BALANCE_FORMS.get(m, (None, None))[0 if average else 1] or m for m in metrics]
    if formed == metrics:
        return metrics
    # the balances the convention names ("average total assets") are that formula's inputs, not figures asked
    inputs = {i.metric for k in formed if k in FORMULAS for i in FORMULAS[k].inputs}
    return [m for m in formed if m in FORMULAS or m not in inputs]


# How to compute, said beside the ask: "use year-end balances", "365 days", "use the 10-K". A balance convention
# is read from the question (balance_convention) and a 365-day year is every days ratio's own, so the words are no
# figure's; a 360-day year, which would change the figure, is not among them (the question is then refused).
INSTRUCTED = re.compile(
    r"[,;]?\s*\b(?:please\s+)?(?:use|using|with|based\s+on|on)\s+(?:the\s+)?(?:a\s+)?"
    r"(?:year[\s-]?end|ending|closing|period[\s-]end|average|avg\.?)\s+balances?\b"
    r"|[,;]?\s*\b(?:and|use|using|with|based\s+on|assume|assuming|on)\s+(?:a\s+)?365[\s-]days?"
    r"(?:\s+(?:per\s+)?year)?(?:\s+basis)?\b"
    r"|[,;]?\s*\b(?:please\s+)?(?:use|using|based\s+on)\s+(?:the\s+|its\s+|their\s+)?(?:annual\s+)?"
    r"(?:10-?k|annual\s+report)(?:\s+(?:filing|figures|data|numbers))?\b(?!\s+(?:for|of)\b)"
    # "Round to one decimal place", "rounded to the nearest two decimals": how to show it, not what
    r"|[,;]?\s*\b(?:please\s+)?(?:round(?:ed)?|rounding)\s+(?:your\s+|the\s+)?(?:answer\s+|result\s+|figure\s+|it\s+)?"
    r"(?:to\s+)?(?:the\s+nearest\s+)?(?:one|two|three|four|zero|no|a|\d)\s+(?:decimal(?:\s+(?:places?|points?))?|"
    r"decimals|digits?|dp|significant\s+(?:figures|digits))\b"
    # "answered in USD millions where applicable": the unit words are read where they are ("in USD millions")
    r"|\b(?:answered|expressed|reported|shown|given|stated)\s+(?=in\s+(?:usd|us\$|\$|dollars?)\b)"
    r"|\s+where(?:ver)?\s+(?:applicable|relevant|appropriate|possible|needed)\b"
    # "Answer in units of percents": the unit the answer already takes
    r"|[,;]?\s*\b(?:please\s+)?(?:answer|express\s+it|give\s+it|reply)\s+in\s+units\s+of\s+(?:percents?|percentages?)\b"
    # "(in units of percents and round to one decimal place)": the same, said in brackets or after the figure
    r"|\(\s*in\s+units\s+of\s+(?:percents?|percentages?)(?:\s*(?:,|and)?\s*(?:round(?:ed)?|rounding)\b[^()]{0,60})?\s*\)"
    r"|[,;]?\s*\bin\s+units\s+of\s+(?:percents?|percentages?)\b"
    # "Based on the information provided primarily in the balance sheet and cash flow statement, ...": where to look
    # "show your work", "showing the calculation", "explain the formula": the trace every computed answer shows
    r"|[,;]?\s*\b(?:and\s+)?(?:please\s+)?(?:show(?:ing)?|explain(?:ing)?|walk\s+(?:me\s+)?through|provide|include|"
    r"detail(?:ing)?|lay(?:ing)?\s+out)\s+(?:all\s+)?(?:of\s+)?(?:your|the|its|each|any)?\s*(?:work(?:ings?)?|"
    r"calculations?|computations?|formulas?|steps|math|reasoning|derivation)\b(?:\s+(?:used|you\s+used|behind\s+it))?"
    r"|^\s*(?:based\s+on|using|according\s+to|looking\s+at|relying\s+on|considering|referring\s+to|from|per)\b"
    r"[^,?]{0,120}?\b(?:statements?|sheets?)"
    r"\s*,\s*(?:(?:please\s+)?answer\s+the\s+following\s+question[^:?]{0,80}:\s*)?",
    re.I)


# "net earnings attributable to P&G", "net income attributable to shareholders": the parent's net income, which is the
# net income metric; never the noncontrolling interests' share, nor common stock's after preferred dividends
_TO_PARENT = re.compile(r"\b(?P<m>net\s+(?:income|earnings|profit|loss))\s+attributable\s+to\s+(?P<to>[^,;?.()]{1,40}?)"
                        r"(?=\s*(?:[,;?.()]|\band\b|\bfor\b|\bin\b|$))", re.I)
_PARENT_WORDS = re.compile(r"^(?:the\s+)?(?:company(?:'s)?|parent|(?:its\s+|the\s+company'?s\s+)?(?:share|stock)holders|"
                           r"(?:its\s+)?owners)(?:\s+of\s+the\s+(?:company|parent))?$", re.I)


def to_parent(text: str, directory: CompanyDirectory) -> str:
    """The text with "net income attributable to <the company, its shareholders>" said as net income."""
    def said(m: re.Match) -> str:
        to = m.group("to").strip()
        if _PARENT_WORDS.match(to):
            return m.group("m")
        named = [c for c in directory.find(to) if c.kind == "company" and c.start == 0 and c.end >= len(to.rstrip("'s"))]
        if not named:
            return m.group(0)
        elsewhere = {c.company.cik for c in directory.find(text[: m.start()] + " " + text[m.end():])
                     if c.kind == "company" and c.company}
        # the company stays named when this is the question's only mention of it
        return m.group("m") if named[0].company.cik in elsewhere else f"{m.group('m')} of {to}"
    return _TO_PARENT.sub(said, text)


# "EPS using basic shares", "earnings per share (basic)": the reported EPS of that kind, never the other one
_EPS_KIND = re.compile(r"[,;:]?\s*(?:\(\s*)?\b(?:use|using|with|on|based\s+on)?\s*(?:a\s+|the\s+)?(?:weighted[\s-]+average\s+)?"
                       r"(?P<kind>diluted|basic)(?:\s+(?:weighted[\s-]+average\s+)?(?:shares?(?:\s+(?:count|outstanding))?|"
                       r"share\s+count|basis))?\s*\)?", re.I)
_EPS = re.compile(r"\b(?P<eps>eps|earnings\s+per\s+share|net\s+income\s+per\s+share)\b(?!\s+(?:diluted|basic)\b)", re.I)
# ("free cash flow after SBC": the cash flow less the stock compensation it left in)
_AFTER_SBC = re.compile(r"\b(?P<a>free\s+cash\s+flows?|fcf)\s+after\s+(?P<b>stock[\s-]based\s+comp(?:ensation)?|"
                        r"share[\s-]based\s+comp(?:ensation)?|sbc|stock\s+comp(?:ensation)?)\b", re.I)


def eps_kind(text: str) -> str:
    """"Apple FY2024 EPS using basic shares" as "Apple FY2024 basic EPS"; "FCF after SBC" as "FCF minus SBC"."""
    text = _AFTER_SBC.sub(lambda m: f"{m.group('a')} minus {m.group('b')}", text)
    eps = _EPS.search(text)
    if eps is None or re.search(r"\b(?:diluted|basic)\s+(?:eps|earnings\s+per\s+share)\b", text, re.I):
        return text
    kind = next((m for m in _EPS_KIND.finditer(text, eps.end()) if m.group(0).strip(" ,;:()")
                 and re.match(r"[,;:]?\s*(?:\(|(?:use|using|with|on|based\s+on)\b)", m.group(0), re.I)), None)
    if kind is None:
        return text
    text = text[: kind.start()] + " " + text[kind.end():]
    return text[: eps.start()] + f"{kind.group('kind').lower()} {eps.group('eps')}" + text[eps.end():]


_N = r"(?P<n>two|three|four|five|[2-5])"
_YR = r"(?:fiscal\s+(?:year\s+)?|fy\s*'?)?(?:19|20)?\d\d"
# "3-year average", "three year avg": the mean of a figure over that many fiscal years
_N_YEAR_AVERAGE = re.compile(r"\b" + _N + r"[\s-]*(?:fiscal[\s-]+)?(?:years?|yrs?)[\s-]+(?:average|avg\.?|mean)\b"
                             r"(?:\s+of\b(?:\s+(?:the|its|their)\b)?)?", re.I)
# "average ... over the last three years": the span said after the figure
_AVERAGE_OVER = re.compile(r"\b(?:average|avg\.?|mean)\b(?P<what>.{1,80}?)\s+(?:over|across|for|during)\s+(?:the\s+)?"
                           r"(?:(?:last|past|prior|previous|latest)\s+)?" + _N + r"\s+(?:fiscal\s+)?years\b", re.I)
# "FY2022 - FY2024", "from 2022 to 2024", "2022 through 2024": the years averaged, first to last
_RANGE = re.compile(r"\b(?:from\s+|between\s+|over\s+)?(?P<a>" + _YR + r")\s*(?:-|–|to|through|thru|and)\s*(?P<b>" + _YR + r")\b",
                    re.I)


def _year_of(said: str) -> int:
    digits = re.sub(r"\D", "", said)[-4:]
    return int(digits) if len(digits) == 4 else 2000 + int(digits[-2:])


def averaged_span(text: str) -> tuple[int | None, str]:
    """(how many fiscal years a figure is asked averaged over, the text with those words said as its last
    year only): "the FY2022 - FY2024 3 year average capex as a % of revenue" is the mean of three fiscal
    years' ratios ending FY2024. None when no span is said, or when its years and its count disagree."""
    said = _N_YEAR_AVERAGE.search(text)
    n = NUMBER_WORDS[said.group("n").lower()] if said else None
    rest = text[: said.start()] + " " + text[said.end():] if said else text
    if said is None:
        over = _AVERAGE_OVER.search(text)
        if over is not None:
            n = NUMBER_WORDS[over.group("n").lower()]
            rest = text[: over.start()] + over.group("what") + text[over.end():]
    if n is None:
        return _averaged_range(text)
    span = _RANGE.search(rest)
    if span is not None:
        first, last = _year_of(span.group("a")), _year_of(span.group("b"))
        if last - first + 1 != n:
            return None, text
        rest = rest[: span.start()] + f" fiscal {last} " + rest[span.end():]
    return n, " ".join(rest.split())


# "the average of KO's inventory at 2023 and 2024 year-ends", "mean gross margin over fiscal 2023 and 2024": the
# figure averaged over the years of the range said, the count of years left unsaid
_AVERAGE_WORD = re.compile(r"\b(?:the\s+)?(?:average|avg\.?|mean)\b(?:\s+of\b)?(?:\s+(?:the|its|their)\b)?", re.I)
_OVER_SPAN = re.compile(r"\bover\s+(?=" + _YR + r"\b|the\s+(?:last|past)\b)", re.I)  # years, never a divisor
_SPAN_YEAR_ENDS = re.compile(r"\s*(?:fiscal\s+)?year[\s-]?ends?\b", re.I)


def _averaged_range(text: str) -> tuple[int | None, str]:
    """averaged_span when no count of years is said: "average" before the figure, and a range of two to five fiscal
    years after it. Never inside a formula ("net income over average total assets between FY2023 and FY2024" averages
    one operand's two balances, which the formula path reads)."""
    said = _AVERAGE_WORD.search(text)
    if said is None or holds_operator(f" {_OVER_SPAN.sub(' ', text)} "):
        return None, text
    span = _RANGE.search(text, said.end())
    if span is None or re.search(r"\b(?:opening|closing|beginning|start|end\s+of)\b", text[said.end():span.start()], re.I):
        return None, text
    if re.search(r"\b(?:fy\s*'?(?:\d{4}|\d{2})|(?:19|20)\d{2})\b", text[: span.start()] + " " + text[span.end():], re.I):
        return None, text  # "FY2024 average inventory (average of FY2023 and FY2024 year-ends)": one year's figure
    first, last = _year_of(span.group("a")), _year_of(span.group("b"))
    n = last - first + 1
    if not 2 <= n <= 5:
        return None, text
    after = _SPAN_YEAR_ENDS.match(text, span.end())
    rest = text[: said.start()] + " " + text[said.end(): span.start()] + f" fiscal {last} " + text[after.end() if after else span.end():]
    return n, " ".join(rest.split())


# "the FY2022 - FY2024 total D&A", "cumulative capex from 2022 to 2024", "sum of buybacks over fiscal 2022-2024": one
# figure added up over the years of a range (never "total revenue", a figure's own name, listed by year)
_SUMMED = re.compile(r"\b(?:(?P<total>total)|sum\s+of|cumulative|combined|aggregate)\s+(?:(?:the|its|their)\s+)?"
                     r"(?P<what>[a-z&][\w&'\- ]{0,40}?)(?=\s*(?:\(|,|\?|$|\s+(?:for|of|at|in|from|over|between|during|by)\b|"
                     r"\s+(?:fiscal\s+|fy\s*)?'?\d))", re.I)


def summed_span(text: str) -> tuple[int | None, str]:
    """(how many fiscal years a figure is asked added up over, the text with its range said as its last year only):
    "What is the FY2022 - FY2024 total D&A for Amazon?" is the sum of three fiscal years' D&A. None when no range
    of two to five years is said, or when "total" is the start of the figure's own name ("total revenue")."""
    said = _SUMMED.search(text)
    span = _RANGE.search(text)
    if said is None or span is None:
        return None, text
    if said.group("total") and any(start == 0 for start, _, _ in [*find_phrases(normalize(f"total {said.group('what')}"), PHRASES),
                                                                  *find_phrases(normalize(f"total {said.group('what')}"), FORMULA_PHRASES)]):
        return None, text  # "total revenue 2022-2024": the metric's name, its years listed
    first, last = _year_of(span.group("a")), _year_of(span.group("b"))
    n = last - first + 1
    if not 2 <= n <= 5:
        return None, text
    rest = text[: span.start()] + f" fiscal {last} " + text[span.end():]
    rest = rest.replace(said.group(0), said.group("what"), 1)
    return n, " ".join(rest.split())


def summed_over_years(plan: Plan, n: int) -> Plan:
    """The one amount asked, added up over `n` fiscal years ending the year asked (a flow only: a balance or a ratio
    summed over years is no figure anyone reports, and is left as asked)."""
    if plan.route != "domain" or len(plan.fiscal_years) != 1 or len(plan.metrics) != 1:
        return plan
    key, year = plan.metrics[0], plan.fiscal_years[0]
    if not (key in METRICS and METRICS[key].period == "duration" and METRICS[key].unit == "USD"):
        return plan
    tree = {"metric": key}
    total = tree
    for back in range(1, n):
        total = {"op": "+", "args": [total, shifted(tree, -back)]}
    name = f"{n}-year total {METRICS[key].label.lower()}, fiscal {year - n + 1} to {year}"
    definition = {"name": name, "tree": total, "unit": "USD", "derived": True,
                  "formula": restate(total, top=True) + f" (fiscal {year - n + 1} to {year} added up)"}
    plan.definitions = [*plan.definitions, definition]
    plan.metrics = [f"udf:{name}"]
    plan.intent = "derived"
    return plan


def averaged_over_years(plan: Plan, n: int) -> Plan:
    """The one figure asked, as the mean of its value in each of `n` fiscal years ending the year asked:
    a registry ratio averaged year by year (the mean of the years' ratios, never a ratio of sums), a reported
    amount likewise, or the user's own formula. A figure that cannot be so averaged is refused, never answered
    for one year as if it were the average."""
    if plan.route != "domain" or len(plan.fiscal_years) != 1 or len(plan.metrics) != 1:
        return plan
    key, year = plan.metrics[0], plan.fiscal_years[0]
    tree, unit, label = None, None, None
    if key.startswith("udf:"):
        found = next((d for d in plan.definitions if d["name"] == key[4:]), None)
        if found is not None and found["unit"] in ("percent", "ratio", "USD"):
            tree, unit, label = found["tree"], found["unit"], found["name"]
    elif key in FORMULAS and formula_tree(key) is not None:
        tree, unit, label = formula_tree(key), FORMULAS[key].unit, FORMULAS[key].label.lower()
    elif key in METRICS and METRICS[key].unit == "USD" and (METRICS[key].period == "duration" or n == 2):
        tree, unit, label = {"metric": key}, "USD", METRICS[key].label.lower()  # a flow, or a balance's two year-ends
    if tree is None:
        return refusal_plan("unknown_metric", f"{n}-year average of {key.removeprefix('udf:')}",
                            tickers=plan.tickers, fiscal_years=plan.fiscal_years, definitions=plan.definitions)
    total = tree
    for back in range(1, n):
        total = {"op": "+", "args": [total, shifted(tree, -back)]}
    averaged = {"op": "/", "args": [total, {"const": str(n)}]}
    name = f"{n}-year average {label}, fiscal {year - n + 1} to {year}"
    definition = {"name": name, "tree": averaged, "unit": unit, "derived": True,
                  "formula": restate(averaged, top=True) + f" (the mean of fiscal {year - n + 1} to {year}, year by year)"}
    plan.definitions = [*plan.definitions, definition]
    plan.metrics = [f"udf:{name}"]
    plan.intent = "derived"
    return plan


_AVERAGE_OF = re.compile(r"\b(?:the\s+)?(?:average|avg\.?|mean)\s+(?:of\s+(?:the\s+|its\s+)?)?(?:(?:fiscal\s+)?year[\s-]?end\s+|"
                         r"(?:opening|beginning)\s+and\s+(?:closing|ending)\s+)?", re.I)
_TWO_YEAR_ENDS = re.compile(r"\b(?:(?:for|between|at|of|from|in)\s+(?:the\s+)?(?:end\s+of\s+)?)?(?P<a>" + _YR + r")\s*(?:-|–|to|and|&)\s*"
                            r"(?P<b>" + _YR + r")\b", re.I)


def averaged_balance(text: str) -> str | None:
    """"Home Depot's FY2023 average inventory (average of year-end inventories FY2022 and FY2023)": the text
    asking the balance itself, its two year-ends said as the later one; None when no average is said, or the
    year-ends said are not one year apart. The caller keeps it only when it plans one balance-sheet figure."""
    if not _AVERAGE_OF.search(text):
        return None
    said = _AVERAGE_OF.sub(" ", text)
    for m in list(_TWO_YEAR_ENDS.finditer(said))[::-1]:
        first, last = _year_of(m.group("a")), _year_of(m.group("b"))
        if last - first != 1:
            return None
        said = said[: m.start()] + f" fiscal {last} " + said[m.end():]
    return " ".join(said.split())


def as_balance_average(plan: Plan) -> Plan | None:
    """The plan of a text asking one balance-sheet figure (averaged_balance's), as that balance averaged over
    the year's opening and closing balances, a formula whose expression says so; None for any other plan."""
    if plan.route != "domain" or len(plan.fiscal_years) != 1 or len(plan.metrics) != 1:
        return None
    key = plan.metrics[0]
    if key not in METRICS or METRICS[key].period != "instant" or METRICS[key].unit != "USD":
        return None
    tree = {"op": "avg", "args": [{"metric": key}, {"metric": key, "offset": -1}]}
    year = plan.fiscal_years[0]
    name = f"average {METRICS[key].label.lower()}, fiscal {year - 1} and {year} year-ends"
    definition = {"name": name, "tree": tree, "unit": "USD", "derived": True,
                  "formula": restate(tree, top=True) + " (the two fiscal year-ends' balances, averaged)"}
    plan.definitions = [*plan.definitions, definition]
    plan.metrics = [f"udf:{name}"]
    plan.intent = "derived"
    return plan


# "Use cost of revenue.", "Use year-end accounts payable and cost of sales, 365 days.": a closing clause naming
# the inputs of the ratio the question names, which that ratio already takes
_USE_CLAUSE = re.compile(r"(?:(?<=[.;?!])|[,;])\s*(?:please\s+)?(?:use|using|based\s+on)\s+(?:the\s+|its\s+)?"
                         r"(?P<what>[a-z&' ,-]{3,80}?)(?:,?\s*(?:and\s+)?(?:a\s+)?365[\s-]days?(?:\s+year)?)?\s*(?:[.?!]\s*)?$",
                         re.I)
_BALANCE_WORDS = re.compile(r"\b(?:year[\s-]?end|ending|closing|average|avg|total)\s+|\s+attributable\s+to\s+"
                            r"(?:the\s+company(?:'s)?\s+|its\s+|common\s+)?(?:share|stock)holders\b", re.I)
# "(using total cash dividends paid and net income attributable to shareholders)": the same, in brackets
_USE_BRACKET = re.compile(r"\s*\(\s*(?:using|use|based\s+on|with)\s+(?P<what>[a-z&' ,-]{3,120}?)\s*\)", re.I)


# words between or inside the inputs' names that name no other figure ("cash dividends paid and net income")
_JOINING = frozenset("and the of its their cash paid reported amounts amount".split())


# "Calculate unadjusted EBITDA using unadjusted operating income and D&A (from cash flow statement).": a sentence
# restating which inputs a named measure of the registry takes
_CALC_USING = re.compile(r"(?:^|(?<=[.;?!])\s)\s*(?:please\s+)?(?:calculate|compute|derive|determine|get)\s+(?:the\s+)?"
                         r"(?P<name>[a-z&%' -]{2,60}?)\s+(?:using|from|with|by\s+using|based\s+on)\s+(?:the\s+)?"
                         r"(?P<what>[a-z&' ,-]{3,120}?)\s*(?:\((?:as\s+)?(?:shown\s+|reported\s+)?(?:from|in|on)\s+(?:the\s+)?"
                         r"[a-z ]{3,40}\)\s*|(?:as\s+)?(?:shown\s+|reported\s+)?(?:from|in|on)\s+(?:the\s+)?[a-z ]{3,40}?"
                         r"\bstatements?\s*)?(?:[.;!]\s*|$)", re.I)
_UNADJUSTED_SAID = re.compile(r"\b(?:unadjusted|reported|gaap)\s+", re.I)


def _restated_calculation(text: str) -> str:
    """The text without a "calculate <registry measure> using <its inputs>" sentence (its inputs: what it takes)."""
    m = _CALC_USING.search(text)
    if m is None:
        return text
    name = normalize(_UNADJUSTED_SAID.sub("", m.group("name")))
    # by a phrase, or by the registry label ("EBITDA", never answered said alone, names the ratio's part)
    key = FORMULA_PHRASES.get(name) or next((k for k, f in FORMULAS.items() if f.synonyms and normalize(f.label) == name),
                                            None)
    if key is None or not _inputs_of_asked(name, _UNADJUSTED_SAID.sub("", m.group("what")), [key]):
        return text
    return (text[: m.start()] + " " + text[m.end():]).strip()


def without_restated_inputs(text: str) -> str:
    """The text without a closing "use <inputs>" clause whose every figure is an input the named ratio
    takes: what to use is then what the ratio uses. Any other clause stays, to be read or refused."""
    text = _restated_calculation(text)
    bracket = _USE_BRACKET.search(text)
    if bracket is not None:
        kept = text[: bracket.start()] + text[bracket.end():]
        return kept if _inputs_of_asked(kept, bracket.group("what")) else text
    m = _USE_CLAUSE.search(text)
    if m is None:
        return text
    head = text[: m.start()]
    if not _inputs_of_asked(head, m.group("what")):
        return text
    head = head.rstrip()
    return head if head.endswith((".", "?", "!", ";")) else head + ("?" if m.group(0).rstrip().endswith("?") else ".")


def _inputs_of_asked(head: str, what: str, keys: list[str] | None = None) -> bool:
    """Whether the words `what` name only inputs of the ratio `head` names (or of the formulas `keys`)."""
    asked = keys or [k for k in match_formulas(head) if k in FORMULAS]
    said = normalize(_BALANCE_WORDS.sub(" ", _UNADJUSTED_SAID.sub("", what)))  # "unadjusted operating income": as reported
    spans = find_phrases(said, PHRASES)
    covered = {i for start, end, _ in spans for i in range(start, end)}
    leftover = [w for i, w in enumerate(said.split()) if i not in covered and w not in _JOINING]
    if not asked or not spans or leftover or any(METRICS[key].unit == "shares" for _, _, key in spans):
        return False  # "use diluted shares": the share count a per-share figure takes is read where it is said
    return all(key in set().union(*(formula_inputs(k) for k in asked)) for _, _, key in spans)


def unmarked(plan: Plan) -> Plan:
    """The plan with spoken_operators' "(restated as ...)" mark taken out of its formulas' names: the user's
    words, as written, name the formula in the answer."""
    renamed = {}
    for d in plan.definitions or []:
        if "(restated as " in d["name"]:
            renamed[d["name"]] = d["name"].replace("(restated as ", "(")
    if not renamed:
        return plan
    plan.definitions = [{**d, "name": renamed.get(d["name"], d["name"])} for d in plan.definitions]
    plan.metrics = [f"udf:{renamed[m[4:]]}" if m.startswith("udf:") and m[4:] in renamed else m for m in plan.metrics]
    return plan


# Registry ratios built on a named part the user may define ("where quick assets = cash + marketable securities +
# receivables", "Total debt = long-term debt + current portion"): (the parts' names, the ratio over them). A part the
# user defines is theirs; the others keep the registry's convention. Never the registry's ratio over its own part
# beside the user's definition of that part (a different figure under the same name).
def _part(name: str) -> dict:
    return {"part": name}


_DEBT = ("total debt", "debt", "gross debt")
_PARTS: dict[str, tuple[dict[str, tuple[str, ...]], dict]] = {
    "quick_ratio": ({"quick assets": ("quick assets",)},
                    {"op": "/", "args": [_part("quick assets"), {"metric": "current_liabilities"}]}),
    "debt_to_equity": ({"debt": _DEBT}, {"op": "/", "args": [_part("debt"), {"metric": "equity"}]}),
    "debt_to_assets": ({"debt": _DEBT}, {"op": "/", "args": [_part("debt"), {"metric": "total_assets"}]}),
    "debt_to_capital": ({"debt": _DEBT}, {"op": "/", "args": [_part("debt"), {"op": "+", "args": [
        _part("debt"), {"metric": "equity"}]}]}),
    "net_debt_to_equity": ({"net debt": ("net debt",)}, {"op": "/", "args": [_part("net debt"), {"metric": "equity"}]}),
    "debt_to_ebitda": ({"debt": _DEBT, "ebitda": ("ebitda",)}, {"op": "/", "args": [_part("debt"), _part("ebitda")]}),
    "net_debt_to_ebitda": ({"net debt": ("net debt",), "ebitda": ("ebitda",)},
                           {"op": "/", "args": [_part("net debt"), _part("ebitda")]}),
    "ebitda_margin": ({"ebitda": ("ebitda",)}, {"op": "/", "args": [_part("ebitda"), {"metric": "revenue"}],
                                               "percent": True}),
    "interest_coverage": ({"ebit": ("ebit",)}, {"op": "/", "args": [_part("ebit"), {"metric": "interest_expense"}]}),
    "fcf_margin": ({"fcf": ("fcf", "free cash flow")}, {"op": "/", "args": [_part("fcf"), {"metric": "revenue"}],
                                                        "percent": True}),
    "fcf_conversion": ({"fcf": ("fcf", "free cash flow")}, {"op": "/", "args": [_part("fcf"), {"metric": "net_income"}],
                                                            "percent": True}),
}


def _registry_part(name: str) -> dict:
    """A part the user did not define, as the registry computes it."""
    return parse_expression({"quick assets": "current assets minus inventory", "debt": "total debt",
                             "net debt": "net debt", "ebitda": "operating income plus depreciation and amortization",
                             "ebit": "operating income", "fcf": "operating cash flow minus capex"}[name])


def _filled(tree: dict, parts: dict[str, dict]) -> dict:
    if "part" in tree:
        return parts[tree["part"]]
    if "args" in tree:
        return {**tree, "args": [_filled(a, parts) for a in tree["args"]]}
    return tree


def with_defined_parts(plan: Plan) -> Plan:
    """The plan with each asked registry ratio whose part the user defined computed over that definition."""
    defined = {normalize(d["name"]): d for d in plan.definitions or []}
    if not defined or not any(m in _PARTS for m in plan.metrics):
        return plan
    metrics, used = [], set()
    for m in plan.metrics:
        if m not in _PARTS:
            metrics.append(m)
            continue
        names, template = _PARTS[m]
        theirs = {part: defined[next(a for a in aliases if a in defined)]
                  for part, aliases in names.items() if any(a in defined for a in aliases)}
        if not theirs:
            metrics.append(m)
            continue
        used |= {d["name"] for d in theirs.values()}
        tree = _filled(template, {p: theirs[p]["tree"] if p in theirs else _registry_part(p) for p in names})
        said = ", ".join(f"{d['name']} as you defined it" for d in theirs.values())
        definition = {"name": f"{FORMULAS[m].label.lower()} ({said})", "tree": tree, "unit": FORMULAS[m].unit,
                      "formula": restate(tree, top=True)}
        plan.definitions = [*plan.definitions, definition]
        metrics.append(f"udf:{definition['name']}")
    plan.metrics = [m for m in metrics if not (m.startswith("udf:") and m[4:] in used)]
    return plan


# "calculated from the income statement", "compute it yourself", "not the reported rate": the user asks for the
# rate computed from the lines that define it, never the company's tagged figure beside it
_COMPUTE_IT = re.compile(
    r"\b(?:calculat|comput|deriv|work)\w*\b[^.?!;]{0,60}?\b(?:from|using|off|based\s+on)\b[^.?!;]{0,80}?"
    r"\b(?:income\s+statement|statements?\s+of\s+(?:income|operations|earnings)|line\s+items|components|"
    r"reported\s+(?:figures|lines|amounts|numbers))\b|"
    r"\b(?:compute|calculate|derive)\s+(?:it|this|that|the\s+rate)\s+(?:yourself|manually|by\s+hand)\b|"
    r"\b(?:from|using|based\s+on|per|according\s+to)\s+(?:the\s+|its\s+|their\s+)?(?:company'?s\s+)?"
    r"(?:income\s+statement|statement\s+of\s+(?:income|operations|earnings))"
    r"(?:\s+(?:rows?|lines?|figures|amounts|line\s+items))?\b|"
    r"\b(?:not|don'?t\s+use|rather\s+than|instead\s+of)\s+(?:the\s+)?(?:company'?s\s+)?(?:reported|tagged|disclosed|stated)"
    r"\s+(?:rate|figure|number|one)\b", re.I)


def computed_when_asked(plan: Plan, text: str) -> Plan:
    """"Meta's 2024 effective tax rate, calculated from the income statement": a tagged rate the user asks to have
    computed is its formula over the lines that define it (the metric's fallback), those lines named beside it its
    operands, never figures asked on their own."""
    # (a rate: an amount's fallback, operating expenses where no total is printed, is taken in retrieve only after the
    # row the company prints under the user's words)
    rates = [k for k in plan.metrics if k in METRICS and METRICS[k].fallback in FORMULAS and METRICS[k].unit == "pure"]
    # a rate asked alone for whole years ("effective tax rate for nvidia, fiscal 2025") is computed too: the formula's
    # figure cites the lines it divides, the tagged rate (often rounded, often only a later filing's comparative)
    # answers where those lines are not reported (agent.retrieval.retrieve falls back to it)
    alone = plan.metrics == rates and len(rates) == 1 and plan.intent == "numeric" and plan.period is None \
        and len(plan.tickers) == 1
    if plan.route != "domain" or not (alone or _COMPUTE_IT.search(text or "")):
        return plan
    if not rates:
        return plan
    operands = {i.metric for k in rates for i in FORMULAS[METRICS[k].fallback].inputs}
    metrics = [METRICS[k].fallback if k in rates else k for k in plan.metrics if k not in operands]
    return plan.model_copy(update={"metrics": list(dict.fromkeys(metrics)),
                                   "intent": "derived" if plan.intent == "numeric" else plan.intent})


# "operating expense ratio for 2023 - operating expenses divided by operating revenue": a dash after a figure's
# name (a ratio, margin, rate ...), its year maybe, that sets off the formula defining it, as a colon does
_DASH_DEFINES = re.compile(
    r"(?P<name>\b(?:ratio|margin|rate|turnover|coverage|yield|intensity|multiple|cycle|conversion|percentage|share)"
    r"(?:\s+(?:for|in|of)\s+(?:the\s+)?(?:fiscal\s+(?:year\s+)?|fy\s*)?'?\d{2,4})?)\s+-\s+"
    # what follows is a formula, not a clause of its own ("- and why is it growing over the years?")
    r"(?!(?:and|but|or|so|how|what|why|which|who|when|is|are|was|were|did|does|do|has|have|had|i|we|it|its|their|"
    r"the\s+(?:company|firm))\b)"
    r"(?=(?:[^?.;\s]+\s+){0,8}?[^?.;\s]*?(?:\bdivided\s+by\b|\bover\b(?!\s+(?:the\s+)?(?:last|past|next|prior|previous|"
    r"time|years?|period|\d))|/|÷|\bas\s+a\s+(?:%|percent(?:age)?|share)\s+of\b))", re.I)


def dash_defined(text: str) -> str:
    """The text with a dash that sets a formula off after a figure's name read as the colon it stands for.
    Why: a spaced hyphen is a minus in a formula, so "... ratio for 2023 - operating expenses divided by
    revenue" was read as the year less the first operand, and refused."""
    return _DASH_DEFINES.sub(lambda m: f"{m.group('name')}: ", text or "")
