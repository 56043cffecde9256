"""Resolve a line-item phrase against the company's own statement labels, then standard labels.

Why near-exact only: a look-alike line is a different figure. A phrase matches a label when the
label's words and the question's (normalized: lowercase, plural folded, and without the words every
cash-flow or expense line may or may not print — "net", "total", "activities", "used in",
"provided by", "expense") are the same words. "cash provided by
financing" finds "Net cash used in financing activities"; "marketing" finds "Marketing" but never
"Sales and marketing". The company's printed rows (primary statements first) win over standard
labels (the XBRL concept name in words, e.g. PaymentsForRepurchaseOfCommonStock → payments for
repurchase of common stock). More than one line left means the user is asked which one.

A label may also hold words the planner took as filler, when the user wrote them ("Treasury stock,
at cost", "Capital in excess of stated value"): they are the key's spare words, allowed, never
required. Among rows that fit, the one using more of the user's words wins; a balance and its
cash-flow change, printed alike, are told apart by a change word; an income statement line the
cash-flow statement repeats is the income statement's.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from functools import lru_cache

from agent.retrieval.concepts import normalize
from agent.retrieval.spelling import as_printed

IGNORABLE = frozenset(
    "net total activities activity used use uses provided provide provides generated generate generates by in of "
    "the and for from to a an expense expenses expenditure expenditures member during period cash-flow amount "
    "amounts continuing operation operations costs flow flows number outstanding certain expected charge charges "
    # "attributable to", "available to", "allocated to": one relation between a figure and its holder, printed
    # either way ("Net loss available to common shareholders" is the user's "net loss attributable to ...")
    "attributable available allocated allocable "
    # "operating cash outflow" is the row "Net cash used in operating activities": the sign, as "used in" is
    "outflow outflows inflow inflows".split()
)
# Words that keep their identity but are spelled two ways.
SYNONYMS = {"buyback": "repurchase", "amortisation": "amortization", "organisation": "organization",
            "shareholder": "stockholder", "pay": "paid", "payment": "paid",
            # a line's verb as the user writes it, the noun as the row prints it ("spent acquiring wireless
            # licenses" is "Acquisitions of wireless licenses"); both sides of a match go through here
            "acquire": "acquisition", "acquiring": "acquisition", "acquired": "acquisition",
            "repurchasing": "repurchase", "repurchased": "repurchase", "issuing": "issuance", "issued": "issuance",
            "issue": "issuance", "repaying": "repayment", "repaid": "repayment", "repay": "repayment",
            # promotion is marketing spend, named either way ("advertising and promotional expenses" is what
            # MarketingAndAdvertisingExpense tags)
            "promotional": "marketing", "promotion": "marketing",
            # "how much did it lose on debt securities" asks the row "Loss on debt securities"
            "lose": "loss",
            # "cash burn from operations": the operating section's outflow, however the verb is conjugated
            "burned": "burn", "burning": "burn", "burnt": "burn"}
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z]|\d|$)|[A-Z]?[a-z]+|\d+")
PRIMARY = ("income", "balance", "cash")


def _stem(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 4 and word.endswith(("xes", "sses", "ches", "shes")):
        word = word[:-2]  # "taxes" is "tax", "losses" "loss": one word, whichever number the label prints
    elif len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    return SYNONYMS.get(word, word)


# A row's arithmetic lead-in ("Less: Net income attributable to noncontrolling interests") and the
# sign's other name in brackets ("Net income (loss)", "Income tax expense (benefit)") say how the row
# adds up, not what it is; XBRL names pair the two the same way (NetIncomeLoss, IncomeTaxExpenseBenefit).
_LEAD_IN = re.compile(r"^\s*(?:less|add|plus|minus|deduct|deduct(?:ed)?|including|excluding)\s*:\s*", re.I)
_SIGN_WORDS = r"loss|losses|gain|gains|benefit|benefits|expense|expenses|income|decrease|increase|deficit|charge|credit|" \
    r"refund|refunds"
_OTHER_SIGN = re.compile(rf"\(\s*(?:{_SIGN_WORDS})\s*\)|(?<=\w)/\(?(?:{_SIGN_WORDS})\)?(?!\w)", re.I)
# The sign words of a row ("Income tax provision (benefit)", "Equity income (loss)", IncomeTaxExpenseBenefit): a
# question typed without brackets keeps them as words ("income tax provision benefit"), which name the same line.
_SIGN_SET = frozenset(_SIGN_WORDS.split("|")) | {"provision", "earnings", "profit"}
_PAIRED = re.compile(r"\b(income|profit|gain|gains|earnings|expense|increase)\s+(?:accumulated\s+)?"
                     r"(loss|losses|benefit|decrease|deficit)\b")


# A footnote reference a row carries beside its name ("Acquisitions, net of cash acquired (Note 18)",
# "Restructuring (Note 20)", "[1]"): where to read more, never a word of the line's name.
_NOTE_REF = re.compile(r"\(\s*(?:see\s+)?(?:notes?\s+)?\d+[a-z]?\s*\)|\[\d+\]", re.I)
# A row's explanation of what it leaves out or in ("Other cost of revenues (exclusive of depreciation and
# amortization shown separately below)"): how it is measured, not what it is called.
_EXPLAINED = re.compile(r"\(\s*(?:exclusive|inclusive|excluding|including|shown|see|refer)\b[^)]*\)", re.I)
# A row's closing clause of what its amount is measured after ("..., net of discounts", "..., net of sales"): how it
# is measured, which the user may leave out; a row that fits without it is nearer (_closest)
_NET_OF_TAIL = re.compile(r",\s*net\s+of\s+[\w\s'-]+$", re.I)
_ABBREVIATED = re.compile(r"\(\s*([A-Z][A-Z&.]{1,7})\s*\)\s*$")
# The statements' own abbreviations, written out the way the rows print them: a user who types "G&A"
# means the row "General and administrative" whether or not the company prints the letters beside it.
ABBREVIATIONS = {"g&a": "general and administrative", "s&m": "sales and marketing", "pp&e": "property plant and equipment",
                 "ppe": "property plant and equipment", "ppne": "property plant and equipment", "aoci": "accumulated other comprehensive income",
                 "opeb": "other postretirement benefits", "apic": "additional paid in capital",
                 "nci": "noncontrolling interests", "rou": "right of use", "admin": "administrative",
                 "comp": "compensation", "ebit": "earnings before interest and taxes",
                 "a/r": "accounts receivable", "a/p": "accounts payable", "r&d": "research and development", "sg&a": "selling general and administrative",
                 "d&a": "depreciation and amortization", "opex": "operating expenses",
                 "lt": "long term", "st": "short term",
                 # the cash-flow statement's sections as analysts abbreviate them ("CFI", "CFF"), and "ad spend"
                 "cfi": "cash from investing", "cff": "cash from financing", "ad": "advertising",
                 # "pre-tax earnings" is the row "Earnings before income taxes", whichever way it is printed
                 "pre tax": "before income tax", "pretax": "before income tax"}
_ABBREVIATION = re.compile(r"(?<![\w&])(" + "|".join(re.escape(a) for a in ABBREVIATIONS) + r")(?![\w&])")
# "non-controlling", "non controlling" and "noncontrolling" (likewise non-current, non-cash): one word, however
# the company or the user hyphenates it ("noncurrent" stays apart from "current")
_NON = re.compile(r"\bnon[\s\-\u2010-\u2015]+(?=[a-z])", re.I)
# "cash and cash equivalents", "cash & equivalents": one name for the cash a row is about, however the
# company spells it ("Effect of exchange rate changes on cash and equivalents" is the user's "... on cash").
# Restricted cash stays its own word: that total is another line.
_CASH = re.compile(r"\bcash,?\s+(?:and|&)\s+(?:cash\s+)?equivalents?\b")
# A cash-flow statement repeats the balance sheet's working-capital names for their year's change
# ("Customer advances and deposits" on both): the change is asked with a change word, the balance without.
CHANGE_WORDS = frozenset("change changes increase increases decrease decreases".split())


# A pure function of the text, called for every printed row and concept of a company on each
# line-item question (about 40 us a call): the labels recur question after question, so their words
# are kept rather than found again.
TOKEN_CACHE = 65536


def unaccented(text: str) -> str:
    """"Décor" as the user types it, "Decor": a printed accent never makes another word."""
    if text.isascii():
        return text
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


# "Proceeds from sales of", "from disposals of", "from the sale of", "from selling": one kind of line (the cash a
# sale brings in), whichever noun the row prints; only after "proceeds", so "Selling" expenses stay their own word.
_PROCEEDS_SALE = re.compile(r"\bproceeds?\s+(?:(?:from|of|on)\s+)?(?:the\s+)?(?:sales?|selling|sold|disposals?|disposing|"
                            r"dispositions?|divestitures?)\b", re.I)


# The cash a company's operations bring in, printed "by operations" or "by operating activities" (Apple prints
# "Cash generated by operating activities", others "Cash provided by operations"): one word for both, on
# either side of a match, as "Income from operations" is the row "Operating income" (the planner may leave the
# user's "earnings operations" without its "from"). "Continuing operations" and "discontinued operations" stay
# what they are: "Income from continuing operations" is never the operating line
# "buy back", "bought back": the verb a row names with its noun ("Repurchases of Class A common stock"); one word,
# as "buyback" is
_BUY_BACK = re.compile(r"\b(?:buy|buys|bought|buying)[\s-]+backs?\b")
_BY_OPERATIONS = re.compile(r"(?<!continuing )(?<!discontinued )\boperations\b")
_INCOME_TAX = re.compile(r"\bincome(?= tax)")
# the taxonomy's state tax is always "state and local" (CurrentStateAndLocalTaxExpenseBenefit); the note prints "State"
_STATE_TAX = re.compile(r"\bstate (?:and |& )?local\b")
# "net of cash acquired": what the payment is measured after (the acquiree's own cash), never the line's subject;
# the cash a row pays is `paid`'s, so "Payments for business acquisitions, net of cash acquired" and the user's
# "business acquisitions, net of cash acquired" are one line
_NET_OF_CASH = re.compile(r"\b(net(?: of)?|less)\s+cash\s+(?=acquired|received|divested|disposed|transferred|sold)")
# "related to", "relating to": how a row links its figure to its subject ("Proceeds related to employee stock plans"),
# as "from" or "of" do, whether or not the planner kept the "to"; "related party" stays a word of its own
_RELATED_TO = re.compile(r"\brelat(?:ed|ing)(?:\s+to\b)?(?!\s+part(?:y|ies)\b)")


@lru_cache(maxsize=TOKEN_CACHE)
def tokens(text: str) -> frozenset[str]:
    """The words of a label or phrase that decide what it is."""
    text = _NON.sub("non", _OTHER_SIGN.sub(" ", _LEAD_IN.sub("", unaccented(text))))
    text = _BUY_BACK.sub("repurchase", _PROCEEDS_SALE.sub("proceeds from sale", text))
    norm = _ABBREVIATION.sub(lambda m: ABBREVIATIONS[m.group(1)], normalize(_NOTE_REF.sub(" ", text)))  # "A/R" whole
    norm = _CASH.sub("cash", _ABBREVIATION.sub(lambda m: ABBREVIATIONS[m.group(1)], norm.replace("/", " ")))
    norm = re.sub(r"(?<=[a-z]{3})&(?=[a-z]{3})", " ", norm)  # "Occupancy & other": an "and", unlike "R&D"
    # "income tax" is the only tax a 10-K's tax note and the taxonomy name bare ("Current: Federal" is
    # CurrentFederalTaxExpenseBenefit, "Total deferred tax assets"): the user's "income" before it names no other line
    norm = _STATE_TAX.sub("state", _INCOME_TAX.sub("tax", norm))
    norm = _BY_OPERATIONS.sub("operating", norm)  # "cash provided by operations": "... operating activities"
    norm = _RELATED_TO.sub("to", _NET_OF_CASH.sub(r"\1 ", norm))
    words = re.findall(r"[a-z0-9&]+", norm)
    out = frozenset(_stem(w) for w in words if w not in IGNORABLE and not w.isdigit())
    if "intangible" in out:  # "intangibles" is the rows' "intangible assets"
        out |= {"asset"}
    if "portion" in out and (out & {"current", "noncurrent"} or {"long", "term"} <= out):
        # "current portion of long-term debt" and "deferred revenue, current portion": the part is named by its term,
        # printed with "portion" or without it under the balance sheet's current heading
        out -= {"portion"}
    if {"property", "equipment"} <= out:
        # "Property and equipment, net" and "Property, plant and equipment, net" (PropertyPlantAndEquipmentNet) are one
        # balance, printed with or without "plant" as the company's assets run to plants or not
        out -= {"plant"}
    if {"liability", "equity"} <= out:
        # the balance sheet's closing total, "Total liabilities and equity" or "... and shareholders' equity"
        # (LiabilitiesAndStockholdersEquity): one figure whatever its equity is called; only beside liabilities,
        # since "stockholders' equity" alone may be the parent's part of a "Total equity"
        out -= {"stockholder", "shareowner"}
    if "burn" in out and "operating" in out:
        # "cash burn from operations" is the operating section's net cash, the outflow's sign as "used in" is
        out -= {"burn"}
    # "Cash paid for interest" and "Interest paid" (InterestPaidNet) are one line: paid is always cash
    return out - {"cash"} if "paid" in out else out


@lru_cache(maxsize=TOKEN_CACHE)
def sign_words(label: str, concept: str) -> frozenset[str]:
    """The sign words a row prints or its concept pairs (IncomeLoss, ExpenseBenefit), stemmed: words a question may
    add to the row's name, since the user writes "(loss)" as "loss"."""
    printed = {_stem(w) for w in re.findall(r"[a-z]+", " ".join(m.group(0) for m in _OTHER_SIGN.finditer(label.lower())))}
    name = " ".join(w.lower() for w in _CAMEL.findall(concept.split(":", 1)[-1]))
    paired = {_stem(w) for m in _PAIRED.finditer(name) for w in m.groups()}
    return frozenset((printed | paired) & {_stem(w) for w in _SIGN_SET})


