"""User-defined formulas: "define adjusted margin as operating income plus stock-based compensation over revenue".

Why: analysts bring their own definitions, and an answer that silently uses a different one is a
different figure. The definition is parsed into the same Decimal engine as agent.retrieval.finance (a small
expression tree over table metrics and constants), kept in the plan (and the thread, so "and for
2022?" or "what is adjusted margin for Nvidia?" reuse it), and the answer restates the formula it
computed. "Over" / "divided by" / "as a percentage of" split the whole expression (the way people
say "A plus B over C" meaning (A + B) ÷ C); the restated formula shows the parentheses. An operand
that is not exactly a known metric is refused with its words, never approximated.
"""

from __future__ import annotations

import functools
import re
from decimal import Decimal, InvalidOperation

from agent.retrieval.concepts import METRICS, PHRASES, find_phrases, normalize
from agent.retrieval.line_items import tokens as line_tokens
from agent.retrieval.line_items import ABBREVIATIONS, IGNORABLE, SYNONYMS
from agent.retrieval.line_items import tokens as line_tokens
from agent.retrieval.finance import DEBT_STEPS, FORMULA_PHRASES, FORMULAS, HUNDRED, FormulaError, formula_inputs
from agent.planning.words import FILLER
from agent.planning.years import NUMBER_WORDS

_END = (r"(?=\s*(?:[;?!]|\.\s|\.$|,\s*(?:and\s+)?(?:what|how|show|give|tell|then|compute|calculate|for)\b|"
        r"\s+(?:and|then)\s+(?:what|how|show|give|tell|compute|calculate)\b|$))")
_NAME = r"(?P<q>['\"\u2018\u201c])?(?P<name>[a-z][\w&'\- ]{0,40}?)(?(q)['\"\u2019\u201d])"
DEFINE = re.compile(
    r"\b(?:define|defining|let|treat|call|calculate|compute)\s+" + _NAME + r"\s+(?:as|=|to be|be)\s+"
    r"(?P<expr>.+?)" + _END,
    re.I,
)
# "my 'opex intensity' metric = (SG&A + R&D) / revenue", "net debt is defined as ...": a name, then its formula
_CALLED = r"(?:\s+(?:metric|ratio|measure|figure))?\s*(?:=|:=|\bis\s+defined\s+as\b:?|,?\s*defined\s+as\b:?)\s*"
NAMED = re.compile(
    r"(?:(?:\bmy|\bour|\bthe)\s+)?(?<!\w)(?P<q>['\"\u2018\u201c])(?P<name>[a-z][\w&'\- ]{0,40}?)['\"\u2019\u201d]"
    + r"(?:" + _CALLED + r"|(?P<tail>(?:\s+[a-z]+){0,2})\s*:\s+)" + r"(?P<expr>.+?)" + _END
    + r"|(?:^|(?<=[.;:?!]\s)|(?<=\bwhere\s)|(?<=\bwith\s))(?P<bare>[a-z](?:(?!\s(?:where|with)\s)[\w&'\- ]){0,40}?)\s*(?:=|:=)\s*(?P<bexpr>.+?)"
    + _END,  # "…, where leverage = A / B", "debt / EBITDA, with EBITDA = A + B"
    re.I,
)
# "…, where adjusted margin is operating income plus SBC over revenue": the name after "where" or "with",
# then "is", "equals", "means" or "(is) defined as" (at a sentence's start "X is A over B" is a question)
WHERE_IS = re.compile(r"\b(?:where|with)\s+(?P<q>['\"\u2018\u201c])?(?P<name>[a-z][\w&'\- ]{0,40}?)(?(q)['\"\u2019\u201d])\s+"
                      r"(?:is|equals|means|(?:is\s+)?(?:defined|calculated|computed)\s+as)\s+(?P<expr>.+?)" + _END, re.I)
# "Adjusted margin is defined as …. What was it for Apple?": a name opening a sentence, then "is defined as"
# "What is Palantir's stock comp burden? Defined as A divided by B.": a definition of the measure just asked,
# named by that question (agent.planning.defined_formulas.pronoun_named), as "it is defined as" is
DEFINED_BARE = re.compile(r"(?:(?<=[.;!?]\s)|(?<=[.;!?]))\s*(?P<name>)(?:(?:please\s+)?(?:defined|calculated|computed|measured|"
                          r"(?:calculate|compute)(?:\s+(?:it|this|that))?)\s+as:?)\s+(?P<expr>.+?)" + _END, re.I)
# "What is Apple's debt-to-equity? Debt is long-term debt plus its current portion.": a sentence after the question
# that gives a name of at most three words a formula with "is", "=" or "equals"
_NOT_A_NAME = r"(?!(?:what|how|which|who|where|when|why|it|this|that|there|here|the\s+answer|answer)\b)"
SAID_IS = re.compile(r"(?:(?<=[.;!?]\s)|(?<=[.;!?]))\s*(?:(?:my|our|the)\s+)?" + _NOT_A_NAME +
                     r"(?P<name>[a-z][\w&'\-]*(?:\s+[a-z][\w&'\-]*){0,2}?)\s+(?:is|equals|means|should\s+be)\s+"
                     r"(?:taken\s+as\s+|the\s+sum\s+of\s+)?(?P<expr>.+?)" + _END, re.I)
IS_DEFINED = re.compile(r"(?:^|(?<=[.;!?]\s))(?:(?:my|our|the)\s+)?(?P<name>[a-z][\w&'\- ]{0,40}?)\s+is\s+"
                        r"(?:defined|calculated|computed|measured)\s+as:?\s+(?P<expr>.+?)" + _END, re.I)
# "per share" is never a division ("dividends per share" is one figure): no metric is named "share"
_DIV = re.compile(r"\s+(?:over|divided\s+by|÷|/|relative\s+to|in\s+relation\s+to|as\s+a\s+multiple\s+of|"
                  r"(?:expressed\s+)?as\s+(?:a\s+)?(?:%|percent(?:age)?|pct|share|proportion|portion|fraction)\s+of|"
                  r"per(?!\s+(?:common\s+)?shares?\b))\s+|"
                  r"\s*[÷/]\s*", re.I)
# A divisor that is the numerator's member's own ("its revenue", "the segment's sales").
_OWN = re.compile(r"\s*(?:its|their|(?:the|that)\s+(?:segment|division|unit)(?:'s|s')?)\s", re.I)
# A division that asks for a share of a total ("as a share of", "as a portion of"), not a ratio ("over", "per").
_SHARE_OF = re.compile(r"\s+(?:expressed\s+)?as\s+(?:a\s+)?(?:%|percent(?:age)?|pct|share|proportion|portion|fraction)\s+of\s+",
                       re.I)
_FRACTION = re.compile(r"\bfraction\b", re.I)
_ADD = re.compile(r"\s+(?:plus|\+|add|adding)\s+|\s*\+\s*", re.I)
_SUB = re.compile(r"\s+(?:minus|less|-|−|excluding|net\s+of|subtracting)\s+|\s+[-−]\s+", re.I)
_ADD_OR_SUB = re.compile(_ADD.pattern + r"|" + _SUB.pattern, re.I)  # where a sum's terms split
_MUL = re.compile(r"\s+(?:times|×|\*|multiplied\s+by)\s+|\s*[×*]\s*|\s+x\s+(?=\d)", re.I)  # "… x 365"
# Names that make a same-unit quotient a percentage ("margin", "yield", "return", "payout", "as a % of"); a
# "rate" or a "ratio" stays a ratio ("reinvestment rate" = capex ÷ D&A = 2.4). A quotient over revenue is a share
# of revenue whatever its name ("opex intensity").
_PCT_NAMES = re.compile(r"(?:\b(?:margin|percent|percentage|pct|share|yield|mix|conversion|intensity|return|payout|"
                        r"tax\s+rates?)\b|%)",
                        re.I)
# A name that says a ratio ("funding ratio", "payback multiple", "coverage (x)") keeps a ratio whatever else it says.
_RATIO_NAMES = re.compile(r"\b(?:ratio|multiple|times|coverage|turns?|turnover)\b", re.I)


class DefinitionError(ValueError):
    """The definition names something that is not a known metric: refused with its words."""


_OPEN, _CLOSE = "([{", ")]}"


def _depths(text: str) -> list[int] | None:
    """Each character's bracket depth, or None when the brackets do not pair up."""
    depth, out = 0, []
    for ch in text:
        if ch in _CLOSE:
            depth -= 1
            if depth < 0:
                return None
        out.append(depth)
        if ch in _OPEN:
            depth += 1
    return out if depth == 0 else None


def _split_top(text: str, pattern: re.Pattern, maxsplit: int = 0) -> list[str]:
    """`text` split at the matches of `pattern` outside brackets, with the separators kept."""
    depths = _depths(text)
    if depths is None:
        raise DefinitionError(text.strip())
    out, last = [], 0
    for m in pattern.finditer(text):
        if m.start() < last or depths[m.start()] or (m.end() > m.start() and depths[m.end() - 1]):
            continue
        out += [text[last : m.start()], m.group(0)]
        last = m.end()
        if maxsplit and len(out) // 2 >= maxsplit:
            break
    return out + [text[last:]]


def _unwrap(text: str) -> str | None:
    """The inside of a bracket pair that wraps the whole text, else None."""
    t = text.strip()
    if len(t) >= 2 and t[0] in _OPEN and t[-1] in _CLOSE:
        depths = _depths(t)
        if depths is not None and all(d > 0 for d in depths[1:-1]):
            return t[1:-1]
    return None


def _a_whole(node: dict) -> bool:
    """Whether an operand named beside its parts ("operating lease liabilities") may be their whole: a table metric
    not tagged only as its current part. A printed row may be the current one only (Accrued liabilities under current
    liabilities), so it never is."""
    if "metric" not in node or node.get("member"):
        return False
    concepts = METRICS[node["metric"]].concepts
    return not all(c.endswith("Current") and not c.endswith("Noncurrent") for c in concepts)


def _kind_of_unit(unit: str) -> str:
    """A unit's kind: a percentage, a ratio and a pure number are one (a quotient shown two ways), so a payout
    ratio defined as a quotient of per-share figures is the user's definition of it, never the registry's."""
    return "quotient" if unit in ("percent", "ratio", "pure", "points") else unit


