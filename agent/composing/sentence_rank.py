"""How well a filing sentence answers the question: beyond "it shares a word with it".

Three signals, each cheap, added to the sentence's dense similarity by the extractive composer:

- coverage: the share of the question's content terms (its entities and qualifiers) the sentence
  holds, each term weighted by how rare it is among the candidate sentences, so "Foxconn" or
  "dealer inventories" count and a word every sentence shares ("company", "products") barely does;
- role: a why-question is answered by a sentence that states a cause ("due to", "driven by"), a
  how-dependent question by one that states a reliance, an event question by one that states what
  happened and when;
- near-duplicates: filings repeat themselves (MD&A restates the risk factors); only the better of
  two near-identical sentences is quoted.

And a floor: when even the best sentence is neither similar nor covering, nothing answers, and the
composer says so rather than quoting filler.
"""

from __future__ import annotations

import functools
import math
import re

_WORD = re.compile(r"[a-z][a-z0-9&\-]+")
GENERIC = frozenset(
    "the and for with that this from what which how does did were was are its their about have has been will would "
    "into over than also such other company companys company's our we they them describe tell explain main key say "
    "says said 10-k filing filings item fiscal year years annual report business companies do much many any some "
    "there these those it is be as on in of to by an or at can could should may might why when where who whom "
    "please me you your give show list discuss mention mentions mentioned according per regarding related net total "
    "matter matters detail details".split()
)
# A cause stated outright ("due to", "driven by", "primarily from"), and a change stated with its
# size ("increased 12%", "was down $1.2 billion"): what answers a why-question. A direction word
# alone ("higher", "lower") is in half of MD&A's sentences and marks none of them.
CAUSE = re.compile(r"\b(?:due to|driven by|primarily|principally|mainly|largely|as a result of|because|"
                   r"reflect(?:s|ed|ing)?|attributable to|offset by|resulting from|result of|led to|"
                   r"contribut(?:ed|ing|ion)|benefit(?:ed|ted) from|impacted by|affected by|strong(?:er)? demand)\b",
                   re.I)
CHANGE = re.compile(r"\b(?:increas\w*|decreas\w*|higher|lower|grew|rose|doubled|tripled|declined|fell|"
                    r"up|down|contraction|expansion)\b", re.I)
_SIZE = re.compile(r"[$€£]\s?\d|\d\s?(?:%|percent\b|basis points?\b|percentage points?\b)", re.I)


# A sentence whose subject only points back to the one before it. MD&A states a change, then its
# cause in a sentence of its own ("Our gross margin increased to 61.1%. This increase was primarily
# due to pricing."; "YouTube ads revenues increased. The growth was driven by brand advertising."):
# read alone, the cause names nothing asked and is far in meaning from the question; read with the
# sentence it points back to, it is the answer. "The increase in TAC ..." names its own subject.
# Its adverb is any of the ways a filing weighs a cause: "primarily", "mostly", "almost entirely", "in part".
_CAUSE_VERB = (r"(?:(?:was|were|is|are|has\s+been|have\s+been)\s+)?(?:(?:almost|in\s+part|[a-z]+ly)\s+){0,2}"
               r"(?:driven|due|attributable|caused|the\s+result|a\s+result|reflect\w*|resulted)\b")
# The subject that points back, then the verb of a cause: "It is possible ..." points nowhere, and "These
# decreases were partially offset by ..." tells what went the other way, not why.
_POINTS_BACK = re.compile(
    r"^(?:Growth|(?:This|These|That|Those|Such|The|Both\s+the|Each\s+of\s+these)(?:\s+[\w-]+){0,2}?\s+"
    r"(?:increases?|decreases?|declines?|growth|changes?|improvements?|reductions?|rises?|drops?|deterioration|"
    r"expansion|contraction|gains?|shifts?))\s+" + _CAUSE_VERB
    + r"|^(?:This|These|That|It)\s+" + _CAUSE_VERB
)


def points_back(sentence: str) -> bool:
    """The sentence's subject is the statement before it (see _POINTS_BACK)."""
    return bool(_POINTS_BACK.match(sentence.lstrip("…").lstrip()))


def states_cause(sentence: str) -> bool:
    """The sentence says why something moved, or how much it moved."""
    return bool(CAUSE.search(sentence) or (CHANGE.search(sentence) and _SIZE.search(sentence)))


# What went the other way: "..., partially offset by growth in Security, driven by Splunk" explains the
# offset, not the subject; "This decrease was partially offset by a 17% increase in Embedded" tells no
# cause of the decrease at all.
_OFFSET = re.compile(r",?\s*(?:which\s+(?:was|were)\s+)?(?:(?:was|were)\s+)?(?:partially|partly|largely|slightly|more than)?\s*"
                     r"offset\s+by\b.*$", re.I | re.S)


