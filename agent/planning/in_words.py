"""Figure words asked in words: a question whose form asks what the filing says, or a line lookup by
words that are no line's name, is answered from the filing's prose, never as a figure it did not ask.

Why a module of its own: both are a last look at a finished plan (agent.planning.rules turns the
plan into a prose search here), with their own patterns for the form of such a question.
"""

from __future__ import annotations

import re

from agent.planning.companies import CompanyDirectory
from agent.planning.counts import counted
from agent.planning.company_mentions import strip_for_query
from agent.planning.followups import joined_topic, own_subject, points_back, thread_topic
from agent.planning.movers import not_a_line
from agent.planning.plan import MAX_CHARS, Plan
from agent.planning.prose_route import (ASKS_RISK, CAUSE, DEPENDENCE, EVENT, EXPECTATION, STATEMENT, asks_in_words,
                                        asks_statement, modal_cause, order_items, without_lead_in)
from agent.planning.route import masked
from agent.planning.scope import filing_framed, spelled_out, strip_quotes
from agent.planning.topics import STOPWORDS, expand_query, route_items
from agent.planning.words import NUMERIC_INTENTS
from agent.planning.years import YEAR_WORDS
from agent.retrieval.quarter_prose import quarter_items


# "how does Netflix account for content amortization?", "how does Ford fund its pension plans?", "how do
# Coca-Cola's concentrate operations make money?": how a company does something, or how its business works,
# is told in words (its policies, its business description, its MD&A), whatever figure words it names
_HOW_IN_WORDS = re.compile(
    r"^\W*how\s+(?:does|do|did|is|are|has|have)\s+(?:[\w&.'-]+\s+){1,4}?(?:account|recogni[sz]e|treat|measure|value|"
    r"determine|estimate|allocate|manage|fund|finance|describe|explain|discuss|classify|disclose|assess|test|hedge|"
    r"mitigate|approach|handle|define|view|protect|deploy|prioriti[sz]e|make\s+(?:its\s+|their\s+)?money|earn|"
    r"generate|derive|monetiz|sell|distribut|market|compet|operat|source|manufactur|price|charge|bill|get\s+paid)\w*\b")
# The nouns that ask for the kinds of a thing, not its amount ("types of revenue", "revenue streams", "sources of
# cash"): a classifier, whose answer is a list of names the filing gives in words.
KINDS = r"(?:kinds?|types?|sorts?|sources|streams|categories|forms|components)"
# ...asked to be named; "which revenue sources grew fastest?" ranks them by a figure instead
_KINDS_ASKED = (r"^\W*(?:which|what)(?:'s|\s+(?:are|were|is|was))?\s+(?:[\w&.'\u2019-]+\s+){0,3}?" + KINDS +
                r"\b(?!.*\b(?:grew|grow\w*|fastest|slowest|declin\w*|fell|rose|shr[ai]nk\w*)\b)")
# A word for what may go wrong, among the words a figure lookup was left with ("how much revenue is at risk from
# export controls?", "how much revenue risk does Mastercard face?"): no statement prints a row of that name; the
# risk factors say what is exposed
_RISK_WORD = re.compile(r"(?:risks?|risky|exposures?|exposed|threats?|threatened|vulnerab\w*|jeopardy)")
# How the business itself works ("how does Mastercard generate revenue?", "how does Nike sell its products?"): the
# business description tells it, then MD&A
_HOW_BUSINESS = re.compile(
    r"^\W*how\s+(?:does|do|is|are)\s+(?:[\w&.'-]+\s+){1,4}?(?:make\s+(?:its\s+|their\s+)?money|earn|generate|derive|"
    r"monetiz|sell|distribut|market|compet|operat|source|manufactur|price|charge|bill|get\s+paid)\w*\b")
# The kinds of what the business earns ("what types of revenue does Netflix have?", "what are Alphabet's main revenue
# streams?"), told in the same places. Not the kinds of a balance ("which kinds of debt does GM carry?"), whose words
# the filings also use for what the company holds (debt securities, cash equivalents): a figure question still.
_KINDS_ASKED = re.compile(_KINDS_ASKED)
_EARNED = frozenset({"revenue", "revenues", "sales"})


def _asks_business(low: str, trace: list[dict]) -> bool:
    """How the business earns, or the kinds of what it earns, is asked (see _HOW_BUSINESS, _KINDS_ASKED)."""
    return bool(_HOW_BUSINESS.search(low)) or (bool(_KINDS_ASKED.search(low)) and any(
        t.get("word", "").lower() in _EARNED or t.get("as") == "metric:revenue" for t in trace))

# How the company thinks about or acts on a thing, or what it is doing with it ("how is Nike thinking about its
# inventory?", "how are they justifying it?", "what are they doing with it?"): asked of the filing's words.
# Read only for a figure refused as unknown that names no segment and no other company (prose_fallback).
_HOW_ACTS = re.compile(
    r"^\W*how\s+(?:does|do|did|is|are)\s+(?:[\w&.'-]+\s+){1,4}?think\w*\b"
    r"|^\W*how\s+(?:is|are|was|were)\s+(?:[\w&.'-]+\s+){1,3}?[a-z]{3,}ing\s+(?:it|them|this|that|these|those)\b"
    r"|\bwhat\s+(?:is|are|was|were|has|have)\s+(?:[\w&.'-]+\s+){1,3}?(?:doing|done)\s+(?:with|about|to|for)\b")
