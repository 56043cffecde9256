"""Decide whether an inline formula in a question is the user's own or a restatement of a named registry ratio.

Why: "debt to equity (total debt over equity)" restates a ratio the registry knows, while "ebitda margin --
(operating income + d&a) / revenue" is the user's definition to compute; the words right before a formula and
the name it would define decide which, so the answer uses the definition the user gave.
"""

from __future__ import annotations

import functools
import re

from agent.planning.words import FILLER
from agent.retrieval.concepts import METRICS, normalize, PHRASES
from agent.retrieval.finance import formula_inputs, FORMULA_PHRASES, FORMULAS
from agent.planning.formula_definitions import ONE_YEAR
from agent.planning.formula_parse import parse_expression, WHOLE_ASIDE
from agent.planning.formula_syntax import DefinitionError, holds_operator, INTRODUCING, OPEN
from agent.planning.formula_trees import restate, unit_of
from agent.planning.inline_definitions import CLAUSE, find_inline
from agent.planning.operand_rows import INLINE
from agent.planning.years import trend_spans

# A name of the user's own, one to four words set off by a colon right before the formula it defines
_OWN_NAME = re.compile(r"(?:^|(?<=\s))(?P<name>[a-z][a-z&'-]*(?:\s+[a-z][a-z&'-]*){0,3})\s*:\s*$", re.I)


def _bounded(text: str, directory, named: str | None):
    """Whether an inline formula at [start, end) has no operand word left outside it: the words
    beside it are filler, a year, a company, an introducing verb or the name it defines ("EBITDA")."""
    @functools.cache
    def companies() -> list[tuple[int, int]]:  # only when a formula was found: most questions hold none
        return [(m.start, m.end) for m in directory.find(text)]

    @functools.cache
    def several_years() -> list[tuple[int, int]]:  # "trend", "over time", "changed over 2022-2024": the question's
        return trend_spans(text)

    def word_ok(start: int, word: str | None) -> bool:
        if word is None or any(s <= start < e for s, e in companies() + several_years()):
            return True
        w = normalize(word).replace(" ", "")  # "i.e." normalizes to "i e"
        return (not w or w in FILLER or w in INTRODUCING or bool(re.fullmatch(r"(?:fy)?'?\d+\w*(?:[-\u2013/](?:fy)?'?\d+\w*)?|[-.]+", w))
                or (named is not None and w in normalize(named).split()))

    def bounded(start: int, end: int, since: int | None = None, tree: dict | None = None) -> bool:
        """`since`: where the formula's clause starts; every word between it and the formula is one of
        the question's own ("what was", the company, the year), never an operand's first words left out
        ("reduction of | operating lease assets over revenue" is no formula over the assets)."""
        if any(s < end and start < e for s, e in companies()):
            # "Apple's iPhone net sales over ...", "net income over equity for Johnson Controls": a
            # company's name is no word of an operand (nor of a row some other company prints)
            return False
        before = list(re.finditer(r"[\w&'.-]+", text[:start]))
        if since is not None and not all(word_ok(w.start(), w.group(0)) for w in before if w.start() >= since):
            return False
        after = re.search(r"[\w&'.-]+", text[end:])
        if before and not word_ok(before[-1].start(), before[-1].group(0)):
            # "2024 cash conversion: operating cash flow over net earnings": a metric or registry formula set off
            # right before the formula is the name it defines (inline_formula)
            named_here = _named_metric(text[:start], _COMMA_LEAD_IN)
            if named_here is None and text[start:start + 1] in OPEN and tree is not None:
                # the formula's own bracket sets it off as a registry measure's definition in other operands than
                # the registry's ("debt to equity (total liabilities / equity)"): the user's figure, never the
                # registry's computed beside it (a restatement of the registry's own is answered as the registry's)
                named_here = _named_metric(text[:start] + text[start], _COMMA_LEAD_IN)
                if named_here is not None and (named_here[3] not in FORMULAS or _reads_only_its_own(named_here[3], tree)):
                    named_here = None
            own = _OWN_NAME.search(text[:start])  # "tesla 2024 asset cover: buybacks over total assets": the user's name
            if (named_here is None or named_here[1] != before[-1].end()) and (
                    own is None or any(s <= before[-1].start() < e for s, e in companies())
                    or all(normalize(w) in FILLER for w in own.group("name").split())):
                return False
            before = []
        return (word_ok(before[-1].start(), before[-1].group(0)) if before else True) and \
            (word_ok(end + after.start(), after.group(0)) if after else True)
    return bounded


