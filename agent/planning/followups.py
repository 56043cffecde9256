"""Follow-ups that refer back: what a short reply means given the thread's last plan.

Why a module of its own: the planner reads what a message says; this reads what it leaves to the
thread. A reply with no company of its own ("which of the two was higher?", "rank them", "what's
the growth rate?") is about the thread's companies, all of them; a reply whose only content is a
name the directory does not know ("what about Ford?") is about that name, never silently about
the thread's company. A prose thread has a topic in the user's words (`Plan.topic`): a reply that
points back at it ("how much did it cost?", "the risks of that", "why?") is searched with it.
"""

from __future__ import annotations

import re

from agent.planning.company_words import ACRONYMS, LEGAL_SUFFIXES, english_words
from agent.retrieval.concepts import METRICS, normalize
from agent.retrieval.finance import FORMULAS, GROWTH_BASES, MEASURE_PHRASES, growth_key
from agent.planning.topics import SECTION_ONLY, STOPWORDS, metric_query, route_items
from agent.retrieval.segments import key_parts
from agent.planning.words import QUARTERLY
from agent.planning.years import NUMBER_WORDS

# A reply's opening acknowledgement ("great, now do Apple", "cool. and Nvidia?"): no part of what it asks.
_ACK_WORDS = (r"ok(?:ay)?|great|cool|nice|thanks|thank\s+you|thx|cheers|perfect|awesome|got\s+it|alright|"
              r"fine|sure|good|interesting|wow|hmm+")
ACKNOWLEDGED = re.compile(rf"^\W*(?:(?:{_ACK_WORDS})\b\W*)+")
# set off by punctuation, after one acknowledgement or several ("cool cool, and the prior year?")
ACKNOWLEDGED_FIRST = re.compile(rf"^\W*(?:(?:{_ACK_WORDS})(?:\s*[,.!;:\u2014-]+\s*|\s+(?=(?:{_ACK_WORDS})\b)))+", re.I)
# "which was highest?", "rank them": every company the thread discussed, not only the last two
OF_ALL = re.compile(r"\b(?:highest|lowest|most|least|fastest|slowest|biggest|largest|smallest|best|worst|rank\w*)\b")
# "is AMD affected too?": the thread's question, asked of another company
ALSO = re.compile(r"\b(?:too|as\s+well|also|either|likewise)\s*[?.!]*\s*$")

# "add AbbVie", "include Pepsi too", "throw in Ford", "add Meta to the comparison": the thread's
# question, asked of its companies and the one named (the message opens with the verb)
INCLUDING = re.compile(r"^\W*(?:(?:ok(?:ay)?|now|and|also|then|please|pls|great|cool|so|alright)\W+)*"
                       r"(?:(?:can|could|would)\s+you\s+(?:also\s+)?|let'?s\s+(?:also\s+)?|please\s+)?"
                       r"(?:add|include|throw\s+in|toss\s+in|bring\s+in|put\s+in|plus|also\s+(?:show|do|include|add))\b"
                       r"|\b(?:to|in|into)\s+(?:that|this|it|them|the\s+(?:comparison|list|mix|table|ranking|set|group|"
                       r"chart|lineup))\b(?=\W*$)")


def includes_company(text: str) -> bool:
    """The message adds a company to the thread's question ("add AbbVie to that", "include Ford too")."""
    return bool(INCLUDING.search(text)) and not INCLUDING.fullmatch(text.strip())


# "and X?", "what about X?", "how about X", "now X", "same for X", "do the same for X"
_LEAD = re.compile(
    r"^\s*(?:(?:ok(?:ay)?|so|cool|great|thanks|and|also|then|now)[\s,]+)*(?:what\s+about|how\s+about|and|now|then|"
    r"same\s+for|(?:now\s+)?do\s+(?:the\s+same|that|it|this)\s+for|what\s+of|and\s+for|for)\s+(?P<rest>.+?)\s*[?.!]*\s*$",
    re.I,
)
# "fine, Target then", "ok Apple instead": the name first, the word that makes it a reply after it
_TRAILING = re.compile(
    r"^\s*(?:(?:ok(?:ay)?|so|cool|great|fine|alright|right|hmm+|well|oh|thanks|and|also|now)[\s,]+)*"
    r"(?P<rest>[\w&.'\u2019-]+(?:\s+[\w&.'\u2019-]+){0,2}?)\s*,?\s+(?:then|instead)\s*[?.!]*\s*$", re.I)
_REPLY = {"ok", "okay", "cool", "great", "fine", "alright", "right", "sure", "thanks", "yes", "yeah", "yep", "no", "nope",
          "hmm", "well", "oh", "good", "nice", "k", "so", "why", "how", "what", "bye", "goodbye", "later", "cheers", "thx",
          "ty", "see", "ya", "you", "that", "that's", "all", "done", "got", "it"}  # "ok then", "ok bye then": no name
_FILLER = {"the", "a", "an", "of", "for", "too", "as", "well", "please", "then", "instead", "now", "also", "same",
           "company", "one", "ones", "other", "them", "it", "that", "this", "those", "these", "they", "both", "all",
           "year", "years", "fiscal", "fy", "before", "after", "prior", "previous", "last", "next", "latest", "s"}
# What a reply says it changes, beside what it keeps ("same for both, but net income", "revenue
# instead", "rather than 2023"): the thread's plan with one slot replaced, words of no figure.
REPLACING = re.compile(r"\b(?:but|instead(?:\s+of)?|rather(?:\s+than)?|except|(?:go(?:ing)?\s+)?back\s+to)\b")
# A share of revenue back to the figure it was computed from ("what's the growth rate?" after "as
# a share of revenue?" asks how the figure itself grew).
BASE_OF = {"rd_pct_revenue": "rd", "sga_pct_revenue": "sga", "capex_pct_revenue": "capex",
           "gross_margin": "gross_profit", "operating_margin": "operating_income", "net_margin": "net_income"}


def lead_rest(text: str) -> str | None:
    """What an "and X?" / "what about X?" / "same for X" reply hands the thread's question to, as written."""
    m = _LEAD.match(text)
    return m.group("rest") if m else None