# "what are the risks to Mastercard's cross-border revenue?", "where does Visa get most of its revenue?",
# "how is Boeing addressing its cash flow problems?": a description asked for, whatever figure it names
_DESCRIBED = re.compile(
    r"^\W*(?:what|which)(?:'s|\s+(?:are|were|is|was))\s+(?:the\s+|its\s+|their\s+)?(?:main\s+|key\s+|biggest\s+|major\s+|"
    r"primary\s+|largest\s+)?(?:risks?|components?|drivers?|uses|sources|reasons?|factors?|challenges?|headwinds?|"
    r"tailwinds?|priorities|trends?|threats?|pressures?|elements?|parts)\s+(?:of|to|for|in|behind|on|affecting)\b"
    r"|^\W*where\s+(?:does|do|did)\s+(?:[\w&.'-]+\s+){1,4}?(?:get|make|earn|generate|derive|spend|invest)\b"
    r"|^\W*how\s+(?:is|are|was|were|has|have)\s+(?:[\w&.'-]+\s+){1,4}?(?:address|tackl|handl|deal|respond|mitigat|"
    r"fix|improv|turn)\w*"
    r"|^\W*how\s+(?:sensitive|exposed|dependent|reliant|vulnerable|resilient)\b"
    r"|^\W*(?:talk|walk|take)\s+me\s+through\b"
    # "what is the nature and purpose of AMD's restructuring charge?", "what are the terms of Visa's credit facility?":
    # what a thing is, asked by a noun of description, whatever figure it names
    r"|^\W*(?:what|describe|explain)(?:'s|\s+(?:is|are|was|were))?\s+(?:the\s+|its\s+|their\s+)?"
    r"(?:nature|purpose|terms|status|rationale|objectives?|basis|structure|timing|background|composition|make-?up)\b")


# What a thing is like, what it is made of or how much it matters ("how significant is Apple's China revenue to its
# business?", "what are Walmart's lease obligations like?", "what is Boeing's backlog made up of?"): a description,
# its parts or a weight asked for, which the filing gives in words, with or without the amount. The form's own
# words are never the subject a passage must name.
# What a figure is made of ("what is Boeing's backlog made up of?", "what goes into Visa's client incentives?", "what is
# included in Nike's demand creation expense?", "what does Apple's services revenue include?"): its parts, which the
# filing tells in words; the row's amount answers none of it
_COMPOSED = re.compile(
    r"\b(?:made\s+up\s+of|made\s+of|consists?\s+of|comprised\s+of|composed\s+of)\W*$|^\W*what\s+(?:makes|made|goes|went)\s+"
    r"(?:up|into|in)\b"
    # "what's in Mastercard's other revenue?": what a figure holds
    r"|^\W*what(?:'s|\s+(?:is|are|was|were))\s+in\s+(?:the\s+)?(?:[\w&.'-]+['\u2019]s?\s+)?(?:[\w&.'-]+\s+){0,4}?"
    r"(?:revenues?|sales|income|expenses?|costs?|charges?|assets?|liabilities|reserves?|backlog|obligations?)\W*$"
    r"|^\W*what(?:'s|\s+(?:is|are|was|were))\s+(?:included|contained|recorded|classified|captured)\s+(?:in|within|under)\b"
    r"|^\W*what\s+(?:does|do|did)\s+(?:[\w&.'-]+\s+){1,6}?(?:include|consist|comprise|contain|cover)\W*(?:of\W*)?$")
_NATURE = re.compile(
    r"^\W*how\s+(?:significant|important|material|meaningful|critical|central|relevant)\s+(?:is|are|was|were)\b"
    r"|^\W*what(?:'s|\s+(?:is|are|was|were))\s+(?:[\w&.'-]+\s+){1,6}?(?:like|about)\W*$|" + _COMPOSED.pattern)
_NATURE_WORDS = frozenset({"significant", "important", "material", "meaningful", "critical", "central",
                           "relevant", "kind", "kinds", "type", "types", "sort", "sorts", "form", "forms", "like",
                           "about", "made", "makes", "up", "consist", "consists", "comprised", "composed",
                           "goes", "went", "into", "included", "include", "includes", "contained", "contain",
                           "contains", "recorded", "classified", "captured", "comprise", "comprises", "cover",
                           "covers", "consist", "within"})


# "how did Lowe's comparable sales do in 2023?", "how did it hit sales?", "how did the deal play out?":
# how something went, or what it did to a figure, is what MD&A tells; no statement prints it. Only a
# question the figure path could not resolve gets here, so "how did Apple's revenue do?" stays a figure.
_OPENS = r"^\W*(?:(?:and|so|but|ok|okay)\W+)?"
_HOW_IT_WENT = re.compile(
    rf"{_OPENS}how\s+(?:did|does|do|has|have|is|are|was|were)\s+(?:[\w&.'-]+\s+){{1,6}}?"
    r"(?:do|doing|done|fare[sd]?|faring|go|goes|going|gone|went|hold(?:ing|s)?\s+up|held\s+up|"
    r"turn(?:s|ed|ing)?\s+out|play(?:s|ed|ing)?\s+out|shap(?:e|es|ed|ing)\s+up|hit|hits|hitting|hurt\w*|"
    r"affect\w*|impact\w*|help\w*|benefit\w*|weigh\w*|react\w*|respond\w*)\b"
    # "what did Lowe's comparable sales do in 2023?"
    rf"|{_OPENS}what\s+(?:did|does|do|has|have)\s+(?:[\w&.'-]+\s+){{1,6}}?(?:do|done)\b")
