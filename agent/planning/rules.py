"""The deterministic planner: a chat message (and the thread's last plan) in, a Plan out.

No model and no fuzzy matching of metrics: companies come from the CompanyDirectory, metrics and
formulas from exact phrases (agent.retrieval.concepts, agent.retrieval.finance), years from agent.planning.years, scope
from agent.planning.scope. What the message leaves out (company, years, metric) is taken from the
previous plan and named in `Plan.inherited`, so "and R&D?" or "what about fiscal 2023?" work.

This module is the planner's flow; its steps live in modules named for them: the message's reading
(agent.planning.reading), its corrections (corrections), company mentions (company_mentions), the
thread (thread), the years (plan_years), the prose search (prose_search), growth over a span
(changes), the user's formulas (defined_formulas), the word accounting of a figure question
(word_accounting) and the last look for a question asked in words (in_words).
"""

from __future__ import annotations

import re
import unicodedata

from agent.planning.asides import aside_words, set_aside
from agent.planning.brands import (covered_by_word, filings_term, registrant_not_theirs, uncovered_registrant, writes_phrase,
                                   written_by)
from agent.planning.changes import spanned_changes, year_of_change
from agent.planning.companies import CompanyDirectory, CompanyMatch
from agent.planning.company_words import ACRONYMS, NON_REGISTRANTS, english_words
from agent.planning.company_mentions import (POSSESSIVE_NAME, another_company, class_ticker, guess_company_text,
                                             listed_company, non_registrant,
                                             named_unknown_company, names_as_written, names_the_company, proper_as_written, registrant_named,
                                             owned_units, owners_as_written, uncovered_mentions, unknown_owner, weak_mention,
                                             whole_name)
from agent.planning.word_tickers import drop_word_tickers
from agent.planning.corrections import (LAYOUT, cover_page, corrected, NEGATED, SPELLED_AMPERSAND, WHOLE_FIGURE,
                                        ampersand, without_judgement)
from agent.planning.convention_replies import convention_reply
from agent.planning.defined_formulas import (INSTRUCTED, dash_defined, computed_when_asked, summed_over_years, summed_span, eps_kind, to_parent, with_defined_parts, as_balance_average, as_said, averaged_balance,
                                             averaged_over_years, averaged_span,
                                             balance_convention, given_name, margin_of_defined, name_aside,
                                             names_more_formulas,
                                             pronoun_named, unit_said, unmarked, without_names,
                                             without_restated_inputs)
from agent.planning.across import across_companies, relation_asked
from agent.planning.conventions import (borrowings_said, day_count, missing_divisor, on_borrowings, on_day_count,
                                        per_diluted_share, unapplied_average, without_balance_asides, without_borrowings,
                                        without_day_count, without_debt_defined, without_diluted, without_unadjusted)
from agent.planning.figure_kinds import kind_of_thread
from agent.planning.followups import (ACKNOWLEDGED, ACKNOWLEDGED_FIRST, ALSO, BY_HOW_MUCH, CHOOSING, FIGURE_CUE,
                                      PRICED, asks_of_thread, years_shown,
                                      FIGURE_INTENTS, GROUP, OF_ALL, POINTER, THAT_YEAR, about_the_company,
                                      asked_of_thread, aspect_of_thread, bare_ranking, chooses_among,
                                      asks_effect, asks_more, asks_response, asks_use, asks_what_happened, comments_on_thread,
                                      compared_kind, compared_name, figure_base, figure_only_topic, figure_reply,
                                      compared_word, gap_as_difference, includes_company,
                                      inherited_growth, latest_for_newcomers, lead_name, lead_subject,
                                      leads_reply, names_own_thing, only_ranks, own_subject, points_back, slot_sources, swaps_only,
                                      thread_topic, unknown_subject)
from agent.planning.industry_ratios import with_industry_definitions
from agent.planning.sourcing import without_sourcing
from agent.planning.formula_definitions import find_definition
from agent.planning.formula_parse import parse_expression
from agent.planning.operand_rows import INLINE
from agent.planning.formula_syntax import has_operator
from agent.planning.formula_trees import restate, unit_of
from agent.planning.inline_definitions import joined_rows
from agent.planning.inline_formulas import inline_formula, unread_numerator
from agent.planning.spoken_formulas import spoken_operators, to_defined, unread_restatement
from agent.planning.annual_only import annual_not_held
from agent.planning.effects import cause_named
from agent.planning.in_words import prose_instead, said_in_words
from agent.planning.no_amount import no_amount_asked, outlook_of, refused_thing
from agent.planning.measure_spelling import spelled_out as measure_spelled_out
from agent.planning.measures import absolute_words, counted_shares, growth_words, implied_measures
from agent.planning.members import member_asks
from agent.planning.placed import placed
from agent.planning.printed_dashes import dashes_kept
from agent.planning.plan import MAX_CHARS, Plan, meta_plan, refusal_plan
from agent.planning.plan_years import asked_years, filing_outlook, filing_statement, latest_covered_year, own_years
from agent.planning.prose_route import OUTLOOK, order_items, thread_topical
from agent.planning.prose_search import prose_search
from agent.planning.reading import Reading, figure_word, read
from agent.planning.reply_words import BACK_TO, INSTEAD, reply_spelled, subject_spelled
from agent.planning.restated import without_restatements
from agent.planning.route import (ASKS, FOOTNOTE_WORLD, REFUSAL_DETAIL, SMALL_TALK, help_with, masked, message_kind,
                                  refusal_by_meaning, small_talk)
from agent.planning.scope import (FORECASTS, HOW_TO_ASK, OFF_TOPIC_DETAIL, asks_artefact, asks_what_footnote_is, filed_price_risk,
                                  company_future, company_outlook, exposure, falls_due, filing_framed, forward_looking, greets_first,
                                  meta_intent, names_kept, opening_small_talk, out_of_scope, spelled_out,
                                  strip_quotes, thread_outlook)
from agent.planning.thread_members import member_reply, names_member_figure, part_probed
from agent.planning.thread import (ADDING, FOLLOWUP, SHARE, discussed, formula_of_thread, is_share_of_revenue,
                                   less_than_thread, modified_figure, over_thread, relative_to_thread, share_of_revenue,
                                   usable_previous)
from agent.planning.subject_swap import swapped_subject
from agent.planning.thread_prose import prose_reply
from agent.planning.topics import QUAL_ASK, STOPWORDS, expand_query, route_items
from agent.planning.word_accounting import (
    COMPARING,
    DEFAULT_COMPARE,
    FIGURE_ASK,
    account_words,
    dimension,
    names_thread_period,
    printable,
    unaccounted_words,
)
from agent.planning.words import statement_place
from agent.planning.years import FEW_YEARS, YEAR_WORDS, parse_years, year_end_dropped
from agent.retrieval.concepts import METRICS, find_phrases, normalize
from agent.retrieval.finance import FORMULA_PHRASES, FORMULAS, GROWTH_BASES, MEASURE_PHRASES, change_key, growth_key

__all__ = ["MAX_CHARS", "expand_query", "plan_rules", "route_items"]


# "by how much did operating income decrease?": a change asked of an amount with no unit said is answered in the
# amount's own unit and as a rate, both (a rate alone left the dollar change the question asked unstated);
# "the difference between its FY2025 and FY2024 net income": the change between the two years, never the two
# figures alone
_BY_HOW_MUCH_CHANGED = re.compile(r"\bby\s+how\s+much\b|\bhow\s+much\s+(?:did|has|have|had)\b.{0,80}?\b(?:increase|decrease|"
                                  r"decline|fall|fell|drop|rise|grow|change|shrink|go\s+(?:up|down))", re.I)
_RATE_SAID = re.compile(r"%|\b(?:percent|percentage|pct|rate)\b", re.I)  # "how much did revenue grow, in percent?"
_DIFFERENCE_BETWEEN = re.compile(r"\b(?:difference|gap|change)\s+(?:in\s+[\w\s&'-]{1,40}?\s+)?between\b", re.I)


def amount_and_rate(measures: list[str], low: str, years: list[int], tickers: list[str]) -> list[str]:
    """The measures with an amount's change beside its growth ("by how much"), or an amount's change for "the difference
    between" two consecutive years of one company; else the measures unchanged."""
    def amount(base: str) -> bool:
        return base in GROWTH_BASES and base in METRICS and METRICS[base].unit == "USD"
    if _BY_HOW_MUCH_CHANGED.search(low or "") and not _RATE_SAID.search(low or ""):
        out: list[str] = []
        for k in measures:
            base = k[: -len("_growth")] if k.endswith("_growth") else None
            out += [change_key(base), k] if base and amount(base) and change_key(base) not in measures else [k]
        return out
    if (_DIFFERENCE_BETWEEN.search(low or "") and len(tickers) <= 1 and len(years) == 2 and abs(years[1] - years[0]) == 1
            and measures and all(amount(k) for k in measures)):
        return [change_key(k) for k in measures]
    return measures

_TO_FOOTNOTE = re.compile(r"\b(?:you|your|yours|u|ur|footnote)\b|\bi\s+(?:ask|look\s+up|find)\b")
_OF_COMPANY = re.compile(r"(?:\b(?:for|about|on|of|from|regarding|with|re)\s+)?(?:\bthe\s+)?\bcompany(?:'s)?\b")


def about_us(r: Reading, chat: str, unnamed_low: str, in_thread: bool) -> str | None:
    """The META intent of a message that names a company only as what it asks Footnote about, or
    thanks it for: "which years do you hold for Tesla?", "what can I ask about Apple?", "cheers for
    the Intel numbers". None for anything asking a filing for something (a metric, a topic, a cause,
    a statement, a year not asked of Footnote's holdings).

    Why: a company name makes every message look like a domain question, and the domain path can only
    answer it with whatever the filing says about "sources" or "questions", or refuse it. The message
    with its company masked is judged by both exemplar judges (route.small_talk), as any message is;
    the company only chooses whose coverage to show. The name, masked, is left out with the word that
    ties it on ("thanks for the Intel numbers" is judged as "thanks numbers"), so that it is the
    words said to Footnote that resemble an exemplar, not the name's place in the sentence."""
    if not r.matches or r.measures or r.unmappable or r.has_topic or r.why or r.statement:
        return None
    if r.years.given and not re.search(r"\b(?:you|your|u|ur)\b", chat):
        return None  # "Tesla 2023?" asks for a year's figures, not which years Footnote holds
    said = spelled_out(unnamed_low)
    if filing_framed(said):
        return None  # "what is CUDA, per Nvidia's 10-K?" asks the filing, however it resembles "what are you?"
    # judged without the name and the word tying it on ("for", "about"): what is said to Footnote
    unnamed = " ".join(_OF_COMPANY.sub(" ", said).split())
    ruled = meta_intent(chat)
    chat_kind = ruled or (small_talk(unnamed) if unnamed else None)
    if chat_kind is None:
        return None
    if not ruled and chat_kind not in SMALL_TALK and not _TO_FOOTNOTE.search(said):
        return None  # a question about Footnote or its data is put to it: "you", "can I ask"
    if in_thread and (FOLLOWUP.search(said) or ALSO.search(said)):
        # "what about Boeing?", "thanks, and Intel?", "google too": the thread's question, of that company
        return None
    if chat_kind in SMALL_TALK:  # "thanks for the Intel numbers" asks nothing; "thanks for that, Intel?" does
        return None if ASKS.search(said) else chat_kind
    # it must speak of Footnote's world in words of its own, not only through the masked name
    return chat_kind if FOOTNOTE_WORLD.search(re.sub(r"\bcompany\b", " ", said)) else None


