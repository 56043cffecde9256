"""Where a prose question is answered, by what it asks, and which named company it is about.

Why by the form of the question and not only its topic words: "why did margins fall?" is told in
MD&A whatever the topic; an event (an acquisition, a lawsuit, a strike, a cyber incident) is told
in MD&A, the notes and the risk factors together; "how dependent is X on ..." is a risk-factor
question first; "what is / describe / who are the customers" is the business description. A
relation to another business ("what does AMD say about competition from Intel?") is told in the
business description and, in more detail, in the risk factors: both are searched.

A second company inside a question about another ("how much does Apple depend on Foxconn?",
"what does AMD say about competition from Intel?") is a topic of the first company's filing, not
a second subject: it follows a preposition, while the subject owns the question ("Apple's",
"does AMD").
"""

from __future__ import annotations

import re

CAUSE = re.compile(
    r"\b(?:why|(?:what|which)\s+(?:\w+\s+){0,2}?drove|what\s+caused|what\s+led\s+to|drivers?\s+of|driven\s+by|reasons?\s+for|"
    r"(?:what(?:'s|\s+is|\s+are)?|who(?:'s|\s+is)?)\s+(?:\w+\s+)?driving|"
    r"how\s+(?:did|does|do|has|have|will|would|is|are|was|were)\b.{0,60}\b(?:affect|impact|hurt|benefit|"
    r"influence|perform)\w*|(?:impact|effect)s?\s+(?:of|on|from)|affect(?:ed|s|ing)?)\b"
)
EVENT = re.compile(
    r"\b(?:acquisitions?|acquired|acquire|(?:buy|bought)(?!\s*-?\s*backs?\b)|divest\w*|spin[- ]?offs?|dispos\w+\s+of|litigation|lawsuits?|sued|"
    r"legal\s+proceedings|settlements?|(?:legal|opioid|liability|talc|asbestos|patent)\s+claims|set\s+aside|strikes?|work\s+stoppages?|labor\s+disputes?|recalls?|"
    r"(?:cyber[- ]?)?(?:attack|breach|incident|intrusion|outage)s?|investigations?|regulatory\s+(?:cases?|actions?|"
    r"proceedings?|fines?)|antitrust|fines?|penalt(?:y|ies)|consent\s+decree|subpoena\w*|mergers?|"
    # a divestiture said in plain words: selling or having sold a business or a stake ("selling its Canadian retail
    # business", "the sale of its Hulu interest", "the Seiyu sale"), never the company's sales
    r"(?:sell(?:s|ing)?|sold)\s+(?:off\s+)?(?:its|our|their|the|a|an|part\s+of|some\s+of)\b|"
    r"sale\s+of\s+(?:its|our|their|the|a|an|part|some|\w+['’]s)\b|(?:the|its|their|our)\s+[\w-]+\s+sale(?!s)(?!\s+of\b))\b"
)
DEPENDENCE = re.compile(
    r"\b(?:how\s+(?:much|heavily)\s+(?:does|do|is|are)\b.{0,40}\b(?:depend|rely|reliant|dependent|exposed)\w*|"
    r"how\s+(?:dependent|reliant|exposed|concentrated|vulnerable|sensitive)|(?:depend\w*|relian\w*|rel(?:y|ies))\s+on|"
    r"(?:dependen\w+|relian\w+)\s+of\s+(?:\S+\s+){1,4}?on|"
    r"exposure\s+(?:to|from|of|in)|exposed\s+to|concentration\s+of)\b"
)
# "Why does Coca-Cola refranchise its bottlers?", "why is TI investing in 300mm fabs?": the reason
# for a standing choice, told with the strategy in the business description and its risks, not a
# year's change that MD&A explains ("why is revenue down?" names a change and stays a cause).
RATIONALE = re.compile(r"\bwhy\s+(?:does|do|is|are|would|should|has|have)\b")
CHANGE = re.compile(r"\b(?:up|down|higher|lower|increas\w*|decreas\w*|decline\w*|grow\w*|grew|fall\w*|fell|drop\w*|"
                    r"ris(?:e|es|ing)|rose|jump\w*|chang\w*|improv\w*|weak\w*|strong\w*|better|worse|margins?|"
                    r"loss(?:es)?|profit\w*|sales|revenues?|earnings|income|costs?|expenses?)\b")