def leads_reply(text: str) -> bool:
    """The message is a reply that hands the thread's question to something else ("what about Intel's
    2023 revenue decline?", "and AMD's?", "how about for 2023?")."""
    return bool(_LEAD.match(text))


# "what were they spent on?", "where did the money go?", "what is it used for?": what a figure paid
# for, which MD&A tells beside the figure
_SPENT_ON = re.compile(r"\bwhat\b[^?]*\b(?:spent|spend|spending|used|use|invested|invest|allocated|directed|put|going)"
                       r"\s+(?:(?:it|that|this|them|those|the\s+(?:money|cash|funds?))\s+)?(?:on|for|into|towards?)\b"
                       r"|\bon\s+what\b"
                       r"|\bwhere\s+(?:did|does|do|is|was|will|are|were)\b[^?]*\bgo(?:ing)?\b")


# "what are they doing about it?", "how are they addressing that?": what the company does about the
# thread's subject, which the filing tells beside it (MD&A, risk factors), never a line named "doing"
_RESPONSE = re.compile(r"\b(?:do|doing|done|address\w*|handl\w*|tackl\w*|respond\w*|fix\w*|mitigat\w*|deal\w*|"
                       r"react\w*|counter\w*|offset\w*)\b[^?]*?\b(?:about|to|with)?\s*(?:it|that|this|them)\b")


# "did it hurt their margins?", "how much did that add to sales?", "what did it do to earnings?": what the
# thread's subject did to a figure, which MD&A states beside the figure's change
_EFFECT = re.compile(r"\b(?:hurt\w*|help\w*|affect\w*|impact\w*|hit|hits|boost\w*|weigh\w*|drag\w*|lift\w*|"
                     r"pressur\w*|benefit\w*|dent\w*|squeez\w*|dilut\w*|add(?:s|ed)?\s+to|contribut\w*\s+to|"
                     r"(?:do|did|does|mean|means|meant)\s+(?:to|for)|bring\w*\s+in|brought\s+in|generat\w*|contribut\w*)\b")
# "how much revenue did it bring in?": an amount of the thread's subject's own, never the company's total
_CONTRIBUTED = re.compile(r"\b(?:bring\w*\s+in|brought\s+in|generat\w*|contribut\w*)\b")
# "what was the hit to margins?", "the impact on earnings": the effect, named as a thing the thread already has
_EFFECT_NOUN = re.compile(r"\bthe\s+(?:\w+\s+)?(?:hit|impact|effect|drag|boost|benefit|contribution)\s+(?:to|on|of)\b")


def asks_effect(text: str) -> bool:
    """The message asks what the thread's subject did to something ("did it hurt their margins?", "how much revenue
    did it bring in?", "what was the hit to margins?")."""
    return (bool(_EFFECT.search(text)) and points_back(text)) or bool(_EFFECT_NOUN.search(text))


def asks_contribution(text: str) -> bool:
    """The message asks what the thread's subject itself brought in ("how much revenue did it bring in?")."""
    return bool(_CONTRIBUTED.search(text)) and points_back(text)


def asks_response(text: str) -> bool:
    """The message asks what the company is doing about the thread's subject."""
    return bool(_RESPONSE.search(text))


def asks_use(text: str) -> bool:
    """The message asks what the thread's figure was spent on or used for."""
    return bool(_SPENT_ON.search(text))


# "how'd they pay for it?", "how was the deal financed?", "where did the money come from?": how the thread's subject was
# paid for, which the filing tells in its financing words (notes issued, borrowings, cash on hand), in the liquidity
# discussion and the debt note, seldom beside the subject's own name
_FUNDING = re.compile(r"\b(?:pay|paid|paying|fund|funds|funded|funding|financ\w*|bankroll\w*)\b[^?]*?\b(?:it|that|this|them|"
                      r"the\s+(?:deal|acquisition|purchase|merger|buyout|transaction|program|expansion|project))\b"
                      r"|\bhow\s+(?:was|were|is|are|did|do|does)\s+(?:it|that|this|they|the\s+\w+)\s+(?:paid\s+for|funded|financed)\b"
                      r"|\bwhere\s+(?:did|does|will)\s+the\s+(?:money|cash|funds?|financing)\s+come\s+from\b")
FUNDING_WORDS = "financed funded with proceeds from the issuance of senior notes borrowings term loans commercial paper cash on hand"


_DEAL = re.compile(r"\b(?:acqui\w*|deal|merger|merge|buyout|takeover|purchase|transaction|closed?|closing)\b")


def deal_word(text: str) -> str:
    """The word a passage about the deal says, as a stem: "merge" for a merger, else "acqui" (filings call a deal,
    a purchase of a business or a buyout an acquisition)."""
    m = _DEAL.search(text.lower())
    return "merge" if m is not None and m.group(0).startswith("merge") else "acqui"


def asks_funding(text: str, thread_words: str) -> bool:
    """The message asks how the thread's subject, a deal, was paid for ("what did they pay for it?" asks the price).
    Only a deal: a plant or a program is paid for from operations, and the financing words then find the liquidity
    discussion's generic sentences instead of what the filing says of the subject."""
    return (bool(_FUNDING.search(text)) and not re.search(r"\b(?:what|how\s+much)\b[^?]*\bpa(?:y|id)\b", text)
            and bool(_DEAL.search(f"{text} {thread_words}".lower())))


def lead_subject(outside: str) -> str | None:
    """The name a "what about X?" reply asks about, when X is nothing else the planner knows: not
    a measure, a topic, a year or a pronoun. Capitalised or not ("what about ford?"), since a reply
    that is only a word can only be naming something."""
    m = _LEAD.match(outside) or _TRAILING.match(outside)
    if not m:
        return None
    rest = re.sub(r"['\u2019]s\b", "", m.group("rest"))
    words = [w for w in re.findall(r"[A-Za-z][\w&.-]*", rest)]
    content = [w for w in words if w.lower() not in _FILLER and w.lower() not in STOPWORDS and w.lower() not in _REPLY]
    if not content or len(content) > 3 or re.search(r"\d", rest) or any(w.lower() in NUMBER_WORDS for w in content):
        return None  # a count ("the two years before that?") is never a name
    low = " ".join(content).lower()
    if normalize(low) in MEASURE_PHRASES or any(normalize(w) in MEASURE_PHRASES for w in content):
        return None
    if route_items(low)[1]:
        return None  # a topic ("and cybersecurity?")
    capitalised = any(w[0].isupper() for w in content)
    legal = len(content) > 1 and content[-1].lower() in LEGAL_SUFFIXES  # "arm holdings", "acme corp": a name
    if not capitalised and not legal and all(w.lower() in english_words() for w in content) and len(content) > 1:
        return None  # ordinary words, more likely a topic the planner does not know
    return " ".join(content)


