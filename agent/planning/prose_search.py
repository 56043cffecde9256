"""Where a plan searches the filing's prose: its Items, its query and sub-queries, and the topic and
subject a reply borrows from the thread ("why did it change?", "and the risks?", "say more").

Why a module of its own: the planner's flow (agent.planning.rules) decides whose figures and which
years; this step decides what words to search with and whether the question is a prose question.
"""

from __future__ import annotations

import re

from agent.planning.companies import norm_name
from agent.planning.company_mentions import strip_for_query
from agent.planning.followups import (FUNDING_WORDS, asked_about, deal_word, asks_contribution, asks_effect, asks_funding, asks_more, choice_subject, joined_topic, leads_reply, own_subject, points_back,
                                      names_own_thing, thread_topic)
from agent.planning.plan import Plan
from agent.planning.prose_route import FILED_IN, FILED_WORDS, PRIOR_FILING
from agent.planning.reading import Reading
from agent.planning.topics import (COMPOUND, STOPWORDS, borrows_thread_subject, expand_query, label, metric_query,
                                   route_items, sub_queries)


def _figure_vocabulary(keys: list[str]) -> set[str]:
    """The words the figures' own names and search words use ("operating", "income", "loss")."""
    words = {w for k in keys for w in re.findall(r"[a-z]+", f"{label(k)} {metric_query(k)}".lower())}
    return words | {"loss", "losses", "profit", "earnings", "sales", "revenues"}


def _swaps_figure(plan: Plan, r: Reading, prev: Plan) -> bool:
    """A reply that hands the thread's question about a subject's effect on one figure to another figure
    of the same company ("and the tax rate?"): the subject is the thread's, when it is more than figures."""
    return (bool(r.why and r.measures) and not r.tickers and prev.intent == "qualitative" and prev.asks_cause
            and bool(set(prev.subject.split()) - _figure_vocabulary(prev.metrics)) and leads_reply(r.low))


