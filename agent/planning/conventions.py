"""How a named ratio is to be computed, said beside it: the day count of a days ratio ("using a 360-day year",
"365d") and the balance a turnover or days ratio is taken over ("(year-end AR)", ", avg inventory").

Why: these words change the figure without naming one. Left in the question they were read as a line item
("dso fy2024-day ar") and the question refused, or, worse, answered under the ratio's own convention while the
user asked another. Taken out here, each is applied as a form of the ratio whose expression states it
(agent.retrieval.finance.DAY_FORMS, BALANCE_FORMS), so the answer names the convention it used.
"""

from __future__ import annotations

import re

from agent.retrieval.finance import BALANCE_FORMS, DAY_FORMS, FORMULA_PHRASES, FORMULAS, match_formulas

# "using a 360-day year", "365 days", "(365d, ...)", "on a 360 day basis", "360-day convention"
_DAYS = (r"(?P<n>36[05])[\s-]*(?:d\b|days?\b)(?:[\s-]+(?:a\s+|per\s+)?(?:fiscal\s+)?years?\b)?"
         r"(?:[\s-]+(?:basis|convention|count)\b)?")
DAY_COUNT = re.compile(r"(?P<lead>[,;(]\s*|\b(?:and|use|using|with|based\s+on|assume|assuming|on|over|at)\s+)"
                       r"(?:an?\s+|the\s+)?" + _DAYS + r"(?P<tail>\s*,)?", re.I)


def day_count(text: str) -> int | None:
    """The day count the text asks a days ratio over (360 or 365), or None when it says none (or both)."""
    said = {int(m.group("n")) for m in DAY_COUNT.finditer(text or "")}
    return said.pop() if len(said) == 1 else None


def without_day_count(text: str) -> str:
    """The text without its day-count words ("(365d, ending AP)" -> "(ending AP)")."""
    def cut(m: re.Match) -> str:
        return "(" if m.group("lead").startswith("(") else " "
    return re.sub(r"\(\s*\)", " ", re.sub(r"\(\s+", "(", DAY_COUNT.sub(cut, text or "")))


def on_day_count(metrics: list[str], days: int | None) -> list[str] | None:
    """The asked ratios over a 360-day year when the text asks one; None when it asks 360 days of a plan
    with no days ratio that has such a form (its words then belong to no figure the plan answers)."""
    if days != 360:
        return metrics
    if not any(m in DAY_FORMS for m in metrics):
        return None
    return [DAY_FORMS.get(m, m) for m in metrics]


_BALANCE = (r"(?:(?:accounts\s+)?receivables?|a/?r|inventor(?:y|ies)|(?:accounts\s+)?payables?|a/?p|"
            r"(?:total\s+)?assets|(?:total\s+)?(?:(?:share|stock)holders'?\s+)?equity|pp&e|ppe|balances?)")
# "average", "the average of beginning and ending": the two year-ends' mean
_AVERAGE = (r"(?:average|avg\.?|mean)(?:\s+of\s+(?:the\s+)?(?:beginning|opening|start)(?:\s+of\s+year)?\s+and\s+"
            r"(?:ending|closing|end\s+of\s+year|year[\s-]?end))?")
# "(year-end AR)", ", ending inventory", "on average inventory", "using avg AP": a convention standing apart
# from any formula the user wrote (never "COGS / average inventory", whose operand it is)
_BALANCE_ASIDE = re.compile(
    r"(?P<lead>[,;(]\s*|\s(?:using|use|on|with|based\s+on|over)\s+)(?:(?:using|use|on|with|based\s+on)\s+)?(?:the\s+|an?\s+)?"
    r"(?:year[\s-]?end(?:ing)?|ending|closing|period[\s-]end|" + _AVERAGE + r")\s+(?:net\s+)?" + _BALANCE +
    r"(?:\s+balances?)?(?P<end>\s*\)|\s*(?=[,;?.!]|$|(?:in\s+|for\s+)?(?:fiscal\s+(?:year\s+)?|fy\s*)?'?\d{2,4}\b))", re.I)


def without_balance_asides(text: str) -> str:
    """The text without a balance convention said apart ("(year-end AR)"), when it names a ratio that has a
    balance form: balance_convention (agent.planning.defined_formulas) reads the convention from the text."""
    named = match_formulas(text or "")
    if not any(k in BALANCE_FORMS or k in FORMULAS and _balanced(k) for k in named):
        return text
    reads = {i.metric for k in named if k in FORMULAS for f in (k, *BALANCE_FORMS.get(k, ())) if f
             for i in FORMULAS[f].inputs}
    for m in reversed(list(_BALANCE_ASIDE.finditer(text))):
        cut = text[: m.start()] + " " + text[m.end():]
        balance = _balance_named(m.group(0))
        if balance is not None and balance not in reads:
            continue  # "DSO on average inventory": a balance the ratio does not read, left for the refusal to name
        if set(match_formulas(cut)) >= set(named):  # never a part of the ratio's name ("return on average equity")
            text = cut
    return text


