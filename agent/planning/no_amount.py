"""A question whose ask no amount answers ("when will Comcast pay the taxes on its Hulu sale?", "walmart seiyu
sale - what did they sell", "what was the VillageMD impairment charge about?") is searched in the filing's prose,
never looked up as a row named after its words and refused unknown_metric.

Why a module of its own: the word accounting (agent.planning.word_accounting) reads a figure into any figure word
("sale", "taxes", "charge") and leaves the rest as a line's name; whether a figure reading accounts for the
question depends on what the question asks, which is read here from its form, clause by clause: a time, a
reason, a place, a duration, a thing done or what something was about is no amount. A figure question whose
words all name figures stays a figure question; a question naming a printed row ("what did Apple spend on R&D")
asks an amount by its verb and is untouched.
"""

from __future__ import annotations

import re

from agent.planning.companies import CompanyDirectory
from agent.planning.in_words import as_prose, figure_word, form_words, named_words
from agent.planning.plan import MAX_CHARS, Plan, refusal_plan
from agent.planning.prose_route import EVENT
from agent.planning.route import masked
from agent.planning.scope import FORECASTS, OUTLOOK_NOUN, company_outlook, out_of_scope, spelled_out, strip_quotes
from agent.planning.topics import STOPWORDS
from agent.planning.years import YEAR_WORDS
from agent.planning.words import NUMERIC_INTENTS

# The opening of a clause asking something no amount is: a time, a reason, who, how long ("where did operating
# income land?" asks an amount)
_NO_AMOUNT_OPENING = re.compile(
    r"^\W*(?:(?:and|so|but|ok|okay)\W+)?(?:when|why|who|whom|how\s+long|how\s+soon|until\s+when|by\s+when|"
    r"since\s+when)\b")
# "what did they sell", "what will Walmart do with ...": the object of a deed, named by a verb that is no
# amount's; "what did Apple spend on R&D" asks the amount spent
_WHAT_DONE = re.compile(r"^\W*(?:(?:and|so|but|ok|okay)\W+)?what\s+(?:did|does|do|has|have|will|would|is|are|was|were)"
                        r"\s+(?:company|it|they|he|she|management|(?:the\s+)?(?:company|firm|business))\s+(?P<verb>[a-z]+)\b")
# "what inventory valuation method does Home Depot use?", "which accounting standard did they adopt?": the thing
# named before the subject is the object of a deed whose verb is no amount's ("use", "adopt"); "what revenue did
# Apple report" asks the amount reported
_WHAT_THING_DONE = re.compile(r"^\W*(?:(?:and|so|but|ok|okay)\W+)?(?:what|which)\s+(?:[a-z&'-]+\s+){0,3}?"
                              r"(?P<head>[a-z&'-]+)\s+(?:did|does|do|will|would)\s+(?:the\s+)?(?:company|it|they|management|firm|business)"
                              r"(?:'s)?\s+(?P<verb>[a-z]+)\b")
_AMOUNT_VERBS = frozenset(
    "spend spent pay paid earn earned make made report reported record recorded generate generated book booked "
    "incur incurred invest invested return returned collect collected receive received lose lost owe owed bring "
    "brought rake raked pull pulled get got charge charged raise raised borrow borrowed repay repaid save saved "
    "cost expect expects anticipate have had has hold held carry carried".split())
# "what was the VillageMD impairment charge about?", "what's the story with the Asda sale": what a thing is,
# told in words
_ABOUT = re.compile(r"\babout(?:\s+(?:at|for|in|of|with|from)\s+company(?:'s)?)?\W*$|\bstory\s+(?:with|of|on|behind)\b")
_AUXILIARIES = frozenset("will would shall should can could may might must did does do has have had is are was were be "
                         "been being actually really ever still".split())
_CLAUSE = re.compile(r"\s*(?:[,;:?!]|\s-+\s|\s\u2013\s|\s\u2014\s)\s*")


# An event or a transaction named ("the Seiyu sale", "its Hulu stake", "the 737-9 grounding"; and
# agent.planning.prose_route.EVENT: acquisitions, litigation, strikes, recalls ...): "sale" said once is a
# transaction, never the company's sales
_TRANSACTION = re.compile(r"\b(?:sale|stake|deal|buyout|takeover|separation|exit|closure|shutdown|grounding|grounded|ipo)\b")


def names_event(unnamed_low: str) -> bool:
    """The question names an event or a transaction (see _TRANSACTION)."""
    return bool(_TRANSACTION.search(unnamed_low) or EVENT.search(unnamed_low))