def _operand(text: str, names: dict[str, dict] | None = None, members: bool = False,
             lines: frozenset = frozenset()) -> dict:
    text = re.sub(r"[,;]\s*$", "", text)  # "A minus B, divided by C": the comma sets off the division
    inner = _unwrap(text)
    if inner is not None:
        return parse_expression(inner, names, members=members, lines=lines)
    aside = re.fullmatch(r"\s*([^()]+?)\s*\(([^()]+)\)\s*", text)
    parts = _PARTS_ASIDE.fullmatch(aside.group(2).strip()) if aside else None
    if parts is not None and _PARTS_DEBT.fullmatch(re.sub(r"^(?:total|the)\s+", "", normalize(aside.group(1)).strip())):
        # "term debt (current + non-current)", "long-term debt (current and long-term portions)": the current portion
        # of long-term debt and the long-term debt, as the user lists them (never a total with commercial paper)
        # (long-term debt alone when no current portion is tagged, or when the long-term debt tagged already holds it)
        return {"op": "first", "args": [{"op": "+", "args": [{"metric": "current_debt"}, {"metric": "long_term_debt"}]},
                                        {"metric": "long_term_debt"}]}
    if aside:  # "free cash flow (operating cash flow minus capex)": a named operand, defined in the user's words
        try:
            named = _operand(aside.group(1), names, members, lines)  # the name must be one (else refused as written)
        except DefinitionError:
            row = _bracketed_row(text, lines)  # "Interest and other income (expense)": a row printed so
            if row is None:
                raise
            return {"line": row}
        base = re.sub(r"^(?:total|the)\s+", "", normalize(aside.group(1)).strip())
        if parts is not None and not re.search(r"\b(?:debt|borrowings?|notes)\b", base):
            # "deferred revenue (current + non-current)": the balance's two rows summed (debt said so is read by the
            # debt convention: its short-term part may hold borrowings the current portion does not)
            # The whole the name reads as when the company prints no such two rows ("operating lease liabilities":
            # the total, current and non-current)
            try:
                summed = {"op": "+", "args": [_operand(f"current {base}", names, False, lines),
                                              _operand(f"noncurrent {base}", names, False, lines)]}
            except DefinitionError:
                if not _a_whole(named):
                    raise  # the row named is maybe one part alone: no figure of the whole asked
                return named
            if not _a_whole(named):
                # "accrued liabilities (current + non-current)" where only the current row is printed: that row is
                # one part, never the whole asked (refused for the part not reported rather than answered short)
                return summed
            return {"op": "first", "args": [summed, named]}
        if _has_operator(aside.group(2)):
            said = parse_expression(aside.group(2), names, members=members, lines=lines)  # the user's definition wins
            if _kind_of_unit(unit_of(said, "")) != _kind_of_unit(unit_of(named, "")):
                # "stockholders' equity (net debt over year-end equity)": a quotient is no definition of an amount
                # (nor an amount of a ratio); the aside restates the whole formula the operand ends, which reads on
                return named
            return said
        return named  # an aside that is no formula ("(as reported)")
    if any(ch in text for ch in _OPEN + _CLOSE):
        row = _bracketed_row(text, lines)  # "income (loss) before income taxes", "cash provided (used) by ..."
        if row is None:
            raise DefinitionError(text.strip())
        return {"line": row}
    t = _UNADJUSTED.sub("", normalize(text).strip())  # "unadjusted operating income": the figure as reported
    t = _TO_PARENT.sub(r"\1", t)  # "net income attributable to JCI": the parent's net income, the metric's own
    own = re.sub(r"^(?:the|a|an|its|their|my|our)\s+", "", t)
    if names and own in names:  # a measure the user defined is theirs, even under a registry name ("total capital")
        return names[own]
    debt = _debt_tree(re.sub(r"^(?:the|a|an|its|their)\s+", "", t))
    if debt is not None:
        return debt
    said = re.sub(r"^(?:the|a|an|its|their)\s+", "", t)  # "total" kept for a printed row: "Total term debt"
    t = re.sub(r"^(?:the|total|a|an|its|their)\s+", "", t) if t not in PHRASES else t
    if names and t in names:
        return names[t]
    try:
        value = Decimal(t.replace(",", ""))
    except InvalidOperation:
        value = None
    if value is not None:
        if names is not None and re.fullmatch(r"(?:19|20)\d\d", t):
            raise DefinitionError(text.strip())  # "revenue - 2024" in a question: a year, not a constant
        return {"const": str(value)}
    spans = find_phrases(t, PHRASES)
    if len(spans) == 1 and spans[0][0] == 0 and spans[0][1] == len(t.split()):
        node = _tagged_or_computed(spans[0][2])
        if "metric" in node and METRICS[node["metric"]].by_label \
                and line_tokens(t) != line_tokens(METRICS[node["metric"]].label):
            node["said"] = t  # "net sales": the row printed so, where the company prints two of the metric's rows
        return node
    gross = _GROSS_INTEREST.fullmatch(t)
    if gross:  # "gross interest expense": the interest expense the income statement reports
        return _tagged_or_computed("interest_expense")
    if t in OPERAND_INITIALS:  # "CFO - capex", "NI / revenue": initials that name a figure only inside a formula
        return _tagged_or_computed(OPERAND_INITIALS[t])
    spent = re.fullmatch(r"(?P<x>.+?)\s+(?:expenses?|costs?|spend(?:ing)?)", t)
    if spent and PHRASES.get(spent.group("x")) in _EXPENSES:  # "research & development expense": the expense itself
        return _tagged_or_computed(PHRASES[spent.group("x")])
    inflected = next((PHRASES[v] for v in (t + "es", t + "s", t[:-1] if t.endswith("s") else "") if v in PHRASES), None)
    if inflected is not None and " " not in t:  # "tax" (the metric says "taxes"), "dividend payment": the same figure
        return _tagged_or_computed(inflected)
    formula = FORMULA_PHRASES.get(t)
    if formula is not None:  # "free cash flow per share": a registry sum or difference, as its own operands
        f = FORMULAS[formula]
        if len(f.inputs) == 1 and not f.inputs[0].offset and f.unit == METRICS[f.inputs[0].metric].unit:
            return {"metric": f.inputs[0].metric, "of": formula}  # "EBIT": operating income, the convention its name takes
        if len(f.inputs) == 2 and f.operator in ("+", "−") and not any(i.offset for i in f.inputs):
            return {"op": "+" if f.operator == "+" else "-", "args": [{"metric": i.metric} for i in f.inputs],
                    "of": formula}
        if len(f.inputs) == 2 and f.operator == "÷" and not any(i.offset for i in f.inputs) \
                and f.unit in ("percent", "ratio"):  # "gross margin minus operating margin": the registry's quotients
            return {"op": "/", "args": [{"metric": i.metric} for i in f.inputs], "of": formula,
                    **({"percent": True} if f.unit == "percent" else {})}
    fixed = _FIXED_ASSETS.fullmatch(t)
    if fixed and not (lines and _printed(t, lines)):  # "fixed assets", "net PP&E" (no row printed in those words):
        return {"metric": "ppe_net"}  # the curated net balance
    if fixed and "fixed" in t:  # "fixed assets", which a few companies print as a row: the curated balance first
        return {"op": "first", "args": [{"metric": "ppe_net"}, {"line": _as_said(said, t, lines)}]}
    at = _AT_YEAR_END.fullmatch(t) or _AT_YEAR_START.fullmatch(t)
    if at:  # "inventory at year end", "ending receivables": the balance at the year's close (its opening: a year before)
        node = _operand(at.group("x") or at.group("y"), None, False, lines)
        if not node.get("offset") and ("line" in node or _balances(node) or (
                "metric" in node and METRICS[node["metric"]].period == "instant")):
            return shifted(node, -1) if at.re is _AT_YEAR_START else node
        raise DefinitionError(text.strip())
    before = _PRIOR_YEAR.fullmatch(t)
    if before:  # "prior year revenue", "last year's capex": the operand a fiscal year earlier
        node = _operand(before.group("what") or before.group("what2"), names, members, lines)
        if "metric" in node or "line" in node:
            return {**node, "offset": node.get("offset", 0) - 1}
    avg = re.fullmatch(r"(?:average|avg\.?|mean)\s+(?:of\s+)?(?:the\s+)?(.+)", t)
    if avg and _BOTH_ENDS.search(avg.group(1)):
        # "average of beginning and end merchandise inventories", "average inventory at the beginning and end of the
        # year": the year's opening and closing balances, as "average inventory" is
        return _operand(f"average {_BOTH_ENDS.sub(' ', avg.group(1)).strip()}", names, members, lines)
    if avg:  # "average total assets": the year's opening and closing balances, halved (a named convention)
        spans = find_phrases(avg.group(1), PHRASES)
        if len(spans) == 1 and spans[0][0] == 0 and spans[0][1] == len(avg.group(1).split()) \
                and METRICS[spans[0][2]].period == "instant":
            key = spans[0][2]
            return {"op": "avg", "args": [{"metric": key}, {"metric": key, "offset": -1}]}
        try:  # "average PP&E", "average accounts payable": a balance the company prints, averaged likewise
            node = _operand(avg.group(1), None, False, lines)
        except DefinitionError:
            node = None
        if node is not None and not node.get("offset") and ("line" in node or (
                "metric" in node and METRICS[node["metric"]].period == "instant") or _balances(node)):
            return {"op": "avg", "args": [node, shifted(node, -1)]}
    spans = find_phrases(t, PHRASES)
    if members and len(spans) == 1 and spans[-1][1] == len(t.split()) and 0 < spans[-1][0] \
            and len([w for w in t.split()[: spans[-1][0]] if w not in _INNER]) <= 3:
        # in a definition, "AWS operating income": the metric of the member its first words name
        # (resolved, or refused naming it, against the filing's members in retrieve)
        before = [w for w in t.split()[: spans[-1][0]] if _member_word(w)]
        if members == INLINE:  # "Family of Apps operating income": a name's inner "of", "and"
            before = [w for i, w in enumerate(t.split()[: spans[-1][0]])
                      if _member_word(w) or (w in _INNER and 0 < i < spans[-1][0] - 1)]
        if before and len(before) == spans[-1][0] and not re.search(r"\w['\u2019]s\b", text):  # "apple's"
            node = {"metric": spans[-1][2], "member": " ".join(before)}
            if lines and _printed(t, lines):
                # "other operating income", "operating lease liabilities", "other assets": first the row
                # printed so (a member only when no row is), tried in that order against the facts
                return {"op": "first", "args": [{"line": _as_said(said, t, lines)}, node]}
            return node
    if lines and _printed(t, lines):
        return {"line": _as_said(said, t, lines)}
    if lines and members is True and _plainly_printed(said):
        # "total costs and expenses" in a definition: words every statement row may print, no word of
        # a name left ('tokens' keeps none); the company's primary row printed exactly so, or refused in retrieve
        return {"line": said}
    raise DefinitionError(text.strip())


# A balance's own words for when it is read ("inventory at year end", "year-end receivables", "accounts receivable,
# net at the end of the year", "ending inventory"; "beginning inventory", "opening equity"): the year's closing
# balance, or its opening one (the prior year-end's). Said of a flow, the words name no figure (refused as written).
_YEAR_END_WORDS = (r"(?:(?:fiscal\s+)?year\s+end(?:ing)?|end\s+of\s+(?:the\s+)?(?:fiscal\s+)?(?:year|period)|period\s+end|"
                   r"close\s+of\s+(?:the\s+)?(?:fiscal\s+)?year|balance\s+sheet\s+date)")
_GROSS_INTEREST = re.compile(r"gross\s+(?P<x>interest\s+(?:expense|costs?))")  # before interest income is netted
_AT_YEAR_END = re.compile(r"(?:(?:fiscal\s+)?year\s+end(?:ing)?|ending|closing|period\s+end|end\s+of\s+(?:the\s+)?(?:fiscal\s+)?"
                          r"(?:year|period))\s+(?:of\s+)?(?P<x>.+?)(?:\s+net)?|(?P<y>.+?)(?:\s+net)?\s+(?:at|as\s+of|on|for)\s+"
                          r"(?:the\s+)?" + _YEAR_END_WORDS)
_AT_YEAR_START = re.compile(r"(?:beginning|opening|start\s+of\s+(?:the\s+)?(?:fiscal\s+)?year)\s+(?:of\s+)?(?P<x>.+?)(?:\s+net)?|"
                            r"(?P<y>.+?)(?:\s+net)?\s+(?:at|as\s+of)\s+(?:the\s+)?(?:beginning|start)\s+of\s+(?:the\s+)?"
                            r"(?:fiscal\s+)?year")
# Fixed assets in an analyst's words: property, plant and equipment, net of depreciation (the fixed-asset
# turnover's balance, agent.retrieval.concepts "ppe_net")
_FIXED_ASSETS = re.compile(r"(?:net\s+)?(?:fixed\s+assets?|pp&e|ppe|ppne|property\s+plant\s+(?:and|&)\s+equipment|"
                           r"property\s+(?:and|&)\s+equipment|plant\s+(?:and|&)\s+equipment)(?:\s+net)?")
# Initials analysts write for a figure inside a formula, which outside one name other things ("the CFO")
OPERAND_INITIALS = {"cfo": "operating_cash_flow", "cffo": "operating_cash_flow", "ni": "net_income",
                     "ebt": "pretax_income", "oi": "operating_income", "ta": "total_assets", "tl": "total_liabilities",
                     "cl": "current_liabilities", "ca": "current_assets", "rev": "revenue", "inv": "inventory"}
_PRIOR_YEAR = re.compile(r"(?:prior|previous|last|preceding)[\s-]+(?:fiscal\s+)?year(?:'s|s')?\s+(?P<what>.+)|"
                         r"(?P<what2>.+?)\s+(?:of|for|in)\s+the\s+(?:prior|previous|preceding)\s+(?:fiscal\s+)?year")


# A metric some companies do not tag, computed from the lines that define it (as the registry's
# gross margin falls back to revenue less cost of revenue): tried after the tagged figure.
# Several, in order: D&A where no total is tagged is the two rows a company prints for it (depreciation and
# the amortization of intangibles), else depreciation alone; the restated formula names the one computed.
_COMPUTED_WHEN_UNTAGGED = {
    "gross_profit": [{"op": "-", "args": [{"metric": "revenue"}, {"metric": "cost_of_revenue"}]}],
    "depreciation_amortization": [{"op": "+", "args": [{"metric": "depreciation"}, {"metric": "amortization_intangibles"}]},
                                  {"metric": "depreciation"}],
    "sga": [{"op": "+", "args": [{"metric": "selling_marketing"}, {"metric": "general_administrative"}]}],
}


def on_member(node: dict, member: str) -> dict:
    """The tree with every metric operand narrowed to a member ('gross_profit' -> 'gross_profit@products')."""
    if "metric" in node:
        return {**node, "member": member}
    if "args" in node:
        return {**node, "args": [on_member(a, member) for a in node["args"]]}
    return node


def tagged_or_computed_on(metric: str, member: str) -> dict:
    """A member's figure, or, where the company tags it for the member only through the lines that define it
    (Apple tags its products' and services' net sales and cost of sales, never their gross margin), computed
    from those lines on the same member."""
    computed = _COMPUTED_WHEN_UNTAGGED.get(metric)
    node = {"metric": metric, "member": member}
    if computed is None:
        return node
    return {"op": "first", "args": [node, *(on_member(c, member) for c in computed)]}


def _tagged_or_computed(metric: str) -> dict:
    computed = _COMPUTED_WHEN_UNTAGGED.get(metric)
    if computed is None:
        return {"metric": metric}
    return {"op": "first", "args": [{"metric": metric}, *computed]}


def _member_word(w: str) -> bool:
    """A word a member's name may hold: not a filler, a verb that introduces a formula ("calculate"), a
    year or a company's possessive ("apple's"), which are the question's words around the name."""
    return w not in FILLER and w not in _INTRODUCING and w not in _NEGATING and not re.search(r"\d|'s$", w)


# Words that negate the metric after them ("non-current term debt" is no member "non" of current
# debt): never a member's name.
_NEGATING = frozenset({"non", "not", "ex", "excluding", "less", "without"})


# Words inside a member's name, never at its edges ("Family of Apps", "Energy Generation and Storage").
_INNER = frozenset({"of", "and", "&"})
# `members` in an inline formula (agent.planning.formulas.find_inline): a member is read where the
# words allow no other reading, and a printed row with the same words is tried first.
INLINE = "inline"
# A bare member's words: a name of a product, segment or region, never a verb, a filler or a company's
# possessive ("compute Apple's iPhone"): those are the question's words around the formula.
_BARE_WORDS = 4


