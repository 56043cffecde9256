"""Parse the words of a formula into an expression tree: each operand, then sums, differences, products and the
one top quotient.

Why: people say "A plus B over C" meaning (A + B) ÷ C, "A as a % of B", "A net of B and C"; the parser turns
each spoken shape into the same small tree the Decimal engine evaluates, and refuses a shape that has no
figure (a ratio plus dollars) rather than guessing. An operand may itself hold a bracketed expression, so
operands and expressions are read together here.
"""

from __future__ import annotations

import functools
import re
from decimal import Decimal, InvalidOperation

from agent.planning.words import FILLER
from agent.retrieval.concepts import find_phrases, METRICS, normalize, PHRASES
from agent.retrieval.finance import FORMULA_PHRASES, FORMULAS
from agent.retrieval.line_items import tokens as line_tokens
from agent.planning.formula_operands import (AT_YEAR_END, AT_YEAR_START, BOTH_ENDS, debt_tree, FIXED_ASSETS,
                                             GROSS_INTEREST, OPERAND_INITIALS, OPERAND_WORDS, PARTS_ASIDE, PARTS_DEBT, PRIOR_YEAR,
                                             tagged_or_computed, TO_PARENT, UNADJUSTED)
from agent.planning.formula_syntax import (ADD, ADD_OR_SUB, CLOSE, DefinitionError, DIV, FRACTION, holds_operator,
                                           is_a_whole, kind_of_unit, MUL, OPEN, OWN, SHARE_OF, split_top, SUB, unwrap)
from agent.planning.formula_trees import (are_balances, EXPENSES, is_amount, is_expense, is_profit, is_quotient,
                                          metrics_of, PROFITS, shifted, unit_of)
from agent.planning.operand_rows import (as_said, bracketed_row, INLINE, INNER, is_member_word, is_plainly_printed,
                                         is_printed, member_of, member_words, only_member_metric)


# "change in operating income", "the increase in revenue", "operating income change": a year's change, in dollars
_CHANGE_IN = re.compile(r"(?:the\s+)?(?:(?:year[\s-]over[\s-]year|yoy|y/y|annual|dollar)\s+)?(?:change|increase|delta)\s+in\s+"
                        r"(?:the\s+|its\s+)?(?P<a>.+)|(?P<b>.+?)\s+(?:change|delta)", re.I)