_LOSS = frozenset({"loss"})
_LOSS_PAIR = re.compile(r"\b(income|earnings|gain|gains|profit)\s*\(\s*loss(?:es)?\s*\)", re.I)


def _loss_side(label: str) -> frozenset[str]:
    """The word a printed "income (loss)" pair puts before its loss ("Accumulated other comprehensive income
    (loss)": "income"), stemmed as `tokens` does, or nothing: a question saying "loss" names the same row."""
    m = _LOSS_PAIR.search(label)
    return tokens(m.group(1)) if m else frozenset()


def _excluded(concept: str) -> frozenset[str]:
    """The words a concept's name says it leaves out (ResearchAndDevelopmentExpenseExcludingAcquiredInProcessCost:
    "acquired in process cost"): a question asking for them asks for another figure."""
    name = concept_words(concept)
    m = re.search(r"\b(?:excluding|except|without|other than|less)\b(.*)$", name)
    return tokens(m.group(1)) if m else frozenset()


def _included(concept: str) -> frozenset[str]:
    """The words of a part a concept's name says its total takes in (IncomeLossFromContinuingOperations
    IncludingPortionAttributableToNoncontrollingInterest: "portion attributable noncontrolling interest"). A
    question naming that part without "including" asks for the part ("earnings from continuing operations
    attributable to noncontrolling interests"), another figure than the total that includes it."""
    m = re.search(r"\bincluding\b(.*)$", concept_words(concept))
    return tokens(m.group(1)) - {"portion", "attributable"} if m else frozenset()