def lead_name(outside: str) -> str | None:
    """The name in a "what about X's net income?" reply that also names a measure: words written
    as a name (capitalised, possessive, or no English word) that no measure or topic takes. Such a
    reply keeps the thread's company only if that company reports a line or segment by the name."""
    m = _LEAD.match(outside)
    if not m:
        return None
    rest = m.group("rest")
    names = []
    for w in re.findall(r"[A-Za-z][\w&.-]*(?:['\u2019]s\b)?", rest):
        possessive = bool(re.search(r"['\u2019]s$", w))
        word = re.sub(r"['\u2019]s$", "", w)
        low = word.lower()
        if low in _FILLER or low in STOPWORDS or normalize(low) in MEASURE_PHRASES or route_items(low)[1]:
            continue
        if possessive or word[0].isupper() or low not in english_words():
            names.append(word)
    return " ".join(names) if 0 < len(names) <= 3 else None


def figure_base(key: str) -> str:
    """The figure a transform of it was computed from ("rd_growth" -> "rd"): "as a share of revenue?"
    after a growth rate asks for the figure's share, not the rate's."""
    for suffix in ("_growth", "_change"):
        if key.endswith(suffix) and key[: -len(suffix)] in GROWTH_BASES:
            return key[: -len(suffix)]
    return key


# "which is bigger, that or Boeing's?", "is it higher than GM's?": a comparison of the thread's figure
# with the company the message names, so both are answered
POINTER = re.compile(r"\b(?:that|this|it|them|theirs|those|these)\b(?!\s+(?:year|quarter|period)\b)")


def inherited_growth(metrics: list[str]) -> list[str]:
    """The thread's metrics as year-over-year growth: a ratio grows through its base figure."""
    out = []
    for k in metrics:
        base = BASE_OF.get(k, k)
        if base.endswith("_growth"):
            out.append(base)
        elif base in GROWTH_BASES:
            out.append(growth_key(base))
        elif k in FORMULAS:
            out.append(k)
    return list(dict.fromkeys(out))


def unknown_subject(name: str, directory) -> tuple[str, str] | None:
    """How to refuse a reply about `name` (from `lead_subject`): ("not_covered", "Ford (F)") when
    SEC's map knows a company by that first word, ("no_company", name) when the word can only be
    a name, None when it is an ordinary word better left to the planner."""
    from agent.planning.companies import norm_name
    from agent.planning.company_words import COMMON_FIRST_WORDS

    words = norm_name(name)
    if not words:
        return None
    core = [w for w in words if w not in LEGAL_SUFFIXES] or words  # "arm holdings": Arm
    if len(core) == 1 and core[0].upper() in ACRONYMS:
        return None  # "and in the US?", "what about AI?": a country or a term, never the registrant it begins (USB)
    ticker_of = directory.by_ticker.get(core[0].upper()) if len(core) == 1 else None
    if ticker_of is not None and directory.companies[ticker_of].covered:
        return "no_company", name  # "same for v": a covered company's ticker (read again as one), never V.F. Corp
    found = directory.by_first_word.get(core[0], []) if len(core) == 1 else []
    found = [c for c in found if not c.covered]
    ordinary = (all(w in english_words() for w in words) and not any(ch.isupper() for ch in name)
                and len(core) == len(words))
    if found and core[0] not in COMMON_FIRST_WORDS:
        c = min(found, key=lambda c: (len(norm_name(c.name)), c.ticker))
        return "not_covered", f"{name} ({c.ticker})" if len(found) == 1 else name
    if ordinary:
        return None
    return "no_company", name


SLOTS = ("tickers", "metrics", "fiscal_years", "items")


def slot_sources(plan, inherited: list[str], sources: dict[str, str], *, why: bool) -> dict[str, str]:
    """Where each slot of a plan came from: the message, or the thread's last plan (and how: all its
    companies, its figure grown or as a share of revenue, its year shifted). The trace a reader
    checks when a follow-up is answered for the wrong company or year."""
    out = {}
    for slot in SLOTS:
        if slot in sources:
            out[slot] = sources[slot]
        elif slot in inherited:
            out[slot] = "thread, its cause" if slot == "metrics" and why else "thread"
        elif getattr(plan, slot):
            out[slot] = "message"
    if "fiscal_years" not in out and plan.latest:
        out["fiscal_years"] = "latest filing"
    return out


# Words that shape a question without naming what it is about: asking for more, pointing back,
# asking why. What is left of a message without them is its own subject.
_ASKING = frozenset("""say says said tell more else anything something detail details elaborate expand continue go
    going keep deeper dig further specifically exactly really just any some again also so ok okay now then please pls
    plz it they them their its theirs that this these those there such same why drove drive drives driving driven
    drivers driver cause causes caused reason reasons behind led happen happened happening status update latest
    what's whats how's hows much many one ones thing things there's here's stuff info information bit little have has
    had having been be being will would could should might may can around over regarding year years prior previous
    before after earlier later last next fiscal fy yr yrs quarter quarters period annual or if but not than change changed
    changes changing increase increased decrease decreased grow grew rise rose fall fell drop dropped decline declined
    shrink shrank shrunk shrinking doing faring performing trending shaping
    jump jumped up down went move moved so bad good worse better big low high weak weaker strong stronger poor soft
    softer solid both each either neither all two three four compare compared comparison differ differs
    different difference versus vs too affect affects affected impact impacts impacted hurt exposed 10-k 10-ks filing
    filings annual report mention mentions mentioned quote quotes quoted quoting recent""".split())