# "how much revenue did Splunk add for Cisco?", "how much did the acquisition contribute?": what a
# thing other than the company brought to a figure, which the filing states in prose with its amount.
# Read with the company's names masked as "company": "how much revenue did Cisco add?" is its own figure.
_CONTRIBUTED = re.compile(
    rf"{_OPENS}how\s+much\s+(?:[\w&.'-]+\s+){{0,3}}?(?:did|does|do|has|have|had|will|would)\s+"
    r"(?!(?:it|they|he|she|we|you|i|management|company)\b)(?:[\w&.'-]+\s+){1,5}?"
    r"(?:add|adds|added|adding|contribut\w*|bring|brings|brought|account(?:s|ed)?\s+for|shave[sd]?|knock(?:s|ed)?)\b")
# a verb of selling with "in": what a thing brought in is its revenue when the thing is a member
_HOW_MUCH = re.compile(r"^\W*how\s+(?:much|many)\b")  # an amount asked, in so many words
_BROUGHT_IN = re.compile(r"\b(?:bring|brings|bringing|brought|pull|pulls|pulled|rake|rakes|raked)\s+in\b")
# a yes-no question that compares a figure with an amount or another figure asks for the figure
# (a year is no amount: "is it exposed to tariffs in 2025?")
_AMOUNT_CHECK = re.compile(r"\d|\b(?:above|below|higher|lower|more|less|over|under|than|exceed\w*|bigger|smaller)\b")


def _masked(text: str, directory: CompanyDirectory) -> str:
    """`text` lowercase with each company it names replaced by the word "company"."""
    return masked(text, [(m.start, m.end) for m in directory.find(text)]).lower()


# "what did Home Depot acquire?", "what did Cisco buy?": the word after "what did <company>" is what
# the company did, and "what" its object; a line lookup of that verb ("acquire" -> the cash-flow row
# "acquisitions") answers how much was paid, not what was bought.
# Read on the question with its companies masked: the verb is the word right after the company (or its
# pronoun), so "what did PepsiCo spend on advertising?" keeps its line "advertising".
_WHAT_DID = re.compile(rf"{_OPENS}what\s+(?:did|does|do|has|have|will)\s+(?:company|it|they)\s+(?P<verb>[a-z]+)\b"
                       r"(?:\s+(?:in|during|for|this|last|over)\b|\s*[?.!]?\s*$)")


def _verb_probe(plan: Plan, unnamed: str) -> Plan:
    """`plan` without the probe of a line named only by the verb a "what did X <verb>" question asks with.
    `unnamed`: the question lowercase, its companies masked (`_masked`)."""
    m = _WHAT_DID.search(unnamed)
    if m and plan.intent == "qualitative" and plan.probe:
        plan.probe = [k for k in plan.probe if k[len("line:"):].split("|")[0] != m.group("verb")]
    return plan


def goes_in_words(low: str) -> bool:
    """How something went or what it did to a figure ("how did X do / fare / hit ...")."""
    return bool(_HOW_IT_WENT.search(low))


def said_in_words(plan: Plan, text: str, directory: CompanyDirectory, previous: Plan | None) -> Plan:
    """The last look at a finished plan: a figure asked in words is searched in prose (`_in_words`), and
    a figure refused as unknown whose question asks what the filing says is searched before it is refused
    (`prose_fallback`)."""
    plan = _in_words(plan, text, directory, previous)
    return prose_fallback(plan, text, directory, previous) or plan


def _in_words(plan: Plan, text: str, directory: CompanyDirectory, previous: Plan | None) -> Plan:
    """A question whose form asks what the filing says (agent.planning.prose_route.asks_in_words: "what
    will drive UnitedHealth's medical cost ratio higher?", "is Coca-Cola worried about sugar taxes?")
    is searched in the filing's prose when its words make no figure the planner knows: a metric
    phrase it cannot name, a line named by words that are no line's name, a formula read into
    "might slow". Never a refusal for an unknown metric, never a figure for words it did not ask;
    when no passage answers, the prose path says so (no_grounding)."""
    whole = strip_quotes(text).lower()
    low = without_lead_in(whole)  # "Based on its 10-K, how does ...": read from "how"
    composed = bool(_COMPOSED.search(low))
    described = bool(_DESCRIBED.search(low)) or composed
    if not plan.tickers or len(text) > MAX_CHARS:
        return plan
    unnamed = without_lead_in(_masked(strip_quotes(text), directory))
    plan = _verb_probe(plan, unnamed)
    if plan.intent == "qualitative" and plan.probe and (_HOW_IN_WORDS.search(low) or described):
        # "how do Coca-Cola's concentrate operations make money?": a line of that name exists, but how a
        # business works or what it is made of is asked in words, never answered by the line's amount
        plan.probe = []
    told = goes_in_words(low) or bool(_CONTRIBUTED.search(unnamed))
    # what may be lost, said among the words no figure took: an exposure the filing describes
    at_risk = any(w.get("as") == "unaccounted" and _RISK_WORD.fullmatch(w.get("word", "")) for w in plan.words)
    how_done = bool(_HOW_IN_WORDS.search(low))
    business = _asks_business(low, plan.words)
    if not (told or asks_in_words(low) or how_done or described or at_risk or business):
        return plan
    # "how is Walgreens' cash flow holding up?": a figure's name matching several lines, asked in words
    refused = (plan.route == "refusal" and plan.refusal_reason in ("unknown_metric", "ambiguous_metric")
               and "(in your formula)" not in (plan.refusal_detail or ""))
    known = {d["name"] for d in (previous.definitions if previous is not None else [])}
    unsaid = [k for k in plan.metrics if k.startswith(("line:", "dim:")) or (k.startswith("udf:") and k[4:] not in known)]
    # "how does Mastercard generate revenue?": how a business works is asked, however plainly a figure is named
    figure = (plan.route == "domain" and plan.intent in NUMERIC_INTENTS and "metrics" not in plan.inherited
              and (bool(unsaid) or described or how_done or business
                   or any(w.get("as") == "unaccounted" for w in plan.words)))
    if not (refused or figure):
        return plan
    if not (told or modal_cause(low) or _AMOUNT_CHECK.search(YEAR_WORDS.sub(" ", low)) is None):
        return plan  # "is Apple's gross margin above 40%?": a figure, checked against the amount
    prose = as_prose(plan, text, low, directory, previous, told=told, business=business)
    if composed:
        prose.probe = []  # what a line is made of: never the line's amount, though the company prints it
        # its parts are told where the line is defined, the notes, and where its change is discussed, MD&A;
        # never the risk factors' words of what may happen
        prose.items, prose.items_guessed = ["8", "7"], False
        # and a passage must name the line asked about, else nothing told its parts (no_grounding), never a
        # sentence about another line
        words = _figure_words(plan.words, low) or [
            w for k in [*plan.metrics, *plan.probe] if k.startswith("line:") and k.count("|") >= 1
            for w in k.split("|")[1].split() if len(w) >= 3 and (w == "other" or w not in STOPWORDS)
            and w not in _NATURE_WORDS]
        if words and not prose.unless_named:
            prose.unless_named = {"reason": "no_grounding", "detail": None, "words": list(dict.fromkeys(words))}
    if (business or at_risk) and not (told or asks_in_words(low)):
        # how the business earns a figure, its kinds, or what of it is at risk: a quoted sentence must name the
        # figure in the user's own words, else nothing answered it (no_grounding), never a sentence about
        # something else (what puts it at risk is the search's, and one sentence need not say both)
        words = _figure_words(plan.words, low)
        if words:
            prose.unless_named = {"reason": "no_grounding", "detail": None, "words": words}
    if whole != low:
        # the form was read past a lead-in ("Per the 10-K: how does Visa manage its inventory?"), with less
        # certainty than at the question's start: a quoted sentence must name the figure's own words
        detail = plan.refusal_detail if refused else next((k.split("|")[2] for k in unsaid if k.count("|") >= 2), None)
        names = {w for t in plan.tickers for w in (t.lower(), *(_company_name_words(directory, t)))}
        words = _beside_form(named_words(detail, names), low) if detail else []
        if words:
            prose.unless_named = {"reason": plan.refusal_reason if refused else "unknown_metric",
                                  "detail": _DETAIL_TAIL.sub("", detail), "words": words}
    return prose


