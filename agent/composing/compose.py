"""The compose node and the extractive composer (the default: no model, nothing invented).

Prose is verbatim sentences from the top retrieved chunks, each citing its chunk; numbers are
templated sentences around `agent.retrieval.finance.display_value`; comparisons and trends are tables
whose every figure cell cites its fact or computation. A model composer, when configured, is
called through the same signature and falls back to this one on any error.
"""

from __future__ import annotations

import logging
import math
import re
from datetime import date, timedelta
from decimal import Decimal

from agent.composing import neighbourhood, sentence_rank
from agent.composing.draft import Claim, Draft, Evidence, possessive
from agent.composing.sentence_vectors import SENTENCES
from store.items import is_quarterly_item, item_label
from agent.progress import draft_text, status
from agent.checking.guards import (figure_fact, financial_figures, money_figures, number_tokens, split_sentences,
                                   verified_figures)
from agent.checking.quoted_figures import amounts
from agent.planning.in_words import names_all
from agent.planning.scope import INJECTION
from agent.planning.plan import Plan
from agent.planning.prose_route import EVENT, asks_what_happened
from agent.retrieval.causes import subject_metric
from agent.retrieval.concepts import METRICS
from agent.retrieval.earlier_filing import EARLIER_SLOT
from agent.retrieval.query_vectors import embed_queries
from agent.state import plan_of

log = logging.getLogger(__name__)

# An answer ends when the sentences that answer end (`_until_answered`), at most MAX_SENTENCES.
MAX_SENTENCES = 5
TOP_CHUNKS = 3  # each contributes its best sentence
# The search's best prose chunks read for sentences. Reading all eight it keeps brought no answer
# more on the development set and let more filler into the shortlist: the shortlist is the budget.
READ_CHUNKS = 6
MIN_SENTENCE, MAX_SENTENCE = 40, 600
# Sentence relevance (cosine of MiniLM embeddings to a sub-query): below the floor, or this far
# below the best sentence, a sentence is off-topic padding even inside a top-ranked chunk.
RELEVANCE_FLOOR, RELEVANCE_MARGIN, OVERLAP_WEIGHT = 0.20, 0.15, 0.03
WORDED_MARGIN = 0.1  # and a sentence naming the asked subject in the question's own words, this much further
# A sentence with many numbers reads like a table row; a few (a model, a date, an amount) are
# what a cause or an event is told with.
NUMBER_PENALTY, FREE_NUMBERS = 0.02, 3
ROLE_WEIGHT = 1.0  # in the shortlist: a sentence playing the part asked for (a cause, a reliance, an event)
SHORTLIST = 10  # sentences embedded per answer, chosen by shared terms: the latency budget
UNDER_EXTRA = 4  # and those a heading naming the asked line brings in (a why's only)
# The search ranked the chunks by the whole question, words and meaning: a sentence of its first
# chunk is a little more likely to answer than one of its sixth.
RANK_WEIGHT = 0.04
# A sentence that carries on from a strong one ("This decrease was partially offset by ...") tells
# the rest of its answer.
ADJACENT_BONUS = 0.05
# "why?" after a figure: a sentence that states that very figure and how it moved, or the cause told
# right after such a statement ("Operating income was $11,311 million in 2023 ... The increase in
# operating income was primarily driven by ..."), explains the company's total, where a sentence
# that only shares its words may explain a segment's or a product's.
STATED_BONUS = 0.1
STATED_WEIGHT = 100.0  # in the shortlist's term weights: above any sentence's words
_CARRIES_ON = re.compile(r"^(?:This|These|That|Such|The (?:increase|decrease|decline|growth|change|improvement)s?|"
                         r"Partially|Also|In addition|Additionally|As a result|Consequently|Accordingly|Further(?:more)?|"
                         r"Moreover|Th(?:is|ese) (?:increase|decrease|decline)s?)\b")
SCORE_WORDS = 24  # a sentence's opening words carry its subject; embedding cost grows with length
_WORD = re.compile(r"[a-z][a-z&\-]+")
_STOP = frozenset(
    "the and for with that this from what which how does did were was are its their about have has "
    "been will would into over than also such other company companys company's our we they them "
    "describe tell explain main key say says said 10-k filing item fiscal year why much".split()
)
# A chunk's first sentence often starts with its Item's heading: shown without it (still verbatim).
_TITLE = re.compile(
    r"^(?:Item\s+\d+[A-C]?\.?\s*)?(?:Risk Factors|Cybersecurity|Business|Quantitative and Qualitative Disclosures "
    r"About Market Risk|Management['’]s Discussion and Analysis of Financial Condition and Results of Operations|"
    r"Financial Statements and Supplementary Data|RISK FACTORS|BUSINESS|CYBERSECURITY)\s+(?=[A-Z])"
)
# A running page header or footer left inside a sentence ("Apple Inc. | 2024 Form 10-K | 7 The Company ...").
_PAGE_MARK = re.compile(r"^.{0,80}?\|\s*(?:19|20)\d\d\s+Form\s+10-K\s*\|\s*\d+\s+(?=[A-Z])")
# A sub-heading glued to the sentence after it ("Risk management and strategy We have ..."):
# a sentence opener capitalized mid-sentence marks where the heading ends.
_GLUED = re.compile(
    r"^[A-Z][\w’'&,()-]*(?:\s+[\w’'&,()-]+){0,6}?\s+(?=(?:We|Our|The|This|These|During|Each|Under|Since|Because|Although)\s)"
)
_INSTRUCTION = re.compile("|".join(f"(?:{p})" for p in INJECTION))
_DANGLING = re.compile(r"(?:\d|respectively\b|and\b|or\b)", re.I)  # a tail that only makes sense with its figure
_ENDS = re.compile(r"(?:[.!?][\"”’)]?|…)$")
_ITEM_ENDS = re.compile(r"[\w.;)%”\"]$")  # a bullet point may end without its period
_BULLET = re.compile(r"^[•▪●◦‣·\-–—*]\s*")
_BOILERPLATE = re.compile(
    r"^(table of contents|see |refer to |\(?\d+\)?$|page \d+)|\bshould be read (?:together|in conjunction) with\b|"
    # "For more information related to X, refer to Note 19 - Restructuring ...": a pointer, not a statement
    r"^for (?:more|additional|further) (?:information|details|discussion)\b[^.;]{0,160}?\b(?:see|refer to)\b|"
    r"\byou should carefully consider\b|\bnot the only (?:risks|ones)\b|\bPart I{1,3}V?,?\s+Item\s+\d|"
    # "The following summarizes select 2024 comparisons ...": a pointer to a table, which is not quoted
    r"^the following (?:table\s+)?(?:summarizes|summarize|presents|present|sets forth|shows|show|provides|lists)\b", re.I
)  # reading instructions and cross-references are never the answer


def _shouting(sentence: str) -> bool:
    letters = [ch for ch in sentence if ch.isalpha()]
    return bool(letters) and sum(ch.isupper() for ch in letters) > 0.5 * len(letters)


def _stem(word: str) -> str:
    return sentence_rank.stem(word)


def _terms(text: str) -> set[str]:
    return {_stem(w) for w in _WORD.findall(text.lower()) if w not in _STOP and len(w) > 2}


def _asked_terms(text: str) -> set[str]:
    """`_terms` of what is asked about: not how it moved nor the words a why is asked with."""
    return {_stem(w) for w in _WORD.findall(text.lower())
            if w not in _STOP and len(w) > 2 and sentence_rank.stem(w) not in sentence_rank.MOVEMENT}


def lower_label(label: str) -> str:
    """'Research and development expense' -> 'research and development expense'; keeps 'EPS'."""
    first = label.split(" ", 1)[0]
    if len(first) > 1 and any(c.isupper() for c in first[1:]):  # EPS, R&D, SG&A
        return label
    return label[0].lower() + label[1:]


def _candidates(chunks: list[Evidence], figures: dict[str, list] | None = None,
                year: int | None = None, figure_ask: str | None = None) -> list[tuple[int, int, str, str]]:
    """(chunk rank, position, sentence, the text to score it by) for every sentence of `chunks` that can stand as a quote:
    a whole statement of readable length, no heading, no instruction addressed to a reader. Every
    figure Footnote states comes from an XBRL fact: a sentence whose every amount equals a fact of
    its own filing (`figures`: accession -> (id, value, unit), agent.checking.quoted_figures) is quoted whole
    and cites those facts; of any other sentence that carries one of the filing's own amounts only
    its longest figure-free clause is quoted, the one after its last amount ('…directed mainly to
    X.') or the one before its first ('We funded the acquisition with cash on hand…'), and a
    sentence with neither is not quoted at all (cite_check would refuse it). A bullet point is a
    statement too, with or without its closing period."""
    out = []
    for rank, chunk in enumerate(chunks):
        pieces = split_sentences(chunk.text)
        above = neighbourhood.headings(pieces)
        for position, sentence in enumerate(pieces):
            if position in above and _earlier_comparison(above[position], chunk, year):
                continue  # under "Fiscal 2023 Compared with Fiscal 2022": last year's story, told again
            sentence = _GLUED.sub("", _TITLE.sub("", _PAGE_MARK.sub("", sentence)))
            bullet = _BULLET.match(sentence)
            sentence = whole = sentence[bullet.end():] if bullet else sentence
            if not sentence or not (sentence[0].isupper() or sentence[0] in "“\"("):
                continue
            if _INSTRUCTION.search(sentence.lower()):
                continue  # text planted in a filing to steer a reader is never quoted as an answer
            facts = _figure_facts(chunk, sentence, figures) if financial_figures(sentence) else []
            if facts and figure_ask and not _about_asked(facts, chunk, figures, figure_ask):
                facts = []  # a figure question's passage: an amount of another line is not its answer
            if facts and chunk.form.startswith("10-K") and _reports_earlier_year(facts, (figures or {}).get(chunk.accession) or [],
                                                                                 year or chunk.fiscal_year, chunk.fiscal_year):
                if (_MONEY.search(sentence) or _names_earlier_year(sentence, year or chunk.fiscal_year)) \
                        and not _coincides(sentence, facts, (figures or {}).get(chunk.accession) or [],
                                           year or chunk.fiscal_year):
                    continue  # its amounts are all an earlier year's: last year's story, told again
                # a percentage alone, equal only to an earlier year's rate or change, in a sentence naming no
                # earlier year, is a coincidence ("Demand creation expense increased 11%" and last year's change
                # in inventories, two digits that a hundred facts share): not verified, so cut like any other
                facts = []
            if money_figures(sentence) and not facts:
                # its amounts elided, or its longest figure-free clause; scored with its whole sentence
                # (its percentages stay: the filing's own words, no amount to verify)
                sentence = _elided(sentence) or _figure_free_clause(sentence)
                if not sentence:
                    continue
            if not (MIN_SENTENCE <= len(sentence) <= MAX_SENTENCE) or _BOILERPLATE.search(sentence):
                continue
            if not (_ENDS.search(sentence) or (bullet and _ITEM_ENDS.search(sentence))) or _shouting(sentence):
                continue  # a heading or a table caption, not a statement
            if _earlier_comparison(sentence, chunk, year) or _earlier_comparison(whole, chunk, year):
                continue  # "... in 2023 compared with 2022": the prior year's story, told again
            out.append((rank, position, sentence, whole))
    return out


_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_AGAINST = re.compile(r"\b(?:compared\s+(?:to|with)|versus|vs\.?|from)\s+(?:the\s+same\s+period\s+(?:in|of)\s+|"
                      r"(?:fiscal\s+)?(?:year\s+)?)?((?:19|20)\d\d)\b", re.I)
# A change told with the year it happened in ("decreased in 2022", "grew 5% in fiscal 2021").
_CHANGED_IN = re.compile(r"\b(?:increas|decreas|declin|grew|grow|rose|rise|fell|fall|drop|improv|deteriorat)\w*\s+"
                         r"(?:[\w$%.,]+\s+){0,3}?in\s+(?:fiscal\s+(?:year\s+)?)?((?:19|20)\d\d)\b", re.I)
_COMPARED = re.compile(r"\b(?:compared\s+(?:to|with)|versus|vs\.?|from)\b", re.I)