# Pointing at a thing the thread discussed ("the risks of that", "any risks there", "did that deal
# close?"), not at its company ("they", "its"), nor at a time ("that year"), nor a relative clause
# ("the risks that Apple faces").
_THING = r"(?:that|this|these|those|it|them)\b(?!\s+(?:year|years|quarter|quarters|period|time|fiscal|fy|company|companies|firm)\b)"
_POINTING = re.compile(
    rf"\b(?:of|about|for|on|to|from|with|behind|into|by|in|around|regarding|over|after|explain|drove|caused|causes|"
    rf"drives|did|does|do|is|was|are|were|has|have|had|if|when|whether|unless|once|until)\s+{_THING}"
    r"|(?<!\bis\s)(?<!\bare\s)(?<!\bwas\s)(?<!\bwere\s)\bthere\b(?=\s*(?:[?.!,]|$|around|in\b|on\b|about|for\b|"
    r"specifically|too\b|as\s+well|regarding|related))"
    # "why did operating income there go up?": "there" as a place the thread named, before what happened in it,
    # never the "there" of "is there", "there were" or "has there been"
    r"|(?<!\bis\s)(?<!\bare\s)(?<!\bwas\s)(?<!\bwere\s)(?<!\bhas\s)(?<!\bhave\s)(?<!\bhad\s)(?<!^)\bthere\s+"
    r"(?!(?:is|are|was|were|will|would|could|should|might|may|must|can|has|have|had|been|be|any|anything|seems?|"
    r"appears?|isn't|aren't|wasn't|weren't)\b)[a-z]+"
    r"|^\W*(?:and\s+|so\s+)?(?:that|this|those|these)\b(?!\s+(?:year|quarter|company)\b)"
    r"|\b[a-z]+\s+(?:it|that|this|them)\W*$"  # "what could hurt it?", "what risks threaten that?"
    # "does AMD say the same thing?"
    r"|\bthe\s+same\s+(?:thing|things|topic|issue|issues|point|points|stuff|risk|risks|matter)\b"
)
TOPIC_WORDS = 12  # a topic carried through a long thread stays a topic, not the whole conversation


def own_subject(text: str) -> list[str]:
    """The words a message says its subject with: no question, pointing or asking words."""
    words = re.findall(r"[a-z0-9][\w&'-]*", text.lower().replace("\u2019", "'"))
    return [w for w in words if w not in STOPWORDS and w not in _ASKING and w not in SECTION_ONLY and len(w) > 1
            and not re.fullmatch(r"(?:fy|q[1-4])?'?\d+", w)]


_GENERIC: frozenset[str] | None = None


def _generic_words() -> frozenset[str]:
    """The words of the registry's figures and of a figure's kinds and aspects ("cost", "margins", "earnings",
    "risks"): said alone they name no thing of the thread's filing, but any figure or aspect it discusses."""
    global _GENERIC
    if _GENERIC is None:
        figures = {w for k in METRICS for w in re.findall(r"[a-z]+", metric_query(k).lower())}
        kinds = set("margin margins profit profits profitability loss losses costs cost expense expenses charge charges "
                    "results earnings amount amounts money cash total material materially significant significantly pay paid paying "
                    "fund funded funding financed".split())
        _GENERIC = frozenset(figures | kinds | ASPECTS)
    return _GENERIC


def names_own_thing(words: list[str]) -> bool:
    """The reply's own words name a thing beyond a figure's words, an effect or an aspect ("stop buying back stock",
    "restructuring", "providers"; not "how much did it cost them?", "did it affect their margins?"). Why: only such
    words are worth searching without the thread's subject; "cost" alone finds every cost sentence of the filing."""
    generic = _generic_words()
    return any(generic.isdisjoint(_forms(w)) and not _EFFECT.fullmatch(w) and "'" not in w
               for w in words)  # "how'd", "when'd": a question word and its verb run together


def _forms(word: str) -> set[str]:
    """The word and what it is an inflection of: "charged" is the generic "charge", "costing" the generic "cost"."""
    forms = {word, word.rstrip("s")}
    if word.endswith("ed"):
        forms |= {word[:-1], word[:-2]}
    if word.endswith("ing"):
        forms |= {word[:-3], word[:-3] + "e"}
    return forms


def points_back(text: str) -> bool:
    """The message points at something the thread discussed ("what are the risks of that?")."""
    return bool(_POINTING.search(text.lower()))


def thread_topic(prev) -> str:
    """What the thread's last turn was about: its prose topic, else the figures it gave."""
    if prev.topic:
        return prev.topic
    if prev.route == "refusal" and prev.refusal_reason == "unknown_metric" and prev.refusal_detail:
        return " ".join(own_subject(prev.refusal_detail.split("(")[0]))  # "why did it change?" after "backlog"
    if prev.metrics:
        return " ".join(figure_words(k) for k in prev.metrics)
    return " ".join(own_subject(prev.query))


def figure_words(key: str) -> str:
    """A figure in search words: "Services revenue" for a member's revenue, the metric's own words else."""
    if key.startswith("dim:"):
        metric, member, _ = key_parts(key)
        return f"{member} {metric_query(metric)}".strip()
    return metric_query(key)


def joined_topic(*parts: str) -> str:
    """Topics joined without repeating a word, the newest first, at most TOPIC_WORDS words."""
    words = [w for part in parts for w in part.split()]
    return " ".join(list(dict.fromkeys(words))[:TOPIC_WORDS])


# Asking for more of what was just said ("tell me more about the defense one", "can you elaborate?").
_MORE = re.compile(r"\b(?:tell\s+me\s+more|more\s+(?:about|on|detail|details|info|please)|say\s+more|elaborate|"
                   r"expand\s+on|go\s+on|keep\s+going|dig\s+(?:into|deeper)|drill\s+(?:into|down)|anything\s+else|what\s+else|"
                   r"(?:give|show)\s+me\s+more|(?:some|a\s+bit|a\s+little)\s+more)\b|^\W*more\W*$")
# "what happened?", "what happened there?" after a figure: what moved it, as "why?" asks
_HAPPENED = re.compile(r"^\W*(?:(?:so|and|ok(?:ay)?|hmm+|wow)\W+)*what\s+(?:happened|went\s+(?:on|wrong|right))"
                       r"(?:\s+(?:there|here|to\s+(?:it|that|them)|with\s+(?:it|that|this)))?\W*$")