def own_statement(sentence: str) -> str:
    """The sentence without what offset its subject's change (_OFFSET)."""
    return _OFFSET.sub("", sentence)
RELIANCE = re.compile(r"\b(?:depend\w*|rel(?:y|ies|ied|iance)|single[- ]source|sole[- ]source|limited number|"
                      r"concentrat\w*|substantial (?:portion|majority|part)|significant portion|key suppliers?|"
                      r"outsourc\w*|a few|manufactured by|partners?)\b", re.I)
# How much of the business rests on it, told as a share: "About 20% of our revenue comes from customers in
# China", "Apple accounted for 12% of net sales". For "how dependent / exposed" this is the measure itself;
# a risk factor saying "we depend on" tells that it does, not how much.
SHARE = re.compile(r"\d(?:[\d.,]*)\s?(?:%|percent\b)\s+of\s+(?:our\s+|its\s+|the\s+company['’]s\s+)?"
                   r"(?:(?:total|consolidated|net|worldwide|annual)\s+)*(?:revenues?|sales|net\s+sales)\b|"
                   r"\baccount(?:ed|s)?\s+for\s+(?:approximately\s+|about\s+|over\s+|more\s+than\s+|less\s+than\s+)?"
                   r"\d[\d.,]*\s?(?:%|percent\b)", re.I)
EVENT = re.compile(r"\b(?:(?:january|february|march|april|may|june|july|august|september|october|november|december)"
                   r"\s+(?:\d{1,2},\s+)?\d{4}|completed|announced|acquired|filed|settled|agreed|entered into|"
                   r"closed|occurred|detected|identified)\b", re.I)
# ("what's behind the number?", "how come margins fell?": a why in other words)
ASK_CAUSE = re.compile(r"\b(?:why|drove|drive[nrs]?|driving|caused?|reasons?|explain\w*|affect\w*|impact\w*|attribut\w*|"
                       r"led to|contribut\w*|factors|behind|how come)\b", re.I)
ASK_RELIANCE = re.compile(r"\b(?:depend\w*|relian\w*|rel(?:y|ies)|exposed|exposure|concentrat\w*|vulnerab\w*)\b",
                          re.I)
ASK_EVENT = re.compile(r"\b(?:acqui\w+|divest\w*|litigation|lawsuits?|settle\w*|strikes?|incidents?|breach\w*|"
                       r"attacks?|investigation\w*|when|happened|merger\w*|recalls?)\b", re.I)
# A plan or an expectation asked for ("what does it expect for capex?") is answered by a sentence that
# states one ("we anticipate", "we expect ... will require").
ASK_PLAN = re.compile(r"\b(?:expect\w*|plan(?:s|ned|ning)?|anticipat\w*|outlook|guidance|going forward|intend\w*|"
                      r"forecast\w*|next year|will)\b", re.I)
PLAN = re.compile(r"\b(?:we|management|the company)\s+(?:\w+\s+){0,2}?(?:expect|anticipate|plan|intend|estimate|"
                  r"project|believe)s?\b|\bwill (?:require|continue|increase|decrease|be)\b", re.I)


def stating_plans(question: str, sentences: dict[int, str], topic: set[str]) -> set[int]:
    """Of `sentences` (candidates by index), the ones a plan question keeps: "what does it expect
    for capex?" is answered by a sentence that states an expectation of the subject itself, and
    those push out the ones telling what was spent. Without one (or for any other question), all
    are kept: what was spent is then all the filing says."""
    if not ASK_PLAN.search(question):
        return set(sentences)
    asking = {stem(m.group(0).lower()) for m in ASK_PLAN.finditer(question)}  # "expect", "planned": no subject
    subject = {t for t in topic if t.lstrip("#") not in asking}
    stating = {i for i, s in sentences.items() if PLAN.search(s) and (not subject or names_topic(s, subject, 0.0))}
    return stating or set(sentences)


ROLE_BONUS = 0.05
COVERAGE_WEIGHT = 0.2
# A sentence answers when it is close in meaning, or fairly close and holding half the question's
# terms, or (for a why-question) states a cause and is not far off. Measured with MiniLM: on the
# shared corpus, sentences on the asked topic score 0.42 and up, and filler on a topic the filing
# lacks ("pet food" in a beverage maker's 10-K, whose packaging is "PET") 0.2 to 0.39 with at most
# one of the question's terms; our fixtures' short sentences answer from 0.29.
CLOSE, FAIRLY_CLOSE, CAUSE_CLOSE, HALF = 0.4, 0.28, 0.25, 0.5
DUPLICATE_JACCARD = 0.6
DUPLICATE_CONTENT = 0.5  # and of their content words, past the template of a change