def _earlier_comparison(sentence: str, chunk: Evidence, year: int | None = None) -> bool:
    """A 10-K sentence comparing two years before the asked one (the filing's own when none was
    named): MD&A restating last year's discussion, which answers no question about this year."""
    asked = year or chunk.fiscal_year
    if not chunk.form.startswith("10-K") or not asked:
        return False
    if any(int(y) < asked for y in _CHANGED_IN.findall(sentence)) and max(map(int, _YEAR.findall(sentence))) < asked:
        return True  # "revenue decreased in 2022 primarily due to ...", read in the 2023 10-K
    if not _COMPARED.search(sentence):
        return False
    years = {int(y) for y in _YEAR.findall(sentence)}
    against = [int(y) for y in _AGAINST.findall(sentence)]  # "down $495 million from 2021"
    return (len(years) >= 2 and max(years) < asked) or any(y < asked - 1 for y in against)


def _reports_earlier_year(ids: list[str], facts: list[tuple], year: int | None, filing_year: int | None = None) -> bool:
    """Every fact a sentence's amounts equal is for a period ending before the asked fiscal year.

    A fiscal year is not a calendar year: Adobe's fiscal 2024 began on 2 December 2023, so a fee paid on
    17 December 2023 is that year's. The asked year's end is read off the filing's own facts (the latest
    period end many of them share, moved back a year for each year asked before the filing's), and a fact
    is an earlier year's when it ends a year or more before that."""
    ends = [f[4] for f in facts if f[0] in ids and len(f) > 4 and f[4]]
    if not (year and ends) or len(ends) != len(set(ids) & {f[0] for f in facts}):
        return False
    own = _own_period_end([f[4] for f in facts if len(f) > 4 and f[4]])
    if own is None or filing_year is None or own.year < filing_year:  # none of the filing's own year is at hand
        return all(int(end[:4]) < year for end in ends)
    asked_end = own - timedelta(days=round(365.25 * (filing_year - year)))
    return all(date.fromisoformat(end[:10]) <= asked_end - timedelta(days=_YEAR_AT_LEAST) for end in ends)


_YEAR_AT_LEAST = 362  # a year ends 364 (52 weeks), 365-366 or 371 (53 weeks) days after the last


def _own_period_end(ends: list[str]) -> date | None:
    """The filing's own fiscal year end: the latest period end that at least a quarter as many facts share as
    the most shared one (a later date tagged on a few facts is an event after the year, not the year)."""
    counts: dict[str, int] = {}
    for end in ends:
        counts[end[:10]] = counts.get(end[:10], 0) + 1
    if not counts:
        return None
    top = max(counts.values())
    return date.fromisoformat(max(e for e, n in counts.items() if n * 4 >= top))


def _lead_in(chunk: Evidence, sentence: str, figures: dict[str, list] | None, year: int | None) -> str | None:
    """A list's lead-in as it may be quoted beside its item ("Sales and marketing expenses increased due to
    the following:"): whole when its amounts are facts of its filing (or it has none), else with them cut
    (at most MAX_ELISIONS), else not at all. It ends with a colon, so it is never a candidate of its own.

    Why: MD&A explains a change with a list whose items do not name what they explain ("•Higher
    compensation costs"); the lead-in names it, and it is the sentence of the passage that says what moved."""
    sentence = _BULLET.sub("", sentence).strip()
    if not (MIN_SENTENCE <= len(sentence) <= MAX_SENTENCE) or _INSTRUCTION.search(sentence.lower()):
        return None
    if not money_figures(sentence):
        return sentence  # rates and basis points stay as the filing's words, as in any candidate (`_candidates`)
    facts = _figure_facts(chunk, sentence, figures)
    if facts and not _reports_earlier_year(facts, (figures or {}).get(chunk.accession) or [], year or chunk.fiscal_year):
        return sentence
    return _elided(sentence, lead_in=True)


def _antecedent(chunk: Evidence, pieces: list[str], key: tuple[int, int], figures: dict[str, list] | None,
                year: int | None) -> tuple[int, int, str, str] | None:
    """The statement a cause pointing back explains ("Data Center net revenue of $6.5 billion in 2023 increased
    by 7%, ..." before "The increase was primarily driven by ..."), as it may be quoted beside the cause when it
    is no candidate of its own: whole when its amounts are facts of its filing, else with them cut (`_lead_in`).

    Why: cut down to "... increased by 7%, compared to ...", such a statement says nothing past its amounts
    and is never quoted alone; above its cause it says which line moved and which way, and the cause
    was quoted with no statement at all, the line it explains unnamed."""
    if key[1] < 1:
        return None
    whole = _GLUED.sub("", _TITLE.sub("", _PAGE_MARK.sub("", _BULLET.sub("", pieces[key[1] - 1]))))
    if not whole[:1].isupper() or neighbourhood.is_heading(whole) or not _ENDS.search(whole) \
            or _BOILERPLATE.search(whole) or _earlier_comparison(whole, chunk, year):
        return None
    shown = _lead_in(chunk, whole, figures, year)
    return (key[0], key[1] - 1, shown, whole) if shown else None


# an amount told as the size of a change ("increased $118 million", "decreased by $1.2 billion")
_CHANGE_SIZE = re.compile(r"\b(?:increas|decreas|declin|grew|grow|rose|rise|fell|fall|drop|improv|was\s+(?:up|down)|"
                          r"(?:up|down)\s+(?:by\s+)?[$€£])\w*\s+(?:by\s+)?(?:approximately\s+|about\s+)?[$€£]?\d", re.I)


def _coincides(sentence: str, ids: list[str], facts: list[tuple], year: int | None) -> bool:
    """An earlier year's facts equal the sentence's amounts by coincidence, not because it tells last year's
    story: it names the asked year ("Revenue from Digital Media increased $1.65 billion during fiscal 2024",
    equal to a cost line's fact of fiscal 2022), or it tells the size of a change that no two facts a year apart
    back, only a level fact of some other line (PepsiCo's "Net interest expense and other decreased $120
    million", equal to a 2022 hedge loss). A fact that is itself a change ("IncreaseDecreaseInAccountsReceivable")
    is last year's change told again, no coincidence. Its amounts are then cut like any unverified amount, and
    its words, which answer this year's why, stay quotable."""
    years = [int(y) for y in _YEAR.findall(sentence)]
    if year and years and max(years) >= year:
        return True
    names = " ".join(f[3] for f in facts if f[0] in ids)
    return (bool(_CHANGE_SIZE.search(sentence)) and not years and len(set(ids)) <= len(money_figures(sentence))
            and not _A_CHANGE.search(names))


_A_CHANGE = re.compile(r"IncreaseDecrease|\b(?:increase|decrease|change)s?\b", re.I)  # a fact's concept or label


def _names_earlier_year(sentence: str, year: int | None) -> bool:
    """The sentence names a year before the asked one ("in 2023", "fiscal 2022") and none after."""
    years = [int(y) for y in _YEAR.findall(sentence)]
    return bool(year and years) and max(years) < year


def _about_asked(ids: list[str], chunk: Evidence, figures: dict[str, list] | None, question: str) -> bool:
    """The facts a sentence's amounts equal are what a figure question asked for (quoted_figures.about)."""
    from agent.checking.quoted_figures import about

    names = [f[3] for f in (figures or {}).get(chunk.accession) or [] if f[0] in ids]
    return about(names, question, chunk.ticker or "")


def _figure_facts(chunk: Evidence, sentence: str, figures: dict[str, list] | None) -> list[str]:
    """The ids of the XBRL facts of the chunk's own filing that every amount of `sentence` equals
    (empty when one equals none): such a sentence may be quoted whole."""
    return verified_figures(sentence, (figures or {}).get(chunk.accession) or []) or []


HEAD_WORDS = 10  # a clause before the amounts shorter than this is a subject without its statement
# Words that open a clause of cause or comparison right after an amount ("... $6.3 billion primarily due to").
_CLAUSE_OPENER = re.compile(r"(?:primarily|mainly|largely|principally|partially|partly|due|driven|reflecting|"
                            r"resulting|attributable|because|as\s+a\s+result|compared|which|offset)\b", re.I)
# Words that tie what follows to the amount before them ("$2 billion of which", "per share, and"): a
# clause opening with one is no statement of its own.
_BOUND = re.compile(r"(?:(?:of|and|or|but|per|respectively|each|to|for|as|than|is|was|were|are|in\s+(?:each|total|"
                    r"aggregate|cash|connection))\b|[^A-Za-z])", re.I)
# the amounts cut out of a sentence no fact backs: money, never its percentages (guards.money_figures)
_MONEY = re.compile(r"[$€£]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:billion|million|thousand|trillion)\b)?"
                    r"|(?<![\w.])\d[\d,]*(?:\.\d+)?\s?(?:billion\b|million\b|trillion\b)", re.I)


MAX_ELISIONS = 3  # more holes than this and the sentence says little without its figures
# unless it states a cause: "increased … primarily due to higher sales of … at A, … at B, and … at C, partially
# offset by …" still says why without its amounts, where "Sales were … in A, … in B, … in C and … in D" says nothing
MAX_CAUSE_ELISIONS = 5
_JOINED = re.compile(r"\s*(?:to|and|or|-|–|—|,)?\s*")  # "$60 billion to $65 billion": one elision
# Amounts that state one size together, each cut but counted as one hole: a change with its rate and
# its new level ("increased $1.9 billion, or 10%, to $20.5 billion"), an amount with its after-tax
# amount in brackets ("a charge of $1.3 billion ($1.0 billion after tax)"). MD&A tells a change and its
# cause in one such sentence; counting each amount a hole left it no candidate for the why it answers.
_ONE_SIZE = re.compile(r"\s*(?:,\s*(?:or|to|and|an?\s+(?:increase|decrease)\s+of)?|\(|or|to)\s*", re.I)


def _elided(sentence: str, lead_in: bool = False) -> str | None:
    """The sentence with each amount no XBRL fact backs cut out and marked "…" ("We anticipate
    capital expenditures of approximately … in 2025 to support ..."): every word it shows is the
    filing's, in the filing's order, and it states no figure. None when more than MAX_ELISIONS
    holes would be cut (amounts stating one size together, `_ONE_SIZE`, are one), or what remains
    is not mostly the sentence. A list's lead-in (`lead_in`) says the rest in its items: what it says past
    its amounts is not asked of it."""
    spans: list[list[int]] = []
    for m in _MONEY.finditer(sentence):
        if spans and _JOINED.fullmatch(sentence[spans[-1][1]:m.start()]):
            spans[-1][1] = m.end()
        else:
            spans.append([m.start(), m.end()])
    sizes = 1 + sum(not _ONE_SIZE.fullmatch(sentence[a[1]:b[0]]) for a, b in zip(spans, spans[1:]))
    if not spans or sizes > (MAX_CAUSE_ELISIONS if sentence_rank.CAUSE.search(sentence) else MAX_ELISIONS):
        return None
    out, at = [], 0
    for start, end in spans:
        out.append(sentence[at:start].rstrip())
        at = end
    out.append(sentence[at:].lstrip())
    text = " … ".join(p for p in out if p) if out[0] else "… " + " … ".join(p for p in out[1:] if p)
    text = re.sub(r"\s+", " ", text).replace(" … ,", " …,").replace(" … .", " ….").replace("( … ", "(…")
    kept = sum(len(p) for p in out)
    if money_figures(text) or kept < 0.6 * len(sentence) or text.endswith("…"):
        return None
    if lead_in:
        return text
    # what it says past its subject, besides the period and comparison its amounts were framed in: "... were
    # … for the year ended December 31, 2024." and "Operating profit was …, or … of revenue, compared with
    # …" said only their amounts; "..., partially offset by a decline in digital sales of …." said more
    subject = set(re.findall(r"[a-z]{4,}", text.split("…", 1)[0].lower()))
    rest = text.split("…", 1)[-1]
    said = {w for w in re.findall(r"[a-z]{4,}", rest.lower())
            if w not in _PERIOD_WORDS and w not in _FRAME_WORDS and w not in subject}
    # a cause in the subject's own words says why ("Other income and expense was … of income compared with …
    # of income, due to higher interest income"): one word of its own past the subject's is enough then
    cause = {w for m in sentence_rank.CAUSE.finditer(rest) for w in m.group(0).lower().split()}
    if len(said - cause) < (1 if cause else 2):
        return None
    return text


_PERIOD_WORDS = frozenset("year years ended ending fiscal compared with from prior last period same quarter quarters "
                          "respectively months month january february march april june july august september "
                          "october november december during total approximately about were have been with that "
                          "this which from their while respectively increase increased decrease decreased growth "
                          "decline declined change changed".split())