# "by how much?": the size of the change, in the figure's own unit
BY_HOW_MUCH = re.compile(r"\bby\s+how\s+much\b")


def asks_what_happened(text: str) -> bool:
    """The message asks what happened to the thread's subject, naming nothing else."""
    return bool(_HAPPENED.search(text))
# The company the thread is about, named by a pronoun ("do they", "their", "its").
_THIRD_PERSON = re.compile(r"\b(?:they|them|their|theirs|its)\b")


def asks_more(text: str) -> bool:
    """The message asks for more of what the thread was discussing."""
    return bool(_MORE.search(text))


def about_the_company(text: str) -> bool:
    """The message speaks of a third party, the thread's company, not of Footnote ("who else do they name?")."""
    return bool(_THIRD_PERSON.search(text)) and not re.search(r"\b(?:you|your|u|ur)\b", text)


# "which bank made more?", "which retailer grew faster?": the noun after "which" names the kind of the
# thread's companies, not a figure; "which segment grew fastest?" names what to break down, and stays.
_WHICH_KIND = re.compile(r"\b(which|what)\s+([a-z][a-z-]+)\s+(?=(?:made|makes|had|has|have|earned|earns|grew|grows|"
                         r"was|is|were|are|did|does|spent|spends|reported|generated|brought|came|posted|won|wins|"
                         r"performed|did|of\s+(?:the|them|these|those)))", re.I)
_BREAKDOWNS = frozenset("segment segments product products region regions business businesses unit units division "
                        "divisions line lines year years quarter quarters period periods metric metrics figure one "
                        "ones of".split())


def compared_kind(text: str, thread_companies: int) -> str:
    """The message without the kind noun of "which bank made more?", when the thread compares companies."""
    if thread_companies < 2:
        return text

    def drop(m: re.Match) -> str:
        word = m.group(2).lower()
        if word in _BREAKDOWNS or normalize(word) in MEASURE_PHRASES or route_items(word)[1]:
            return m.group(0)
        return f"{m.group(1)} "

    return _WHICH_KIND.sub(drop, text)


# A thread keeps two subjects apart: its last FIGURE plan (a metric of companies and years) and its
# last PROSE plan (a topic searched in the filings). A prose turn about the figure ("why did it go
# up?", "say more") does not replace the figure: a figure reply after it ("and in fy23?", "what's the
# growth?") is about that figure, two turns back, never about the prose topic.
FIGURE_INTENTS = ("numeric", "derived", "compare", "trend")
# Words of a reply that ask for a figure, or transform one, and name no topic.
FIGURE_ASKING = frozenset("growth rate rates share percent percentage pct yoy gap difference spread delta higher lower "
                          "bigger smaller larger rank ranking ratio total number numbers figure figures amount value "
                          "much many trend margin multiple dollars usd millions billions both two each".split())
FIGURE_CUE = re.compile(r"\b(?:growth|grow|grew|rate|share\s+of|%|percent|how\s+(?:much|many)|rank|higher|lower|"
                         r"gap|difference|spread|yoy|year[\s-]+over[\s-]+year|up\s+or\s+down|down\s+or\s+up)\b")
_PROSE_CUE = re.compile(r"\b(?:why|drove|driv\w+|caus\w+|reasons?|explain\w*|say|said|says|discuss\w*|mention\w*|"
                        r"describe\w*|comment\w*|risks?|management|outlook|expect\w*|strategy)\b")


def is_figure_plan(plan) -> bool:
    """A plan that asks for figures (what a figure reply later refers back to)."""
    return plan is not None and plan.route == "domain" and plan.intent in FIGURE_INTENTS and bool(plan.metrics)


def figure_reply(text: str) -> bool:
    """A reply asking for a figure without naming a topic: only years, companies it leaves to the
    thread, and words that ask for or transform a figure ("and in fy23?", "what's the growth?")."""
    low = ACKNOWLEDGED.sub("", text.lower())
    if asks_more(low) or _PROSE_CUE.search(low):
        return False
    return not [w for w in own_subject(low) if w not in FIGURE_ASKING]


# "same for X", "do the same for X", "likewise for X": the thread's last question again, whatever it was
SAME = re.compile(r"\b(?:(?:the\s+)?same\s+(?:for|with|of|about|in)|do\s+(?:the\s+same|that|this|it)\s+for|likewise)\b")


def names_measure_only(text: str) -> bool:
    """The reply names a figure of the registry and nothing else ("and net income?", "what about capex?")."""
    rest = lead_rest(ACKNOWLEDGED.sub("", text.lower()).strip())
    return rest is not None and normalize(re.sub(r"^(?:the|their|its)\s+", "", rest.strip(" ?.!"))) in MEASURE_PHRASES


def back_to_figure(text: str, prose, figure):
    """The thread's figure plan, with the prose turn's companies and years, when `text` is a figure
    reply to a prose turn that was about that figure; None otherwise.

    About the figure: the prose turn followed the figure's thread (its companies came from it, or it
    asked how much of the figure came from something), and its companies are the figure's. A prose
    question that named its own company and topic ("what does Visa say about litigation?") starts a
    subject of its own: a bare year after it stays with that topic, only a figure's transform
    ("what's the growth?", which no topic has) goes back to the figure."""
    if prose is None or figure is None or prose.intent != "qualitative" or not is_figure_plan(figure):
        return None
    if not set(prose.tickers) <= set(figure.tickers) and not set(figure.tickers) <= set(prose.tickers):
        return None
    # "and net income?" after "why did Visa grow faster?" in a comparison of Visa's and Mastercard's revenue: the
    # cause was asked of one of the compared companies; another figure named alone is the comparison's again
    narrowed = set(prose.tickers) < set(figure.tickers) and prose.asks_cause and names_measure_only(text)
    if not (figure_reply(text) or narrowed) or SAME.search(text.lower()):
        return None  # "same for fiscal 2024" after "why?": the question just asked, of another year
    followed = (prose.slots or {}).get("tickers", "").startswith("thread") or bool(prose.probe) \
        or (prose.slots or {}).get("metrics") == "thread, its cause"
    if not followed and not FIGURE_CUE.search(text.lower()):
        return None
    return figure.model_copy(update={
        "tickers": list(figure.tickers) if narrowed else list(prose.tickers) or list(figure.tickers),
        "fiscal_years": list(prose.fiscal_years), "latest": prose.latest, "year_offsets": list(prose.year_offsets),
        "as_of_filing_year": prose.as_of_filing_year, "period": prose.period,
        "thread_tickers": list(dict.fromkeys([*figure.thread_tickers, *prose.thread_tickers])),
        "definitions": list(prose.definitions) or list(figure.definitions)})