# "what will the impact be on margins?" in a thread: the effect of what the thread is about, named by nothing else
_BARE_EFFECT = re.compile(r"\bthe\s+(?:impacts?|effects?|implications?|consequences?)\b(?!\s+of\b)")


def as_prose(plan: Plan, text: str, low: str, directory: CompanyDirectory, previous: Plan | None, *,
             told: bool = False, business: bool = False) -> Plan:
    """`plan` (a figure, or its refusal) turned into a search of the filing's prose with the question's
    own words, MD&A and the risk factors first unless the form of the question points elsewhere. `told`:
    the question asks how something went (its line keys still answer as the figure a row of them gives); `business`:
    how the business works or what kinds of a thing it has (the business description, then MD&A)."""
    known = {d["name"] for d in (previous.definitions if previous is not None else [])}
    prose = Plan(route="domain", intent="qualitative", tickers=plan.tickers, fiscal_years=plan.fiscal_years,
                 latest=plan.latest or not (plan.fiscal_years or plan.as_of_filing_year),
                 year_offsets=plan.year_offsets, as_of_filing_year=plan.as_of_filing_year,
                 thread_tickers=plan.thread_tickers or plan.tickers, brand=plan.brand, words=plan.words,
                 definitions=[d for d in plan.definitions if d["name"] in known], inherited=plan.inherited)
    # the Items its topic words point to first ("does Amazon have seasonality?" is told in the business), unless
    # it asks how something went, which is MD&A's
    topic = [] if told else route_items(low)[0]
    # how the business works, or the kinds of a thing it has (_HOW_BUSINESS): the business description, then MD&A
    after = ("1", "7") if business and not set(topic) - {"1", "7"} else ("7", "1A")
    prose.items = order_items(low, [*topic, *(i for i in after if i not in topic)])
    prose.items_guessed = True
    outside = strip_quotes(text)
    query = strip_for_query(outside, directory.find(outside))
    prose.topic = " ".join(own_subject(query))
    if previous is not None and previous.route == "domain" and set(plan.tickers) <= set(previous.tickers) \
            and (points_back(low) or _BARE_EFFECT.search(low)):
        # "how did it hit sales?" after the powder metal matter (a prose answer, or the figure a line of that
        # name gave): the thread's subject, as it touched the figure. Never searched without the subject: the
        # answer is a sentence tying the subject to what it touched, and "sales" alone finds every sales sentence
        subject = thread_topic(previous)
        query, prose.topic, prose.subject = f"{query.strip(' ?.!')} {subject}", joined_topic(prose.topic, subject), subject
    prose.query = expand_query(query)
    prose.subject = prose.subject or prose.topic
    prose.probe = [k for k in plan.metrics if k.startswith("line:")]
    # how a line went or what moved it ("how did exchange rates affect cash?"): a row of those words, the
    # company's or the taxonomy's, still answers as the figure the line lookup would have given
    prose.probe_standard = told and bool(prose.probe)
    if _BROUGHT_IN.search(low):
        # "how much did Subscription bring in for Adobe?": a member the company reports is that member's
        # revenue (agent.retrieval.fetch checks it names one); anything else is what the filing says of it
        prose.probe += [k for k in plan.metrics if k.startswith("dim:") and "|*" not in k]
    if plan.period and plan.period.get("kind") in ("quarter", "ytd") and _HOW_MUCH.search(low):
        # an amount asked ("how much revenue did AWS bring in for Amazon in Q2 2023?"), not how something went or
        # what it was: that quarter's figure when a probe names one, else what that quarter's 10-Q says; never the
        # year's 10-K, whose annual amounts answered the quarter
        prose.probe_period = plan.period
        prose.period = {k: v for k, v in plan.period.items() if k not in ("changes", "growth")}
        prose.items = quarter_items(prose.items) or quarter_items(["7"])
    prose.slots = {**plan.slots, "metrics": "none: prose (the question asks what the filing says)"}
    return prose