# The words an amount is framed in, besides its period: which way it moved and what share it is ("SG&A
# decreased …, and SG&A as a percentage of net sales decreased to …", "... compared to an operating loss of … for
# 2022 represents an increase of …"): they say nothing once it is cut.
_FRAME_WORDS = frozenset("increase increased increases decrease decreased decreases decline declined declines "
                         "grew rose fell higher lower percentage percent basis points share total loss losses "
                         "represent represents representing".split())


def _figure_free_clause(sentence: str) -> str | None:
    """The longest figure-free clause of a sentence that carries amounts: the one after its last
    amount ('..., and capital expenditures were $20.6 billion, directed mainly to X.' -> '…directed
    mainly to X.') or the one before its first ('We funded X with cash on hand, with consideration
    totaling $17.7 billion.' -> 'We funded X with cash on hand…'), cut at a comma; None when neither
    is long enough to state something (five words after, HEAD_WORDS before). Dates and counts may stay: only money and percentages are figures here."""
    best = None
    last = list(_MONEY.finditer(sentence))[-1].end() if _MONEY.search(sentence) else -1
    after = sentence[last:].strip(" ,;:")
    if last > 0 and not money_figures(after) and len(after.split()) >= 5 \
            and (_CLAUSE_OPENER.match(after) or (not _BOUND.match(after) and sentence_rank.CAUSE.search(after))):
        # "...increased by $6,334 million primarily due to X", "...decreased by $11,277 million in 2024
        # compared with 2023 driven by X": what follows the last amount when it states why, unless it
        # only makes sense with the amount
        best = "…" + after
    cut = sentence.rfind(",")
    while cut >= max(last, 0):  # rfind returns -1 past the first comma: no sentence loops forever
        tail = sentence[cut + 1 :].strip()
        if money_figures(tail):
            break
        if len(tail.split()) >= 5 and money_figures(sentence[:cut]) and not _DANGLING.match(tail) \
                and len(tail) + 1 > len(best or ""):
            best = "…" + tail
        cut = sentence.rfind(",", 0, cut)
    cut = sentence.find(",")
    while cut > 0:
        head = sentence[:cut].strip()
        if money_figures(head):
            break
        if len(head.split()) >= HEAD_WORDS and money_figures(sentence[cut:]) and len(head) + 1 > len(best or ""):
            best = head + "…"
        cut = sentence.find(",", cut + 1)
    if best and len({w for w in re.findall(r"[a-z]{4,}", best.lower())
                     if w not in _PERIOD_WORDS and w not in _FRAME_WORDS}) < 2:
        return None  # "…in the year ended December 31, 2024 as compared to ...": a period, nothing stated
    return best


def _pick_sentences(
    chunks: list[Evidence], query_terms: set[str], *, queries: list[str] | None = None, embedder=None,
    question: str = "", subject: str = "", figures: dict[str, list] | None = None, year: int | None = None,
    first_items: tuple[str, ...] = (), figure_ask: str | None = None, item_order: list[str] | None = None,
    stated: list[tuple] = (),
) -> list[tuple[Evidence, str, str]]:
    """The sentences of the top chunks that answer the question, in the chunks' order.

    With an embedder: every candidate sentence is scored by cosine to each sub-query (plus a
    little for shared terms); each sub-query first gets its best sentence, then the rest fill up to
    MAX_SENTENCES; a sentence below the relevance floor (boilerplate, a neighbouring topic the
    chunk also covers) is never shown, however high its chunk ranked. Without one: the best
    sentence of each top chunk by shared terms. `stated`: the (value, unit, ticker) of the figures a "why?"
    after a figure answer is about (STATED_BONUS)."""
    candidates = _candidates(chunks, figures, year, figure_ask)
    if not candidates:
        return []
    if embedder is None or not queries:
        return _pick_by_terms(chunks, candidates, query_terms)
    # sentences are scored with the acronyms the question spells out, or the filing defines, read
    # as their words ("BCA" as "boeing commercial airplanes"), and quoted as written
    names = {**sentence_rank.defined([c.text for c in chunks]), **sentence_rank.initialisms(question)}
    quoted = {c[:3]: c[3] for c in candidates}
    lines = sentence_rank.line_names(question)  # "revenue" asked, "net sales" written
    before = {(rank, k + 1): sentence_rank.spelled_out(sentence_rank.with_line_names(s, lines), names)
              for rank, chunk in enumerate(chunks) for k, s in enumerate(split_sentences(chunk.text))}
    # a sentence whose subject only points back ("This increase was primarily due to ...") is scored as
    # the statement it ends, the sentence before it and itself: that is what it says (sentence_rank.points_back)
    follows = {c[:2] for c in candidates if c[:2] in before and sentence_rank.points_back(c[3])}
    quotable = {c[:2]: c for c in candidates}  # before the shortlist: an antecedent quoted beside its cause
    candidates = [(*c[:3], sentence_rank.spelled_out(sentence_rank.with_line_names(
        f"{before[c[:2]]} {c[3]}" if c[:2] in follows else c[3], lines), names)) for c in candidates]
    # what is asked about, not how it moved nor the scaffolding of a why ("primarily due to")
    asked = {t for t in sentence_rank.terms(subject or " ".join(queries)) if t not in sentence_rank.MOVEMENT}
    weights = sentence_rank.term_weights(asked or query_terms, [c[3] for c in candidates])
    held = not sentence_rank.broad(asked)  # "what are the risk factors?": any sentence of the Item answers
    # an event's impact ("the cyberattack: what happened and what was the impact?") is told as what
    # followed, not searched in the register of a change's causes: no why
    why = bool(sentence_rank.ASK_CAUSE.search(f"{question} {subject}")) and not EVENT.search(question.lower())
    why = why or bool(stated)  # "what's behind the growth?" after a figure: its cause, in whatever words
    # a why's sentence under a heading or a list's lead-in that names the line asked ("Networking", "Gross
    # margin decreased ... due to the following:") is read under it: MD&A names a line once, above its
    # causes (neighbourhood). Not for other questions: a heading naming a matter ("European Commission
    # Fines") heads what happened and where it is accrued alike, and only a sentence's own words tell them apart.
    under, said = _under(chunks, candidates, asked or query_terms, follows, names) if why \
        else (_listed(chunks, candidates, asked or query_terms, names), set())
    # a list's item explains its lead-in's line ("Reported EBIT decreased 24% ... and the following:"):
    # a lead-in stating another line's change makes the item another line's cause (other_subject)
    leads = {(rank, k): text for rank, chunk in enumerate(chunks)
             for k, text in neighbourhood.leads(split_sentences(chunk.text), whole=True).items()} if why else {}
    # the floor's share: of the question's terms, those some candidate holds
    cased = sentence_rank.in_candidates(
        typed_in_lowercase(sentence_rank.cased_terms(subject or " ".join(queries)), [c[3] for c in candidates]),
        [c[3] for c in candidates])
    # a name of several words no candidate holds whole ("Optum Bank" asked of Tesla) is held by none in part
    # either: "People's Bank of China" shares a word with it by coincidence. And a sentence near the question in
    # meaning must say a word of it that counts ("numerous banks" is near "Optum Bank - details?" by "bank"
    # alone), when the asker's own words name the subject: a follow-up's subject is the thread's ("and
    # nvidia's?" after supply chain risks), answered in other words ("Any disruption to their operations ...")
    unheld_names = tuple(name for name in sentence_rank.names_in(subject or " ".join(queries))
                         if not any(all(sentence_rank.holds(sentence_rank.cased_terms(c[3]), t) for t in name)
                                    for c in candidates))
    # what the question is about, in its words and in the search's (abbreviations spelled out)
    topic = sentence_rank.subject_terms(sentence_rank.cased_terms(" ".join([subject, *queries])))
    # judged on the asker's own words for the subject (those of the question the plan's query kept: not
    # the company's name, which its filing says as "we"); the query's other names for them ("capex"
    # searched as "capital expenditures") are alternatives, not all required
    searched = sentence_rank.subject_terms(sentence_rank.cased_terms(subject or " ".join(queries)))
    asker = searched & sentence_rank.subject_terms(sentence_rank.cased_terms(sentence_rank.ASK_PLAN.sub(" ", question)))
    missing = held and sentence_rank.subject_missing(asker, [c[3] for c in candidates], searched - asker)
    # a figure is stated in its own company's filing: in a thread about several, another's amount
    # found in a sentence is a coincidence, not that figure's statement
    stated_in = {rank: [(v, unit) for v, unit, whose in stated if whose in (None, chunk.ticker)]
                 for rank, chunk in enumerate(chunks)} if stated and why else {}
    # a heading or lead-in brings in sentences the shortlist missed; the statement before a bare cause only
    # re-reads those it holds (each sentence embedded is most of compose's time)
    candidates = _shortlist(candidates, query_terms, weights, before, question, quoted, follows, stated_in,
                            {k: v for k, v in under.items() if k not in said})
    # the asked line in the asker's words and the search's ("operating cash flow" searched as "net cash
    # provided by operating activities"): a subject in either is the line asked
    line_names = asked | (sentence_rank.terms(" ".join([subject, *queries])) - sentence_rank.MOVEMENT)

    def lost_subject(rank: int, position: int, sentence: str, whole: str) -> bool:
        # a clause cut from its sentence has lost its subject: it must name the question's own, unless
        # it is the cause its sentence gives for the asked subject ("Gross margin decreased ...,
        # primarily due to X" -> "…primarily due to X")
        return bool(held and topic and sentence != quoted[(rank, position, sentence)]
                    and not sentence_rank.names_topic(sentence_rank.spelled_out(sentence, names), topic, 0.0)
                    and not (why and sentence_rank.CAUSE.match(sentence.lstrip("…"))
                             and sentence_rank.names_topic(whole, topic, 0.0)))

    # Such a clause is dropped below whatever its meaning, so it is not embedded (each sentence is
    # most of compose's time); only the check that the subject is found at all reads every vector.
    lost = [lost_subject(*c) for c in candidates]
    q = embed_queries(embedder, queries)  # retrieval embedded the same sub-queries
    texts = [_score_text(c, quoted, follows, before, under) for c in candidates]
    cosines = _cosines(embedder, texts, q, [not missing and x for x in lost])
    if missing and float(cosines.max()) < sentence_rank.SAME_MEANING:
        return []  # most of the subject is nowhere in what was found: the compose node refuses
    scored, named, worded, boosted = [], set(), set(), set()
    for i, (rank, position, sentence, whole) in enumerate(candidates):
        if lost[i]:
            continue
        covered = sentence_rank.coverage(f"{under.get((rank, position), '')} {whole}", weights) if held else 0.0
        context = f"{under.get((rank, position), '')} {before.get((rank, position), '')} {whole}"
        if held and not sentence_rank.answers(float(cosines[i].max()),
                                              sentence_rank.share(whole, cased, unheld_names),
                                              in_context=sentence_rank.share(context, cased, unheld_names),
                                              top_chunk=rank == 0,
                                              cause=why and sentence_rank.states_cause(whole)
                                              and _tied_to_figure(rank, context, stated_in, topic),
                                              says=not asker or sentence_rank.share(context, cased, unheld_names) > 0
                                              or sentence_rank.role(question, whole) > 0):
            continue  # shares the filing's vocabulary, not the question's subject
        score = (float(cosines[i].max()) + sentence_rank.COVERAGE_WEIGHT * covered
                 + sentence_rank.role(question, whole) + RANK_WEIGHT * (1 - rank / len(chunks))
                 - (sentence_rank.ROLE_BONUS if why and sentence_rank.opposite_direction(question, whole) else 0.0)
                 - (sentence_rank.SUBJECT_WEIGHT * max(sentence_rank.other_subject(sentence, line_names),
                                                       sentence_rank.other_subject(leads.get((rank, position), ""),
                                                                                   line_names))
                    if sentence_rank.asks_a_lines_change(question, why) else 0.0)
                 - NUMBER_PENALTY * max(0, len(number_tokens(sentence)) - FREE_NUMBERS))
        if _explains_figure(whole, before.get((rank, position), ""), stated_in.get(rank)):
            score += STATED_BONUS
            boosted.add(i)
        scored.append((score, i))
        # a why's query says "increased ... primarily due to": any stated cause is close to it in
        # meaning, so only the subject's own words name it
        if held and topic and sentence_rank.names_topic(context, topic, 0.0 if why else float(cosines[i].max())):
            named.add(i)
        if held and topic and sentence_rank.names_topic(context, topic, 0.0):
            worded.add(i)  # names it in the question's own words, not only close in meaning
    if not scored:
        return []  # nothing answers: the compose node refuses rather than quote filler
    scored = _carried_on(scored, candidates, quoted)
    if named:  # sentences that name what the question is about push out those that do not
        scored = [(score, i) for score, i in scored if i in named]
    stating = sentence_rank.stating_plans(question, {i: candidates[i][3] for _, i in scored}, topic)
    scored = [(score, i) for score, i in scored if i in stating]
    if first_items and any(chunks[candidates[i][0]].item in first_items for _, i in scored):
        # "why" reads MD&A, then the notes: the notes only when MD&A says nothing that answers
        scored = [(score, i) for score, i in scored if chunks[candidates[i][0]].item in first_items]
    scored = _one_section(scored, [chunks[c[0]] for c in candidates], item_order or [], year, worded)
    floor = _floors(scored, [chunks[c[0]].ticker for c in candidates], boosted)
    kept = {i for _, i in scored}
    order = []
    for j in range(len(queries)):  # each part of a compound question heard first
        top = max(kept, key=lambda i: float(cosines[i, j]))
        if float(cosines[top, j]) + OVERLAP_WEIGHT >= floor[chunks[candidates[top][0]].ticker]:
            order.append(top)
    # close to the best in meaning is close enough, whatever share of the question's words it holds
    # ("we identified that threat actors had gained access" tells what happened without "cyberattack");
    # not for a why, whose query reads "increased ... primarily due to", close to every stated cause
    near = math.inf if why else max(RELEVANCE_FLOOR, max(float(cosines[i].max()) for i in kept) - RELEVANCE_MARGIN)
    by_score = [i for _, i in sorted(scored, key=lambda s: (-s[0], candidates[s[1]][:2]))]
    score_of = {i: score for score, i in scored}
    ranked = [i for i in by_score
              if score_of[i] >= floor[chunks[candidates[i][0]].ticker] or float(cosines[i].max()) >= near]
    # then, in the slots left, the sentences a little further below the best (WORDED_MARGIN) that say one of the
    # asker's own words for the subject (`asker`: the question's words the search kept, so never the company's
    # name, which its filing writes everywhere; nor a measure's name, "loss" or "revenue", which every segment's
    # sentence of the same template says), as written (not a word of its family, nor the search's synonym):
    # such a sentence is about what was asked, however much closer in meaning the best one is. Not for a why: its
    # bar is the score alone already, and below it the asked words are said by the sibling lines' causes of the
    # same template ("Botox Cosmetic" beside "Botox Therapeutic") and by how the line is defined
    naming = {t for t in asker if t.lstrip("#") not in sentence_rank.BARE}  # which line, not its measure
    ranked += [i for i in by_score if i not in ranked and held and topic and not why
               and score_of[i] >= floor[chunks[candidates[i][0]].ticker] - WORDED_MARGIN
               and sentence_rank.says_asked_word(naming, quoted[candidates[i][:3]])]
    order += _until_answered(ranked, [c[3] for c in candidates], topic if held else set(), order)
    if not order:
        order = [max(scored)[1]]  # it passed the floor: it answers, however plainly worded
    asked_words = _plain_words(question)
    pieces = [split_sentences(chunk.text) for chunk in chunks]
    lists = {rank: neighbourhood.lead_positions(said) for rank, said in enumerate(pieces)}

    def introduces(key: tuple[int, int]) -> tuple[int, int, str, str] | None:
        # the lead-in of the list the item at `key` belongs to ("Gross margin decreased ... due to the
        # following:"), as it may be quoted: whole, or with its amounts cut (_lead_in)
        at = lists[key[0]].get(key[1])
        if at is None:
            return None
        whole = pieces[key[0]][at]
        shown = _lead_in(chunks[key[0]], whole, figures, year)
        return (key[0], at, shown, whole) if shown else None

    ranked, context, answering, heard, trailing, paragraphs = [], set(), set(), set(), set(), {}
    # the asker's words a sentence read past a quoted one must say (`_carried_on_by`): of the question's, those
    # the search kept (so not the company's name) that name what is asked, not how it moved nor why
    shared = asked_words & _plain_words(subject or " ".join(queries))
    shared = {w for w in shared if sentence_rank.stem(w) not in sentence_rank.MOVEMENT | sentence_rank.SECTION_WORDS}
    for i in dict.fromkeys(order):
        key = candidates[i][:2]
        whose = chunks[key[0]].ticker  # each company of a comparison has a best answer of its own
        lead = (quotable.get((key[0], key[1] - 1)) or _antecedent(chunks[key[0]], pieces[key[0]], key, figures, year)
                if key in follows else None)
        if lead is not None and held and topic and not _named(lead[3], topic):
            lead = None  # the change it explains is another subject's: the cause alone answers
        if lead is None and why and held and topic and key not in follows:
            lead = _stated_before(quotable.get((key[0], key[1] - 1)), candidates[i][3], topic, line_names, year,
                                  question)
        if whose in heard and key in follows and held and topic and not _named(quoted[candidates[i][:3]], topic) \
                and not (_states_asked_line(before.get(key, ""), topic, line_names)
                         and (lead or _plain_words(candidates[i][2]) & asked_words)):
            # a cause whose change (the statement it points back to) names nothing asked is quoted only as the
            # best answer, not beside another one; "The overall increases were primarily driven by ..." after
            # "R&D expenses increased ..." is the asked line's cause, though its own words name no line, and is
            # quoted beside that statement, or alone when it says a word of the question
            continue
        heard.add(whose)
        if lead is not None:  # the cause is quoted with the change it explains, which names the subject
            ranked.append((*lead[:3], lead[3]))
            context.add(ranked[-1])
        intro = introduces(key)
        if intro is not None and held and topic and sentence_rank.says_asked_word(asker, intro[3]):
            # a list's item is quoted under the lead-in naming what it explains in the asker's words (not only
            # the search's: a lead-in "Purchases of property and equipment were:" for "capex?" says nothing asked)
            ranked.append(intro)
            context.add(intro)
        ranked.append((*candidates[i][:3], quoted[candidates[i][:3]]))
        answering.add(ranked[-1])
        if held and topic:
            # a why's statement goes on in its paragraph with the causes it did not say
            if why and key[0] not in paragraphs:  # read once per chunk, however many of its sentences are quoted
                paragraphs[key[0]] = neighbourhood.paragraphs([split_sentences(line)
                                                               for line in chunks[key[0]].text.splitlines()])
            paragraph = paragraphs.get(key[0], [])
            for after in _carried_on_by(pieces[key[0]], key, quotable, shared,
                                        paragraph if len(paragraph) == len(pieces[key[0]]) else None, year,
                                        line_names):
                ranked.append(after)
                trailing.add(after)
    # context is free only beside what names the asked subject: for a question asking a section as a whole
    # ("summarize the risk factors") every sentence of the section passes, and a slot more is one more filler
    free = context - answering if held and topic else set()  # an answer of its own takes a slot
    return _choose(chunks, list(dict.fromkeys(ranked)), free, trailing - answering)


