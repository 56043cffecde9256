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