# "what did management say about it?", "any commentary on that?": what the filing says of the thread's
# subject, which after a figure is MD&A's discussion of that figure (its causes).
_COMMENTING = frozenset("say said says saying comment comments commentary discuss discussed discussion mention mentioned "
                        "note noted talk talked explain explained management managements narrative remarks remark "
                        "color colour context md&a md".split())
_COMMENT_ASK = re.compile(r"\b(?:say|said|says|saying|comment\w*|discuss\w*|mention\w*|note[sd]?|talk\w*|explain\w*|"
                          r"narrative|remarks?|colou?r|context)\b")


# What explains a figure, asked without "why" ("what factors contributed?", "management's take?").
_CAUSAL = frozenset("factor factors contributed contributing contributor contributors contribution take story view "
                    "views explanation".split())
# Aspects of a figure other than its causes ("what are the headwinds?", "is that sustainable?", "the
# outlook for it"): searched with the figure's words, its MD&A discussion first.
ASPECTS = frozenset("risk risks headwind headwinds tailwind tailwinds outlook guidance challenge challenges concern "
                     "concerns pressure pressures sustainable sustainability durable trend trends threat threats "
                     "uncertainty uncertainties plan plans expectation expectations implication implications "
                     "expect expects expected expecting anticipate anticipates anticipated forecast forecasts "
                     "main key biggest major primary".split())


def _possessive_free(words: list[str]) -> list[str]:
    return [re.sub(r"'s$", "", w) for w in words]


def comments_on_thread(text: str) -> bool:
    """The message asks what the filing says about, or what explains, the thread's subject, naming
    no subject of its own ("what did management say about it?", "what factors contributed?")."""
    low = text.lower()
    own = _possessive_free(own_subject(low))
    if not (_COMMENT_ASK.search(low) or set(own) & _CAUSAL):
        return False
    if set(re.findall(r"[a-z]+", low)) & {"risk", "risks"} and not points_back(low):
        return False  # "and what risks do they mention?": the filing's risk factors, not what explains the figure
    return not [w for w in own if w not in _COMMENTING and w not in _CAUSAL]


def aspect_of_thread(text: str) -> bool:
    """The message asks about an aspect of the thread's subject and names nothing else ("what are
    the headwinds?", "what risks could hurt it?"): not a section alone ("the risk factors?")."""
    low = text.lower()
    words = [re.sub(r"'s$", "", w) for w in re.findall(r"[a-z0-9][\w&'-]*", low.replace("\u2019", "'"))]
    content = [w for w in words if w not in STOPWORDS and w not in _ASKING and len(w) > 1
               and not re.fullmatch(r"(?:fy)?'?\d+", w)]  # "what do they plan for 2025?": the year is the plan's
    if not content or [w for w in content if w not in ASPECTS and w not in _COMMENTING and w not in _CAUSAL]:
        return False
    # "what are the main risks?", "and what risks do they mention?" ask for the filing's risk factors (the
    # words of saying name no aspect); "what are the headwinds?" in a thread about a figure asks what
    # weighs on that figure
    named = [w for w in content if w not in _COMMENTING] or content
    return points_back(low) or not all(w in SECTION_ONLY for w in named) or not set(named) & _GENERAL


_GENERAL = frozenset("risk risks factor factors".split())


# "what's the gap between them?", "the spread between the two": the difference of a comparison.
_GAP = re.compile(r"\b(?:gap|spread|delta)\b(?=\s+(?:between|separating|of|among)\b|\s*[?.!]*\s*$)", re.I)


def gap_as_difference(text: str, thread_companies: int) -> str:
    """A comparison's gap in the words the planner reads as one ("difference"), in a thread of companies."""
    return _GAP.sub("difference", text) if thread_companies >= 2 else text


QUOTED_KEPT = 40  # the sentences a thread remembers having quoted, the newest kept


def swaps_only(unnamed: str, swapped: bool) -> bool:
    """The reply only swaps the thread's company or year ("and Meta's?", "and in fy2024?"): it names
    one (`swapped`), and nothing else is left once its company mentions are masked as "company" (`unnamed`)."""
    rest = [w for w in own_subject(unnamed) if w not in ("company", "company's", "s")]  # agent.planning.route.masked
    return swapped and not rest


def figure_only_topic(plan) -> bool:
    """A prose plan about its figures alone ("why did revenue grow?"), not about a topic beside them
    ("how do export controls affect revenue?"): its topic has no word the figures' own words lack."""
    vocabulary = {w for k in plan.metrics for w in figure_words(k).split()}
    return bool(plan.metrics) and set(plan.topic.split()) <= vocabulary


# "how does it compare with Lidl?", "and versus Adidas?": the name a comparison is made with
_NAME_WORDS = r"[A-Z][\w&.'\u2019-]*(?:\s+[A-Z][\w&.'\u2019-]*){0,2}"  # capitalised, up to three words
_COMPARED_WITH = re.compile(rf"\b(?:compare[sd]?|comparison|stacks?\s+up)\s+(?:it\s+|that\s+|them\s+)?(?:with|to|against)\s+"
                            rf"(?P<name>{_NAME_WORDS})|\b(?:vs\.?|versus|against)\s+(?P<other>{_NAME_WORDS})")