def read_operand(text: str, names: dict[str, dict] | None = None, members: bool = False,
                 lines: frozenset = frozenset()) -> dict:
    text = re.sub(r"[,;]\s*$", "", text)  # "A minus B, divided by C": the comma sets off the division
    change = _CHANGE_IN.fullmatch(text.strip())
    if change is not None and normalize(text).strip() not in PHRASES:  # ("net change in cash": a reported row)  # "change in operating income": the year's figure less the prior year's
        said = read_operand(change.group("a") or change.group("b"), names, members, lines)
        if not is_amount(said):
            raise DefinitionError(text.strip())  # a ratio's change is in points: agent.planning.changes reads it
        return {"op": "-", "args": [said, shifted(said, -1)]}
    inner = unwrap(text)
    if inner is not None:
        return parse_expression(inner, names, members=members, lines=lines)
    aside = re.fullmatch(r"\s*([^()]+?)\s*\(([^()]+)\)\s*", text)
    parts = PARTS_ASIDE.fullmatch(aside.group(2).strip()) if aside else None
    if parts is not None and PARTS_DEBT.fullmatch(re.sub(r"^(?:total|the)\s+", "", normalize(aside.group(1)).strip())):
        # "term debt (current + non-current)", "long-term debt (current and long-term portions)": the current portion
        # of long-term debt and the long-term debt, as the user lists them (never a total with commercial paper)
        # (long-term debt alone when no current portion is tagged, or when the long-term debt tagged already holds it)
        return {"op": "first", "args": [{"op": "+", "args": [{"metric": "ltd_maturities_current"},
                                                             {"metric": "long_term_debt"}]},
                                        {"metric": "ltd_with_current"}, {"metric": "long_term_debt"}]}
    if aside:  # "free cash flow (operating cash flow minus capex)": a named operand, defined in the user's words
        try:
            named = read_operand(aside.group(1), names, members, lines)  # the name must be one (else refused as written)
        except DefinitionError:
            row = bracketed_row(text, lines)  # "Interest and other income (expense)": a row printed so
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
                summed = {"op": "+", "args": [read_operand(f"current {base}", names, False, lines),
                                              read_operand(f"noncurrent {base}", names, False, lines)]}
            except DefinitionError:
                if not is_a_whole(named):
                    raise  # the row named is maybe one part alone: no figure of the whole asked
                return named
            if not is_a_whole(named):
                # "accrued liabilities (current + non-current)" where only the current row is printed: that row is
                # one part, never the whole asked (refused for the part not reported rather than answered short)
                return summed
            return {"op": "first", "args": [summed, named]}
        if holds_operator(aside.group(2)):
            said = parse_expression(aside.group(2), names, members=members, lines=lines)  # the user's definition wins
            if kind_of_unit(unit_of(said, "")) != kind_of_unit(unit_of(named, "")):
                # "stockholders' equity (net debt over year-end equity)": a quotient is no definition of an amount
                # (nor an amount of a ratio); the aside restates the whole formula the operand ends, which reads on
                return named
            return said
        restated = _amount_said_of(named, aside.group(2))
        if restated is not None:
            return restated
        return named  # an aside that is no formula ("(as reported)")
    if any(ch in text for ch in OPEN + CLOSE):
        row = bracketed_row(text, lines)  # "income (loss) before income taxes", "cash provided (used) by ..."
        if row is None:
            raise DefinitionError(text.strip())
        return {"line": row}
    t = UNADJUSTED.sub("", normalize(text).strip())  # "unadjusted operating income": the figure as reported
    t = TO_PARENT.sub(r"\1", t)  # "net income attributable to JCI": the parent's net income, the metric's own
    own = re.sub(r"^(?:the|a|an|its|their|my|our)\s+", "", t)
    if names and own in names:  # a measure the user defined is theirs, even under a registry name ("total capital")
        return names[own]
    debt = debt_tree(re.sub(r"^(?:the|a|an|its|their)\s+", "", t))
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
        node = tagged_or_computed(spans[0][2])
        if "metric" in node and METRICS[node["metric"]].by_label \
                and line_tokens(t) != line_tokens(METRICS[node["metric"]].label):
            node["said"] = t  # "net sales": the row printed so, where the company prints two of the metric's rows
        return node
    gross = GROSS_INTEREST.fullmatch(t)
    if gross:  # "gross interest expense": the interest expense the income statement reports
        return tagged_or_computed("interest_expense")
    if t in OPERAND_INITIALS:  # "CFO - capex", "NI / revenue": initials that name a figure only inside a formula
        return tagged_or_computed(OPERAND_INITIALS[t])
    if t in OPERAND_WORDS:  # "capex + acquisitions": the cash-flow row, never the goodwill roll-forward's
        return {"metric": OPERAND_WORDS[t]}
    spent = re.fullmatch(r"(?P<x>.+?)\s+(?:expenses?|costs?|spend(?:ing)?)", t)
    if spent and PHRASES.get(spent.group("x")) in EXPENSES:  # "research & development expense": the expense itself
        return tagged_or_computed(PHRASES[spent.group("x")])
    inflected = next((PHRASES[v] for v in (t + "es", t + "s", t[:-1] if t.endswith("s") else "") if v in PHRASES), None)
    if inflected is not None and " " not in t:  # "tax" (the metric says "taxes"), "dividend payment": the same figure
        return tagged_or_computed(inflected)
    formula = FORMULA_PHRASES.get(t)
    if formula is not None:  # "free cash flow per share": a registry sum or difference, as its own operands
        f = FORMULAS[formula]
        if len(f.inputs) == 1 and not f.inputs[0].offset and f.unit == METRICS[f.inputs[0].metric].unit:
            return {"metric": f.inputs[0].metric, "of": formula}  # "EBIT": operating income, the convention its name takes
        if len(f.inputs) == 2 and f.operator in ("+", "−") and not any(i.offset for i in f.inputs):
            node = {"op": "+" if f.operator == "+" else "-", "args": [{"metric": i.metric} for i in f.inputs]}
            forms = [node, *_summed_fallbacks(f)]
            # "EBITDA less capex": the sum by the registry's own chain of forms (D&A as the company tags it)
            return {**node, "of": formula} if len(forms) == 1 else {"op": "first", "args": forms, "of": formula,
                                                                    "forms": True}
        if len(f.inputs) == 2 and f.operator == "÷" and not any(i.offset for i in f.inputs) \
                and f.unit in ("percent", "ratio"):  # "gross margin minus operating margin": the registry's quotients
            return {"op": "/", "args": [{"metric": i.metric} for i in f.inputs], "of": formula,
                    **({"percent": True} if f.unit == "percent" else {})}
    fixed = FIXED_ASSETS.fullmatch(t)
    if fixed and not (lines and is_printed(t, lines)):  # "fixed assets", "net PP&E" (no row printed in those words):
        return {"metric": "ppe_net"}  # the curated net balance
    if fixed and "fixed" in t:  # "fixed assets", which a few companies print as a row: the curated balance first
        return {"op": "first", "args": [{"metric": "ppe_net"}, {"line": as_said(said, t, lines)}]}
    at = AT_YEAR_END.fullmatch(t) or AT_YEAR_START.fullmatch(t)
    if at:  # "inventory at year end", "ending receivables": the balance at the year's close (its opening: a year before)
        node = read_operand(at.group("x") or at.group("y"), None, False, lines)
        if not node.get("offset") and ("line" in node or are_balances(node) or (
                "metric" in node and METRICS[node["metric"]].period == "instant")):
            return shifted(node, -1) if at.re is AT_YEAR_START else node
        raise DefinitionError(text.strip())
    before = PRIOR_YEAR.fullmatch(t)
    if before:  # "prior year revenue", "last year's capex": the operand a fiscal year earlier
        node = read_operand(before.group("what") or before.group("what2"), names, members, lines)
        if "metric" in node or "line" in node:
            return {**node, "offset": node.get("offset", 0) - 1}
    avg = re.fullmatch(r"(?:average|avg\.?|mean)\s+(?:of\s+)?(?:the\s+)?(.+)", t)
    if avg and BOTH_ENDS.search(avg.group(1)):
        # "average of beginning and end merchandise inventories", "average inventory at the beginning and end of the
        # year": the year's opening and closing balances, as "average inventory" is
        return read_operand(f"average {BOTH_ENDS.sub(' ', avg.group(1)).strip()}", names, members, lines)
    if avg:  # "average total assets": the year's opening and closing balances, halved (a named convention)
        spans = find_phrases(avg.group(1), PHRASES)
        if len(spans) == 1 and spans[0][0] == 0 and spans[0][1] == len(avg.group(1).split()) \
                and METRICS[spans[0][2]].period == "instant":
            key = spans[0][2]
            return {"op": "avg", "args": [{"metric": key}, {"metric": key, "offset": -1}]}
        try:  # "average PP&E", "average accounts payable": a balance the company prints, averaged likewise
            node = read_operand(avg.group(1), None, False, lines)
        except DefinitionError:
            node = None
        if node is not None and not node.get("offset") and ("line" in node or (
                "metric" in node and METRICS[node["metric"]].period == "instant") or are_balances(node)):
            return {"op": "avg", "args": [node, shifted(node, -1)]}
    spans = find_phrases(t, PHRASES)
    own = _in_its_own_words(t, spans)
    if own is not None:
        if lines and is_printed(t, lines):  # "cash dividends paid": the company's row printed so first
            return {"op": "first", "args": [{"line": as_said(said, t, lines)}, tagged_or_computed(own)]}
        return tagged_or_computed(own)
    of_member = _metric_of_member(t, spans) if members else None
    if of_member is not None:  # "operating income of AWS", "revenue from the Data Center segment": the member's figure
        return of_member
    if members and len(spans) == 1 and spans[-1][1] == len(t.split()) and 0 < spans[-1][0] \
            and len([w for w in t.split()[: spans[-1][0]] if w not in INNER]) <= 3:
        # in a definition, "AWS operating income": the metric of the member its first words name
        # (resolved, or refused naming it, against the filing's members in retrieve)
        before = [w for w in t.split()[: spans[-1][0]] if is_member_word(w)]
        if members:  # "Family of Apps operating income", "energy generation and storage revenue": a name's inner words
            before = [w for i, w in enumerate(t.split()[: spans[-1][0]])
                      if is_member_word(w) or (w in INNER and 0 < i < spans[-1][0] - 1)]
        if before and len(before) == spans[-1][0] and not re.search(r"\w['\u2019]s\b", text):  # "apple's"
            node = {"metric": spans[-1][2], "member": " ".join(before)}
            if lines and is_printed(t, lines):
                # "other operating income", "operating lease liabilities", "other assets": first the row
                # printed so (a member only when no row is), tried in that order against the facts
                return {"op": "first", "args": [{"line": as_said(said, t, lines)}, node]}
            return node
    if lines and is_printed(t, lines):
        return {"line": as_said(said, t, lines)}
    if lines and members is True and is_plainly_printed(said):
        # "total costs and expenses" in a definition: words every statement row may print, no word of
        # a name left ('tokens' keeps none); the company's primary row printed exactly so, or refused in retrieve
        return {"line": said}
    if lines and _names_an_expense(t, lines):
        return {"line": said}
    both = _two_amounts(t, names, lines) if members == INLINE else None
    if both is not None:  # "cash and short-term investments over total assets": the two amounts together
        return both
    raise DefinitionError(text.strip())


