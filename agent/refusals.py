"""What Footnote says when it will not answer: the reason, then what it can do instead.

No refusal message ever carries a financial figure; the only variable parts are names the user
typed or the store holds (companies, tickers, fiscal years, metric names).
"""

from __future__ import annotations

import re

from agent.answer import RefusalReason

# Anything that looks like an amount, except a bare fiscal year, is removed from echoed details.
_FIGURE = re.compile(r"[$€£]?\s?\d[\d,]*(?:\.\d+)?\s?(?:%|percent|billion|million|thousand|bn|m\b|k\b)?", re.I)
_YEAR = re.compile(r"^\d{4}$")  # any four-digit year the user typed ("1875"), echoed back
# A number the refusal itself labels a fiscal year ("fiscal 20245", a year mistyped) is the year as the user
# typed it, whatever its digits: scrubbing it left "reported figures for fiscal." naming no year at all
# as is a quarter's name ("Q5": no such quarter)
_LABELLED_YEAR = re.compile(r"\b(?:fiscal(?:\s+year)?|FY)\s?\d+\b(?![.,]\d)|\b[QH]\d\b", re.I)

MESSAGES: dict[str, str] = {
    "no_company": (
        "I couldn't tell which company you mean{detail}. Name a covered company or its ticker, "
        "for example {example}; ask \"which companies do you cover?\" to see the list."
    ),
    "ambiguous_company": (
        "More than one company matches{detail}. Which one do you mean: {candidates}? "
        "Reply with the ticker and I'll answer."
    ),
    "not_covered": (
        "{detail_plain} is not among the companies whose 10-K and 10-Q filings I hold, so I can't answer from its filings. "
        "Ask \"which companies do you cover?\" to see the companies I can answer about."
    ),
    "year_not_available": "I don't have {detail_plain}. {years_hint}",
    "unknown_metric": (
        "I found no figure the filings report as {detail_quoted}, and I won't substitute a look-alike "
        "figure. I can report any line of the income statement, balance sheet or cash-flow statement under "
        "the name the filing prints (for example \"net cash used in investing activities\"), segment and "
        "product figures the filing tags, and margins, growth and ratios computed from them."
    ),
    "ambiguous_metric": (
        "More than one line in the filing matches {detail_quoted}: {candidates}. Which one do you mean? "
        "Reply with its name as printed and I'll answer."
    ),
    "out_of_scope": (
        "I only answer from companies' 10-K and 10-Q filings: reported figures, ratios computed from them, "
        "and what the filings say about risks, strategy, operations and results. "
        "I can't help with {detail_plain}."
    ),
    "no_grounding": (
        "I couldn't find support for an answer in the filing{detail}, so I won't guess. "
        "Try naming the topic the way a 10-K would (for example \"supply chain risks\" or "
        "\"cybersecurity governance\"), or ask for a specific reported figure."
    ),
    "input_too_long": (
        "That message is too long for me to handle ({detail_plain}; I read questions of up to {limit} characters). "
        "Ask one question in a sentence or two, for example {example}."
    ),
    "internal_error": (
        "Something went wrong on my side while answering, and nothing unverified was shown. "
        "Please try again in a moment."
    ),
}

# A not_covered detail's mark: the company's 10-Q quarters alone are held, and a fiscal year was asked
# (agent.retrieval.fetch writes it, this module words it).
QUARTERS_ONLY = "quarters only: "
QUARTERS_ONLY_TEXT = (
    "I hold only 10-Q quarterly reports for {detail_plain}, no 10-K or fiscal-year figures, so I can't answer for a "
    "fiscal year. Ask for one of its quarters (for example \"its revenue in the latest quarter\"), or ask \"which "
    "companies do you cover?\" to see what I hold."
)

# A no_grounding detail's mark: the filing reports the share count asked for (or a formula divides by), but tags
# it without its scale (agent.retrieval.metric_facts.plausible_count): "<company>|<what>|<fiscal year>"
UNSCALED = "unscaled: "
UNSCALED_TEXT = (
    "In its 10-K for fiscal {year}, {company} reports {what}, but the XBRL tag on it leaves out the scale the "
    "statement prints the count in (millions or thousands), so the tagged number is far too small to be the count. "
    "I'm sorry: I won't state it as a figure or divide by it. The statement itself shows the count; ask me for "
    "another figure or another year."
)

