"""The words around a user's formula: a definition's name kept apart from the company and year
written before it, the formulas' names taken out of the words the planner reads, and whether
operators said in words name a registry formula the words as written did not.

Why a module of its own: agent.planning.formulas reads the formulas themselves; these are the glue
by which the planner's flow (agent.planning.rules) plans a message around them.
"""

from __future__ import annotations

import re

from agent.planning.companies import CompanyDirectory
from agent.planning.plan import Plan
from agent.retrieval.finance import FORMULAS


_NAME_YEAR = re.compile(r"\b(?:fiscal\s+(?:year\s+)?|fy\s*)?'?(?:19|20)\d\d\b|\bfy\s*'?\d\d\b|\bfiscal\b", re.I)


def name_aside(definition: dict, rest: str, directory: CompanyDirectory) -> tuple[dict, str]:
    """"Medtronic fiscal 2024 shareholder payout = ...": the company and the year written before the
    formula's name are the question's, not the name's; they move to the rest of the question."""
    name = definition["name"]
    spans = [(m.start, m.end) for m in directory.find(name) if m.kind == "company"]
    spans += [(m.start(), m.end()) for m in _NAME_YEAR.finditer(name)]
    if not spans:
        return definition, rest
    kept, moved, at = [], [], 0
    for start, end in sorted(spans):
        if start < at:
            continue
        kept.append(name[at:start])
        moved.append(name[start:end])
        at = end
    kept.append(name[at:])
    left = " ".join(" ".join(kept).split()).strip(" ,:'\"")
    if not left:
        return definition, rest
    return {**definition, "name": left}, f"{' '.join(moved)} {rest}"


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
    r"[,;]?\s*\(?\b(?:expressed\s+|shown\s+|given\s+)?(?:as|in)\s+(?:a\s+)?"
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