def _expanded(tree: dict) -> set[str]:
    """The registry formulas a tree takes as operands ("free cash flow per diluted share")."""
    return ({tree["of"]} if "of" in tree else set()) | {k for a in tree.get("args", ()) for k in _expanded(a)}


# A number the formula ends on that counts periods ("over 3 years", "per 2 quarters") or is an amount
# ("net income over 10 billion", a threshold): the words after it say so, and a quotient would leave them
# unaccounted for
_SPAN_AFTER = re.compile(r"\s*(?:fiscal\s+)?(?:years?|yrs?|months?|quarters?|qtrs?|weeks?|days?|periods?|"
                         r"trillions?|billions?|millions?|thousands?|bn|mm|mn)\b", re.I)


# Operators that say a formula and nothing else ("over", "per", "less" may be a question's own words)
_PLAINLY_DIVIDED = re.compile(r"\s+(?:divided\s+by|÷|multiplied\s+by|(?:expressed\s+)?as\s+(?:a\s+)?"
                              r"(?:%|percent(?:age)?|share|proportion|portion|fraction)\s+of)\s+", re.I)


def unread_numerator(text: str, names: dict[str, dict], directory) -> str | None:
    """The words before a plainly said division ("deferred widget costs divided by the sum of ...") when
    they are no operand: the formula the user wrote cannot be computed, and no figure of another
    formula, or of its other operand alone, is an answer to it. None when they are one, or are only
    the question's own words (a company, a year, "what was")."""
    lines = getattr(directory, "line_names", frozenset())
    for m in _PLAINLY_DIVIDED.finditer(text):
        clause_at = max([c.end() for c in CLAUSE.finditer(text, 0, m.start())] + [0])
        head = text[clause_at : m.start()]
        spans = [(c.start - clause_at, c.end - clause_at) for c in directory.find(text)
                 if clause_at <= c.start < m.start()]
        words = list(re.finditer(r"[\w&'.\-/]+", head))
        first = 0
        while first < len(words) and (any(a <= words[first].start() < b for a, b in spans) or
                                      _question_word(words[first].group(0))):
            first += 1
        if first == len(words):
            continue
        said = head[words[first].start():].strip(" ,;:")
        if any(a < len(head) and words[first].start() < b for a, b in spans):
            continue  # a company inside the words: the question's, not an operand's (read elsewhere)
        try:
            parse_expression(said, names, members=INLINE, lines=lines)
        except DefinitionError:
            return said
    return None


def _question_word(word: str) -> bool:
    w = normalize(word).replace(" ", "")
    return not w or w in FILLER or w in INTRODUCING or bool(re.fullmatch(r"(?:fy)?'?\d+\w*|fiscal|year", w))


def inline_formula(rest: str, plan, names: dict[str, dict], directory) -> tuple[dict, str] | None:
    """A formula written into the question (find_inline), when the question
    names no registry formula it would merely restate: (its definition, the text without it). A
    metric name the table refuses ("EBITDA (operating income + D&A)") names the definition."""
    if plan.route == "refusal" and plan.refusal_reason != "unknown_metric":
        return None
    registry = [k for k in plan.metrics if k in FORMULAS]
    unknown = plan.refusal_detail if plan.route == "refusal" else None
    found = find_inline(rest, names, _bounded(rest, directory, unknown), getattr(directory, "line_names", frozenset()))
    if found is None:
        return None
    definition, start, end = found
    companies = tuple((m.start, m.end) for m in directory.find(rest))
    if "year" in definition:  # the years read inside the formula: the later one stays the question's
        year = definition.pop("year")  # (the name without them: the question's years are read from its words)
        definition = {**definition, "name": " ".join(re.sub(r"\(\s*\)", " ", ONE_YEAR.sub(" ", definition["name"])).split())}
        out = _inline_found(rest, plan, definition, start, end, registry, unknown, companies)
        return None if out is None else (out[0], f"{out[1]} fiscal {year}")
    return _inline_found(rest, plan, definition, start, end, registry, unknown, companies)


