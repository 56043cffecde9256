"""Amounts inside a quoted sentence, and whether each equals an XBRL fact of the same filing.

Why: every figure Footnote states is an XBRL fact. A filing sentence that carries an amount ("Revenue
for fiscal 2025 was $130.5 billion, driven by ...") may still be quoted whole when every amount in it
is the filing's own fact, shown at its scale: the footnote then cites that fact beside the chunk. A
sentence with an amount no fact of its filing equals keeps the clause rule (only the words after
the last figure are quoted).

Equal means value and scale: "$130.5 billion" is a USD fact whose absolute value lies within half a
unit of the last shown digit of 130.5 billion; "24.1%" a pure fact (a rate as a fraction) within half
a unit of 0.241. A figure shown with fewer than three significant digits ("$65 billion", "$1.4
billion") says too little to be told apart from the thousands of other values a 10-K tags, so it must
equal the fact exactly. The sign is the sentence's words ("a loss of $1.2 billion"), so absolute
values are compared. And the fact must be what the sentence calls it: the words before the amount or
after it (up to the next amount) share a word with the fact's concept name or the row labels the filing
printed for it ("Cash provided by operating activities was $64.1 billion" and
NetCashProvidedByUsedInOperatingActivities), so a look-alike value of another line never verifies.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

_SCALES = {"thousand": Decimal(10) ** 3, "million": Decimal(10) ** 6, "billion": Decimal(10) ** 9,
           "trillion": Decimal(10) ** 12}
# "$130.5 billion", "$ 47,405 million", "$2.94", "24.1%", "24.1 percent"
_AMOUNT = re.compile(
    r"(?P<dollar>[$])\s?(?P<num>\d[\d,]*(?:\.\d+)?)(?:\s?(?P<scale>thousand|million|billion|trillion)\b)?"
    r"|(?<![\w.$])(?P<pnum>\d[\d,]*(?:\.\d+)?)\s?(?:%|percent\b)",
    re.I,
)
MONEY_UNITS = ("USD", "USD/shares")
SIGNIFICANT = 3  # fewer significant digits than this: only an exact fact will do
RATE_UNITS = ("pure",)
CHANGE_UNIT = "change"  # a relative change between two money facts, as a fraction


@dataclass(frozen=True)
class Amount:
    """One figure as the sentence shows it: its value in the fact's terms and the half-width of
    the rounding its last digit allows."""

    shown: str
    start: int
    end: int
    value: Decimal
    half_step: Decimal
    exact: bool  # one significant digit: only an exact fact will do
    units: tuple[str, ...]
    digits: int = SIGNIFICANT  # significant digits shown

    @property
    def low(self) -> Decimal:
        return self.value - self.half_step

    @property
    def high(self) -> Decimal:
        return self.value + self.half_step

    def near(self, value: Decimal, unit: str) -> bool:
        """A computed change, within the rounding the shown figure allows (however few its digits:
        a change rounded to "12%" is what the filing computed from the two facts)."""
        if unit == CHANGE_UNIT:
            return RATE_UNITS[0] in self.units and self.low <= value <= self.high
        return unit in self.units and (value == self.value if self.exact else self.low <= value <= self.high)

    def equals(self, value: Decimal, unit: str) -> bool:
        if unit not in self.units:
            return False
        v = abs(value)
        if self.exact:
            return v == self.value
        return self.low <= v <= self.high


def _number(text: str) -> tuple[Decimal, int, int] | None:
    """(value, decimals shown, significant digits) of '47,405' or '130.5'."""
    plain = text.replace(",", "")
    try:
        value = Decimal(plain)
    except InvalidOperation:
        return None
    decimals = len(plain.split(".")[1]) if "." in plain else 0
    digits = plain.replace(".", "").lstrip("0")
    if "." not in plain:
        digits = digits.rstrip("0")  # "60 billion": one significant digit, not two
    return value, decimals, len(digits)


def amounts(sentence: str) -> list[Amount]:
    """The money amounts and percentages of `sentence`, in order."""
    out = []
    for m in _AMOUNT.finditer(sentence):
        if m.group("dollar"):
            parsed = _number(m.group("num"))
            if parsed is None:
                continue
            value, decimals, digits = parsed
            scale = _SCALES[m.group("scale").lower()] if m.group("scale") else Decimal(1)
            units = MONEY_UNITS
        else:
            parsed = _number(m.group("pnum"))
            if parsed is None:
                continue
            value, decimals, digits = parsed
            scale, units = Decimal("0.01"), RATE_UNITS
        half = Decimal(5) * Decimal(10) ** (-decimals - 1) * scale
        out.append(Amount(m.group(0), m.start(), m.end(), value * scale, half, digits < SIGNIFICANT, units, digits))
    return out


_WORD = re.compile(r"[a-z]{4,}")
_CAMEL = re.compile(r"[A-Z][a-z]+|[A-Z]+(?![a-z])")
# Words of concept names and labels that say nothing of what is measured.
_PLAIN = frozenset("total value amount other period during including excluding assessed from with into "
                   "customer contract year years fiscal ended continuing current noncurrent gross".split())


def _stem(word: str) -> str:
    for suffix in ("ies", "es", "s", "ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def _words(text: str) -> set[str]:
    return {_stem(w) for w in _WORD.findall(text.lower()) if w not in _PLAIN}


def name_words(name: str) -> set[str]:
    """The words a fact is called by: its concept split at capitals, and its labels."""
    return _words(" ".join(_CAMEL.findall(name)) + " " + name)


# Words every line may carry ("net", "expense", "income", "operating"): a fact shares them with
# questions about many other figures, so they never tie a quoted amount to what was asked.
_GENERIC = frozenset("net total expense expenses income cost costs operating operations activities activity used "
                     "provided us gaap other benefit loss losses gain gains".split())


def about(names: list[str], question: str, ticker: str = "") -> bool:
    """Whether the facts a quoted sentence's amounts equal (their `names`: concept and labels) are
    about what the question names, by a word that is neither generic nor the company's ticker:
    "Other operating expense (income), net" is not what "advertising expense" asks for."""
    asked = _words(question) - {_stem(w) for w in _GENERIC}
    own = set().union(*(name_words(n) for n in names)) - {_stem(w) for w in _GENERIC} - _words(ticker)
    return bool(asked & own)


def verified(sentence: str, facts: list[tuple]) -> list[str] | None:
    """The ids of the facts (id, value, unit, name: concept and labels[, period end]) the sentence's
    amounts equal and name, one per amount, or None when some money amount has no such fact (or the
    sentence shows no amount); a percentage with no such fact adds none. An amount may also be the change between two facts of one name a
    year apart ("increased $4.2 billion, or 12%"): both are then its facts."""
    found = amounts(sentence)
    if not found:
        return None
    pairs = changes(facts)
    # a sentence of percentages alone ("Total deferred revenue increased 11%") states no amount a change
    # could be checked against: its rounded rates would find look-alike changes among a 10-K's thousands of
    # pairs (deferred tax liabilities), so they cite only a reported rate of their name
    rates_only = all(RATE_UNITS[0] in a.units for a in found)
    matches: list[list[str] | None] = []
    for i, amount in enumerate(found):
        right = found[i + 1].start if i + 1 < len(found) else len(sentence)
        around = _words(sentence[:amount.start] + " " + sentence[amount.end:right])  # "X was A, compared with B"
        match = _best([([f[0]], f[3]) for f in facts if amount.equals(f[1], f[2]) and _names(around, f[3], amount)],
                      around, set())
        if match is None and not (RATE_UNITS[0] in amount.units and (_SHARE_OF.search(sentence) or rates_only)):
            stated_here = {m[0] for m in matches if m is not None and len(m) == 1}
            match = _best([([a, b], name) for a, b, value, unit, name in pairs
                           if amount.near(value, unit) and names_line(around, name)], around, stated_here)
        matches.append(match)
    stated = {m[0] for m in matches if m is not None}
    for i, amount in enumerate(found):
        if matches[i] is None and amount.exact:
            # "Notebook revenue was $17.0 billion, down $1.8 billion": a change shown with few digits is
            # taken when the sentence states the later of its two facts too
            matches[i] = next(([a, b] for a, b, value, unit, _ in pairs
                               if a in stated and unit in amount.units and amount.low <= value <= amount.high), None)
    # a percentage that equals no fact is no amount to verify (a rate, a share, a change the filing
    # computed): the sentence is quoted with it as written; a money amount must equal a fact
    if any(m is None and RATE_UNITS[0] not in amount.units for m, amount in zip(matches, found)):
        return None
    if any(m is None for m in matches):
        if not rates_only:
            # money beside a percentage no fact accounts for: the sentence is not its facts' whole statement
            # (the composer cuts its money out and keeps the percentage as written)
            return None
        # percentages alone, not all of them a fact's: none cites, as a lone rounded rate may equal a
        # look-alike change of some other line ("from 19.4% to 18.4%" and inventory)
        matches = [None] * len(matches)
    return list(dict.fromkeys(i for m in matches if m is not None for i in m))


# and the words any rate's name carries: "grew 4% while operating margin declined 0.2 percentage points" names no
# pension plan's target allocation percentage
_DISTINCT_GENERIC = frozenset(_stem(w) for w in (*_GENERIC, "percent", "percentage", "rate", "rates", "point", "points"))


def _names(around: set[str], name: str, amount: Amount) -> bool:
    """Whether the words around an amount name the fact: a word of its name in common, and, for an amount
    shown with few digits (which many of a 10-K's values equal exactly), a word that is not one every line
    carries when the name has such a word. Walgreens' "favorably impacted ... or $17 million, as a result of
    currency translation" shares only "income" with an equity-method income line that happens to be $17
    million, and is no statement of it."""
    own = name_words(name)
    if not around & own:
        return False
    distinct = own - _DISTINCT_GENERIC
    return not (amount.exact and distinct and not around & distinct)


def _best(candidates: list[tuple[list[str], str]], around: set[str], stated: set[str]) -> list[str] | None:
    """Of the facts (or pairs) an amount equals, the one the sentence names best: a change whose later fact
    the sentence states beside it first, then the most words of its name around the amount, those every
    line carries counting least; else the first. Procter & Gamble's "Operating cash flow was $19.8 billion in
    2024, an 18% increase" found a financing cash flow pair that also changed 18% before the operating one."""
    if not candidates:
        return None

    def score(c: tuple[list[str], str]) -> tuple:
        ids, name = c
        own = name_words(name) & around
        return (ids[0] in stated, len(own - _DISTINCT_GENERIC), len(own))

    return max(enumerate(candidates), key=lambda ic: (score(ic[1]), -ic[0]))[1][0]


# "us-gaap:Revenues", "RevenueFromContract...": a prefixed name, or two capitalised words run together
_CONCEPT = re.compile(r"^[\w-]+:[A-Z]\w*$|^[A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*)+$")
_TICKER = re.compile(r"^[A-Z.]{1,6}$")


def _lines(name: str) -> list[set[str]]:
    """What a fact's line is called: its concept's words and each printed label's. A fact's name is its
    ticker, concept, member(s) and the filing's labels for it, "|"-separated; a member's name is left out,
    as a filing calls its segments by initials ("BCA revenues decreased by ...")."""
    lines, rest = [], []
    for token in re.split(r"[\s(),]+", name):
        if not token or _TICKER.match(token):
            continue
        if _CONCEPT.match(token):
            if not token.endswith("Member"):
                lines.append(_words(" ".join(_CAMEL.findall(token.split(":")[-1]))))
        else:
            rest.append(token)
    return [*lines, *(_words(label) for label in " ".join(rest).split("|"))]


def _said(word: str, around: set[str]) -> bool:
    """The word, or a form of it ("service" and "services" stem apart), is among `around`."""
    return word in around or (len(word) >= 5 and any(a[:5] == word[:5] for a in around if len(a) >= 5))


def names_line(around: set[str], name: str) -> bool:
    """Whether the words around a change name the line it is a change of: half the words of the line's
    concept or of one of its labels, those any line carries aside (or, of a name made only of those, one).
    "Changes in foreign exchange rates increased International net sales by $88 million" shares "sale"
    with a debt securities' "available-for-sale" unrealized loss that moved $88 million, and is no
    statement of that change: one shared word of a long name is a coincidence among a 10-K's thousands
    of pairs."""
    for words in _lines(name):
        distinct = words - _DISTINCT_GENERIC
        if distinct and 2 * sum(_said(w, around) for w in distinct) >= len(distinct):
            return True
        if words and not distinct and any(_said(w, around) for w in words):
            return True
    return False


# A percentage said to be a share of a figure ("as a percent of net sales", "61% of unit case volume") is no
# change between two years: it is never matched to one (a 10-K's thousands of pairs hold a look-alike)
_SHARE_OF = re.compile(r"\b(?:percent(?:age)?|share)\s+of\b|%\s+of\b", re.I)


YEAR_APART = (350, 380)  # days between the ends of a period and the same period a year before


def changes(facts: list[tuple]) -> list[tuple[str, str, Decimal, str, str]]:
    """(later id, earlier id, change, unit, name) for every two money facts of one name (concept,
    member and labels) whose periods end a year apart: the change in money, and relative to the
    earlier value (unit CHANGE_UNIT)."""
    from datetime import date

    groups: dict[tuple, list] = {}
    for f in facts:
        if len(f) > 4 and f[4] and f[2] in MONEY_UNITS:
            groups.setdefault((line_of(f[3]), f[2]), []).append((f[0], f[1], date.fromisoformat(f[4]), f[3]))
    out = []
    for (_, unit), dated in groups.items():  # only facts of one line can be a change of each other
        for a in dated:
            for b in dated:
                if YEAR_APART[0] <= (a[2] - b[2]).days <= YEAR_APART[1]:
                    name = a[3] if a[3] == b[3] else f"{a[3]} | {b[3]}"  # the line as either fact calls it
                    out.append((a[0], b[0], abs(a[1] - b[1]), unit, name))
                    if b[1] and a[3] == b[3]:
                        # a rate of change, shown with a digit or two, only between facts described alike: "an
                        # increase of 1%" is equalled by many a pair, and the money it moved names the line
                        out.append((a[0], b[0], abs((a[1] - b[1]) / b[1]), CHANGE_UNIT, name))
    return out


def line_of(name: str) -> frozenset[str] | str:
    """Which line a fact is of: its concept and member(s), however the fact was described. Why: one
    line's facts reach the composer under two descriptions, the asked metric's ("Meta Platforms (META)
    Research and development expense, fiscal 2024: ... (us-gaap:ResearchAndDevelopmentExpense") and a
    printed row's ("META us-gaap:ResearchAndDevelopmentExpense (Research and development)"); grouped by
    the description, this year's and last year's were never a pair, and "R&D expenses increased $5.39
    billion" was verified by neither. An axis is left out (one description names it, the other only its
    member); a name with no concept is its own line."""
    tokens = frozenset(t for t in re.split(r"[\s(),=]+", name) if _CONCEPT.match(t) and ":" in t
                       and not t.endswith("Axis"))
    return tokens or name


_CHANGE_WORDS = re.compile(r"\b(?:increase[sd]?|decrease[sd]?|up|down|gr[eo]w\w*|r[io]se[ns]?|fell|declin\w*|higher|lower|"
                           r"drop\w*|change[sd]?|compared|reduc\w*|improv\w*)\b", re.I)


def change_ranges(texts: list[str]) -> list[tuple[Decimal, Decimal, bool]]:
    """The ranges a change between two facts must fall in to equal an amount of `texts`: (low, high,
    relative)."""
    out = {}
    for text in texts:
        if not _CHANGE_WORDS.search(text):
            continue  # states no change: its amounts are levels, looked up as facts
        for a in amounts(text):
            if a.digits >= 2:  # "$1 billion" says too little to look for a change that equals it
                out[(a.low, a.high, RATE_UNITS[0] in a.units)] = None
    return list(out)


def ranges(texts: list[str]) -> list[tuple[Decimal, Decimal, tuple[str, ...]]]:
    """The value ranges a fact must fall in to equal one of the amounts of `texts` (deduplicated)."""
    out = {}
    for text in texts:
        for a in amounts(text):
            out[(a.low, a.high, a.units)] = None
    return list(out)