def _bare(text: str) -> str | None:
    """The words of an operand that names no metric and may name a member ("Services", "Greater
    China"), else None."""
    if any(ch in text for ch in _OPEN + _CLOSE) or re.search(r"\d|'s\b|\u2019s\b", text):
        return None
    t = normalize(text).strip()
    t = re.sub(r"^(?:the|its|their)\s+", "", t)
    words = t.split()
    if not 0 < len(words) <= _BARE_WORDS or not all(
            _member_word(w) and w not in _EDGE or (w in _INNER and 0 < i < len(words) - 1) for i, w in enumerate(words)):
        return None
    if find_phrases(t, PHRASES) or t in FORMULA_PHRASES:
        return None  # a metric's words: parsed (or refused) as one
    return t


def _member_of(words: str, metric: str, lines: frozenset, line_first: bool) -> dict:
    """A bare operand as the member of the metric its formula names beside it ("Services as a share
    of total net sales": revenue of the Services member); a row printed under the same words is the
    other reading, tried first or second (`line_first`) against the facts."""
    node = {"metric": metric, "member": words}
    if not (lines and _printed(words, lines)):
        return node
    line = {"line": words}
    return {"op": "first", "args": [line, node] if line_first else [node, line]}


def _only_member_metric(nodes: list[dict]) -> str | None:
    """The one table metric the member operands beside a bare one narrow ("iPhone minus Mac net
    sales": revenue), else None."""
    found = {n["metric"] for n in nodes if n.get("member") and not n.get("offset")}
    return found.pop() if len(found) == 1 else None


_LINE_WORDS = 6
# A row's name as said, its small words counted ("proceeds from issuance of long term debt", "maturities and
# sales of non marketable securities"): its words without them are at most _LINE_WORDS
_LINE_SAID_WORDS = 9
# Words a printed row's name never starts or ends with.
_EDGE = frozenset("for in of at by to from on the a an and or with during its their per as vs".split())


@functools.lru_cache(maxsize=4096)  # an inline formula's search meets the same operand words many times
def _printed(t: str, lines: frozenset) -> bool:
    """Whether operand words name a row some company prints on a primary statement (its label's or
    concept's words, agent.retrieval.line_items.tokens): "marketing expense", "net cash used in
    investing activities". The company's own row is found, or the operand refused, in retrieve."""
    words = t.split()
    if not 0 < len(words) <= _LINE_SAID_WORDS or any(ch.isdigit() for ch in t) or all(w in FILLER for w in words):
        return False
    if words[0] in _EDGE or words[-1] in _EDGE:  # "revenue for": a metric and the question's next words
        return False
    vocabulary = _vocabulary(lines)  # a cheap test first: most candidate spans hold a word no row prints
    if any(w not in IGNORABLE and not _spellings(w) & vocabulary for w in words) and not _SPELLED_OUT.search(t):
        return False  # (an abbreviation is the row's words spelled out: "pre-tax earnings", "G&A")
    return line_tokens(t) in lines


# The words of a row printed only in words every row may print ("Total costs and expenses", "Costs and expenses")
_PLAIN_ROW_WORDS = frozenset("total costs cost expenses expense and".split())


def _plainly_printed(said: str) -> bool:
    words = said.split()
    return len([w for w in words if w != "and" and w != "total"]) >= 2 and all(w in _PLAIN_ROW_WORDS for w in words) \
        and words[-1] != "and" and not line_tokens(said)


def _as_said(said: str, t: str, lines: frozenset) -> str:
    """A printed row's words as the user wrote them, "total" included ("total term debt" is the row "Total
    term debt", not "Term debt" current or non-current), when those words are the row too."""
    return said if said != t and said.endswith(t) and _printed(said, lines) else t


def _bracketed_row(text: str, lines: frozenset) -> str | None:
    """The words of an operand with brackets in it, as written, when they name a printed row ("Income
    (loss) before income taxes", "Net cash provided by (used for) investing activities", "Interest and
    other income (expense)"); else None. The row's sign words and its "used in / provided by" pair are
    no words of its name (agent.retrieval.line_items.tokens), so the brackets are kept for the resolver."""
    t = " ".join(text.lower().replace("\u2019", "'").split())
    if not lines or not t or t[0] in _OPEN or any(ch.isdigit() for ch in t) or _depths(t) is None:
        return None  # a name never starts with a bracket: "provided/(used) by ..." is one row's sign pair
    inside = " ".join(re.findall(r"\(([^()]*)\)", t))
    if _has_operator(" " + inside + " "):
        return None  # "(A minus B)": a formula in brackets, not a row's name
    plain = normalize(re.sub(r"[()\[\]{}]", " ", t)).split()
    if not plain or plain[0] in _EDGE or plain[-1] in _EDGE:
        return None
    words = line_tokens(t)
    if not 0 < len(words) <= _LINE_WORDS or words not in lines:
        return None
    return t


# The statements' abbreviations (agent.retrieval.line_items.ABBREVIATIONS): words no row prints as such.
_SPELLED_OUT = re.compile(r"(?<![\w&])(?:" + "|".join(re.escape(a) for a in ABBREVIATIONS) + r")(?![\w&])")


def _spellings(word: str) -> set[str]:
    """The word and its singulars, as agent.retrieval.line_items.tokens may have stemmed it."""
    out = {word, word[:-1], word[:-2], word[:-3] + "y"}
    return out | {SYNONYMS[w] for w in out if w in SYNONYMS}


@functools.lru_cache(maxsize=2)
def _vocabulary(lines: frozenset) -> frozenset[str]:
    return frozenset(w for name in lines for w in name)


_DEBT_WORDS = frozenset({"debt", "total debt", "debts", "gross debt", "total borrowings", "debt outstanding"})


# An aside that lists a balance's two parts ("(current + non-current)", "(current plus long-term portions)",
# "(short- and long-term)")
_PARTS_ASIDE = re.compile(r"(?:incl(?:uding|\.)?\s+|both\s+)?(?P<a>current|short[\s-]*(?:term)?)(?:\s+portions?)?\s*"
                          r"(?:\+|plus|and|&)\s*(?P<b>non[\s-]?current|long[\s-]term)(?:\s+portions?)?", re.I)
# Debt said with its parts listed: the long-term debt whose current portion is one part
# ("debt (current + non-current)" alone may hold short-term borrowings: read as written, by the debt convention)
_PARTS_DEBT = re.compile(r"(?:long\s*term|lt|term)\s+debt")


# The two balances an average is of, said beside the figure: "beginning and end(ing)", "opening and closing", "at the
# start and end of the year", "(beginning + ending)"
_BOTH_ENDS = re.compile(r"^(?:the\s+)?(?:beginning|opening|start(?:ing)?)\s+(?:and|&|\+)\s+(?:end(?:ing)?|closing|year\s+end)"
                        r"(?:\s+of\s+(?:the\s+)?(?:fiscal\s+)?year)?\s+(?:(?:balances?|amounts?|values?)\s+(?:of|for)\s+)?|"
                        r"\s+(?:at|as\s+of)\s+(?:the\s+)?(?:beginning|start|opening)\s+(?:and|&)\s+(?:the\s+)?"
                        r"(?:end|close)\s+of\s+(?:the\s+)?(?:fiscal\s+)?(?:year|period)$|"
                        r"\s+(?:balances?\s+)?(?:beginning|opening)\s+(?:and|&|\+)\s+(?:end(?:ing)?|closing)(?:\s+balances?)?$")


def _debt_tree(t: str) -> dict | None:
    """"debt", "total debt", "net debt" in a formula: total debt by the one convention the registry uses
    (agent.retrieval.finance.DEBT_STEPS), as alternatives tried in order; the answer restates the one
    computed. Long-term debt alone is "long-term debt", never "debt"."""
    key = "total_debt" if t in _DEBT_WORDS else FORMULA_PHRASES.get(t)
    if key not in ("total_debt", "net_debt", "invested_capital"):
        return None
    alternatives = []
    for _, parts, _ in DEBT_STEPS:
        node = {"metric": parts[0]}
        for part in parts[1:]:
            node = {"op": "+", "args": [node, {"metric": part}]}
        if key == "net_debt":
            node = {"op": "-", "args": [node, {"metric": "cash"}]}
        if key == "invested_capital":  # "total capital", "invested capital": the debt plus the equity it funds
            node = {"op": "+", "args": [node, {"metric": "equity"}]}
        alternatives.append(node)
    return {"op": "first", "args": alternatives, "of": key}


def choose(tree: dict, found) -> dict:
    """The tree with each set of alternatives ("first") replaced by the first whose operands all have
    a fact (`found(operand key)`), else by the first alternative (so the refusal names its inputs)."""
    if tree.get("op") == "first":
        pick = next((a for a in tree["args"] if all(found(k) for k in metrics_of(a))), tree["args"][0])
        return choose(pick, found)
    if "args" in tree:
        return {**tree, "args": [choose(a, found) for a in tree["args"]]}
    return tree


def _terms(text: str, names: dict[str, dict] | None = None, members: bool = False,
           lines: frozenset = frozenset()) -> dict:
    """Sums and differences of products, left to right."""
    row = _row_with_its_exclusion(text, lines)
    if row is not None:
        return row
    pieces = _split_top(text, _ADD_OR_SUB)
    parsed = {}
    for i in range(0, len(pieces), 2):
        try:
            parsed[i] = _products(pieces[i], names, members, lines)
        except DefinitionError:
            listed = _listed(pieces[i], names, members, lines) if i and _SUB.fullmatch(pieces[i - 1]) else None
            if listed is not None:  # "operating cash flow net of capex and dividends": both deducted
                parsed[i] = listed
                continue
            if members != INLINE or len(pieces) < 3 or _bare(pieces[i]) is None:
                raise
    if len(parsed) < (len(pieces) + 1) // 2:
        # "iPhone minus Mac net sales": a bare name beside members of one metric is a member of it too
        metric = _only_member_metric(list(parsed.values()))
        if metric is None:
            raise DefinitionError(next(pieces[i] for i in range(0, len(pieces), 2) if i not in parsed).strip())
        for i in range(0, len(pieces), 2):
            if i not in parsed:
                parsed[i] = _member_of(_bare(pieces[i]), metric, lines, line_first=False)
    node = parsed[0]
    for i in range(1, len(pieces) - 1, 2):
        op = "+" if _ADD.fullmatch(pieces[i]) else "-"
        right = parsed[i + 1]
        if op == "-" and _EXCLUDING.search(pieces[i]) and (node.get("metric") in _PROFITS or node.get("of") in _PROFITS) \
                and right.get("metric") in _EXPENSES:
            # "operating income excluding stock-based compensation": the expense was deducted to reach
            # the profit, so excluding it adds it back (a named convention the restated formula states)
            node = {"op": "+", "args": [node, right], "added_back": True}
            continue
        if op == "-" and _EXCLUDING.search(pieces[i]) and node.get("op") == "/" and _profit(node["args"][0]) \
                and _expense(right):
            # "gross margin excluding amortization of acquired intangibles": the margin with the expense added back
            # to its numerator, never a dollar amount taken from a percentage
            num, den = node["args"]
            node = {**{k: v for k, v in node.items() if k != "of"},
                    "args": [{"op": "+", "args": [num, right], "added_back": True}, den]}
            continue
        if _quotient(node) and _amount(right) or _amount(node) and _quotient(right):
            raise DefinitionError(text.strip())  # a ratio plus or minus dollars: no figure
        if "const" in node and _amount(right):
            raise DefinitionError(text.strip())  # "1 minus dividends paid": a pure number less dollars, no figure
        node = {"op": op, "args": [node, right]}
    return node


_EXPENSE_WORDS = re.compile(r"\b(?:amortization|depreciation|impairments?|restructuring|compensation|expenses?|charges?|"
                            r"costs?|write[\s-]?downs?)\b", re.I)


def _balances(node: dict) -> bool:
    """Alternatives ("first") each a balance: a printed row or an instant metric."""
    return node.get("op") == "first" and all("line" in a or ("metric" in a and not a.get("offset")
                                                             and METRICS[a["metric"]].period == "instant")
                                             for a in node["args"])


def _profit(node: dict) -> bool:
    return node.get("metric") in _PROFITS or node.get("of") in _PROFITS


def _expense(node: dict) -> bool:
    """An expense a profit was reached after: a curated expense, or a printed row named as an expense."""
    return node.get("metric") in _EXPENSES or bool("line" in node and not node.get("offset")
                                                   and _EXPENSE_WORDS.search(node["line"]))


def _quotient(node: dict) -> bool:
    return node.get("op") == "/"


def _amount(node: dict) -> bool:
    """A dollar amount: a USD metric, a printed row, or their sum or difference."""
    if "metric" in node:
        return METRICS[node["metric"]].unit == "USD"
    if "line" in node:
        return True
    return node.get("op") in ("+", "-") and all(_amount(a) for a in node["args"])


_ROW_EXCLUSION = re.compile(r"\s(?:excluding|net\s+of|less)\s", re.I)


def _row_with_its_exclusion(text: str, lines: frozenset) -> dict | None:
    """"purchases of property and equipment excluding finance leases": words a printed row's name holds
    ("Purchases of property and equipment excluding finance leases, net of sales"), its "excluding" or "net of"
    included, are that row, never a difference of two figures (the row is found, or refused, in retrieve)."""
    if not lines or not _ROW_EXCLUSION.search(f" {text} ") or _split_top(text, _DIV)[1:] or _ADD.search(text):
        return None
    said = normalize(text).strip()
    words = line_tokens(said)
    if len(words) < 4 or any(ch.isdigit() for ch in said):
        return None
    if words in lines or any(words < row and len(row - words) <= 2 for row in lines):
        return {"line": said}
    return None