def _balance_named(aside: str) -> str | None:
    """The metric an aside's balance names ("(year-end AR)" -> accounts_receivable), None for "balances"."""
    from agent.planning.formula_operands import OPERAND_INITIALS
    from agent.retrieval.concepts import METRICS, PHRASES, normalize

    words = re.sub(r"^[\s,;(]*(?:(?:using|use|on|with|based\s+on|over)\s+)*(?:the\s+|an?\s+)?"
                   r"(?:year[\s-]?end(?:ing)?|ending|closing|period[\s-]end|" + _AVERAGE + r")\s+(?:net\s+)?", "",
                   aside.strip(" )"), flags=re.I)
    said = normalize(re.sub(r"\s+balances?$", "", words, flags=re.I)).strip()
    if not said or said in ("balance", "balances"):
        return None
    return PHRASES.get(said) or PHRASES.get(f"accounts {said}") or OPERAND_INITIALS.get(said) or \
        {"ar": "accounts_receivable", "a r": "accounts_receivable", "ap": "accounts_payable", "a p": "accounts_payable",
         "receivables": "accounts_receivable", "payables": "accounts_payable", "inventory": "inventory",
         "inventories": "inventory", "ppe": "ppe_net", "pp&e": "ppe_net"}.get(said, "?")


def _balanced(key: str) -> bool:
    """A formula that is another's balance form (dso_avg, roe_end)."""
    return any(key in forms for forms in BALANCE_FORMS.values())



# "(diluted)", ", diluted", "on a diluted basis", "using diluted shares": the count every per-share figure of the
# registry is over already (its answer says so); "basic" is read where it is said ("per basic share")
_DILUTED = re.compile(r"(?:[,;(]\s*|\s(?:use|using|with|on|over|based\s+on)\s+)(?:an?\s+|the\s+)?diluted"
                      r"(?:\s+(?:weighted[\s-]+average\s+)?(?:shares?(?:\s+(?:count|outstanding))?|share\s+count|basis))?"
                      r"\s*(?:\)|(?=[,;?.!]|$))", re.I)
_EPS_SAID = re.compile(r"\b(?:eps|earnings\s+per\s+share)\b", re.I)


def without_diluted(text: str) -> str:
    """The text without "diluted" said beside a per-share figure of the registry ("fcf per share (diluted)")."""
    if _EPS_SAID.search(text or "") or not any(
            f.unit == "USD/shares" and any(i.metric == "diluted_shares" for i in f.inputs)
            for f in (FORMULAS[k] for k in match_formulas(text or ""))):
        return text
    return _DILUTED.sub(" ", text)


# "revenue per employee", "net sales per square foot": a figure over a count the filings do not report
_PER = re.compile(r"^(?P<a>.+?)\s+per\s+(?P<b>(?!(?:diluted\s+|basic\s+|common\s+)?shares?\b)[a-z].*)$", re.I)


def missing_divisor(detail: str | None) -> str | None:
    """The refusal's words with the operand the filings lack named, when a refused "A per B" reads A as a
    figure and B as none ("employee (in your formula: revenue per employee)"); else the words unchanged.
    Why: the refusal then says which operand is missing, not only that the whole is no reported figure."""
    from agent.planning.formula_parse import parse_expression
    from agent.planning.formula_syntax import DefinitionError

    m = _PER.match((detail or "").strip())
    if m is None:
        return detail
    try:
        parse_expression(m.group("a"))
    except (DefinitionError, RecursionError):
        return detail
    try:
        parse_expression(m.group("b"))
    except (DefinitionError, RecursionError):
        return f"{m.group('b')} (in your formula: {detail.strip()})"
    return detail


def unapplied_average(metrics: list[str], text: str) -> str | None:
    """What a question asks on average balances that no form of its ratio computes so ("debt to equity using
    average equity": total debt over year-end equity only), said for the refusal; None when every ratio asked
    over a balance is computed as asked. Why: a convention the question states is never silently the other one."""
    from agent.planning.defined_formulas import _AVERAGE_SAID, _YEAR_END_SAID
    from agent.retrieval.concepts import METRICS

    if not _AVERAGE_SAID.search(text or "") or _YEAR_END_SAID.search(text or ""):
        return None
    for key in metrics:
        f = FORMULAS.get(key)
        if f is None or key in BALANCE_FORMS or any(i.offset for i in f.inputs) or f.unit in ("USD",):
            continue
        if any(METRICS[i.metric].period == "instant" for i in f.inputs):
            return f"{f.label.lower()} on average balances (it is computed on year-end balances only)"
    return None