def _two_amounts(t: str, names, lines: frozenset) -> dict | None:
    """Two amounts joined by "and" ("cash and short-term investments", "dividends and buybacks") where the words
    together name no figure: their sum; else None."""
    parts = re.split(r"\s+and\s+", t)
    if len(parts) != 2:
        return None
    try:
        nodes = [read_operand(p, names, False, lines) for p in parts]
    except DefinitionError:
        return None
    if not all(is_amount(n) or (n.get("op") == "first" and all(is_amount(a) for a in n["args"])) for n in nodes):
        return None
    return {"op": "+", "args": nodes}


# A metric said before its member: "operating income of AWS", "revenue from the Data Center segment", "sales in
# Greater China"; the unit's own word after the name ("segment") is no part of it
_OF_MEMBER = re.compile(r"^(?P<member>.+?)(?:\s+(?:segments?|business|division|unit|region|category|product\s+line))?$")
_OF_WORDS = frozenset({"of", "from", "in", "at"})  # "for" leads a definition's company and year ("... for tesla 2024")
# Words after "of" that say the whole company or a period, never a member
_NO_MEMBER = frozenset("company firm group total year years period quarter business segment segments whole entire "
                       "consolidated overall all continuing discontinued operations beginning end ending start opening "
                       "closing average prior previous current last next this that constant currency millions billions "
                       "thousands dollars usd percent percentage basis terms".split())