def _company_words(plan: Plan, directory: CompanyDirectory) -> set[str]:
    out: set[str] = set()
    for ticker in plan.tickers:
        company = directory.get(ticker)
        if company is not None:
            out |= set(normalize(company.name).split()) | {ticker.lower()}
    return out


def _unnamed_figures(low: str) -> str:
    """`low` normalized, with the figures it names blanked: "and the tax rate?" names a figure whose
    name holds "rate", which is no request for a rate of change (followups.FIGURE_CUE)."""
    text = normalize(low)
    words = text.split()
    for start, end, key in find_phrases(text, MEASURE_PHRASES):  # word positions
        if not key.endswith(("_growth", "_change")):  # "revenue growth rate" does ask for a rate of change
            words[start:end] = [""] * (end - start)
    return " ".join(w for w in words if w)


# "v revenue 2024", "low roe fy23", "ma op margin": terse Slack style opens with the ticker, in lowercase
_LEADING_WORD = re.compile(r"^\s*\$?(?P<word>[a-z]{1,5})\b(?!['\u2019])")
# A reply that is one lowercase ticker asked alone ("pep?", "and gd?")
_LONE_TICKER = re.compile(r"\s*(?:and\s+|what\s+about\s+|how\s+about\s+)?\$?([a-z]{1,5})\s*\?\s*")



# A message that asks something: a question mark, or a question's first word.
_ASKED = re.compile(r"\?\s*$|^\W*(?:what|which|were|was|is|are|any|did|do|does|how|where|who|why)\b")

def plan_rules(text: str, *, previous: Plan | None = None, directory: CompanyDirectory) -> Plan:
    """Plan one message (`_plan_message`); a fiscal year's annual report asked of a company held only
    through its 10-Qs is refused as such (agent.planning.annual_only); an effect asked in the future tense
    must find its cause named (agent.planning.effects)."""
    plan = _plan_message(text, previous=previous, directory=directory)
    plan = no_amount_asked(plan, text or "", directory, previous)  # "when will Comcast pay the taxes on its Hulu sale?"
    plan = refused_thing(plan, text or "", directory)  # "what inventory valuation method does Home Depot use?"
    plan = outlook_of(plan, text or "", directory)  # "pep pension expense outlook for 2024": a sentence of expecting it
    plan = prose_reply(plan, text, previous, directory) or plan  # "was it material to earnings?" in a prose thread
    plan = annual_not_held(plan, text, directory) or cause_named(plan, text)
    low = (text or "").lower()
    if plan.intent == "qualitative" and not plan.unless_named and filed_price_risk(low):
        # "risks to Visa's stock price mentioned in the 10-K": a sentence of the filing must speak of the price
        # of its stock, else the filing does not discuss it (no_grounding), never a sentence about dividends
        plan.unless_named = {"reason": "no_grounding", "detail": None,
                             "words": ["price", "stock" if "stock" in low else "share"]}
    if not plan.companies_read and plan.tickers and len(text or "") <= MAX_CHARS:
        # a plan made on a path that did not read the message's companies itself (a formula, a comparison
        # across companies): how the directory reads them
        found = directory.find(text)
        kept = drop_word_tickers(text, found)
        plan.companies_read = [{"word": m.text, "ticker": m.company.ticker, "via": m.via} for m in kept
                               if m.company is not None and m.kind == "company"] + \
            [{"word": m.text, "via": "word"} for m in found if m not in kept]
    return with_year_before(plan, text)


def with_year_before(plan: Plan, text: str) -> Plan:
    """"ROE growth fy24", "effective tax rate change 2023": growth words on measures with no growth form of their
    own (ungrown) show the year beside the year before, both figures, never the year's level alone as if it were
    the change asked (which "ko effective tax rate change 2023" answered with the 2023 rate)."""
    norm = normalize(text or "")
    if plan.route != "domain" or plan.intent not in ("numeric", "derived") or plan.period or plan.probe \
            or len(plan.fiscal_years) != 1 or plan.year_offsets or not ungrown(plan.metrics) \
            or not growth_words(norm) or absolute_words(norm):
        return plan
    plan.fiscal_years, plan.intent = [plan.fiscal_years[0] - 1, plan.fiscal_years[0]], "trend"
    return plan


def _plan_message(text: str, *, previous: Plan | None = None, directory: CompanyDirectory) -> Plan:
    """Plan one message. A lowercase first word that is a covered company's ticker and an everyday
    word ("low", "v", "ma", "ai") names no company as typed (companies.py); when the message then names
    no company at all, the word is read as that ticker if the message so read is a question about that
    company. Only a message refused for naming no company is read again, so "low margin" beside a named
    company, or any message that plans as typed, is untouched."""
    written = text or ""
    relation = relation_asked(written, directory) if len(written) <= MAX_CHARS else None
    if relation is not None:  # "HD revenue / LOW revenue": the comparison planned, then the formula across the two
        across = across_companies(plan_rules(relation.plain, previous=previous, directory=directory), relation, directory)
        if across is not None:
            return across
    replied = convention_reply(written, usable_previous(previous))
    if replied is not None:  # "using year-end inventory instead?": the thread's ratio, so computed
        return replied
    text = without_sourcing(text or "")  # "Please utilize information provided primarily within the balance sheet"
    asked = without_restated_inputs(text)  # "DPO ... Use accounts payable and cost of sales.": its own inputs
    span, said = averaged_span(asked)  # "3-year average capex as a % of revenue": each year's, averaged
    summed, said_summed = summed_span(asked) if not span else (None, asked)  # "FY2022 - FY2024 total D&A": added up
    if summed:
        said = said_summed
    plan = known_registrant(_plan_spelled(said if span or summed else asked, previous=previous, directory=directory), directory,
                            text or "")
    plan = unmarked(plan)
    plan = computed_when_asked(plan, written)  # "..., calculated from the income statement": the formula's figure
    plan.metrics = balance_convention(plan.metrics, text or "")
    plan.metrics = on_day_count(plan.metrics, day_count(text or "")) or plan.metrics  # "DSO on a 360-day year"
    plan.metrics = on_borrowings(plan.metrics, borrowings_said(text or ""))  # "net debt including commercial paper"
    unapplied = unapplied_average(plan.metrics, text or "") if plan.route == "domain" else None
    if unapplied:  # "debt to equity using average equity": no form of it computes so, and never silently otherwise
        return refusal_plan("unknown_metric", unapplied, tickers=plan.tickers, fiscal_years=plan.fiscal_years)
    plan = with_defined_parts(plan)  # "quick ratio, where quick assets = ...": the ratio over the user's part
    if span:
        plan = averaged_over_years(plan, span)
    elif summed:
        plan = summed_over_years(plan, summed)
    balance = averaged_balance(text or "") if not span and plan.route in ("domain", "refusal") else None
    if balance:  # "average inventory between FY2022 and FY2023": one balance averaged over two year-ends
        averaged = as_balance_average(known_registrant(_plan_spelled(balance, previous=previous, directory=directory),
                                                       directory, balance))
        plan = averaged or plan
    if plan.refusal_reason == "unknown_metric":  # "revenue per employee": the operand not reported, named
        plan.refusal_detail = missing_divisor(plan.refusal_detail)
    no_quarter = _NO_SUCH_QUARTER.search(text or "")
    if no_quarter and plan.route == "domain":
        # "apple revenue Q5 2024": no filing has that period; never read as a line "revenue q", nor as the year
        return refusal_plan("year_not_available", f"a quarter \"{no_quarter.group(0)}\" (a fiscal year has four)",
                            tickers=plan.tickers, fiscal_years=plan.fiscal_years)
    if plan.words and len(text or "") <= MAX_CHARS:
        plan.words = plan.words + aside_words(unicodedata.normalize("NFKC", text or ""), directory)
    if plan.refusal_reason == "no_company":
        # "oracle revenue", "apples eps": the word the refusal names as the company, written as a name
        # ...or the lowercase owner of a possessive ("ford's EV losses", refused for "EV")
        for written, name in [*names_as_written(text or "", plan.refusal_detail), *owners_as_written(text or "")]:
            again = _plan_spelled(written, previous=previous, directory=directory)
            if names_the_company(again, name, directory):
                return again
    if plan.refusal_reason == "out_of_scope" and plan.refusal_detail in _LIKENESS_REFUSALS and len(text or "") <= MAX_CHARS:
        # refused by its likeness to off-topic or price questions, its subject unread: a brand typed in lowercase
        # ("how is chevrolet doing", "pratt & whitney gtf engine problem"), written as the filings write it
        for written, name in proper_as_written(text or ""):
            again = _plan_spelled(written, previous=previous, directory=directory)
            # read as a brand, never as a company's own name or ticker, which the reading had set aside as a word
            # on purpose ("how is the dow doing today" is the index, not Dow Inc.)
            if again.brand and again.brand.get("word", "").lower() == name.lower() \
                    and names_the_company(again, name, directory):
                return again
    lone = _LONE_TICKER.fullmatch(text or "")
    if lone and plan.route == "meta" and previous is not None and previous.metrics:
        # "pep?", "gd?" after a figure: that figure of the covered company the ticker is, never small talk
        company = _covered_ticker(lone.group(1), directory)
        if company is not None:
            again = _plan_spelled(f"${company.ticker}?", previous=previous, directory=directory)
            if again.route == "domain" and again.tickers == [company.ticker]:
                return again
    if plan.refusal_reason != "no_company" and not (plan.refusal_reason == "out_of_scope"
                                                    and plan.refusal_detail == FORECASTS):
        # an outlook refused for naming no company ("pep pension expense outlook for 2024") is read again too: with
        # its company read, it is that company's own outlook (scope.company_outlook)
        return plan
    for start, end, alone in _ticker_spots(text or "", plan):
        company = _covered_ticker(text[start:end], directory)
        if company is None:
            continue
        # written as a cashtag, the one spelling that is a ticker whatever the word ("$AI", unlike "AI")
        cashtag = text[:start].rstrip("$") + "$" + text[start:end].upper() + text[end:]
        again = _plan_spelled(cashtag, previous=previous, directory=directory)
        if again.route == "domain" and (again.tickers == [company.ticker] if alone else company.ticker in again.tickers):
            return again
    return plan


# A question's opening that asks about what comes right after it ("what does <gm financial> do", "tell me about
# <ma>"): the subject's slot, never small talk ("what's up" greets)
_ASKS_OF = re.compile(r"^\W*(?:what\s+(?:does|do|did|is|are|was|were)|what['\u2019]?s(?!\s+up\b)|who\s+(?:is|are)|"
                      r"tell\s+me\s+(?:more\s+)?about|describe|explain|how\s+(?:does|do|did|is|are|has|have))\s+(?:the\s+)?$")


# The refusals the exemplar judge gives a message by its likeness alone (agent.planning.route.REFUSAL_DETAIL)
_LIKENESS_REFUSALS = frozenset({REFUSAL_DETAIL["offtopic"], REFUSAL_DETAIL["price"]})


# The verbs a request opens with: never a company's name left over by the word accounting
_ASKING_VERBS = frozenset("explain describe define tell show give list summarize summarise compare calculate compute "
                          "find get provide pull fetch check break outline clarify detail".split())


