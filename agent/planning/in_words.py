"""Figure words asked in words: a question whose form asks what the filing says, or a line lookup by
words that are no line's name, is answered from the filing's prose, never as a figure it did not ask.

Why a module of its own: both are a last look at a finished plan (agent.planning.rules turns the
plan into a prose search here), with their own patterns for the form of such a question.
"""

from __future__ import annotations

import re

from agent.planning.companies import CompanyDirectory
from agent.planning.company_mentions import strip_for_query
from agent.planning.movers import not_a_line
from agent.planning.plan import MAX_CHARS, Plan
from agent.planning.prose_route import asks_in_words, modal_cause, order_items
from agent.planning.scope import strip_quotes
from agent.planning.topics import expand_query
from agent.planning.words import NUMERIC_INTENTS


# "how does Netflix account for content amortization?", "how does Ford fund its pension plans?": how a
# company does something is told in words (its policies, its MD&A), whatever figure words it names
_HOW_IN_WORDS = re.compile(
    r"^\W*how\s+(?:does|do|did|is|are|has|have)\s+(?:[\w&.'-]+\s+){1,4}?(?:account|recogni[sz]e|treat|measure|value|"
    r"determine|estimate|allocate|manage|fund|finance|describe|explain|discuss|classify|disclose|assess|test|hedge|"
    r"mitigate|approach|handle|define|view|protect|deploy|prioriti[sz]e)\w*\b")
# "what are the risks to Mastercard's cross-border revenue?", "where does Visa get most of its revenue?",
# "how is Boeing addressing its cash flow problems?": a description asked for, whatever figure it names
_DESCRIBED = re.compile(
    r"^\W*(?:what|which)\s+(?:are|were|is|was)\s+(?:the\s+|its\s+|their\s+)?(?:main\s+|key\s+|biggest\s+|major\s+|"
    r"primary\s+|largest\s+)?(?:risks?|components?|drivers?|uses|sources|reasons?|factors?|challenges?|headwinds?|"
    r"tailwinds?|priorities|trends?|threats?|pressures?|elements?|parts)\s+(?:of|to|for|in|behind|on|affecting)\b"
    r"|^\W*where\s+(?:does|do|did)\s+(?:[\w&.'-]+\s+){1,4}?(?:get|make|earn|generate|derive|spend|invest)\b"
    r"|^\W*how\s+(?:is|are|was|were|has|have)\s+(?:[\w&.'-]+\s+){1,4}?(?:address|tackl|handl|deal|respond|mitigat|"
    r"fix|improv|turn)\w*"
    r"|^\W*how\s+(?:sensitive|exposed|dependent|reliant|vulnerable|resilient)\b"
    r"|^\W*(?:talk|walk|take)\s+me\s+through\b")


# a yes-no question that compares a figure with an amount or another figure asks for the figure
_AMOUNT_CHECK = re.compile(r"\d|\b(?:above|below|higher|lower|more|less|over|under|than|exceed\w*|bigger|smaller)\b")


def said_in_words(plan: Plan, text: str, directory: CompanyDirectory, previous: Plan | None) -> Plan:
    """A question whose form asks what the filing says (agent.planning.prose_route.asks_in_words: "what
    will drive UnitedHealth's medical cost ratio higher?", "is Coca-Cola worried about sugar taxes?")
    is searched in the filing's prose when its words make no figure the planner knows: a metric
    phrase it cannot name, a line named by words that are no line's name, a formula read into
    "might slow". Never a refusal for an unknown metric, never a figure for words it did not ask;
    when no passage answers, the prose path says so (no_grounding)."""
    low = strip_quotes(text).lower()
    described = bool(_DESCRIBED.search(low))
    if not plan.tickers or len(text) > MAX_CHARS or not (asks_in_words(low) or _HOW_IN_WORDS.search(low) or described):
        return plan
    refused = (plan.route == "refusal" and plan.refusal_reason == "unknown_metric"
               and "(in your formula)" not in (plan.refusal_detail or ""))
    known = {d["name"] for d in (previous.definitions if previous is not None else [])}
    unsaid = [k for k in plan.metrics if k.startswith(("line:", "dim:")) or (k.startswith("udf:") and k[4:] not in known)]
    figure = (plan.route == "domain" and plan.intent in NUMERIC_INTENTS and "metrics" not in plan.inherited
              and (bool(unsaid) or described or any(w.get("as") == "unaccounted" for w in plan.words)))
    if not (refused or figure):
        return plan
    if not (modal_cause(low) or _AMOUNT_CHECK.search(low) is None):
        return plan  # "is Apple's gross margin above 40%?": a figure, checked against the amount
    prose = Plan(route="domain", intent="qualitative", tickers=plan.tickers, fiscal_years=plan.fiscal_years,
                 latest=plan.latest or not (plan.fiscal_years or plan.as_of_filing_year),
                 year_offsets=plan.year_offsets, as_of_filing_year=plan.as_of_filing_year,
                 thread_tickers=plan.thread_tickers or plan.tickers, brand=plan.brand, words=plan.words,
                 definitions=[d for d in plan.definitions if d["name"] in known], inherited=plan.inherited)
    prose.items, prose.items_guessed = order_items(low, ["7", "1A"]), True
    outside = strip_quotes(text)
    prose.query = expand_query(strip_for_query(outside, directory.find(outside)))
    prose.probe = [k for k in plan.metrics if k.startswith("line:")]
    prose.slots = {**plan.slots, "metrics": "none: prose (the question asks what the filing says)"}
    return prose


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
    plan.items, plan.sub_queries = ["7", "8"], []
    quoted = strip_quotes(text)
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
