"""Find a formula written inside a question with no name of its own: "what was A over B for Apple in 2024?".

Why: most formulas are asked, not defined; the clause that holds the operators is found and bounded so
that the company, year and filler around it are never read as operands.
"""

from __future__ import annotations

import re

from agent.planning.words import FILLER
from agent.retrieval.concepts import normalize
from agent.retrieval.finance import FORMULA_PHRASES
from agent.retrieval.line_items import tokens as line_tokens
from agent.planning.formula_definitions import ONE_YEAR, years_read
from agent.planning.formula_parse import parse_expression
from agent.planning.formula_syntax import ADD, DefinitionError, DIV, holds_operator, MUL, SUB, unwrap
from agent.planning.formula_trees import is_itself, restate, unit_of
from agent.planning.operand_rows import INLINE, LINE_WORDS

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
    if "," not in text or not holds_operator(text) or not lines:  # the rows read last: most questions need none
        return text
    out = text
    for m in reversed(list(_NAME_COMMA.finditer(text))):
        left = out[: m.start()]
        head = _PUNCT.split(left)[-1]
        lw = head.split()
        rest = out[m.end():]
        if any(p.match(" " + rest) for p in (DIV, ADD, SUB, MUL)):
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
            if after is not None and after not in _AFTER_NAME and not holds_operator(" " + after + " "):
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
CLAUSE = re.compile(r"[.;:?!](?:\s|$)|,\s(?!(?:then\s+)?(?:divided\s+by|over|minus|plus|less|times|multiplied\s+by|"
                     r"as\s+a\s+(?:%|percent(?:age)?|share|fraction|multiple)\s+of)\s)|\s[\u2013\u2014]\s|\s--\s")
# "over 2022-2024", "over the last three years", "over time": the years a figure is asked over, never a divisor
_OVER_YEARS = re.compile(r"\s+over\s+(?:the\s+)?(?:(?:last|past|previous|prior|recent|few|several|fiscal|fy)\b|time\b|"
                         r"(?:fy\s*)?'?\d{2,4}\b(?!\s*(?:%|percent|billion|million|thousand|[mbk]\b)))", re.I)
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
    for clause in [*CLAUSE.split(text), ""]:
        start = text.find(clause, pos) if clause else -1
        if start < 0:
            continue
        pos = start + len(clause)
        if not holds_operator(clause) or _printed_slash(clause, lines):
            continue
        words = list(re.finditer(r"\S+", clause))
        if len(words) > _MAX_CLAUSE_WORDS:
            continue  # a formula is written in a short clause; a long one is prose
        ops = [m for p in (DIV, ADD, SUB, MUL) for m in p.finditer(clause) if not _OVER_YEARS.match(clause, m.start())]
        if not ops:
            continue
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
                if lead or not holds_operator(piece):
                    continue
                said_years = {int(y.group(1)) for y in ONE_YEAR.finditer(piece)}
                # "2024 revenue divided by 2023 revenue": two consecutive years, the earlier the later's prior year
                # (one year alone inside a formula is never read: it may be the question's, said mid-clause)
                read = years_read(piece) if len(said_years) == 2 else piece
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
                if "op" not in tree or not bounded(start + lo, start + hi, since, tree) or is_itself(tree):
                    continue
                shown = re.sub(r"\s*\(\s*\)", "", (unwrap(piece) or piece)).strip()  # "(FY2025)" said inside: its year is read
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
    ops = [m for p in (DIV, ADD, SUB, MUL) for m in p.finditer(clause)]
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
        for lo in range(max(0, first - LINE_WORDS), first + (first == after)):
            ends = range(after + 1, min(len(words), lo + LINE_WORDS + 2) + 1) if first == after else [last]
            for hi in ends:
                # words of the row's name on both sides of the operator ("net of cost of sales" is a difference)
                if first != after and not (line_tokens(" ".join(words[lo:first])) and line_tokens(" ".join(words[after:hi]))):
                    continue
                span = line_tokens(" ".join(words[lo:hi]))
                if span and span in lines:
                    return True
    return False