def compared_name(outside: str) -> str | None:
    """A capitalised name a follow-up compares the thread's figure with, when the directory knew no
    company by it and it is no measure, topic or English word: a company the user named, to be
    refused for that name ("no_company"), never a line item of the thread's company."""
    m = _COMPARED_WITH.search(outside)
    if not m:
        return None
    name = re.sub(r"['\u2019]s$", "", (m.group("name") or m.group("other")).strip(" .,?!"))
    low = name.lower()
    if (not name or normalize(low) in MEASURE_PHRASES or route_items(low)[1]
            or all(w in english_words() or w in STOPWORDS for w in low.split())):
        return None
    return name


# Words that choose or order among companies ("which is the smallest?", "who earned the most?")
_RANKING = frozenset("highest lowest most least biggest largest smallest best worst more less higher lower bigger "
                     "smaller larger greater greatest fewest fastest slowest faster slower top bottom rank ranked "
                     "ranking order sort first last made make makes earned earn earns spent spend spends grew grow "
                     "winner loser leader ahead behind by size sizes magnitude descending ascending".split())


def only_ranks(text: str) -> bool:
    """The message only chooses or orders ("which is the smallest?", "rank them"): no subject of its own."""
    return not [w for w in own_subject(text) if w not in _RANKING]


def bare_ranking(text: str) -> bool:
    """The message is a ranking word or two and nothing else ("higher?", "bigger one?", "top?"): a choice
    among the thread's companies, as "which was higher?" is."""
    words = own_subject(text)
    return bool(words) and all(w in _RANKING for w in words)


# "both", "each", "all three", "the two of them", "every one of them": the thread's companies, all of them
GROUP = re.compile(r"\b(?:both|each|every\s+(?:one|company)|all\s+(?:of\s+)?(?:them|three|four|five|those|these|"
                   r"the\s+companies)|(?:them|those|these)\s+all|the\s+(?:two|three|four|pair))\b")


# "which one had higher revenue in 2023?", "which of them earns more?", "who spent more?": a choice among
# the thread's companies, whatever year it names
CHOOSING = re.compile(r"\bwhich\s+(?:one|company|of\s+(?:them|the\s+two|these|those|the\s+companies))\b|^\W*who\b")
# "that year", "the same year": the year the thread's last answer was for
THAT_YEAR = re.compile(r"\b(?:that|the\s+same|same)\s+(?:fiscal\s+)?year\b|\bin\s+that\s+(?:filing|10-?k|period)\b")


# "does it say anything about Intel?", "do they mention Airbus?", "what does the filing say about Taiwan?",
# "anything on Nvidia?": the thread's own filing asked about a name. The subject is the pronoun (or the
# filing), so the name is what to look for in it, never a company to switch to; "what about Intel?"
# and "and Nvidia?" name no such subject and still switch (or are refused for the name).
_ASKING_FILING = (
    r"(?:\b(?:does|did|do|is|was|has|have)\s+(?:it|they|either|both|each|either\s+(?:one|of\s+them)|"
    r"(?:both|each)\s+of\s+them|the\s+(?:filings?|10-?ks?|reports?|annual\s+reports?|company|companies))\s+"
    r"(?:\w+\s+)?(?:say|said|mention|discuss|talk|note|disclose|comment|name|cite|flag|reference|address|list|describe)"
    r"\w*(?:\s+(?:anything|something|much|a\s+lot|at\s+all))?(?:\s+(?:about|on|regarding|of|concerning|with))?"
    r"|\b(?:what|how)\s+(?:does|did|do)\s+(?:it|they|either|each|the\s+(?:filings?|10-?ks?|reports?|company|companies))\s+"
    r"(?:say|said|describe|discuss|talk|mention|write)\w*(?:\s+(?:about|on|regarding|of))?"
    r"|^\W*(?:(?:and|so|ok(?:ay)?)\W+)?(?:is\s+there\s+)?(?:anything|something|any\s+mention|mentions?)\s+"
    r"(?:about|on|regarding|of)"
    r")")
_ASKED_OF_THREAD = re.compile(_ASKING_FILING + r"\s+(?:the\s+|its\s+|their\s+)?$", re.I)
_ASKED_ABOUT = re.compile(_ASKING_FILING + r"\s+(?P<about>\S.*)$", re.I)


def asked_of_thread(outside: str, matches, thread_tickers) -> set[int]:
    """Indexes of `matches` (companies, covered or not) the message asks the thread's own filing about
    (see _ASKED_OF_THREAD): every company it names is such a name and none is the thread's own.

    Why: in a thread about AMD's risks, "does it say anything about Nvidia?" asks what AMD's 10-K says
    of Nvidia; read as a switch it answered Nvidia's own filing, or refused Nvidia when not held."""
    named = [i for i, m in enumerate(matches) if m.kind in ("company", "not_covered")]
    if not named:
        return set()
    if any((m.company is not None and m.company.ticker in thread_tickers)
           or not _ASKED_OF_THREAD.search(outside[: m.start]) for m in (matches[i] for i in named)):
        return set()
    return set(named)


# "which is riskier?", "who's more exposed?", "which one says more about China?", "whose risks are worse?":
# after a prose answer, a choice among the thread's companies, which each one's filing answers on the
# thread's topic (Footnote quotes, the reader judges)
_CHOOSES = re.compile(r"^\W*(?:(?:and|so|ok(?:ay)?|then|but|now|overall)\W+)*(?:which|who|whose)\b")
# the words that only compare ("riskier", "more", "better"): no subject to search for
_COMPARATIVE = re.compile(r"\b(?:more|less|most|least|better|worse|best|worst|bigger|biggest|larger|largest|greater|"
                          r"greatest|higher|highest|lower|lowest|safer|safest|stronger|strongest|weaker|weakest|"
                          r"[a-z]+(?:ier|iest))\b")
# a choice that asks which is at more risk: the risk factors tell it first
_AT_RISK = re.compile(r"\b(?:risk\w*|expos\w+|vulnerab\w+|depend\w+|relian\w+|reliant|threat\w*|safe\w*)\b")


def chooses_among(low: str) -> bool:
    """The message chooses among companies ("which is riskier?"); `low`: lowercase."""
    return bool(_CHOOSES.search(low))