def concept_words(concept: str) -> str:
    """'us-gaap:PaymentsForRepurchaseOfCommonStock' -> 'payments for repurchase of common stock'."""
    name = concept.split(":", 1)[-1]
    return _PAIRED.sub(r"\1", " ".join(w.lower() for w in _CAMEL.findall(name)))


# The taxonomies whose concept names are standard labels (a company's own extension concepts are not)
_STANDARD_TAXONOMIES = frozenset({"us-gaap", "srt", "ifrs-full", "dei"})

# Notes reprint a statement's generic names ("Total liabilities", "Total assets") as the totals of their own
# schedules: the liabilities measured at fair value, a pension plan's assets, one segment's. Such a row's
# standard concept names the basis the user did not ask for
_SCHEDULE_BASIS = frozenset("fair pension plan plans benefit segment segments maturity maturities undiscounted "
                            "recurring hedge hedging derivative derivatives "
                            # the goodwill roll-forward's "Acquisitions" (GoodwillAcquiredDuringPeriod) is the goodwill
                            # an acquisition added, never what the acquisitions cost
                            "goodwill".split())
# A movement named alone ("acquisitions", "additions") is a flow the cash-flow or income statement prints; a note's
# roll-forward prints it too, under its schedule's name only ("Acquisitions" of the goodwill or the claims reserve)
_MOVEMENTS = frozenset("acquisition disposition divestiture addition".split())
# A lease schedule's "Total liability" (us-gaap:OperatingLeaseLiability at Comcast) is printed under the generic
# name of the balance sheet's total, and its concept alone says it is the leases': under a generic total's name,
# leases narrow the row as the bases above do, unless the question names them
_GENERIC_TOTAL = frozenset("total liability liabilities asset assets".split())
_LEASE_BASIS = frozenset("lease leases".split())


def _narrower_schedule(concept: str, said: frozenset[str], label: frozenset[str] = frozenset()) -> bool:
    """A note's row filed under a standard concept whose name adds a measurement basis or schedule the user did not
    say (us-gaap:LiabilitiesFairValueDisclosure under "Total liabilities"): another figure than the one asked.
    `label`: the row's printed words, when they are only a generic total's name."""
    if concept.split(":", 1)[0] not in _STANDARD_TAXONOMIES:
        return False
    name = concept_words(concept)
    # what the name says it leaves out is no basis of the row (IndefiniteLivedIntangibleAssetsExcludingGoodwill)
    added = frozenset(re.split(r"\b(?:excluding|except|other than)\b", name)[0].split()) - said
    generic = bool(label) and label <= _GENERIC_TOTAL
    return bool(added & _SCHEDULE_BASIS) or (generic and bool(added & _LEASE_BASIS))

# A payable or receivable the taxonomy names with its term (DividendsPayableCurrent, InterestReceivableCurrent)
_DUE = re.compile(r"(?:Payable|Receivable)s?Current$")

# How a question names the noncurrent part of a balance ("long-term", "non-current"), which the balance sheet's
# row for it may leave unprinted under its section's heading
_NONCURRENT_WORDS = (frozenset({"long", "term"}), frozenset({"longterm"}), frozenset({"noncurrent"}),
                     frozenset({"non", "current"}))


@dataclass(frozen=True)
class LineMatch:
    concept: str  # qualified
    label: str  # as printed (or the standard label)
    source: str  # 'company' or 'standard'
    statement: str
    negated: bool = False  # the row prints the fact with the opposite sign (printed_negated)


# A concept netting income against expense (InterestIncomeExpenseNonoperatingNet, InterestRevenueExpenseNet,
# NonoperatingIncomeExpense): its fact is positive for net income, negative for net expense, whatever its row says
NETTED = re.compile(r"(?:Income|Revenue)Expense|ExpenseIncome")
_INCOME_SIDE = frozenset({"income", "revenue", "revenues", "gain", "gains", "earnings"})
_EXPENSE_SIDE = frozenset({"expense", "expenses", "cost", "costs", "loss", "losses", "charge", "charges"})
_PARENTHESISED = re.compile(r"\([^)]*\)")


def _side(words: list[str]) -> str | None:
    """'income' or 'expense': the first of the two sides the words name, else None."""
    for w in words:
        if w in _INCOME_SIDE:
            return "income"
        if w in _EXPENSE_SIDE:
            return "expense"
    return None


def _outside_words(label: str) -> list[str]:
    """A label's words outside its parentheses, where it names its side ("Interest expense (income), net")."""
    return re.findall(r"[a-z]+", _PARENTHESISED.sub(" ", label.lower()))


def label_side(label: str) -> str | None:
    """The side a row's label names first, outside parentheses: "Interest expense (income), net" is an expense
    row (a positive figure printed on it is net expense), "Interest and other income (expense), net" an income
    row, "Interest, net" neither."""
    return _side(_outside_words(label))


def concept_side(concept: str) -> str | None:
    """The side a netted concept's positive fact is (InterestIncomeExpenseNet: income), else None."""
    name = concept.split(":")[-1]
    if not NETTED.search(name):
        return None
    return _side([w.lower() for w in re.findall(r"[A-Z][a-z]+", name)])


def printed_negated(label: str, concept: str) -> bool:
    """True when the statement prints a netted concept's fact with the opposite sign: its label names the other
    side first (Nike's "Interest expense (income), net" prints its net interest income, InterestIncomeExpense-
    NonoperatingNet +161, as (161)). A label naming no side ("Interest, net") is not told by its words: False."""
    row, fact = label_side(label), concept_side(concept)
    return row is not None and fact is not None and row != fact


def economic_name(label: str, concept: str, value) -> str | None:
    """A netted row's figure named by what it is, for a sentence that leaves no doubt about its sign: "net interest
    income" for Nike's +161 on "Interest expense (income), net", "net interest and other expense" for Home Depot's
    -1,765 on "Interest and other, net"; None for a concept that does not net two sides."""
    side = concept_side(concept)
    if side is None or not value:
        return None
    if value < 0:
        side = "expense" if side == "income" else "income"
    words = [w for w in _outside_words(label) if w not in _INCOME_SIDE | _EXPENSE_SIDE | {"net", "total"}]
    subject = " ".join(words).strip()
    return f"net {subject} {side}".replace("  ", " ") if subject else f"net {side}"


def signed(match: LineMatch) -> LineMatch:
    """`match` with its printed sign (printed_negated) set."""
    return replace(match, negated=printed_negated(match.label, match.concept)) if match.source == "company" else match


def resolve(leftover: str, question: str, labels: list[dict], concepts: list[tuple[str, str]], *,
            total: bool = False, optional: str = "", changes: bool = False) -> tuple[LineMatch | None, list[LineMatch]]:
    """`_changes_last` of `_resolve_spelled`: a cash-flow statement's change row printed under a balance's name
    ("Operating lease liabilities", IncreaseDecreaseInOperatingLeaseLiability) answers only when no balance or
    other line fits the words, or when the user names the cash-flow statement (`changes`)."""
    if not changes:
        match, candidates = _resolve_spelled(leftover, question, labels, concepts, total=total, optional=optional,
                                             changes=False)
        if match is not None or candidates:
            return match, candidates
    return _resolve_spelled(leftover, question, labels, concepts, total=total, optional=optional, changes=True)


