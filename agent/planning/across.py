"""A formula across two companies: "HD revenue / LOW revenue", "Meta's net income as a % of Alphabet's",
"ratio of Coca-Cola's revenue to PepsiCo's", "KO vs PEP operating margin: difference in percentage points",
"the combined revenue of Coca-Cola and PepsiCo".

Why: asked for one company's figure over another's, the planner read a comparison of the two and answered
with a table and "Home Depot is higher", never the quotient asked; with a difference in points it refused
the words it could not place. The relation is a formula like any user's (agent.planning.formula_parse), whose
operands are pinned to a company each (`pinned`), computed once for the first company named and restated
in the answer with each company's figure cited.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agent.planning.formula_trees import pinned, restate
from agent.planning.registry_trees import formula_tree
from agent.planning.plan import Plan
from agent.retrieval.concepts import METRICS
from agent.retrieval.finance import FORMULAS
from store.display_names import display_name

_A, _B = "\u27e8a\u27e9", "\u27e8b\u27e9"  # the two companies, masked in the order they are written
_GAP = r"[^\u27e8]{0,80}?"  # words between them, never another company
# A's figure as a share of B's: "Meta's net income as a % of Alphabet's"
_SHARE = re.compile(_A + _GAP + r"(?P<op>\bas\s+an?\s+(?:%|percent(?:age)?|pct|share|proportion|fraction)\s+of\s+(?:the\s+)?)"
                    + _B, re.I)
# A's figure over B's: "HD revenue / LOW revenue", "Visa's operating income divided by Mastercard's"
_OVER = re.compile(_A + _GAP + r"(?P<op>\s*/\s*|\s*÷\s*|\bover\b|\bdivided\s+by\b|\bas\s+a\s+multiple\s+of\b)\s*(?:the\s+)?"
                   + _B, re.I)
# "the ratio of A's revenue to B's", "how many times larger was A's revenue than B's"
_RATIO_OF = re.compile(r"(?P<lead>\b(?:the\s+)?ratio\s+(?:of|between)\s+(?:the\s+)?)" + _A + _GAP +
                       r"(?P<op>\b(?:to|and|vs\.?|versus)\b)\s+(?:the\s+)?" + _B +
                       r"|(?P<lead2>\bhow\s+many\s+times\s+(?:larger|bigger|greater|more|higher|as\s+(?:large|big|much))?)"
                       + _GAP + _A + _GAP + r"(?P<op2>\b(?:than|as)\b)\s+(?:the\s+)?" + _B, re.I)
# A's figure less B's: "A minus B", "the difference between A and B", "A vs B ...: difference in points", "the gap"
_LESS = re.compile(_A + _GAP + r"(?P<op>\b(?:minus|less)\b)\s+(?:the\s+)?" + _B +
                   # "how much more revenue did Apple have than Nvidia?": A's figure less B's
                   r"|(?P<lead>\bhow\s+much\s+(?:more|higher|larger|bigger|greater)\b)" + _GAP + _A + _GAP +
                   r"(?P<op2>\bthan\b)\s+(?:the\s+)?" + _B, re.I)
# A's figure plus B's: "KO + PEP revenue", "A plus B", "the combined revenue of A and B", "the sum of A's and B's
# revenue", "A and B net income added together"
_SUM = re.compile(_A + _GAP + r"(?P<op>\s*\+\s*|\bplus\b)\s*(?:the\s+)?" + _B +
                  r"|(?P<lead>\b(?:(?:the\s+)?(?:combined|aggregate)|(?:the\s+)?sum\s+(?:of|for))\b)" + _GAP + _A + r"\s*"
                  r"(?P<op2>\b(?:and|&)\b|&)\s*(?:the\s+)?" + _B +
                  r"|" + _A + r"\s*(?P<op3>\b(?:and|&)\b|&)\s*" + _B + _GAP +
                  r"(?P<trail>\b(?:combined|added\s+together|together|summed|in\s+total)\b)", re.I)
_SUM_WORDS = re.compile(r"\b(?:(?:the\s+)?sum\s+(?:of|for)|(?:the\s+)?(?:combined|aggregate)|added\s+together|together|"
                        r"summed|in\s+total)\b", re.I)
_DIFFERENCE = re.compile(r"(?:\b(?:the|a)\s+)?\b(?:difference|gap|spread|delta)\b(?:\s+(?:in|of)\s+(?:percentage\s+)?"
                         r"(?:points|pp|pts|bps|basis\s+points)\b)?(?:\s+between\b)?", re.I)
_BETWEEN = re.compile(_A + _GAP + r"\b(?:and|vs\.?|versus|compared\s+(?:to|with))\s+(?:the\s+)?" + _B, re.I)


_IN_POINTS = re.compile(r",?\s*\b(?:in|as)\s+(?:percentage\s+)?(?:points|pp|pts|bps|basis\s+points)\b", re.I)


@dataclass
class Relation:
    op: str  # '/' (A over B), '%' (A as a share of B), '-' (A less B), '+' (A plus B)
    first: str  # the ticker of the company written first
    plain: str  # the question as a plain comparison of the two ("HD revenue vs LOW revenue")


def _mentions(text: str, directory) -> list[tuple[int, int, str]]:
    """The covered companies written in the text with their possessive: (start, end, ticker), in order."""
    out = []
    for m in directory.find(text):
        if m.kind == "company" and m.company is not None:
            out.append((m.start, m.end + len(re.match(r"(?:['\u2019]s?)?", text[m.end:]).group(0)), m.company.ticker))
    return out


def relation_asked(text: str, directory) -> Relation | None:
    """The relation the words ask between two companies' figures, with the question as a plain comparison
    (the relation's words taken out) to plan; None unless two companies, each written once, are so related."""
    spans = _mentions(text or "", directory)
    if len(spans) != 2 or spans[0][2] == spans[1][2]:
        return None
    masked = text[: spans[0][0]] + _A + text[spans[0][1]: spans[1][0]] + _B + text[spans[1][1]:]
    op, plain = None, None
    for pattern, kind in ((_SHARE, "%"), (_OVER, "/"), (_RATIO_OF, "/"), (_LESS, "-"), (_SUM, "+")):
        m = pattern.search(masked)
        if m:
            op, plain = kind, masked
            found = [g for g in ("trail", "op3", "op2", "op", "lead2", "lead") if m.groupdict().get(g) is not None]
            for group in sorted(found, key=m.start, reverse=True):  # from the end, so earlier offsets hold
                plain = plain[: m.start(group)] + (" vs " if group.startswith("op") else " ") + plain[m.end(group):]
            break
    if op is None and _BETWEEN.search(masked) and _DIFFERENCE.search(masked):
        op, plain = "-", _DIFFERENCE.sub(" ", masked)
    if op is None:
        return None
    if op == "-":  # ", in percentage points": the unit a difference of two percentages takes anyway
        plain = _IN_POINTS.sub(" ", plain)
    if op == "+":  # "the sum of A + B revenue, combined": the words saying a sum are the relation's
        plain = _SUM_WORDS.sub(" ", plain)
    plain = plain.replace(_A, text[spans[0][0]: spans[0][1]]).replace(_B, text[spans[1][0]: spans[1][1]])
    return Relation(op, spans[0][2], re.sub(r"\s+", " ", plain).strip())


def across_companies(plan: Plan, relation: Relation, directory) -> Plan | None:
    """The plan of a comparison of two companies on one figure as the formula across them the words asked
    (A ÷ B, A as a % of B, A − B, A + B); None when the plan is no such comparison (it is then planned as written)."""
    if plan.route != "domain" or len(plan.tickers) != 2 or relation.first not in plan.tickers or plan.period \
            or len(plan.fiscal_years) > 1 or len(plan.metrics) != 1 or plan.intent not in ("compare", "derived", "numeric"):
        return None
    key = plan.metrics[0]
    if key in METRICS and METRICS[key].unit in ("USD", "shares", "USD/shares"):
        one, label, unit = {"metric": key}, METRICS[key].label, METRICS[key].unit
    elif key in FORMULAS and formula_tree(key) is not None:
        one, label, unit = formula_tree(key), FORMULAS[key].label, FORMULAS[key].unit
    else:
        return None
    if relation.op == "%" and unit == "percent":
        return None  # a margin as a percentage of another's margin: no one asks it so
    a = relation.first
    b = next(t for t in plan.tickers if t != a)
    name_b = display_name(directory.get(b).name) if directory.get(b) else b
    whose = name_b if re.search(r"['\u2019]s$", name_b) else name_b + ("'" if name_b.endswith("s") else "'s")
    said = label if label[:2].isupper() else label[:1].lower() + label[1:]
    if relation.op == "+" and unit not in ("USD", "shares"):
        return None  # margins, ratios and per-share figures of two companies add to nothing
    tree = {"op": relation.op if relation.op in "-+" else "/", "args": [pinned(one, a), pinned(one, b)]}
    name = {"/": f"{said} over {whose} {said}", "%": f"{said} as a % of {whose} {said}",
            "-": f"{said} less {whose} {said}", "+": f"{said} plus {whose} {said}"}[relation.op]
    result = {"/": "ratio", "%": "percent", "-": "points" if unit == "percent" else unit, "+": unit}[relation.op]
    definition = {"name": name, "tree": tree, "unit": result, "formula": restate(tree, top=True), "derived": True,
                  "across": [a, b]}
    plan.tickers = [a, b]
    plan.metrics = [f"udf:{name}"]
    plan.definitions = [*(plan.definitions or []), definition]
    plan.intent = "derived"
    plan.items, plan.sub_queries = [], []
    return plan