def _inline_found(rest: str, plan, definition: dict, start: int, end: int, registry: list[str],
                  unknown: str | None, companies: tuple = ()) -> tuple[dict, str] | None:
    """inline_formula's formula at [start, end) of the text: named, and the text without it; or None."""
    if _SPAN_AFTER.match(rest[end:]) and re.search(r"\d\s*$", rest[start:end]):
        return None  # "revenue over 3 years": a span of years, never a division by 3; "over 10 billion" an amount
    if registry and not set(registry) <= _expanded(definition["tree"]):
        # "quick ratio ((current assets - inventories) / current liabilities)": the registry's, restated;
        # "free cash flow per diluted share" takes the registry's formula as an operand. But a registry measure
        # named right before a definition of other operands ("net debt (total debt less cash and short-term
        # investments)") is the user's own definition of it (an exact restatement was taken out before:
        # agent.planning.restated), computed and restated as theirs, never the registry's figure beside it
        head = re.match(r"\s*(?P<n>[^()\[\]]+?)\s*[(\[]", rest[start:end])
        key = FORMULA_PHRASES.get(normalize(head.group("n"))) if head else None
        said, cut = (head.group("n") if head else None), rest[:start] + " " + rest[end:]
        if key is None:
            # "cash conversion 2024 -- CFO over net earnings", "ROA: net income / average assets": the registry
            # measure set off right before the formula, its year between them, is the one the user defines
            opener = rest[start:start + 1] if rest[start:start + 1] in OPEN else ""  # the formula's own bracket
            named = _named_or_comma(rest[:start] + opener, definition["tree"])
            if named is not None and named[3] in registry and (
                    _restates(named[3], definition["tree"])
                    # "EBITDA (operating income + D&A)": its own operands in its brackets; a quotient written after
                    # a measure ("ebitda margin -- (operating income + d&a) / revenue") is the user's to compute
                    or opener and definition["tree"].get("op") != "/" and _reads_only_its_own(named[3], definition["tree"])):
                return None  # "interest coverage: operating income / interest expense": the registry's own, as named
            if named is not None and named[3] in registry:
                at, stop, lead, key, by_comma = named
                if _amount_beside_ratio(key, definition):
                    # "net debt to EBITDA, using long-term debt less cash": the amount defines the ratio's part
                    # it reads as, never the ratio itself
                    definition = _part_defined(rest[at:stop], definition)
                    if definition is None:
                        return None
                said, cut = rest[at:stop], rest[:at] + " " + rest[stop:lead] + " " + rest[end:]
                if by_comma:
                    definition = {**definition, "otherwise": key}
        if key is None or key not in registry or key in _expanded(definition["tree"]):
            return None
        name = " ".join(said.split()).lower()
        unit = unit_of(definition["tree"], name) if definition["unit"] in ("percent", "ratio") else definition["unit"]
        if FORMULAS[key].unit == "percent" and definition["tree"].get("op") == "/":
            unit = "percent"  # "net profit margin (net earnings over net sales)": a percentage, as its name says
        return {**definition, "name": name, "unit": unit}, cut
    cut = rest[:start] + " " + rest[end:]
    if unknown:
        m = re.search(rf"(?i)(?<![\w]){re.escape(unknown)}(?![\w])", rest[:start])
        if m is None:
            return None  # the refused metric is something else the question asks
        definition = {**definition, "name": m.group(0).lower()}
        cut = rest[: m.start()] + " " + rest[m.end() : start] + " " + rest[end:]
    else:
        opener = rest[start : start + 1] if rest[start : start + 1] in OPEN else ""  # the bracket may be the formula's
        named = _named_or_comma(rest[:start] + opener, definition["tree"])
        if named is not None and named[3] in _expanded(definition["tree"]):
            return None  # "gross margin: gross margin / net revenue": the measure in its own formula is another figure
        if named is not None:  # "effective tax rate (tax provision / pre-tax income)": the user's, by that name
            at, stop, lead, key, by_comma = named
            if key in FORMULAS and _amount_beside_ratio(key, definition):
                definition = _part_defined(rest[at:stop], definition)  # "net debt to EBITDA (long-term debt less cash)"
                if definition is None:
                    return None
            definition = {**definition, "name": " ".join(rest[at:stop].split()).lower(),
                          **({"otherwise": key} if by_comma else {})}
            unit = FORMULAS[key].unit if key in FORMULAS else METRICS[key].unit
            if definition["tree"].get("op") == "/" and unit in ("pure", "percent"):
                definition["unit"] = "percent"  # a rate, as the metric it defines is
            cut = rest[:at] + " " + rest[stop:min(lead, start)] + " " + rest[end:].lstrip(")]} ")
        own = _OWN_NAME.search(rest[:start]) if named is None else None
        if own is not None:  # "tesla 2024 asset cover: buybacks over total assets": the user's own name for it
            words = list(re.finditer(r"\S+", own.group("name")))
            if any(normalize(w.group(0)) in INTRODUCING for w in words):
                words = []  # "compute it yourself: A / B" is an instruction, never a name
            while words and (normalize(words[-1].group(0)) in FILLER or "'" in words[-1].group(0)):
                words.pop()
            keep = []
            for w in reversed(words):
                if normalize(w.group(0)) in FILLER or re.search(r"['\u2019]", w.group(0)) or any(
                        s <= own.start("name") + w.start() < e for s, e in companies):
                    break
                keep.insert(0, w)
            if keep and not holds_operator(f" {own.group('name')} "):
                at, stop = own.start("name") + keep[0].start(), own.start("name") + keep[-1].end()
                definition = {**definition, "name": " ".join(rest[at:stop].split()).lower()}
                definition["unit"] = unit_of(definition["tree"], definition["name"])
                cut = rest[:at] + " " + rest[stop:start].replace(":", " ") + " " + rest[end:]
        whole = WHOLE_ASIDE.fullmatch(rest[start:end]) if named is None else None
        key = (PHRASES.get(normalize(whole.group("name"))) or FORMULA_PHRASES.get(normalize(whole.group("name")))
               if whole is not None else None)
        if key is not None:  # "tax rate (provision for income taxes over earnings before income taxes)": the same
            definition = {**definition, "name": " ".join(whole.group("name").split()).lower()}
            unit = FORMULAS[key].unit if key in FORMULAS else METRICS[key].unit
            if definition["tree"].get("op") == "/" and unit in ("pure", "percent"):
                definition["unit"] = "percent"
    cut = re.sub(r"(?i),?\s*\b(?:defined|calculated|computed)\s+as\b", " ", cut)
    return definition, cut


