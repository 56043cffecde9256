"""The Plan: what both planners (rules and model) return, as one closed, typed model."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from agent.answer import RefusalReason

Route = Literal["meta", "domain", "refusal"]
Intent = Literal[
    "greeting",  # meta
    "thanks",  # meta
    "help",  # meta
    "coverage",  # meta: which companies / years
    "goodbye",  # meta
    "ack",  # meta: "ok", "got it"
    "about",  # meta: what Footnote is, where its data comes from, how it cites
    "numeric",  # one company, one year, one metric (or a few metrics)
    "derived",  # a formula over facts: margins, growth, ratios
    "compare",  # several companies, one metric and year
    "trend",  # one company, several years
    "qualitative",  # prose from Items 1, 1A, 1C, 7, 7A, 8
    "refuse",
]


class Plan(BaseModel):
    route: Route
    intent: Intent
    tickers: list[str] = Field(default_factory=list)  # resolved, covered or not
    fiscal_years: list[int] = Field(default_factory=list)  # the company's own fiscal-year labels
    latest: bool = False  # "latest", "most recent", or no year given: resolved per company in fetch
    # with latest=True: offsets from the company's latest fiscal year ("last year" -> [-1],
    # "past three years" -> [-2, -1, 0]); empty means [0]
    year_offsets: list[int] = Field(default_factory=list)
    metrics: list[str] = Field(default_factory=list)  # keys of agent.retrieval.concepts.METRICS / agent.retrieval.finance.FORMULAS
    items: list[str] = Field(default_factory=list)  # 10-K Items to search, e.g. ['1A']
    # the Items are the planner's default for a question asking what a filing says that no topic word
    # or form routes ("what does X say about ..." to MD&A, "tell me about X" to the business and MD&A):
    # retrieval prefers them instead of bounding the search by them (agent.retrieval.retrieve)
    items_guessed: bool = False
    as_of_filing_year: int | None = None  # "per the FY2024 10-K": answer from that filing
    query: str = ""  # retrieval query, abbreviations expanded
    sub_queries: list[str] = Field(default_factory=list)  # compound questions, 2-3 parts
    refusal_reason: RefusalReason | None = None
    refusal_detail: str | None = None  # e.g. the unknown metric or company as the user wrote it
    candidates: list[str] = Field(default_factory=list)  # ambiguous_company: tickers to choose from
    inherited: list[str] = Field(default_factory=list)  # fields taken from the thread's memory
    # where each slot came from when a follow-up merged onto the thread's last plan (agent.planning.followups)
    slots: dict[str, str] = Field(default_factory=dict)
    # companies the thread has discussed, most recent last: "what about 2023 for both?"
    thread_tickers: list[str] = Field(default_factory=list)
    # each thread company's own fiscal years, when a comparison built from several turns holds them at
    # different years ("Nvidia FY2025", "and Alphabet 2024", "which is bigger?"): fetch reads each
    # company at its own years instead of the one shared list (set in agent.planning.rules from the
    # thread's memory, which agent.memory.remember fills from what each turn resolved)
    company_years: dict[str, list[int]] = Field(default_factory=dict)
    # the question asked what caused or drove something ("what drove Boeing's loss?"): a reply that hands
    # it to another subject ("what about Intel's revenue decline?") asks the same of that one
    asks_cause: bool = False
    # the years the thread's previous figure was for, when this message moved to other years of the same
    # companies ("and fiscal 2024?"): "growth between them?" next is the change between the two
    years_before: list[int] = Field(default_factory=list)
    # how the planner accounted for each word of the question (agent.planning.words): [{word, as}]
    words: list[dict] = Field(default_factory=list)
    # formulas the user defined in this thread (agent.planning.formula_definitions): {name, tree, unit, formula};
    # asked for as metrics 'udf:<name>'
    definitions: list[dict] = Field(default_factory=list)
    # a prose-routed question whose words may all be one line item's label ("other income, net"):
    # `line:` keys fetch tries against the company's labels before searching prose
    probe: list[str] = Field(default_factory=list)
    # the question is a bare figure phrase (no topic, no "what does it say"): a fact filed under the
    # taxonomy's own name for those words answers it too, not only a row the statements print
    probe_standard: bool = False
    # the period the question dates ("at June 30, 2023", "in the second quarter"): the probe's figure is
    # that period's when a printed row answers, while the passage search keeps its own period
    probe_period: dict | None = None
    # a reply's one new word ("what about samsung?") that may be a line or segment of the thread's
    # company: when the company reports none by that name, the word names a company not known here
    lone_name: str | None = None
    # the refusal the lone word had as a name ({reason, detail}: "Americas (AMX)" not covered), given when the
    # thread's company reports no line or member by it (agent.planning.thread_members.member_reply)
    lone_refusal: dict | None = None
    # a prose thread's topic a figure reply may be about ("Reality Labs" for "how big was the operating loss?"):
    # the figure of the member it names, when the company tags exactly one (agent.retrieval.topic_members)
    member_topic: str | None = None
    # a quarter, half, year to date, trailing twelve months or quarter-end date (agent.planning.quarters):
    # resolved per company to exact periods in agent.retrieval.quarter_figures; None means whole fiscal years
    period: dict | None = None
    # what a prose thread is about, in the user's words ("SRS acquisition", "talc litigation"): a
    # follow-up that points back ("how much did it cost?", "any risks there?") searches it too
    topic: str = ""
    # the part of `topic` the thread carried in (or the topic itself when the question started one): a
    # sibling reply ("and how many people were affected?" after "how much did it cost?") searches the
    # thread's subject with its own words, not the previous reply's own words too
    subject: str = ""
    # sentences the thread has already quoted, when the message asks for more ("say more", "anything
    # else?"): the composer quotes the next best ones instead (set from the thread's memory, agent.planning.node)
    quoted: list[str] = Field(default_factory=list)
    # the company was named through a brand its filings name most (agent.planning.brands):
    # {"word": as the user wrote it, "ticker", "name"}, said in the answer
    brand: dict | None = None
    # how each company word of the message was read, for the trace: [{"word", "ticker", "via"}] ("ticker", "name",
    # "alias", "typo", "brand", "subject", ...), and [{"word", "via": "word"}] for a ticker read as an everyday word
    companies_read: list[dict] = Field(default_factory=list)
    # a figure the table could not map, searched in the filing's prose because the question asks in words
    # (agent.planning.in_words.prose_fallback): {reason, detail, words}; the refusal it would have had
    # stands unless a passage found names every one of `words`
    unless_named: dict | None = None
    # a "why?" after a figure: the amounts the filing states that figure by ([value, unit]: its value and
    # its change, or a margin as a fraction), set by retrieval (agent.retrieval.causes.stated_amounts) for
    # the composer, which prefers the sentences stating them
    figure_amounts: list[list[str]] = Field(default_factory=list)
    # a calendar year asked of a company whose fiscal year ends a month into the next (agent.retrieval.fetch): the
    # fiscal year read instead, said beside each figure
    calendar_note: str | None = None
    planner: str = "rules"
    fallback: str | None = None  # why a model planner fell back to the rules planner (agent.planning.llm)


MAX_CHARS = 2000  # agent.service refuses longer questions first; the same limit here


def meta_plan(intent: str, tickers: list[str] | None = None) -> Plan:
    return Plan(route="meta", intent=intent, tickers=tickers or [])


def refusal_plan(reason: str, detail: str | None = None, **extra) -> Plan:
    return Plan(route="refusal", intent="refuse", refusal_reason=reason, refusal_detail=detail, **extra)
