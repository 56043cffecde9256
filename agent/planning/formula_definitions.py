"""Find a definition the user gives a name: "define adjusted margin as ...", "X = A / B", "let's call A over B X".

Why: a named definition is kept in the plan and the thread, so later turns ("and for 2022?") reuse it; this
module finds the name and the expression that defines it, with the years its operands are said for.
"""

from __future__ import annotations

import re

from agent.retrieval.concepts import find_phrases, normalize, PHRASES
from agent.planning.formula_parse import parse_expression
from agent.planning.formula_syntax import (DEFINE, DEFINED_BARE, DefinitionError, END, holds_operator, IS_DEFINED,
                                           NAMED, SAID_IS, WHERE_IS)
from agent.planning.formula_trees import restate, unit_of

_FY = r"(?:(?:the\s+)?(?:fiscal\s+(?:years?\s+)?|fy\s*)'?)"
# "average PP&E between FY2022 and FY2023", "change in inventory between FY2023 and FY2024": two year-ends
_YEAR_PAIR = re.compile(r"\s+(?:between|of|for|from|at\s+the\s+end\s+of|at\s+(?:the\s+)?(?:fiscal\s+)?year[\s-]ends?\s+(?:of\s+)?)\s+"
                        + _FY + r"?((?:19|20)\d\d)\s+(?:and|&|to|-|through)\s+" + _FY + r"?((?:19|20)\d\d)\b", re.I)
_CHANGE_IN = re.compile(r"\b(?:the\s+)?(?:change|increase|decrease)\s+in\s+(?P<x>[a-z&',. ]+?)\s*$", re.I)
_SHORT_FY = re.compile(r"\bfy\s*'?(\d\d)\b", re.I)
ONE_YEAR = re.compile(r"\b" + _FY + r"?((?:19|20)\d\d)(?:'s)?\b\s*", re.I)


def years_read(expr: str) -> str:
    """A definition's years, read as the years of the question: "FY2023 revenue / (average PP&E between
    FY2022 and FY2023)" is the asked year's revenue over the year's opening and closing PP&E averaged. Taken
    out only when they say exactly that (each pair two consecutive year-ends, every year named the one asked);
    any other years are left for the grammar, which refuses them. "FY22" is FY2022, as analysts abbreviate it."""
    expr = _SHORT_FY.sub(lambda m: f"FY20{m.group(1)}", expr)
    pairs = list(_YEAR_PAIR.finditer(expr))
    if any(int(m.group(2)) - int(m.group(1)) != 1 for m in pairs):
        return expr
    years = {int(m.group(2)) for m in pairs}
    out, at = [], 0
    for m in pairs:  # "change in inventory between A and B": the year's balance less the year before's
        head = expr[at:m.start()]
        change = _CHANGE_IN.search(head)
        out.append(head[:change.start()] + f"({change.group('x')} minus prior year {change.group('x')})"
                   if change else head)
        at = m.end()
    out.append(expr[at:])
    rest = "".join(out)
    years |= {int(m.group(1)) for m in ONE_YEAR.finditer(rest)}
    if len(years) == 2 and max(years) - min(years) == 1:
        rest = _prior_year_said(rest, min(years))
        years = {max(years)}
    if len(years) != 1:
        return expr
    return " ".join(ONE_YEAR.sub(" ", rest).split())


_OPERAND_EDGE = re.compile(r"[()\[\]/÷*×+]|\s(?:over|divided\s+by|minus|plus|less|times|and)\s|^", re.I)


def _prior_year_said(expr: str, prior: int) -> str:
    """"(inventory FY2022 + inventory FY2023) / 2", "FY2022 total assets": the earlier of the two years a
    definition names, said as the prior year of the operand it sits beside ("prior year inventory"), so the
    later one is the asked year's and the grammar reads the prior one as the balance a year before."""
    out, at = [], 0
    for m in ONE_YEAR.finditer(expr):
        if int(m.group(1)) != prior:
            continue
        head, tail = expr[at:m.start()], expr[m.end():]
        if tail[:1].isalpha():  # "FY2022 inventory": the year leads its operand
            out.append(head + "prior year ")
        else:  # "inventory FY2022)": the year trails it; "prior year" goes where the operand starts
            edges = list(_OPERAND_EDGE.finditer(head))
            cut = edges[-1].end() if edges else 0
            out.append(head[:cut] + (" " if cut and not head[cut - 1].isspace() and head[cut - 1] not in "([" else "")
                       + "prior year " + head[cut:].lstrip() + " ")
        at = m.end()
    out.append(expr[at:])
    return "".join(out)