def _amount_beside_ratio(key: str, definition: dict) -> bool:
    """Whether the user's formula is an amount set beside a registry ratio (or a ratio beside an amount)."""
    ratio = FORMULAS[key].unit in ("ratio", "percent", "days", "pure")
    said = unit_of(definition["tree"], definition.get("name", "")) in ("ratio", "percent", "days", "pure")
    return ratio != said


# "net debt to EBITDA", "debt over equity": a ratio's name, split at its operator into its two parts
_NAME_SPLIT = re.compile(r"\s+(?:to|over|divided\s+by|per)\s+|\s*/\s*", re.I)


def _part_defined(name: str, definition: dict) -> dict | None:
    """The ratio `name` with the user's amount in place of the part it defines: "net debt to EBITDA, using long-term
    debt less cash" is (long-term debt − cash) ÷ EBITDA. Why: read as the whole ratio's definition, the answer stated
    an amount under the ratio's name, a figure for another thing. None when no part of the name reads as the amount
    (the caller then names nothing by it)."""
    parts = _NAME_SPLIT.split(name.strip(), maxsplit=1)
    if len(parts) != 2:
        return None
    tree = definition["tree"]
    trees = []
    for said in parts:
        try:
            trees.append(parse_expression(said))
        except (DefinitionError, RecursionError):
            return None
    said_ops = _metrics_of(tree)
    for i, part in enumerate(trees):
        key = part.get("of") or part.get("metric")
        if key is None or unit_of(part, parts[i]) != unit_of(tree, ""):
            continue
        if said_ops <= (formula_inputs(key) if key in FORMULAS else {key}) | _metrics_of(part):
            args = [tree, trees[1]] if i == 0 else [trees[0], tree]
            whole = {"op": "/", "args": args}
            return {**definition, "tree": whole, "unit": unit_of(whole, name), "formula": restate(whole, top=True)}
    return None