_SIZE_WORDS = frozenset(sentence_rank.stem(w) for w in "basis points percent percentage".split())


def _names_another_line(sentence: str, asked: set[str]) -> bool:
    """The sentence's subject names its measure with a word the question did not ask (besides a measure, a
    change or a size): "Operating overhead expense decreased" for a demand creation expense; not "Increased unit
    sales were" for sales, "Internationally, Humira revenues decreased" for Humira, nor "Kettle revenue in garden
    stores grew" for kettle revenue (what follows the measure qualifies it, it names no other line)."""
    said = sentence_rank.subject_of(sentence) or ""
    words = re.findall(r"[\w&’'-]+|,", said)
    measure = next((k for k, w in enumerate(words) if sentence_rank.stem(w.lower()) in sentence_rank.MEASURES), None)
    if measure is None:
        return False  # names no line: "The decrease, on a currency-neutral basis, was driven by ..."
    name = words[:measure]
    name = name[len(name) - name[::-1].index(","):] if "," in name else name  # past an opening "Internationally,"
    named = sentence_rank.terms(" ".join(name)) - sentence_rank.MOVEMENT - sentence_rank.BARE - _SIZE_WORDS
    return any(not sentence_rank.holds(set(asked), w) for w in named if not any(ch.isdigit() for ch in w))


STATEMENT_OPENING = 12  # words of a sentence's opening that name what it states


def _stated_before(before: tuple | None, cause: str, topic: set[str], line_names: set[str],
                   year: int | None, question: str = "") -> tuple | None:
    """The statement of the asked line's change right before a quoted cause that names its line itself ("Gross
    margin as a percentage of sales for fiscal 2023 leveraged 16 basis points ..." before "The gross margin
    increase for the year was driven by ..."), as it may be quoted above it: MD&A states how much a line moved,
    then why, and a why's answer quoting the why alone left out which way and how far. Only a statement that
    opens on the asked subject, names no other line, tells a size or a movement and no earlier year."""
    if before is None or not sentence_rank.states_cause(cause):
        return None
    opening = " ".join(before[3].split()[:STATEMENT_OPENING])
    # the line the cause names, not only its measure: "total revenue decreased by 6%" is not the change of the
    # revenue Splunk "contributed" to
    which = {t for t in _named(cause, topic) if sentence_rank.stem(t.lstrip("#").lower()) not in sentence_rank.BARE}
    if not _named(opening, topic) or which - _named(opening, which) or _names_another_line(before[3], line_names) \
            or _names_earlier_year(before[3], year or 0) or sentence_rank.other_subject(before[3], line_names) \
            or not (sentence_rank.CHANGE.search(before[3]) or sentence_rank._SIZE.search(before[3])):
        return None
    # the other way from what is asked or from what the cause explains ("Carload volume for fertilizer declined
    # ..." before "Carload volume increases were primarily driven by ..."): another line's story
    went, explained = (sentence_rank.directions(sentence_rank.main_clause(t)) for t in (before[3], cause))
    if sentence_rank.opposite_direction(question, before[3]) or (went and explained and not went & explained):
        return None
    # one line's: the words naming the line in either's subject are said in the other ("Revenues increased $5.7
    # billion organically" is the segment's total, not the "Commercial Services revenues" its next sentence explains)
    stated, explaining = (_line_words(sentence_rank.subject_of(t) or "") for t in (before[3], cause))
    if stated - _line_words(cause) or explaining - _line_words(before[3]):
        return None
    return before


def _line_words(text: str) -> set[str]:
    """The words of `text` that name a line, past its measure, how it moved and its period."""
    return {t for t in sentence_rank.terms(text) if t not in sentence_rank.BARE | sentence_rank.MOVEMENT | _SIZE_WORDS
            and t not in _LINE_FREE and not any(ch.isdigit() for ch in t)}


_LINE_FREE = frozenset(sentence_rank.stem(w) for w in (
    "year years ended ending fiscal quarter period december january february march april may june july august "
    "september october november million billion thousand").split())


def _states_asked_line(statement: str, topic: set[str], line_names: set[str]) -> bool:
    """The statement's subject (the words before its verb) names the asked subject and nothing more than the
    asked line and its measure: "R&D expenses increased ..." for an R&D why, not "Net revenue from our payment
    network increased ..." for a net revenue why (a part of the line, whose cause explains the part)."""
    said = sentence_rank.subject_of(statement)
    if not said or not _named(said, topic):
        return False
    have = {t.lstrip("#") for t in sentence_rank.cased_terms(said)}
    asked = {t.lstrip("#") for t in line_names | topic}
    return all(sentence_rank.holds(asked, t) or t in sentence_rank.BARE for t in have)


ASKED_WORD = 4  # letters of a question word a sentence read past a quoted one must share with it


