"""Meta, domain or refusal: what a message is, once its companies, metrics and topics are known.

Rules settle the clear cases; the nearest labelled exemplars (agent.planning.exemplars) settle the rest:

- A message that names its own subject (a covered company, a metric, a filing topic, a year, a
  "why") is a domain question, unless it is only a company and reads like a request for advice,
  a price or a forecast ("is Boeing stock a buy right now?").
- A message with no subject is whatever kind of message it most resembles: small talk, a question
  about Footnote, off-topic, or a domain follow-up ("rank them", "which of the two was higher?")
  that the thread's memory completes. Too little resemblance to anything leaves it to the planner,
  which refuses it for want of a company.
- The letters can mislead ("can you help me fix this python error?" reads like "can you help me?"),
  so a message with no subject and no company is also judged by meaning (exemplars.by_meaning) when
  the planning node lends the sentence model: a clear verdict by meaning (its kind leads the next by
  MEANING_MARGIN, an exemplar within MEANING_TOP) stands over the letters'; an unclear one leaves the
  letters' verdict, which has its own "don't know" (MIN_SCORE, MIN_TOP: the domain path).

Company names are masked before the comparison, so "tell me about Walmart" is judged as "tell me
about company", not by the letters of "Walmart".
"""

from __future__ import annotations

import re

from agent.planning.exemplars import META, Meaning, by_meaning, kind, nearest
from agent.planning.scope import filing_framed

MIN_SCORE = 0.2  # mean cosine of the agreeing neighbours: below it, nothing is alike enough
MIN_TOP = 0.4  # and the nearest exemplar itself must be this close
SUBJECT_REFUSAL = 0.3  # a company-only message needs a clearer likeness to be refused
MEANING_MARGIN = 0.3  # lead of the winning kind's share of the vote over the next's, for that verdict to stand
MEANING_TOP = 0.4  # and the nearest exemplar by meaning must be this close
SAYS_MORE = 0.5  # of the two judges' shares together (at most 2): a small-talk label that outranks "ack"
SAME_LETTERS = 0.8  # a topic-word message this close to a small-talk exemplar by its letters is that, with no model
SHORT, SHORT_TOP = 3, 0.2  # a message of a few words that resembles only small talk is small talk
# A message with no subject of its own that speaks to Footnote ("do you make mistakes?", "are your
# figures audited?") is about Footnote when that is what it resembles most, even faintly.
ADDRESSED_TOP = 0.3
ADDRESSED = re.compile(r"\b(?:you|your|yours|yourself|u|ur)\b")
REFUSAL_DETAIL = {
    "offtopic": "topics outside companies' 10-K filings",
    "forecast": "forecasts or predictions",
    "advice": "investment advice or opinions",
    "price": "stock prices or market valuations",
    "opinion": "opinions (I report what the filings say, not views of my own)",
}
# Words a verdict is asked in ("is he a good leader?", "would you trust them?", "is it well run?"):
# only a message that says one of them is read by meaning for a request for an opinion or advice,
# however clearly its company, person or topic makes it look like a question about a filing.
VERDICT_WORDS = re.compile(
    r"\b(?:good|great|bad|poor|terrible|awful|best|worst|better|worse|right|wrong|trust\w*|over(?:rated|paid|hyped)|"
    r"under(?:rated|paid)|job|competent|incompetent|smart\w*|admire|like|love|hate|opinion|rate|grade|judge|mistake|"
    r"genius|arrogant|impress\w*|deserv\w*|worth|buy|sell|invest\w*|well|badly|poorly)\b")
# Whom or what a verdict is passed on: the company's people, or its stock. "is Apple doing well in
# China?" passes none on them (its filing says how China sales went); "is the board doing its job?" does.
VERDICT_TARGETS = re.compile(
    r"\b(?:ceo|cfo|coo|chief|chair\w*|founder|management|managers?|leaders?|leadership|boss|board|executives?|"
    r"he|she|him|her|his|stock|shares|investment|investors?|valuation|price|priced|multiples?)\b")