# Plans and expectations: stated in MD&A (its outlook, liquidity and capital resources), a route of
# its own and not a default.
OUTLOOK = re.compile(r"\b(?:expect\w*|plan(?:s|ned|ning)?|outlook|guidance|anticipat\w*|intend\w*|forecast\w*|"
                     r"capex|capital\s+expenditures?|going\s+forward)\b")


# An expectation asked for ("what does it expect for pension cost?", "what does it plan to spend?",
# "its outlook"): the filing's own expectations are stated in MD&A (its outlook, liquidity and
# critical estimates), whatever Item the topic word points to (a pension is a note, uncertainty a
# risk factor). A plan as a thing ("pension plan", "stock plan") asks for nothing expected.
EXPECTATION = re.compile(r"\b(?:expect(?:s|ed|ing|ations?)?|anticipat\w*|outlook|guidance|intend\w*|forecast\w*|"
                         r"predict\w*|projections?|projected|projecting|"
                         r"going\s+forward|plan(?:s|ned|ning)?\s+(?:to|for|on)\b)")
# An expectation for a named year, asked of the company ("what does IBM expect for 2024?", "Nike's
# outlook for fiscal 2025", "what did it plan to spend in 2024?"): the company states it in the
# filing written before that year; the year's own 10-K reports what happened and looks a year further.
# Verbs and nouns of expecting only: "the expected return on plan assets for 2023" is a figure of 2023.
_AHEAD = re.compile(r"\b(?:expect(?:s|ing)?|anticipat(?:e|es|ing)|intend(?:s|ing)?|plan(?:s|ned|ning)?\s+(?:to|for|on)|"
                    r"outlook|guidance|expectations?|forecasts?)\b(?!\s+(?:return|rate|life|term)s?\b)"
                    r".{0,60}?\b(?:for|in|during|through|by|over)\s+(?:the\s+)?(?:fiscal\s+(?:year\s+)?|fy\s?)?"
                    r"(?:20\d\d|\d\d)\b")


def expects_ahead(low: str) -> bool:
    """The question asks what the company expected for a year it names (see _AHEAD). `low`: lowercase."""
    return bool(_AHEAD.search(low))


# The names of figures a statement reports ("services revenue", "cost of sales", "customer count"), and
# a question about what is to come: both are MD&A's to discuss.
FIGURE_WORDS = re.compile(r"\b(?:revenues?|sales|costs?|expenses?|income|margins?|profits?|earnings|loss(?:es)?|"
                          r"cash\s+flows?|spending|capex|capital\s+expenditures|volumes?|bookings|backlog|"
                          r"number\s+of|count)\b")
WILL = re.compile(r"\b(?:will|going\s+to)\b")


# Words that ask for risks themselves: a why-question naming them reads the risk factors too.
ASKS_RISK = re.compile(r"\b(?:risks?|risk\s+factors?|threats?|vulnerab\w*)\b")
# Words that ask for the notes to the statements: an accounting policy, a footnote, a note.
ASKS_NOTES = re.compile(r"\b(?:notes?\s+(?:to|\d+)|footnotes?|accounting\s+(?:polic\w+|treatment|standards?)|"
                        r"recogni[sz]\w*|fair\s+value|impairment\s+test\w*)\b")
# Where the company tells what it did and does (MD&A, the business description): a question whose
# form and topic chose no Item prefers them (agent.retrieval.retrieve.narrative_prior).
NARRATIVE = ("7", "1")
# A cause of what already happened ("why did it fall?", "what drove growth?", "how did the strike
# affect results?"), told in MD&A; "how do export controls affect it?" asks what may happen too,
# which the risk factors tell.
PAST_CAUSE = re.compile(r"\b(?:why|what\s+drove|what\s+caused|what\s+led\s+to|driven\s+by|drivers?\s+of|"
                        r"reasons?\s+for|how\s+(?:did|has|have|was|were)\b)")


# An effect still to come: a modal or future word ("will", "could", "potential", "predicted", "going forward").
MAY_YET = re.compile(r"\b(?:will|would|could|might|may|potential(?:ly)?|possible|possibly|predicted|projected|future|"
                     r"going\s+forward|in\s+the\s+future|ahead|long[- ]term)\b")