def _carried_on_by(pieces: list[str], key: tuple[int, int], quotable: dict, shared: set[str],
                   paragraph: list[int] | None = None, year: int | None = None,
                   line_names: set[str] = frozenset()) -> list[tuple]:
    """The candidates right after the quoted sentence at `key` that carry it on (neighbourhood.carried_on,
    sentence_rank.continues: "The sales increases ... were driven by ...", "This process drives ..."), each
    saying one of the asker's words (`shared`), as they are quoted. They go in or out with the sentence they
    follow and take no slot of their own. Why: a filing states a thing, then its cause or the rest of its list
    in the sentences after it; the answer quoted the statement and stopped, though its cause was the answer."""
    out = []
    for k in neighbourhood.carried_on(pieces, key[1], sentence_rank.continues, paragraph):
        after = quotable.get((key[0], k))
        if after is None or not _plain_words(after[2]) & shared:
            break
        if not sentence_rank.continues(pieces[k - 1], pieces[k]) and (
                _names_another_line(after[3], line_names)
                or not sentence_rank.states_cause(sentence_rank.own_statement(after[3]))
                or _names_earlier_year(after[3], year or 0) or sentence_rank.other_subject(after[3], line_names)):
            # in the paragraph only: it goes on with a cause of the asked year and line (not "Operating overhead
            # expense decreased ..." beside a demand creation expense), or not at all
            break
        if after[2] == after[3] and money_figures(after[3]):
            # its amounts equal facts by value alone, and nothing asked chose it: the rest of a statement is no
            # place to state a figure ("increased International net sales by $88 million" equalled the change in
            # an unrealized loss), so it is quoted with them cut, or not at all
            shown = _elided(after[3])
            if not shown:
                break
            after = (*after[:2], shown, after[3])
        out.append(after)
    return out


_PLAIN = re.compile(r"[a-z][a-z&-]{%d,}" % (ASKED_WORD - 1))


def _plain_words(text: str) -> set[str]:
    """The words of 4+ letters of `text` as written, lowercase, a plural or possessive read as the word
    ("suppliers" is "supplier"), not a word that says nothing of a subject (sentence_rank.GENERIC). Stricter
    than a stem: "issuers" is not "issue", "provides" is not "provider"."""
    out = set()
    for w in _PLAIN.findall(text.lower().replace("’", "'")):
        w = w.strip("-")
        w = w[:-3] + "y" if w.endswith("ies") and len(w) > 5 else w  # "companies" is "company"
        w = w[:-1] if w.endswith("s") and not w.endswith("ss") else w
        if len(w) >= ASKED_WORD and w not in sentence_rank.GENERIC:
            out.add(w)
    return out


# A section holding a sentence this close to the best answer of any section answers as well: the one
# the question's form points to first is quoted (a competitor list from the business description,
# not the risk factor that also names competition).
SECTION_MARGIN = 0.08
# A legal matter (a lawsuit, an investigation, a fine, a settlement) is told in full in the notes'
# contingencies, which Item 3 points to; MD&A mentions what it cost: the notes come first for it.
LEGAL = re.compile(r"\b(?:litigation|lawsuits?|legal\s+(?:proceedings|matters?|cases?)|sued|suits?|antitrust|courts?|"
                   r"settle(?:d|ments?)|investigations?|fines?|penalt(?:y|ies)|doj|department\s+of\s+justice|ftc|"
                   r"subpoenas?|plaintiffs?|jury|verdicts?|consent\s+decree|class\s+actions?)\b", re.I)


def quote_order(question: str, items: list[str]) -> list[str]:
    """The Items in the order their sentences are preferred as quotes: the planner's (by the form of
    the question), with the notes first for a legal matter when the notes are searched at all."""
    if "8" in items and LEGAL.search(question):
        return ["8", *[i for i in items if i != "8"]]
    return list(items)


def _one_section(scored: list[tuple[float, int]], chunk_of: list[Evidence], order: list[str],
                 year: int | None, worded: set[int] = frozenset()) -> list[tuple[float, int]]:
    """`scored` kept to one section per company: one filing's one Item. A 10-K tells a thing in
    several places (an acquisition in MD&A and again in its note, competition in the business and in
    the risk factors); quoting each place cites sections that only repeat or border on the answer.
    The section chosen is the first, in the question's order of Items (`order`, the planner's by the
    question's form) and the asked year's filing before another, whose best sentence is within
    SECTION_MARGIN of the company's best; Items outside `order` come after it, best first. A section
    is judged by its sentences that name the question's subject in its own words (`worded`) when any
    section has one: a risk factor's "we are involved in numerous investigations" is close in meaning
    to any question about one investigation, and names none."""
    best: dict[str, dict[tuple[int, str], float]] = {}
    tickers = {chunk_of[i].ticker for _, i in scored}
    judged = [x for t in tickers for x in ([(sc, i) for sc, i in scored if chunk_of[i].ticker == t and i in worded]
                                          or [(sc, i) for sc, i in scored if chunk_of[i].ticker == t])]
    for score, i in judged:
        c = chunk_of[i]
        sections = best.setdefault(c.ticker, {})
        key = (c.fiscal_year, c.item or "")
        sections[key] = max(score, sections.get(key, -math.inf))
    chosen = {}
    for ticker, sections in best.items():
        top = max(sections.values())
        rank = sorted(sections, key=lambda k: (bool(year) and k[0] != year,
                                               order.index(k[1]) if k[1] in order else len(order), -sections[k]))
        chosen[ticker] = next(k for k in rank if sections[k] >= top - SECTION_MARGIN)
    return [(score, i) for score, i in scored
            if (chunk_of[i].fiscal_year, chunk_of[i].item or "") == chosen[chunk_of[i].ticker]]


def _until_answered(ranked: list[int], texts: list[str], topic: set[str], heard: list[int]) -> list[int]:
    """Of `ranked` (best first, all past the relevance floor or close in meaning to the best), the
    sentences that still answer: the best, then only those naming the question's subject (`topic`)
    in its own words. The answer ends with them, not at MAX_SENTENCES: a sentence past the best that
    names nothing asked is its passage's neighbouring topic (what a term means, last year's figure)."""
    out = []
    for i in ranked:
        if (not out and not heard) or not topic or _named(texts[i], topic):
            out.append(i)
    return out


def _named(text: str, topic: set[str]) -> set[str]:
    """The question's subject terms `text` holds, in any word of their family."""
    have = {t.lstrip("#") for t in sentence_rank.cased_terms(text)}
    return {t for t in topic if sentence_rank.holds(have, t.lstrip("#"))}


def _cosines(embedder, texts: list[str], queries, skip: list[bool]):
    """(texts, queries) cosines of normalized vectors; a skipped text's row is -inf, never read."""
    import numpy as np

    wanted = [t for t, s in zip(texts, skip, strict=True) if not s]
    cosines = np.full((len(texts), queries.shape[0]), -np.inf, dtype=np.float32)
    if wanted:
        cosines[[i for i, s in enumerate(skip) if not s]] = SENTENCES.embed(embedder, wanted) @ queries.T
    return cosines


def _tied_to_figure(rank: int, context: str, stated_in: dict[int, list[tuple]], topic) -> bool:
    """Whether a cause answers a why after a figure: it, or the sentence before it, names the figure's
    subject or states its amount. Why: "what's behind that?" reads any stated cause as close in
    meaning, and MD&A states causes of every line ("due to a decrease in the debt balance")."""
    if not stated_in:
        return True  # a why of the asker's own words: its terms judge the sentence (sentence_rank.answers)
    return sentence_rank.names_topic(context, topic, 0.0) or _states(context, stated_in.get(rank, []))


def _explains_figure(sentence: str, before: str, stated: list[tuple] | None) -> bool:
    """A cause that states one of the figures, or follows the sentence that does (STATED_BONUS)."""
    return bool(stated) and sentence_rank.states_cause(sentence) and (_states(sentence, stated) or _states(before, stated))


def _states(sentence: str, stated: list[tuple]) -> bool:
    """The sentence states one of the figures (value, unit), as shown or rounded ("$8.5 billion")."""
    return any(a.equals(value, unit) for a in amounts(sentence) for value, unit, *_ in stated)


def typed_in_lowercase(question_terms: frozenset[str], texts: list[str]) -> frozenset[str]:
    """The question's terms, a word typed in lowercase read as the acronym the candidates write in
    capitals ("nvda reliance on tsmc" and "... or TSMC, ..."), when no candidate uses it as a word.

    Why: the floor keeps an acronym apart from the word it spells ("PET" plastic is not a "pet"),
    and a chat message types names in lowercase: "tsmc" then held no sentence that names TSMC, and
    the one passage that answered was refused as unrelated. A word some candidate does use as a
    word ("pet food") stays that word."""
    have = sentence_rank.cased_terms(" ".join(texts))
    words = {h for h in have if not h.startswith("#")}
    return frozenset(f"#{t}" if not t.startswith("#") and f"#{t}" in have and not sentence_rank.holds(words, t) else t
                     for t in question_terms)


def _floors(scored: list[tuple[float, int]], ticker_of: list[str], boosted: set[int]) -> dict[str, float]:
    """Per company, the score its sentences must reach: RELEVANCE_MARGIN below the best sentence
    scored without STATED_BONUS, or below the company's own best with it when that is higher.

    Why: the bonus lifts a filing's statement of its own figure and cause over the bar; it must not
    raise the bar for the other companies of a comparison. One bar for all let a sentence of one
    filing stating its own figure push out every sentence of the other, whose answer then read "I
    found nothing in its 10-K" though its MD&A explained its figure. Without any bonus, or with one
    company, this is the one bar below the best."""
    plain = max(score - (STATED_BONUS if i in boosted else 0.0) for score, i in scored)
    best: dict[str, float] = {}
    for score, i in scored:
        best[ticker_of[i]] = max(score, plain, best.get(ticker_of[i], -math.inf))
    return {ticker: max(RELEVANCE_FLOOR, b - RELEVANCE_MARGIN) for ticker, b in best.items()}


def _carried_on(scored: list[tuple[float, int]], candidates: list, quoted: dict | None = None) -> list[tuple[float, int]]:
    """`scored` with ADJACENT_BONUS added to a sentence that carries on (`_CARRIES_ON`) from the
    sentence right before it in its chunk, when that one scored within RELEVANCE_MARGIN of the best."""
    best = max(score for score, _ in scored)
    strong = {candidates[i][:2] for score, i in scored if score >= best - RELEVANCE_MARGIN}
    return [(score + ADJACENT_BONUS if (candidates[i][0], candidates[i][1] - 1) in strong
             and _CARRIES_ON.match((quoted or {}).get(candidates[i][:3], candidates[i][3])) else score, i)
            for score, i in scored]


def _under(chunks: list[Evidence], candidates: list, asked: set[str], follows: set,
           names: dict[str, str]) -> tuple[dict[tuple[int, int], str], set[tuple[int, int]]]:
    """(chunk rank, position) -> what a candidate stating a cause is read under (neighbourhood): the
    lead-in of its list when that names the line asked (`asked`: the question's terms for it), else its
    headings when they name one the sentence itself does not, in any word of its family ("operations" under "Operating
    Activities" is not lifted). A heading naming nothing asked ("Fiscal 2024 compared with fiscal 2023")
    changes nothing; a sentence that points back is read with the sentence before it already. Also the keys
    read under the statement before them (`_said_before`), which bring no sentence into the shortlist."""
    heads, leads, pieces_of, before = {}, {}, {}, set()
    for rank, chunk in enumerate(chunks):
        pieces = pieces_of[rank] = split_sentences(chunk.text)
        heads.update({(rank, k): text for k, text in neighbourhood.headings(pieces).items()})
        leads.update({(rank, k): text for k, text in neighbourhood.leads(pieces).items()})
    out = {}
    for rank, position, _, whole in candidates:
        key = (rank, position)
        if key in follows or not sentence_rank.states_cause(sentence_rank.own_statement(whole)):
            continue  # under the line's heading, what answers a why is a cause; the rest is its neighbour
        if key in leads and _terms(leads[key]) & asked:
            out[key] = sentence_rank.spelled_out(leads[key], names)
        elif key in heads and any(not sentence_rank.holds(_terms(whole), t) for t in _terms(heads[key]) & asked):
            out[key] = sentence_rank.spelled_out(heads[key], names)
        elif (sentence_rank.bare_subject(whole) and not sentence_rank.other_subject(whole, asked)
              and (said := _said_before(pieces_of[rank], position, asked, whole))):  # the asked line's, said bare
            out[key] = sentence_rank.spelled_out(said, names)
            before.add(key)
    return out, before