# "net income per share", "net earnings per share": the diluted EPS the company reports, never refused as no figure.
# A year's other amount per share ("gross profit per share") is computed over the weighted-average diluted shares.
_PER_SHARE = re.compile(r"(?P<x>(?:[\w&'-]+\s+){1,5}?)per\s+share\b(?!\s+(?:outstanding|count))", re.I)


# Words that, before a figure's name, make it another figure per share (a count, an adjustment, a narrower line)
_MODIFYING = frozenset("basic diluted adjusted non-gaap nongaap core normalized underlying pro forma comparable operating "
                       "cash free tangible book distributable recurring".split())


def _modifying(word: str) -> bool:
    return word.strip(" ,;:()'\"").lower() in _MODIFYING


_KIND_AFTER = re.compile(r"\s*[,(]?\s*(?P<kind>basic|diluted)\b\s*\)?", re.I)


def per_diluted_share(text: str) -> str:
    """The text with "net income per share" said as the diluted EPS the company reports ("dividends per share",
    "basic net income per share" are names of their own, read as said)."""
    from agent.planning.formula_parse import parse_expression
    from agent.planning.formula_syntax import DefinitionError
    from agent.planning.formula_trees import metrics_of, operand_parts
    from agent.retrieval.concepts import METRICS, PHRASES, normalize

    for m in reversed(list(_PER_SHARE.finditer(text or ""))):
        words = m.group("x").split()
        for n in range(len(words), 0, -1):
            said = " ".join(words[-n:])
            if n < len(words) and _modifying(words[-n - 1]):
                continue  # "basic net income per share", "adjusted net income per share": a longer name, read as said
            phrase = normalize(f"{said} per share").strip()
            if phrase in PHRASES or phrase in FORMULA_PHRASES or not normalize(said).strip():
                break
            try:
                tree = parse_expression(said)
            except (DefinitionError, RecursionError):
                continue
            keys = [operand_parts(k)[0] for k in metrics_of(tree)]
            if "dividends_paid" in keys or re.search(r"dividend|distribution", said, re.I):
                break  # "cash dividends paid per share": the dividends per share the company declares, never paid ÷ shares
            if keys == ["net_income"] and "op" not in tree:  # "net income per share": the EPS the company reports
                kind = _KIND_AFTER.match(text, m.end())  # "net income per share, basic": the basic EPS
                text = (text[: m.start("x") + m.group("x").rfind(said)] + f"{kind.group('kind').lower() if kind else 'diluted'}"
                        f" earnings per share" + text[kind.end() if kind else m.end():])
            elif keys and all(k in METRICS and METRICS[k].period == "duration" and METRICS[k].unit == "USD" for k in keys):
                # "gross profit per share", "EBITDA per share": a year's amount over the weighted-average diluted
                # shares, as the registry's per-share figures are (the answer states the divisor)
                text = text[: m.end("x")] + "per diluted share" + text[m.end():]
            break
    return text


# "unadjusted operating income", "unadjusted EBITDA": the figure as reported, which is every figure answered (a
# company's adjusted measure is named "adjusted", never "unadjusted")
_UNADJUSTED = re.compile(r"(?<![\w-])unadjusted\s+(?=[a-z&])", re.I)


def without_unadjusted(text: str) -> str:
    return _UNADJUSTED.sub("", text or "")


# "net debt including short-term borrowings", "debt to equity (incl. commercial paper)", "total debt, all borrowings":
# debt as the registry reads it (long-term debt, current and noncurrent) widened by what the question adds
_SHORT_TERM = (r"(?:short[\s-]?term\s+(?:borrowings?|debt|notes(?:\s+payable)?|loans|obligations)|commercial\s+paper|"
               r"(?:loans\s+and\s+)?notes\s+payable|bank\s+loans)")
BORROWINGS_SAID = re.compile(
    r"(?P<lead>[,;(]\s*|\s+)(?:(?:and\s+|also\s+)?(?:including|includes?|incl\.?|inclusive\s+of|with|plus|counting|"
    r"adding|add|\+)\s*(?:the\s+|all\s+|any\s+)?" + _SHORT_TERM + r"(?:\s*(?:,|and|&|or|\+)\s*" + _SHORT_TERM + r")*"
    r"(?:\s+(?:as\s+debt|included))?"
    r"|(?:(?:including|incl\.?|on|using|with|counting|as)\s+)?all\s+(?:borrowings|debt(?:\s+obligations)?|"
    r"interest[\s-]bearing\s+(?:debt|liabilities))(?:\s+included)?)(?P<close>\s*\))?", re.I)


# Operators of a formula the user writes out: words beside a measure over debt that are one of its terms
_USERS_FORMULA = re.compile(r"[=÷×*−]|\s[-+]\s|\b(?:minus|less|over|divided|times|plus|subtract\w*|defined\s+as)\b",
                            re.I)