# The forms of a question that ask what a filing says, whatever figure words are inside it: a cause
# ("why did ...", "what drove ...", "how did X affect ..."), a statement ("what does it say / expect /
# describe ..."), a dependence, an outlook, how something went, a description asked for.
def asks_filing_words(low: str, *, wider: bool = False) -> bool:
    """`low`: the question lowercase, quotations removed. An amount asked of the company ("how much X did
    Apple report?") is a figure's question unless it names the filing it asks. `wider`: the forms read only
    for a figure that names no segment and no other company (see asks_discussion)."""
    form = without_lead_in(low)  # the question itself, after a lead-in naming the filing ("Per its 10-K, how ...")
    framed = filing_framed(low) and (not _AMOUNT_ASK.search(form) or bool(_NAMES_FILING.search(low)))
    return framed or asks_discussion(form, wider=wider)


def asks_discussion(low: str, *, wider: bool = False) -> bool:
    """The question asks for the filing's discussion itself, not an amount: a cause, what it says or
    expects, a dependence, how something went, a description. The figure's name is then only its topic.
    `wider`: also a cause the asker names ("because of", "to blame") and how the company thinks about or
    acts on a thing (_HOW_ACTS)."""
    return bool(CAUSE.search(low) or asks_statement(low) or DEPENDENCE.search(low) or EXPECTATION.search(low)
                or goes_in_words(low) or _HOW_IN_WORDS.search(low) or _DESCRIBED.search(low)
                or (wider and (_BECAUSE.search(low) or _HOW_ACTS.search(low))))


# "is AMD's data center revenue growing because of MI300?", "did sales fall due to the strike?": a cause
# named by the asker, which only the filing's discussion confirms or not
_BECAUSE = re.compile(r"\b(?:because\s+of|due\s+to|owing\s+to|as\s+a\s+result\s+of|on\s+account\s+of|thanks\s+to|"
                      r"to\s+blame|blamed\s+(?:on|for)|responsible\s+for)\b")
# "whether Home Depot's big ticket sales are weak": a yes-no question asked indirectly, as "are ... weak?" is
_WHETHER = re.compile(r"^\W*(?:(?:and|so|but|ok|okay)\W+)?(?:(?:tell\s+me|i\s+wonder|wondering)\s+)?whether\b")


_AMOUNT_ASK = re.compile(r"^\W*(?:how\s+(?:much|many)|what\s+(?:is|was|were|are)|what's)\b")
_NAMES_FILING = re.compile(r"\b(?:10-?k|filing|annual\s+report|md&a|according\s+to|per\s+(?:the|its))\b")


_WORD = re.compile(r"[a-z][a-z&'-]+")
_DETAIL_TAIL = re.compile(r"\s*\((?:members reported|in your formula).*$", re.S)


def named_words(phrase: str, company_words: set[str]) -> list[str]:
    """The words of an unmapped figure's name a passage must say to be about it: its content words,
    not the company's name, a year, or a question word."""
    words = [w.strip("'-").removesuffix("'s") for w in _WORD.findall(_DETAIL_TAIL.sub("", phrase.lower()))]
    return list(dict.fromkeys(w for w in words if len(w) > 2 and w not in STOPWORDS and w not in company_words))


# Words that ask rather than name ("whether big ticket sales weak"): never a word a passage must say
_ASKING_WORDS = frozenset({"whether", "if", "any", "much", "many"})