def prose_search(plan: Plan, r: Reading, prev: Plan | None, followup: bool, inherited: list[str]) -> bool:
    """Fill the plan's Items, query and sub-queries; True when the question is a prose question."""
    measures = plan.metrics
    items = list(r.items)
    query_source = strip_for_query(r.raw, r.matches)  # quotations kept: they are what to look for
    # "the 10-K filed in early 2024", "the previous annual report": which filing, not what to find in it
    if FILED_IN.search(r.raw):
        query_source = FILED_WORDS.sub(" ", query_source)
    query_source = PRIOR_FILING.sub(" ", query_source)
    why_of_figure = bool(r.why and not r.measures and prev is not None and prev.metrics and (followup or not r.has_topic))
    if why_of_figure:
        # "why did it change?": MD&A on the thread's metric
        plan.metrics = measures = list(prev.metrics)
        if "metrics" not in inherited:
            inherited.append("metrics")
        labels = " and ".join(label(k) for k in measures)
        # "tell me more about the strike" after why the loss grew: the strike, as it moved the figure
        said = " ".join(w for w in own_subject(query_source) if w not in _figure_vocabulary(measures))
        query_source = f"{said} {labels} change, drivers of the increase or decrease in {labels}" if said else \
            f"why did {labels} change, drivers of the increase or decrease in {labels}"
        items = ["7"]
        plan.topic = joined_topic(said, thread_topic(prev)) if said else thread_topic(prev)
    asked_alone = ""
    compound = [p.strip(" ,?.") for p in COMPOUND.split(query_source) if p.strip(" ,?.")]
    qualitative = r.why or len(compound) > 1 or not measures or r.prose_ask
    if not qualitative:
        plan.query = expand_query(" ".join(metric_query(k) for k in measures))
    elif r.choice and prev is not None and not measures:
        # "which is riskier?": the thread's search of each company, what the choice adds to it beside it; one
        # asking which is at more risk reads the risk factors first
        said, at_risk = choice_subject(r.low)
        topic = thread_topic(prev)
        items = list(prev.items) or list(r.items)
        if at_risk:
            items = ["1A", *(i for i in items if i != "1A")]
        plan.items = items
        plan.topic = joined_topic(said, topic)
        plan.subject = topic
        plan.query = expand_query(f"{said} {prev.query}".strip()) if said else (prev.query or expand_query(topic))
        plan.sub_queries = list(prev.sub_queries)
        inherited += ["items", "query"]
    elif (prev is not None and prev.intent == "qualitative" and not r.items and not measures and not r.why
            and followup and not own_subject(query_source)):
        # "and Tesla?", "say more" after a prose question: the same search, another company or year
        plan.items, plan.query, plan.sub_queries = list(prev.items), prev.query, list(prev.sub_queries)
        plan.topic = thread_topic(prev)
        inherited += ["items", "query"]
    else:
        if not r.has_topic and not measures and not r.why:
            # "what is CUDA?" is the business description; "tell me about Walmart" adds MD&A
            items = ["1"] if re.match(r"\s*(?:what|who)\s+(?:is|are)\b", r.low) else ["1", "7"]
            content = [w for w in re.findall(r"[\w&]+", query_source.lower()) if w not in STOPWORDS]
            if not content:
                query_source = "business overview products and services"
        if r.why and "7" not in items:
            items = ["7", *items]
        # a company named as a topic ("does it say anything about Nvidia?") is what to look for, not whose filing
        names = {w for m in r.matches if m.company is not None and m.kind != "topic" for w in norm_name(m.company.name)}
        own = " ".join(w for w in own_subject(query_source) if w not in names)  # "johnson & johnson" is no topic
        plan.topic = plan.topic or own
        # "say more about the data center part" after why revenue fell: that part of the same discussion
        more_of_thread = prev is not None and prev.intent == "qualitative" and asks_more(r.low)
        # "why were they limited?" after Boeing's production rates: a cause asked in a word or two that name no
        # topic of their own is the cause of what the thread discusses ("they" there is the rates, not Boeing)
        cause_of_thread = (prev is not None and prev.intent == "qualitative" and r.why and 0 < len(own.split()) <= 2
                           and not route_items(own)[1])
        if followup and prev is not None and not why_of_figure and ((not measures and (
                borrows_thread_subject(query_source) or points_back(query_source) or r.aspect or more_of_thread
                or cause_of_thread
                or (prev.intent == "qualitative" and not r.has_topic) or (r.why and not own)))
                # "how does that affect revenue?" after export controls: the figure, as the topic touches it
                or (measures and prev.intent == "qualitative" and bool(prev.topic)
                    and (points_back(query_source) or asks_effect(r.low)))
                # "and the tax rate?" after "how did the Figma fee affect operating expenses?": the same
                # subject's effect on the figure the reply names
                or _swaps_figure(plan, r, prev)):
            # "and the risks?" after revenue, "how much did it cost?" after an acquisition, "any risks
            # there?", "why?" after an event: the message's own words, about the thread's subject
            topic = _about(prev, own, r)
            about = asked_about(r.low)
            named = about is not None and not points_back(about) and bool(own)
            # "does it say anything about tariffs?": tariffs, in the thread's filing; the thread's topic
            # beside it would outweigh the thing asked for, and the answer quote the topic again
            # never for what the subject did to something ("how did it affect deliveries?"): the answer ties the
            # two, and the thing's words alone find every sentence about it
            if own and not named and not why_of_figure and names_own_thing(own.split()) and not asks_effect(r.low) \
                    and not asks_funding(r.low, f"{prev.topic} {prev.query}"):
                asked_alone = query_source.strip(" ?.!")  # the reply's own words, searched beside the subject too
            query_source = query_source.strip(" ?.!") if named else f"{query_source.strip(' ?.!')} {topic}"
            if r.why and not own and not named:
                # "why?" after a prose answer: what the filing gives as the causes of what it said of the
                # topic, searched in the words a cause is stated in, as a figure's why is
                query_source = f"why {topic}, {topic} increased or decreased primarily due to"
            if measures and prev.intent == "qualitative" and not prev.metrics and asks_contribution(r.low):
                # "how much revenue did it bring in?" after the Splunk deal: the deal's own revenue, which the filing
                # states in words; the company's total revenue would be a true figure for another question
                plan.metrics = []
            plan.topic = joined_topic(own, topic)
            plan.subject = own if named else topic
            if named:  # where the thing asked about is told: its own words' Items, else the whole filing
                items = list(r.items)
            elif not r.has_topic and prev.items:
                # "how did that hit sales?" after biosimilar competition: the effect is told in MD&A, beside the
                # thread's own Items; a cause or effect is never read in the business description first
                items = list(dict.fromkeys(["7", *prev.items])) if r.why else list(prev.items)
                inherited.append("items")
            elif more_of_thread and prev.items:
                items = list(dict.fromkeys([*prev.items, *items]))
                inherited.append("items")
            elif r.why and not own and prev.items:  # "why?" after an event: MD&A, then where the topic is told
                items = list(dict.fromkeys(["7", *prev.items]))
            if r.aspect and prev.metrics:  # "what are the headwinds?" after a figure: MD&A discusses the figure
                items = list(dict.fromkeys(["7", *items]))
            if not named and asks_funding(r.low, f"{prev.topic} {prev.query}"):
                # "how'd they pay for it?" after an acquisition: the notes issued and borrowings the liquidity
                # discussion and the debt note tell, which seldom name the deal; searched beside the deal's words
                query_source = f"{query_source} {FUNDING_WORDS}"
                items = list(dict.fromkeys(["7", "8", *items]))
                # answered only when a passage found speaks of the deal: the liquidity discussion alone, of a deal the
                # filing never tells, is no answer (refused as a search that found nothing)
                plan.unless_named = plan.unless_named or {"reason": "no_grounding", "detail": None,
                                                          "words": [deal_word(f"{prev.topic} {prev.query} {r.low}")]}
        plan.items = items
        plan.query = expand_query(query_source)
        plan.subject = plan.subject or plan.topic
        if len(compound) > 1:
            plan.sub_queries = sub_queries(compound[:3], measures)
            if measures and not plan.items:
                plan.items = ["7"]  # "how much ... and on what": where the money went is told in MD&A
        elif not plan.sub_queries:
            plan.sub_queries = _named_topics(plan.query, plan.topic, r)
        if not plan.sub_queries and asked_alone and len(compound) <= 1:
            # "did they stop buying back stock because of it?" after the SRS deal: the reply's own words weigh above
            # the thread's subject; searched only beside it, the sentences that say the subject and nothing of what
            # is asked ("we believe the acquisition of SRS will accelerate growth") outranked the one that answers
            plan.sub_queries = [expand_query(asked_alone), plan.query]
        if not plan.sub_queries and _beside_thread(plan, r, prev, followup, inherited):
            # "when did deliveries start?" after Tesla's Cybertruck: its own words may start a topic or ask about the
            # thread's, which they leave unsaid; searched both ways, either passage is found
            plan.sub_queries = [plan.query, expand_query(f"{plan.query} {prev.subject}")]
    return qualitative