# "EBIT divided by interest expense, where EBIT is operating income": an operand's own definition after the formula
_WHERE_OPERAND = re.compile(r",?\s+(?:where|with)\s+(?P<n>[a-z][\w&' -]{0,30}?)\s+(?:is|=|equals|means|being)\s+(?:taken\s+as\s+)?"
                            r"(?P<e>[^,;]+?)\s*$", re.I)


def _definition(name: str, expr: str, lines: frozenset = frozenset(), names: dict[str, dict] | None = None) -> dict:
    expr = re.sub(r"\s*[\[(]\s*[\])]", " ", expr)  # "[from cash flow statement]", its place taken out: nothing
    where = _WHERE_OPERAND.search(expr)
    if where is not None and _WHERE_OPERAND.search(expr[: where.start()]) is None:
        inner = parse_expression(years_read(where.group("e")), names, members=True, lines=lines)
        names = {**(names or {}), normalize(where.group("n")): inner}
        expr = expr[: where.start()]
    tree = parse_expression(years_read(expr), names, members=True, lines=lines)
    return {"name": name.lower(), "tree": tree, "unit": unit_of(tree, name), "formula": restate(tree, top=True)}


# What may set off the company and year after a definition: a dash, a comma, "for", "at", "in".
_ASIDE = re.compile(r"\s+[-\u2013\u2014]+\s+|\s*,\s*|\s+(?:for|at|in)\s+", re.I)


def _trailing_aside(name: str, expr: str, lines: frozenset = frozenset()) -> tuple[dict, str] | None:
    """"... over revenue - cisco fy2024?", "... over revenue, apple 2024", "... over operating income for
    pepsico 2023": words that set off the company and year after the definition, not a subtraction or
    an operand. The definition before the last such break, and the words after it, when those words
    name no metric."""
    for m in reversed(list(_ASIDE.finditer(expr))):
        head, tail = expr[: m.start()], expr[m.end() :]
        if not holds_operator(head) or find_phrases(normalize(tail), PHRASES) or holds_operator(f" {tail} "):
            continue  # "..., divided by <something unknown>": the formula's divisor, never a company and year
        try:
            return _definition(name, head, lines), tail
        except DefinitionError:
            continue
    return None


_CALL = re.compile(r"\b(?:let'?s|let\s+us|we(?:'ll|\s+will)?|i(?:'ll|\s+will)?)\s+call\s+(?P<rest>.+?)" + END, re.I)


def _called(text: str, lines: frozenset = frozenset()) -> tuple[dict, int, int] | None:
    """"let's call opex SG&A + R&D": a name of one to three words, then its formula, no "as"."""
    m = _CALL.search(text)
    if m is None:
        return None
    words = m.group("rest").split()
    for n in (1, 2, 3):
        name, expr = " ".join(words[:n]).strip(" '\"‘’“”"), " ".join(words[n:])
        if not expr or not holds_operator(expr) or holds_operator(name):
            continue
        try:
            return _definition(name, expr, lines), m.start(), m.end()
        except DefinitionError:
            continue
    return None


# a year said after a definition's formula, set off by a comma or "for"/"in": the question's year
_YEAR_AFTER = re.compile(r"(?:\s*[,;]\s*|\s+(?:for|in)\s+)(?:(?:for|in)\s+)?(?:the\s+)?(?:fiscal\s+(?:year\s+)?|fy\s*'?)?"
                         r"(?:19|20)\d\d\s*$|(?:\s*[,;]\s*|\s+(?:for|in)\s+)fy\s*'?\d\d\s*$", re.I)