SEARCHED_NOTHING = (
    "I searched {detail_plain} and found no passage that answers this, so I won't quote something unrelated. "
    "Try naming the topic the way a 10-K would, another fiscal year, or ask for a specific reported figure."
)

# Said when an answer passes its deadline (agent.service); it may still arrive in the cache.
LATE_TEXT = (
    "This is taking much longer than it should (my database may be slow or unavailable right now), "
    "and nothing unverified was shown. Please ask again in a minute."
)

_OUT_OF_SCOPE_DEFAULT = "stock prices, forecasts, investment advice, sources other than 10-K filings, or changes to how I work"


def refusal_text(
    reason: RefusalReason,
    detail: str | None = None,
    *,
    candidates: list[str] | None = None,
    years: list[int] | None = None,
    filing_years: list[int] | None = None,
    figure_years: list[int] | None = None,
    limit: int | None = None,
    covered: list[dict] | None = None,
) -> str:
    """The user-facing sentence(s) for a refusal reason.

    With `filing_years` (and `figure_years`), a missing year is answered with what there is, told
    apart: years with a 10-K (figures and text) and years with figures only."""
    template = MESSAGES.get(reason, MESSAGES["internal_error"])
    if reason == "not_covered" and (detail or "").startswith(QUARTERS_ONLY):
        # built from the store's name and ticker, as a search's detail is ("3M" is no amount to scrub)
        template, detail = QUARTERS_ONLY_TEXT, detail[len(QUARTERS_ONLY):][:200].strip()
    elif reason == "no_grounding" and (detail or "").startswith(UNSCALED) and detail.count("|") == 2:
        company, what, year = detail[len(UNSCALED):].split("|")  # the store's name, a metric's label, a year
        return UNSCALED_TEXT.format(company=company[:120], what=scrub_figures(what)[:120], year=year[:4])
    elif reason == "no_grounding" and (detail or "").startswith("searched "):
        template = SEARCHED_NOTHING
        detail = detail[len("searched "):][:200].strip()  # built from the store's names, Items and years
    else:
        detail = scrub_figures(detail or "")[:200].strip()
    plain = detail or {
        "not_covered": "That company",
        "year_not_available": "that fiscal year",
        "out_of_scope": _OUT_OF_SCOPE_DEFAULT,
        "input_too_long": "over the limit",
    }.get(reason, "")
    if reason == "not_covered" and plain and template is not QUARTERS_ONLY_TEXT:
        plain = plain[0].upper() + plain[1:]
    years_hint = "Say \"latest\" for the most recent filing, or ask \"which companies do you cover?\" to see the years."
    if filing_years is not None or figure_years is not None:
        years_hint = coverage_hint(filing_years or [], figure_years or [])
    elif years:
        years_hint = "I have fiscal " + ", ".join(str(y) for y in sorted(years)) + ": ask about one of those, or say \"latest\"."
    return template.format(
        example=example_question(covered or []),
        detail=f" (\"{detail}\")" if detail else "",
        detail_plain=plain,
        detail_quoted=f"\"{detail}\"" if detail else "that metric",
        candidates=", ".join(candidates or []) or "the companies you had in mind",
        years_hint=years_hint,
        limit=spelled(limit or _question_limit()),
    )


def example_question(covered: list[dict]) -> str:
    """An example naming a company the store holds (store.coverage rows), never one it lacks."""
    row = next((r for r in covered if r.get("fiscal_years")), None)
    if row is None:
        return "\"<company>'s revenue in fiscal <year>\""
    name = row.get("display_name") or row["name"]
    return f"\"{name}'s revenue in fiscal {row['fiscal_years'][-1]}\" or \"{row['ticker']} risk factors\""


def coverage_hint(filing_years: list[int], figure_years: list[int]) -> str:
    """'I have its 10-K for fiscal 2023 and 2024 (figures and what the filing says), and reported
    figures only for fiscal 2019–2022: ask about one of those, or say "latest".'"""
    from store.coverage import years_text

    filed = sorted(set(filing_years))
    only = sorted(set(figure_years) - set(filed))
    parts = []
    if filed:
        parts.append(f"its 10-K for fiscal {years_text(filed, prefix='')} (figures and what the filing says)")
    if only:
        parts.append(f"reported figures only for fiscal {years_text(only, prefix='')}")
    if not parts:
        return "I have no fiscal year for it yet."
    return "I have " + ", and ".join(parts) + ": ask about one of those, or say \"latest\"."