def searched_beside_subject(plan: Plan) -> bool:
    """The plan's sub-queries are only a reply's own words and the same words beside the thread's subject (set
    below), not the parts of a compound question: the question is still one ask, whose leftover words may name a
    row the company prints (agent.planning.word_accounting keeps them as the plan's probe)."""
    subs = plan.sub_queries
    return len(subs) == 2 and subs[1] == plan.query and subs[0] != plan.query


def _about(prev: Plan, own: str, r: Reading) -> str:
    """What a follow-up with words of its own is searched beside: the thread's subject when the last turn was itself
    a follow-up on it, else the last turn's topic (its own words and the subject).

    Why: each follow-up's topic is its own words joined to the subject, so after "what has it cost them?" the next
    reply ("did they help the providers out?") searched the costs again beside its own words and ranked the cost
    sentences above the one it asked for. The thread's subject stays what the thread is about; the aspect one turn
    asked is not carried into the next turn's search. A reply naming a new subject ("and the escrow?") is searched
    beside the subject too."""
    if prev.subject and own and leads_reply(r.low):
        return prev.subject
    asked_of_subject = (prev.intent == "qualitative" and "tickers" in prev.inherited
                        and bool(prev.subject) and set(prev.subject.split()) < set(prev.topic.split()))
    if own and asked_of_subject:
        return prev.subject
    return thread_topic(prev)


def _beside_thread(plan: Plan, r: Reading, prev: Plan | None, followup: bool, inherited: list[str]) -> bool:
    """A prose follow-up about the thread's own company that asks, in words of its own, without the thread's subject
    (no figure, no company, no filing asked about a name, and not a reply that names only a new subject), after a
    prose answer with a subject."""
    if not followup or prev is None or prev.intent != "qualitative" or not prev.subject or not plan.query:
        return False
    if "tickers" not in inherited or plan.metrics or r.choice or asked_about(r.low) is not None:
        return False
    if leads_reply(r.low):
        return False  # "and the escrow?" after Visa's litigation: a new subject named alone replaces the thread's
    said = set(plan.query.lower().split())
    return not set(prev.subject.lower().split()) <= said


def _named_topics(query: str, topic: str, r: Reading) -> list[str]:
    """The question's search and, beside it, a search for each other business it names as its topic ("how
    reliant is Nvidia on TSMC?": TSMC), as written; [] when it names none, or when the topic says more
    than the name and one word of how they relate ("Apple's App Tracking Transparency" is searched as such).

    Why: a search ranks passages by how often they say the question's words, and a filing names a
    supplier or a rival once, in one passage, while it speaks of reliance or competition in many: the
    one passage that names TSMC ranked below them and was never read."""
    named = list(dict.fromkeys(m.text.strip() for m in r.matches if m.kind == "topic" and m.text.strip()))
    said = {w.removesuffix("'s") for n in named for w in re.findall(r"[\w&'-]+", n.lower())}
    rest = [w for w in re.findall(r"[\w&'-]+", topic.lower()) if w.removesuffix("'s") not in said and w not in STOPWORDS]
    if not named or not query or len(rest) > 1:
        return []
    return [query, *(expand_query(n) for n in named)][:3]