def _metric_of_member(t: str, spans: list) -> dict | None:
    """A metric's name, then "of" / "from" / "in" and a member's name ("operating income of AWS"): that
    member's figure, resolved (or refused naming it) against the filing's members in retrieve; else None.

    Why: said in this order the member was left out of the operand, and the formula was refused, or its
    words answered with the company's total."""
    words = t.split()
    if len(spans) != 1 or spans[0][0] != 0 or spans[0][1] + 1 >= len(words) or words[spans[0][1]] not in _OF_WORDS:
        return None
    rest = words[spans[0][1] + 1:]
    if rest and rest[0] in ("the", "its", "their"):
        rest = rest[1:]
    m = _OF_MEMBER.match(" ".join(rest))
    said = m.group("member").split() if m else []
    if not 0 < len(said) <= 4 or set(said) & _NO_MEMBER or find_phrases(" ".join(said), PHRASES):
        return None
    if not all(is_member_word(w) or (w in INNER and 0 < i < len(said) - 1) for i, w in enumerate(said)):
        return None
    return {"metric": spans[0][2], "member": " ".join(said)}


_EXPENSE_LAST = re.compile(r"(?:expenses?|costs?|amortization|depreciation|charges?)$")
_EXPENSE_NAME_WORDS = 4


def _names_an_expense(t: str, lines: frozenset) -> bool:
    """Words that name an expense a company reports in a note rather than on a statement ("advertising expense",
    "advertising costs"): a line, resolved against the company's labels and the taxonomy's standard labels, or
    refused naming it, in retrieve. Only a short name whose first word some statement row prints and whose last
    word says it is an expense, so no question's words ("what was apple's ...") are read as one.

    Why: "advertising expense divided by net sales" was refused although the 10-K reports the expense, and its
    words, unread as an operand, were looked up whole as a line that matched the company's advertising revenue."""
    words = t.split()
    if not 2 <= len(words) <= _EXPENSE_NAME_WORDS or not _EXPENSE_LAST.fullmatch(words[-1]):
        return False
    if any(not re.fullmatch(r"[a-z][a-z-]*", w) or w in FILLER for w in words):
        return False
    return is_printed(words[0], lines) or any(words[0] in row for row in lines)