def _resolve_spelled(leftover: str, question: str, labels: list[dict], concepts: list[tuple[str, str]], *,
                     total: bool = False, optional: str = "", changes: bool = True
                     ) -> tuple[LineMatch | None, list[LineMatch]]:
    """`_resolve`; when no row fits a phrase about cash, once more with "restricted" (and "equivalents") allowed: "the effect of
    exchange rates on cash" is the one row "Effect of exchange rates on cash, cash equivalents and restricted
    cash" when the company prints no row without restricted cash (one that does fits first)."""
    match, candidates = _resolve(leftover, question, labels, concepts, total=total, optional=optional, changes=changes)
    if match is None and not candidates:  # nothing fits as typed: a word misspelled by one letter, read as printed
        match, candidates = _resolve(leftover, question, labels, concepts, total=total, optional=optional, spell=True,
                                     changes=changes)
    if match is None and not candidates and "cash" in tokens(question) | tokens(leftover) \
            and "restricted" not in tokens(optional):
        return _resolve(leftover, question, labels, concepts, total=total,
                        optional=f"{optional} restricted equivalents", changes=changes)
    return match, candidates


# Words `tokens` drops as ones a row may or may not print, which still say what kind of line it is: an expense line
# ("Total operating expenses") is never a cash-flow section's total ("TOTAL OPERATING ACTIVITIES"), though both
# read as "operating" alone
_EXPENSE_KIND = frozenset("expense expenses cost costs expenditure expenditures charge charges".split())
_FLOW_KIND = frozenset("activities activity".split())


def _kind(text: str) -> str | None:
    # "opex" is operating expenses: an abbreviation says the kind its words do
    words = set(re.findall(r"[a-z]+", _ABBREVIATION.sub(lambda m: ABBREVIATIONS[m.group(1)], text.lower())))
    return "flow" if words & _FLOW_KIND else "expense" if words & _EXPENSE_KIND else None


def other_kind(asked: str, label: str) -> bool:
    """Whether the asked words name one kind of line (an expense, a cash-flow section) and the row another."""
    q, r = _kind(asked), _kind(label)
    return q is not None and r is not None and q != r


# A concept named for a cost ("CostOfServicesAndOtherRevenue") is never the revenue row printed alike ("Services and
# other" twice, under revenues and under costs) unless the user says the cost
_COST_WORDS = frozenset({"cost"})
_STOCK = frozenset({"stock", "share"})
_OTHER_STOCK = frozenset({"preferred", "treasury", "convertible"})