_LISTED = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+", re.I)


def _listed(text: str, names, members, lines) -> dict | None:
    """"capex and dividends" after a deduction ("net of", "less", "minus"): each item deducted, as their
    sum, when every item is an operand; else None. An "and" inside a name ("research and development")
    is tried as the name first, so only a list that no name spans is split."""
    for m in _LISTED.finditer(text):
        head, tail = text[: m.start()], text[m.end():]
        try:
            left = _products(head, names, members, lines)
        except DefinitionError:
            continue
        try:
            right = _products(tail, names, members, lines)
        except DefinitionError:
            right = _listed(tail, names, members, lines)
        if right is not None:
            return {"op": "+", "args": [left, right]}
    return None


_EXCLUDING = re.compile(r"\b(?:excluding|ex)\b", re.I)
# Income-statement profits, and the expenses deducted to reach them. A cash-flow figure is not one:
# "free cash flow excluding stock-based compensation" deducts it, as the cash flow added it back.
# EBITDA (a registry sum, expanded into its operands) is a profit too: "EBITDA excluding stock-based
# compensation" adds it back, as analysts' add-back conventions do.
_PROFITS = frozenset({"operating_income", "net_income", "gross_profit", "pretax_income", "ebitda"})
_EXPENSES = frozenset({"stock_compensation", "depreciation_amortization", "depreciation", "rd", "sga",
                       "interest_expense", "income_tax", "operating_expenses", "cost_of_revenue"})


def _products(text: str, names: dict[str, dict] | None = None, members: bool = False,
              lines: frozenset = frozenset()) -> dict:
    parts = _split_top(text, _MUL)
    node = _operand(parts[0], names, members, lines)
    for p in parts[2::2]:
        node = {"op": "*", "args": [node, _operand(p, names, members, lines)]}
    return node


def parse_expression(text: str, names: dict[str, dict] | None = None, *, members: bool = False,
                     lines: frozenset = frozenset()) -> dict:
    """An expression tree over table metrics, constants and the thread's named formulas (`names`);
    with `members` (an explicit definition), also a metric narrowed by a member's name; with `lines`
    (agent.planning.companies.line_names), also a row some company prints ("marketing expense").
    Outside brackets a division splits the whole ("A plus B over C" is (A + B) ÷ C); brackets group."""
    inner = _unwrap(text)
    if inner is not None:
        return parse_expression(inner, names, members=members, lines=lines)
    restated = _restated_whole(text, names, members, lines)
    if restated is not None:
        return restated
    constant = _constant_then_quotient(text, names, members, lines)
    if constant is None:
        constant = _quotient_then_constant(text, names, members, lines)
    if constant is not None:
        return constant
    parts = _split_top(text.strip(), _DIV, maxsplit=1)
    if len(parts) == 3:
        below, scale = _scaled(parts[2])
        try:  # the numerator's words are refused first, as written
            num, failed = _terms(parts[0], names, members, lines), None
        except DefinitionError as error:
            if members != INLINE:
                raise
            num, failed = None, error
        den = _terms(below, names, members, lines)
        if members == INLINE and _OWN.match(below) and num is not None and num.get("member") \
                and "metric" in num and "metric" in den and not den.get("member"):
            # "iPhone operating income as a percentage of its revenue": the member's own revenue
            den = {**den, "member": num["member"]}
        total = den.get("metric") if "metric" in den and not den.get("member") and not den.get("offset") \
            and METRICS[den["metric"]].period == "duration" else None
        words = _bare(parts[0]) if members == INLINE and total and _SHARE_OF.fullmatch(parts[1]) else None
        if failed is not None and words is None:
            raise failed
        if words is not None and (num is None or "line" in num):
            # "Services as a share of total net sales": a row printed under the name first (as a
            # written operand always is), else the member's share of the company's total
            num = _member_of(words, total, lines, line_first=True)
        if num is not None and _quotient(num) and all(_amount(a) for a in num["args"]) and _amount(den):
            raise DefinitionError(text.strip())  # "gross margin / net revenue", a margin over dollars: no figure
        node = {"op": "/", "args": [num, den]}
        if _SHARE_OF.fullmatch(parts[1]) and not _FRACTION.search(parts[1]):
            node["percent"] = True  # "as a percentage of", "as a share of": said as a percentage ("a fraction": not)
        for factor in scale:
            if factor == Decimal(100):  # "× 100": the quotient as a percentage, shown as one
                node = {**node, "percent": True}
            else:  # "A over B times 365": (A ÷ B) × 365, as people write a days ratio
                node = {"op": "*", "args": [node, {"const": str(factor)}]}
        return node
    return _terms(parts[0], names, members, lines)


def _constant_then_quotient(text: str, names, members, lines) -> dict | None:
    """"1 minus dividends paid over net income": a number added to or taken from a quotient of amounts is
    1 − (A ÷ B), as a retention ratio is written; the whole-split reading ((1 − A) ÷ B) would take a pure
    number from dollars. None unless the words start with a number and an operator and the rest is a quotient."""
    pieces = _split_top(text.strip(), _ADD_OR_SUB, maxsplit=1)
    if len(pieces) != 3 or len(_split_top(pieces[2], _DIV, maxsplit=1)) != 3:
        return None
    try:
        first = _operand(pieces[0], names, members, lines)
    except DefinitionError:
        return None
    if "const" not in first:
        return None
    rest = parse_expression(pieces[2], names, members=members, lines=lines)
    if not _quotient(rest):
        return None
    return {"op": "+" if _ADD.fullmatch(pieces[1]) else "-", "args": [first, rest]}


_LAST_TERM = re.compile(r"^(?P<head>.+?),?(?P<op>\s+(?:plus|\+|minus|less|-|−)\s+|\s*[+−]\s*)(?P<n>1(?:\.0+)?)\s*$", re.I)


def _quotient_then_constant(text: str, names, members, lines) -> dict | None:
    """"2024 revenue divided by 2023 revenue minus 1": one taken from (or added to) the end of a quotient of amounts is
    (A ÷ B) − 1, as a growth rate is written; the divisor-split reading (A ÷ (B − 1)) would take one dollar from the
    divisor. None unless the words end on an operator and 1 and what comes before is a quotient (another number after
    a divisor stays in it, as written: "net income over revenue plus 5")."""
    m = _LAST_TERM.match(text.strip())
    if m is None or len(_split_top(m.group("head"), _DIV, maxsplit=1)) != 3:
        return None
    try:
        head = parse_expression(m.group("head"), names, members=members, lines=lines)
    except DefinitionError:
        return None
    if not _quotient(head) or not all(_amount(a) for a in head["args"]):
        return None
    return {"op": "+" if _ADD.fullmatch(m.group("op")) else "-", "args": [head, _operand(m.group("n"), names, members, lines)]}


_IE = re.compile(r"^\s*restated\s+as\s+", re.I)  # spoken_operators' mark of a definition written after its name
_WHOLE_ASIDE = re.compile(r"\s*(?P<name>[^()]+?)\s*\((?P<said>[^()]+)\)\s*")


def _restated_whole(text: str, names, members, lines) -> dict | None:
    """"capex net of depreciation (capital expenditures minus depreciation, amortization and impairment)": a
    formula's name that reads as a formula itself, then in brackets the user's own formula over the same
    figures from the same first one, is that formula; the brackets restate the whole, never its last operand
    alone. None when the words are not so (the brackets then name or define the operand before them)."""
    m = _WHOLE_ASIDE.fullmatch(text)
    if m is None or not _has_operator(m.group("name")) or not _has_operator(f" {m.group('said')} "):
        return None
    restating = _IE.match(m.group("said"))  # "name? i.e. A minus B" (spoken_operators' mark): the whole, as said
    try:
        before = parse_expression(m.group("name"), names, members=members, lines=lines)
        said = parse_expression(_IE.sub("", m.group("said")), names, members=members, lines=lines)
    except DefinitionError:
        if restating:
            raise  # the user's own formula for the whole, unreadable: refused naming it, never the name's reading
        return None
    if restating:
        return said
    # a restatement of the whole starts where the name starts ("capex net of ..." as "capital expenditures
    # minus ..."); "dividends paid divided by free cash flow (operating cash flow minus capex)" defines its last
    first, restated = metrics_of(before), metrics_of(said)
    return said if first and restated and first[0] == restated[0] else None


def _scaled(text: str) -> tuple[str, list[Decimal]]:
    """A divisor's trailing constant factors ("revenue times 365" → ("revenue", [365])): they scale the
    quotient, not the divisor. Only when no sum or difference sits beside them."""
    parts = _split_top(text, _MUL)
    if len(parts) < 3 or _split_top(text, _ADD_OR_SUB)[1:]:
        return text, []
    factors = []
    while len(parts) >= 3:
        try:
            value = Decimal(parts[-1].strip().replace(",", ""))
        except InvalidOperation:
            break
        factors.insert(0, value)
        parts = parts[:-2]
    return "".join(parts), factors


def _has_operator(text: str) -> bool:
    return any(p.search(text) for p in (_DIV, _ADD, _SUB, _MUL))


def has_operator(text: str) -> bool:
    """Whether the text holds a formula's operator (the planner's test before it takes a formula's name)."""
    return _has_operator(f" {text} ")


# "unadjusted operating income", "reported EBITDA": the figure as the filing reports it, which is what every
# operand is (a company's adjusted measures are not in XBRL)
_UNADJUSTED = re.compile(r"^(?:unadjusted|reported|gaap)\s+|\s+(?:unadjusted|as\s+reported)$")
# "net income attributable to <the company | its shareholders>": the figure attributable to the parent, which the
# net income metric is; never to noncontrolling interests, nor to common stock after preferred dividends
_TO_PARENT = re.compile(r"^(net (?:income|earnings|profit)) attributable to (?!.*\b(?:non|noncontrolling|minority|"
                        r"common|preferred|participating|redeemable)\b)[\w&'. ]{1,40}$")
_FY = r"(?:(?:the\s+)?(?:fiscal\s+(?:years?\s+)?|fy\s*)'?)"
# "average PP&E between FY2022 and FY2023", "change in inventory between FY2023 and FY2024": two year-ends
_YEAR_PAIR = re.compile(r"\s+(?:between|of|for|from|at\s+the\s+end\s+of|at\s+(?:the\s+)?(?:fiscal\s+)?year[\s-]ends?\s+(?:of\s+)?)\s+"
                        + _FY + r"?((?:19|20)\d\d)\s+(?:and|&|to|-|through)\s+" + _FY + r"?((?:19|20)\d\d)\b", re.I)
_CHANGE_IN = re.compile(r"\b(?:the\s+)?(?:change|increase|decrease)\s+in\s+(?P<x>[a-z&',. ]+?)\s*$", re.I)
_ONE_YEAR = re.compile(r"\b" + _FY + r"?((?:19|20)\d\d)(?:'s)?\b\s*", re.I)


def _years_read(expr: str) -> str:
    """A definition's years, read as the years of the question: "FY2023 revenue / (average PP&E between
    FY2022 and FY2023)" is the asked year's revenue over the year's opening and closing PP&E averaged. Taken
    out only when they say exactly that (each pair two consecutive year-ends, every year named the one asked);
    any other years are left for the grammar, which refuses them."""
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
    years |= {int(m.group(1)) for m in _ONE_YEAR.finditer(rest)}
    if len(years) == 2 and max(years) - min(years) == 1:
        rest = _prior_year_said(rest, min(years))
        years = {max(years)}
    if len(years) != 1:
        return expr
    return " ".join(_ONE_YEAR.sub(" ", rest).split())


_OPERAND_EDGE = re.compile(r"[()\[\]/÷*×+]|\s(?:over|divided\s+by|minus|plus|less|times|and)\s|^", re.I)


def _prior_year_said(expr: str, prior: int) -> str:
    """"(inventory FY2022 + inventory FY2023) / 2", "FY2022 total assets": the earlier of the two years a
    definition names, said as the prior year of the operand it sits beside ("prior year inventory"), so the
    later one is the asked year's and the grammar reads the prior one as the balance a year before."""
    out, at = [], 0
    for m in _ONE_YEAR.finditer(expr):
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
        inner = parse_expression(_years_read(where.group("e")), names, members=True, lines=lines)
        names = {**(names or {}), normalize(where.group("n")): inner}
        expr = expr[: where.start()]
    tree = parse_expression(_years_read(expr), names, members=True, lines=lines)
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
        if not _has_operator(head) or find_phrases(normalize(tail), PHRASES) or _has_operator(f" {tail} "):
            continue  # "..., divided by <something unknown>": the formula's divisor, never a company and year
        try:
            return _definition(name, head, lines), tail
        except DefinitionError:
            continue
    return None


_CALL = re.compile(r"\b(?:let'?s|let\s+us|we(?:'ll|\s+will)?|i(?:'ll|\s+will)?)\s+call\s+(?P<rest>.+?)" + _END, re.I)


def _called(text: str, lines: frozenset = frozenset()) -> tuple[dict, int, int] | None:
    """"let's call opex SG&A + R&D": a name of one to three words, then its formula, no "as"."""
    m = _CALL.search(text)
    if m is None:
        return None
    words = m.group("rest").split()
    for n in (1, 2, 3):
        name, expr = " ".join(words[:n]).strip(" '\"‘’“”"), " ".join(words[n:])
        if not expr or not _has_operator(expr) or _has_operator(name):
            continue
        try:
            return _definition(name, expr, lines), m.start(), m.end()
        except DefinitionError:
            continue
    return None


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
        if not _has_operator(expr):
            continue  # "treat X as a priority": not a formula
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
        return definition, text[: m.start()] + " " + text[m.end() :], None
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
             if _has_operator(m.group("expr"))]
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