def _covered_ticker(word: str, directory: CompanyDirectory):
    """The covered company whose ticker `word` spells in any case ("pep", "v"), else None."""
    company = directory.get(word.upper())
    return company if company is not None and company.covered else None


def _ticker_spots(text: str, plan: Plan) -> list[tuple[int, int, bool]]:
    """Where a short word refused as the company meant may be a ticker typed in lowercase, as (start,
    end, alone): the message's first word ("v revenue fy24"), read alone; and the word the refusal
    names, when a figure is asked of it ("how much did ai lose in fy2024", "v vs ma revenue": a figure
    has an owner), read with whatever else the message names. "what is ai?", "how is ai changing
    banking?" ask no figure and stay refused; "a" and "i" are words wherever they stand."""
    spots = []
    first = _LEADING_WORD.match(text)
    if first is not None:
        spots.append((first.start("word"), first.end("word"), True))
    word = plan.refusal_detail or ""
    if plan.metrics and re.fullmatch(r"[a-z]{1,5}", word) and word not in ("a", "i"):
        found = re.search(rf"(?<![\w$'\u2019-]){re.escape(word)}(?![\w'\u2019-])", text)
        if found is not None and (first is None or found.start() != first.start("word")):
            spots.append((found.start(), found.end(), False))
    return spots


# A quarter no fiscal year has: "Q5", "Q0", "the fifth quarter".
_NO_SUCH_QUARTER = re.compile(r"(?<![\w-])q[05-9](?![\w-])|\b(?:fifth|sixth|seventh|eighth|zeroth)\s+(?:fiscal\s+)?quarter\b",
                              re.I)


OWN_NAME = "footnote"  # the product's own name: the user speaks to it, never asks about a company by it


def known_registrant(plan: Plan, directory: CompanyDirectory, text: str) -> Plan:
    """A refusal for a name no company goes by, when SEC's map knows a registrant by that name
    (agent.planning.company_mentions.registrant_named), is the refusal for a company we do not cover."""
    if plan.refusal_reason != "no_company" or not plan.refusal_detail:
        return plan
    company = registrant_named(plan.refusal_detail, directory, text) or class_ticker(plan.refusal_detail, directory)
    if company is None:
        said = non_registrant(plan.refusal_detail, text)
        if said:  # "Samsung revenue 2023", "how much did openai make": a company that files nothing with the SEC
            plan.refusal_reason, plan.refusal_detail = "not_covered", said
        return plan
    plan.refusal_reason = "not_covered"
    plan.refusal_detail = plan.refusal_detail if plan.refusal_detail == company.ticker \
        else f"{plan.refusal_detail} ({company.ticker})"
    plan.tickers = [company.ticker]
    return plan


def _plan_spelled(text: str, *, previous: Plan | None = None, directory: CompanyDirectory) -> Plan:
    """Plan one message, its ratio names spelled out (agent.planning.measure_spelling) and a named
    ratio's restated definition taken out (agent.planning.restated). A paraphrase with a ratio's name
    in brackets ("days of sales outstanding in receivables (DSO)") asks for that ratio when the words
    as written name none: the companies and years of the message with that name."""
    if not text or len(text) > MAX_CHARS:
        return _plan_placed(text, previous=previous, directory=directory)
    spelled = measure_spelled_out(text)
    plan = _plan_placed(spelled, previous=previous, directory=directory)
    read_as, bracketed = without_restatements(spelled)
    if (read_as == spelled and bracketed is None) or _asks_a_formula(plan):
        return plan  # the words as written plan a formula (a restatement there is the user's definition)
    plan = _plan_placed(read_as, previous=previous, directory=directory)
    if bracketed is None or bracketed in plan.metrics:
        return plan
    named = [read_as[m.start : m.end] for m in directory.find(read_as) if m.kind == "company"]
    years = [m.group(0) for m in YEAR_WORDS.finditer(read_as)]
    phrase = next(p for p, k in FORMULA_PHRASES.items() if k == bracketed)
    asked = _plan_placed(" ".join([*named, phrase, *years]), previous=previous, directory=directory)
    return asked if bracketed in asked.metrics else plan


def _in_unit_said(plan: Plan, text: str) -> Plan:
    """A named percentage asked as a plain quotient ("Nike's net margin as a decimal", "R&D as a share of
    revenue, answer as a decimal"): the registry's quotient as the user's definition in the unit said, its
    definition restated in the answer; never the percentage beside the words that asked for a decimal."""
    if plan.route != "domain" or len(plan.metrics) != 1 or plan.metrics[0] not in FORMULAS:
        return plan
    formula, (unit, _) = FORMULAS[plan.metrics[0]], unit_said(text)
    if unit != "ratio" or formula.unit != "percent" or formula.operator != "÷" or len(formula.inputs) != 2 \
            or any(i.offset for i in formula.inputs):
        return plan
    tree = {"op": "/", "args": [{"metric": i.metric} for i in formula.inputs]}
    definition = {"name": formula.label.lower(), "tree": tree, "unit": unit, "formula": restate(tree, top=True)}
    plan.definitions = [*plan.definitions, definition]
    plan.metrics, plan.intent = [f"udf:{definition['name']}"], "derived"
    return plan


def _asks_a_formula(plan: Plan) -> bool:
    """Whether the plan asks a formula, and nothing beside it but figures of its own: a restated
    formula's operands planned as figures of their own ("inventory turnover (cost of sales over
    inventory)" as the ratio, cost of sales and inventories) are the restatement's, not asks."""
    if plan.refusal_reason is not None:
        return False
    formulas = [m for m in plan.metrics if m in FORMULAS or m.startswith("udf:")]
    operands = {i.metric for k in formulas if k in FORMULAS for i in FORMULAS[k].inputs}
    return bool(formulas) and not any(m in operands for m in plan.metrics if m not in formulas)


def _plan_placed(text: str, *, previous: Plan | None = None, directory: CompanyDirectory) -> Plan:
    """Plan one message; a statement it names as a line's place ("deferred income taxes on the cash flow
    statement") is taken out of the words and kept on the plan's line keys (agent.planning.placed)."""
    place, rest = statement_place(text or "")
    if not place or not re.search(r"\w", rest):
        return _plan_written(text, previous=previous, directory=directory)
    return placed(_plan_written(rest, previous=previous, directory=directory), place)


def _plan_written(text: str, *, previous: Plan | None = None, directory: CompanyDirectory) -> Plan:
    """Plan one message. Operators said in words ("the ratio of R&D to revenue", "take X and divide
    it by Y") are read as the formula they say when that yields one; otherwise the words as written. A printed
    row name's spaced hyphen is kept from being read as a minus (agent.planning.printed_dashes)."""
    # "year-end FY2024": FY2024; "... ratio for 2023 - A divided by B": the dash sets the formula off, as a colon
    text = dashes_kept(dash_defined(year_end_dropped(text or "")), directory.dashed)
    unread = unread_restatement(text or "", directory.line_names)
    if unread is not None:  # "total debt over equity... use <a formula we cannot read>": never the name's reading
        as_written = _plan_rules(text, previous=previous, directory=directory)
        return refusal_plan("unknown_metric", f"{unread} (in your formula)", tickers=as_written.tickers,
                            fiscal_years=as_written.fiscal_years)
    spoken = spoken_operators(text or "", directory.line_names, lambda words: _a_company(words, directory))
    if spoken != (text or "") and len(spoken) <= MAX_CHARS:
        plan = _plan_rules(spoken, previous=previous, directory=directory)
        known = {d["name"] for d in (previous.definitions if previous is not None else [])}
        if plan.route == "domain" and any(m.startswith("udf:") and m[4:] not in known for m in plan.metrics):
            return said_in_words(plan, text or "", directory, previous)
        as_written = _plan_rules(text, previous=previous, directory=directory)
        if names_more_formulas(plan, as_written):
            return said_in_words(plan, text or "", directory, previous)  # "what % of revenue was COGS": a ratio
        return said_in_words(as_written, text or "", directory, previous)
    return part_probed(said_in_words(_plan_rules(text, previous=previous, directory=directory), text or "", directory,
                                     previous), usable_previous(previous), text or "")


def _a_company(words: str, directory: CompanyDirectory) -> bool:
    """Whether the words are, whole, a company's name or ticker, covered or not ("shopify"; "google cloud" is no
    company's, though "google" is)."""
    said = re.sub(r"['\u2019]s?$", "", words.strip())
    return any(m.start == 0 and m.end >= len(said) for m in directory.find(said))


# a filing named ("hello Nvidia 10-K"): a request for it, however it opens
_FILING_WORD = re.compile(r"\b10-?[kq]s?\b|\bfilings?\b|\bannual\s+reports?\b")


# "compute it for Meta 2024", "now do that for Apple", "apply the same to KO in 2023": the thread's formula asked again
_APPLY_IT = re.compile(r"^\W*(?:(?:ok(?:ay)?|now|so|and|great|thanks|cool|then|please|pls)\W+)*(?:compute|calculate|calc|"
                       r"apply|run|do|use|work\s+out|get|give\s+me|show\s+me|what(?:'s|\s+is|\s+was))\s+"
                       r"(?:it|that|this|the\s+same|the\s+(?:ratio|metric|measure|formula|definition|figure))\b"
                       r"(?:\s+(?:one|ratio|metric|measure|formula))?\s+(?:for|to|on|of|at)\b", re.I)