# What a question about Footnote or a request for help with it speaks of: Footnote itself, its data,
# its answers, how to ask. "what's the best way to cook salmon?" shares the wording of "what's the
# best way to ask you something?" and none of these words, so it is not a question about Footnote.
FOOTNOTE_WORLD = re.compile(
    r"\b(?:you|your|yours|yourself|u|ur|footnote|bot|this|here|anyone|ask\w*|questions?|answers?|data\w*|sources?|"
    r"filings?|10-?ks?|10-?qs?|cit\w+|numbers?|figures?|compan(?:y|ies)|cover\w*|tickers?|years?|help\w*|examples?|"
    r"use|using|usage|start\w*|commands?|menu|xbrl|sec|edgar|md&a|item|annual|reports?|works?|model|ai|gpt|chatgpt|"
    r"human|person|real|accura\w+|trust\w*|reliab\w+|hallucinat\w*|mistakes?|errors?|links?|footnotes?|verif\w+|"
    r"check\w*|capabilit\w+|capable|able|possible|type|phrase|word|information|info|sectors?|firms?|updated?|current|"
    r"recent|live|store|try|begin\w*|ideas?|suggest\w*|tips?|lost|new)\b")
ASKS = re.compile(r"\?|\b(?:what|how|which|why|who|when|where|tell|show|give|compare|and|now|next|also|then)\b")
SMALL_TALK = ("greeting", "thanks", "goodbye", "ack")  # need not speak of Footnote: "hi", "cheers", "brb"
META_INTENT = {"greeting": "greeting", "thanks": "thanks", "goodbye": "goodbye", "ack": "ack", "help": "help",
               "about": "about", "coverage": "coverage"}


def masked(text: str, spans: list[tuple[int, int]]) -> str:
    """The text with each company mention replaced by the word "company"."""
    out = text
    for start, end in sorted(spans, reverse=True):
        out = out[:start] + "company" + out[end:]
    return out


def message_kind(text: str, *, company_only: bool, subject: bool, covered: bool = True,
                 thread: bool = False, unanchored: bool = False, topic_only: bool = False) -> tuple[str, str | None]:
    """("meta", intent) | ("refuse", detail) | ("domain", None) | ("unknown", None).

    `text`: the message with company names masked. `subject`: it names a metric, topic, year or
    cause of its own (a domain question whatever it resembles). `company_only`: its only subject
    is a company; `covered`: one we hold (an uncovered "NYC" in "the best restaurant in NYC" may
    be off-topic too). `thread`: the thread has a plan a reply may refer to.

    In a thread, a message the letters leave to the domain path ("explain", "ok and the other
    company?") stays there: the thread's memory may complete it, and the meaning of a fragment
    is no better a guess than its letters.

    `unanchored`: its subject names no company and no figure, only a topic, a year or a name we do
    not hold ("plan my vacation to Italy", "where will the S&P 500 close this year?"). Outside a
    thread such a message could only be refused for want of a company; when its meaning is clearly
    a refusal's, it is refused for that instead. A figure's question never gets here (no model).

    `topic_only`: its one subject is a filing topic word, and no company, figure, year or cause
    ("are you an ai?", "ai is wild these days"): a topic word is said in small talk too, so a message
    that clearly reads as small talk or a question about Footnote, by meaning and by its letters
    alike, is that."""
    if subject:
        asked = asks_verdict(text) if not thread else None
        if asked:  # "is Robert Ford a good CEO?": an opinion, whichever company the surname resolves to
            return asked
        if unanchored and not thread and not filing_framed(text):  # "what does Acme expect?" is no forecast
            meaning = by_meaning(text)
            if meaning is not None and meaning.kind == "refuse" and clear(meaning):
                return verdict(meaning)
            chat = small_talk(text, meaning) if topic_only else None
            if chat:
                return "meta", chat
        return "domain", None
    letters = _by_letters(text, company_only=company_only, covered=covered)
    if company_only:
        # "is Boeing a buy?": the company is masked, what is left is read by meaning only when it
        # says a verdict of the company's people or stock ("is Walmart worth it at this price?")
        asked = asks_verdict(text) if letters[0] != "refuse" and not thread else None
        return asked or letters
    if thread and letters[0] in ("domain", "unknown"):
        return letters
    meaning = by_meaning(text)
    if meaning is None:
        return letters
    if not clear(meaning):
        return letters  # the letters' verdict, with its own "don't know"
    if meaning.kind != letters[0]:
        return verdict(meaning)  # "can you help me fix this python error?": off-topic, though worded like "help"
    if letters[0] == "meta":
        return "meta", META_INTENT[_agreed_label(text, meaning)]
    return letters