def asks_rationale(low: str) -> bool:
    """The question asks the reason for a standing choice or practice, not for a change."""
    return bool(RATIONALE.search(low)) and not CHANGE.search(low)


# At the question's start, or after the company it is about set off by a dash or a colon ("union
# pacific - describe the rail network", "visa: who are its clients?"): how a chat message opens.
DESCRIBE = re.compile(
    r"(?:^|^[\w&.'’ ]{2,40}?\s?[-–—:]\s*)\s*(?:what\s+(?:is|are)\b|what\s+does\s+[\w&.'-]+\s+do\b|describe\b|"
    r"explain\s+(?:how|what)\b|who\s+(?:is|are)\b|tell\s+me\s+about\b|give\s+me\s+an?\s+overview|"
    r"what\s+kind\s+of\b)|\bwho\s+are\s+(?:its|their|the)\s+(?:main\s+|largest\s+|key\s+)?customers\b"
)
# A year the question is about ("in 2023", "during fiscal 2024", "fy23").
DATED = re.compile(r"\b(?:(?:in|during|for|over|of)\s+(?:the\s+)?(?:fiscal\s+(?:year\s+)?|fy\s?)?20\d\d|fy\s?\d\d)\b")
# Which 10-K, said by when it came out or by its place among the filings, not by the year it reports
# (agent.retrieval.filing_choice): words that choose the filing, never words to search it for.
# A month by its whole name or its abbreviation, never a word that merely starts like one: "mara 2022 10-K" is
# Marathon's fiscal 2022 10-K, not one filed in "Mara" 2022
_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
          r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?")
# "the 10-K filed in early 2024", "the annual report that was released on March 1, 2024", "the 10-K Meta
# filed in 2024", "the filing that came out in 2024", "the February 2024 10-K", "the 10-K from early 2024":
# the filing named with the verb of its coming out, or with a date finer than a year (a lawsuit "filed in
# 2023" or notes "issued in 2023" are events of that year, not the filing meant)
_FILING = r"(?:10-?k|annual\s+report|annual\s+filing|filing|report)"
_WHEN = (r"(?:(?:in|on|during|around|by|at)\s+)?(?:the\s+)?"
         r"(?:(?:early|late|mid|beginning\s+of|end\s+of|start\s+of|first\s+half\s+of)\s*-?\s*)?")
FILED_IN = re.compile(
    rf"\b{_FILING}\s+(?:(?:that|which)\s+)?(?:[\w&.'-]+\s+){{0,3}}?(?:(?:was|were|it)\s+)?(?:filed|published|released|"
    rf"issued|submitted|came\s+out|put\s+out)\s+{_WHEN}(?:{_MONTH}\s+(?:\d{{1,2}}(?:st|nd|rd|th)?,?\s+)?)?(?:of\s+)?"
    r"((?:19|20)\d\d)\b"
    rf"|\b{_MONTH}\s+(?:\d{{1,2}},?\s+)?((?:19|20)\d\d)(?:'s)?\s+(?:form\s+)?{_FILING}"
    rf"|\b{_FILING}\s+(?:from|dated|of)\s+(?:(?:early|late|mid)\s*-?\s*(?:{_MONTH}\s+)?|{_MONTH}\s+(?:\d{{1,2}},?\s+)?)"
    r"((?:19|20)\d\d)\b",
    re.I,
)
# The words of the coming out once the year is set aside (agent.planning.company_mentions.strip_for_query),
# in a question FILED_IN matched: not what to search the filing for.
FILED_WORDS = re.compile(
    rf"\b(?:(?:that|which)\s+)?(?:(?:was|were|it)\s+)?(?:filed|published|released|issued|submitted|came\s+out|put\s+out)"
    rf"(?:\s+{_WHEN})?(?:\s*{_MONTH})?(?:\s+\d{{1,2}}(?:st|nd|rd|th)?,?)?(?:\s+of)?(?:\s+(?:19|20)\d\d)?"
    rf"|\b(?:from|dated)\s+(?:(?:early|late|mid)\s*-?\s*{_MONTH}?|{_MONTH})(?:\s+\d{{1,2}},?)?(?:\s+(?:19|20)\d\d)?",
    re.I,
)
# "the previous 10-K", "its prior annual report", "the earlier filing", "the one before the latest 10-K"
PRIOR_FILING = re.compile(
    r"\b(?:previous|prior|preceding|earlier|older|second[- ]latest|second[- ]most[- ]recent)\s+"
    r"(?:annual\s+(?:report|filing)|10-?k(?:\s+filing)?|form\s+10-?k|filing)\b",
    re.I,
)