def prose_fallback(plan: Plan, text: str, directory: CompanyDirectory, previous: Plan | None = None) -> Plan | None:
    """A figure refused as unknown (no metric, line or member of those words) whose question asks what the
    filing says ("why did Verizon's wireless equipment costs fall?", "what does P&G's 10-K say about its
    headcount?") is searched in the filing's prose before it is refused: the refusal is kept on the plan
    (`Plan.unless_named`) and stands unless a passage found names every content word of the figure's
    name. A figure asked as a figure ("what is Apple's churn rate?") is refused as before; so is a
    formula of the user's. None when the plan is no such refusal."""
    if plan.route != "refusal" or plan.refusal_reason != "unknown_metric" or not plan.tickers \
            or not plan.refusal_detail or "(in your formula)" in plan.refusal_detail or plan.period \
            or len(text or "") > MAX_CHARS:
        return None
    nouns = counted(_masked(strip_quotes(text), directory))  # "home depot store count": the stores, not the name
    low = without_lead_in(strip_quotes(text).lower())
    if nouns is not None and "(members reported" not in plan.refusal_detail \
            and (_AMOUNT_ASK.search(low) or not asks_filing_words(strip_quotes(text).lower())) \
            and not _names_another(text, plan.tickers, directory):
        # "how many employees does Nike have?": a count no table maps, which the filing may state in a sentence of
        # its own; that sentence alone answers (agent.retrieval.prose_counts), else the refusal stands. Asked in
        # words ("why did P&G's headcount fall?"), it is the filing's discussion that answers, below
        prose = as_prose(plan.model_copy(update={"route": "domain", "intent": "numeric", "metrics": []}), text, low,
                         directory, previous)
        prose.items, prose.items_guessed = ["1", "2", "7"], False
        # the things counted, as the sentence may print them ("headcount": employees, associates), which the
        # quoted sentence is weighed against
        prose.query = prose.subject = prose.topic = f"number of {' '.join(nouns)}"
        prose.unless_named = {"reason": plan.refusal_reason, "detail": plan.refusal_detail, "words": [],
                              "count": list(nouns)}
        prose.slots = {**prose.slots, "metrics": "none: a count the filing states in words"}
        return prose
    # A segment the filing does not report ("members reported: ...") or another company named beside the
    # figure ("what about Rivian?") keeps its refusal unless the question plainly asks the filing's words:
    # the wider readings below would search the company's prose for a member it lacks or another's name
    wider = ("(members reported" not in plan.refusal_detail or _member_of_form(plan.refusal_detail, text)) \
        and not _names_another(text, plan.tickers, directory)
    whole = strip_quotes(text).lower()  # with its lead-in, which names the filing asked of (asks_filing_words)
    low = without_lead_in(whole)
    if wider:
        whole, low = spelled_out(whole), spelled_out(low)  # "how is nike thinking abt ...": read as written out
    names = {w for t in plan.tickers for w in (t.lower(), *(_company_name_words(directory, t)))}
    words = named_words(plan.refusal_detail, names)
    if wider:
        words = [w for w in words if w not in _ASKING_WORDS]
    if not words:
        return None
    in_words = asks_filing_words(whole, wider=wider)
    if wider and not in_words and _replies_to_figure(plan) and asks_inside(low):
        # "what were the one-time charges?", "was there anything unusual in there?" after a figure: what the
        # thread's filing says of them, a prose question (the composer's floor refuses it when nothing
        # answers), never a figure refused by name; "and adjusted EBITDA?" asks for a figure and is not here
        prose = as_prose(plan.model_copy(update={"route": "domain", "intent": "numeric", "metrics": []}), text, low,
                         directory, previous)
        # what a figure held is told where the figure is discussed: MD&A, then the notes; never the risk
        # factors' words of what may happen
        prose.items, prose.items_guessed = ["7", "8"], False
        prose.slots = {**plan.slots, **prose.slots, "metrics": "none: prose (a reply to the thread's figure no table maps)"}
        return prose
    if not in_words and _NATURE.search(low):
        # "how significant is Apple's China revenue?", "what kind of debt does GM Financial have?": the filing's
        # words, when a passage names the subject itself (the form's words aside); else the refusal stands
        words = [w for w in words if w not in _NATURE_WORDS]
        if not words:
            return None
        in_words = True
    asked = None if in_words or not wider else \
        (yes_no_clause(low) or next((c for c in _clauses(low) if asks_filing_words(c, wider=True)), None))
    if not wider and not in_words:
        return None
    if asked is not None:
        # "nike inventory levels - are they healthy now?", "meta's AI capex - how are they justifying it": a later
        # clause asks about the figure in words, answered by what the filing says of it; the name's words outside
        # that clause are its topic, which a passage must name
        said = set(_NAME_WORD.findall(asked))
        words = [w for w in words if w not in said]
        if not words:
            return None
    elif not in_words:
        # no form of a question about the filing's words: searched only when the name itself is no
        # figure's (a topic, an event, a change of a figure qualified by words no figure has), and then
        # only a passage that names what it is about lifts the refusal
        words = topic_words(words, low, plan.brand)
        if not words:
            return None
    elif asks_discussion(low, wider=wider) and not _AMOUNT_ASK.search(low):
        # "why did Verizon's wireless equipment costs fall?": the figure is the topic of the discussion asked
        # for, which the composer's relevance floor judges; the refusal stands only if nothing answers.
        # Read past a lead-in ("Per the 10-K: how does Visa manage its inventory?"), the form is read with
        # less certainty: a quoted sentence must still name what the figure's words name, the form's aside
        words = [] if whole == low else _beside_form(words, low)
    prose = as_prose(plan.model_copy(update={"route": "domain", "intent": "numeric", "metrics": []}), text, low,
                     directory, previous)
    # the words the question is asked in ("projections", "expect", "drove") are its form, never its subject:
    # "what are Visa's projections for cross-border volume?" is answered by a passage on cross-border volume
    said = form_words(low)
    prose.unless_named = {"reason": plan.refusal_reason, "detail": plan.refusal_detail,
                          "words": [w for w in words if w not in said]}
    prose.slots = {**prose.slots, "metrics": "none: prose (a figure no table maps, asked in words)"}
    return prose


def _member_of_form(detail: str, text: str) -> bool:
    """A member the filing does not report, named by the words the question asks in ("how is Netflix thinking
    about advertising revenue?": "thinking advertising"): no member was asked, the form was read as one."""
    low = without_lead_in(strip_quotes(text).lower())
    said = {w for pattern in (_HOW_ACTS, _HOW_IN_WORDS, _DESCRIBED, _NATURE) for m in pattern.finditer(low)
            for w in _NAME_WORD.findall(m.group(0))}
    return bool(said & set(named_words(detail, set())) - _ASKING_WORDS)


def _figure_words(trace: list[dict], low: str) -> list[str]:
    """The words the question names its figure with (its metric's words as written), never a word of the
    question's form, a kind ("types", "sources") or a word for risk."""
    form = form_words(low)
    out = []
    for t in trace:
        word, role = t.get("word", "").lower(), t.get("as", "")
        if not role.startswith("metric:"):
            continue
        if len(word) < 3 or word in STOPWORDS or word in form or _RISK_WORD.fullmatch(word) \
                or re.fullmatch(KINDS, word) or word in _NATURE_WORDS:
            continue
        out.append(word)
    return list(dict.fromkeys(out))