def _resolve(leftover: str, question: str, labels: list[dict], concepts: list[tuple[str, str]], *,
             total: bool = False, optional: str = "", spell: bool = False, changes: bool = True
             ) -> tuple[LineMatch | None, list[LineMatch]]:
    """(the one line the phrase names, or None; the candidates when several or none fit). `total`: the
    user said "total", which decides between a subtotal's rows and the total's ("Term debt" current and
    non-current, "Total term debt"). `optional`: the clause's words the planner took as filler ("at",
    "value", "held", "changes"): a label may hold them, since the user wrote them too ("Treasury stock, at
    cost", "Capital in excess of stated value"), but never needs them."""
    said = tokens(question)
    # "non-cash property additions" whose "cash" another part of the plan took: the leftover's "non" joined the
    # next word it kept ("nonproperty"); the question's own words say which
    need = frozenset(w[3:] if w.startswith("non") and w not in said and w[3:] in said else w for w in tokens(leftover))
    if need and any(w.startswith("non") and w not in said for w in need) and any(w.startswith("non") for w in said):
        # "non" left over, the word it joins ("current", "operating") taken by a metric: the question's own
        # non-word ("noncurrent") is what the leftover asks for
        need = frozenset(w for w in need if not (w.startswith("non") and w not in said)) \
            | frozenset(w for w in said if w.startswith("non") and len(w) > 3)
    have = said | need
    if not need:
        match, found = _printed_alike(leftover, question, labels, total)
        if match is not None and not _printed_words(question) <= _printed_words(match.label) | _printed_words(leftover):
            # "earnings from continuing operations": the row printed "continuing operations" alone (the
            # noncontrolling interests' share, under their heading) is a part of the phrase; the question's
            # whole words name the row first, and the fragment answers only when no row prints them
            changed = bool((said | tokens(optional)) & CHANGE_WORDS)
            whole, among = _printed_alike(question, question, [r for r in labels if _is_change(r) == changed], total,
                                          drop=CHANGE_WORDS if changed else frozenset())
            if whole is not None or among:
                return whole, among
        if match is not None or found or not have:
            return match, found
        # the leftover's words are all linking ones ("net", "provided by operations") beside a metric's: the clause
        # as a whole is the row's printed name ("Cash provided by operations"). A change the user asked for
        # ("net increase (decrease) in cash") is a change row's, never the balance's
        changed = bool((said | tokens(optional)) & CHANGE_WORDS)
        labels = [r for r in labels if _is_change(r) == changed]
        if _printed_words(question) != _printed_words(leftover):
            match, found = _printed_alike(question, question, labels, total, drop=CHANGE_WORDS if changed else frozenset())
            if match is not None or found:
                return match, found
        # "R&D, net": the metric's words are the row's ("Research and development expense, net") and the leftover
        # only linking words: the rows of exactly those words that print every word left over
        must = _printed_words(leftover)
        labels = [r for r in labels if must <= _printed_words(r["label"])]
        concepts = [(c, k) for c, k in concepts if must <= _printed_words(concept_words(c))]
        need = have
    asked_change = bool((have | tokens(optional)) & CHANGE_WORDS)
    if asked_change:
        # "change in accounts payable" is the row "Increase (decrease) in accounts payable" or "Accounts
        # payable" under the cash-flow statement's changes: the change word is the user's, any or none printed
        have -= CHANGE_WORDS
        if not have:
            return None, []
    if spell:
        printed = printed_words(tuple(r["label"] for r in labels), tuple(c for c, _ in concepts))
        have, need = as_printed(have, printed), as_printed(need, printed)
    spare = tokens(optional) - have
    if have & _STOCK and not have & _OTHER_STOCK:
        spare |= {"common"}  # "class A stock" is the row "Class A common stock": the stock a company has unless named

    def fits(words: frozenset[str], signs: frozenset[str] = frozenset()) -> bool:
        if asked_change:
            words -= CHANGE_WORDS
        return bool(words) and have <= words | signs and words <= have | spare
    tiers: list[list[LineMatch]] = [[], [], []]
    told: list[LineMatch] = []  # rows the question's extra words tell apart by their concept's name
    told_in_notes: list[LineMatch] = []  # the same in a note's schedule, read only when nothing else fits
    headed: list[LineMatch] = []  # a note's rows named with their schedule total's words, read only when nothing else fits
    # "taxed" and "taxes" ask a tax note's row as "tax" does ("global intangible low-taxed income" is a line of the
    # rate reconciliation, read only when the user names the tax)
    asked_tax = any(w.startswith("tax") for w in have | spare)
    said_cost = bool(re.search(r"\bcosts?\b", f"{leftover} {question}", re.I))  # "costs" is a word `tokens` ignores
    # "acquisition costs" are an expense, never the cash a Payments… row pays for the acquisitions
    said_expense = _kind(f"{leftover} {question} {optional}") == "expense"
    for row in labels:
        if row["dims"] or (not asked_tax and _tax_basis(row["concept"])) or other_kind(f"{leftover} {question}", row["label"]):
            continue
        if not changes and not asked_change and not (have | spare) & CHANGE_WORDS and _changes(row["concept"]):
            continue  # "operating lease liabilities" is the balance before the cash-flow statement's change in it
        words = tokens(row["label"])
        if not fits(words) and row["concept"].endswith("Noncurrent") and row["statement"] == "balance":
            # "long-term operating lease liabilities": the balance sheet's noncurrent row, printed without the word
            words = next((words | w for w in _NONCURRENT_WORDS if fits(words | w)), words)
        if not fits(words) and {"long", "term"} <= words and not row["concept"].endswith("Current") \
                and _NONCURRENT_WORDS[2] <= have and fits(words | _NONCURRENT_WORDS[2]):
            # "long-term debt (noncurrent)": a long-term row is the noncurrent one, the user's "noncurrent" says it twice
            words |= _NONCURRENT_WORDS[2]
        if not fits(words) and row.get("schedule") and (heading := row["schedule"] & have - words) \
                and fits(words | heading):
            # "accrued personnel costs": the row "Personnel costs" of the schedule totalled "Total accrued expenses",
            # whose name is the heading the row is printed under; the user says the heading's words with the row's.
            # Read last, one such row only
            shown = f"{row['label']} ({_in_said_order(heading, question)})"
            headed.append(LineMatch(row["concept"], shown, "company", row["statement"]))
            continue
        if not fits(words) and row["statement"] == "cash" and not said_expense \
                and row["concept"].split(":")[-1].startswith("Payment") \
                and (fits(paying := words - {"paid"})
                     or ("acquisition" in have and fits(paying := paying - {"business"}))):
            # "Payments for business acquisitions": on the cash-flow statement a payment's verb is its sign (so is
            # "used in")
            # is; the user's "acquisitions" or "spent on acquisitions" names the row (only a Payments… concept), and
            # acquisitions paid for are of businesses unless the user names what ("Payments for businesses acquired")
            words = paying
        if not fits(words) and fits(words, signs := sign_words(row["label"], row["concept"])):
            words |= have & signs  # "equity income loss": the row "Equity income (loss)"
        if not fits(words) and have & _LOSS and (lost := _loss_side(row["label"])) and len(words - lost) >= 3 \
                and fits(words - lost, _LOSS):
            # "accumulated other comprehensive loss": the row "Accumulated other comprehensive income (loss)", its
            # loss said alone; only a loss, the one figure's other sign ("interest expense" is no "Interest income
            # (expense), net"), and only beside a name of its own: "equity loss" is no name of "Equity income (loss)"
            words = (words - lost) | (have & _LOSS)
        if not fits(words) and _EXPLAINED.search(row["label"]) and fits(plain := tokens(_EXPLAINED.sub(" ", row["label"]))):
            words = plain  # the user left out the row's note of what it includes or excludes
        if not fits(words) and (tail := _NET_OF_TAIL.search(row["label"])) \
                and fits(plain := tokens(row["label"][:tail.start()])):
            words = plain  # "Proceeds from long-term debt, net of discounts": what the amount is measured after
        if not fits(words) and (short := _ABBREVIATED.search(row["label"])):
            # "General and administrative (G&A)", "Research and development (R&D)": the row's name, or its
            # abbreviation alone, as the company prints them
            alone, whole = tokens(short.group(1)), tokens(row["label"][: short.start()])
            words = have if have in (alone, whole) else words
        if fits(words):
            tier = 0 if row["statement"] in PRIMARY else 1
            if tier and (_narrower_schedule(row["concept"], have | spare, tokens(row["label"]))
                         or (have and have <= _MOVEMENTS)):
                continue
            shown = row["label"]
            if row["concept"].endswith("Noncurrent") and not tokens(shown) & {"noncurrent", "long"} \
                    and (term := have - tokens(shown)) and term in _NONCURRENT_WORDS:
                # the noncurrent row printed under its section's heading alone ("Term debt" twice): shown with the
                # term the user said, as the row is not the balance's whole
                shown = f"{shown} ({_in_said_order(term, question)})"
            tiers[tier].append(LineMatch(row["concept"], shown, "company", row["statement"]))
        elif words and words < have \
                and words | (have & tokens(concept_words(row["concept"]))) == have \
                and not (have - words) & _excluded(row["concept"]) \
                and not (_COST_WORDS & tokens(concept_words(row["concept"])) - have and not said_cost) \
                and not ((have - words) & _included(row["concept"]) and not re.search(r"\bincl", question, re.I)):
            # "current deferred revenue": the row printed "Deferred revenue" under current liabilities
            # (ContractWithCustomerLiabilityCurrent), never its non-current twin. A note's schedule prints its
            # rows under a heading the same way ("State and local" under "Current:" in the tax note,
            # CurrentStateAndLocalTaxExpenseBenefit). Only a standard concept's name is the taxonomy's wording, and a
            # percent column (ko:SalesRevenueConcentrateOperationsNetPercentage) is no amount of the row
            if row["statement"] in PRIMARY:
                told.append(LineMatch(row["concept"], row["label"], "company", row["statement"]))
            elif row["concept"].split(":", 1)[0] in _STANDARD_TAXONOMIES and "Percent" not in row["concept"]:
                told_in_notes.append(LineMatch(row["concept"], row["label"], "company", row["statement"]))
    held = {c for c, _ in concepts}
    for concept, _ in concepts:
        if concept.split(":", 1)[0] not in _STANDARD_TAXONOMIES:
            # a company's own concept has no standard label: its name in words ("ResearchAndDevelopmentInProcess1")
            # is not what the filing calls it ("In-process research and development impairments"), its row is
            continue
        words = tokens(concept_words(concept))
        if other_kind(f"{leftover} {question}", concept_words(concept)):
            continue
        if not fits(words) and _DUE.search(concept) and f"{concept[:-7]}Noncurrent" not in held \
                and fits(words - {"current"}):
            # "dividends payable" is DividendsPayableCurrent ("Cash dividends declared but not paid" at Lowe's): a
            # payable or receivable is due within the year by nature, named without its term when the company reports
            # no noncurrent one; never a whole of other parts ("debt" is no DebtCurrent, "liabilities" no
            # LiabilitiesCurrent)
            words -= {"current"}
        if fits(words) or fits(words, sign_words("", concept)):
            named = concept_words(concept)
            if "current" not in words:
                named = re.sub(r"\s+current$", "", named)
            tiers[2].append(LineMatch(concept, named, "standard", ""))
    if not tiers[2] and not have & (_STOCK | _OTHER_STOCK):
        # "additional paid-in capital" is AdditionalPaidInCapitalCommonStock: the common stock a company has,
        # which its name qualifies, is the one meant unless the user names a class (read only when no name fits)
        for concept, _ in concepts:
            if concept.split(":", 1)[0] in _STANDARD_TAXONOMIES and concept.endswith("CommonStock") \
                    and (words := tokens(concept_words(concept)) - _STOCK - {"common"}) and fits(words):
                tiers[2].append(LineMatch(concept, concept_words(concept), "standard", ""))
    # the primary statements' rows first; then a standard label (notes reuse one printed label across
    # many schedules: "Operating lease liabilities" in the maturity tables); then the notes' rows
    ambiguous: list[LineMatch] = []
    for tier in (tiers[0], told, tiers[2], tiers[1]):
        if tier is told:  # a printed row the question's extra word picks, before any standard label
            same = told and any(m.concept == told[0].concept for m in tiers[2])  # then the standard label says it
            if not ambiguous and len({m.concept for m in told}) == 1 and not same:
                extra = _in_said_order(have - tokens(told[0].label), question)
                return LineMatch(told[0].concept, f"{told[0].label} ({extra})", "company", told[0].statement), []
            if not ambiguous and told and not same and len({m.label for m in told}) == 1:
                # one printed row filed under another concept in another year ("Raw materials and
                # packaging"): the candidates, of which the year's amount decides
                extra = _in_said_order(have - tokens(told[0].label), question)
                ambiguous = list({m.concept: LineMatch(m.concept, f"{m.label} ({extra})", "company", m.statement)
                                  for m in told}.values())
            continue
        by_concept: dict[str, LineMatch] = {}
        for m in tier:
            by_concept.setdefault(m.concept, m)
        amounts = {c: m for c, m in by_concept.items() if "Percent" not in c.split(":")[-1]}
        if amounts and len(amounts) < len(by_concept):
            by_concept = amounts  # a row's percent-of-sales column tagged beside it (...PercentToSales)
        if not by_concept:
            continue
        best = _most_specific(list(by_concept.values()), have | spare)
        if len(best) > 1:  # a balance and its change, printed alike: the user's change word decides
            change_rows = [m for m in best if _changes(m.concept) or bool(tokens(m.label) & CHANGE_WORDS)]
            asked = bool((have | spare) & CHANGE_WORDS)
            kept = change_rows if asked or asked_change else [m for m in best if m not in change_rows]
            best = kept or best
        if asked_change and not any(_changes(m.concept) or m.statement == "cash"
                                    or tokens(m.label) & CHANGE_WORDS for m in best):
            continue  # a balance is no change in it: the level is another figure

        if len(best) > 1 and {m.statement for m in best} == {"income", "cash"}:
            # the cash-flow statement lists an income statement line again as an adjustment ("Other
            # operating charges"): the line the company reports is the income statement's
            best = [m for m in best if m.statement == "income"]
        best = _said_net(best, question)
        if len(best) > 1:  # one line printed under several concepts: the one whose own name is the question's
            named = [m for m in best if tokens(concept_words(m.concept)) == have]
            best = named if len(named) == 1 else best
        if len(best) > 1:  # "Operating costs" and "Total operating costs": the user's "total" decides
            totals = [m for m in best if bool(re.match(r"\s*total\b", m.label, re.I)) == total]
            best = totals if len(totals) == 1 else best
        if len(best) > 1:
            best = _closest(best, question)
        if len(best) == 1:
            if ambiguous and not (total and re.match(r"\s*total\b", best[0].label, re.I)) and not _split_by_term(ambiguous):
                # the primary statements already print the name on several rows (or one row under several concepts):
                # a note's or a standard label's single match is no tie-break (JCI's tax-reconciliation line
                # "Restructuring and impairment costs"), the user or the year's amount decides; only the user's
                # "total" picks a note's total of the rows ("total term debt": current and non-current summed), and
                # a balance printed twice, current and non-current, is named whole by the note's row ("term debt")
                break
            whole = _whole_of(best[0], tiers[2]) if total and tier is tiers[0] else None
            return (whole or best[0]), []
        if len({m.label for m in best}) < len(best):  # the same label twice: tell them apart by concept
            best = [LineMatch(m.concept, f"{m.label} ({concept_words(m.concept)})", m.source, m.statement) for m in best]
        ambiguous = ambiguous or best
    if not ambiguous and not spell:
        # "franchised revenues" for the row "Revenues from franchised restaurants", "company-operated sales" for
        # "Sales by Company-operated restaurants": the row's name with the noun its source phrase ends on left
        # out, every other word the user's; one such row only (several: no match, never a guess)
        shortened = {row["concept"]: row for row in labels if not row["dims"] and row["statement"] in PRIMARY
                     and (words := _source_shortened(row["label"])) and fits(words)}
        if len(shortened) == 1:
            row = next(iter(shortened.values()))
            return LineMatch(row["concept"], row["label"], "company", row["statement"]), []
        if not told_in_notes and len({m.concept for m in headed}) == 1:
            return headed[0], []
        listed = {row["concept"]: row for row in labels if not row["dims"] and row["statement"] == "income"
                  and _lists_around(row["label"], question)}
        if len(listed) == 1:
            # "operating expenses" at Walmart, whose income statement prints the one row "Operating, selling, general
            # and administrative expenses": the asked name with the other items the company folds into that line
            # listed inside it; one such row only
            row = next(iter(listed.values()))
            return LineMatch(row["concept"], row["label"], "company", row["statement"]), []
        if len({m.concept for m in told_in_notes}) == 1:
            # "state and local current income tax": one note row, its heading's words in its concept's name;
            # several (the same words under two schedules) are no match, never a guess
            row = told_in_notes[0]
            extra = _in_said_order(have - tokens(row.label), question)
            return LineMatch(row.concept, f"{row.label} ({extra})", "company", row.statement), []
        section = have & _REVENUE_WORDS
        if section and have - section:
            # "premiums revenue" for the row "Premiums" printed among the revenues ("Premiums", "Products", ...,
            # "Total revenues"): the user names the section the row sits in; one such row only
            among = {row["concept"]: row for row in _revenue_rows(labels) if fits(tokens(row["label"]) | section)}
            if len(among) == 1:
                row = next(iter(among.values()))
                return LineMatch(row["concept"], row["label"], "company", row["statement"]), []
    return None, ambiguous