def _in_its_own_words(t: str, spans: list) -> str | None:
    """The metric whose own names say every word of the operand ("cash dividends paid": "cash dividends" and
    "dividends paid" are both names of dividends paid), else None.

    Why: words run together from two names of one figure name that figure, not a row some other company prints;
    asked of a company that prints no row so, the operand was refused although the figure is reported."""
    keys = {k for _, _, k in spans}
    words = t.split()
    if len(keys) != 1 or len(words) < 2:
        return None
    key = keys.pop()
    covered = set()
    for name in _names_of().get(key, ()):
        n = len(name)
        for i in range(len(words) - n + 1):
            if tuple(words[i:i + n]) == name:
                covered.update(range(i, i + n))
    return key if len(covered) == len(words) else None


@functools.cache
def _names_of() -> dict[str, tuple[tuple[str, ...], ...]]:
    """Each metric's names as word tuples (agent.retrieval.concepts.PHRASES)."""
    names: dict[str, list[tuple[str, ...]]] = {}
    for name, key in PHRASES.items():
        names.setdefault(key, []).append(tuple(name.split()))
    return {k: tuple(v) for k, v in names.items()}


def _amount_said_of(named: dict, said: str) -> dict | None:
    """The amount an aside names after a margin, when the margin is its quotient: "gross margin (gross profit)" is
    the dollars (as Apple and Intel print "Gross margin"), the user's own word for which figure they mean; else None.

    Why: read as the percentage, "R&D divided by gross margin (gross profit)" divides dollars by a percentage and
    states a figure for nothing."""
    if not is_quotient(named) or not all(is_amount(a) for a in named["args"]):
        return None
    try:
        amount = read_operand(said)
    except DefinitionError:
        return None
    alternatives = amount["args"] if amount.get("op") == "first" else [amount]
    if not all(is_amount(a) for a in alternatives) or not set(metrics_of(named["args"][0])) & set(metrics_of(amount)):
        return None
    return amount


# The words that take a member out of the company's figure (a bare dash may set off a company and year instead)
_TAKEN_OUT = re.compile(r"\s+(?:excluding|less|minus|ex)\s+", re.I)


def _whole_of_members(node: dict) -> bool:
    """A company's figure of a period that its segments, products or regions break down (revenue, operating
    income): a member may be taken out of it."""
    return set(node) == {"metric"} and node["metric"] in METRICS and METRICS[node["metric"]].period == "duration" \
        and METRICS[node["metric"]].unit == "USD"


def _terms(text: str, names: dict[str, dict] | None = None, members: bool = False,
           lines: frozenset = frozenset()) -> dict:
    """Sums and differences of products, left to right."""
    row = _row_with_its_exclusion(text, lines)
    if row is not None:
        return row
    pieces = split_top(text, ADD_OR_SUB)
    parsed = {}
    for i in range(0, len(pieces), 2):
        try:
            parsed[i] = _products(pieces[i], names, members, lines)
        except DefinitionError:
            listed = _listed(pieces[i], names, members, lines) if i and SUB.fullmatch(pieces[i - 1]) else None
            if listed is not None:  # "operating cash flow net of capex and dividends": both deducted
                parsed[i] = listed
                continue
            if members != INLINE or len(pieces) < 3 or member_words(pieces[i]) is None:
                raise
    if len(parsed) < (len(pieces) + 1) // 2:
        # "iPhone minus Mac net sales": a bare name beside members of one metric is a member of it too
        metric = only_member_metric(list(parsed.values()))
        if metric is None and len(pieces) == 3 and 0 in parsed and _TAKEN_OUT.fullmatch(pieces[1]) \
                and _whole_of_members(parsed[0]):
            # "operating income excluding AWS", "revenue less Greater China": the company's figure without that
            # member's (resolved, or refused naming it, against the filing's members in retrieve)
            return {"op": "-", "args": [parsed[0], {"metric": parsed[0]["metric"], "member": member_words(pieces[2])}]}
        if metric is None:
            raise DefinitionError(next(pieces[i] for i in range(0, len(pieces), 2) if i not in parsed).strip())
        for i in range(0, len(pieces), 2):
            if i not in parsed:
                parsed[i] = member_of(member_words(pieces[i]), metric, lines, line_first=False)
    node = parsed[0]
    for i in range(1, len(pieces) - 1, 2):
        op = "+" if ADD.fullmatch(pieces[i]) else "-"
        right = parsed[i + 1]
        inside = bool(set(metrics_of(right)) & set(metrics_of(node)))  # "EBITDA excluding D&A": already added back
        if op == "-" and _EXCLUDING.search(pieces[i]) and (node.get("metric") in PROFITS or node.get("of") in PROFITS) \
                and is_expense(right) and not inside:
            # "operating income excluding stock-based compensation": the expense was deducted to reach
            # the profit, so excluding it adds it back (a named convention the restated formula states)
            node = {"op": "+", "args": [node, right], "added_back": True}
            continue
        if op == "-" and _EXCLUDING.search(pieces[i]) and node.get("op") == "/" and is_profit(node["args"][0]) \
                and is_expense(right) and not inside:
            # "gross margin excluding amortization of acquired intangibles": the margin with the expense added back
            # to its numerator, never a dollar amount taken from a percentage
            num, den = node["args"]
            node = {**{k: v for k, v in node.items() if k != "of"},
                    "args": [{"op": "+", "args": [num, right], "added_back": True}, den]}
            continue
        if is_quotient(node) and is_amount(right) or is_amount(node) and is_quotient(right):
            raise DefinitionError(text.strip())  # a ratio plus or minus dollars: no figure
        if "const" in node and is_amount(right):
            raise DefinitionError(text.strip())  # "1 minus dividends paid": a pure number less dollars, no figure
        node = {"op": op, "args": [node, right]}
    return node