# A question about what happened, not what may: a past-tense verb.
_HAPPENED = re.compile(r"\b(?:did|was|were|had|happened|faced|experienced|saw|suffered|encountered)\b")
def asks_what_happened(low: str) -> bool:
    """The question asks what happened (a past-tense verb, or a year it names), not what may: told in
    MD&A and the notes; the risk factors say what may happen, in every year's words. `low`: lowercase."""
    return bool((_HAPPENED.search(low) or DATED.search(low)) and not ASKS_RISK.search(low)
                and not NAMED_SECTION.search(low))


# Names asked for ("who does X compete with?", "which companies are its rivals?", "Lowe's competitors").
NAMES_ASKED = re.compile(r"\bwho\b|\bwhich\s+(?:companies|firms|businesses|rivals|competitors|suppliers|partners)\b|"
                         r"^\W*(?:[\w&.'-]+\s+){0,3}(?:main\s+|key\s+|biggest\s+|major\s+)?(?:competitors|rivals)\W*$")
# How a business relates to another (a rival, a supplier, a partner): described in Item 1, and its
# risks in Item 1A. A named section ("in item 1", "the risk factors") is searched alone.
RELATION = re.compile(r"\b(?:compet\w*|rivals?|suppliers?|supplie[sd]|partners?|vendors?|licens\w*|foundr\w+|"
                      r"contract\s+manufactur\w+)\b")
NAMED_SECTION = re.compile(r"\bitem\s+\d|\brisk factors?\b|\bmd&a\b|\bmanagement'?s? discussion\b")
_MARKET = {"7A"}
# What the company is doing, or how it sees something: its conduct and management's view.
CONDUCT = re.compile(r"\b(?:doing|done|think\w*|thought|view\w*|approach\w*|handl\w*|address\w*|respond\w*|"
                     r"tackl\w*|manag(?:e|es|ed|ing)\b)")
# How something is going, asked in the present ("how is its cloud unit doing?", "how are sales holding up?"):
# its results, not what the company does about it (CONDUCT).
GOING = re.compile(r"\bhow(?:'s|\s+(?:is|are|has|have))\b.{0,60}\b(?:doing|performing|going|faring|trending|holding\s+up|"
                   r"been\s+(?:doing|performing|going))\b")
# What comes before a second company that makes it a topic: a preposition ("competition from Intel"),
# or a verb of what the first one says ("how does Intel describe TSMC").
_TOPIC_PREP = re.compile(r"\b(?:from|on|with|to|against|by|about|like|than|over|including|describes?|mentions?|"
                         r"names?|discuss(?:es)?|views?|regards?|considers?|calls?|sees?)\s+(?:the\s+)?$", re.I)
_COMPARE = re.compile(r"\b(?:compar\w*|vs\.?|versus|both|each|and\s+how\s+does|relative\s+to|side\s+by\s+side)\b")


# What a filing states, asked for in words that name a statement and not an amount: a verb of
# saying ("what does it say / describe / cite"), or a noun of discourse ("outlook", "plans",
# "strategy", "commentary", "what happened", "its dependence on"). Such a question is answered from
# the filing's text even when a figure's name is inside it ("Netflix advertising revenue
# expectations", "the main factors Intel cites for its revenue decline"). Words that name a figure
# themselves stay out: a plan's assets, a funded status, a pension or stock plan.
STATEMENT = re.compile(
    r"\b(?:says?|said|saying|describ\w*|discuss\w*|explain\w*|mention\w*|cites?|cited|citing|comment\w*|"
    r"summari[sz]\w*|characteri[sz]\w*|elaborat\w*|outlin\w*|highlight\w*|talks?\s+about|believ\w*|thinks?|views?|"
    r"outlook|expectations?|expects?|anticipat\w*|predict\w*|foresee\w*|forecast(?:s|ed|ing)?|(?<!pension\s)(?<!benefit\s)(?<!stock\s)(?<!incentive\s)"
    r"(?<!retirement\s)(?<!compensation\s)(?<!purchase\s)(?<!savings\s)plans?(?!\s+assets)|planned|planning|"
    r"strateg\w+|approach|rationale|reasons?|factors|headwinds?|tailwinds?|challenges?|concerns?|issues|"
    r"(?<!funded\s)status|commentary|narrative|story|implications?|what\s+happened|deal\s+with|"
    # "what changed in AWS in 2024?": what the filing tells of a change, not one amount
    r"what(?:'s|\s+has|\s+have)?\s+changed|"
    r"dependen\w+|relian\w+|exposure|exposed|vulnerab\w+|priorit\w+|initiatives?|going\s+forward|"
    # "how did its gross margin perform?": how a figure fared is what MD&A tells, the figure beside it
    r"perform(?:ed|s|ing|ance)?|"
    r"tell\s+me\s+(?:more\s+)?about|overview|takeaways?|anything\s+(?:notable|new|interesting|on|about)|notable|"
    r"going\s+on|what'?s\s+up\s+with|updates?\s+on|colou?r\s+on|under\s+control)\b"
)