def _listed(chunks: list[Evidence], candidates: list, asked: set[str],
            names: dict[str, str]) -> dict[tuple[int, int], str]:
    """(chunk rank, position) -> the lead-in of the list a candidate is an item of, when the lead-in names
    what is asked in any word of its family ("Important aspects of competition in this industry are:" above
    "•Product attributes such as quality; ..."). Why: an item names nothing its lead-in said, so read alone
    it was no closer to "what are the important aspects of competition?" than any sentence of the business
    description, and the list that answers was never read. Not a heading: one heads what happened and
    where it is accrued alike (see `_under`)."""
    leads = {}
    for rank, chunk in enumerate(chunks):
        leads.update({(rank, k): text for k, text in neighbourhood.leads(split_sentences(chunk.text)).items()})
    out = {}
    for rank, position, _, whole in candidates:
        lead = leads.get((rank, position))
        if lead and any(sentence_rank.holds(_terms(lead), t) for t in asked) \
                and any(not sentence_rank.holds(_terms(whole), t) for t in _terms(lead) & asked):
            out[(rank, position)] = sentence_rank.spelled_out(lead, names)
    return out


def _said_before(pieces: list[str], position: int, asked: set[str], whole: str) -> str | None:
    """The subject of the statement right before a sentence whose subject is a measure alone, when it names
    an asked line the sentence does not ("Freight revenues from bulk shipments decreased ... Volumes declined
    4% ...": bulk volumes). Why: a segment's paragraph names the segment once, then tells its volumes and
    its profit in bare words, in the same template as every other segment's paragraph; read alone, the
    asked segment's sentence is no closer to the question than its neighbour's."""
    if position < 1:
        return None
    before = pieces[position - 1]
    if "|" in before or neighbourhood.is_heading(before):
        return None
    said = sentence_rank.subject_of(before) or " ".join(before.split()[:neighbourhood.LEAD_WORDS])
    return said if any(not sentence_rank.holds(_terms(whole), t) for t in _terms(said) & asked) else None


def _score_text(candidate: tuple, quoted: dict, follows: set, before: dict, under: dict | None = None) -> str:
    """What a candidate is embedded as: its opening words, which carry its subject, under the heading
    or lead-in that names what is asked (`under`); a sentence that points back, the opening of the
    sentence before it and its own (their statement together)."""
    own = " ".join(quoted[candidate[:3]].split()[:SCORE_WORDS])
    if candidate[:2] not in follows:
        opening = " ".join(candidate[3].split()[:SCORE_WORDS])
        return f"{under[candidate[:2]]}: {opening}" if under and candidate[:2] in under else opening
    return f"{' '.join(before[candidate[:2]].split()[:SCORE_WORDS // 2])} {own}"


def _shortlist(candidates: list, query_terms: set[str], weights: dict[str, float] | None = None,
               before: dict | None = None, question: str = "", quoted: dict | None = None,
               follows: set = frozenset(), stated: dict[int, list[tuple]] | None = None,
               under: dict | None = None) -> list:
    """The SHORTLIST candidates worth embedding (each costs ~8 ms on a busy core): the question's
    terms covered first (rarer terms weighing more), then the query's, ties in the search's order.
    A sentence after one that names the question's terms ("We plan to spend $X on capex. In
    particular, AI will require ...") and one that plays the part asked for (a cause for a why)
    count for something too. Then up to UNDER_EXTRA more that the shortlist missed and that the
    heading or lead-in they sit under (`under`) brings in: they are added, never in place of one, so a
    heading lifting its whole section pushes out no sentence that answers in its own words."""
    if len(candidates) <= SHORTLIST:
        return candidates
    plain = _shortlist_weights(candidates, query_terms, weights, before, question, quoted, follows, stated)
    keep = _best_first(candidates, plain)[:SHORTLIST]
    if under:
        lifted = _shortlist_weights(candidates, query_terms, weights, before, question, quoted, follows, stated,
                                    under)
        keep += [i for i in _best_first(candidates, lifted) if candidates[i][:2] in under and i not in keep][:UNDER_EXTRA]
    return [candidates[i] for i in sorted(keep)]


def _best_first(candidates: list, weight: list[float]) -> list[int]:
    """Candidates by weight, each chunk's best sentence first: the search kept the chunk for what it says,
    in whatever words."""
    ranked = sorted(range(len(candidates)), key=lambda i: (-weight[i], candidates[i][0], candidates[i][1]))
    best_of = {}
    for i in ranked:
        best_of.setdefault(candidates[i][0], i)
    return list(dict.fromkeys([*sorted(best_of.values(), key=ranked.index), *ranked]))


def _shortlist_weights(candidates: list, query_terms: set[str], weights: dict[str, float] | None,
                       before: dict | None, question: str, quoted: dict | None, follows: set,
                       stated: dict[int, list[tuple]] | None, under: dict | None = None) -> list[float]:
    """Each candidate's weight for the shortlist (see _shortlist); read under its heading or lead-in,
    when `under` names one."""
    # a sentence scored with the one it points back to (`follows`) weighs as the better of the two, not
    # as their words together: two sentences' words would outweigh any one sentence's
    parts = [[f"{(under or {}).get(c[:2], '')} {c[3]}".strip()] if c[:2] not in follows
             else [(quoted or {}).get(c[:3], c[3]), before[c[:2]]] for c in candidates]
    terms = [[_terms(p) & query_terms for p in ps] for ps in parts]
    df: dict[str, int] = {}
    for ts in terms:
        for t in ts[0]:
            df[t] = df.get(t, 0) + 1
    n = len(candidates)
    weight = [max(sum(math.log(1 + n / df.get(t, 1)) for t in part)
                  + (3 * sentence_rank.coverage(text, weights) if weights else 0.0)
                  for part, text in zip(ts, ps, strict=True)) for ts, ps in zip(terms, parts, strict=True)]
    for i, c in enumerate(candidates):
        if c[:2] not in follows:  # (a sentence that points back weighs its antecedent's words already)
            weight[i] += 0.5 * len(_terms((before or {}).get((c[0], c[1]), "")) & query_terms)
        if c[2] != (quoted or {}).get(c[:3], c[3]):  # a clause is quoted alone: what it says itself counts again
            weight[i] += 0.5 * len(_terms(c[2]) & query_terms)
        weight[i] += ROLE_WEIGHT if question and sentence_rank.role(question, c[3]) else 0.0
        weight[i] -= ROLE_WEIGHT if question and sentence_rank.opposite_direction(question, c[3]) else 0.0
        if _explains_figure(c[3], (before or {}).get((c[0], c[1]), ""), (stated or {}).get(c[0])):
            weight[i] += STATED_WEIGHT  # the figure's own statement and cause are always read (STATED_BONUS)
    return weight


def _pick_by_terms(chunks, candidates, query_terms) -> list[tuple[Evidence, str]]:
    by_rank: dict[int, list[tuple[float, int, str]]] = {}
    for rank, position, sentence, _ in candidates:
        overlap = len(_terms(sentence) & query_terms)
        by_rank.setdefault(rank, []).append((overlap - 0.1 * len(number_tokens(sentence)), position, sentence))
    firsts: list[tuple[int, int, str]] = []
    extras: list[tuple[float, int, int, str]] = []
    for rank, scored in by_rank.items():
        scored.sort(key=lambda c: (-c[0], c[1]))
        if rank < TOP_CHUNKS:
            # the best-ranked chunk may give a second sentence when it shares the question's terms
            take = [scored[0]] + [c for c in scored[1:2] if rank == 0 and c[0] >= 1]
            firsts.extend((rank, position, sentence) for _, position, sentence in take)
            rest = scored[len(take):]
        else:
            rest = scored
        extras.extend((score, rank, position, sentence) for score, position, sentence in rest if score >= 1)
    extras.sort(key=lambda e: (-e[0], e[1], e[2]))
    wholes = {(c[0], c[1]): c[3] for c in candidates}
    return _choose(chunks, [(r, p, s, wholes[(r, p)]) for r, p, s in firsts + [(r, p, s) for _, r, p, s in extras]])