_ROW_EXCLUSION = re.compile(r"\s(?:excluding|net\s+of|less)\s", re.I)


def _row_with_its_exclusion(text: str, lines: frozenset) -> dict | None:
    """"purchases of property and equipment excluding finance leases": words a printed row's name holds
    ("Purchases of property and equipment excluding finance leases, net of sales"), its "excluding" or "net of"
    included, are that row, never a difference of two figures (the row is found, or refused, in retrieve)."""
    if not lines or not _ROW_EXCLUSION.search(f" {text} ") or split_top(text, DIV)[1:] or ADD.search(text):
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


def _products(text: str, names: dict[str, dict] | None = None, members: bool = False,
              lines: frozenset = frozenset()) -> dict:
    parts = split_top(text, MUL)
    node = read_operand(parts[0], names, members, lines)
    for p in parts[2::2]:
        node = {"op": "*", "args": [node, read_operand(p, names, members, lines)]}
    return node


def parse_expression(text: str, names: dict[str, dict] | None = None, *, members: bool = False,
                     lines: frozenset = frozenset()) -> dict:
    """An expression tree over table metrics, constants and the thread's named formulas (`names`);
    with `members` (an explicit definition), also a metric narrowed by a member's name; with `lines`
    (agent.planning.companies.line_names), also a row some company prints ("marketing expense").
    Outside brackets a division splits the whole ("A plus B over C" is (A + B) ÷ C); brackets group."""
    inner = unwrap(text)
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
    parts = split_top(text.strip(), DIV, maxsplit=1)
    if len(parts) == 3:
        below, scale = _scaled(parts[2])
        try:  # the numerator's words are refused first, as written
            num, failed = _terms(parts[0], names, members, lines), None
        except DefinitionError as error:
            if members != INLINE:
                raise
            num, failed = None, error
        den = _terms(below, names, members, lines)
        if members == INLINE and OWN.match(below) and num is not None and num.get("member") \
                and "metric" in num and "metric" in den and not den.get("member"):
            # "iPhone operating income as a percentage of its revenue": the member's own revenue
            den = {**den, "member": num["member"]}
        total = den.get("metric") if "metric" in den and not den.get("member") and not den.get("offset") \
            and METRICS[den["metric"]].period == "duration" else None
        words = member_words(parts[0]) if members == INLINE and total and SHARE_OF.fullmatch(parts[1]) else None
        if failed is not None and words is None:
            raise failed
        if words is not None and (num is None or "line" in num):
            # "Services as a share of total net sales": a row printed under the name first (as a
            # written operand always is), else the member's share of the company's total
            num = member_of(words, total, lines, line_first=True)
        if num is not None and is_quotient(num) and all(is_amount(a) for a in num["args"]) and is_amount(den):
            raise DefinitionError(text.strip())  # "gross margin / net revenue", a margin over dollars: no figure
        if num is not None and is_amount(num) and is_quotient(den) and all(is_amount(a) for a in den["args"]):
            raise DefinitionError(text.strip())  # "R&D / gross margin", dollars over a margin: no figure either
        node = {"op": "/", "args": [num, den]}
        if SHARE_OF.fullmatch(parts[1]) and not FRACTION.search(parts[1]):
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
    pieces = split_top(text.strip(), ADD_OR_SUB, maxsplit=1)
    if len(pieces) != 3 or len(split_top(pieces[2], DIV, maxsplit=1)) != 3:
        return None
    try:
        first = read_operand(pieces[0], names, members, lines)
    except DefinitionError:
        return None
    if "const" not in first:
        return None
    rest = parse_expression(pieces[2], names, members=members, lines=lines)
    if not is_quotient(rest):
        return None
    return {"op": "+" if ADD.fullmatch(pieces[1]) else "-", "args": [first, rest]}