def form_words(low: str) -> set[str]:
    """The words of `low` that say what kind of statement is asked for (a cause, an expectation, a dependence,
    what the filing says), never what it is about."""
    return {w for pattern in (STATEMENT, EXPECTATION, CAUSE, DEPENDENCE) for m in pattern.finditer(low)
            for w in _NAME_WORD.findall(m.group(0))}


def _beside_form(words: list[str], low: str) -> list[str]:
    """`words` without those the question's form is said in ("how does Visa manage", "what are the main
    components of"): the subject a sentence must name."""
    said = {w for pattern in (_HOW_IN_WORDS, _DESCRIBED, _NATURE) for m in pattern.finditer(low)
            for w in _NAME_WORD.findall(m.group(0))}
    return [w for w in words if w not in said and w not in _NATURE_WORDS]


# What a figure held, asked for as its parts ("what were the one-time charges?", "which were the big
# items?"), or pointed at ("any charges in there?", "how much of that came from price?"): never "and
# adjusted EBITDA?" or "what was their churn rate?", which ask for a figure of their own.
_PARTS = re.compile(r"\b(?:what|which)\s+(?:were|are)\s+(?:the|their|its|those|these)\b")


def asks_inside(low: str) -> bool:
    """The reply asks what the thread's figure held, not for another figure."""
    return bool(_PARTS.search(low) or points_back(low))


def _replies_to_figure(plan: Plan) -> bool:
    """The refused plan is a reply in a figure thread that names neither company nor year of its own
    ("what were the one-time charges?" after J&J's pretax income): the thread's filing is what it asks of."""
    slots = plan.slots or {}
    return slots.get("tickers", "").startswith("thread") and slots.get("fiscal_years", "").startswith("thread")


_CLAUSE = re.compile(r"\s*(?:[,;:?!]|\s-+\s|\s\u2013\s|\s\u2014\s)\s*")


def _names_another(text: str, tickers: list[str], directory: CompanyDirectory) -> bool:
    """The message names a company other than the plan's, covered or not, as a subject or a topic."""
    return any(m.company is not None and m.company.ticker not in tickers for m in directory.find(text or ""))


def _clauses(low: str) -> list[str]:
    """The message's clauses after the first ("meta's AI capex - how are they justifying it": "how are they
    justifying it"), each read as a question of its own; [] for a message of one clause."""
    return _CLAUSE.split(low.strip(" ?.!"))[1:]


def yes_no_clause(low: str) -> str | None:
    """The clause of the message that asks a yes-no question about the company or its figure in words ("are
    they healthy now?" after "nike inventory levels -"), None when none does, when the message is that one
    question, or when the clause checks an amount ("is it above 40%?"). `low`: lowercase, quotations removed."""
    clauses = _CLAUSE.split(low.strip(" ?.!"))
    for clause in clauses if len(clauses) > 1 else []:  # the whole message as one question is judged as a whole
        if (asks_in_words(clause) or _WHETHER.search(clause)) and not modal_cause(clause) \
                and _AMOUNT_CHECK.search(YEAR_WORDS.sub(" ", clause)) is None:
            return clause
    return None


# Words that name a change of a figure or its course ("covid testing sales drop", "volume trends"): the figure's
# movement, which MD&A tells in words, qualified by whatever else the name says
_CHANGE_NOUN = re.compile(r"\b(?:drops?|declin\w*|decreas\w*|increas\w*|fall(?:s|ing)?|fell|ris(?:e|es|ing)|rose|"
                          r"slow(?:down|ing|ed)?|jump\w*|surg\w*|plung\w*|swings?|trends?|trending|erosion|erod\w*|"
                          r"shortfall|miss(?:ed)?|weakness|softness|headwinds?|tailwinds?|pressures?)\b")
_NAME_WORD = re.compile(r"[a-z][a-z&'-]+")


def _figure_vocabulary() -> frozenset[str]:
    """Every word some figure's name is made of: the curated metrics' phrases and the figures known to be
    unmapped ("churn rate", "ebitda"), with their plural or singular."""
    from agent.retrieval.concepts import PHRASES, UNKNOWN_METRICS

    words: set[str] = set()
    for phrase in (*PHRASES, *UNKNOWN_METRICS):
        for w in _NAME_WORD.findall(phrase):
            words.update((w, w.removesuffix("s"), f"{w}s"))
    return frozenset(words)


_VOCABULARY: frozenset[str] | None = None


def figure_word(word: str) -> bool:
    """The word is part of some figure's name (see _figure_vocabulary)."""
    global _VOCABULARY
    if _VOCABULARY is None:
        _VOCABULARY = _figure_vocabulary()
    return word in _VOCABULARY or word.removesuffix("s") in _VOCABULARY