# (a dash sets a definition off as a bracket does: "cash conversion 2024 -- CFO over net earnings"; so does an
# instruction ending in a colon)
_LEAD_IN = re.compile(r"(?:\s*(?:[(\[:=]|,?\s*\b(?:defined|calculated|computed|measured)\s+as\b|,?\s*\bi\.?e\.?,?|"
                      r"\s--|\s[\u2013\u2014]|"
                      # an instruction before the formula: "-- compute it yourself: A / B", ", use this: A / B"
                      r",?\s*(?:please\s+)?\b(?:compute|calculate|calc|use|work\s+out)\b(?:\s+(?:it|this|that|yourself|as|with|by))*\s*:"
                      r"))+\s*$", re.I)
# A comma sets a formula off as a measure's definition only when the formula reads as that measure (_reads_as):
# "debt to equity fy24, term debt (...) over shareholders' equity"; "revenue growth, net income
# over revenue" asks two things
_COMMA_LEAD_IN = re.compile(_LEAD_IN.pattern[:-len(r"))+\s*$")] + r"|,))+\s*$", re.I)


_WHEN = re.compile(r"(?:fy|fiscal|year|in|for|of)?'?\d{2,4}|fy|fiscal|year|years|in|for|at|as|of|end|year-end|ye|the",
                   re.I)


def _restates(key: str, tree: dict) -> bool:
    """Whether a formula reads only the registry formula's own operands, a table metric each (as agent.planning.restated
    takes a restatement out): the registry's figure answers, with the fallbacks it has for a company's tags."""
    def metrics(node: dict) -> set[str] | None:
        if "metric" in node:
            return None if node.get("member") or node.get("offset") else {node["metric"]}
        if "line" in node or node.get("op") == "first":
            return None
        found: set[str] = set()
        for a in node.get("args", ()):
            m = metrics(a)
            if m is None:
                return None
            found |= m
        return found
    ops = metrics(tree)
    # every operand the registry computes with first: "debt to equity: long-term debt / equity" leaves out
    # the current debt the registry's figure holds, so it is the user's own figure, computed as written
    return bool(ops) and len(ops) >= 2 and ops <= formula_inputs(key) and (
        key not in FORMULAS or ops >= {i.metric for i in FORMULAS[key].inputs})


def _reads_only_its_own(key: str, tree: dict) -> bool:
    """Whether a bracketed definition reads the registry formula's own operands, alternatives included ("EBITDA
    (operating income + D&A)", D&A read as its printed rows where need be): every operand the registry's figure
    reads first, and none it never reads. Then the registry's figure answers, its convention stated."""
    ops = _metrics_of(tree)
    return bool(ops) and ops <= formula_inputs(key) and ops >= {i.metric for i in FORMULAS[key].inputs}