# A comma inside a row's printed name ("Accounts receivable, net", "Selling, general and administrative",
# "Purchases of property, equipment and technology"): the name's, not a break between clauses or operands.
_NAME_COMMA = re.compile(r",\s+(?=[a-z(])", re.I)
_PUNCT = re.compile(r"[,;:?!\u2013\u2014]|\s-\s")
# Words after which a row's name has ended: an operator's, a list's or the question's next clause's.
_AFTER_NAME = frozenset("over divided minus plus less times as to and for in at vs versus by x per excluding "
                        "net of".split())
_NAME_WORDS = 8


def joined_rows(text: str, lines: frozenset) -> str:
    """The text with each comma that stands inside a printed row's name taken out, when the text holds
    a formula's operator: the words around the comma, up to the next operator or break, are exactly a
    row some company prints (agent.planning.companies.line_names). Other commas stay."""
    if "," not in text or not _has_operator(text) or not lines:  # the rows read last: most questions need none
        return text
    out = text
    for m in reversed(list(_NAME_COMMA.finditer(text))):
        left = out[: m.start()]
        head = _PUNCT.split(left)[-1]
        lw = head.split()
        rest = out[m.end():]
        if any(p.match(" " + rest) for p in (_DIV, _ADD, _SUB, _MUL)):
            continue  # ", net of cash acquired", ", less ...": an operator's words follow the comma, not a name's
        if any(normalize(" ".join(lw[-n:])).strip() in FORMULA_PHRASES for n in range(1, min(len(lw), 8) + 1)):
            # "GM's liabilities to equity, total liabilities over equity": a registry measure's name before the comma
            # is set off from the formula after it, never the start of a row ("total liabilities and equity" holds
            # the same words)
            continue
        tail = _PUNCT.split(rest)[0]
        rw = tail.split()
        joined = False
        for k in range(1, min(len(rw), _NAME_WORDS) + 1):
            after = rw[k].lower() if k < len(rw) else None
            if after is not None and after not in _AFTER_NAME and not _has_operator(" " + after + " "):
                continue
            for n in range(1, min(len(lw), _NAME_WORDS) + 1):
                said = " ".join(lw[-n:] + rw[:k])
                if re.search(r"\d", said) or normalize(lw[-n]).split()[:1] in (["the"], ["of"]):
                    continue
                words = line_tokens(said)
                if len(words) >= 2 and words in lines:
                    joined = True
                    break
            if joined:
                break
        if joined:
            out = out[: m.start()] + " " + out[m.end():]
    return out


# Clause breaks an inline formula never spans; words that only introduce one.
# (a comma before an operator's words sets off the formula's last step: "A plus B, divided by C" is one clause)
_CLAUSE = re.compile(r"[.;:?!](?:\s|$)|,\s(?!(?:then\s+)?(?:divided\s+by|over|minus|plus|less|times|multiplied\s+by|"
                     r"as\s+a\s+(?:%|percent(?:age)?|share|fraction|multiple)\s+of)\s)|\s[\u2013\u2014]\s|\s--\s")
_MAX_CLAUSE_WORDS = 40
_OPERAND_WORDS = 10
_SETS_OFF = re.compile(r"[(\[=]|\b(?:defined|calculated|computed|measured)\s+as\b|\bi\.?e\.?", re.I)
_LEAD = re.compile(r"^(?:(?:defined|calculated|computed|measured)\s+as|i\.?e\.?|=)\s*", re.I)


def find_inline(text: str, names: dict[str, dict] | None = None, bounded=lambda start, end, since=None, tree=None: True,
                lines: frozenset = frozenset()) -> tuple[dict, int, int] | None:
    """A formula written into the question itself ("compute gross profit minus SG&A", "net income
    divided by diluted shares", "cash returned as a % of operating cash flow"): the longest run of
    words in one clause that parses with every operand a table metric, a number or a formula the
    thread named, and (`bounded`) no word of an operand left outside it. Returns (definition named by
    its own words, start, end) or None."""
    names = names or {}
    pos = 0
    for clause in [*_CLAUSE.split(text), ""]:
        start = text.find(clause, pos) if clause else -1
        if start < 0:
            continue
        pos = start + len(clause)
        if not _has_operator(clause) or _printed_slash(clause, lines):
            continue
        words = list(re.finditer(r"\S+", clause))
        if len(words) > _MAX_CLAUSE_WORDS:
            continue  # a formula is written in a short clause; a long one is prose
        ops = [m for p in (_DIV, _ADD, _SUB, _MUL) for m in p.finditer(clause)]
        first = min(m.start() for m in ops)
        last = max(m.end() for m in ops)
        # an operand is a few words: the formula starts shortly before its first operator, ends shortly after its last
        starts = [i for i, w in enumerate(words) if w.start() <= first][-_OPERAND_WORDS:]
        ends = [j for j in range(1, len(words) + 1) if words[j - 1].end() >= last][:_OPERAND_WORDS]
        for i in starts:
            for j in reversed(ends):
                if j <= i:
                    continue
                lo, hi = words[i].start(), words[j - 1].end()
                piece = clause[lo:hi]
                lead = _LEAD.match(piece)
                if lead or not _has_operator(piece):
                    continue
                said_years = {int(y.group(1)) for y in _ONE_YEAR.finditer(piece)}
                # "2024 revenue divided by 2023 revenue": two consecutive years, the earlier the later's prior year
                # (one year alone inside a formula is never read: it may be the question's, said mid-clause)
                read = _years_read(piece) if len(said_years) == 2 else piece
                try:
                    tree = parse_expression(read, names, members=INLINE, lines=lines)
                except DefinitionError:
                    continue
                # the question's words run from the clause's start, or from a bracket or "defined as" that
                # sets the formula off as a named figure's definition ("effective tax rate (A / B)")
                sets_off = list(_SETS_OFF.finditer(clause, 0, lo + 1))  # the piece's own opening bracket too
                since = start + (sets_off[-1].end() if sets_off else 0)
                if re.search(r"\bas\s+$", clause[:lo], re.I):
                    since = start + lo  # "inventory turnover as cost of sales over inventory": the name's definition
                if "op" not in tree or not bounded(start + lo, start + hi, since, tree) or _itself(tree):
                    continue
                shown = (_unwrap(piece) or piece).strip()
                asked = {"year": str(max(said_years))} if read != piece else {}  # the later year: the question's
                return ({"name": shown.lower(), "tree": tree, "unit": unit_of(tree, ""),
                         "formula": restate(tree, top=True), **asked}, start + lo, start + hi)
    return None


# Operators a printed row name may hold: a slash inside words, "net of", "less", "excluding", a dash.
_IN_NAME = re.compile(r"/|net\s+of|less|excluding|-")


def _printed_slash(clause: str, lines: frozenset) -> bool:
    """A clause whose only operators are ones a row's name may print ("Income/(loss) from operating investments",
    "proceeds from sale/maturity of investments", "Interest expense, net of portion capitalized"), when the words
    around one are a row some company prints: the row's name, never a division or a difference. (Owner of
    line-item resolution, B: the one call in find_inline.)"""
    ops = [m for p in (_DIV, _ADD, _SUB, _MUL) for m in p.finditer(clause)]
    if not ops or any(not _IN_NAME.fullmatch(m.group(0).strip().lower()) for m in ops):
        return False
    words = clause.split()
    # (first word of the operator, first word after it): a slash inside a word is both
    at = [(i, i) for i, w in enumerate(words) if "/" in w.strip("/")]
    at += [(i - 1, i + 1) for i, w in enumerate(words) if w.lower() == "of" and i and words[i - 1].lower() == "net"]
    at += [(i, i + 1) for i, w in enumerate(words) if w.lower() in ("less", "-", "excluding")]
    # a spaced operator's row name runs to the clause's last content word ("revenue net of cost of sales 2024" is a
    # difference even though "revenue net of cost" would print as "Cost of revenue")
    content = [j for j, w in enumerate(words) if not any(ch.isdigit() for ch in w)
               and w.strip("?.,!").lower() not in FILLER and not re.fullmatch(r"fy\d*|q[1-4]", w.strip("?.,!").lower())]
    last = content[-1] + 1 if content else len(words)
    for first, after in at:
        for lo in range(max(0, first - _LINE_WORDS), first + (first == after)):
            ends = range(after + 1, min(len(words), lo + _LINE_WORDS + 2) + 1) if first == after else [last]
            for hi in ends:
                # words of the row's name on both sides of the operator ("net of cost of sales" is a difference)
                if first != after and not (line_tokens(" ".join(words[lo:first])) and line_tokens(" ".join(words[after:hi]))):
                    continue
                span = line_tokens(" ".join(words[lo:hi]))
                if span and span in lines:
                    return True
    return False


def _itself(tree: dict) -> bool:
    """A quotient or difference of one operand with itself ("WhatsApp revenue as a fraction of total
    revenue" with the name left outside): no one asks it, so the words left out were the question."""
    args = [{k: v for k, v in a.items() if k != "said"} for a in tree.get("args") or []]  # "revenue", "total revenue"
    return tree.get("op") in ("/", "-") and len(args) == 2 and args[0] == args[1]


def unit_of(tree: dict, name: str) -> str:
    if "const" in tree:
        return "pure"
    if "line" in tree:  # a printed statement row: an amount
        return "USD"
    if "metric" in tree:
        return METRICS[tree["metric"]].unit
    if tree["op"] in ("abs", "first"):
        return unit_of(tree["args"][0], name)
    if tree["op"] == "root":
        return "ratio"
    if tree.get("percent"):
        return "percent"
    scale = tree["args"][1].get("const") if tree["op"] == "*" else None
    if scale is not None and tree["args"][0].get("op") == "/":  # a quotient scaled by the user: as written
        return "days" if Decimal(scale) in (360, 365, 366) else "ratio"
    a, b = (unit_of(x, name) for x in tree["args"])
    if tree["op"] == "-" and a == b == "percent":
        return "points"  # "gross margin minus operating margin": a gap between two percentages, in points
    if tree["op"] in ("+", "-", "avg"):
        return a if a != "pure" else b
    if tree["op"] == "*":
        if {a, b} == {"USD/shares", "shares"}:  # dividends per share × diluted shares: dollars
            return "USD"
        if b in ("pure", "ratio") and a not in ("pure", "ratio"):
            return a  # "operating income × (1 − tax rate)": an amount scaled by a fraction is an amount
        return a if b == "pure" else b
    if a == b:  # "over", "divided by", "to": a ratio, unless the definition's name says a percentage ("margin")
        named = FORMULA_PHRASES.get(normalize(name))  # "ROE is defined as ...": a percentage, as the registry's ROE
        if named is not None and FORMULAS[named].unit in ("percent", "ratio"):
            return FORMULAS[named].unit
        if METRICS.get(PHRASES.get(normalize(name), "")) is not None and METRICS[PHRASES[normalize(name)]].unit == "pure":
            return "percent"  # "effective tax rate = ...": a rate, as the table's tagged rate is shown
        return "percent" if _PCT_NAMES.search(name) and not _RATIO_NAMES.search(name) else "ratio"
    if (a, b) == ("USD", "shares"):
        return "USD/shares"  # net income ÷ diluted shares: a per-share amount
    return a if b == "pure" else "ratio"


def operand_key(node: dict) -> str:
    """An operand's identity: a table metric ('revenue'), narrowed to a member ('revenue@iphone'), of
    an earlier year ('revenue@iphone~-1')."""
    if "line" in node:  # a printed row by the user's words ('#marketing expense', '#marketing expense~-1')
        key = f"#{node['line']}" + (f"~{node['offset']}" if node.get("offset") else "")
        return key + (f"^{node['ticker']}" if node.get("ticker") else "")
    key = node["metric"]
    if node.get("member"):
        key += f"@{node['member']}"
    if node.get("offset"):
        key += f"~{node['offset']}"
    if node.get("ticker"):  # another company's figure, in a formula across two companies ('revenue^LOW')
        key += f"^{node['ticker']}"
    return key


def operand_ticker(key: str) -> str | None:
    """The company an operand is pinned to ('revenue^LOW' -> 'LOW'), or None: the answer's own company."""
    return key.partition("^")[2] or None


def operand_parts(key: str) -> tuple[str, str | None, int]:
    """(metric, member or None, year offset) of an operand key."""
    rest, _, offset = key.partition("^")[0].partition("~")
    metric, _, member = rest.partition("@")
    return metric, member or None, int(offset or 0)


def operand_label(key: str) -> str:
    ticker = operand_ticker(key)
    if ticker:
        return f"{operand_label(key.partition('^')[0])} ({ticker})"
    metric, member, offset = operand_parts(key)
    if key.startswith("#"):
        label = metric[1:2].upper() + metric[2:]
        return label + (" (prior year)" if offset == -1 else f" ({offset:+d} years)" if offset else "")
    if member and member.startswith("="):  # a member by its QName: its name in words ("Combat Systems")
        from agent.retrieval.segments import display_name

        member = display_name(member[1:], set(), frozenset())
    label = METRICS[metric].label + (f" ({member})" if member else "")
    return label + (" (prior year)" if offset == -1 else f" ({offset:+d} years)" if offset else "")