def _plan_rules(text: str, *, previous: Plan | None = None, directory: CompanyDirectory) -> Plan:
    """Plan one message. Never raises on user input; anything it cannot map becomes a refusal.

    A formula the user defines ("define X as A plus B over C"), writes into the question ("gross
    profit minus SG&A") or names from earlier in the thread is taken out of the text first and
    asked for as 'udf:<name>' (agent.planning.formula_definitions)."""
    raw = text or ""
    if len(raw) > MAX_CHARS:
        return _plan(raw, previous=previous, directory=directory)
    said = ACKNOWLEDGED_FIRST.sub("", raw)
    if said != raw and re.search(r"\w", said) and _plan(raw, previous=previous, directory=directory).route != "meta":
        raw = said  # "cool. and Nvidia?": the question after the acknowledgement, which is no line item
    # "oracle... no, adobe buybacks": the words after the correction (with the company and year said before it
    # when it names none: "Nike FY2025 R&D... sorry, SG&A")
    raw = corrected(raw, lambda t: [(m.start, m.end) for m in directory.find(t) if m.kind == "company"], YEAR_WORDS)
    raw = NEGATED.sub(" ", raw)  # "dividends paid, not net income": what is not asked is not planned
    raw = LAYOUT.sub(" ", raw)  # "answer in one line": how to answer, not what
    raw = without_judgement(raw)  # "apple net income 2024, is that good?": the figure; the opinion is the user's
    raw = INSTRUCTED.sub(" ", raw)  # "use year-end balances and 365 days": how to compute, said beside the ask
    raw = without_diluted(without_balance_asides(without_day_count(raw)))  # "(365d, year-end AR)", "(diluted)"
    raw = without_borrowings(without_debt_defined(raw))  # "define debt as total debt", "(incl. commercial paper)"
    raw = per_diluted_share(raw)  # "EBITDA per share": over the weighted-average diluted shares, as the registry's
    raw = without_unadjusted(raw)  # "unadjusted operating income": the figure as reported
    raw = to_parent(raw, directory)  # "net earnings attributable to P&G": the net income metric
    raw = eps_kind(raw)  # "EPS using basic shares": basic EPS
    raw = with_industry_definitions(raw)  # "medical care ratio": medical costs over premiums, as printed
    raw = cover_page(raw)  # "on the cover of its 10-K": where, and the cover's own share count
    raw = WHOLE_FIGURE.sub(" ", raw)  # "full-year", "company-wide": the figure itself, no member
    raw = SPELLED_AMPERSAND.sub(ampersand, raw)  # "SG and A", "R and D": the abbreviation, not a ticker
    # "yr before?", "which was higer", "the same ratio for X"; a company's name is never respelled
    raw = reply_spelled(raw, usable_previous(previous), lambda w: bool(directory.find(w)))
    raw = subject_spelled(raw, usable_previous(previous), lambda w: bool(directory.find(w)))  # "tarrifs?"
    made = formula_of_thread(raw, previous, lambda w: parse_expression(
        w, {normalize(d["name"]): d["tree"] for d in previous.definitions}, members=INLINE, lines=directory.line_names))
    if made is not None:  # "as a % of revenue?" after the user's "gross profit less opex": that formula over revenue
        return previous.model_copy(update={
            "metrics": [f"udf:{made['name']}"], "definitions": [*previous.definitions, made],
            "intent": "derived" if previous.intent == "numeric" else previous.intent,
            "inherited": ["tickers", "fiscal_years"], "words": [],
            "slots": {**previous.slots, "metrics": "message, over the thread's formula"}})
    raw = over_thread(relative_to_thread(raw, previous), previous)
    raw = less_than_thread(raw, previous)
    raw = modified_figure(raw, previous)
    discussed_count = len(discussed(usable_previous(previous)))
    raw = compared_kind(raw, discussed_count)  # "which bank made more?" of the thread's
    raw = gap_as_difference(raw, discussed_count)  # "the gap between them"
    raw = joined_rows(raw, directory.line_names)  # "accounts receivable, net over ...": the comma is the row's
    given, raw = given_name(raw, has_operator)  # "A over B, call it 'cash cover'"
    definition, rest, bad = find_definition(raw, directory.line_names)
    if definition is not None:
        definition, rest = margin_of_defined(*pronoun_named(*name_aside(definition, rest, directory), directory))
    # "…, as a percent", "expressed as a percentage": the unit the user asks a formula's quotient in
    unit, rest = unit_said(rest) if definition is not None or has_operator(rest) else (None, rest)
    if definition is not None:
        definition, given = as_said(definition, given, unit, unit_of), None
    known = [d for d in (previous.definitions if previous is not None else [])
             if definition is None or d["name"] != definition["name"]]
    named = [d for d in known if re.search(rf"\b{re.escape(d['name'])}\b", rest, re.I)]
    if not named and definition is None and known and _APPLY_IT.match(rest):
        # "compute it for Meta 2024" after "define adjusted margin as ...": the thread's formula, of that company
        asked_before = [m[4:] for m in previous.metrics if m.startswith("udf:")]
        named = [d for d in known if d["name"] in asked_before][-1:] or known[-1:]
    new = [definition] if definition else []
    rest = to_defined(rest, [normalize(d["name"]) for d in [*named, *new]], directory.line_names)
    plan = _plan(without_names(rest, [*named, *new]), previous=previous, directory=directory)
    inline = None
    if bad is None:
        names = {normalize(d["name"]): d["tree"] for d in known + new}
        inline = inline_formula(rest, plan, names, directory)
    if inline is not None:
        formula, cut = name_aside(*inline, directory, after=True)  # "Apple's FY2024 widget ratio, defined as ...": the year is asked
        formula = as_said(formula, given, unit, unit_of)
        inside = normalize(formula["name"]) + " " + normalize(inline[0]["formula"])
        kept_named = [d for d in named if re.search(rf"\b{re.escape(d['name'])}\b", cut, re.I)]
        kept_new = [d for d in new if re.search(rf"\b{re.escape(d['name'])}\b", cut, re.I) or d["name"] not in inside]
        left = without_names(cut, [*kept_named, *kept_new])
        again = _plan(left, previous=previous, directory=directory)
        if again.route == "meta" and plan.tickers:
            # "what's pg's debt to equity, A over B": the formula cut out was the message's subject, so a ticker
            # typed in lowercase beside it still names its company (left alone, "what's pg's" is small talk)
            again = _plan(tickers_as_written(left, plan.tickers), previous=previous, directory=directory)
        if again.route != "meta" or plan.route == "meta":
            plan, rest, named, new = again, cut, kept_named, [*kept_new, formula]
        # else: what is left once the formula is cut out is small talk, though the whole message asks something
        # (a thread's reply): the words are no formula of their own, and the message is read as a whole
    stated = known + [d for d in ([definition] if definition else []) if d not in new] + new
    # a formula the plan itself made ("its operating margin?" after "AWS revenue": the margin within AWS) stays
    made = [d for d in plan.definitions if d["name"] not in {x["name"] for x in stated}]
    plan.definitions = stated + made
    if bad is not None:
        return refusal_plan("unknown_metric", f"{bad} (in your formula)", tickers=plan.tickers,
                            fiscal_years=plan.fiscal_years, definitions=plan.definitions)
    asked = [f"udf:{d['name']}" for d in new + named]
    if not asked:
        plan = prose_instead(plan, without_names(rest, named), directory, split_only=True)
        plan = spanned_changes(member_asks(plan, without_names(rest, named), _company_words(plan, directory)), rest)
        plan = prose_instead(plan, without_names(rest, named), directory)
        if plan.route == "domain" and not any(m in FORMULAS or m.startswith("udf:") or (
                m in METRICS and METRICS[m].unit in ("percent", "pure", "ratio")) for m in plan.metrics):
            # the plan answers amounts only: none of them is the quotient asked (a tagged rate may be)
            unread = unread_numerator(rest, {normalize(d["name"]): d["tree"] for d in known}, directory)
            if unread is not None:  # "widget costs divided by revenue": the formula, refused naming what it lacks
                return refusal_plan("unknown_metric", f"{unread} (in your formula)", tickers=plan.tickers,
                                    fiscal_years=plan.fiscal_years, definitions=plan.definitions)
        return _in_unit_said(plan, text or "")
    inherited = "metrics" in plan.inherited  # the thread's figures are not asked beside a formula
    # "What is Walmart's DPO? DPO is defined as ...": the registry's ratio of that name is the one the user defined
    defined_as = {FORMULA_PHRASES.get(normalize(d["name"])) for d in new + named}
    # the headline figures a comparison naming no figure shows ("compare Apple and Nvidia") are no ask beside a
    # formula the message names: shown with it, they were figures of another question, cited beside the answer
    said = {t.get("as") for t in plan.words or []}
    unasked = {k for k in DEFAULT_COMPARE if f"metric:{k}" not in said}
    plan.metrics = asked + [m for m in plan.metrics if not inherited and m not in defined_as and m not in unasked
                            and (m in FORMULAS or m in MEASURE_PHRASES.values())]
    if inherited:
        plan.inherited.remove("metrics")
    if plan.route == "domain":
        plan.items, plan.sub_queries, plan.probe = [], [], []
        several_years = len(plan.fiscal_years) >= 2 or len(plan.year_offsets) >= 2
        if not several_years and len(plan.tickers) < 2 and parse_years(rest).trend:
            # "r&d over gross profit trend for nvidia": the formula's course, over the years a trend shows
            several_years = True
            if plan.fiscal_years:
                plan.fiscal_years = list(range(plan.fiscal_years[-1] - FEW_YEARS + 1, plan.fiscal_years[-1] + 1))
            else:
                plan.latest, plan.year_offsets = True, list(range(-(FEW_YEARS - 1), 1))
        plan.intent = "compare" if len(plan.tickers) >= 2 else ("trend" if several_years else "derived")
    return plan


# "apple v nvidia revenue", "ko v. pep": a lone "v" after a company is "versus", as in a case name
_LONE_V = re.compile(r"\s+v\.?\s+", re.I)


def _versus_spelled(outside: str, low: str, directory: CompanyDirectory) -> tuple[str, str]:
    """`outside` and `low` with a lone "v" or "v." right after a company mention, before a name, written
    "vs". Why: left as it is, the letter is read as a word of the figure ("v revenue" as a line of
    Nvidia's); Visa is never meant there, as nothing joins it to the company before it."""
    if not _LONE_V.search(outside):
        return outside, low
    spelled = outside
    for m in sorted(directory.find(outside), key=lambda m: -m.end):
        v = _LONE_V.match(spelled, m.end) if m.kind in ("company", "not_covered") else None
        if v is not None and re.match(r"[a-z$]", spelled[v.end():], re.I):
            spelled = spelled[: m.end] + " vs " + spelled[v.end():]
    if spelled == outside:
        return outside, low
    return spelled, re.sub(r"\s+", " ", spelled.lower().replace("\u2019", "'")).strip()


def ungrown(measures: list[str]) -> bool:
    """Whether growth words fall on named measures none of which has a growth or change form (a ratio, a rate, a
    turnover): ROE, debt to equity, the effective tax rate. Line, member and user keys read their words elsewhere."""
    named = [k for k in measures if k in FORMULAS or k in METRICS]
    return bool(named) and len(named) == len(measures) and not any(
        k.endswith(("_growth", "_change")) or growth_key(k) in FORMULAS or change_key(k) in FORMULAS for k in named)


def _asks_about(r) -> bool:
    """The message asks something of its term (what it is, why, how it matters), not only names it: a bare
    reply ("and the 737 MAX?") names what the thread's figure is wanted of, which a term of the company's
    own cannot answer with the company's total."""
    return r.prose_ask or bool(_ASKS.match(r.low))


# a question put about the term ("what is IFS?", "does it affect ..."), never a reply naming it ("what about X?")
_ASKS = re.compile(r"\s*(?:what|how|why|does|do|did|is|are|was|were|tell|describe|explain)\b(?!\s+about\b)")


def thread_word(word: str, prev: Plan, directory: CompanyDirectory) -> bool:
    """The thread's companies' filings write `word` often (agent.planning.brands.written_by): a unit, product or
    term of theirs ("IFS" in Intel's, "EV" in GM's), read as that inside a question about them."""
    ciks = directory.ciks_of(prev.tickers)
    return bool(ciks) and written_by(word.strip(), ciks)


def common_term(word: str, prev: Plan, directory: CompanyDirectory) -> bool:
    """The thread's companies' filings write `word` in their prose (as typed, or run together: "e-commerce" as
    "eCommerce"), in WRITTEN_CHUNKS chunks at least: a term of their business."""
    ciks = directory.ciks_of(prev.tickers)
    forms = dict.fromkeys([word, re.sub(r"[-\s]+", "", word)])
    return any(writes_phrase(f, ciks) for f in forms if f)


def _names_company(name: str, thread: Plan, directory: CompanyDirectory) -> bool:
    """A reply's subject may be a company's name: one the directory knows by it (held, not_covered, no_company),
    or a company that files nothing with the SEC; unless typed in lower case as a term the thread's filings
    write ("and direct?" after Nike's wholesale business, "and aws?"), which is theirs."""
    if name.lower() in NON_REGISTRANTS or covered_by_word(name, directory) is not None:
        return True  # "what about ford?": Ford, held, whose name is an everyday word
    about = unknown_subject(name, directory)
    if about is None:
        return False
    if name == name.lower() and common_term(name, thread, directory):
        return False
    # a term some covered company's filings write and no registrant is named by ("wearables" after Tesla's
    # competition) is a word of filings, not a name: what the thread's filing says of it, or nothing
    # (agent.planning.subject_swap); "and toyota?" names a registrant we do not cover, refused as such
    return not (about[0] == "no_company" and name == name.lower() and filings_term(name))


