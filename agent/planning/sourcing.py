"""Where to look, said around the ask: "Please utilize information provided primarily within the balance sheet and
the P&L statement.", "Assume that you are a public equities analyst.", "Using the cash flow statement, answer the
following question to the best of your abilities: ...".

Why: analysts' requests (FinanceBench's among them) wrap the question in instructions about the statements to read
and the role to take. Those words name no figure, yet left in the text they were read as part of a metric's or a
defined formula's name ("following abilities dividend payout ratio") or as a row no company prints, and the
question was refused. A sentence that only says where to look is taken out; so is such a clause of the question's
own sentence, one statement it names alone kept as "on the <statement>", the words
agent.planning.words.statement_place reads to pick the row a line item is printed on. A clause that holds a formula or a figure's name is never taken out.
"""

from __future__ import annotations

import re

from agent.retrieval.concepts import find_phrases, normalize
from agent.retrieval.finance import MEASURE_PHRASES

# the statements by the names the instructions give them, and the statement each is
_STATEMENTS = (
    (re.compile(r"\b(?:cash[\s-]+flows?\s+statements?|statements?\s+of\s+cash\s+flows?)\b", re.I), "cash flow statement"),
    (re.compile(r"\b(?:balance\s+sheets?|statements?\s+of\s+financial\s+position)\b", re.I), "balance sheet"),
    (re.compile(r"\b(?:income\s+statements?|p\s*&\s*l(?:\s+statements?)?|profit\s+and\s+loss\s+statements?|"
                r"statements?\s+of\s+(?:operations|income|earnings)|statements?\s+of\s+comprehensive\s+income)\b", re.I),
     "income statement"),
)
# (the notes and the segment disclosure are places to look too: "From the notes to the financial statements,", "Based on
# the segment disclosure,")
_ANY_STATEMENT = re.compile(r"\b(?:statements?|balance\s+sheets?|p\s*&\s*l|financial\s+position|line\s+items?|"
                            r"footnotes?|segment\s+(?:disclosures?|notes?|information|reporting|data|tables?))\b", re.I)
# the verbs of an instruction about where to look, never words a row's name holds ("net cash provided by ...")
_INSTRUCTING = re.compile(
    r"\b(?:utiliz\w*|utilis\w*|us(?:e|ing)|rel(?:y|ying|ies)|bas(?:e|ed|ing)\s+on|draw\w*|refer\w*|perspective|"
    r"according\s+to|look\w*\s+at|extract\w*|respond\w*|answer\w*|judg\w*|conclusions?|consult\w*|focus\w*|"
    r"tak\w*\s+into\s+account|consider\w*|in\s+light\s+of|^\s*(?:from|per)\s+(?:the|its|their)\s)\b", re.I)
# a formula or a definition in the clause: never an instruction alone
# ("Calculate unadjusted EBITDA using operating income and D&A" defines; "Calculate what was asked by ..." does not)
_FORMULA = re.compile(r"\bdefined\b|\bdefine\b|=|\s[/÷×*+]\s|\b(?:divided\s+by|over|minus|plus|less|times)\b|"
                      r"\b(?:calculat|comput)\w*\s+(?!(?:\(?or\s+extract\)?\s+)?(?:what|the\s+answer|it|this|your\s+answer)\b)",
                      re.I)
# "Assume that you are a public equities analyst.", "As an investment analyst,": the role, no figure
_ROLE = re.compile(r"(?:^|(?<=[.?!:;]\s))\s*(?i:(?:please\s+)?(?:assum\w+\s+(?:that\s+)?you\s+are|imagine\s+(?:that\s+)?you\s+are|"
                   r"you\s+are|as)\s+(?:an?\s+)?(?:[\w-]+\s+){0,3}(?:analyst|investor|researcher)s?\b)"
                   r"(?:\s+(?:who|that)\b[^.?!:A-Z]*)?\s*[.?!:,]\s*")
# "answer the following question (to the best of your abilities) (by ...):": the question follows
# "Answer the following question as if you are an equity research analyst and have lost internet connection ...":
# a sentence about how to answer, the role it names no figure
_AS_IF = re.compile(r"(?:^|(?<=[.?!]\s))\s*(?:please\s+)?(?:answer|respond\s+to|address)\s+the\s+(?:following\s+)?question\s+"
                    r"as\s+(?:if|though)\s+you\s+(?:are|were)\b[^.?!:]*[.!]\s*", re.I)
_FOLLOWING = re.compile(r"\b(?:please\s+)?(?:answer|respond\s+to|address)\s+the\s+(?:following\s+)?question\b[^:?.]{0,200}:\s*",
                        re.I)
# a sentence, or a clause set off by a comma before or after the question
_SENTENCE = re.compile(r"[^.?!:;]+(?:[.?!:;]+|$)")
_LEAD_CLAUSE = re.compile(r"^\s*(?P<clause>(?:based\s+on|using|according\s+to|looking\s+at|relying\s+on|by\s+drawing|"
                          r"drawing|referring\s+to|with\s+reference\s+to|from|per|taking\s+into\s+account|considering|"
                          r"in\s+light\s+of)\b[^,?]{0,160}?),\s*", re.I)