def restate(tree: dict, top: bool = False) -> str:
    if "const" in tree:
        return tree["const"]
    if "metric" in tree or "line" in tree:
        return operand_label(operand_key(tree))
    if tree["op"] == "abs":
        return f"|{restate(tree['args'][0], top=True)}|"
    if tree["op"] == "first":  # before the facts pick one: the convention's name, else the first reading
        return FORMULAS[tree["of"]].label if "of" in tree else restate(tree["args"][0], top)
    if tree["op"] == "avg":  # the year's opening and closing balances, averaged
        return f"average {restate(tree['args'][0]).lower()} (opening and closing)"
    if tree["op"] == "root":
        return f"({restate(tree['args'][0], top=True)})^(1/{tree['n']})"
    sym = {"+": "+", "-": "−", "*": "×", "/": "÷"}[tree["op"]]
    inner = f" {sym} ".join(restate(a) for a in tree["args"])
    if tree.get("added_back"):
        inner += " (the excluded expense added back)"
    return inner if top or tree["op"] in "*" else f"({inner})"


def said_of(tree: dict) -> dict[str, str]:
    """Metric key -> the user's words for it in a formula ("net sales"), where the metric's printed row
    depends on them (agent.retrieval.line_items.printed_order)."""
    if "metric" in tree:
        return {tree["metric"]: tree["said"]} if tree.get("said") else {}
    return {k: v for a in tree.get("args", ()) for k, v in said_of(a).items()}


def metrics_of(tree: dict) -> list[str]:
    """The operand keys (operand_key) of a tree, in order."""
    if "metric" in tree or "line" in tree:
        return [operand_key(tree)]
    if "const" in tree:
        return []
    return [m for a in tree["args"] for m in metrics_of(a)]


def evaluate(tree: dict, values: dict[str, Decimal], unit: str) -> Decimal:
    def ev(node: dict) -> Decimal:
        if "const" in node:
            return Decimal(node["const"])
        if "metric" in node or "line" in node:
            return values[operand_key(node)]
        if node["op"] == "abs":
            return abs(ev(node["args"][0]))
        if node["op"] == "first":
            return ev(choose(node, lambda k: k in values))
        if node["op"] == "root":  # a compound rate's n-th root (CAGR): Decimal's correctly rounded power
            base = ev(node["args"][0])
            if base <= 0:
                raise FormulaError("no compound rate across a sign change or from zero")
            return base ** (Decimal(1) / Decimal(node["n"]))
        a, b = (ev(x) for x in node["args"])
        if node["op"] == "+":
            return a + b
        if node["op"] == "avg":
            return (a + b) / 2
        if node["op"] == "-":
            return a - b
        if node["op"] == "*":
            return a * b
        if b == 0:
            raise FormulaError("zero denominator")
        return a / b

    result = ev(tree)
    return result * HUNDRED if unit in ("percent", "points") else result


def trace(definition: dict, operands: list, shown: str):
    """The Calculation an answer shows for a user's formula: each input with its [n], then the
    definition as computed. `operands`: (metric key, agent.retrieval.finance.Operand) in tree order."""
    from agent.answer import Calculation
    from agent.retrieval.finance import display_value

    steps = []
    for key, op in operands:
        marker = f" [{op.marker}]" if op.marker is not None else ""
        label = operand_label(key).replace(" (prior year)", "")
        steps.append(f"{label} (FY{op.fiscal_year}): {display_value(op.value, op.unit)}{marker}")
    pct = " × 100" if definition["unit"] in ("percent", "points") else ""
    steps.append(f"{definition['formula']}{pct} = {shown}")
    whose = "" if definition.get("derived") else " (your definition)"
    return Calculation(metric=f"{definition['name']}{whose}", formula=definition["formula"] + pct,
                       steps=steps, result=shown)


# Words that may stand beside a formula written into a question without belonging to an operand.
_INTRODUCING = frozenset("compute computed calculate calculated calc calcs define defined using use work out figure "
                         "i.e. ie = ratio formula".split())  # "ratio: A / B", "the formula (A - B) / A"


# A name of the user's own, one to four words set off by a colon right before the formula it defines
_OWN_NAME = re.compile(r"(?:^|(?<=\s))(?P<name>[a-z][a-z&'-]*(?:\s+[a-z][a-z&'-]*){0,3})\s*:\s*$", re.I)