_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]


def spelled(n: int) -> str:
    """A limit in words ("two thousand"): a refusal never shows a digit a reader could take for a figure."""
    if n % 1000 == 0 and 1 <= n // 1000 <= 10:
        return f"{_WORDS[n // 1000]} thousand"
    if 0 <= n <= 10:
        return _WORDS[n]
    return f"{n:,}"


def _question_limit() -> int:
    from agent.answer import MAX_QUESTION_CHARS

    return MAX_QUESTION_CHARS


# A company's name as the store holds it, marked by the code that builds a refusal's detail so that the scrub
# keeps it whole: "3M" is a name, not three million, and scrubbing it left "I don't have 's figures".
_NAMED = "\u2063"


def as_named(name: str) -> str:
    """`name` (a company's name from the store) marked to survive `scrub_figures`."""
    return f"{_NAMED}{name}{_NAMED}" if name else name


def scrub_figures(text: str) -> str:
    """Drop amounts from text echoed back to the user; keep fiscal years like 2024 and marked names (`as_named`)."""
    kept: list[str] = []

    def keep(m: re.Match) -> str:
        kept.append(m.group(0))
        return chr(0xE000 + len(kept) - 1)  # a private-use character: no digit the scrub could take

    text = re.sub(f"{_NAMED}([^{_NAMED}]*){_NAMED}", keep, text)
    protected = _LABELLED_YEAR.sub(keep, re.sub(r"\b10-K\b", "\x00", text))
    scrubbed = _FIGURE.sub(lambda m: m.group(0) if _YEAR.match(m.group(0).strip()) else "", protected)
    scrubbed = re.sub("[\ue000-\ue0ff]", lambda m: kept[ord(m.group(0)) - 0xE000], scrubbed)
    return scrubbed.replace("\x00", "10-K").replace(_NAMED, "")


def searched_for(state, plan) -> str:
    """What a prose search that found nothing looked through, and for which words when a passage had to name them
    (`Plan.unless_named`): "searched Comcast's fiscal 2023 10-K (Items 7, 8 and 1A) for "taxes" and "hulu"". Why:
    "I couldn't find support" alone leaves the user guessing whether the right filing was read at all. Only words
    of letters are echoed: a refusal never carries a figure."""
    from agent.composing.compose import searched

    where = searched(state)
    words = [w for w in ((plan.unless_named or {}).get("words") or []) if re.fullmatch(r"[a-z][a-z'&-]*", w)][:4]
    if not words:
        return where
    said = ", ".join(f"\u201c{w}\u201d" for w in words[:-1])
    return f"{where} for {said + ' and ' if said else ''}\u201c{words[-1]}\u201d"


def refuse(state, deps, config) -> dict:
    """The refuse node: whichever node found the problem left {reason, detail, ...} in
    `refusal` (or the planner refused outright); this turns it into the Answer."""
    from agent.answer import Answer
    from agent.state import plan_of, traced_plan

    plan = plan_of(state)
    refusal = state.get("refusal") or {
        "reason": (plan.refusal_reason if plan else None) or "out_of_scope",
        "detail": plan.refusal_detail if plan else None,
        "candidates": (plan.candidates if plan else None) or [],
    }
    reason = refusal.get("reason") or "out_of_scope"
    if reason == "no_grounding" and not refusal.get("detail") and state.get("resolved") and plan is not None \
            and plan.intent == "qualitative":
        refusal = {**refusal, "detail": searched_for(state, plan)}
    covered = []
    if reason == "no_company":
        from store.coverage import coverage

        with deps.db.connection() as conn:
            covered = coverage(conn)
    text = refusal_text(
        reason,
        refusal.get("detail"),
        candidates=refusal.get("candidates"),
        years=refusal.get("years"),
        filing_years=refusal.get("filing_years"),
        figure_years=refusal.get("figure_years"),
        covered=covered,
    )
    answer = Answer(
        kind="refusal",
        text=text,
        refusal_reason=reason,
        route="refusal",
        plan=traced_plan(state),
        planner=state.get("planner") or "rules",
        fallback=state.get("plan_fallback"),
    )
    return {"answer": answer.model_dump(mode="json")}