def borrowings_said(text: str) -> bool:
    """Whether the question counts short-term borrowings (commercial paper, notes payable) as debt."""
    return bool(BORROWINGS_SAID.search(text or ""))


def without_borrowings(text: str) -> str:
    """The text without its "including short-term borrowings" words, when it names a measure over total debt: the
    measure's form with them (on_borrowings) is applied instead, and the answer says what debt counted."""
    from agent.retrieval.finance import BORROWING_FORMS

    if not any(k in BORROWING_FORMS for k in match_formulas(text or "")):
        return text
    def cut(m: re.Match) -> str:
        return " " if not m.group("lead").strip() or m.group("close") else m.group("lead")
    out = BORROWINGS_SAID.sub(cut, text)
    # "net debt: total term debt plus commercial paper minus cash": the user's own formula, whose terms they are
    return text if out != text and _USERS_FORMULA.search(out) else out


def on_borrowings(metrics: list[str], said: bool) -> list[str]:
    """The asked measures over total debt in their form with short-term borrowings, when the question says so."""
    from agent.retrieval.finance import BORROWING_FORMS

    return [BORROWING_FORMS.get(m, m) for m in metrics] if said else metrics


# "Define debt as total debt.", "with debt defined as long-term debt plus its current portion", "(debt = current +
# long-term debt)": a definition of the debt a named measure over debt already counts (long-term debt, current and
# noncurrent), or that adds the short-term borrowings its form with them counts (on_borrowings)
_DEBT_DEFINED = re.compile(
    r"(?P<lead>[,;.(]\s*|\s+)(?:(?:and\s+)?(?:please\s+)?(?:define|treat|take|count|consider|measure)\s+(?:the\s+)?debt\s+as"
    r"|(?:with|where|and)\s+(?:the\s+)?debt\s+(?:defined|taken|counted|measured|being)\s+as"
    r"|(?:the\s+)?debt\s*(?:=|:|\bis\b|\bmeans\b|\bbeing\b)"
    r"|(?:using|with|on|based\s+on)(?=\s+(?:the\s+)?(?:total|gross)\s+debt\b))"
    r"\s+(?P<what>[^.;)?]+?)(?P<close>\s*\))?\s*(?=[.;?]|$)", re.I)
_TOTAL_DEBT_SAID = re.compile(r"^(?:the\s+|its\s+)?(?:company'?s\s+)?(?:(?:total|gross|all)\s+(?:debt|borrowings)|debt)"
                              r"(?:\s+outstanding)?$")
_LTD_PARTS_SAID = re.compile(r"\blong\s*term\s+debt\b.*\bcurrent\b|\bcurrent\b.*\blong\s*term\s+debt\b|"
                             r"\bcurrent\s+(?:and|&|\+|plus)\s+(?:non\s*current|long\s*term)\s+debt\b")


def _defines_counted_debt(what: str) -> bool:
    """Whether a definition of debt reads as the debt the registry counts: total debt, or long-term debt with its
    current part (short-term borrowings said beside it are read by borrowings_said)."""
    said = re.sub(r"[-\u2010-\u2014]", " ", (what or "").lower())
    said = " ".join(BORROWINGS_SAID.sub(" ", f" {said}").split())
    said = re.sub(r"\s*\((?:current|incl[^)]*)[^)]*\)\s*", " current ", said).strip()  # "long-term debt (current + non-current)"
    return bool(_TOTAL_DEBT_SAID.match(said) or _LTD_PARTS_SAID.search(said))


def without_debt_defined(text: str) -> str:
    """The text without a definition of debt that a measure over debt it names already counts: that measure is
    answered, saying what its debt counted; a definition of another debt is left for the formula reader."""
    from agent.retrieval.finance import BORROWING_FORMS

    if not any(k in BORROWING_FORMS for k in match_formulas(text or "")):
        return text
    for m in reversed(list(_DEBT_DEFINED.finditer(text or ""))):
        rest = text[: m.start()] + " " + text[m.end():]
        if _defines_counted_debt(m.group("what")) and not _USERS_FORMULA.search(rest) \
                and not _DIVIDED.search(m.group("what")):
            kept = "" if m.group("lead").strip() in ("", ".", "(") else m.group("lead")
            cut = text[: m.start()] + kept + " " + text[m.end():]
            # "Union Pacific total debt: long-term debt + current debt": the measure's own "debt" began the match,
            # and cutting it would leave "Union Pacific total"; the measure must still be named without it
            if any(k in BORROWING_FORMS for k in match_formulas(cut)):
                text = cut
    return text


# "cash flow to debt: operating cash flow / (long-term debt + current debt)": a whole formula, the formula reader's
_DIVIDED = re.compile(r"/|\u00f7|\bdivided\s+by\b|\bover\b|\btimes\b|\*", re.I)