def choice_subject(low: str) -> tuple[str, bool]:
    """What a choice among the thread's companies adds to its topic (no comparative: "which one says more
    about pricing?" -> "pricing"), and whether it asks which is at more risk (the risk factors read first)."""
    at_risk = bool(_AT_RISK.search(low))
    text = _COMPARATIVE.sub(" ", _CHOOSES.sub(" ", _AT_RISK.sub(" ", low)))
    return " ".join(w for w in own_subject(text) if w not in _RANKING), at_risk


def latest_for_newcomers(plan, prev, directory) -> None:
    """Put the companies a prose reply brings into the thread ("what about AMD?" after Amazon's fiscal 2024
    10-K) whose filings hold neither the thread's year nor the next one (which discusses it) at the latest
    fiscal year each has a 10-K for (`plan.company_years`); a reply about such companies alone reads no
    filing of the thread's by its year (`as_of_filing_year`).

    Why: the year was the thread's, said of another company; refusing AMD for want of a fiscal 2024
    10-K answers nobody's question, while its latest 10-K (named in the answer) is what was asked of it."""
    asked = list(plan.fiscal_years or []) or ([plan.as_of_filing_year] if plan.as_of_filing_year else [])
    if prev is None or plan.latest or not asked:
        return
    years = dict(plan.company_years or {})
    moved = []
    for ticker in plan.tickers:
        if ticker in prev.tickers or ticker in (prev.thread_tickers or []) or ticker in years:
            continue
        company = directory.get(ticker)
        held = directory.years.get(company.cik, []) if company is not None else []
        if held and not any(y in held or y + 1 in held for y in asked):
            years[ticker] = [max(held)]
            moved.append(ticker)
    plan.company_years = years
    if moved and set(moved) == set(plan.tickers):
        plan.fiscal_years, plan.as_of_filing_year = sorted({y for t in moved for y in years[t]}), None


def asked_about(low: str) -> str | None:
    """What a reply asks the thread's filing about ("does it say anything about tariffs?" -> "tariffs"),
    None when it asks nothing so. Why: the thing named is what the reply asks for; searched beside the
    thread's topic it was outweighed by it, and the answer quoted the topic again."""
    m = _ASKED_ABOUT.search(low)
    return m.group("about").strip(" ?.!") if m else None


# "compare that with ford", "and vs dow?": the last word a comparison is made with, as typed
_COMPARED_WORD = re.compile(r"\b(?:compar\w*|stacks?\s+up|vs\.?|versus|against)\s+(?:(?:it|that|this|them)\s+)?"
                            r"(?:(?:with|to|against)\s+)?([a-z][\w&'-]*?)(?:['\u2019]s)?\W*$", re.I)


def compared_word(outside: str) -> str | None:
    """The one word a reply compares the thread's subject with ("compare that with ford" -> "ford")."""
    m = _COMPARED_WORD.search(outside)
    return m.group(1) if m else None


# A question's form: a question mark, or an opening question word ("what's happening there", "is that shrinking")
_QUESTION = re.compile(r"\?\s*$|^\W*(?:(?:and|so|but|ok(?:ay)?|hmm+|wow)\W+)*(?:what|what's|whats|which|how|how's|hows|why|"
                       r"where|who|is|are|was|were|does|do|did|has|have|any)\b")
_TO_US = re.compile(r"\b(?:you|your|yours|yourself|u|ur|footnote)\b")


# What a refusal of stock prices or valuations is about: a market of the company's business is none of it
PRICED = re.compile(r"\b(?:pric\w*|stocks?|shares?|valu\w*|worth|cap|capitali[sz]ation|trad\w*|buy|sell|invest\w*|"
                    r"ticker|quote|yield|multiple|p/?e)\b")


def asks_of_thread(low: str, thread, written, *, pointing: bool = True) -> str | None:
    """The message is a question put about the thread's subject: it names no company of its own (the caller
    checks), speaks not to Footnote, and either points back at what the thread discussed ("what's happening
    there?", "is that shrinking?"; only when `pointing`) or says its subject in a phrase the thread's companies'
    filings write (`written(phrase)`: "how is the gaming market changing?" after Nvidia's gaming revenue).

    Why: such a message alone reads like small talk ("what's happening?") or an off-topic question (a
    market, not a company); in a thread about a company's figure or filing it asks that filing, and its
    words decide which part. Returns the phrase the filings write ("gaming market"), "" for a question that
    only points back, None for no such question."""
    if thread is None or thread.route != "domain" or not thread.tickers:
        return None
    said = ACKNOWLEDGED.sub("", low).strip()
    if not said or not _QUESTION.search(said) or _TO_US.search(said):
        return None
    # "and year to date?", "what about the first half?" after a quarter's figure: a period asked of the thread's
    # figure, never a subject; the filings write "year to date" too, so read as a phrase it left the figure behind
    own = _possessive_free(own_subject(QUARTERLY.sub(" ", said)))
    # the subject's words as the filings would put them: "housing market" of "what is the housing market doing?"
    spans = [" ".join(own[i:i + n]) for n in range(len(own), 0, -1) for i in range(len(own) - n + 1)]
    spans = [p for p in spans if " " in p] if len(own) > 1 else spans
    phrase = next((p for p in spans[:6] if written(p)), None)
    if phrase is None and pointing and points_back(said):
        return ""
    return phrase


# "in those years", "for both years", "each year": every year the thread showed its figures for, not only the last
THOSE_YEARS = re.compile(r"\b(?:(?:those|these|both|the\s+two|all\s+(?:those|these|three|the)|each\s+of\s+(?:those|these|the))"
                         r"\s+(?:fiscal\s+)?years|(?:each|either|every)\s+(?:fiscal\s+)?year)\b")


def years_shown(prev, low: str) -> list[int]:
    """The years a reply pointing at "those years" means: the thread's last years and the ones it showed the same
    companies at just before (`Plan.years_before`), when that adds a year; else none.

    Why: "meta revenue 2023", "and 2024?", "capex in those years?" asks both years, though the last plan held one."""
    if prev is None or not THOSE_YEARS.search(low) or not prev.years_before or not prev.fiscal_years:
        return []
    shown = sorted({*prev.fiscal_years, *prev.years_before})
    return shown if len(shown) > len(set(prev.fiscal_years)) else []