_LAST_TERM = re.compile(r"^(?P<head>.+?),?(?P<op>\s+(?:plus|\+|minus|less|-|−)\s+|\s*[+−]\s*)(?P<n>1(?:\.0+)?)\s*$", re.I)


def _quotient_then_constant(text: str, names, members, lines) -> dict | None:
    """"2024 revenue divided by 2023 revenue minus 1": one taken from (or added to) the end of a quotient of amounts is
    (A ÷ B) − 1, as a growth rate is written; the divisor-split reading (A ÷ (B − 1)) would take one dollar from the
    divisor. None unless the words end on an operator and 1 and what comes before is a quotient (another number after
    a divisor stays in it, as written: "net income over revenue plus 5")."""
    m = _LAST_TERM.match(text.strip())
    if m is None or len(split_top(m.group("head"), DIV, maxsplit=1)) != 3:
        return None
    try:
        head = parse_expression(m.group("head"), names, members=members, lines=lines)
    except DefinitionError:
        return None
    if not is_quotient(head) or not all(is_amount(a) for a in head["args"]):
        return None
    return {"op": "+" if ADD.fullmatch(m.group("op")) else "-", "args": [head, read_operand(m.group("n"), names, members, lines)]}


_IE = re.compile(r"^\s*restated\s+as\s+", re.I)  # spoken_operators' mark of a definition written after its name
WHOLE_ASIDE = re.compile(r"\s*(?P<name>[^()]+?)\s*\((?P<said>[^()]+)\)\s*")


def _restated_whole(text: str, names, members, lines) -> dict | None:
    """"capex net of depreciation (capital expenditures minus depreciation, amortization and impairment)": a
    formula's name that reads as a formula itself, then in brackets the user's own formula over the same
    figures from the same first one, is that formula; the brackets restate the whole, never its last operand
    alone. None when the words are not so (the brackets then name or define the operand before them)."""
    m = WHOLE_ASIDE.fullmatch(text)
    if m is None or not holds_operator(m.group("name")) or not holds_operator(f" {m.group('said')} "):
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
    parts = split_top(text, MUL)
    if len(parts) < 3 or split_top(text, ADD_OR_SUB)[1:]:
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


def _summed_fallbacks(f) -> list[dict]:
    """The later forms of a registry sum's chain that are plain sums of their inputs (EBITDA from depreciation and
    amortization as two rows, or from pretax income), each as a tree: tried in order when the first cannot be read.
    A form is taken only when it computes exactly the sum of its inputs (checked on sample values)."""
    from decimal import Decimal

    forms, seen, key = [], {f.key}, f.fallback
    while key and key in FORMULAS and key not in seen:
        seen.add(key)
        g = FORMULAS[key]
        key = g.fallback
        if g.unit != "USD" or any(i.offset for i in g.inputs) or len(g.inputs) < 2:
            break
        sample = [Decimal(10) ** n for n in range(len(g.inputs))]
        try:
            if g.fn(*sample) != sum(sample):
                break
        except Exception:  # noqa: BLE001  (a form that cannot be checked is not taken)
            break
        node = {"metric": g.inputs[0].metric}
        for i in g.inputs[1:]:
            node = {"op": "+", "args": [node, {"metric": i.metric}]}
        forms.append(node)
    return forms