def find_definition(text: str, lines: frozenset = frozenset()) -> tuple[dict | None, str, str | None]:
    """(definition {name, tree, unit, formula}, the text without it, or the words refused); `lines`:
    the printed rows an operand may name (agent.planning.companies.line_names)."""
    for pattern in (DEFINE, NAMED, WHERE_IS, IS_DEFINED, DEFINED_BARE, SAID_IS):
        m = pattern.search(text)
        if not m:
            continue
        name = " ".join((m.group("name") or m.groupdict().get("bare") or "").split()).strip(" '\"")
        if m.groupdict().get("tail"):  # "'cash-adjusted' margin: ...": the words after the quotes are the name's
            name = f"{name} {' '.join(m.group('tail').split())}"
        name = name or "it"  # "Defined as ...": the measure the question names
        expr = (m.group("expr") or m.groupdict().get("bexpr") or "").strip(" '\"")
        if not holds_operator(expr):
            continue  # "treat X as a priority": not a formula
        year = _YEAR_AFTER.search(expr)
        asked = ""
        if year is not None and holds_operator(expr[: year.start()]):
            # "X = dividends plus repurchases, fy2024": the year after the formula is the question's, never lost
            expr, asked = expr[: year.start()], year.group(0).strip(" ,;")
        try:
            definition = _definition(name, expr, lines)
        except DefinitionError as exc:
            several = _several(text, lines)
            if several is not None:  # "CCC is defined as DIO + DSO - DPO. DIO is defined as ...": each in the next
                return several
            cut = _trailing_aside(name, expr, lines)
            if cut is None:
                return None, text[: m.start()] + text[m.end() :], str(exc)
            definition, aside = cut
            return definition, text[: m.start()] + " " + aside + " " + text[m.end() :], None
        return definition, text[: m.start()] + " " + asked + " " + text[m.end() :], None
    called = _called(text, lines)
    if called is not None:
        definition, start, end = called
        return definition, text[:start] + " " + text[end:], None
    return None, text, None


# "X is defined as: ...", "X = ...", "X: ..." one after another, each a sentence of its own
_EACH_DEFINED = re.compile(r"(?:^|(?<=[.;!?:]\s)|(?<=[.;!?]))\s*(?:(?:the|my|our)\s+)?(?P<name>[a-z][\w&'\- ]{0,40}?)"
                           r"(?:\s*\([a-z&]{2,8}\))?\s+(?:is\s+(?:defined|calculated|computed|measured)\s+as:?|=|:=)\s+"
                           r"(?P<expr>.+?)(?=\.\s|\.$|;|\?|$)", re.I)


def _several(text: str, lines: frozenset = frozenset()) -> tuple[dict, str, None] | None:
    """A message defining several measures, each in terms of the others ("CCC is defined as: DIO + DSO - DPO. DIO
    is defined as: ... DSO is defined as: ..."): each read with the ones already read as names, until all are; the
    measure asked is the one no other definition uses (the first such), its tree holding the others'. None unless
    every definition reads (a definition left unread is refused by the caller, naming its words)."""
    found = [(" ".join(m.group("name").split()).strip(" '\""), m.group("expr"), m.span()) for m in _EACH_DEFINED.finditer(text)
             if holds_operator(m.group("expr"))]
    if len(found) < 2:
        return None
    names: dict[str, dict] = {}
    read: dict[str, dict] = {}
    pending = list(found)
    while pending:
        progress = False
        for item in list(pending):
            name, expr, _ = item
            try:
                read[name] = _definition(name, expr, lines, names)
            except DefinitionError:
                continue
            names[normalize(name)] = read[name]["tree"]
            pending.remove(item)
            progress = True
        if not progress:
            return None
    used = {n for n, *_ in found for other, expr, _ in found if other != n and re.search(
        rf"(?<![\w&]){re.escape(n)}(?![\w&])", expr, re.I)}
    root = next((n for n, *_ in found if n not in used), None)
    if root is None:
        return None
    rest, at = [], 0
    for _, _, (start, end) in found:
        rest.append(text[at:start])
        at = end
    rest.append(text[at:])
    return read[root], " ".join("".join(rest).split()), None