def _bounded(text: str, directory, named: str | None):
    """Whether an inline formula at [start, end) has no operand word left outside it: the words
    beside it are filler, a year, a company, an introducing verb or the name it defines ("EBITDA")."""
    @functools.cache
    def companies() -> list[tuple[int, int]]:  # only when a formula was found: most questions hold none
        return [(m.start, m.end) for m in directory.find(text)]

    def word_ok(start: int, word: str | None) -> bool:
        if word is None or any(s <= start < e for s, e in companies()):
            return True
        w = normalize(word).replace(" ", "")  # "i.e." normalizes to "i e"
        return (not w or w in FILLER or w in _INTRODUCING or bool(re.fullmatch(r"(?:fy)?'?\d+\w*|[-.]+", w))
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
            # right before the formula is the name it defines (agent.planning.formulas.inline_formula)
            named_here = _named_metric(text[:start], _COMMA_LEAD_IN)
            if named_here is None and text[start:start + 1] in _OPEN and tree is not None:
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
        clause_at = max([c.end() for c in _CLAUSE.finditer(text, 0, m.start())] + [0])
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
    return not w or w in FILLER or w in _INTRODUCING or bool(re.fullmatch(r"(?:fy)?'?\d+\w*|fiscal|year", w))


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
        definition = {**definition, "name": " ".join(_ONE_YEAR.sub(" ", definition["name"]).split())}
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
            opener = rest[start:start + 1] if rest[start:start + 1] in _OPEN else ""  # the formula's own bracket
            named = _named_or_comma(rest[:start] + opener, definition["tree"])
            if named is not None and named[3] in registry and (
                    _restates(named[3], definition["tree"])
                    # "EBITDA (operating income + D&A)": its own operands in its brackets; a quotient written after
                    # a measure ("ebitda margin -- (operating income + d&a) / revenue") is the user's to compute
                    or opener and definition["tree"].get("op") != "/" and _reads_only_its_own(named[3], definition["tree"])):
                return None  # "interest coverage: operating income / interest expense": the registry's own, as named
            if named is not None and named[3] in registry:
                at, stop, lead, key, by_comma = named
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
        opener = rest[start : start + 1] if rest[start : start + 1] in _OPEN else ""  # the bracket may be the formula's
        named = _named_or_comma(rest[:start] + opener, definition["tree"])
        if named is not None and named[3] in _expanded(definition["tree"]):
            return None  # "gross margin: gross margin / net revenue": the measure in its own formula is another figure
        if named is not None:  # "effective tax rate (tax provision / pre-tax income)": the user's, by that name
            at, stop, lead, key, by_comma = named
            definition = {**definition, "name": " ".join(rest[at:stop].split()).lower(),
                          **({"otherwise": key} if by_comma else {})}
            unit = FORMULAS[key].unit if key in FORMULAS else METRICS[key].unit
            if definition["tree"].get("op") == "/" and unit in ("pure", "percent"):
                definition["unit"] = "percent"  # a rate, as the metric it defines is
            cut = rest[:at] + " " + rest[stop:min(lead, start)] + " " + rest[end:].lstrip(")]} ")
        own = _OWN_NAME.search(rest[:start]) if named is None else None
        if own is not None:  # "tesla 2024 asset cover: buybacks over total assets": the user's own name for it
            words = list(re.finditer(r"\S+", own.group("name")))
            if any(normalize(w.group(0)) in _INTRODUCING for w in words):
                words = []  # "compute it yourself: A / B" is an instruction, never a name
            while words and (normalize(words[-1].group(0)) in FILLER or "'" in words[-1].group(0)):
                words.pop()
            keep = []
            for w in reversed(words):
                if normalize(w.group(0)) in FILLER or re.search(r"['\u2019]", w.group(0)) or any(
                        s <= own.start("name") + w.start() < e for s, e in companies):
                    break
                keep.insert(0, w)
            if keep and not _has_operator(f" {own.group('name')} "):
                at, stop = own.start("name") + keep[0].start(), own.start("name") + keep[-1].end()
                definition = {**definition, "name": " ".join(rest[at:stop].split()).lower()}
                definition["unit"] = unit_of(definition["tree"], definition["name"])
                cut = rest[:at] + " " + rest[stop:start].replace(":", " ") + " " + rest[end:]
        whole = _WHOLE_ASIDE.fullmatch(rest[start:end]) if named is None else None
        key = (PHRASES.get(normalize(whole.group("name"))) or FORMULA_PHRASES.get(normalize(whole.group("name")))
               if whole is not None else None)
        if key is not None:  # "tax rate (provision for income taxes over earnings before income taxes)": the same
            definition = {**definition, "name": " ".join(whole.group("name").split()).lower()}
            unit = FORMULAS[key].unit if key in FORMULAS else METRICS[key].unit
            if definition["tree"].get("op") == "/" and unit in ("pure", "percent"):
                definition["unit"] = "percent"
    cut = re.sub(r"(?i),?\s*\b(?:defined|calculated|computed)\s+as\b", " ", cut)
    return definition, cut


# (a dash sets a definition off as a bracket does: "cash conversion 2024 -- CFO over net earnings"; so does an
# instruction ending in a colon)
_LEAD_IN = re.compile(r"(?:\s*(?:[(\[:=]|,?\s*\b(?:defined|calculated|computed|measured)\s+as\b|,?\s*\bi\.?e\.?,?|"
                      r"\s--|\s[\u2013\u2014]|"
                      # an instruction before the formula: "-- compute it yourself: A / B", ", use this: A / B"
                      r",?\s*(?:please\s+)?\b(?:compute|calculate|calc|use|work\s+out)\b(?:\s+(?:it|this|that|yourself|as|with|by))*\s*:"
                      r"))+\s*$", re.I)
# A comma sets a formula off as a measure's definition only when the formula reads as that measure (agent.planning.
# formulas._reads_as): "debt to equity fy24, term debt (...) over shareholders' equity"; "revenue growth, net income
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
    if key in METRICS and METRICS[key].fallback in FORMULAS:
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
            return at, stop, lead.start(), key
    return None


# Operators said in words around their operands: "the ratio of R&D to revenue", "capex to
# depreciation ratio", "the sum of dividends and buybacks", "the difference between A and B",
# "take operating income and divide it by total assets". Rewritten into the grammar above; the
# planner keeps the rewrite only when it yields a formula (agent.planning.rules.plan_rules).
_SPOKEN = (
    # "operating income less interest expense, all over revenue": the whole before it divided, as "A minus B, over C"
    (re.compile(r",?\s+(?:all|then|and\s+then|the\s+whole\s+thing|everything|the\s+(?:result|total|sum|difference))\s+"
                r"(?=(?:over|divided\s+by)\s)", re.I), ", "),
    # "the ratio of general and administrative to capex": the "to" splits, an "and" may be a name's
    (re.compile(r"\b(?:the\s+)?ratio\s+of\s+(?P<a>(?:[^,;?]|,\s(?=[a-z]))+?)\s+to\s+", re.I), r"\g<a> over "),
    (re.compile(r"\b(?:the\s+)?ratio\s+(?:of|between)\s+(?P<a>[^,;?]+?)\s+(?:to|and|vs\.?|versus)\s+", re.I), r"\g<a> over "),

    (re.compile(r"\b(?:the\s+)?difference\s+between\s+(?P<a>[^,;?]+?)\s+and\s+", re.I), r"\g<a> minus "),
    # "take operating income, subtract interest expense, and divide by revenue": the steps in order
    (re.compile(r"\btake\s+(?P<a>[^,;?]+?),?\s+(?:then\s+)?(?P<op>subtract|deduct|add)\s+(?P<b>[^,;?]+?),?\s+"
                r"(?:and\s+)?(?:then\s+)?divide\s+(?:it\s+|that\s+|this\s+|the\s+(?:result|total|difference|sum)\s+)?"
                r"by\s+", re.I),
     lambda m: f"({m.group('a')} {'plus' if m.group('op').lower() == 'add' else 'minus'} {m.group('b')}) over "),
    # "take operating income, subtract SG&A": a difference said as steps, no division after it
    (re.compile(r"\btake\s+(?P<a>[^,;?]+?),?\s+(?:and\s+)?(?:then\s+)?(?P<op>subtract|deduct|add)\s+", re.I),
     lambda m: f"{m.group('a')} {'plus' if m.group('op').lower() == 'add' else 'minus'} "),
    (re.compile(r"\b(?:take\s+)?(?P<a>[^,;?]+?)\s+and\s+divide\s+(?:it|that|this|them)\s+by\s+", re.I), r"\g<a> over "),
    (re.compile(r"\bdivide\s+(?P<a>[^,;?]+?)\s+by\s+", re.I), r"\g<a> over "),
    # "what % of revenue was cost of goods sold at P&G?": the share asked with its whole named first ("what share of
    # revenue did Walmart spend on capex", "what percentage of Nvidia's FY2025 revenue was R&D": the company and year
    # said inside it are the question's, moved after the formula)
    (re.compile(r"\bwhat\s+(?:%|percent(?:age)?|share|portion|fraction|proportion)\s+of\s+(?P<b>[^,;?]+?)\s+"
                r"(?:was|is|were|are|went\s+to|go(?:es)?\s+to|did\s+(?P<who>(?:\S+\s+){0,3}?\S+)\s+(?:spend|pay\s+out)\s+(?:on|as|in))"
                r"\s+(?!from\b|in\b|at\b|by\b)(?P<a>[^,;?]+?)(?=\s+(?:at|for|in|during)\s|\s*[?,;]|$)", re.I),
     lambda m: _share_asked(m.group("a"), m.group("b"), m.group("who"))),
    # "what percentage of Apple's net sales did cost of sales represent?": the same, the part its verb's subject
    (re.compile(r"\bwhat\s+(?:%|percent(?:age)?|share|portion|fraction|proportion)\s+of\s+(?P<b>[^,;?]+?)\s+(?:did|does|do)\s+"
                r"(?P<a>[^,;?]+?)\s+(?:represent|account\s+for|make\s+up|comprise|constitute|take\s+up|consume|absorb)\b", re.I),
     lambda m: _share_asked(m.group("a"), m.group("b"), None)),
    # "how much of Meta's net income was paid out as dividends?": the same share, its part said last
    (re.compile(r"\bhow\s+much\s+of\s+(?P<b>[^,;?]+?)\s+(?:was|were|is|are|went)\s+(?:paid\s+out\s+as|paid\s+as|spent\s+on|"
                r"returned\s+(?:as|through|via)|used\s+(?:for|on)|to|converted\s+(?:in)?to)\s+(?P<a>[^,;?]+?)"
                r"(?=\s+(?:at|for|in|during)\s|\s*[?,;]|$)", re.I),
     lambda m: _share_asked(m.group("a"), m.group("b"), None)),
    # "unadjusted EBIT (as % of total revenue)": the figure as a share of the one the brackets name
    (re.compile(r"(?P<a>\b[\w&'-]+(?:\s+[\w&'-]+){0,3}?)\s*\(\s*as\s+(?:an?\s+)?(?:%|percent(?:age)?|pct|share)\s+of\s+"
                r"(?P<b>[^()]{2,40}?)\s*\)", re.I), r"\g<a> as a % of \g<b>"),
    # "how many times does Verizon's operating income cover its interest expense?": a coverage, A over B
    (re.compile(r"\bhow\s+many\s+times\s+(?:over\s+)?(?:does|did|do|could|can|would|will)\s+(?P<a>[^,;?]+?)\s+cover\s+"
                r"(?:its\s+|their\s+|the\s+)?(?P<b>[^,;?]+?)(?=\s+(?:at|for|in|during)\s|\s*[?,;]|$)", re.I),
     lambda m: _share_asked(m.group("a"), m.group("b"), None, "over")),
    # "Services mix", "data center revenue mix": that member's share of revenue (a mix by segment is refused)
    (re.compile(r"(?<![\w&'-])(?P<x>(?!(?:revenue|revenues|sales|segment|segments|product|products|business|geographic|"
                r"regional|the|its|their|sales|customer|channel)\b)[a-z][\w&'-]*)\s+(?:revenue\s+|sales\s+)?mix\b(?!\s+(?:by|of|across)\b)",
                re.I), r"\g<x> share of revenue"),
    # "how many times did Walmart turn over its inventory?": the turnover of that balance
    (re.compile(r"\bhow\s+many\s+times\s+(?:does|did|do)\s+(?P<who>[^,;?]+?)\s+turn\s+(?:over\s+)?(?:its\s+|their\s+|the\s+)?"
                r"(?P<x>inventor(?:y|ies)|(?:accounts\s+)?receivables?|(?:total\s+)?assets|(?:accounts\s+)?payables?)(?:\s+over)?\b",
                re.I), lambda m: f"what was {m.group('who')} {re.sub(r'ies$', 'y', m.group('x'))} turnover"),
)
# A company's possessive and the years said inside an operand ("Nvidia's FY2025 revenue"): the question's
_OWNER_AND_YEARS = re.compile(r"^(?P<owner>(?:[\w&.\-]+\s+){0,3}?[\w&.\-]+['\u2019]s?\s+)?(?P<years>(?:(?:fiscal\s+(?:year\s+)?|fy\s*'?)?"
                              r"(?:19|20)?\d\d\s+)*)(?P<rest>.+)$", re.I)


def _share_asked(a: str, b: str, who: str | None, op: str = "as a % of") -> str:
    """"what was A as a % of B" (or "A over B"), with the company and years said inside B, or the company that spent,
    set after the formula where the question's other words are read."""
    m = _OWNER_AND_YEARS.match(b.strip())
    owner, years, b = (m.group("owner") or "", m.group("years") or "", m.group("rest")) if m else ("", "", b)
    tail = " ".join(w for w in (owner.strip(), years.strip(), who or "") if w)
    return f"what was {a} {op} {b}" + (f" for {tail}" if tail else "")
_TO_RATIO = re.compile(r"(?P<a>[\w&'\-]+)\s+to\s+(?P<b>[\w&'\- ]+?)\s+ratio\b", re.I)


_DILUTED = re.compile(r"[,;:]?\s*\b(?:use|using|with|on)\s+(?:a\s+|the\s+)?(?:weighted[\s-]+average\s+)?"
                      r"(?P<kind>diluted|basic)\s+(?:weighted[\s-]+average\s+)?"
                      r"(?:shares?(?:\s+(?:count|outstanding))?|share\s+count|basis)\b\s*[,;:]?", re.I)
_PER_SHARE = re.compile(r"\bper\s+share\b", re.I)
# "dividends paid per share outstanding": a division by the count outstanding, said as a per-share figure
_PER_OUTSTANDING = re.compile(r"\s+per\s+(?:common\s+)?shares?\s+outstanding\b", re.I)


# "in percentage points", "(pp)": the unit a change of a percentage is asked in, which the change
# formula states (agent.planning.changes.spanned_changes); no operand's words.
_POINTS = re.compile(r"[,;]?\s*\(?\s*\b(?:in\s+|as\s+)?(?:percentage\s+points?|pct\.?\s+points?|pp|ppts?|"
                     r"points)\b\s*\)?", re.I)
_CHANGE_SAID = re.compile(r"\b(?:chang\w*|expan\w*|contract\w*|compress\w*|increas\w*|decreas\w*|"
                          r"declin\w*|improv\w*|widen\w*|narrow\w*|rise|rose|fell|fall|grew|growth)\b", re.I)
# "2-year revenue CAGR through fiscal 2025": the span said as the years it runs over
_CAGR_SPAN = re.compile(r"\b(?P<n>two|three|four|five|[2-5])[\s-]+(?:years?|yrs?)\s+(?P<what>[^,;?]{1,60}?)\s+"
                        r"(?P<cagr>cagr|compound(?:ed)?\s+annual\s+growth(?:\s+rate)?)\s+"
                        r"(?:through|thru|to|ending(?:\s+in)?|ended|for|in|as\s+of)\s+(?P<fy>(?:fiscal\s+(?:year\s+)?|fy\s*'?)?)"
                        r"(?P<year>(?:19|20)\d\d|(?<=fy)\d\d|(?<=fy ')\d\d|(?<=fy')\d\d|(?<=fy )\d\d)\b", re.I)
# "compound annual revenue growth rate": the metric inside the rate's name, said as "revenue CAGR"
_CAGR_AROUND = re.compile(r"\bcompound(?:ed)?\s+annual\s+(?P<what>(?!growth\b)[a-z&' -]{2,40}?)\s+growth(?:\s+rate)?\b",
                          re.I)

_COMPOUND_RATE = re.compile(r"\bcompound(?:ed)?\s+annual(?:\s+growth)?(?:\s+rate)?\b", re.I)  # its initials


def _cagr_years(m: re.Match) -> str:
    n = NUMBER_WORDS[m.group("n").lower()]
    end = int(m.group("year"))
    end += 2000 if end < 100 else 0  # "thru fy23"
    fy = "fiscal " if m.group("fy") else ""
    return f"{m.group('what')} {m.group('cagr')} from {fy}{end - n} to {fy}{end}"


# "2-year revenue CAGR" with its end year said elsewhere in the question ("Adobe 2-year revenue CAGR FY2023",
# "RTX 2023 2-year revenue CAGR?"): the span runs over the years before the one year the question names
_CAGR_YEARS = re.compile(r"\b(?P<n>two|three|four|five|[2-5])[\s-]+(?:years?|yrs?)\s+(?P<what>[^,;?]{1,60}?)\s+"
                         r"(?P<cagr>cagr|compound(?:ed)?\s+annual\s+growth(?:\s+rate)?)\b", re.I)
_A_YEAR = re.compile(r"\b(?P<fy>fiscal\s+(?:year\s+)?|fy\s*'?)?(?P<year>(?:19|20)\d\d)\b|\bfy\s*'?(?P<short>\d\d)\b", re.I)


def _cagr_end_elsewhere(text: str) -> str:
    """`text` with an N-year CAGR whose end year is the question's only year said as the span it runs
    over ("revenue CAGR from fiscal 2021 to fiscal 2023"), the year's own mention taken out; else as is."""
    m = _CAGR_YEARS.search(text)
    if m is None:
        return text
    years = [y for y in _A_YEAR.finditer(text) if not (m.start() <= y.start() < m.end())]
    if len({int(y.group("year") or 2000 + int(y.group("short"))) for y in years}) != 1:
        return text
    y = years[0]
    end = int(y.group("year") or 2000 + int(y.group("short")))
    n = NUMBER_WORDS[m.group("n").lower()]
    fy = "fiscal " if y.group("fy") or y.group("short") else ""
    said = f"{m.group('what')} {m.group('cagr')} from {fy}{end - n} to {fy}{end}"
    pieces = [(m.start(), m.end(), said)] + [(x.start(), x.end(), " ") for x in years]
    for start, stop, put in sorted(pieces, reverse=True):
        text = text[:start] + put + text[stop:]
    return text


# "what multiple of revenue is cash", "how many times interest expense was operating income": the
# quotient of the figure after the verb by the one before it (A is k times B: k = A ÷ B)
_MULTIPLE_OF = re.compile(r"\b(?:what|which)\s+multiple\s+of\s+(?P<b>(?:[^,;?]|,\s(?=[a-z]))+?)\s+"
                          r"(?:is|was|are|were)\s+"
                          r"(?P<tail>(?:[^,;?]|,\s(?=[a-z]))+)"
                          r"|\bhow\s+many\s+times\s+(?:(?:as\s+)?(?:large|big|high|much)\s+as\s+)?(?P<b2>[^,;?]+?)\s+"
                          r"(?:is|was|are|were)\s+(?P<tail2>[^,;?]+)", re.I)
# "the sum of A and B": which "and" joins the two operands is the one with an operand on both sides
_SUM_OF = re.compile(r"\b(?:the\s+)?sum\s+of\s+(?P<body>[^,;?]+)", re.I)
# Where an operand said before the question's own words may end: "... for Walmart", "... in fiscal 2024"
_OPERAND_STOP = re.compile(r"\s*,\s+|\s+(?=(?:at|for|in|during|as|over|divided|minus|plus|less|times|per|to)\s)"
                           r"|\s*$", re.I)


def _is_operand(words: str, lines: frozenset) -> bool:
    try:
        _operand(words, None, False, lines)
    except DefinitionError:
        return False
    return bool(words.strip())


def _operand_then_rest(tail: str, lines: frozenset) -> tuple[str, str]:
    """The operand the tail starts with and the words after it: the longest run up to a word that may
    start the question's next words ("for", "in", an operator) that is an operand ("net cash used in
    investing activities for Apple": the row, then "for Apple"); else the run up to the first such word."""
    cuts = [m.start() for m in _OPERAND_STOP.finditer(tail) if m.start() > 0]
    for at in reversed(cuts):
        if _is_operand(tail[:at], lines):
            return tail[:at], tail[at:]
    at = cuts[0] if cuts else len(tail)
    return tail[:at], tail[at:]


_SUBTRACT_FROM = re.compile(r"\b(?:subtract|deduct)\s+(?P<body>(?:[^,;?]|,\s(?=[a-z]))+)", re.I)


def _subtract_from(m: re.Match, lines: frozenset) -> str:
    """"subtract capex from operating cash flow": the second less the first, split at the "from" with
    an operand before it ("subtract proceeds from sales of investments from revenue"); else as said."""
    body = m.group("body")
    for f in re.finditer(r"\s+from\s+", body, re.I):
        below = body[: f.start()]
        if _is_operand(below, lines):
            above, rest = _operand_then_rest(body[f.end():], lines)
            if _is_operand(above, lines):
                return f"{above} minus {below}{rest}"
    return m.group(0)


def _multiple_of(m: re.Match, lines: frozenset) -> str:
    below = m.group("b") or m.group("b2")
    above, rest = _operand_then_rest(m.group("tail") or m.group("tail2"), lines)
    return f"what was {above} as a multiple of {below}{rest}"


# "the total of capex and acquisitions", "combined capex and acquisitions": a sum, unless the words joined by "and"
# are one figure's name ("the total of cash and cash equivalents")
_TOTAL_OF = re.compile(r"\b(?:the\s+)?(?:(?:combined\s+)?total\s+of|combined)\s+(?P<body>[^,;?]+)", re.I)


def _total_of(m: re.Match, lines: frozenset) -> str:
    whole, _ = _operand_then_rest(m.group("body"), lines)
    if _is_operand(whole, lines):
        return m.group(0)
    said = _sum_of(m, lines)
    return m.group(0) if said == m.group(0) else said


def _sum_of(m: re.Match, lines: frozenset) -> str:
    """The two operands of "the sum of A and B" split at the "and" with an operand on each side
    ("the sum of cash and cash equivalents and paid-in capital"), else at the first "and"."""
    body = m.group("body")
    ands = list(re.finditer(r"\s+and\s+", body, re.I))
    if not ands:
        return m.group(0)
    chosen = ands[0]
    for a in ands:
        left, right = body[: a.start()], body[a.end():]
        if _is_operand(left, lines) and _is_operand(_operand_then_rest(right, lines)[0], lines):
            chosen = a
            break
    return body[: chosen.start()] + " plus " + body[chosen.end():]


# "tesla capex net of depreciation? i.e. capex minus D&A", "total debt over equity... use long-term debt /
# equity": the formula the user writes after a name, in a clause of its own, is that name's definition
# "ROE (i.e. net income / equity)", "(e.g., A over B)": inside a bracket after a name the abbreviation only
# introduces the definition the bracket already sets off, and its periods would end the formula's clause
_BRACKET_IE = re.compile(r"\(\s*(?:i\.\s?e\.?|e\.\s?g\.?|ie|eg|that\s+is|namely)\s*[,:]?\s+(?=[^()]*\))", re.I)


def _bracket_ie(m: re.Match) -> str:
    rest = m.string[m.end():]
    return "(" if _has_operator(" " + rest[: rest.find(")")] + " ") else m.group(0)


_SAID_AGAIN = re.compile(r"\s*(?:\?|\.\.\.|\u2026|;|,)\s*(?:i\.?\s?e\.?|that\s+is|meaning|use|using)[,:]?\s+"
                         r"(?P<said>[^?()]+?)\s*(?P<end>[?.]?\s*)$", re.I)


# "EBITDA % margin", "COGS % margin", "operating income % margin": analysts' shorthand for a share of revenue
_PCT_MARGIN = re.compile(r"\b(?P<x>(?:[\w&'-]+\s+){0,3}?[\w&'-]+)\s*%\s*margins?\b", re.I)


def _pct_margin(m: re.Match) -> str:
    words = m.group("x").split()
    for k in range(len(words)):  # the longest amount named just before "% margin"
        x = " ".join(words[k:])
        if normalize(x) + " margin" in FORMULA_PHRASES:
            return " ".join(words[:k] + [x, "margin"])
        if normalize(x) in PHRASES:
            return " ".join(words[:k] + [x, "as a % of revenue"])
    return m.group(0)


def _said_again(m: re.Match) -> str:
    said = m.group("said")
    if not _has_operator(f" {said} "):
        return m.group(0)
    # a name that reads as a formula itself ("total debt over equity"): marked, so the whole is restated, never
    # the name's last operand defined; any other name is a plain bracket after it, as a restatement is written
    before = m.string[: m.start()].rsplit("?", 1)[-1]
    return f" (restated as {said}){m.group('end')}" if _has_operator(f" {before} ") else f" ({said}){m.group('end')}"


def unread_restatement(text: str, lines: frozenset = frozenset()) -> str | None:
    """The words of a formula the user wrote after a name ("... use long-term debt less current portion /
    equity") that the grammar cannot read, else None: the name's own reading is then no answer to what was
    asked, which is refused naming those words."""
    m = _SAID_AGAIN.search(text)
    if m is None or not _has_operator(f" {m.group('said')} "):
        return None
    try:
        parse_expression(m.group("said"), members=True, lines=lines)
    except DefinitionError as error:
        return str(error) or m.group("said")
    return None


def spoken_operators(text: str, lines: frozenset = frozenset()) -> str:
    """The text with operators said in words written as the grammar's ("A over B"). A registry
    formula's own name ("debt to equity ratio", "R&D to revenue ratio") is left alone. "Use diluted
    shares" (or basic) with a per-share figure is the divisor: "per diluted share". `lines`: the rows
    some company prints, by which an operand's extent is told from the question's next words."""
    out = _PCT_MARGIN.sub(_pct_margin, _SAID_AGAIN.sub(_said_again, _BRACKET_IE.sub(_bracket_ie, text)))
    out = _CAGR_SPAN.sub(_cagr_years, _COMPOUND_RATE.sub("CAGR", _CAGR_AROUND.sub(r"\g<what> CAGR", out)))
    out = _cagr_end_elsewhere(out)
    if _CHANGE_SAID.search(out):
        out = _POINTS.sub(" ", out)
    said = _DILUTED.search(out)
    if said and _PER_SHARE.search(out):
        out = _PER_SHARE.sub(f"per {said.group('kind').lower()} share", _DILUTED.sub(" ", out))
    out = _PER_OUTSTANDING.sub(" over shares outstanding", out)
    out = _SUM_OF.sub(lambda m: _sum_of(m, lines), out, count=1)
    out = _TOTAL_OF.sub(lambda m: _total_of(m, lines), out, count=1)
    out = _MULTIPLE_OF.sub(lambda m: _multiple_of(m, lines), out, count=1)
    out = _SUBTRACT_FROM.sub(lambda m: _subtract_from(m, lines), out, count=1)
    for pattern, replacement in _SPOKEN:
        out = pattern.sub(replacement, out, count=1)

    def to_ratio(m: re.Match) -> str:
        start = max(0, m.start() - 40)
        said = normalize(out[start : m.end()])
        if any(said.endswith(p) for p in FORMULA_PHRASES):
            return m.group(0)
        return f"{m.group('a')} over {m.group('b')}"

    return _metric_to_metric(_TO_RATIO.sub(to_ratio, out), lines)


_JOINED_TO = re.compile(r"(?<=\w)(?:-to-|:)(?=[a-z])", re.I)  # "cash-to-assets", "cash:assets" (never "… end: total")


def _names_amount(words: str, lines: frozenset = frozenset()) -> bool:
    """Whether the words are exactly an amount an operand can be: a metric's name, a row some company
    prints (`lines`), or a registry amount computed from metrics ("free cash flow", "net debt")."""
    said = normalize(words).strip()
    if said in PHRASES or said in _DEBT_WORDS or _FIXED_ASSETS.fullmatch(said):
        return True
    if lines and _printed(said, lines):
        return True
    key = FORMULA_PHRASES.get(said)
    return key is not None and FORMULAS[key].unit == "USD" and _operand_tree(said) is not None


def _operand_tree(said: str) -> dict | None:
    try:
        return _operand(said)
    except DefinitionError:
        return None


def _metric_to_metric(text: str, lines: frozenset = frozenset()) -> str:
    """"cash to current liabilities", "cash-to-assets", "SG&A:revenue ratio": a ratio named by its two
    metrics joined by "to", as "A over B", when the words on both sides are each exactly a metric's
    name and together no registry ratio's ("long-term debt to equity" stays that ratio)."""
    text = _JOINED_TO.sub(" to ", text)
    words = list(re.finditer(r"[^\s,;?]+", text))
    for k, w in enumerate(words):
        if w.group(0).lower() != "to":
            continue
        # a printed row on either side only when "ratio" follows ("A to B ratio"): "net income attributable
        # to noncontrolling interests" is one row, no quotient
        said_ratio = re.match(r"(?:[^,;?]|,\s(?=[a-z]))*?\bratio\b", text[w.end():])  # "property, plant and .."
        rows = lines if said_ratio else frozenset()
        left = next((i for i in range(max(0, k - 8), k) if _names_amount(text[words[i].start():w.start()], rows)),
                    None)
        right = next((j for j in range(min(len(words), k + 9), k + 1, -1)
                      if _names_amount(text[w.end():words[j - 1].end()], rows)), None)
        if left is None or right is None or (rows and _names_amount(
                text[words[left].start():words[right - 1].end()], rows)):
            continue
        named = normalize(text[words[left].start():words[right - 1].end()])
        if any(named == p or named + " ratio" == p for p in (named, named + " ratio") if p in FORMULA_PHRASES):
            continue
        end = words[right].end() if right < len(words) and words[right].group(0).lower() == "ratio" else words[right - 1].end()
        return text[:w.start()] + "over" + text[w.end():words[right - 1].end()] + text[end:]
    return text


def to_defined(text: str, names: list[str], lines: frozenset = frozenset()) -> str:
    """"total debt to total capital", "capex to my adjusted EBITDA": a ratio said with "to" whose one side is a
    measure the user defined (`names`) and the other an amount, as "A over B", so the user's definition is the
    one divided by, even where the words together are a registry ratio's name (whose own convention may differ)."""
    for name in sorted(names, key=len, reverse=True):
        n = re.escape(name)
        for m in reversed(list(re.finditer(rf"(?<![\w&])(?:the\s+)?{n}\s+to\s+(?P<b>[^,;?.]+)|"
                                           rf"(?P<a>[^,;?.]+?)\s+to\s+(?:the\s+|my\s+|our\s+)?{n}(?![\w&])", text, re.I))):
            side = m.group("a") if m.group("a") is not None else m.group("b")
            words = side.split()
            # the words nearest "to" that are exactly an amount ("value of total debt": "total debt")
            spans = range(len(words)) if m.group("a") is not None else range(len(words), 0, -1)
            hit = next((i for i in spans if _names_amount(" ".join(words[i:] if m.group("a") is not None
                                                                    else words[:i]), lines)
                        or normalize(" ".join(words[i:] if m.group("a") is not None else words[:i])) in names), None)
            if hit is None:
                continue
            to = re.search(r"\s+to\s+", text[m.start():m.end()] if m.group("a") is None else
                           text[m.start("a") + len(side):m.end()])
            at = (m.start() if m.group("a") is None else m.start("a") + len(side)) + to.start()
            text = text[:at] + " over " + text[at + len(to.group(0)):]
            # "debt to equity ratio": the quotient's own word after its divisor names no figure of its own ("equity
            # ratio"), it is the quotient just written
            after = at + len(" over ") + (len(" ".join(words[:hit])) if m.group("a") is None else len(name))
            ratio = re.match(r"\s+ratio\b", text[after:], re.I)
            if ratio and (m.group("a") is not None or normalize(" ".join(words[:hit])) not in names):
                text = text[:after] + text[after + ratio.end():]
    return text


# --- changes of a ratio, and compound growth --------------------------------------------------------

def _sum(*metrics: str) -> dict:
    node = {"metric": metrics[0]}
    for m in metrics[1:]:
        node = {"op": "+", "args": [node, {"metric": m}]}
    return node


# Registry percentages over revenue whose numerator is itself a sum or difference (EBITDA, free cash flow, SG&A
# as its two rows), each as the tree it computes, so a change in them is the same points change as a margin's
_QUOTIENTS: dict[str, dict] = {
    "ebitda_margin": {"op": "/", "args": [_sum("operating_income", "depreciation_amortization"), {"metric": "revenue"}]},
    "ebitda_margin_dep_amort": {"op": "/", "args": [_sum("operating_income", "depreciation", "amortization_intangibles"),
                                                    {"metric": "revenue"}]},
    "ebitda_margin_depreciation": {"op": "/", "args": [_sum("operating_income", "depreciation"), {"metric": "revenue"}]},
    "ebit_margin": {"op": "/", "args": [{"metric": "operating_income"}, {"metric": "revenue"}]},
    "fcf_margin": {"op": "/", "args": [{"op": "-", "args": [{"metric": "operating_cash_flow"}, {"metric": "capex"}]},
                                       {"metric": "revenue"}]},
    "sga_pct_revenue_parts": {"op": "/", "args": [_sum("selling_marketing", "general_administrative"), {"metric": "revenue"}]},
}


def formula_tree(key: str) -> dict | None:
    """A registry formula as a tree when it is a quotient of two same-year metrics ("Gross profit ÷
    Revenue"), with its fallbacks of that shape as alternatives ("first"); else None. A margin
    computed from its cost ("(Revenue − Cost of revenue) ÷ Revenue") is that shape too."""
    trees, seen = [], set()
    while key and key in FORMULAS and key not in seen:
        seen.add(key)
        f = FORMULAS[key]
        ins = [i.metric for i in f.inputs]
        if key in _QUOTIENTS:
            trees.append(_QUOTIENTS[key])
        elif len(ins) == 2 and not any(i.offset for i in f.inputs) and f.operator == "÷":
            trees.append({"op": "/", "args": [{"metric": ins[0]}, {"metric": ins[1]}]})
        elif len(ins) == 2 and not any(i.offset for i in f.inputs) and f.operator == "−" and f.unit == "percent":
            trees.append({"op": "/", "args": [{"op": "-", "args": [{"metric": ins[0]}, {"metric": ins[1]}]},
                                              {"metric": ins[0]}]})
        else:
            break
        key = f.fallback
    if not trees:
        return None
    return trees[0] if len(trees) == 1 else {"op": "first", "args": trees}


def pinned(tree: dict, ticker: str) -> dict:
    """The tree with every operand read from company `ticker` (a formula across two companies)."""
    if "metric" in tree or "line" in tree:
        return {**tree, "ticker": ticker}
    if "args" in tree:
        return {**tree, "args": [pinned(t, ticker) for t in tree["args"]]}
    return tree


def shifted(tree: dict, offset: int) -> dict:
    """The tree with every operand `offset` fiscal years from its own."""
    if "metric" in tree or "line" in tree:
        return {**tree, "offset": tree.get("offset", 0) + offset}
    if "args" in tree:
        return {**tree, "args": [shifted(t, offset) for t in tree["args"]]}
    return tree


def points_change(tree: dict, span: int) -> dict:
    """A percentage's change over `span` years, in percentage points: the ratio now less the ratio
    then (evaluated × 100 under the unit "points"), never a growth rate of a rate."""
    return {"op": "-", "args": [tree, shifted(tree, -span)]}


def compound_growth(metric: str, span: int) -> dict:
    """The compound annual growth rate of a metric over `span` years: (now ÷ then)^(1/span) − 1
    (evaluated × 100 under the unit "percent")."""
    ratio = {"op": "/", "args": [{"metric": metric}, {"metric": metric, "offset": -span}]}
    return {"op": "-", "args": [{"op": "root", "n": str(span), "args": [ratio]}, {"const": "1"}]}