def _choose(chunks, ranked: list[tuple[int, int, str, str]],
            context: set[tuple[int, int, str, str]] = frozenset(),
            trailing: set[tuple[int, int, str, str]] = frozenset()) -> list[tuple[Evidence, str, str]]:
    """Up to MAX_SENTENCES of `ranked` (best first), no repeats nor near-duplicates, each company
    heard, shown in the chunks' order: (chunk, the sentence as shown, the whole sentence).

    `context`: entries of `ranked` that only introduce the entry after them (the change a cause explains,
    the lead-in of a list's item). Each is quoted when what it introduces is, and takes no slot of its own.
    Why: counted as answers, a lead-in or an antecedent pushed out the last sentence that answered (the
    company's own cause, ranked below the segments' causes of the same template).

    `trailing`: entries that carry on the entry before them (`_carried_on_by`: its cause, the rest of its list)
    and are no answer of their own, quoted after it when it is quoted, in no slot of their own."""
    chosen, seen = [], set()
    tickers = {c.ticker for c in chunks}
    cap = max(2, -(-MAX_SENTENCES // len(tickers))) if len(tickers) > 1 else MAX_SENTENCES  # each company heard
    per_ticker: dict[str, int] = {}
    answers, pending, heading, rests, introduced_all = 0, [], False, [], []
    for entry in ranked:
        if entry in context:
            pending.append(entry)
            continue
        rank, position, sentence, whole = entry
        introduced, pending = pending, []
        key = " ".join(sentence.lower().lstrip("…").split())
        ticker = chunks[rank].ticker
        if entry in trailing:  # carries on the entry before it: quoted with it, in no slot of its own
            if heading:
                rests.append(entry)
            continue
        heading = False
        if answers >= MAX_SENTENCES or key in seen or per_ticker.get(ticker, 0) >= cap:  # overlapping chunks repeat
            continue
        twin = next((c for c in chosen if chunks[c[0]].ticker == ticker and sentence_rank.near_duplicate(whole, c[3])),
                    None)
        if twin is not None:
            # MD&A restating a risk factor: one of the two is enough, the one that says more of itself (an
            # overview's "loss was … compared with … reflecting … of …" beside its section's sentence whose
            # amounts are facts, quoted whole)
            if twin not in introduced_all and sentence.count("…") < twin[2].count("…"):
                chosen[chosen.index(twin)] = entry
                seen.add(key)
            continue
        heading = True
        seen.add(key)
        per_ticker[ticker] = per_ticker.get(ticker, 0) + 1
        answers += 1
        for lead in introduced:
            lead_key = " ".join(lead[2].lower().lstrip("…").split())
            if lead_key not in seen:
                seen.add(lead_key)
                chosen.append(lead)
                introduced_all.append(lead)
        chosen.append(entry)
    for entry in rests:  # after every answer is in: what carries one on never keeps out another answer
        key = " ".join(entry[2].lower().lstrip("…").split())
        if key not in seen and not any(chunks[r].ticker == chunks[entry[0]].ticker
                                       and sentence_rank.near_duplicate(entry[3], w) for r, _, _, w in chosen):
            seen.add(key)
            chosen.append(entry)
    chosen.sort(key=lambda c: (c[0], c[1]))
    return [(chunks[rank], sentence, whole) for rank, _, sentence, whole in chosen]


def compose_extractive(
    question: str,
    plan: Plan,
    evidence: list[Evidence],
    *,
    cells: list[dict] | None = None,
    on_text=None,
    embedder=None,
    held: dict[str, set[int]] | None = None,
) -> Draft:
    """Draft an answer from evidence alone. `cells` (numbers intents) lists what was asked for,
    per company, year and measure: {ticker, name, fiscal_year, metric, label, evidence_id|None,
    display|None}. `embedder` (the one retrieval used) scores sentences against the question. `held`:
    per ticker, the fiscal years whose 10-K the corpus holds, so the answer never says a held one is missing."""
    if plan.intent == "qualitative":
        return _qualitative(question, plan, evidence, cells, embedder, held)
    return _numbers(plan, cells or [], evidence)


def _qualitative(question: str, plan: Plan, evidence: list[Evidence], cells: list[dict] | None = None,
                 embedder=None, held: dict[str, set[int]] | None = None) -> Draft:
    chunks = [e for e in evidence if e.kind == "chunk"]
    prose = [c for c in chunks if not _looks_tabular(c.text)] or chunks
    if plan.quoted:  # "say more": the next best sentences, never one the thread has quoted
        prose = [_unquoted(c, plan.quoted) for c in prose]
    terms = _asked_terms(" ".join([question, plan.query, *plan.sub_queries]))
    queries = list(dict.fromkeys(plan.sub_queries or [plan.query or question]))
    if len(queries) > 1 and any(c.get("evidence_id") for c in cells or []):
        queries = queries[1:]  # "how much ..." is answered by the XBRL figure; the prose answers "on what"
    figures: dict[str, list] = {}
    for e in evidence:  # the XBRL facts a quoted amount may equal, by the filing that tagged them
        if e.kind == "fact" and e.value is not None:
            figures.setdefault(e.accession, []).append(figure_fact(e))
    year = max(plan.fiscal_years) if plan.fiscal_years and not plan.latest and not plan.period else None
    # a why is answered from MD&A first, a how-dependent from the risk factors: the Items after it
    # stand in only when it has no answer
    asks = f"{question} {plan.query}"
    first_items = (plan.items[0],) if plan.items and (
        (plan.items[0] in ("7", "I-2") and sentence_rank.ASK_CAUSE.search(asks))
        or (plan.items[0] == "1A" and sentence_rank.ASK_RELIANCE.search(asks))) else ()
    if not first_items and plan.items[:1] == ["7"] and "1A" in plan.items and asks_what_happened(question.lower()):
        # what happened (a strike, a deal, a year's results) is told in MD&A and the notes: the risk factors,
        # which retell it in the words of what may happen, only when neither says anything that answers
        first_items = tuple(i for i in plan.items if i != "1A")
    picks = _pick_sentences(prose[:READ_CHUNKS], terms, queries=queries, embedder=embedder, question=question, year=year,
                            first_items=first_items, item_order=quote_order(question, list(plan.items or [])),
                            subject=plan.query or question, figures=figures, stated=_thread_figures(plan, cells, evidence),
                            # words that may name a line no fact answered: an amount quoted must be theirs
                            figure_ask=question if plan.probe else None)
    # a footnote quotes the whole sentence, unless it carries a figure that is not an XBRL fact
    claims = _number_claims(cells or [])
    for c, s, whole in picks:
        facts = _figure_facts(c, s, figures) if s == whole else []
        claims.append(Claim(text=s, evidence_id=c.id, kind="prose", figures=facts,
                            quote=s if money_figures(whole) else whole))
    intro = ""
    if picks:
        first = picks[0][0]
        companies = sorted({c.ticker for c, _, _ in picks})
        items = sorted({c.item for c, _, _ in picks if c.item})
        where = f" ({items_text(items)})" if items else ""
        intro = _source_line(plan, [c for c, _, _ in picks], companies, where, held)
        # of the companies whose filings were read (`held`), those nothing answered
        unheard = [t for t in plan.tickers if t not in companies and (held is None or t in held)]
        if unheard:
            intro = f"{_nothing_from(unheard)} {intro}"
    return Draft(intro=intro, claims=claims, composer="extractive")


def _thread_figures(plan: Plan, cells: list[dict] | None, evidence: list[Evidence]) -> list[tuple]:
    """(value, unit) of the figures a "why?" after a figure answer is about: the cells' facts of the
    year asked, and for a growth rate or a margin the facts of the figure it is computed from (the
    filing explains "revenues were $46.3 billion ...", not the rate). Empty for any other question."""
    if (plan.slots or {}).get("metrics") != "thread, its cause" or plan.period:
        return []
    year = max(plan.fiscal_years) if plan.fiscal_years else None
    ids = {c["evidence_id"] for c in cells or [] if c.get("evidence_id") and c.get("fiscal_year") == year}
    concepts = {c for k in plan.metrics or [] if (m := subject_metric(k)) for c in METRICS[m].concepts}
    # the figure's own period: a filing also tags the year before's figure, a quarter's and each segment's
    # under the same concept, and the sentences stating those explain another period or a part, not this
    # figure. The period is the cell's own fact's, else (a margin's inputs) the latest the company's has.
    facts = [e for e in evidence if e.kind == "fact" and e.value is not None and (e.unit or "") == "USD"]
    alike = [e for e in facts if e.concept in concepts and e.fiscal_year == year and not e.dims]
    own = {e.ticker: e.period_end for e in facts if e.id in ids and e.period_end}
    latest: dict[str, str] = {}
    for e in alike:
        latest[e.ticker] = max(latest.get(e.ticker, ""), e.period_end or "")
    ends = {**latest, **own}
    money = [(Decimal(e.value), e.unit or "", e.ticker) for e in facts if e.id in ids]
    money += [(Decimal(e.value), e.unit or "", e.ticker) for e in alike
              if e.id not in ids and (not e.period_end or e.period_end == ends.get(e.ticker))]
    # a margin asked about: its own value, as a filing's percentage reads ("42.7%" is 0.427)
    rates = [(Decimal(e.value) / 100, "pure", e.ticker) for e in evidence
             if e.kind == "calc" and e.id in ids and e.value is not None and e.unit == "percent"]
    searched = [(Decimal(v), unit, (whose or [None])[0])  # the retrieval's (its change too)
                for v, unit, *whose in plan.figure_amounts]
    return list(dict.fromkeys(money + rates + searched))


def _nothing_from(tickers: list[str]) -> str:
    """What a prose answer about several companies says of those none of whose sentences answered.

    Why: "how does that compare with Apple?" quoted the thread's company alone, and read as if Apple
    had been forgotten; the answer is about both, and for one of them it is that nothing was found."""
    whose = " or ".join(possessive(t) for t in tickers)
    return f"I found nothing in {whose} 10-K that answers this."


def _unquoted(chunk: Evidence, quoted: list[str]) -> Evidence:
    """The chunk without the sentences the thread has already quoted (sentence_rank.already_quoted)."""
    kept = [s for s in split_sentences(chunk.text) if not sentence_rank.already_quoted(s, quoted)]
    return chunk.model_copy(update={"text": "\n".join(kept)})


def _source_line(plan: Plan, chunks: list[Evidence], companies: list[str], where: str,
                 held: dict[str, set[int]] | None = None) -> str:
    """Which filing the quotes come from, and why that one: the latest when no year was named; the
    next year's when the named year's 10-K is not held (it discusses that year as its prior year).
    "Not in my corpus" is said only when `held` shows it: quotes that all come from the next 10-K do
    not by themselves mean the named year's is missing."""
    if plan.period:  # a quarter's 10-Q (agent.retrieval.quarter_prose)
        from store.items import item_label

        parts = list(dict.fromkeys(item_label(c.item) for c in chunks if c.item))
        whose = f"{possessive(companies[0])} " if len(companies) == 1 else "the "
        fys = ", ".join(f"fiscal {y}" for y in sorted({c.fiscal_year for c in chunks}))
        return f"From {whose}10-Q ({fys}{'; ' + '; '.join(parts) if parts else ''}):"
    years = sorted({c.fiscal_year for c in chunks})
    asked = sorted(set(plan.fiscal_years)) if not plan.latest else []
    shown = ", ".join(f"fiscal {y}" for y in years)
    if len(companies) == 1:
        whose = f"{possessive(companies[0])} "
    else:
        whose = f"the {', '.join(companies[:-1])} and {companies[-1]} "
    if plan.latest and not plan.year_offsets:
        return f"From {whose}latest 10-K{' filings' if len(companies) > 1 else ''} ({shown}{', ' + where[2:-1] if where else ''}):"
    stand_ins = [y for y in asked if y not in years and y + 1 in years]
    if stand_ins and len(companies) == 1:
        gone = ", ".join(f"fiscal {y}" for y in stand_ins)
        missing = held is not None and not set(stand_ins) & held.get(companies[0], set())
        opening = f"The {gone} 10-K is not in my corpus; from the" if missing else f"From {whose}"
        return f"{opening} {shown} 10-K, which discusses {gone} as its prior year{where}:"
    # two years on (a year whose own 10-K and the next are not held): the nearest later 10-K, said as such
    farther = [y for y in asked if y not in years and y + 2 in years]
    if farther and len(companies) == 1 and held is not None and not set(farther) & held.get(companies[0], set()):
        gone = ", ".join(f"fiscal {y}" for y in farther)
        return f"The {gone} 10-K is not in my corpus; from the {shown} 10-K, the nearest later one held{where}:"

    newer = sorted(y for y in (held or {}).get(companies[0], set()) if years and y > max(years)) \
        if len(companies) == 1 else []
    if (getattr(plan, "slots", None) or {}).get("fiscal_years") == EARLIER_SLOT and newer:
        # no year was named, and a later 10-K is held: say why an older one was read
        return (f"From {whose}{shown} 10-K{where}, where this is told; the fiscal {newer[-1]} 10-K, the newest "
                "held, tells it less fully:")
    line = f"From {whose}{shown} 10-K{' filings' if len(companies) > 1 else ''}{where}:"
    later = sorted({c.ticker for c in chunks if asked and c.fiscal_year not in asked and c.fiscal_year - 1 in asked})
    if later:  # one company's 10-K for the named year is not held: its next one discusses that year
        line = line[:-1] + (f"; for {', '.join(later)}, the next 10-K, which discusses fiscal "
                            f"{', '.join(map(str, asked))} as its prior year:")
    return line


compose_extractive.uses_embedder = True  # the compose node passes the loaded embedder
compose_extractive.reads_held = True  # and the fiscal years whose 10-K each resolved company has


def _looks_tabular(text: str) -> bool:
    tokens = text.split()
    return bool(tokens) and len(number_tokens(text)) / len(tokens) > 0.25


def _numbers(plan: Plan, cells: list[dict], evidence: list[Evidence] | None = None) -> Draft:
    if plan.period:  # each figure with its exact period (agent.composing.quarters)
        from agent.composing.quarters import quarter_draft

        return quarter_draft(cells)
    found = [c for c in cells if c.get("evidence_id")]
    companies = list(dict.fromkeys(c["ticker"] for c in cells))
    years = sorted({c["fiscal_year"] for c in cells})
    metrics = list(dict.fromkeys(c["metric"] for c in cells))
    tabular = plan.intent in ("compare", "trend") or (len(companies) > 1) or (len(years) > 1)
    if len(companies) == 1 and any("|=" in c["metric"] for c in cells):  # "revenue by segment"
        return Draft(intro=_table_intro(cells, companies, years), claims=[], tables=[_breakdown_table(cells, years)])
    if not tabular:
        claims = _number_claims(found)
        missing = [c for c in cells if not c.get("evidence_id")]
        intro = ""
        if missing:
            intro = "Not reported as an XBRL fact: " + ", ".join(
                f"{lower_label(c['label'])} (fiscal {c['fiscal_year']})" for c in missing
            ) + "."
        intro = " ".join(p for p in (intro, _years_unanswered(plan, cells)) if p)
        return Draft(intro=intro, claims=claims, composer="extractive")
    intro = " ".join(p for p in (_table_intro(cells, companies, years), _ranking(cells, evidence or []),
                                 _unranked(cells), _not_meaningful(cells), _years_unanswered(plan, cells)) if p)
    return Draft(intro=intro, claims=[], tables=[_table(cells, companies, years, metrics)])


def _years_unanswered(plan: Plan, cells: list[dict]) -> str:
    """The years asked that no filing held reports, said beside the ones shown: a table of the held
    years alone reads as the whole span asked (agent.planning.plan_years.years_unanswered)."""
    from agent.planning.plan_years import years_unanswered

    out = []
    names = {c["ticker"]: c["name"] for c in cells}
    for ticker, missing in years_unanswered(plan, cells).items():
        said = ", ".join(str(y) for y in missing[:-1]) + (" and " if len(missing) > 1 else "") + str(missing[-1])
        out.append(f"{possessive(names[ticker])} fiscal {said} {'are' if len(missing) > 1 else 'is'} in no filing I hold, "
                   f"so {'they are' if len(missing) > 1 else 'it is'} not shown.")
    return " ".join(out)


def _unranked(cells: list[dict]) -> str:
    """The companies of a comparison with no figure at all, said in words: the table's "not reported"
    alone reads as a zero, and a ranking of the rest would look like the whole comparison."""
    names = list(dict.fromkeys(c["name"] for c in cells))
    empty = [n for n in names if not any(c.get("evidence_id") for c in cells if c["name"] == n)]
    if len(names) < 2 or not empty or len(empty) == len(names):
        return ""
    years = ", ".join(f"fiscal {y}" for y in sorted({c["fiscal_year"] for c in cells if c["name"] in empty}))
    who = empty[0] if len(empty) == 1 else ", ".join(empty[:-1]) + " and " + empty[-1]
    return f"I hold no reported figure of {who} for {years}, so {'it is' if len(empty) == 1 else 'they are'} not compared."


def _not_meaningful(cells: list[dict]) -> str:
    """Why a table shows "not meaningful" (a ratio over negative equity), with the operands, once per cell."""
    return " ".join(f"{possessive(c['name'])} {lower_label(c['label'])} for fiscal {c['fiscal_year']} is not "
                    f"meaningful: {c['not_meaningful']}." for c in cells if c.get("not_meaningful"))


def _ranking(cells: list[dict], evidence: list[Evidence]) -> str:
    """Which company is highest on each measure ("which of the two was higher?", "rank them"),
    in words only: the figures are in the table, each cited."""
    # as each row prints it: a row printing the fact with the other sign ranks by what it shows
    values = {e.id: (f"-{e.value}".replace("--", "") if e.negated else e.value) for e in evidence if e.value is not None}
    out = []
    for metric in dict.fromkeys(c["metric"] for c in cells):
        row = [c for c in cells if c["metric"] == metric and c.get("evidence_id") in values
               and not c.get("not_meaningful")]  # a quotient over negative equity ranks nowhere
        if len({c["ticker"] for c in row}) < 2 or len(row) != len({c["ticker"] for c in row}):
            continue  # one year per company, at least two companies
        ranked = sorted(row, key=lambda c: -float(values[c["evidence_id"]]))
        names = [c["name"] for c in ranked]
        label = lower_label(ranked[0]["label"])
        if len(names) == 2:
            out.append(f"{names[0]} is higher than {names[1]} on {label}.")
        else:
            out.append(f"By {label}, highest first: {', '.join(names)}.")
    return " ".join(out[:3])


def _number_claims(cells: list[dict]) -> list[Claim]:
    """One templated sentence per reported figure; balances are 'at the end of' the year."""
    claims = []
    for c in cells:
        if not c.get("evidence_id"):
            continue
        if c.get("period"):  # a quarter's figure, with its exact period (agent.composing.quarters)
            from agent.composing.quarters import sentence

            claims.append(Claim(text=sentence(c), evidence_id=c["evidence_id"], kind="number"))
            continue
        when = f"at the end of fiscal {c['fiscal_year']}" if c.get("instant") else f"for fiscal {c['fiscal_year']}"
        last = c["label"].split(" on ")[0].split()[-1]  # the head noun: "net sales were", "return on assets was"
        verb = "were" if last.islower() and last.endswith("s") and not last.endswith("ss") else "was"
        reported = c.get("reported_as")
        same = reported and lower_label(reported).strip().lower() == lower_label(c["label"]).strip().lower()
        shown = f" (reported as \u201c{reported}\u201d)" if reported and not same else ""  # no "X (reported as 'X')"
        if c.get("convention"):  # "EBITDA (operating income plus D&A, unadjusted)"
            shown += f" ({c['convention']})"
        if c.get("source_note"):
            shown += f" ({c['source_note']})"
        if c.get("not_meaningful"):  # a ratio over negative equity: no quotient as its figure, the operands instead
            claims.append(Claim(text=f"{possessive(c['name'])} {lower_label(c['label'])}{shown} {when} is not "
                                     f"meaningful: {c['not_meaningful']} ({c['operands_shown']}).", evidence_id=c["evidence_id"], kind="number"))
            continue
        plain = f", that is {c['economic']['name']} of {c['economic']['display']}" if c.get("economic") else ""
        claims.append(Claim(text=f"{possessive(c['name'])} {lower_label(c['label'])}{shown} {when} {verb} {c['display']}"
                                 f"{plain}.", evidence_id=c["evidence_id"], kind="number"))
    return claims


def _table_intro(cells, companies, years) -> str:
    labels = list(dict.fromkeys(c["label"] for c in cells))
    names = ", ".join(dict.fromkeys(c["name"] for c in cells))
    own = {c["name"]: {d["fiscal_year"] for d in cells if d["name"] == c["name"]} for c in cells}
    if len(own) > 1 and len(years) > 1 and all(len(ys) == 1 for ys in own.values()):
        # each company at its own fiscal year (a comparison built over several turns): say which is which
        which = ", ".join(f"{name} fiscal {next(iter(ys))}" for name, ys in own.items())
        return f"{', '.join(labels)} for {which}, from XBRL facts in their 10-K filings:"
    span = f"fiscal {years[0]}" if len(years) == 1 else f"fiscal {years[0]} to {years[-1]}"
    return f"{', '.join(labels)} for {names}, {span}, from XBRL facts in their 10-K filings:"


def _breakdown_table(cells, years) -> dict:
    """A metric by segment, product or region: one row per member, one column per fiscal year."""
    members = list(dict.fromkeys(c["metric"] for c in cells))
    by_key = {(c["metric"], c["fiscal_year"]): c for c in cells}
    rows, citations = [], []
    for key in members:
        label = next(c["label"] for c in cells if c["metric"] == key)
        row, cites = [label], [[]]
        for year in years:
            cell = by_key.get((key, year), {})
            row.append(cell.get("display") or "not reported")
            cites.append([cell["evidence_id"]] if cell.get("evidence_id") else [])
        rows.append(row)
        citations.append(cites)
    title = f"{cells[0]['name']}: {cells[0]['label'].split(' (')[0]} by member, " + (
        f"FY{years[0]}" if len(years) == 1 else f"FY{years[0]}–FY{years[-1]}")
    return {"title": title, "columns": ["Member", *[f"FY{y}" for y in years]], "rows": rows,
            "cell_citations": citations}


def _table(cells, companies, years, metrics) -> dict:
    by_key = {(c["ticker"], c["fiscal_year"], c["metric"]): c for c in cells}
    labels = {c["metric"]: c["label"] for c in cells}
    rows, citations = [], []
    one_year_per_company = all(len({c["fiscal_year"] for c in cells if c["ticker"] == t}) == 1 for t in companies)
    if len(companies) > 1 and one_year_per_company:
        columns = ["Company", "Fiscal year", *[labels[m] for m in metrics]]
        for ticker in companies:
            year = next(c["fiscal_year"] for c in cells if c["ticker"] == ticker)
            name = next(c["name"] for c in cells if c["ticker"] == ticker)
            row, cites = [f"{name} ({ticker})", f"FY{year}"], [[], []]
            for m in metrics:
                cell = by_key.get((ticker, year, m), {})
                row.append(cell.get("display") or "not reported")
                cites.append([cell["evidence_id"]] if cell.get("evidence_id") else [])
            rows.append(row)
            citations.append(cites)
        title = " vs ".join(labels[m] for m in metrics) + " by company"
    else:
        multi = len(companies) > 1
        # a trend shows each reported figure's change on the year before, when it was computed
        changing = [m for m in metrics if any(c.get("change_id") for c in cells if c["metric"] == m)]
        header = {m: "Change" if len(metrics) == 1 else f"{labels[m]} change" for m in changing}
        columns = (["Company"] if multi else []) + ["Fiscal year"]
        for m in metrics:
            columns += [labels[m]] + ([header[m]] if m in header else [])
        for ticker in companies:
            for year in years:
                if not any((ticker, year, m) in by_key for m in metrics):
                    continue
                row = ([ticker] if multi else []) + [f"FY{year}"]
                cites: list[list[str]] = [[] for _ in row]
                for m in metrics:
                    cell = by_key.get((ticker, year, m), {})
                    row.append(cell.get("display") or "not reported")
                    cites.append([cell["evidence_id"]] if cell.get("evidence_id") else [])
                    if m in header:
                        row.append(cell.get("change_display") or "—")
                        cites.append([cell["change_id"]] if cell.get("change_id") else [])
                rows.append(row)
                citations.append(cites)
        name = cells[0]["name"] if not multi else "by company"
        title = f"{', '.join(labels[m] for m in metrics)}: {name}, FY{years[0]}–FY{years[-1]}"
    return {"title": title, "columns": columns, "rows": rows, "cell_citations": citations}


def compose(state, deps, config) -> dict:
    plan = plan_of(state)
    evidence = [Evidence.model_validate(e) for e in state.get("evidence") or []]
    cells = (state.get("retrieval") or {}).get("cells")
    on_text = draft_text() if deps.stream_text else None
    status("Writing the answer...")
    if (state.get("retrieval") or {}).get("new_sentences") is not None:  # a 10-Q's new risk factors, quoted
        from agent.retrieval.quarter_prose import changes_draft

        return {"draft": changes_draft(plan, evidence, state["retrieval"]).model_dump(mode="json")}
    held = held_years(state)
    composer = deps.fallback_composer if plan.period and plan.intent != "qualitative" else deps.composer  # templated periods
    try:
        extra = {"embedder": deps.embedder} if getattr(composer, "uses_embedder", False) else {}
        if getattr(composer, "reads_held", False):
            extra["held"] = held
        draft = composer(state["question"], plan, evidence, cells=cells, on_text=on_text, **extra)
    except Exception as exc:  # a model's failure falls back to the extractive composer
        if deps.composer is deps.fallback_composer:
            raise
        log.warning("composer %s failed (%s); using the extractive composer", deps.composer_name, exc.__class__.__name__)
        draft = deps.fallback_composer(state["question"], plan, evidence, cells=cells, embedder=deps.embedder,
                                       held=held)
        draft.fallback = f"composer: {deps.composer_name} failed ({exc.__class__.__name__}); extractive composer used"
    update = {"draft": draft.model_dump(mode="json")}
    # "how much ... and on what": the figure still answers; so do a named figure's years, asked whether it rose or
    # fell ("SG&A for 2021 through 2023, rising or falling?"), though no passage discusses it, unless asked why
    over_years = bool(plan.metrics) and len(plan.fiscal_years) >= 2 and not plan.asks_cause \
        and sum(c.kind == "number" for c in draft.claims) >= 2
    if plan.intent == "qualitative" and unnamed_in_quotes(plan.unless_named, draft.claims):
        # a figure no table maps, searched in prose for want of it: no sentence quoted names it, so its
        # own refusal stands rather than a quote about something else
        update["refusal"] = {"reason": plan.unless_named["reason"], "detail": plan.unless_named["detail"]}
        return update
    if plan.intent == "qualitative" and not any(c.kind == "prose" for c in draft.claims) \
            and not (draft.claims and (plan.sub_queries or over_years)):
        # nothing in what was found answers the question: say where we looked, quote nothing
        update["refusal"] = {"reason": "no_grounding", "detail": searched(state)}
        if plan.unless_named:  # a figure no table maps, searched in prose for want of it: its own refusal
            update["refusal"] = {"reason": plan.unless_named["reason"], "detail": plan.unless_named["detail"]}
    return update


def unnamed_in_quotes(unless_named: dict | None, claims) -> bool:
    """A prose search standing in for a refused figure (`Plan.unless_named` with the words its name is made of)
    quotes no sentence that names all those words. Retrieval found a passage naming them; the sentences the
    ranking chose may still speak of something else ("our audits also included evaluating ..." for a backlog)."""
    words = (unless_named or {}).get("words") or []
    prose = [c.quote or c.text for c in claims if c.kind == "prose"]
    return bool(words) and bool(prose) and not any(names_all(text, words) for text in prose)


def held_years(state) -> dict[str, set[int]]:
    """Per resolved ticker, the fiscal years whose filing the corpus holds (agent.retrieval.fetch)."""
    return {c["ticker"]: {int(y) for y in c.get("filings") or {}} for c in state.get("resolved") or []
            if c.get("ticker") and c.get("filings") is not None}


def items_text(items: list[str]) -> str:
    """"Item 7", "Items 7 and 8"; a 10-Q's Items as it names them: "Part I, Item 2 and Part II, Item 1A"."""
    if any(is_quarterly_item(i) for i in items):
        labels = [item_label(i) for i in items]
        return labels[0] if len(labels) == 1 else f"{', '.join(labels[:-1])} and {labels[-1]}"
    return f"Item {items[0]}" if len(items) == 1 else f"Items {', '.join(items[:-1])} and {items[-1]}"


def searched(state) -> str:
    """Where a prose question was looked for, for the refusal: "Apple's fiscal 2024 10-K (Item 7)"."""
    located = state.get("located") or {}
    items = list(located.get("items") or [])
    where = items_text(items) if items else "all Items"
    parts = []
    for company in state.get("resolved") or []:
        years = company.get("fiscal_years") or []
        span = f"fiscal {', '.join(map(str, years))} " if years else ""
        forms = {(company.get("filings") or {}).get(str(y), {}).get("form", "10-K")[:4] for y in years}
        parts.append(f"{possessive(company['name'])} {span}{'10-Q' if forms == {'10-Q'} else '10-K'}")
    return f"searched {' and '.join(parts) or 'the filing'} ({where})"