# "what did HD's 10-K say about interest and other, net?": what a filing says of a thing, asked outright
SAID_OF = re.compile(r"^\W*what\s+(?:does|did|do)\s+(?:[\w&.'\u2019-]+\s+){1,4}?(?:say|said|state|write|disclose|"
                     r"mention)\s+(?:about|on|of|regarding)\b", re.I)


def asks_statement(low: str) -> bool:
    """The question asks what a filing states (a plan, an outlook, a reason, what it says), not
    for an amount. `low`: lowercase, quotations removed."""
    return bool(STATEMENT.search(low))


def order_items(low: str, items: list[str], *, named_other: bool = False) -> list[str]:
    """The Items to search for a prose question, the ones the form of the question points to first
    (a named section or a market-risk topic keeps its own Item). `named_other`: another business is
    named as the topic ("competition from Intel"): the risk factors say what that one may do to the
    company, the business description only lists it, so they are read first."""
    if set(items) & _MARKET:
        return items
    if (not items and (DATED.search(low) or _HAPPENED.search(low) or FIGURE_WORDS.search(low))
            and not (ASKS_RISK.search(low) or ASKS_NOTES.search(low) or NAMED_SECTION.search(low) or DESCRIBE.search(low)
                     or asks_rationale(low) or CAUSE.search(low) or EVENT.search(low) or DEPENDENCE.search(low)
                     or EXPECTATION.search(low))):
        # "what did Meta say about Reality Labs losses in 2023?": no topic word chose an Item, and what a
        # company said of a year, or of a figure, is MD&A's; the notes, the business and its risks after it
        return ["7", "8", "1", "1A"]
    first: list[str] = []
    if asks_rationale(low):
        first = ["1", "1A", "7"]
    elif CAUSE.search(low):
        first = ["7", "8"]
        if MAY_YET.search(low) and not PAST_CAUSE.search(low) and not DATED.search(low):
            # "how will the new export rules affect Nvidia?", "the predicted effects of climate change": what
            # may yet happen is told in the risk factors first, then in MD&A's view of it
            first = ["1A", "7", "8"]
        if PAST_CAUSE.search(low) and not ASKS_RISK.search(low) and not NAMED_SECTION.search(low):
            # a why is told in MD&A: the risk factors say what may happen, never what did, and only
            # share its topic's words ("export controls", "uncertainty")
            items = [i for i in items if i != "1A"]
    elif EVENT.search(low):
        first = ["7", "8", "1A"]
    elif EXPECTATION.search(low) and not DEPENDENCE.search(low):
        first = ["7"]
    elif DEPENDENCE.search(low):
        first = ["1A", "1", "7"]
    elif DESCRIBE.search(low) and set(items) <= {"1"}:
        first = ["1", "7"]
    if (not first and items == ["1"] and (DATED.search(low) or PAST_CAUSE.search(low)) and not DESCRIBE.search(low)
            and not NAMES_ASKED.search(low) and not NAMED_SECTION.search(low)):
        # "how did Alphabet's cloud business do in 2023?": a topic only the business description names, asked
        # of a year or of how it went, is told in MD&A; the business as it stands after it
        return ["7", "1"]
    if not first and DATED.search(low) and items[:1] == ["1"] and "7" in items and not DESCRIBE.search(low):
        # "how did Humira do in the US in 2023?": what happened in a year is told in MD&A; the
        # business description tells the business as it stands, whatever year is asked
        first = ["7"]
    if (not first and items[:1] == ["1A"] and (DATED.search(low) or _HAPPENED.search(low))
            and not ASKS_RISK.search(low) and not NAMED_SECTION.search(low)):
        # "what headwinds did Boeing face in 2024?": the risk factors say what may happen, in every
        # year's words; what the company met in a year is told in MD&A, read first
        rest = [i for i in items if i != "1A"]
        return [*(["7"] if "7" not in rest else []), *rest, "1A"]
    if not first and items and set(items) <= {"1", "1A"} and GOING.search(low) and not NAMED_SECTION.search(low):
        # "how is Amazon's advertising business doing?": how a business fares is told in MD&A's results; the
        # business description says what it is
        return ["7", *items]
    if not first and items and set(items) <= {"1", "1A"} and CONDUCT.search(low) and not NAMED_SECTION.search(low):
        # "what's Tesla doing about manufacturing capacity?", "how does TI think about its fabs?": what the
        # company does and how management sees it is MD&A's, after the Items the topic points to
        return [*items, "7"]
    if not first and items and set(items) <= {"1"} and not NAMED_SECTION.search(low) and not DESCRIBE.search(low) \
            and (FIGURE_WORDS.search(low) or WILL.search(low)):
        # "what does RTX's 10-K say about net services cost of sales?", "what will C3.ai's number of customers
        # be?": a figure's words ("services", "customers") point to the business description, but how a
        # figure went or where it is headed is MD&A's; the business description after it
        return ["7", *items]
    if not first:
        if items == ["1"] and RELATION.search(low) and not NAMED_SECTION.search(low):
            # competition, a supplier, a partner: told in the business and its risks; who they are is
            # named in the business description alone (the risk factors tell what competition may do)
            if NAMES_ASKED.search(low) and not named_other:
                return ["1"]
            return ["1A", "1"] if named_other else ["1", "1A"]
        return items
    if items and set(items) <= {"1C"}:
        return items + [i for i in first if i not in items]
    return list(dict.fromkeys(first + items))