# A row listing items after its first word ("Operating, selling, general and administrative expenses")
_LIST_OPENS = re.compile(r"^\s*[A-Za-z]+\s*,\s+\w")


def _lists_around(label: str, asked: str) -> bool:
    """Whether `label` is a list whose first and last words are the asked name's two or three words, the other items
    between them ("Operating, selling, general and administrative expenses" around "operating expenses")."""
    said = _as_written(_ABBREVIATION.sub(lambda m: ABBREVIATIONS[m.group(1)], normalize(asked)))
    said, printed = said[1:] if said[:1] == ("total",) else said, _as_written(label)
    return 2 <= len(said) <= 3 and len(printed) > len(said) + 1 and bool(_LIST_OPENS.match(label)) \
        and printed[0] == said[0] and printed[-1] == said[-1] and set(said) <= set(printed)


_REVENUE_WORDS = frozenset({"revenue", "sale"})
# The income statement's revenue total, below the rows that make it up
_REVENUE_TOTALS = frozenset({"us-gaap:Revenues", "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax",
                             "us-gaap:SalesRevenueNet"})


def _revenue_rows(labels: list[dict]) -> list[dict]:
    """The income statement's rows printed above its revenue total (the revenues it adds up), never the total."""
    income = [r for r in labels if r["statement"] == "income" and not r["dims"] and r.get("row") is not None]
    totals = [r["row"] for r in income if r["concept"] in _REVENUE_TOTALS and re.match(r"\s*total\b", r["label"], re.I)]
    if not totals:
        return []
    return [r for r in income if r["row"] < min(totals) and r["concept"] not in _REVENUE_TOTALS]


# A row named for where its amount comes from: "<figure> from|by <what> <noun>" ("Revenues from franchised
# restaurants", "Sales by Company-operated restaurants"); the user says the figure and the what, not the noun
_SOURCE_ROW = re.compile(r"^\s*(?P<head>[A-Za-z][\w\s-]*?)\s+(?:from|by)\s+(?P<what>[\w-]+(?:\s+[\w-]+)?)\s+"
                         r"(?P<noun>[A-Za-z]+)\s*$")


def _source_shortened(label: str) -> frozenset[str]:
    m = _SOURCE_ROW.match(label)
    if m is None or not tokens(m.group("what")):
        return frozenset()
    return tokens(f"{m.group('head')} {m.group('what')}")


# A tax note's rows name the item a tax balance arises on ("Accrued compensation", "Intangible assets" among the
# deferred tax assets; "State taxes" in the rate reconciliation): the tax figure, never the item's own balance
_TAX_BASIS = re.compile(r"^(?:DeferredTax|DeferredIncomeTax|IncomeTaxReconciliation|EffectiveIncomeTaxRateReconciliation)")


def _tax_basis(concept: str) -> bool:
    return bool(_TAX_BASIS.match(concept.split(":")[-1]))


def _changes(concept: str) -> bool:
    """A cash-flow statement's change in a balance (IncreaseDecreaseInOperatingLeaseLiability), printed under the
    balance's own name: asked only with a change word."""
    return concept.split(":")[-1].startswith("IncreaseDecrease")