def _reads_as(key: str, tree: dict) -> bool:
    """Whether a user's quotient reads as the registry measure `key`: a level's quotient (no growth), its divisor one
    of the measure's own inputs ("debt to equity": stockholders' equity)."""
    if key in METRICS and METRICS[key].fallback in FORMULAS and METRICS[key].unit == "pure":
        key = METRICS[key].fallback  # "effective tax rate, tax provision over pre-tax income": the tagged rate's formula
    f = FORMULAS.get(key)
    if f is None or f.operator == "vs":
        return False
    if tree.get("op") == "/":
        divisor = tree["args"][1]
        if "metric" in divisor and not divisor.get("offset") and divisor["metric"] in {i.metric for i in f.inputs}:
            return True
    # "working capital, current assets − current liabilities", "NOPAT, operating income × (1 − tax ÷ pretax income)",
    # "cash flow to debt, operating cash flow over (long-term debt + current debt)": a formula of two or more of the
    # measure's own inputs (or its fallbacks') reads as it; "revenue growth, net income over revenue" asks two things
    said = _metrics_of(tree)
    return len(said) >= 2 and said <= formula_inputs(key)


def _metrics_of(node: dict) -> set[str]:
    """The table metrics a tree reads, any year or alternative ("first") included."""
    return ({node["metric"]} if "metric" in node else set()) | {m for a in node.get("args", ()) for m in _metrics_of(a)}


def _named_or_comma(before: str, tree: dict) -> tuple[int, int, int, str, bool] | None:
    """_named_metric, or the measure set off by a comma when the formula reads as it (_reads_as); the last
    element says a comma set it off. Why: a comma may set off a definition or merely a restatement, so a
    measure so named keeps its standard computation for when the user's cannot be made (`otherwise`)."""
    named = _named_metric(before)
    if named is not None:
        return (*named, False)
    named = _named_metric(before, _COMMA_LEAD_IN)
    if named is None or not _reads_as(named[3], tree):
        return None
    return (*named, True)


def _named_metric(before: str, lead_in: re.Pattern = _LEAD_IN) -> tuple[int, int, int, str] | None:
    """(phrase start, phrase end, lead-in start, measure key) of a metric or registry formula that stands right before a formula the user wrote (its year may stand between), set off by a bracket, a
    colon, "=" or "defined as": the formula is the user's definition of it, answered once under its
    name, never beside the filing's own figure."""
    lead = lead_in.search(before)
    if lead is None or not lead.group(0).strip():
        return None
    how = _HOW_SAID.search(before[: lead.start()]) if lead.group(0).strip().startswith(":") else None
    if how is not None:
        # "dividend payout ratio using per-share figures: DPS / diluted EPS", "ROA using average assets: ...": how the
        # user computes it, said between the measure's name and its formula (its words no measure's name)
        shorter = before[: how.start()] + before[lead.start():]
        found = _named_before(shorter, lead_in.search(shorter))
        if found is not None:
            return (*found[:2], lead.start(), found[3])
    return _named_before(before, lead)


_HOW_SAID = re.compile(r"[,\s]+(?:using|use|with|based\s+on|from|via|on)\s+(?:the\s+|its\s+)?[\w&'\- ]{1,40}$", re.I)


def _named_before(before: str, lead: re.Match) -> tuple[int, int, int, str] | None:
    words = list(re.finditer(r"[\w&'.-]+", before[: lead.start()]))
    while words and _WHEN.fullmatch(words[-1].group(0)):
        words.pop()  # "effective tax rate 2023 (...)": the year stays the question's
    if not words:
        return None
    stop = words[-1].end()
    for n in range(min(10, len(words)), 0, -1):  # "cost of revenue as a % of revenue": seven words
        at = words[-n].start()
        said = normalize(before[at:stop]).strip()
        key = PHRASES.get(said) or FORMULA_PHRASES.get(said)
        if key is not None:
            if n < len(words) and words[-n - 1].group(0).lower() in _QUALIFIERS:
                at = words[-n - 1].start()  # "incremental operating margin (...)": the user's name, whole
            return at, stop, lead.start(), key
    return None


# Words that make a measure's name another measure the user defines ("incremental operating margin")
_QUALIFIERS = frozenset("incremental marginal adjusted core underlying normalized organic implied tangible".split())