def topical_companies(outside: str, matches) -> set[int]:
    """Indexes of `matches` (covered companies) that are topics of another company's question: a
    later one after a preposition, when one before it owns the question. A comparison keeps all."""
    covered = [i for i, m in enumerate(matches) if m.kind == "company"]
    if len(covered) < 2 or _COMPARE.search(outside.lower()):
        return set()
    topics = set()
    for i in covered[1:]:
        before = outside[: matches[i].start]
        if _TOPIC_PREP.search(before) and not _asked_against(outside, matches[covered[0]], matches[i]):
            topics.add(i)
    return topics


# "is Visa more profitable than Mastercard?", "was ko bigger than pep": the question opens by asking
# whether one company is more of something than another, which compares the two; "does AMD say it is
# cheaper than Intel?" asks what AMD says, Intel its topic
_OPENS_ASKING = re.compile(r"^\W*(?:(?:and|so|but|ok)\W+)?(?:is|was|are|were|has|had|did|does)\s+$", re.I)
_THAN_BETWEEN = re.compile(r"\s+(?:[\w-]+\s+){0,3}than\s+$", re.I)


def _asked_against(outside: str, first, later) -> bool:
    return (_OPENS_ASKING.match(outside[: first.start]) is not None
            and _THAN_BETWEEN.fullmatch(outside[first.end: later.start]) is not None)


# In a prose thread, a company named only as where something comes from or is aimed at ("and from
# Nvidia in graphics?" after AMD's competition from Intel, "what about competition against Walmart?"):
# a topic of the thread's company. "What about Nvidia?", "and for Nvidia?", "same with Nvidia?" switch.
_THREAD_TOPIC_PREP = re.compile(r"\b(?:from|against|including)\s+(?:the\s+)?$", re.I)