def _whole_of(part: LineMatch, standard: list[LineMatch]) -> LineMatch | None:
    """The user's "total" of a balance the balance sheet prints only as its non-current (or current) part under the
    whole's name (Nike's "Operating lease liabilities", OperatingLeaseLiabilityNoncurrent): the whole's concept
    when the company reports it (OperatingLeaseLiability), never the part."""
    name = part.concept.split(":")[-1]
    stem = re.sub(r"(?:Noncurrent|Current)$", "", name)
    return next((m for m in standard if stem != name and m.concept.split(":")[-1] == stem), None)


def _split_by_term(matches: list[LineMatch]) -> bool:
    """Rows that are one balance's current and non-current parts (LongTermDebtCurrent, LongTermDebtNoncurrent)."""
    stems = {re.sub(r"(?:Non)?[Cc]urrent$", "", m.concept) for m in matches}
    return len(matches) > 1 and len(stems) == 1 and all(m.concept.endswith("urrent") for m in matches)


def _in_said_order(words: frozenset[str], question: str) -> str:
    """`words` (as `tokens` reads them) in the order the question says them ("non current", not "current non")."""
    said = [_stem(w) for w in re.findall(r"[a-z0-9&]+", normalize(_NON.sub("non", unaccented(question))))]
    return " ".join(sorted(words, key=lambda w: (said.index(w) if w in said else len(said), w)))


def _said_net(matches: list[LineMatch], question: str) -> list[LineMatch]:
    """"Interest income" and "Interest income, net" both fit: the user's "net" picks the row printing it. Not said,
    nothing is decided by it ("property, plant and equipment" is the balance sheet's net row, not a gross one)."""
    if len(matches) < 2 or "net" not in re.findall(r"[a-z]+", question.lower()):
        return matches
    kept = [m for m in matches if "net" in re.findall(r"[a-z]+", m.label.lower())]
    return kept if len(kept) == 1 else matches


def _is_change(row: dict) -> bool:
    """A row that is a change in a balance ("Net increase (decrease) in cash", IncreaseDecreaseInInventories)."""
    return "IncreaseDecrease" in row["concept"] or bool(_printed_words(row["label"]) & CHANGE_WORDS) \
        or bool(re.search(r"\b(?:increase|decrease)", row["label"], re.I))


def _printed_alike(leftover: str, question: str, labels: list[dict], total: bool, drop: frozenset[str] = frozenset()
                   ) -> tuple[LineMatch | None, list[LineMatch]]:
    """A phrase of words that name nothing alone ("total costs and expenses", "other expenses"): the primary
    statements' one row printed with exactly those words (linking words aside), or None."""
    said = _printed_words(leftover) | (frozenset({"total"}) if total else frozenset())
    if not said - {"total"}:  # "total ... net" with the words between taken by a metric: a bare "Total" row names nothing
        return None, []
    found: dict[str, LineMatch] = {}
    summed: dict[str, LineMatch] = {}
    for row in labels:
        if row["dims"] or row["statement"] not in PRIMARY or other_kind(f"{leftover} {question}", row["label"]):
            continue
        printed = _printed_words(row["label"]) - drop | (
            frozenset({"total"}) if re.match(r"\s*total\b", row["label"], re.I) else frozenset())
        if printed == said:
            found.setdefault(row["concept"], LineMatch(row["concept"], row["label"], "company", row["statement"]))
        elif printed - {"total"} == said:
            summed.setdefault(row["concept"], LineMatch(row["concept"], row["label"], "company", row["statement"]))
    if not found and len(summed) == 1:
        found = summed  # "costs and expenses" is the one row "Total costs and expenses" when none prints it bare
    matches = _said_net(list(found.values()), question)
    return (matches[0], []) if len(matches) == 1 else (None, matches)


@lru_cache(maxsize=64)
def printed_words(labels: tuple[str, ...], concepts: tuple[str, ...]) -> frozenset[str]:
    """Every word the company's rows and concept names print (as `tokens` reads them): what a typo is read as
    (agent.retrieval.spelling)."""
    words: set[str] = set()
    for label in labels:
        words |= tokens(label)
    for concept in concepts:
        words |= tokens(concept_words(concept))
    return frozenset(words)


# Words a label may print that name nothing on their own, nor tell two rows apart ("net", and "total", which
# `resolve` weighs by itself); the rest of IGNORABLE ("continuing operations", "activities") do.
_LINKING = frozenset("of the and for from to a an by in on at net total".split())


def _printed_words(text: str) -> frozenset[str]:
    """Every word of a label or question (stemmed), the ignorable ones included, without linking words."""
    text = _EXPLAINED.sub(" ", _NOTE_REF.sub(" ", _OTHER_SIGN.sub(" ", _LEAD_IN.sub("", text))))
    norm = _ABBREVIATION.sub(lambda m: ABBREVIATIONS[m.group(1)], normalize(text))  # "R&D, net": the row's words
    # "operations" the user kept is the row's "operating" ("cash generated by operations"), as in `tokens`
    return frozenset("operating" if w == "operations" else _stem(w) for w in re.findall(r"[a-z0-9&]+", norm)
                     if w not in _LINKING and not w.isdigit())


def _closest(matches: list[LineMatch], question: str) -> list[LineMatch]:
    """Rows that fit alike ("Net earnings attributable to GE common shareholders" and "Earnings from
    continuing operations attributable to GE common shareholders", whose told-apart words are ignorable):
    those closest to the user's words — fewest words the user did not write or the row does not print (still
    several when one label is printed under several concepts, which the year's amount then decides)."""
    said = _printed_words(question)
    apart = [len(_printed_words(m.label) ^ said) for m in matches]
    return [m for m, d in zip(matches, apart) if d == min(apart)]


def _most_specific(matches: list[LineMatch], have: frozenset[str]) -> list[LineMatch]:
    """The matches that use the most of the question's words (a fuller label is a closer one)."""
    scores = [len(tokens(m.label) & have) for m in matches]
    top = max(scores)
    return [m for m, s in zip(matches, scores) if s == top]


def printed_index(labels: list[dict]) -> dict[frozenset[str], set[str]]:
    """The income statement's and balance sheet's own rows: label words -> concepts printed so. A
    cash-flow statement opens with the consolidated profit whatever it prints, and notes reuse labels
    across schedules, so neither names a figure."""
    index: dict[frozenset[str], set[str]] = {}
    for row in labels:
        if row["statement"] in ("income", "balance") and not row["dims"]:
            index.setdefault(tokens(row["label"]), set()).add(row["concept"])
    return index


def printed_order(index: dict[frozenset[str], set[str]], concepts: list[str] | tuple[str, ...], phrase: str
                  ) -> list[str]:
    """A metric's acceptable concepts, those the company prints under the user's own words first.

    Why: a filer may tag two of a metric's concepts on two rows ("Net sales" 674,538 and "Total
    revenues" 680,985 at Walmart). Asked for "net sales", the row printed "Net sales" is the answer;
    asked for "revenue", the one printed "Total revenues". `index`: printed_index of the company's
    rows. With no such row the table's order stands."""
    want = tokens(phrase)
    named = index.get(want, set()) if want else set()
    printed = {c for words, cs in index.items() if words != want for c in cs}
    if not any(c in named for c in concepts) or not any(c in printed and c not in named for c in concepts):
        return list(concepts)  # the company prints the metric on one row only: nothing to choose between
    return [c for c in concepts if c in named] + [c for c in concepts if c not in named]


def same_printed_row(candidates: list[LineMatch]) -> bool:
    """Several concepts behind one printed label ("Medical costs" tagged two ways across filings): one row,
    whose year's amount decides (retrieve), never two lines to choose between."""
    # a bare "Total" (of a segment table's columns) is no row's name: its concepts are different figures
    return len(candidates) >= 2 and len({printed_label(c) for c in candidates}) == 1 \
        and bool(tokens(printed_label(candidates[0])))