def refusal_by_meaning(text: str) -> str | None:
    """The refusal detail when a message with no subject of a filing's reads clearly, by meaning, as
    a request to refuse (off-topic, advice, a forecast, a price), else None."""
    meaning = by_meaning(text)
    if meaning is not None and meaning.kind == "refuse" and clear(meaning):
        return REFUSAL_DETAIL[meaning.label]
    return None


def asks_verdict(text: str) -> tuple[str, str] | None:
    """("refuse", detail) when a message with a subject of its own asks, by its meaning, for Footnote's
    verdict: an opinion of a company or its people, or advice on its stock. The rules
    (agent.planning.scope.JUDGEMENT) catch the common wordings before any company is looked up; this
    catches the rest by the labelled exemplars, but only for a message that says a verdict word
    (VERDICT_WORDS) of the company's people or its stock (VERDICT_TARGETS) and does not ask what a
    filing states, and only on a clear verdict by meaning: "is Boeing's debt a concern?" has no
    verdict word, "is Apple doing well in China?" judges no one, "what does Ford say about its best
    trucks?" asks the filing. The sentence model alone tells "doing well" from "a good investment"
    poorly, hence the words."""
    if not (VERDICT_WORDS.search(text) and VERDICT_TARGETS.search(text)) or filing_framed(text):
        return None
    meaning = by_meaning(text)
    if meaning is None or meaning.kind != "refuse" or meaning.label not in ("opinion", "advice") or not clear(meaning):
        return None
    return verdict(meaning)


_UNSET = object()


def small_talk(text: str, meaning=_UNSET) -> str | None:
    """The META intent when both judges read the whole message, words and names as written, as
    small talk or a question about Footnote: for a message whose only hold on a company or a topic
    is a word chat uses too ("gm everyone!", "good morning Sam", "are you an ai?", "Happy Friday!").
    The meaning must be clear and the letters agree; with no sentence model lent, only a near copy
    of a small-talk exemplar (SAME_LETTERS) is. None otherwise."""
    if meaning is _UNSET:
        meaning = by_meaning(text)
    if meaning is not None and not (meaning.kind == "meta" and clear(meaning)):
        return None
    letters = _by_letters(text, company_only=False, covered=True)
    if letters[0] != "meta":
        return None
    if meaning is not None:
        return META_INTENT[_agreed_label(text, meaning)]
    found = nearest(text)
    return letters[1] if found is not None and found.top >= SAME_LETTERS else None


def _agreed_label(text: str, meaning: Meaning) -> str:
    """Both judges call it small talk: the label with the larger share of both votes together (of
    2). The letters read typos ("helo" is a greeting), the meaning reads words. An acknowledgement
    is what a message is when it says nothing more: a greeting, thanks or goodbye with a fair share
    (SAYS_MORE) is what it says ("alright, see ya" is a goodbye, though nearest "alright")."""
    found = nearest(text)
    shares: dict[str, float] = {}
    for label, share in (found.shares if found else ()) + meaning.shares:
        if label in META:
            shares[label] = shares.get(label, 0.0) + share
    if not shares:
        return meaning.label
    more = [lb for lb in shares if lb != "ack" and shares[lb] >= SAYS_MORE]
    return max(more or shares, key=lambda lb: shares[lb])


def clear(meaning: Meaning) -> bool:
    """The verdict by meaning is clear: its kind leads the next by a margin, and an exemplar is close."""
    return meaning.margin >= MEANING_MARGIN and meaning.top >= MEANING_TOP