def thread_topical(outside: str, matches, thread_tickers) -> set[int]:
    """Indexes of `matches` that are topics of a prose thread's company (see _THREAD_TOPIC_PREP): every
    covered company the reply names follows such a preposition and none is the thread's own."""
    covered = [i for i, m in enumerate(matches) if m.kind == "company"]
    if not covered or _COMPARE.search(outside.lower()):
        return set()
    if any(matches[i].company.ticker in thread_tickers or not _THREAD_TOPIC_PREP.search(outside[: matches[i].start])
           for i in covered):
        return set()
    return set(covered)


# The form of a question that asks for words, not an amount, whatever figure-like words it holds:
# - a cause or an effect in a modal ("what will drive ...", "what might slow ...", "how could
#   tariffs affect ..."): the filing's discussion of what moves a figure, never the figure itself;
# - a yes-no question about the company's stance or conduct ("is X worried about ...", "can X's
#   partners absorb ...", "does X think ..."): answered by what the filing says.
# A figure asked in such a form with words no figure takes ("what will Apple's revenue be?" names one)
# is left to the scope check and the figure path; only the words left over are read this way.
_MODAL = r"(?:will|would|could|might|may|can|should)"
_OPENS = r"^\W*(?:(?:and|so|but|ok)\W+)?"  # the message's start, after a leading "and", "so"...
_MODAL_CAUSE = re.compile(rf"{_OPENS}(?:what|which\s+[a-z]+)\s+{_MODAL}\s+"
                          rf"(?!(?:be|have|cost|total|amount|equal|reach|come|make|earn|report|pay|spend)\b)[a-z]+")
_MODAL_EFFECT = re.compile(rf"{_OPENS}how\s+{_MODAL}\s+(?!(?:much|many)\b)")
_YES_NO = re.compile(rf"{_OPENS}(?:is|are|was|were|does|do|did|has|have|can|could|will|would|"
                     r"should|might)\s+(?!(?:there|it|its|their|the\s+(?:revenue|income|margin)|you)\b)")


# A lead-in naming where to read ("Based on its FY2023 10-K, how does ...", "Per Apple's annual report:
# what ...", "In Netflix's 10-K, what does it say ..."): the source, said before the question itself. The
# forms of a question read at its start (how it works, what it is made of, how it went) are read after it.
_LEAD_IN = re.compile(
    r"^\W*(?:(?:based|drawing|relying)\s+on|according\s+to|per|from|in|using|looking\s+at|reading|going\s+by|"
    r"as\s+(?:per|stated\s+in|reported\s+in|disclosed\s+in|described\s+in))\s+"
    r"(?:(?:the|its|their|this|that)\s+|(?:[\w&.-]+\s+){0,3}?[\w&.-]+(?:'s|s'|\u2019s)\s+)?"
    r"(?:(?:latest|most\s+recent|recent|last|current|newest|prior|previous|annual|quarterly|sec|form|company'?s|"
    r"fy\s?'?\d{2,4}|fiscal\s+(?:year\s+)?'?\d{2,4}|'?\d{2,4})\s+)*"
    r"(?:10-?k|10-?q|annual\s+report|quarterly\s+report|filings?|report|financial\s+statements|md&a|disclosures?)"
    r"(?:\s+(?:for|of|from)\s+(?:the\s+)?(?:fiscal\s+(?:year\s+)?|fy\s?)?'?\d{2,4})?"
    r"(?:\s*[,:;]\s*|\s+[-\u2013\u2014]+\s+|\s+(?=(?:how|what|why|which|who|where|when|does|do|did|is|are|was|were|"
    r"will|can|could|has|have|describe|explain|tell|list|summari[sz]e|give|walk)\b))")


def without_lead_in(low: str) -> str:
    """The question after a lead-in naming the filing it is to be read in (see _LEAD_IN); the whole
    question when it has none. `low`: lowercase."""
    m = _LEAD_IN.match(low)
    return low[m.end():] if m and low[m.end():].strip() else low


def asks_in_words(low: str) -> bool:
    """The question's form asks for what a filing says: a modal cause or effect, or a yes-no
    question about the company (see above). `low`: lowercase."""
    return bool(_MODAL_CAUSE.search(low) or _MODAL_EFFECT.search(low) or _YES_NO.search(low))


def modal_cause(low: str) -> bool:
    """"What will drive / determine / slow ...": a cause of a future change, which a filing states
    (its MD&A and risk factors), not a prediction asked of Footnote."""
    return bool(_MODAL_CAUSE.search(low))