# "Please calculate, using the balance sheet and income statement, Nike's ...": set off by commas on both sides
_MID_CLAUSE = re.compile(r",\s*(?P<clause>(?:based\s+on|using|according\s+to|looking\s+at|relying\s+on|drawing|"
                         r"referring\s+to|with\s+reference\s+to)\b[^,?]{0,160}?),\s*", re.I)
_TAIL_CLAUSE = re.compile(r",\s*(?P<clause>(?:based\s+on|using|according\s+to|relying\s+on|drawing|referring\s+to)\b[^,?]{0,160}?)"
                          r"(?=\s*[.?!]?\s*$)", re.I)


def _statement_kept(clause: str) -> str:
    """" on the <statement> " when the clause names exactly one statement, else " "."""
    named = {name for pattern, name in _STATEMENTS if pattern.search(clause)}
    return f" on the {named.pop()} " if len(named) == 1 else " "


def _instruction(clause: str) -> bool:
    """Whether the clause only says where to look: it names a statement, says so with an instruction's words,
    and holds no formula."""
    return bool(_ANY_STATEMENT.search(clause) and _INSTRUCTING.search(clause) and not _FORMULA.search(clause))


def _owned(clause: str) -> bool:
    """Whether a clause names whose statement it is ("Based on Walmart's balance sheet"): the company is the
    question's, so the clause stays."""
    return bool(re.search(r"\w['\u2019]s?\b(?!\s+(?:own|the)\b)", clause) and re.search(r"['\u2019]", clause)) \
        or bool(re.search(r"\b(?:of|for)\s+[A-Z]", clause))


def _asks(sentence: str) -> bool:
    """Whether a sentence names a figure or a company's ("Look at Nike's income statement and tell me the gross
    margin."): then it is the question, never an instruction alone."""
    for pattern, _ in _STATEMENTS:
        sentence = pattern.sub(" ", sentence)  # "cash flow statement": a statement's name, no figure asked
    return bool(re.search(r"\w['\u2019]s\b", sentence) or find_phrases(normalize(sentence), MEASURE_PHRASES))


# "total D&A (as shown in cash flow statement)", "(as reported on the income statement)": where the figure is printed,
# in brackets after it
_SHOWN_IN = re.compile(r"\(\s*(?:as\s+)?(?:shown|reported|presented|stated|printed|disclosed|listed|found|per)?\s*"
                       r"(?:in|on|by|from)?\s*(?:the\s+|its\s+)?(?P<s>[^()]{0,60}?)\s*\)", re.I)


def _shown_in(m: re.Match) -> str:
    clause = m.group(0)
    if not _ANY_STATEMENT.search(clause) or _FORMULA.search(clause) or len(m.group("s").split()) > 6:
        return clause
    return _statement_kept(clause) if any(p.search(clause) for p, _ in _STATEMENTS) else " "


def without_sourcing(text: str) -> str:
    """The text without the instructions about which statements to read and which role to take."""
    text = _AS_IF.sub(" ", text)  # ("an equity research analyst": a role's words, no figure asked)
    if not _ANY_STATEMENT.search(text) and not _ROLE.search(text) and not _FOLLOWING.search(text):
        return text
    text = _SHOWN_IN.sub(_shown_in, text)
    text = _ROLE.sub(" ", text)
    text = _FOLLOWING.sub(lambda m: _statement_kept(m.group(0)) if _ANY_STATEMENT.search(m.group(0)) else " ", text)
    out = []
    for m in _SENTENCE.finditer(text):
        sentence = m.group(0)
        body = sentence.rstrip(".?!:; ")
        if body.strip() and _instruction(body) and not sentence.rstrip().endswith("?") and not _asks(body):
            out.append(" ")  # a sentence of its own: said of the whole request, never of one row
            continue
        # the statement is kept as a row's place only beside a question with no formula in it
        lead = _LEAD_CLAUSE.match(sentence)
        if lead and _instruction(lead.group("clause")) and not _owned(lead.group("clause")):
            rest = sentence[lead.end():]
            sentence = (" " if _FORMULA.search(rest) else _statement_kept(lead.group("clause"))) + rest
        mid = _MID_CLAUSE.search(sentence)
        if mid and _instruction(mid.group("clause")) and not _owned(mid.group("clause")):
            rest = sentence[:mid.start()] + " " + sentence[mid.end():]
            sentence = sentence[:mid.start()] + (" " if _FORMULA.search(rest) else _statement_kept(mid.group("clause"))) \
                + sentence[mid.end():]
        tail = _TAIL_CLAUSE.search(sentence)
        if tail and _instruction(tail.group("clause")) and not _owned(tail.group("clause")):
            head = sentence[:tail.start()]
            sentence = head + (" " if _FORMULA.search(head) else _statement_kept(tail.group("clause"))) + sentence[tail.end():]
        out.append(sentence)
    return re.sub(r"\s+([.?!,;:])", r"\1", " ".join("".join(out).split()))
