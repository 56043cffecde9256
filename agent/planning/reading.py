"""What a message itself says, before anything is taken from the thread: the companies it names, the
measures, topics, Items, years and the kind of ask (a cause, a statement, growth).

Why a module of its own: the planner's flow (agent.planning.rules) reads the message once and then
decides; the reading is the one place that turns raw words into those parts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agent.planning.brands import find_brands
from agent.planning.companies import CompanyDirectory, CompanyMatch
from agent.planning.measures import (NEUTRAL_BEFORE, TOPIC_MASK, absolute_words, find_measures, growth_words,
                                     implied_measures, implies_change, ranked_axis)
from agent.planning.movers import asks_cause
from agent.planning.prose_route import CAUSE, asks_statement, topical_companies
from agent.planning.subject_names import subject_company
from agent.planning.thread import asked_as
from agent.planning.word_tickers import drop_word_tickers
from agent.planning.topics import NARROWED, QUAL_ASK, SECTION_ITEMS, WHY, route_items
from agent.planning.years import Years, parse_years
from agent.retrieval.concepts import METRICS, find_phrases, normalize
from agent.retrieval.finance import MEASURE_PHRASES


# a company named through its product or brand: the word stays in the question (a member, a topic)
NAMED_THROUGH = ("product", "brand")


@dataclass
class Reading:
    """What the message itself says, before anything is taken from the thread."""

    raw: str
    low: str  # lowercase, quotations removed
    matches: list[CompanyMatch]
    tickers: list[str]  # covered companies named
    measures: list[str]
    unmappable: str | None
    items: list[str]
    has_topic: bool
    why: bool
    growth: bool
    years: Years
    statement: bool = False  # asks what the filing states (agent.planning.prose_route.asks_statement)
    topic_items: tuple[str, ...] = ()  # the Items the question's own topic words point to, before any default
    absolute: bool = False  # the change in the metric's own unit ("in dollars"), not its growth rate
    aspect: bool = False  # an aspect of the thread's figure ("what are the headwinds?"; agent.planning.followups)
    kind: bool = False  # a kind of figure the thread's figure chose ("what was the margin?"; agent.planning.followups)
    choice: bool = False  # a choice among a prose thread's companies ("which is riskier?"; agent.planning.followups)
    words_not_tickers: tuple[str, ...] = ()  # tickers the message uses as everyday words (agent.planning.word_tickers)

    @property
    def prose_ask(self) -> bool:
        return self.why or self.statement or (self.has_topic and bool(QUAL_ASK.search(self.low))) \
            or bool(set(self.items) & SECTION_ITEMS)


_SPOKEN_US = re.compile(r"\b(tell|give|show|let|help|send|for|to|with)\s+us\b(?!\s*(?:revenue|sales|segment|market))",
                        re.I)


# A word that narrows profitability to a part of the business ("streaming profitability").
# a member "growing" with no figure named: "which segment grew fastest?", "which region grew the most in 2024?"
_GREW_ALONE = re.compile(r"\b(?:grew|grow|grows|growing|expanded|expand)\s+(?:the\s+)?(?:fastest|quickest|most|least|slowest|"
                         r"the\s+most|the\s+least)\b")
_NARROWED_PROFIT = re.compile(r"\b([a-z][\w-]*)\s+(?:profitability|profits?)\b")


def _without_named(text: str) -> str:
    """The text without the words a named measure's phrase took: "weighted average diluted shares
    outstanding" names its share count, and "shares ... outstanding" must not imply another one."""
    words = normalize(re.sub(r"_+", "x", text)).split()  # a masked company name stays one word
    for start, end, _ in find_phrases(" ".join(words), MEASURE_PHRASES):
        words[start:end] = ["_"] * (end - start)
    return " ".join(words)


def _in_measure(text: str, m: CompanyMatch) -> bool:
    """Whether a ticker-like match is a word of a metric or ratio name that runs through it ("implied
    ETR", "AR days", "EBITDA margin"): up to four words either side, read as one name."""
    before = re.findall(r"[\w&/%'.-]+", text[: m.start])[-4:]
    after = re.findall(r"[\w&/%'.-]+", text[m.end :])[:4]
    for i in range(len(before) + 1):
        for j in range(len(after) + 1):
            if normalize(" ".join([*before[i:], m.text, *after[:j]])) in MEASURE_PHRASES:
                return True
    return False


def figure_word(text: str, word: str) -> bool:
    """Whether `word`, where `text` first writes it, begins or runs through a figure's name ("Net" in "and Net
    income?"): a word of the figure asked for, never a company's name."""
    at = re.search(rf"(?<![\w]){re.escape(word)}(?![\w])", text)
    return at is not None and _in_measure(text, CompanyMatch("not_covered", word, at.start(), at.end()))


def _word_in_reply(m: CompanyMatch, thread: list[str]) -> bool:
    """A match in a thread's reply that is a filing topic of the thread's company, not another
    company: a single word typed in lowercase that matched only as a registrant's name and is a
    topic a 10-K discusses ("and liquidity?" is not Liquidity Services).

    Why: switching to a company the user never named refuses a question nobody asked. A company
    typed by a name that is no filing topic ("and target?", "and ford?") is still matched. (A brand
    word of another company's filings, "and headcount?", is left to agent.planning.brands.)"""
    if not m.text.islower() or " " in m.text.strip() or m.company is None or m.company.ticker in thread:
        return False
    return m.via == "registrant" and bool(route_items(m.text.lower())[1])