def asks_no_amount(unnamed_low: str) -> bool:
    """Some clause of the question asks something no amount answers (see the patterns above). `unnamed_low`:
    lowercase, quotations removed, each company named replaced by "company"."""
    for clause in _CLAUSE.split(unnamed_low.strip(" ?.!")):
        what = _WHAT_DONE.search(clause) or _thing_done(clause)
        # no verb of an amount anywhere after the subject: "what did Google Cloud earn" names its subject in two
        # words, and "earn" asks the amount
        deed = what is not None and not _AMOUNT_VERBS.intersection(re.findall(r"[a-z]+", clause[what.start("verb"):]))
        if _NO_AMOUNT_OPENING.search(clause) or _ABOUT.search(clause) or deed:
            return True
    return False


def no_amount_asked(plan: Plan, text: str, directory: CompanyDirectory, previous: Plan | None) -> Plan:
    """`plan` turned into a prose search when it reads a figure from words no curated metric took (a row
    named after them, a member) and the question asks no amount (`asks_no_amount`), or names an event by words
    no figure has (`names_event`: "walmart seiyu sale revenue"). A passage must
    name the words that are no figure's ("seiyu"), else the refusal the row lookup would have given stands
    (unknown_metric, named). A figure asked of a thread, a quarter or a formula is left alone."""
    unsaid = [k for k in plan.metrics if k.startswith(("line:", "dim:"))]
    if plan.route != "domain" or plan.intent not in NUMERIC_INTENTS or not unsaid or not plan.tickers \
            or plan.period or "metrics" in plan.inherited or plan.definitions or len(text or "") > MAX_CHARS:
        return plan
    quoted = strip_quotes(text)
    unnamed = masked(quoted, [(m.start, m.end) for m in directory.find(quoted)]).lower().replace("\u2019", "'")
    no_amount = asks_no_amount(unnamed)
    if not no_amount and not names_event(unnamed):
        return plan
    low = quoted.lower()
    phrase = " ".join(dict.fromkeys(k.split("|")[1] if k.count("|") >= 1 else k[4:] for k in unsaid))
    # the words no figure took, which the line was named after ("will hulu stake" of "... pay the taxes on its Hulu
    # stake sale"), without the question's own auxiliaries
    left = " ".join(w for k in unsaid for w in _leftover(k).split() if w not in _AUXILIARIES)
    names = {w for t in plan.tickers for w in (t.lower(), *_name_words(directory, t))}
    said = form_words(low) | {"company"} | deed_verbs(unnamed)  # "use" of "what method does it use": the form's
    words = [w for w in named_words(left or phrase, names) if w not in said]
    topic = [w for w in words if not figure_word(w)]  # "seiyu" of "seiyu sale": what a passage must be about
    if not no_amount and not topic:
        return plan  # an event's amount named in figure words only ("litigation settlement charges"): a row's
    prose = as_prose(plan, text, low, directory, previous)
    if no_amount:
        prose.probe = []  # no amount is asked: a row of those words would answer another question
        # what it asks of (the figure's words and the rest: "debt" and "mature" of "when does its debt mature?"),
        # all named in one sentence, else nothing told it (no_grounding, a search's refusal, never "no figure");
        # a transaction's own word ("sale", "stake") the filing may word otherwise ("divested", "sold")
        whole = [w for w in named_words(" ".join(w for w in phrase.split() if w not in _AUXILIARIES), names)
                 if w not in said and not _TRANSACTION.fullmatch(w)]
        if whole or words:
            prose.unless_named = {"reason": "no_grounding", "detail": None, "words": whole or words}
    elif topic:
        # else an event's amount ("how much did the UAW strike cost GM?"): a row of those words answers first, if
        # printed; a passage must name the event ("strike"), else the row lookup's refusal stands, named
        prose.unless_named = {"reason": "unknown_metric", "detail": phrase, "words": topic}
    prose.slots = {**prose.slots, "metrics": "none: prose (the question asks no amount)" if no_amount
                   else "none: prose (an event named by words no figure has)"}
    return prose


# The head nouns of an amount asked as a thing done ("what amount did they repurchase", "what percentage does it
# pay out"): an amount, whatever the verb
_AMOUNT_NOUNS = frozenset("amount amounts percentage percent proportion fraction sum total level levels figure figures "
                          "much many number size".split())


# "how does Netflix amortize content assets?", "how did they fund it?": how a thing is done, by a verb that is no
# amount's nor how the company went ("how did it do / perform / grow")
_HOW_DONE = re.compile(r"^\W*(?:(?:and|so|but|ok|okay)\W+)?how\s+(?:does|do|did|will|would)\s+"
                       r"(?:the\s+)?(?:company|it|they|management|firm|business)\s+(?P<verb>[a-z]+)\b")
_HOW_IT_WENT = frozenset("do did does doing perform fare compare stack rank look trend grow increase decrease change "
                         "rise fall shrink expand improve decline go end land stand".split())