def printed_label(match: LineMatch) -> str:
    """The row's label as printed, without the words `resolve` adds in brackets to tell equal labels apart
    (the concept's name, or the question's extra words); "Net earnings (loss) ..." keeps its own brackets."""
    return re.sub(r"\s*\([^()]*\)$", "", match.label) if match.label.endswith(")") else match.label


def without_note_refs(label: str) -> str:
    """The label as shown in an answer, without its footnote references ("Restructuring (Note 20)")."""
    return re.sub(r"\s{2,}", " ", _NOTE_REF.sub(" ", label)).strip().rstrip(",").strip()


def line_optional(key: str) -> str:
    """The clause's filler words of a `line:` key (its fourth field, when written): words a label may hold."""
    parts = key[5:].split("|")
    return parts[3] if len(parts) > 3 else ""


def line_statement(key: str) -> str:
    """The statement the user named as the line's place ('cash', 'balance', 'income'), the key's fifth field."""
    parts = key[5:].split("|")
    return parts[4] if len(parts) > 4 else ""


def line_key(said: str, spare: str | None = None) -> str:
    """The `line:` key of a phrase the user said as a whole (its words, clause and shown text alike);
    `spare`: words the row's name may carry besides (line_optional)."""
    return f"line:{said}|{said}|{said}" + ("" if spare is None else f"|{spare}")


def line_parts(key: str) -> tuple[str, str, str]:
    """(leftover words, clause content words, the clause as the user wrote it) of a `line:` key
    (written by agent.planning.words.line_keys)."""
    leftover, context, shown = (key[5:].split("|") + ["", ""])[:3]
    return leftover, context, shown or context or leftover


def printed_rows(conn, memo: dict, cik: int, concept: str) -> set[str]:
    """The company's own labels for a concept on its primary statements (no member): the rows a concept
    matched by its standard name is printed as ("additional paid-in capital" is Coca-Cola's "Capital surplus")."""
    return {without_note_refs(r["label"]) for r in labels_of(conn, memo, cik)
            if r["concept"] == concept and r["statement"] in PRIMARY and not r["dims"]}


def labels_of(conn, memo: dict, cik: int) -> list[dict]:
    """The company's printed rows (store.labels), memoized per corpus version in `memo`."""
    from store import labels as labels_store

    printed = memo.get(("labels", cik))
    if printed is None:
        printed = labels_store.company_labels(conn, cik)
        totals = labels_store.schedule_totals(conn, cik)
        for row in printed:
            if (row["label"], row["concept"]) in totals:
                row["schedule"] = frozenset(w for t in totals[(row["label"], row["concept"])] for w in tokens(t))
        memo[("labels", cik)] = printed
    return printed


def company_line(conn, memo: dict, cik: int, key: str) -> tuple[LineMatch | None, list[LineMatch]]:
    """`resolve` for a `line:` key of agent.planning.words against one company's stored labels (memoized
    per corpus version in `memo`: the labels change only with an ingest)."""
    from store import labels as labels_store, lookups

    printed = labels_of(conn, memo, cik)
    concepts = memo.get(("concepts", cik))
    if concepts is None:
        concepts = memo[("concepts", cik)] = labels_store.company_concepts(conn, cik)
    name = memo.get(("name", cik))
    if name is None:
        name = memo[("name", cik)] = " ".join(lookups.company_names(conn, cik))
    leftover, context, shown = line_parts(key)
    if len(re.findall(r"\btotal\b", shown)) > 1:
        # "total liabilities and total stockholders' equity": two totals named, two lines; no row prints "total" twice,
        # and the one row holding both names ("Total liabilities and equity") is a third figure
        return None, []
    # a row may carry the company's own name ("Deferred revenue – Lowe's protection plans", "Verizon Business
    # Group goodwill impairment"), which the planner took as the company: allowed in the label, never needed
    place = line_statement(key)
    if place:  # "deferred income taxes on the cash flow statement": that statement's rows only
        printed = [r for r in printed if r["statement"] == place]
    exact = _exactly_printed(shown, printed)
    if exact is not None:
        return signed(exact), []
    match, candidates = resolve(leftover, context, printed, concepts, total="total" in shown.split(),
                                optional=f"{line_optional(key)} {name}".strip(), changes=place == "cash")
    return (signed(match) if match is not None else None), candidates


_ARTICLES = frozenset({"the", "a", "an"})


@lru_cache(maxsize=TOKEN_CACHE)
def _as_written(text: str) -> tuple[str, ...]:
    """A label's or phrase's words in order, every one kept ("net", "total", the sign's other name), stemmed;
    without articles, footnote references and the linking words a clause starts or ends with ("... for the")."""
    words = [_stem(w) for w in re.findall(r"[a-z0-9&]+", normalize(_NOTE_REF.sub(" ", unaccented(text))))
             if w not in _ARTICLES]
    while words and words[-1] in _LINKING:
        words.pop()
    while words and words[0] in _LINKING - {"net", "total"}:
        words.pop(0)
    return tuple(words)


def _exactly_printed(shown: str, printed: list[dict]) -> LineMatch | None:
    """The one row whose label is, word for word, the phrase the user wrote ("Total depreciation and amortization
    expense", "Net income from continuing operations attributable to common shareowners"): that row, before any
    near match that would prefer a primary statement's shorter line or ask between it and its longer twin. Rows of
    one label under several concepts ("Accounts receivable", a balance and its change) are left to `resolve`."""
    said = _as_written(shown)
    if len(said) < 2:
        return None
    words = tokens(shown)
    # a tax note's row named after the item ("Gains on equity investments" among the deferred tax liabilities) and a
    # cash-flow change printed under a balance's name are the rows `resolve` keeps for a question naming tax or a change
    rows = [r for r in printed if not r["dims"] and _as_written(r["label"]) == said
            and ("tax" in words or not _tax_basis(r["concept"]))
            and (bool(words & CHANGE_WORDS) or not _changes(r["concept"]))
            and (r["statement"] in PRIMARY or not _narrower_schedule(r["concept"], words, tokens(r["label"])))]
    if len({r["concept"] for r in rows}) != 1:
        return None
    primary = [r for r in rows if r["statement"] in PRIMARY]
    row = (primary or rows)[0]
    return LineMatch(row["concept"], row["label"], "company", row["statement"])


def printed_whole(labels: list[dict], phrase: str) -> LineMatch | None:
    """The one primary-statement row (no member) whose name is the phrase's words, two or more of them ("Accrued
    interest", "Membership and other income"), or None: what a reply names by itself when the thread's figure
    was another line ("same for accrued interest" after total assets), never that figure narrowed by it."""
    words = tokens(phrase)
    if len(words) < 2:
        return None
    rows = [r for r in labels if not r["dims"] and r["statement"] in PRIMARY and tokens(r["label"]) == words
            and not _changes(r["concept"])]
    if len({r["concept"] for r in rows}) != 1:
        return None
    return LineMatch(rows[0]["concept"], rows[0]["label"], "company", rows[0]["statement"])


def metric_phrases(words: list[dict]) -> dict[str, str]:
    """Metric key -> the words the question named it with (from the plan's word accounting)."""
    out: dict[str, list[str]] = {}
    before = ""
    for w in words or []:
        if w.get("as", "").startswith("metric:"):
            said = out.setdefault(w["as"][7:], [])
            if not said and before in ("total", "consolidated"):
                # "total operating costs" is the total's row, never a part's; "consolidated net income" the row
                # printed so (Coca-Cola's, with the noncontrolling interests' share), where one is
                said.append(before)
            said.append(w["word"])
        before = w.get("word", "")
    return {k: " ".join(v) for k, v in out.items()}