def tickers_as_written(text: str, tickers: list[str]) -> str:
    """The text with each of `tickers` typed in lowercase written in capitals ("pg's" as "PG's"): a lowercase
    ticker counts as a company only beside something asked of a filing, and a formula cut out of the message
    was that something."""
    for t in tickers:
        text = re.sub(rf"(?<![\w$-]){re.escape(t.lower())}(?![\w-])", t, text)
    return text


def _plan(text: str, *, previous: Plan | None = None, directory: CompanyDirectory) -> Plan:
    raw = unicodedata.normalize("NFKC", text or "")  # full-width letters, ligatures, odd spaces
    if len(raw) > MAX_CHARS:
        return refusal_plan("input_too_long")
    outside = strip_quotes(raw)
    low = re.sub(r"\s+", " ", outside.lower().replace("\u2019", "'")).strip()
    if not re.search(r"[a-z0-9]", low):
        return meta_plan("help")
    chat = spelled_out(low)  # "r u a bot", "which yrs do u have": judged as written out
    scope = out_of_scope(chat)
    if scope == FORECASTS and usable_previous(previous) is not None and previous.tickers and thread_outlook(chat):
        scope = None  # "what's the forecast?" in a thread about Nike: Nike's outlook, as its filing states it
    unnamed_chat = masked(chat, [(m.start, m.end) for m in directory.find(chat)]) if scope == FORECASTS else chat
    outlook = scope == FORECASTS and company_outlook(chat)  # "pep pension expense outlook for 2024": judged once read
    if scope == FORECASTS and (company_future(unnamed_chat) or outlook or exposure(unnamed_chat)):
        scope = None  # "what will be the impact of the IRA on GM?": the effects GM's filing states
    if scope and scope != OFF_TOPIC_DETAIL:
        return refusal_plan("out_of_scope", scope)

    if not scope:  # a quoted row name is read as words once the quotation itself is judged in scope
        outside = names_kept(raw)
    aside = set_aside(outside, directory)  # "Apple revenue 2024? NOW thanks": no company called NOW
    if not scope or aside != outside:
        outside = aside
        low = re.sub(r"\s+", " ", outside.lower().replace("\u2019", "'")).strip()
    thread = usable_previous(previous)
    outside, low = _versus_spelled(outside, low, directory)
    r = read(raw, outside, low, directory, discussed(thread))
    if thread is not None and thread.intent == "qualitative" and thread.tickers:
        # "and from Nvidia in graphics?", "does it say anything about Nvidia?": what the thread's filing says of it
        topical = thread_topical(outside, r.matches, thread.tickers) \
            | asked_of_thread(outside, r.matches, thread.tickers)
        for i in topical:  # "and from Nvidia in graphics?" after AMD's competition: still AMD's filing
            m = r.matches[i]
            r.matches[i] = CompanyMatch("topic", m.text, m.start, m.end, m.company)
        if topical:
            r.tickers = [m.company.ticker for m in r.matches if m.kind == "company"]
    swapped = swapped_subject(outside, r, thread, lambda name: _names_company(name, thread, directory),
                              lambda words: common_term(words, thread, directory), filings_term)
    if swapped is not None:  # "and services?" after "why did Greater China fall?": that question, of Services
        return swapped
    # the text the thread's checks for another company read: a company named as a topic is none
    unthreaded = masked(outside, [(m.start, m.end) for m in r.matches if m.kind == "topic"]) \
        if any(m.kind == "topic" for m in r.matches) else outside
    unnamed_low = masked(outside, [(m.start, m.end) for m in r.matches]).lower()  # "margins for apple?"
    kind = kind_of_thread(unnamed_low, thread.metrics, prose=thread.intent == "qualitative") \
        if thread is not None and thread.metrics and not r.why else []
    if kind and set(r.measures) <= set(implied_measures(unnamed_low)):  # no figure of the message's own
        # "what was the margin?", "how profitable were they?": the kind of figure the thread's figure is
        r.measures, r.unmappable, r.kind = kind, None, True
    if (scope and not (r.measures or r.unmappable or (r.has_topic and r.matches))) or asks_artefact(chat):
        # "weather" is off-topic, "how weather affected sales" is not; "a poem about Apple's earnings" is
        return refusal_plan("out_of_scope", scope or OFF_TOPIC_DETAIL)
    # "what do they say about 2025 spending?": the thread's company's filings decide what is ahead
    about = r.tickers or (list(thread.tickers) if thread is not None and not r.matches else [])
    top = latest_covered_year(directory, about)
    ahead = top is not None and any(y > top for y in r.years.years)
    # a later year alone is a statement about the future only when no figure is asked: "how much revenue
    # did X report in 2025?" wants 2025's figure (from companyfacts, or refused), not the filing's plans
    # read with the companies masked too: "in Home Depot's 10-K", "how will the attack affect UnitedHealth"
    # say the filing or the company as plainly as "in its 10-K" and "affect the company"
    if outlook and not r.tickers:
        return refusal_plan("out_of_scope", FORECASTS)  # "what's the outlook for 2025?": no company's own outlook
    framed = filing_framed(low) or filing_framed(unnamed_low) or outlook  # "nike's outlook for fiscal 2026"
    forward = (forward_looking(low) or (ahead and not r.measures)) and framed
    if ahead and forward_looking(low) and not (framed or falls_due(low)):
        # "how many employees will Tesla have in 2030?": a year no filing has reached, asked of
        # Footnote rather than of the filing: a prediction, not a year we lack
        return refusal_plan("out_of_scope", "forecasts or predictions")
    if forward:
        filing_statement(r, directory, about)
    # a year asked of Footnote ("what's the latest year you have?") is about coverage, not a subject
    asked_of_us = re.search(r"\b(?:you|your)\b", chat) and not (r.measures or r.has_topic or r.matches)
    subject = bool(r.measures or r.unmappable or r.has_topic or r.why or (r.years.given and not asked_of_us)
                   or ((r.statement or QUAL_ASK.search(low)) and r.matches) or lead_subject(outside))
    opening = opening_small_talk(spelled_out(low))
    if opening and r.matches and thread is None and not subject and not _FILING_WORD.search(low):
        return meta_plan(opening)  # "Happy Friday Target folks": whom it greets, nothing asked of a filing
    # "google too" in a thread: the thread's question asked of that company as well, never small talk
    also_that = thread is not None and bool(ALSO.search(low)) and not greets_first(low)
    # "ko vs pep": two companies set against each other is a comparison asked, whatever small talk the tickers spell
    set_against = len([m for m in r.matches if m.kind == "company"]) >= 2 and re.search(r"\b(?:vs\.?|versus)\s", low)
    # "what does gm financial do", "tell me about ma": the word stands where a question puts what it asks about
    asked_of = bool(r.matches) and _ASKS_OF.search(outside[: min(m.start for m in r.matches)].lower()) is not None
    if r.matches and not subject and not also_that and not set_against and not (asked_of and not greets_first(low)) \
            and (all(weak_mention(m) for m in r.matches) or greets_first(low)):
        # "gm everyone!", "good morning Sam": a ticker typed in lowercase, or an everyday word some
        # company's filings use as a brand, with nothing of a filing beside it (no metric, topic, year
        # or cause) is a company only when the message, read as written, is no small talk
        chat_kind = small_talk(spelled_out(low))
        if chat_kind:
            return meta_plan(chat_kind)
    if r.matches and not subject and meta_intent(chat) == "help":
        # "help me decide between Visa and Mastercard": the task, judged with the names masked, decides;
        # the help words alone never make a request about a company META
        task = help_with(unnamed_low)
        if task:
            return refusal_plan("out_of_scope", task)
    addressed = about_us(r, chat, unnamed_low, thread is not None)
    if addressed:  # "what sources do you use for Nvidia?", "thanks for the Intel numbers": to Footnote, of a company
        return meta_plan(addressed, [m.company.ticker for m in r.matches if m.company] if addressed == "coverage" else [])
    topic_only = r.has_topic and not (r.measures or r.unmappable or r.why or r.years.given or r.statement or r.matches)
    kind, detail = message_kind(spelled_out(unnamed_low),
                                company_only=bool(r.matches) and not subject, subject=subject,
                                covered=any(m.kind == "company" for m in r.matches),
                                thread=thread is not None,
                                unanchored=not (r.matches or r.measures or r.unmappable), topic_only=topic_only)
    # "what's happening there?", "how is the gaming market changing?" in a thread: a question put about its subject
    ciks = directory.ciks_of(thread.tickers) if thread is not None else set()
    thread_phrase = None
    if not r.matches and kind in ("meta", "refuse") and detail in (*SMALL_TALK, OFF_TOPIC_DETAIL):
        thread_phrase = asks_of_thread(low, thread, lambda p: writes_phrase(p, ciks))
    elif not r.matches and kind == "refuse" and detail == REFUSAL_DETAIL["price"] and not PRICED.search(low):
        # "market" alone reads as a valuation: a market the filings write, with no price asked, is none
        # "how much was it?" after a prose answer about an impairment: the amount of what the thread discusses, as the
        # filing states it, never a price (a figure's thread points back at a figure, which has no price either)
        thread_phrase = asks_of_thread(low, thread, lambda p: writes_phrase(p, ciks),
                                       pointing=thread is not None and thread.intent == "qualitative")
    thread_asked = thread_phrase is not None
    if thread_asked:
        kind, detail = "domain", None
    meta = meta_intent(chat)
    asks_help = meta == "help" or (kind, detail) == ("meta", "help")  # by rule or by resemblance
    task = help_with(chat) if asks_help and not (r.matches or subject) else None
    if task:  # "can you help me fix a bug in my code?": judged by the task, not by "help"
        return refusal_plan("out_of_scope", task)
    more = asks_more(chat) and thread is not None  # "tell me more" is not "tell me a story"
    # "what's management's take?", "what are the headwinds?" after a figure: about that figure
    r.aspect = (thread is not None and (bool(previous.metrics) or previous.intent == "qualitative")
                and not r.measures
                and not r.tickers and (comments_on_thread(low) or aspect_of_thread(low)))
    if (thread is not None and (bool(previous.metrics) or previous.intent == "qualitative")
            and not r.measures and not r.tickers and not r.why and asks_response(low)):
        # "what are they doing about it?" after a figure or a topic: what the filing says they do about it,
        # MD&A's discussion of the figure beside it
        r.unmappable, r.aspect, r.why = None, True, bool(previous.metrics)
    if (thread is not None and thread.intent == "qualitative" and thread.topic and not figure_only_topic(thread)
            and not r.tickers and not r.why and asks_effect(low)):
        # "did it hurt their margins?" after the Splunk deal: what the filing says the deal did to them, in MD&A
        # beside the figure's change, never the figure alone
        r.why = True
    more = more or r.aspect
    figure_thread = thread is not None and bool(thread.metrics) and not r.measures and not r.tickers
    if thread is not None and thread.asks_cause and not r.why and leads_reply(ACKNOWLEDGED.sub("", low)) \
            and (r.measures or (r.tickers and not _names_own_thing(outside, r))) \
            and not FIGURE_CUE.search(_unnamed_figures(low)):
        # "what about Intel's 2023 revenue decline?" after "what drove Boeing's loss?": what drove that one
        r.why, r.growth, r.absolute = True, False, False
    if thread is not None and thread.metrics and not r.why and not r.tickers and asks_use(low) \
            and set(r.measures) <= set(thread.metrics):
        # "what were they spent on?" after capex: what the filing says the figure went to, beside it
        r.why, r.measures, r.growth = True, [], False
    if figure_thread and not r.why and (asks_what_happened(low) or (
            thread.intent in FIGURE_INTENTS and asks_more(low) and not own_subject(low))
            or (thread_asked and not own_subject(low) and not r.growth and not FIGURE_CUE.search(low))):
        r.why = True  # "what happened?", "tell me more" after a figure: what the filing says moved it
    if figure_thread and BY_HOW_MUCH.search(low):
        r.growth = r.absolute = True  # "by how much?": the thread's figure's change, in its unit
    figure_ask = figure_thread and (r.absolute or (figure_reply(low) and bool(FIGURE_CUE.search(low))))
    # "add AbbVie to that": the thread's question for one more company, however it resembles a task
    including = thread is not None and bool(r.tickers) and includes_company(low)
    # "which is the smallest?" after several companies: a choice among them, never an opinion asked of us
    ranking = thread is not None and len(discussed(thread)) >= 2 and bool(COMPARING.search(low)) and only_ranks(low)
    # "order them largest first", "rank them by size": the thread's figure put in order; the ordering
    # words name no figure (nor a printed line) of their own, so none is looked up or refused as unknown
    orders_thread = (thread is not None and bool(thread.metrics) and len(discussed(thread)) >= 2 and only_ranks(low)
                     and not r.tickers and all(k.startswith("line:") for k in r.measures))
    if orders_thread:
        r.unmappable, r.measures = None, []
    # "what did zzyzx holdings earn in 2024?": naming no company we know, asked in the past tense of a year filings
    # have reached, a figure question, never a prediction, however its letters resemble one (the company is what
    # is missing)
    # (the latest year any filing has is looked up only for such a question, never on every message)
    reported = detail == FORECASTS and not r.matches and r.years.given and re.search(r"\b(?:did|was|were|had)\b", low) \
        and not forward_looking(low) \
        and max(r.years.years, default=0) <= max((y for held in directory.years.values() for y in held), default=0)
    # the company's own future, judged so on the whole question above ("how long will Boeing's 737-9s be grounded?",
    # "pep pension expense outlook for 2024"), is its filing's statement, whatever forecast it resembles
    own_future = detail == FORECASTS and (company_future(unnamed_low) or outlook) and bool(r.matches)
    if kind == "refuse" and meta not in ("greeting", "thanks") and not more and not figure_ask and not including \
            and not ranking and not reported and not own_future:
        return refusal_plan("out_of_scope", detail)
    if meta in ("greeting", "thanks", "help") and not (r.matches or subject or more):
        return meta_plan(meta)
    if HOW_TO_ASK.search(chat):  # "how do I ask about Apple's segments?", "what can I ask you about Apple?"
        return meta_plan("help")
    if meta == "coverage" and not r.measures and not r.unmappable and not (r.has_topic and r.matches) and not r.why:
        # "which companies did AbbVie buy and why?" asks the filing about a topic, not what Footnote holds
        return meta_plan("coverage", [m.company.ticker for m in r.matches if m.company])
    # "who earned more?", "what's the difference between them?" in a thread: a comparison of its
    # companies, however much the words alone resemble a question about Footnote
    compares_thread = (thread is not None and bool(COMPARING.search(low))
                       and not re.search(r"\b(?:you|your)\b", low))
    # "who else do they name?": a question about the thread's company, however it resembles one about Footnote
    about_thread = thread is not None and about_the_company(low)
    signing_off = kind == "meta" and detail in ("thanks", "goodbye")  # "bye, thanks for the Nvidia info"
    # "were there any one-time charges in there?": a subject of its own, pointing at the thread's answer
    said = ACKNOWLEDGED.sub("", low)  # "got it", "ok thanks": an acknowledgement points at nothing
    refers_back = (thread is not None and kind == "meta" and meta is None and bool(_ASKED.search(said))
                   and points_back(said) and bool(own_subject(said)))  # "nice, love it" asks nothing
    if kind == "meta" and (not r.matches or signing_off) and not compares_thread and not about_thread and not more \
            and not figure_ask and not refers_back:
        return meta_plan(detail)

    prev = thread
    if r.aspect and prev is not None and prev.metrics and comments_on_thread(low) and not r.why:
        r.why = True  # "what did management say about it?" after a figure: MD&A's discussion of that figure
    share = SHARE.search(low)
    # a transform with nothing to transform ("what's the growth rate for GM?", "as a share of
    # revenue?"): the figure is the thread's, whatever else the message names
    partial = (r.growth or bool(share)) and not (set(r.measures) - {"revenue"} if share else r.measures) \
        and not (r.unmappable or r.has_topic or r.why)
    # "how does AMD compare?" after a figure: that figure, for the thread's company and the one named
    compares_named = (prev is not None and bool(prev.metrics) and bool(r.tickers) and bool(COMPARING.search(low))
                      and not (r.measures or r.unmappable or r.has_topic or r.why))
    reply = ACKNOWLEDGED.sub("", low)  # "great, now do Apple" is the reply "now do Apple"
    followup = prev is not None and (bool(FOLLOWUP.search(low) or FOLLOWUP.search(reply))
                                     or len(re.findall(r"[\w&$'-]+", reply)) <= 3
                                     # "Advanced Micro Devices, Inc.?": a name of several words is one reply word
                                     or (bool(r.tickers) and len(re.findall(r"[\w&$'-]+",
                                                                           ACKNOWLEDGED.sub("", unnamed_low))) <= 3)
                                     or (not r.matches and kind == "domain") or partial or compares_named
                                     or (kind in ("domain", "unknown") and (asks_more(low) or points_back(low)))
                                     or (kind == "unknown" and not r.matches)  # like nothing alone: the thread's
                                     or r.aspect or more or figure_ask  # "give me more detail", "by how much?"
                                     or refers_back  # "were there any one-time charges in there?"
                                     or including or ranking  # "add AbbVie to that", "which is the smallest?"
                                     or bool(ALSO.search(low))  # "is AMD affected too?"
                                     or bool(BACK_TO.search(low))  # "back to Apple: gross profit?"
                                     or (r.why and not r.measures and bool(r.tickers)
                                         and set(r.tickers) <= set(discussed(prev))))

    # a prose thread's follow-up ("which one is more exposed?", "how does that compare to Pepsi?") stays
    # prose: a word no figure takes is its subject, and two companies are compared on the thread's topic
    prose_thread = prev is not None and followup and prev.intent == "qualitative" and not r.measures
    # so does a question about a figure's thread in a phrase its filings write ("what is the housing market doing?")
    asked_in_prose = bool(thread_phrase) and followup and not r.measures and not FIGURE_CUE.search(low)
    if asked_in_prose and not r.unmappable:
        r.has_topic = True  # its subject is the phrase, searched in the thread's filings, never a line of its figure
    if r.unmappable and ((prose_thread and not FIGURE_ASK.search(low)) or asked_in_prose):
        r.unmappable, r.has_topic = None, r.has_topic or bool(r.items)
    elif prev is not None and followup and prev.intent == "qualitative" and r.unmappable and not r.tickers \
            and route_items(r.unmappable.lower())[1] and not names_member_figure(r.unmappable, low):
        # "how much revenue is at risk?" after export controls: what the filing says of the thread's topic,
        # never a line named "revenue risk"
        r.unmappable, r.measures, r.has_topic = None, [], False

    # what the message leaves out, from the thread (refusals carry it too, so a reply to one works)
    inherited: list[str] = []
    sources: dict[str, str] = {}  # slot -> where it came from, when not the message (Plan.slots)
    year_fields, years_inherited = asked_years(r, prev, followup, directory)
    if years_inherited and r.growth and prev is not None and len(prev.fiscal_years) == 1 \
            and len(prev.years_before) == 1 and abs(prev.years_before[0] - prev.fiscal_years[0]) == 1 and not r.tickers \
            and not THAT_YEAR.search(low):
        # "growth between them?" after "fy2025 operating income" then "and fiscal 2024?": the change
        # between the two years the thread has shown, the later one's over the year before it
        year_fields["fiscal_years"] = [max(prev.fiscal_years[0], prev.years_before[0])]
        year_fields.update(latest=False, year_offsets=[])
    elif years_inherited and r.growth and prev is not None and prev.slots.get("fiscal_years") == "thread, shifted" \
            and len(prev.fiscal_years) == 1 and not THAT_YEAR.search(low):
        # "what's the growth rate?" after "and the year before?": the change between the two years
        # the thread has shown, so the later one's growth over the year before it ("how much did it
        # grow that year?" points at the year shown, and keeps it)
        year_fields["fiscal_years"] = [prev.fiscal_years[0] + 1]
    shown_years = years_shown(prev, low) if years_inherited and not r.tickers else []
    if shown_years:  # "capex in those years?" after 2023, then 2024: both
        year_fields.update(fiscal_years=shown_years, latest=False, year_offsets=[])
    base_year = year_of_change(r, low, prev)
    if base_year is not None:
        # "the change from fy2023", "growth over 2022": the year named is the base, the asked year the next
        named_base = r.years.years[0]
        # "is that more than 2022?" after a 2024 figure: both figures, side by side, never the later alone
        both = not r.why and not r.growth and prev is not None and named_base < base_year
        year_fields.update(fiscal_years=[named_base, base_year] if both else [base_year], latest=False,
                           year_offsets=[])
    if years_inherited and r.why and len(year_fields.get("fiscal_years") or []) > 1:
        # "what drove it?" after a three-year trend: the latest year's discussion, which compares it
        # with the year before, not the oldest year's filing
        year_fields["fiscal_years"] = [max(year_fields["fiscal_years"])]
    if years_inherited and r.why and len(year_fields.get("year_offsets") or []) > 1:
        year_fields["year_offsets"] = [max(year_fields["year_offsets"])]
    if years_inherited and prev is not None and prev.latest and prev.fiscal_years and THAT_YEAR.search(low):
        # "how much revenue did they make that year?" after a prose answer from the latest 10-K: the
        # year that filing is for, never a newer year the company's facts already hold
        year_fields.update(fiscal_years=list(prev.fiscal_years), latest=False, year_offsets=[])
    if years_inherited:
        inherited.append("fiscal_years")
        sources["fiscal_years"] = "thread"
    elif r.years.offsets and not r.years.years and prev is not None and followup:
        # "and the year before that?"; "and the year after?" is told apart, since a growth asked next is
        # then the year shown over the one before it, never the year after that
        sources["fiscal_years"] = "thread, shifted" if min(r.years.offsets) < 0 else "thread, shifted later"
    measures = list(r.measures)
    if not measures and not r.unmappable and prev is not None and prev.metrics and followup and not r.has_topic \
            and prev.intent == "qualitative" and set(r.tickers) - set(discussed(prev)) \
            and not (r.why or r.growth or r.absolute or share) \
            and _names_own_thing(outside, r):
        # "and walgreens, any cyber incidents?" after why UnitedHealth's earnings fell: a thing of its own asked of
        # another company, searched in its filing; the thread's figure would answer a question nobody asked
        r.has_topic = True
    same_search = False  # "and in fy2024?" after a prose answer that opened with a figure: that search again
    if not measures and not r.unmappable and prev is not None and prev.metrics and followup and not r.has_topic \
            and not r.why and prev.intent == "qualitative" and not FIGURE_CUE.search(low) and not share \
            and (asks_more(low) or swaps_only(masked(outside, [(m.start, m.end) for m in r.matches]),
                                             bool(r.tickers) or r.years.given)):
        # "and Meta's?" after "why did Alphabet's revenue grow?": the same why, of Meta; after a
        # prose topic beside the figure ("how do export controls affect revenue?"), the same search
        r.why = figure_only_topic(prev)
        same_search = not r.why
    if not measures and not r.unmappable and prev is not None and prev.metrics and followup and not r.has_topic \
            and not r.why and not same_search:
        # "what's the growth rate?": the thread's figures, grown year over year
        measures = inherited_growth(prev.metrics) if r.growth else list(prev.metrics)
        if r.growth:  # a member's figure grows as a member formula (agent.planning.members)
            measures += [k for k in prev.metrics if k.startswith(("dim:", "line:")) and "|*" not in k]
        inherited.append("metrics")
        sources["metrics"] = "thread, grown" if r.growth else "thread"
    carry = {"metrics": measures, **year_fields}

    not_covered = uncovered_mentions(r, directory, outside)
    if prev is not None and not r.tickers and lead_subject(outside) is None and _asks_about(r):
        # "what is IFS?", "does it affect their EV strategy?" in a thread about Intel or GM: a word the thread's
        # filings write inside a question about it is their unit or term, whatever registrant's ticker it spells
        not_covered = [m for m in not_covered if not thread_word(m.text, prev, directory)]
    other = another_company(r, outside, prev, directory) if not not_covered else None
    if other:  # "what about Airbus?" in a Boeing thread: Airbus, never a line of Boeing's that names it
        return refusal_plan(other[0], other[1], **carry)
    ambiguous = [m for m in r.matches if m.kind == "ambiguous"]
    if not_covered:
        m = not_covered[0]
        shouted = m.via == "ticker" and m.text.isupper() and m.text.lower() in english_words()
        if shouted and prev is None and not (measures or r.has_topic or r.why or r.years.given or r.unmappable):
            # "that's ALL for today", "IT works, thanks": a shouted word in small talk, no question about a company
            chat_kind = small_talk(spelled_out(low))
            if chat_kind:
                return meta_plan(chat_kind)
        detail = m.text if m.via == "ticker" else f"{m.text} ({m.company.ticker})"
        return refusal_plan("not_covered", detail, tickers=[m.company.ticker], **carry)
    if ambiguous and not r.tickers:
        m = ambiguous[0]
        return refusal_plan("ambiguous_company", m.text, candidates=[c.ticker for c in m.candidates], **carry)
    owner = unknown_owner(r, outside, prev is not None) if r.unmappable or prev is not None or r.tickers else None
    if owner and prev is not None and not r.tickers and lead_subject(outside) is None and _asks_about(r) \
            and thread_word(owner, prev, directory):
        owner = None  # "does it affect their EV strategy?" after GM: a word GM's filings write, no company
    if owner:  # "Zorblax churn rate", "what about Databricks' ARR?": that company is what is missing first
        return refusal_plan("no_company", owner, **carry)
    # a company matched only through a brand word inside the unmapped figure's own words ("zentrova widget
    # churn": churn is no company's name here) leaves the message naming no company we know
    brand_only = bool(r.unmappable) and bool(r.matches) and all(
        m.via == "brand" and m.text.lower() in r.unmappable.lower() for m in r.matches)
    if r.unmappable and (not r.tickers or (brand_only and prev is None)):
        # "Stripe's EBITDA", "Lululemon comparable sales": the company we do not cover is what is missing
        # first, whatever the figure; the metric's own words are never read as the name
        words = re.escape(r.unmappable).replace(r"\ ", r"[\s-]+")
        rest = re.sub(rf"(?i)\b{words}\b", " ", outside)
        unknown = guess_company_text(rest) if prev is None else named_unknown_company(rest)
        owner = next((whole_name(rest, m) for m in POSSESSIVE_NAME.finditer(rest) if m.group(1).lower() not in STOPWORDS
                      and normalize(m.group(1)) not in MEASURE_PHRASES), None)  # "Uber's", the sentence's first word
        unknown = unknown or owner
        if unknown is None and prev is None:
            # "quillmark holdings adjusted ebitda 2023": the words no metric, period or question word
            # takes, beside a figure no table maps, are the company's name as the user wrote it (the
            # same reading as "shopify revenue 2023" below), so the company is refused first
            ahead = re.split(rf"(?i)\b{words}\b", outside, maxsplit=1)[0]  # a name is written before its figure
            left = unaccounted_words(ahead, ahead.lower()) or unaccounted_words(rest, rest.lower())
            # a name, not a verb or a figure's word ("explain adjusted EBITDA"): some word of it no
            # dictionary holds
            unknown = left if left and any(w not in english_words() for w in normalize(left).split()) else None
        if unknown:
            return refusal_plan("no_company", unknown, **carry)
    listed = listed_company(r, outside, directory)
    if listed:
        # "compare Nike and Adidas revenue": another company is named beside the one we hold, which
        # is what is missing first; never "unknown metric: adidas revenue", nor Nike's figure alone
        registrant = uncovered_registrant(listed, directory)
        if registrant is not None:
            return refusal_plan("not_covered", f"{listed} ({registrant.ticker})", tickers=[registrant.ticker], **carry)
        return refusal_plan("no_company", listed, **carry)
    dim = dimension(r, outside) if r.unmappable else None
    if r.unmappable and dim is None and (r.tickers or (prev is not None and prev.tickers and not r.matches)) \
            and printable(r.unmappable):
        # (a follow-up naming no company asks the thread's: "and other current liabilities?" after its accounts payable)
        # "occupancy and other operating expenses", "comprehensive income": a narrowed metric that may
        # be a row the company prints; the word accounting below makes it a line lookup of these words,
        # answered only by that row and refused by its name otherwise, never the broader metric
        said = normalize(r.unmappable).split()
        inside = [k for s, e, k in find_phrases(" ".join(said), MEASURE_PHRASES)
                  if not counted_shares(" ".join(said[s:e]), k, low.split())]  # never the dollars for a count
        measures = list(dict.fromkeys([*measures, *inside]))
        carry["metrics"], r.unmappable = measures, None
    if r.unmappable and dim is None:
        known = r.tickers or (list(prev.tickers) if prev is not None else [])
        named = unaccounted_words(outside, low) if not known else None
        if named and not set(named.split()) <= set(normalize(r.unmappable).split()):
            # "starbucks comparable store sales": no company we know is named, and words beside the
            # unmapped figure may name one; the company is what is missing first
            return refusal_plan("no_company", named, **carry)
        return refusal_plan("unknown_metric", r.unmappable, tickers=known, **carry)
    if dim:  # "iPhone revenue", "revenue by segment": the member's figure, resolved in retrieve
        measures = [dim, *(k for k in measures if k not in (dim.split("|")[0][4:],))]
        carry["metrics"] = measures

    # companies
    tickers = list(r.tickers)
    lone = None
    lone_refusal = None  # the refusal a reply's lone word had as a name, kept for when no member answers it
    domain_signal = bool(measures or r.has_topic or r.why or r.years.given or r.matches)
    history = discussed(prev)
    group = GROUP.search(low)
    # "which one had higher revenue in 2023?", "higher?": one of the thread's companies
    chooses = CHOOSING.search(low) or bare_ranking(low)
    compares = COMPARING.search(low) and len(prev.tickers) < 2 and not r.years.given and not r.unmappable \
        if prev is not None else False
    # "which is riskier?", "who's more exposed?" after prose answers about several companies: each of them,
    # on the thread's topic, never the last one alone
    r.choice = prose_thread and not tickers and len(history) >= 2 and chooses_among(low)
    if not tickers and prev is not None and len(history) >= 2 and (group or chooses or compares or r.choice):
        # "which of the two was higher?", "rank them" after "and Meta?": the thread's companies
        pair = group is not None and ("both" in group.group(0) or "two" in group.group(0))
        every = group is not None or bool(OF_ALL.search(low))  # "which was highest?": all it discussed
        tickers = history[-2:] if pair or not every else history[-4:]
        if not pair and len(prev.tickers) > len(tickers):
            tickers = list(prev.tickers)  # "which one made more?" after three companies: all three, not the last two
        inherited.insert(0, "tickers")
        sources["tickers"] = "thread, its companies"
    if not tickers and prev is not None:
        unknown = named_unknown_company(unthreaded) or compared_name(unthreaded)
        if unknown and lead_subject(outside) is None and _asks_about(r) and thread_word(unknown, prev, directory):
            unknown = None  # "does it affect their EV strategy?" after GM: a word GM's filings write
        if unknown:  # "FOOBAR revenue" in a thread about Apple: not Apple's revenue
            return refusal_plan("no_company", unknown, **carry)
        other_registrant = registrant_not_theirs(unthreaded, directory, list(prev.tickers))
        if other_registrant and figure_word(unthreaded, other_registrant[0]):
            other_registrant = None  # "and Net income?" after Amazon's revenue: a figure's word, no registrant "Net"
        if other_registrant:  # "and Toyota in 2022?" after Ford: Toyota, never Ford's 2022
            word, company = other_registrant
            return refusal_plan("not_covered", f"{word} ({company.ticker})", tickers=[company.ticker], **carry)
        named, term = lead_subject(unthreaded), False
        if named and (r.kind or implied_measures(named.lower())):
            named = None  # "what about profitability?": a figure's word, no company's name
        about = unknown_subject(named, directory) if named else None
        if about is None and named and prose_thread and named.lower() in NON_REGISTRANTS:
            # "what about samsung?" after a prose answer: a company that files nothing with the SEC,
            # though a dictionary word; never a topic searched in the thread's company's filing
            about = ("no_company", named)
        if about and any(k.startswith("dim:") for k in prev.metrics):
            about = None  # "and Mac?" after "iPhone revenue": a sibling member, looked up (or refused) as one
        if about and about[0] == "no_company" and prose_thread and re.fullmatch(r"[a-z]+[A-Z][A-Za-z]*", named):
            # "and eCommerce?" after "any commentary on pricing?": a word spelled as a product or a term is
            # (lower case first, a capital inside), never as a name, in a thread searching a filing: the next
            # thing to search for. A word that may be a name typed in lower case ("what about samsung?")
            # stays a company asked about, refused as one, never answered for the thread's company.
            about, named = None, None
        if named and (about is None or about[0] == "no_company") and named.upper().replace(".", "") in ACRONYMS:
            about, named, term = None, None, True  # "and the UK?": a country or a term, never a company's name
        elif named and (about is None or about[0] == "no_company") and named == named.lower() \
                and not (prev.period and names_thread_period(outside.lower())) and common_term(named, prev, directory):
            # ("and the same quarter last year?" names the thread's quarter, no term: the figure again, a year back)
            # "and what about e-commerce?" after Walmart's revenue: a term typed in lower case that the thread's
            # filings write in their own prose is theirs, never a company's name, nor a line of the thread's
            # figure: its member's figure when the company tags one by the word (a probe), else what the
            # filing says of it
            about, named, term = None, None, True
            if not (r.why or r.growth or r.absolute):  # "and the change from the prior year?": the figure's own
                r.has_topic, measures = True, []
                if "metrics" in inherited:
                    inherited.remove("metrics")
                    sources.pop("metrics", None)
        if about and named and member_reply(prev) and not r.measures and not r.unmappable \
                and (about[0] == "no_company" or re.search(rf"(?i)\bthe\s+{re.escape(named)}\b", outside)):
            # "what about the Americas?", "and Sporting Equipment?" after a figure: a member of that figure when the
            # company reports one by the name; else the refusal the name had (agent.retrieval.retrieve). A registrant
            # named as such ("Shopify then", "arm holdings") stays refused by its name at once
            lone_refusal, about = {"reason": about[0], "detail": about[1]}, None
        if about:  # "what about Ford?" in a thread about Tesla: about Ford, never Tesla again
            return refusal_plan(about[0], about[1], **carry)
        word = named or compared_word(unthreaded)  # "compare that with ford"
        held = None
        if word and not any(k.startswith("dim:") for k in prev.metrics):
            # "and ford?": a name that is an everyday word; "and v?", "same for ma": a short ticker in lower case
            held = covered_by_word(word, directory) or (
                _covered_ticker(word, directory) if len(word) <= 2 and word.islower() else None)
        if held is not None:
            # "and ford?" in a thread about GM: Ford, a company held whose name is an everyday word typed in
            # lower case (which no name match takes), never GM again nor a topic of GM's filing
            named = None
            tickers = [held.ticker] if held.ticker not in prev.tickers else tickers
            said = re.search(rf"(?i)\b{re.escape(word)}\b", outside)
            if said:  # the word is the company's name here, never a line or topic word to account for
                r.matches.append(CompanyMatch("company", said.group(0), said.start(), said.end(), held, via="name"))
        # an ordinary word ("what about samsung?"), or a name beside a measure ("what about sony's net
        # income?"): a line or segment of the thread's company, or else a name
        # "how about its margin?": "its" is the thread's company, so the word is no other company's name
        lone = None if about_the_company(low) or term else named or lead_name(outside)
    if prev is not None and prev.tickers:
        if not tickers and (domain_signal or followup):
            tickers = list(prev.tickers)
            inherited.insert(0, "tickers")
            sources["tickers"] = "thread"
        elif tickers and "tickers" not in sources and followup and not INSTEAD.search(low) \
                and ((prev.intent == "compare" and not r.measures) or ADDING.search(low) or including
                     or (COMPARING.search(low) and POINTER.search(low))):
            # ("Target instead", "back to Apple" replace the thread's companies: never added to them)
            new = [t for t in tickers if t not in prev.tickers]
            if new:  # "compare that with Nvidia", "and Tesla?" after a comparison
                tickers = list(prev.tickers) + new
                inherited.insert(0, "tickers")
                sources["tickers"] = "thread, and the message's"
    if not tickers:
        named = guess_company_text(outside)
        if named and named.lower() == OWN_NAME:
            named = None  # "good morning Footnote, ready for earnings season?": whom it speaks to, no company
        guess = named or (unaccounted_words(outside, low) if domain_signal else None)
        if guess and not named and guess.lower() in _ASKING_VERBS:
            guess = None  # "explain free cash flow": the verb that asks, never the company's name
        # "can you explain what you do in one sentence?": a topic's or a figure's word ("explain", "earnings")
        # and no name, year or company: judged as small talk first, never refused for the company it does not name
        topic_only = (r.has_topic or r.why or measures) and not (r.years.given or r.matches) and named is None
        if topic_only and prev is None:
            chat_kind = small_talk(chat)  # as written, Footnote's name and all
            if chat_kind or asks_what_footnote_is(low):
                return meta_plan(chat_kind or "about")
        if guess and not domain_signal and prev is None:
            # "Happy Friday!", "is this like Bloomberg?": a capitalised word no company goes by, and
            # nothing of a filing: small talk when the whole message reads as small talk
            chat_kind = small_talk(spelled_out(low))
            if chat_kind:
                return meta_plan(chat_kind)
            if greets_first(low) or asks_what_footnote_is(low):
                # "Greetings from the Equity Research desk", "is this like Perplexity?": whom it
                # greets or what it likens Footnote to is no company asked about
                return meta_plan("greeting" if greets_first(low) else "about")  # small_talk said nothing above
            refused = refusal_by_meaning(spelled_out(low))
            if refused:  # "can you plan a trip to Lisbon?": off-topic, not a company called Lisbon
                return refusal_plan("out_of_scope", refused)
        if domain_signal or guess:
            return refusal_plan("no_company", guess, **(carry if domain_signal else {}))
        if meta in ("greeting", "thanks") and prev is None:
            return meta_plan(meta)  # "ok now thanks a lot": nothing asked and nothing named, only thanks
        return refusal_plan("out_of_scope", "topics outside companies' 10-K filings")

    plan = Plan(route="domain", intent="numeric", tickers=tickers, lone_name=lone,
                lone_refusal=lone_refusal if lone else None, **year_fields)
    plan.companies_read = [{"word": m.text, "ticker": m.company.ticker, "via": m.via} for m in r.matches
                           if m.company is not None and m.kind in ("company", "topic")] + \
        [{"word": w, "via": "word"} for w in r.words_not_tickers]
    plan.brand = next(({"word": m.text, "ticker": m.company.ticker, "name": m.company.name} for m in r.matches
                       if m.via == "brand" and m.kind == "company" and m.company.ticker in tickers), None)
    plan.thread_tickers = [t for t in history if t not in tickers][-4:] + tickers
    if prev is not None and prev.fiscal_years and not years_inherited and set(tickers) == set(prev.tickers):
        plan.years_before = list(prev.fiscal_years)  # "and fiscal 2024?": the year the thread showed before
    # growth words turn a base metric into its year-over-year growth ("how much did it grow?"); over
    # three years or more, "how has it changed" is a trend of the metric itself
    several_years = len(plan.fiscal_years) >= 3 or len(plan.year_offsets) >= 3 or r.years.trend
    if r.growth and measures and not any(k in FORMULAS for k in measures) and not several_years:
        measures = [growth_key(k) if k in GROWTH_BASES else k for k in measures]
    own = [k for k in r.measures if k != "revenue"]
    if share and own and all(share_of_revenue(k) for k in own):
        measures = [share_of_revenue(k) for k in own]  # "and operating income as a share of revenue?"
    # the thread's figures over revenue; one that already is a share of revenue stays that share
    shares = [k if is_share_of_revenue(k) else share_of_revenue(figure_base(k))
              for k in (prev.metrics if prev is not None else [])
              if is_share_of_revenue(k) or share_of_revenue(figure_base(k))]
    if share and prev is not None and shares and not own:
        measures = shares  # "as a % of revenue?" after "tesla capex 2023", for the thread's companies
        if "metrics" not in inherited:
            inherited.append("metrics")
        sources["metrics"] = "thread, as a share of revenue"
    elif share and prev is not None and prev.metrics and not own and set(measures) <= {"revenue"} \
            and "revenue" not in prev.metrics:
        # "as a % of revenue?" after a figure no share is computed for (a line the company prints): that
        # share cannot be given, and revenue itself would be a true figure for another question
        return refusal_plan("unknown_metric", f"{thread_topic(prev)} as a share of revenue", tickers=tickers,
                            fiscal_years=plan.fiscal_years, latest=plan.latest, year_offsets=plan.year_offsets)
    if r.absolute:  # "by how much, in dollars?": the difference, never the rate
        measures = [change_key(k[: -len("_growth")]) if k.endswith("_growth") and k[: -len("_growth")] in GROWTH_BASES
                    else k for k in measures]
    else:
        measures = amount_and_rate(measures, low, plan.fiscal_years, tickers)
    if (any(k.endswith(("_growth", "_change")) for k in measures) and len(plan.fiscal_years) == 2
            and plan.fiscal_years[1] - plan.fiscal_years[0] == 1 and not r.years.trend):
        plan.fiscal_years = plan.fiscal_years[1:]  # "2025 vs 2024": the 2025 growth
    if not measures and len(tickers) >= 2 and not r.has_topic and not r.why and not prose_thread:
        measures = list(DEFAULT_COMPARE)  # "compare Apple and Nvidia": the headline figures
    outlook = filing_outlook(plan)
    if outlook:  # "what does its 2024 10-K say it expects for capex in 2025?": the filing's own words
        plan.fiscal_years, plan.year_offsets, plan.latest = [plan.as_of_filing_year], [], False
        measures = []  # no figure of a year the filing has not reported
    if measures and (r.why or r.statement) and owned_units(r, outside):
        # "why did Meta's RL revenue fall?": the unit's figure, which no table maps to it, is not the company's
        # total; the discussion that explains it states it
        measures = []
    plan.metrics = measures
    # the message named no year: each company of a comparison built over several turns stays at its own
    # ("which was bigger that year?" asks every company at the year the thread's last answer was for)
    plan.company_years = {} if THAT_YEAR.search(low) else \
        own_years(plan, prev, years_inherited or sources.get("fiscal_years", "").startswith("thread"))

    qualitative = prose_search(plan, r, prev, followup, inherited)
    if qualitative and asked_in_prose:
        plan.topic = thread_phrase  # the phrase its filings write, not the verbs around it ("doing")
    if qualitative and years_inherited:
        latest_for_newcomers(plan, prev, directory)  # "what about AMD?" after Amazon's 2024 10-K: AMD's latest
    plan.inherited = inherited
    plan.slots = slot_sources(plan, inherited, sources, why=r.why)
    if qualitative and "items" not in inherited:
        defaults = list(plan.items)
        plan.items = order_items(low, plan.items, named_other=any(m.kind in ("topic", "not_covered") for m in r.matches))
        # neither a topic word nor the form of the question chose them: a default, searched as a preference,
        # when the question asks what a filing says (a bare figure phrase keeps its bound: a note's
        # amounts of a neighbouring line would be quoted for it; so does a figure's cause, which MD&A states)
        plan.items_guessed = (not r.topic_items and plan.items == defaults and not OUTLOOK.search(low)
                              and r.prose_ask and not r.why and not plan.metrics)
    if outlook and not r.items:
        plan.items = ["7"]  # plans and expectations are stated in MD&A (liquidity, outlook)
    if qualitative:
        plan.intent = "qualitative"
        plan.asks_cause = r.why
    elif len(tickers) >= 2:
        plan.intent = "compare"
    elif r.years.trend or len(plan.fiscal_years) >= 2 or len(plan.year_offsets) >= 2:
        plan.intent = "trend"
    elif any(k in FORMULAS for k in plan.metrics):
        plan.intent = "derived"
    if orders_thread and plan.intent == "compare" and "metrics" in plan.inherited:
        return plan  # its words only order the thread's figure: none is left over to qualify it
    return account_words(plan, r, outside, low, prev, directory.joined_names(plan.tickers),
                         directory.row_names(plan.tickers))


def _names_own_thing(outside: str, r: Reading) -> bool:
    """Beside the companies it names, the reply names a thing of its own ("and walgreens, any cyber incidents?"),
    not only a company swapped in ("and Meta's?")."""
    rest = own_subject(masked(outside, [(m.start, m.end) for m in r.matches]))
    return names_own_thing([w for w in rest if w not in ("company", "company's", "s")])