def verdict(meaning: Meaning) -> tuple[str, str | None]:
    if meaning.kind == "meta":
        return "meta", META_INTENT[meaning.label]
    if meaning.kind == "refuse":
        return "refuse", REFUSAL_DETAIL[meaning.label]
    return "domain", None


def _by_letters(text: str, *, company_only: bool, covered: bool) -> tuple[str, str | None]:
    """The verdict of the character n-gram exemplars alone."""
    found = nearest(text)
    if found is None:
        return "unknown", None
    if (found.label in META and found.label not in SMALL_TALK and len(text.split()) > SHORT
            and not FOOTNOTE_WORLD.search(text)):
        return "unknown", None  # worded like a question about Footnote, about something else
    if company_only:
        if (found.label in ("thanks", "goodbye") and found.score >= MIN_SCORE and found.top >= MIN_TOP
                and not ASKS.search(text)):
            return "meta", META_INTENT[found.label]  # "bye, thanks for the Nvidia info": asks nothing of it
        rest = [w for w in text.split() if w.strip("?!.,'s") != "company"]
        refusable = ("advice", "price", "forecast", "opinion") + (() if covered else ("offtopic",))
        verdicts = ("advice", "opinion")  # one family: a view asked for, on the stock or on the company
        score = _score_of(found, verdicts) if found.label in verdicts else found.score
        if found.label in refusable and score >= SUBJECT_REFUSAL and len(rest) >= 3 and not filing_framed(text):
            # the words beside the company must lean to a refusal on their own too: "Broadcom VMware
            # integration costs" resembles "do you like the company?" only by the masked "company"
            alone = nearest(" ".join(rest))
            if alone is None or kind(alone.label) == "refuse":
                return "refuse", REFUSAL_DETAIL[found.label]
        return "domain", None
    if found.score < MIN_SCORE or found.top < MIN_TOP:
        if found.label in META and len(text.split()) <= SHORT and found.top >= SHORT_TOP:
            return "meta", META_INTENT[found.label]  # "okie dokie": short, and small talk is all it resembles
        if found.label in ("about", "help") and found.top >= ADDRESSED_TOP and ADDRESSED.search(text):
            return "meta", META_INTENT[found.label]
        if found.label in META and found.kind_score >= MIN_SCORE and found.top >= MIN_TOP:
            # "is this thing on?": its neighbours split between greeting, help and about, none alike
            # enough alone, but all of them small talk; the reply is the likeliest one's
            return "meta", META_INTENT[found.label]
        return "unknown", None
    if found.label in META:
        return "meta", META_INTENT[found.label]
    if found.label in REFUSAL_DETAIL:
        return "refuse", REFUSAL_DETAIL[found.label]
    return "domain", None


def _score_of(found, labels: tuple[str, ...]) -> float:
    """The neighbours' vote for any of `labels` together (the mean cosine, as Nearest.score): "is
    Nike a buy here?" is near advice and opinion exemplars both, both asking for a view."""
    shares = dict(found.shares)
    own = shares.get(found.label) or 1.0
    return found.score * sum(shares.get(lb, 0.0) for lb in labels) / own


# "can you help me fix this python error?": a request for help that names its task
_TASK = re.compile(r"\bhelp\s+(?:me\s+)?(?:to\s+|with\s+)?(?P<task>\w.*)$")


def help_with(text: str) -> str | None:
    """The refusal detail when a request for help names a task outside Footnote's work, judged by
    what the task resembles (the help words alone would make any request look like "help")."""
    m = _TASK.search(text)
    if not m or len(m.group("task").split()) < 2:
        return None
    found = nearest(m.group("task"))
    if found and found.label in REFUSAL_DETAIL and found.score >= MIN_SCORE and found.top >= SUBJECT_REFUSAL:
        return REFUSAL_DETAIL[found.label]
    # by meaning, the whole request: it asks for something, so only which kind it leans to counts
    # (its margin), not how close an exemplar is ("help me with my chemistry lab report")
    meaning = by_meaning(text)
    if meaning is not None and meaning.kind == "refuse" and meaning.margin >= MEANING_MARGIN:
        return REFUSAL_DETAIL[meaning.label]
    return None