def _not_the_threads(m: CompanyMatch, text: str, thread: list[str]) -> bool:
    """A match in a thread's reply that names no company the user meant: a word the filings of a company the
    thread never discussed name as a brand ("and wearables?" after Tesla's competition is no question about
    Apple), or a word of a figure's name the reply asks for ("and Net income?" after Amazon's revenue: no
    company "Net"). A product we list by its maker ("Azure", "iPhone") still names its maker.

    Why: a word found as a brand only because one company's filings write it most names that company only when
    it is named or in the thread, and capitalisation alone says nothing in a chat reply; switching answered
    another company's filing, and a figure's word read as a registrant refused the figure as not covered."""
    owners = {c.ticker for c in ([m.company] if m.company is not None else m.candidates)}
    if not owners or owners & set(thread):
        return False
    return m.via == "brand" or (m.via in ("ticker", "registrant", "name") and _in_measure(text, m))


def read(raw: str, outside: str, low: str, directory: CompanyDirectory, thread: list[str] = ()) -> Reading:
    """What the message says. `thread`: the companies the thread has discussed; a word their own
    filings name is theirs to look up (a segment, a product), never a brand switching the thread."""
    # a company by name or ticker, else by a product we list, else by a brand its filings name (agent.planning.brands)
    found = directory.find(outside)
    matches = drop_word_tickers(outside, found)
    as_words = tuple(m.text for m in found if m not in matches)
    matches = matches or directory.find_products(outside) or subject_company(outside, directory) \
        or find_brands(outside, directory, thread)
    if thread:
        matches = [m for m in matches if not _word_in_reply(m, thread) and not _not_the_threads(m, outside, thread)]
    if any(m.kind == "company" for m in matches):  # "Alphabet's implied ETR", "Adobe AR days": a ratio's word
        matches = [m for m in matches if not (m.kind == "not_covered" and m.via == "ticker" and _in_measure(outside, m))]
    for i in topical_companies(outside, matches):  # "competition from Intel" in AMD's 10-K: a topic
        matches[i] = CompanyMatch("topic", matches[i].text, matches[i].start, matches[i].end, matches[i].company)
    unnamed = outside
    for m in sorted((m for m in matches if m.kind == "company" and m.via not in NAMED_THROUGH), key=lambda m: -m.start):
        # "Advanced Micro Devices revenue" is not "devices revenue"
        unnamed = unnamed[: m.start] + "_" * (m.end - m.start) + unnamed[m.end :]
    unnamed = _SPOKEN_US.sub(r"\1", unnamed)  # "tell us Apple's net income": the reader, not the country
    named_out = re.sub(r"\s+", " ", unnamed.lower().replace("\u2019", "'")).strip()
    measures, unmappable = find_measures(TOPIC_MASK.sub(" ", unnamed),
                                         named_company=any(m.kind == "company" for m in matches))
    narrowed = _NARROWED_PROFIT.search(unnamed.lower())
    if narrowed and narrowed.group(1) not in NEUTRAL_BEFORE:
        # "e-commerce profitability", "streaming profitability": a business's, told in MD&A; the
        # company's net income would answer another question
        unnamed = unnamed[: narrowed.start()] + " " * (narrowed.end() - narrowed.start()) + unnamed[narrowed.end() :]
    if not measures:  # "how much operating income did the segment bring in": the named figure, not its sales too
        measures += [k for k in implied_measures(_without_named(unnamed)) if k not in measures]
    # the topic is read without the companies' names: "C3.ai" names a company, not AI as a subject
    items, has_topic = route_items(named_out)
    # "what pushed revenue up?", "how much did the strike cost them?": a cause, asked with a verb
    why = bool(WHY.search(low) or CAUSE.search(low)) or asks_cause(low, unnamed.lower())
    norm = normalize(outside)
    growth = (growth_words(norm) or implies_change(norm)) and not why
    reading = Reading(raw, low, matches, [m.company.ticker for m in matches if m.kind == "company"], measures,
                      unmappable, items, has_topic, why, growth, parse_years(outside, growth=growth),
                      statement=asks_statement(low), absolute=growth and absolute_words(norm),
                      topic_items=tuple(items), words_not_tickers=as_words)
    if reading.measures and NARROWED.search(low):
        # "how much did the 53rd week add to sales?": a slice no fact reports, told in MD&A
        reading.measures, reading.has_topic = [], True
        reading.items = ["7", *[i for i in reading.items if i != "7"]]
    axis = ranked_axis(low) if not reading.why else None
    bases = list(dict.fromkeys(base_metric(k) for k in reading.measures))
    if axis and len(bases) == 1 and bases[0] in METRICS and not reading.unmappable:
        # "which segment grew revenue fastest?": the metric by that axis, each member's figure (or growth)
        reading.unmappable = f"{asked_as(bases[0])} by {axis}"
        reading.measures = []
    elif axis and not bases and not reading.unmappable and reading.growth \
            and _GREW_ALONE.search(low):
        # "which segment grew fastest?": a business grows by its sales, the one figure every member reports
        reading.unmappable = f"revenue by {axis}"
    if reading.unmappable and reading.prose_ask:
        # "why did iPhone revenue fall?": prose about a narrower figure, which MD&A discusses
        reading.measures, reading.unmappable = [], None
        reading.items = reading.items or ["7"]
    return reading


def base_metric(key: str) -> str:
    """The metric a growth or change formula is of ('revenue_growth' -> 'revenue'), else the key."""
    for suffix in ("_growth", "_change"):
        if key.endswith(suffix) and key[: -len(suffix)] in METRICS:
            return key[: -len(suffix)]
    return key