def stem(word: str) -> str:
    """A crude stem, one for a word's forms: "revenue" and "revenues", "increase" and "increased",
    and the doer with the deed ("bottlers" and "bottling", "manufacturer" and "manufacturing")."""
    for suffix in ("ies", "ers", "es", "s", "ing", "ed", "er", "ly"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            word = word[: -len(suffix)]
            break
    return word[:-1] if word.endswith("e") and len(word) > 4 else word


@functools.lru_cache(maxsize=4096)  # a sentence is read for its terms several times per answer
def terms(text: str) -> frozenset[str]:
    return frozenset(stem(w) for w in words(text))


def words(text: str) -> list[str]:
    """The words `terms` reads, as written (lowercase)."""
    return [w for w in _WORD.findall(text.lower()) if w not in GENERIC and len(w) > 2]


def term_weights(question_terms: set[str], sentences: list[str]) -> dict[str, float]:
    """Each question term's weight: rarer among the candidates weighs more (a smoothed IDF)."""
    n = len(sentences)
    sets = [terms(s) for s in sentences]
    return {t: math.log(1 + (n + 1) / (1 + sum(t in s for s in sets))) for t in question_terms}


def coverage(sentence: str, weights: dict[str, float]) -> float:
    """The weighted share of the question's terms the sentence holds, a word family counting as
    the word ("operating loss" and "loss from operations")."""
    total = sum(weights.values())
    if not total:
        return 0.0
    have = terms(sentence)
    return sum(w for t, w in weights.items() if holds(have, t)) / total


# "How much / how many / what share": answered by a sentence that states an amount, a count or a share
# ("how much does it depend on X?" asks how dependent, not how much: ASK_RELIANCE).
ASK_AMOUNT = re.compile(r"\bhow (?:much|many|big|large)\b|\bwhat (?:share|portion|percentage|proportion|part)\b|"
                        r"\b(?:amount|number) of\b", re.I)
AMOUNT = re.compile(r"[$€£]\s?\d|\d\s?(?:%|percent\b)|\d[\d,.]*\s(?:million|billion|thousand)\b|"
                    r"\b(?:majority|substantially all|half|one-third|a third|a quarter)\b", re.I)


def role(question: str, sentence: str) -> float:
    """A bonus when the sentence plays the part the question asks for (a cause, a reliance, an event,
    a plan, an amount)."""
    bonus = 0.0
    if ASK_AMOUNT.search(question) and not ASK_RELIANCE.search(question) and AMOUNT.search(sentence):
        bonus += ROLE_BONUS
    if ASK_CAUSE.search(question) and states_cause(own := own_statement(sentence)):
        # a cause told outright answers a why; how much the thing moved only sets the scene for it; a
        # cause of what offset it answers nothing asked
        bonus += ROLE_BONUS * (2 if CAUSE.search(own) else 1)
    if ASK_RELIANCE.search(question) and (RELIANCE.search(sentence) or SHARE.search(sentence)):
        # a share told outright answers how dependent, as a cause told outright answers a why
        bonus += ROLE_BONUS * (2 if SHARE.search(sentence) else 1)
    if ASK_EVENT.search(question) and EVENT.search(sentence):
        bonus += ROLE_BONUS
    if ASK_PLAN.search(question) and PLAN.search(sentence):
        bonus += ROLE_BONUS
    return bonus


# The subject of a sentence stating a change or what a line holds: its words before the first verb
# ("Cost of energy generation and storage revenue | increased $2.55 billion ..."), within its opening
# words. A why-question is answered by the change of the line it names: a neighbouring line's sentence
# ("cost of X revenue", "X operating income") shares every word of the asked line, is as close in
# meaning, and is built on the same template, so only its subject tells it is another line's: by the
# measure it names ("cost", "income"). A part of the asked line ("revenue from Data Center") names
# the same measure and explains the whole.
_SUBJECT_END = re.compile(r"\b(?:increased|decreased|grew|rose|fell|declined|improved|dropped|expanded|contracted|"
                          r"was|were|is|are|remained|totaled|amounted|includes|included|consists|consisted|"
                          r"reflects|reflected)\b", re.I)
SUBJECT_WORDS = 14  # a verb further in ends a clause, not the sentence's subject
MEASURES = frozenset(stem(w) for w in (
    "revenue revenues sales cost costs expense expenses margin margins income profit profits loss losses earnings "
    "tax taxes cash liabilities assets debt borrowings interest depreciation amortization inventory inventories "
    "capital dividends shares receivables payables ebit ebitda spending expenditures").split())
SUBJECT_WEIGHT = 0.15
# Measures said in other words are one measure ("sales" and "revenue", "earnings" and "income"); the
# provision for income taxes is a tax, not an income.
_FAMILY = {stem(w): f for f, words in (
    ("revenue", "revenue revenues sales"), ("cost", "cost costs expense expenses spending expenditures"),
    ("income", "income earnings profit profits loss losses ebit"), ("tax", "tax taxes")) for w in words.split()}
_INCOME_TAX = re.compile(r"\bincome\s+tax", re.I)


def subject_of(sentence: str) -> str | None:
    """The words before the sentence's first verb of change or of being, if it comes early."""
    m = _SUBJECT_END.search(sentence)
    if m is None or len(sentence[: m.start()].split()) > SUBJECT_WORDS:
        return None
    return sentence[: m.start()]


# Words a subject may hold and still name no line of its own: the measure, how it is qualified, what moves it.
BARE = MEASURES | frozenset(stem(w) for w in (
    "volume volumes mix price prices pricing operating gross organic adjusted comparable favorable unfavorable "
    "segment total overall shipments units demand growth average rate").split())


def bare_subject(sentence: str) -> bool:
    """The sentence's subject is a measure alone ("Volumes declined 4% ...", "Operating profit decreased
    primarily due to ..."): whose volumes, which segment's profit, the sentences before it said."""
    said = subject_of(sentence)
    if not said or re.search(r"\b[A-Z][a-z]+\b", said[1:]) or re.search(r"\d", said):
        return False  # a capitalised word past the first names a line or a segment of its own
    words = terms(said)
    return bool(words) and words <= BARE


def other_subject(sentence: str, asked: set[str]) -> float:
    """The share of the measures the sentence's subject names ("cost", "revenue") that the question
    does not name (`asked`: its terms and the search's): 0 when the subject is the line asked or a part
    of it, or names no measure."""
    said = subject_of(sentence)
    if not said or not asked:
        return 0.0
    words = terms(_INCOME_TAX.sub("tax", said)) & MEASURES
    if not words:
        return 0.0
    # the measures the question names ("rev", "exp": the asker's abbreviations of one); with none ("why did
    # the airplanes business struggle?"), a sentence that is some line's change tells less than one about it
    named = {_FAMILY.get(a, a) for a in asked if a in MEASURES} | {
        _FAMILY.get(m, m) for m in MEASURES for a in asked if len(a) >= 3 and m.startswith(a)}
    return sum(_FAMILY.get(w, w) not in named for w in words) / len(words)


# A question about the risks the filing states ("summarize its risk factors") asks no line's change,
# though "factors" reads as a why.
_RISKS = re.compile(r"\brisks?\b", re.I)


def asks_a_lines_change(question: str, why: bool) -> bool:
    """A why-question whose answer is some line's change (see other_subject), not a list of risks."""
    return why and not _RISKS.search(question)


# Which way a change went. A why-question names it ("why did volume increase?"), and a sentence
# states it in its main clause, before its cause ("Volumes declined 6%, driven by ..."): a sentence
# telling the other way is about another line or another year, and ranks a little lower. What the
# cause clause says ("partially offset by higher ...") tells no direction of the subject.
_UP = re.compile(r"\b(?:increas\w*|grew|grow\w*|rise|rises|rising|rose|risen|higher|up|jump\w*|improv\w*|gain\w*|"
                 r"expan\w*|doubled|tripled)\b", re.I)
_DOWN = re.compile(r"\b(?:decreas\w*|declin\w*|fell|fall\w*|drop\w*|lower|down|shr[iu]nk\w*|weak\w*|contract\w*|"
                   r"reduc\w*|deteriorat\w*)\b", re.I)
_CAUSE_CLAUSE = re.compile(r"\b(?:due to|driven by|primarily|principally|mainly|largely|as a result|because|reflect\w*|"
                           r"attributable|offset|resulting|result of|compared (?:to|with)|from \$)", re.I)


def directions(text: str) -> set[str]:
    """The directions ("up", "down") the text's words of change state."""
    return {d for d, pattern in (("up", _UP), ("down", _DOWN)) if pattern.search(text)}


def main_clause(sentence: str) -> str:
    """What the sentence states before its cause."""
    return _CAUSE_CLAUSE.split(sentence, maxsplit=1)[0]


def opposite_direction(question: str, sentence: str) -> bool:
    """The question asks about one direction of change and the sentence's main clause (what comes
    before its cause) states only the other: "Volumes declined ..." for "what drove the volume
    increase?"."""
    asked = directions(question)
    if len(asked) != 1:
        return False
    stated = directions(main_clause(sentence))
    return bool(stated) and not stated & asked


# Words that name a whole section rather than a subject within it: "what are the risk factors?"
# is answered by any sentence of Item 1A, so no sentence is held to the floor.
SECTION_WORDS = frozenset(stem(w) for w in (
    "risk risks factor factors business overview md&a management's discussion analysis results operations "
    "financial condition cybersecurity summary summarize section biggest major primary important top "
    "principal significant material describe described "
    # and the words that ask why, which name no subject of their own ("what drove results?")
    "drove drive driven driver drivers cause caused reason reasons explain change changed performance "
    "perform affect affected impact impacted happen happened overall "
    # and the words that ask how much it leans on something, which is named after them ("how
    # dependent is it on foundries?" is about foundries)
    "depend depends dependent dependence dependency reliant reliance rely relies exposed vulnerable".split()))


# Words that say how something moved or what is asked of it, not what it is: "why did gross margin
# drop so much" is about gross margin. A closed set of directions and question scaffolding.
MOVEMENT = frozenset(stem(w) for w in (
    "increase increased increases decrease decreased decreases grow grew grown growth growing rise rose risen "
    "fall fell fallen drop dropped decline declined jump jumped improve improved worse worsen better bigger "
    "smaller higher lower strong stronger weak weaker big large larger small down happen happened hit hurt "
    "going forward story behind whats what's actually really changed change compared prior primarily due".split()))


def subject_terms(cased: set[str]) -> set[str]:
    """The question's terms that name what it is about (from `cased_terms`): neither a section's
    name, nor a why-word, nor a direction of change."""
    return {t for t in cased if t.lstrip("#") not in SECTION_WORDS and t not in MOVEMENT}


# A word this short ("AI", "ads", "EV") is said in passing all over a filing: it tells no sentence's subject.
ASKED_LETTERS = 4


def says_asked_word(asked: set[str], sentence: str) -> bool:
    """The sentence says one of `asked` (the words the question names its subject with, from
    `cased_terms`) as written, its plural or tense aside: not a word of its family ("competition" for
    "competitors"), nor a short word or initialism (ASKED_LETTERS). Such a sentence is about what the
    asker named, in the asker's own terms."""
    words = {t.lstrip("#") for t in asked if len(t.lstrip("#")) >= ASKED_LETTERS}
    return bool(words & {t.lstrip("#") for t in cased_terms(sentence)})


SAME_MEANING = 0.5  # a sentence this close in meaning names the subject in other words ("foundry partners")


def names_topic(context: str, topic: set[str], cosine: float) -> bool:
    """The sentence, or the one before it (`context`: both), holds one of the question's subject
    terms, in capitals or not ("Vizio" and "VIZIO"), or says the same thing in other words."""
    if cosine >= SAME_MEANING:
        return True
    loose = {t.lstrip("#") for t in topic}
    have = {t.lstrip("#") for t in cased_terms(context)}  # `context` ends with the sentence itself
    return any(holds(have, t) for t in loose)


def subject_missing(topic: set[str], texts: list[str], other_names: set[str] = frozenset()) -> bool:
    """Most of what the question is about (`topic`, from `subject_terms`: two terms or more) is held
    by none of the candidate sentences, in any word of its family: "oil and gas drilling leases"
    asked of a filing whose candidates speak only of office leases. What is quoted then would
    answer a question nobody asked, unless a sentence says the same thing in other words
    (SAME_MEANING, checked by the composer). `other_names`: the plan's own words for the subject
    ("capital expenditures" for "capex"); when one is held, the asker's words were only renamed."""
    loose = {t.lstrip("#") for t in topic}
    if len(loose) < 2:
        return False
    have = {t.lstrip("#") for t in cased_terms(" ".join(texts))}
    if any(holds(have, t.lstrip("#")) for t in other_names):
        return False
    return sum(not holds(have, t) for t in loose) > len(loose) / 2


def broad(question_terms: set[str]) -> bool:
    """The question asks for a section's content as a whole, not for a subject inside it."""
    return not (question_terms - SECTION_WORDS)


def answers(cosine: float, covered: float, *, in_context: float = 0.0, top_chunk: bool = False,
            cause: bool = False, says: bool = True) -> bool:
    """False when a sentence is neither close in meaning nor, fairly close, holds half the question's
    terms (`covered`: the plain share, from `share`). In the search's best chunk, a sentence whose
    own words differ from the question's ("Compute & Networking includes ..." for "what are the
    segments?") still answers when it and the sentence before it hold half the question's terms
    (`in_context`): that is where the chunk speaks of them. `cause`: a why-question answered by a
    sentence that states a cause. Close in meaning while saying no word of the question that counts, in it
    or the sentence before it, and playing no part asked (`says` False; the composer asks it when the
    asker's own words name the subject) is not close enough unless it says the same thing (SAME_MEANING):
    "The Company has access to ... numerous banks" is near "Optum Bank - details?" by the word "bank" alone."""
    return ((cosine >= CLOSE and (says or cosine >= SAME_MEANING)) or (cosine >= FAIRLY_CLOSE and covered >= HALF)
            or (top_chunk and in_context >= HALF) or (cause and cosine >= CAUSE_CLOSE))


# "SG&A" and "AT&T" are one acronym each: read as "SG" with the rest dropped, no sentence named SG&A when asked.
# ("R&D", "P&G", single letters both sides, are read as the words they are typed as.)
_ACRONYM = re.compile(r"\b(?:[A-Z]{2,}&[A-Z]+|[A-Z]+&[A-Z]{2,}|[A-Z]{2,})\b")
# A part of the filing named as where to look ("what does the MD&A say about X") is not what is asked.
_DOC_PART = re.compile(r"\bmd\s?&\s?a\b|\(?\bmanagement['’]?s?\s+discussion\s+and\s+analysis\b\)?", re.I)


@functools.lru_cache(maxsize=4096)
def cased_terms(text: str) -> frozenset[str]:
    """`terms`, with acronyms kept apart from the words they spell ("PET" plastic is not "pet")."""
    text = _DOC_PART.sub(" ", text)
    acronyms = {a.lower() for a in _ACRONYM.findall(text)}
    words = {w for w in _WORD.findall(_ACRONYM.sub(" ", text).lower())}
    return frozenset({stem(w) for w in words if w not in GENERIC and len(w) > 2} | {"#" + a for a in acronyms})


def share(text: str, question_terms: set[str], names: tuple[frozenset[str], ...] = ()) -> float:
    """The plain share of the question's terms (from `cased_terms`) that `text` holds: for the
    floor, where a term every candidate holds still counts as held. A name of several words the
    question gives (`names`, from `names_in`) is held whole or not at all: "People's Bank of China"
    holds no word of "Optum Bank"."""
    if not question_terms:
        return 0.0
    have = cased_terms(text)
    found = {t for t in question_terms if holds(have, t)}
    for name in names:
        if not all(holds(have, t) for t in name):
            found -= name
    return len(found) / len(question_terms)


# A proper name of several capitalised words ("Optum Bank", "Department of Justice", "Alaska Airlines"), an
# acronym among them ("Each BRG")
_NAME = re.compile(r"(?<![\w&'’.-])(?:[A-Z][\w&'’.-]*)(?:\s+(?:(?:of|and|&|the|for|de)\s+)?[A-Z][\w&'’.-]*)+")


def names_in(text: str) -> tuple[frozenset[str], ...]:
    """The terms (as `cased_terms` reads them) of each name of two or more capitalised words in `text`,
    those of two terms or more: a question's subject that is one thing, not its words apart."""
    out = []
    for match in _NAME.finditer(text):
        found = cased_terms(match.group(0))
        if len(found) >= 2:
            out.append(found)
    return tuple(dict.fromkeys(out))


def in_candidates(question_terms: set[str], texts: list[str]) -> set[str]:
    """The question's terms that at least one candidate sentence holds, when two or more do: the
    floor's share is taken over these. A word no candidate holds tells no sentence from another:
    it is the asker's scaffolding ("correct?", "pls", "I understand"), or one of several names the
    plan gave the subject ("capex", spelled out as "capital expenditures" and "purchases of
    property and equipment"), and counting it would hold every sentence below half. With fewer
    than two held, the question's own terms stay: one shared word is not a subject found."""
    have = cased_terms(" ".join(texts))
    found = {t for t in question_terms if holds(have, t)}
    return found if len(found) >= 2 else question_terms


# A filing names a unit, a program or a body by its initials once it has spelled it out ("Boeing
# Commercial Airplanes (BCA)", "the Department of Justice (DOJ)"); a question spells it out. Words
# the initials skip ("Defense, Space & Security" is BDS).
_JOINERS = frozenset("and of & the for on".split())  # "return on invested capital" is ROIC
_RUN = 5  # the longest name spelled by initials


def initialisms(question: str) -> dict[str, str]:
    """Each run of 2 to _RUN consecutive subject words of the question by its initials, a joiner
    inside a run counted or skipped ("boeing commercial airplanes" -> "bca" and "ca", "department of
    justice" -> "doj" and "dj"). Question words, directions and section names start no run and end
    none ("what drove", "bigger", "in 2024" spell nothing)."""
    words = re.findall(r"[a-z][a-z0-9\-]*|&", _DOC_PART.sub(" ", question.lower()))
    subject = [w not in GENERIC and stem(w) not in MOVEMENT and stem(w) not in SECTION_WORDS for w in words]
    out: dict[str, str] = {}
    for i in range(len(words)):
        if not subject[i]:
            continue
        run: list[str] = []
        for j in range(i, len(words)):
            if not subject[j] and words[j] not in _JOINERS:
                break
            run.append(words[j])
            content = [w for w in run if w not in _JOINERS]
            if len(content) > _RUN:
                break
            if len(content) >= 2 and subject[j]:
                for initials in ("".join(w[0] for w in run), "".join(w[0] for w in content)):
                    out.setdefault(initials, " ".join(run))
    return out


# "Boeing Commercial Airplanes (BCA)", "the International Association of Machinists and Aerospace
# Workers District 751 (IAM 751)": a filing defining its abbreviation, capitalised words then it.
_DEFINED = re.compile(r"((?:(?:[A-Z][\w’'&.-]*|\d+),?\s+(?:(?:and|of|&|the|for)\s+)*){2,12})\((?:the\s+)?([A-Z]{2,})\b[^)]{0,8}\)")


def _spelling(run: list[str], acronym: str) -> str | None:
    """The shortest opening of `run` whose initials are `acronym`, joiners counted or skipped."""
    for skip in (False, True):
        letters = ""
        for k, w in enumerate(run):
            if skip and w.lower() in _JOINERS:
                continue
            letters += w[0].lower()
            if letters == acronym:
                return " ".join(run[: k + 1]).strip(",").lower()
            if not acronym.startswith(letters):
                break
    return None


def defined(texts: list[str]) -> dict[str, str]:
    """The abbreviations the filing's own text defines ("Boeing Commercial Airplanes (BCA)"), by the
    words they abbreviate: the capitalised words right before the parenthesis whose initials spell it."""
    out: dict[str, str] = {}
    for text in texts:
        for m in _DEFINED.finditer(text):
            acronym, words = m.group(2).lower(), m.group(1).split()
            if acronym in out:
                continue
            for i in range(len(words)):
                if words[i].lower() in _JOINERS:
                    continue
                spelling = _spelling(words[i:], acronym)
                if spelling:
                    out[acronym] = spelling
                    break
    return out


def spelled_out(text: str, names: dict[str, str]) -> str:
    """The text with each acronym the question spells out followed by the question's words for it
    ("BCA loss from operations" -> "BCA (boeing commercial airplanes) loss from operations"): the
    text a sentence is scored by, never the one quoted."""
    if not names:
        return text
    return _ACRONYM.sub(lambda m: f"{m.group(0)} ({names[m.group(0).lower()]})" if m.group(0).lower() in names
                        else m.group(0), text)


# One line under two names: a question's "revenue" is a filing's "net sales", its "operating income"
# the filing's "earnings from operations". Why: "why did Apple's revenue change?" found MD&A's "Americas
# net sales increased ... due primarily to ..." naming nothing asked, and quoted a note that says
# "revenue". Only these phrases: "sales" alone is any sale ("our sales potential").
_LINE_NAMES = ((re.compile(r"\bnet sales\b", re.I), "revenue"),
               (re.compile(r"\b(?:earnings|income) from operations\b|\boperating earnings\b", re.I), "operating income"),
               (re.compile(r"\bnet earnings\b", re.I), "net income"))


def line_names(question: str) -> list[tuple[re.Pattern, str]]:
    """The lines the question names by their common name, word for word ("net income", not any
    "income"), and not in the filing's words."""
    return [(p, name) for p, name in _LINE_NAMES
            if re.search(rf"\b{name}\b", question, re.I) and not p.search(question)]


# "SG&A as a percentage of net sales": net sales is the base of another line's ratio, not its subject
# "as a percentage of net sales", "of total segment net sales", "of Walmart U.S. net sales": a ratio's base, with up
# to two words naming which sales between (a whole sentence about expenses is never one about the sales)
_RATIO_BASE = re.compile(r"(?:percent(?:age)?|%)\s+of\s+(?:[\w.&'-]+\s+){0,2}$", re.I)


def with_line_names(text: str, names: list[tuple[re.Pattern, str]]) -> str:
    """The text with each line it names in a filing's words followed by the question's name for it
    (`names`, from line_names): "net sales (revenue)". The text a sentence is scored by, never the one
    quoted."""
    for pattern, name in names:
        text = pattern.sub(lambda m: m.group(0) if _RATIO_BASE.search(m.string[:m.start()])
                           else f"{m.group(0)} ({name})", text)
    return text


PREFIX = 6  # "competition" and "competitive", "dependence" and "depends": one word family for the floor
SHORTEST_ROOT = 4  # a word of this length or more begins its longer kin ("rail" in "railroad", "ship" in "shipments")


def holds(have: set[str], term: str) -> bool:
    """`have` (a text's terms) holds the question's term or one of its word family: the same first
    PREFIX letters, or a longer word the term begins ("rail network" is spoken of as "railroad")."""
    if term in have:
        return True
    if len(term) >= PREFIX and any(h[:PREFIX] == term[:PREFIX] for h in have if len(h) >= PREFIX):
        return True
    return len(term) >= SHORTEST_ROOT and any(h.startswith(term) for h in have)


# The words MD&A builds every sentence of a change with ("the decrease in ... was primarily due to
# lower ..."): two sentences sharing only these say different things.
_TEMPLATE = frozenset(stem(w) for w in "primarily principally mainly largely partially partly offset due driven "
                      "result reflect reflecting compared prior".split())


_SIZED = re.compile(r"[$€£]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:billion|million|thousand|trillion)\b)?"
                    r"|\d[\d,]*(?:\.\d+)?\s?(?:%|percent\b|basis points?\b|percentage points?\b)", re.I)


def sizes(sentence: str) -> set[str]:
    """The amounts and rates a sentence states, as written without spaces ("$925 million", "14%")."""
    return {re.sub(r"\s+", "", m.group(0).lower()) for m in _SIZED.finditer(sentence)}


def _other_lines(a: str, b: str) -> bool:
    """Both sentences open with a subject, and neither subject's words hold the other's: "Interest expense" and
    "Interest income" are two lines; "Cost of kiosk service revenue" is told beside "Kiosk service revenue" in its
    words, and only one of the two is what was asked (the composer keeps the better)."""
    sa, sb = subject_of(a), subject_of(b)
    if not (sa and sb):
        return False
    ta, tb = terms(sa), terms(sb)
    return not (ta <= tb or tb <= ta)


def near_duplicate(a: str, b: str) -> bool:
    """The same statement twice (MD&A restating a risk factor): most of the words shared, and most of
    the content words too, not only the template of a change ("The decrease in operating income was
    primarily due to lower revenue" and "The decrease in net revenue was primarily due to lower
    semi-custom product revenue" share nine words of fourteen, and say two things)."""
    ta, tb = set(_WORD.findall(a.lower())), set(_WORD.findall(b.lower()))
    if not ta or not tb or len(ta & tb) / len(ta | tb) < DUPLICATE_JACCARD:
        return False
    sa, sb = sizes(a), sizes(b)
    if sa and sb and not (sa <= sb or sb <= sa) and _other_lines(a, b):
        # each states an amount of its own line in one template ("Interest expense was $925 million, an
        # increase of $169 million ... due primarily to higher interest rates" and interest income's): two
        # statements. One line's in two places (a segment's "NIKE Direct revenues decreased 3% ..." beside the
        # total's) stays one: the best of them answers
        return False
    ca, cb = (terms(x) - MOVEMENT - _TEMPLATE for x in (a, b))
    return not (ca | cb) or len(ca & cb) / len(ca | cb) >= DUPLICATE_CONTENT


QUOTED_OVERLAP = 0.8  # an elided amount drops a word or two ("billion"), never most of a sentence


def already_quoted(sentence: str, quoted: list[str]) -> bool:
    """The sentence is one the thread has quoted, its amounts elided or not (most of its words shared)."""
    mine = set(re.findall(r"[a-z]{3,}", sentence.lower()))
    for q in quoted if mine else ():
        theirs = set(re.findall(r"[a-z]{3,}", q.lower()))
        if theirs and len(mine & theirs) / min(len(mine), len(theirs)) >= QUOTED_OVERLAP:
            return True
    return False


# A sentence that carries on the statement right before it: its opening points back ("This process drives
# ...", "These competitors ...", "In addition, ...", "We also compete ...") or names the change just stated
# ("The sales increases in 2023 and 2022 were driven by ...", "The decrease in comparable customer
# transactions primarily reflects ...", "The 2023 increase was also driven by ...").
_GOES_ON = re.compile(r"^(?:(?:This|These|That|Those|Such)\s+(?!is\s+(?:possible|not)\b)|(?:Also|In\s+addition|Additionally|"
                      r"Further(?:more)?|Moreover|Partially|Partly|Similarly|Likewise|Additional)\b|(?:We|It|They|The\s+Company)\s+"
                      r"(?:\w+\s+)?also\b)")
_NAMES_CHANGE = re.compile(r"^The\s+((?:[\w&’'-]+\s+){0,4}?)(?:increases?|decreases?|declines?|growth|changes?|improvements?|"
                           r"reductions?|rises?|drops?|gains?)\b((?:\s+(?:in|of)\s+(?:[\w&’'-]+\s+){0,5}?)?)"
                           r"(?=\s*(?:in\s+(?:fiscal\s+)?(?:19|20)\d\d\s+(?:and\s+(?:fiscal\s+)?(?:19|20)\d\d\s+)?)?"
                           r"(?:was|were|is|are|primarily|mainly|largely|principally|also|reflect|resulted|result)\b)")
_YEAR_WORD = re.compile(r"^(?:fiscal|(?:19|20)\d\d|in|of|and|the|our|its|total|year)$", re.I)


def continues(previous: str, sentence: str) -> bool:
    """`sentence` carries on `previous`, the sentence right before it: it points back to it (`_GOES_ON`), or
    it names the change `previous` stated by words `previous` holds ("The sales increases ... were driven
    by" after "sales in the Medical Devices segment ... increased 15.1 percent"). Why: a filing states a
    thing, then tells its cause or its parts in the next sentences, which do not repeat its subject; quoted
    alone, the statement says what moved and not why, or half of the list it opens."""
    sentence = sentence.lstrip("…").lstrip()
    if _GOES_ON.match(sentence):
        return True
    m = _NAMES_CHANGE.match(sentence)
    if not m:
        return False
    words = [w for w in re.findall(r"[\w&’'-]+", f"{m.group(1)} {m.group(2)}") if not _YEAR_WORD.match(w)]
    have = terms(previous)
    return all(holds(have, stem(w.lower())) for w in words if w.lower() not in GENERIC)
