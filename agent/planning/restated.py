"""A named ratio with its definition restated beside it: "interest coverage (operating income divided
by interest expense)", "operating margin, expressed as a percent of total revenue", "free cash flow
margin, defining FCF as operating cash flow less capital expenditures", "debt to equity. Use total
debt over shareholders' equity." And a paraphrase with the ratio's name in brackets: "how many days
of sales were outstanding in receivables (DSO)?".

Why: analysts restate the definition they expect so the answer matches it. When the restatement
uses exactly the named formula's own operands it says nothing new: it is taken out, and the answer
states the formula's convention as always. Left in, its words were read as a line item or as a
formula of their own, and the ratio was refused or replaced by a piece of it. A restatement with
any other operand is the user's own definition and stays, so the definition path computes it (and
restates it) or refuses it naming the operand: never silently the registry's figure instead. A
bracketed name tells which ratio a paraphrase describes; the caller asks for that ratio when the
words as written name none.
"""

from __future__ import annotations

import re

from agent.planning.formula_parse import parse_expression
from agent.planning.formula_syntax import DefinitionError
from agent.retrieval.concepts import find_phrases, normalize
from agent.retrieval.finance import FORMULA_PHRASES, FORMULAS, formula_inputs

_BRACKETED = re.compile(r"\s*\(([^()]{2,120})\)")
# ", expressed as a percent of total revenue": the quotient's unit and its divisor
_AS_SHARE = re.compile(r",?\s*(?:expressed|stated|shown|given|measured)?\s*as\s+an?\s+(?:%|percent(?:age)?|share|"
                       r"proportion|fraction)\s+of\s+(?P<expr>(?:the\s+)?(?:total\s+)?[a-z&' -]{2,40}?)"
                       r"(?=\s*(?:[.;,?!]|$))", re.I)
# "Use total debt over shareholders' equity.", "i.e. net income over revenue"; and a named operand's own
# definition: "defining FCF as operating cash flow less capex", ", EBITDA as operating income + D&A"
_USING = re.compile(r"(?:(?<=[.;,:?!])|^|\s)\s*(?:please\s+)?(?:use|using|i\.?e\.?,?|that\s+is,?|computed\s+as|"
                    r"calculated\s+as|taken\s+as|defined\s+as)\s+(?P<expr>[^.;?!()]{3,120}?)(?=\s*(?:[.;?!]|$))", re.I)
_DEFINING = re.compile(r"(?:,?\s*\b(?:defining|define|with|where)\s+|,\s*)(?P<name>[a-z][\w&' -]{0,30}?)\s+(?:as|=|being)\s+"
                       r"(?P<expr>[^.;?!()]{3,120}?)(?=\s*(?:[.;?!,]|$))", re.I)


# "measured as asset turnover", "on a total debt to EBITDA basis", "in terms of ROE": the ratio a
# paraphrase describes, named after it
_NAMING = re.compile(r"\b(?:measured\s+(?:as|by)|as\s+measured\s+by|in\s+terms\s+of|i\.e\.,?|namely)\s+"
                     r"(?:the\s+|its\s+|their\s+)?(?P<name>[a-z][\w&/' -]{1,40}?)(?=\s*(?:[.;,?!()]|$))"
                     r"|\bon\s+an?\s+(?P<basis>[a-z][\w&/' -]{1,40}?)\s+basis\b", re.I)


def _named_after(text: str) -> str | None:
    """The formula a naming phrase names ("measured as asset turnover"), else None."""
    for m in _NAMING.finditer(text):
        said = normalize(m.group("name") or m.group("basis")).strip()
        key = FORMULA_PHRASES.get(said) or FORMULA_PHRASES.get(f"{said} ratio")
        if key is not None:
            return key
    return None


# A formula by its label too ("EBITDA" is refused said alone, but names the registry's EBITDA when
# its definition is restated beside a ratio built on it: "EBITDA margin, EBITDA as operating income + D&A")
_LABELS = {normalize(f.label): f.key for f in FORMULAS.values() if f.synonyms}


def _metrics(tree: dict) -> set[str]:
    if "metric" in tree:
        return {tree["metric"]} if not tree.get("member") else {"?"}
    if "line" in tree:
        return {"?"}
    return {m for a in tree.get("args", ()) for m in _metrics(a)}


def _operands(expr: str) -> set[str] | None:
    """The metrics an expression reads, or None when it is no expression over known metrics."""
    try:
        tree = parse_expression(expr)
    except (DefinitionError, RecursionError):
        return None
    found = _metrics(tree)
    return found if found and "?" not in found else None


def named_formulas(text: str) -> list[str]:
    return [k for _, _, k in find_phrases(normalize(text), FORMULA_PHRASES)]