def _thing_done(clause: str) -> re.Match | None:
    """`_WHAT_THING_DONE` in `clause`, when the thing asked is named by no figure's word ("method", "standard",
    never "dividends" or "amount"); `_HOW_DONE` with a verb of no amount nor of how the company went. Kinds asked
    ("what type of debt does it carry") are left to the planner: the floor a passage must pass for them ("debt")
    let sentences through that name the thing and no kind of it."""
    how = _HOW_DONE.search(clause)
    if how is not None and how.group("verb") not in _AMOUNT_VERBS and how.group("verb") not in _HOW_IT_WENT:
        return how
    what = _WHAT_THING_DONE.search(clause)
    if what is None or what.group("head") in _AMOUNT_NOUNS or figure_word(what.group("head")):
        return None
    return what


def deed_verbs(unnamed_low: str) -> set[str]:
    """The verbs of the deeds a question asks the object of ("use" of "what method does company use"): words of
    the question's form, never of what a passage must name."""
    verbs = set()
    for clause in _CLAUSE.split(unnamed_low.strip(" ?.!")):
        what = _thing_done(clause)
        if what is not None and what.re is _WHAT_THING_DONE and what.group("verb") not in _AMOUNT_VERBS:
            verbs.add(what.group("verb"))  # "how does it amortize ...": the verb is what is asked, kept
    return verbs


def refused_thing(plan: Plan, text: str, directory: CompanyDirectory) -> Plan:
    """A prose search standing over a figure's refusal (`Plan.unless_named` unknown_metric: "no figure the
    filings report as 'inventory valuation method use'") whose question asks no amount at all ("what inventory
    valuation method does Home Depot use?"): what is asked is a thing the filing names in words, so the words a
    passage must say are the thing's, never the deed's verb ("use"), and when none says them the filing told it
    nowhere (no_grounding, what was searched), never "no figure" for a question that asked none."""
    kept = plan.unless_named
    if plan.route != "domain" or plan.intent != "qualitative" or not kept or kept.get("reason") != "unknown_metric" \
            or kept.get("count") or len(text or "") > MAX_CHARS:
        return plan
    quoted = strip_quotes(text)
    unnamed = masked(quoted, [(m.start, m.end) for m in directory.find(quoted)]).lower().replace("\u2019", "'")
    if not asks_no_amount(unnamed):
        return plan
    verbs = deed_verbs(unnamed)
    words = [w for w in kept.get("words") or [] if w not in verbs and w not in _AUXILIARIES]
    if not words:
        return plan
    plan.unless_named = {**kept, "reason": "no_grounding", "detail": None, "words": words}
    plan.probe = []  # no amount is asked: a row of those words would answer another question
    return plan


def _leftover(key: str) -> str:
    """The words a `line:` key was named after (its first field), or a `dim:` key's member words."""
    kind, _, rest = key.partition(":")
    parts = rest.split("|")
    return parts[0] if kind == "line" else (parts[1] if len(parts) > 1 else "")


def _name_words(directory: CompanyDirectory, ticker: str) -> list[str]:
    company = directory.get(ticker)
    return re.findall(r"[a-z][a-z&'-]+", company.name.lower()) if company is not None else []


def outlook_of(plan: Plan, text: str, directory: CompanyDirectory) -> Plan:
    """A company's own outlook asked as a noun ("pep pension + retiree medical expense outlook for 2024", let
    through scope by agent.planning.scope.company_outlook) is answered by a sentence that states an expectation
    ("we expect") of what it is the outlook for ("pension", "expense"), else nothing in the filing states it
    (no_grounding), never a sentence that only says the word "outlook". An outlook of nothing named ("Apple
    outlook for 2025") is no statement a filing makes of itself: a forecast, refused as before."""
    if plan.route != "domain" or plan.intent != "qualitative" or plan.unless_named or len(text or "") > MAX_CHARS:
        return plan
    low = spelled_out(strip_quotes(text).lower().replace("\u2019", "'"))
    if out_of_scope(low) != FORECASTS or not company_outlook(low):
        return plan
    companies = {w for c in plan.companies_read for w in re.findall(r"[a-z][a-z&'-]+", c["word"].lower())}
    names = {w for t in plan.tickers for w in (t.lower(), *_name_words(directory, t))} | companies
    rest = YEAR_WORDS.sub(" ", OUTLOOK_NOUN.sub(" ", low))
    words = [w for w in named_words(rest, names) if w not in form_words(low) and w not in STOPWORDS
             and w.removesuffix("'s") not in names]
    if not words:
        return refusal_plan("out_of_scope", FORECASTS)
    plan.unless_named = {"reason": "no_grounding", "detail": None, "words": [*words, "expect"]}
    return plan