def topic_words(words: list[str], low: str, brand: dict | None = None) -> list[str]:
    """The words a passage must name for an unmapped figure's name to be answered from prose when the
    question has no form of asking what the filing says ([] when it is a figure's name, refused as one).

    Why by the name's own words: a statement prints amounts, and a name whose head word is no amount's
    ("the quaker recall", "paid sharing") is a topic; a name beside an event ("what did the uaw strike
    cost them") is what the event did, which the filing tells where it tells the event; a figure's change
    qualified by words no figure has ("covid testing sales drop") is told in MD&A. A bare figure's name
    ("churn rate", "ebitda", "units shipped" asked as an amount) keeps its refusal. The words returned are
    the name's own that are no figure's (the topic); for a figure's change with none, the brand the company
    was named by ("Frito-Lay volume trends")."""
    qualifiers = [w for w in words if not figure_word(w) and not _CHANGE_NOUN.fullmatch(w)]
    if EVENT.search(low):
        return qualifiers
    if _CHANGE_NOUN.search(low):
        if qualifiers:
            return qualifiers
        brand_words = _NAME_WORD.findall((brand or {}).get("word", "").lower())
        return brand_words
    if len(words) >= 2 and not figure_word(words[-1]) and not _MEASURE_NOUN.intersection(words) \
            and not _AMOUNT_ASK.search(low) and not _NARROWING.intersection(words):
        # the head of the name is no amount's: a topic, every word of it named (a lone word may be a name
        # no directory holds: "what about rivian?" is never searched in the thread company's filing). A
        # figure narrowed to a part ("revenue outside the US") is a figure, refused as one.
        return words
    return []


# Words that narrow a figure to a part of it ("revenue outside the US", "sales excluding fuel")
_NARROWING = frozenset({"outside", "excluding", "except", "excl", "ex", "besides", "beyond", "within", "non"})


# Nouns that make any name a quantity ("units shipped", "zorble count", "store number"): a figure's question
_MEASURE_NOUN = frozenset({"unit", "units", "number", "numbers", "count", "counts", "rate", "rates", "ratio", "ratios",
                           "percentage", "percent", "share", "amount", "amounts", "total", "average", "per", "margin",
                           "margins", "growth", "size", "level", "levels"})


_SENTENCE = re.compile(r"(?<=[.!?;:])\s+|\n+")


def _stem(word: str, keep: int = 4) -> str:
    for suffix in ("ies", "es", "s", "ing", "ed", "ers", "er", "ation", "ations"):
        if word.endswith(suffix) and len(word) - len(suffix) >= keep:
            return word[: -len(suffix)]
    return word


def names_all(text: str, words: list[str]) -> bool:
    """Some sentence of `text` says every one of `words` (in any of its forms: "charges" for "charge",
    "employees" for "employ"). A word keeps five letters of its stem: "sharing" cut to "shar" would be
    said by every sentence about shares."""
    wanted = {_stem(w, keep=5) for w in words}
    for sentence in _SENTENCE.split(text.lower()):
        # "big-ticket" says "big" and "ticket" as well
        said = {_stem(p.strip("'-").removesuffix("'s"), keep=5) for w in _WORD.findall(sentence)
                for p in {w, w.replace("-", ""), *w.split("-")} if p}  # "write-downs" says "writedown" too
        singular = {_singular(s) for s in said}
        if all(any(s.startswith(w) or w.startswith(s) and len(s) >= 4 for s in said) or _singular(w) in singular
               or _noun_of_verb(w, said) for w in wanted):
            return True
    return False


def _noun_of_verb(word: str, said: set[str]) -> bool:
    """`word` is a noun in "-ation" of a verb some word of `said` is ("valuation" of "value", "valued"): five
    letters of stem would keep "valuation" whole, and "we value our inventory under the retail method" said it."""
    if not word.endswith(("ation", "ations")):
        return False
    verb = word[: word.rfind("ation")]
    return len(verb) >= 4 and any(s.startswith(verb) and len(s) <= len(verb) + 3 for s in said)


def _singular(word: str) -> str:
    """A plural's singular, however short the word ("taxes" is "tax", "fees" is "fee"): a word of five letters
    keeps its plural under `_stem`, and "taxes" asked was then said by no sentence of "income tax payments"."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ses", "xes", "zes", "ches", "shes")) and len(word) > 4:
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        return word[:-1]
    return word


def _company_name_words(directory: CompanyDirectory, ticker: str) -> list[str]:
    company = directory.get(ticker)
    return _WORD.findall(company.name.lower()) if company is not None else []


def prose_instead(plan: Plan, text: str, directory: CompanyDirectory, *, split_only: bool = False) -> Plan:
    """A line lookup by words that are no line's name ("how much of revenue came from Xilinx", "was
    the growth price or volume", "the drop in ..."; agent.planning.movers.not_a_line) is answered by
    what the filing says of it, MD&A first and then the notes, searched with the question's own
    words. Checked after the member formulas ("what share of revenue came from Data Center" is one).
    The line keys stay as a probe (a row the company prints under those words still answers); no
    figure leads the answer, and when no passage answers, the prose path refuses (no_grounding)."""
    lines = [k for k in plan.metrics if k.startswith("line:")]
    if plan.route != "domain" or plan.intent not in NUMERIC_INTENTS or not lines or plan.period \
            or "metrics" in plan.inherited or not not_a_line(plan.words, leftover_runs(plan.words), split_only=split_only):
        return plan
    plan.intent, plan.metrics, plan.probe, plan.probe_standard = "qualitative", [], lines, False
    quoted = strip_quotes(text)
    # "how much of revenue comes from its biggest customers - is that a risk?": the risk factors too
    plan.items, plan.sub_queries = ["7", "8", *(["1A"] if ASKS_RISK.search(quoted.lower()) else [])], []
    plan.query = expand_query(strip_for_query(quoted, directory.find(quoted)))
    plan.slots = {**plan.slots, "metrics": "none: prose (words no line is named after)"}
    return plan


def leftover_words(trace: list[dict], runs: list[tuple[int, int]]) -> str:
    return " ".join(trace[i]["word"] for start, end in runs for i in range(start, end))


def leftover_runs(trace: list[dict]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for i, t in enumerate(trace):
        if t["as"] != "unaccounted":
            continue
        if runs and runs[-1][1] == i:
            runs[-1] = (runs[-1][0], i + 1)
        else:
            runs.append((i, i + 1))
    return runs