def _restated(expr: str, keys: list[str], whole: bool = True) -> str | None:
    """The named formula whose operands `expr` uses, and only those (two at least, when `whole`: a
    lone operand restates no definition, "using diluted shares" only picks an operand)."""
    ops = _operands(expr)
    if ops is None:
        return None
    for key in keys:
        inputs = formula_inputs(key)
        if whole and len(ops) >= 2 and not ops >= {i.metric for i in FORMULAS[key].inputs}:
            # "debt to equity (long-term debt / equity)": operands of a fallback form only, or fewer than the formula
            # reads, define another figure than the one the registry computes first: the user's own, computed so
            continue
        if ops <= inputs and (not whole or len(ops) >= 2 or len(FORMULAS[key].inputs) == 1):
            return key
    return None


# "(DIO + DSO - DPO)": a registry formula restated as the sum or difference of others it is made of; the
# conventions those take anyway may stand beside them (", year-end balances, 365 days")
_PARTS_SPLIT = re.compile(r"\s+(?:\+|-|\u2212|plus|minus|less)\s+|\s*[+\u2212]\s*", re.I)
_OWN_CONVENTIONS = re.compile(r"\s*,\s*(?:(?:using|on|with)\s+)?(?:an?\s+)?(?:(?:year[\s-]?end|ending|closing)\s+balances?|"
                              r"365[\s-]*(?:d\b|days?\b)(?:[\s-]+(?:a\s+|per\s+)?years?\b)?)", re.I)


def _restated_by_parts(expr: str, keys: list[str]) -> str | None:
    """The named formula `expr` restates as the registry formulas it is made of ("cash conversion cycle (DIO + DSO
    - DPO)"): the parts read, together, exactly the metrics the formula reads."""
    parts = _PARTS_SPLIT.split(_OWN_CONVENTIONS.sub("", expr).strip())
    found = [FORMULA_PHRASES.get(normalize(p).strip()) for p in parts]
    if len(found) < 2 or None in found:
        return None
    read = set().union(*(formula_inputs(k) for k in found))
    return next((k for k in keys if k not in found and read == formula_inputs(k)), None)


_NAME_IS = re.compile(r"^\s*(?P<name>[a-z][\w&' -]{0,30}?)\s*(?:=|:=|\bis\b|\bmeans\b)\s*(?P<expr>.+?)\s*$", re.I)


def _restates_its_name(inside: str) -> bool:
    """Whether bracketed words define a registry measure by its own operands ("FCF = CFO - capex")."""
    m = _NAME_IS.match(inside)
    if m is None:
        return False
    name = normalize(m.group("name")).strip()
    said = FORMULA_PHRASES.get(name) or _LABELS.get(name)
    return said is not None and _restated(m.group("expr"), [said], whole=False) is not None \
        and len(FORMULAS[said].inputs) == len(_operands(m.group("expr")) or ())


def without_restatements(text: str) -> tuple[str, str | None]:
    """`text` without the restatements of a named formula's own definition, and the formula key a
    bracketed name ("(DSO)") or a naming phrase ("measured as asset turnover") gives, for the caller
    to ask when the words as written plan no formula (else None)."""
    bracketed_name = None
    out = text
    for m in reversed(list(_BRACKETED.finditer(text))):
        inside = m.group(1)
        outside = out[: m.start()] + " " + out[m.end():]
        keys = named_formulas(outside)
        said = FORMULA_PHRASES.get(normalize(inside).strip())
        if said is not None:
            if said not in keys:
                bracketed_name = said
            out = outside
        elif keys and (_restated(inside, keys) or _restated_by_parts(inside, keys)):
            out = outside
        elif _restates_its_name(inside):  # "(FCF = CFO - capex)": an operand's own definition, restated
            out = outside
    bracketed_name = bracketed_name or _named_after(out)
    keys = named_formulas(out)
    if not keys:
        return out, bracketed_name

    def kept(shorter: str, key: str | None) -> bool:  # the words taken out are no part of the formula's name
        return key is not None and key in named_formulas(shorter)
    for pattern in (_DEFINING, _USING):
        for m in reversed(list(pattern.finditer(out))):
            name = m.groupdict().get("name")
            if name is not None:
                said = FORMULA_PHRASES.get(normalize(name).strip()) or _LABELS.get(normalize(name).strip())
                if said is None or not _restated(m.group("expr"), [said]):
                    continue
                if not any(k != said for k in named_formulas(out[: m.start()] + out[m.end():])):
                    continue  # "defining FCF as ..." with no other formula named: the definition is the question
            elif not kept(out[: m.start()] + out[m.end():], _restated(m.group("expr"), keys, whole=False)):
                continue
            out = out[: m.start()] + out[m.end():]
    for m in reversed(list(_AS_SHARE.finditer(out))):
        divisor = _operands(m.group("expr")) or set()
        key = next((k for k in keys if FORMULAS[k].unit == "percent" and divisor == {FORMULAS[k].inputs[-1].metric}), None)
        if key is not None and kept(out[: m.start()] + out[m.end():], key):
            out = out[: m.start()] + out[m.end():]
    return out, bracketed_name
