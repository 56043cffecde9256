"""The model planner: the same Plan as the rules planner, from an OpenAI-compatible model.

The model only proposes. Its output is validated against the same closed sets the rules planner
uses: companies must resolve through the directory, metrics must be keys of the metric or
formula tables (an unknown one becomes an unknown_metric refusal, never the nearest key), Items
come from a fixed list. Anything the checks cannot accept, and any model error or timeout, falls
back to the rules planner with the reason recorded in `Plan.fallback`, so a broken or hijacked
model costs quality, never correctness.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, ConfigDict

from agent import prompts
from agent.planning.plan import Intent, Plan, Route
from agent.structured_output import ModelError, chat_json, strict_schema

log = logging.getLogger(__name__)

ITEMS = ("1", "1A", "1C", "7", "7A", "8")
INHERITABLE = {"companies": "tickers", "fiscal_years": "fiscal_years", "metrics": "metrics", "items": "items", "intent": "intent"}
META_INTENTS = {"greeting", "thanks", "help", "coverage", "goodbye", "ack", "about"}
DOMAIN_INTENTS = {"numeric", "derived", "compare", "trend", "qualitative"}
NUMERIC_INTENTS = DOMAIN_INTENTS - {"qualitative"}
MIN_YEAR, MAX_YEAR = 1993, 2100  # EDGAR's first electronic filings .. a sanity bound


class ModelPlan(BaseModel):
    """What the model is asked to fill in: the Plan's fields, in the user's words where resolving
    them is our job (companies, unknown metrics)."""

    model_config = ConfigDict(extra="forbid")

    route: Route
    intent: Intent
    companies: list[str]
    fiscal_years: list[int]
    latest: bool
    metrics: list[str]
    unknown_metric: str | None
    items: list[str]
    as_of_filing_year: int | None
    query: str
    sub_queries: list[str]
    refusal_reason: Literal["out_of_scope", "unknown_metric", "no_company"] | None
    refusal_detail: str | None
    inherited: list[str]


def metric_menu() -> dict[str, str]:
    """Every key a plan may name, with its label: the metric table's and the formula registry's."""
    from agent.retrieval.concepts import METRICS
    from agent.retrieval.finance import FORMULAS

    menu = {key: m.label for key, m in METRICS.items()}
    menu.update({key: f.label for key, f in FORMULAS.items() if key not in menu})
    return menu


def _schema(keys: list[str]) -> dict:
    schema = strict_schema(ModelPlan)
    props = schema["properties"]
    props["metrics"]["items"]["enum"] = keys
    props["items"]["items"]["enum"] = list(ITEMS)
    props["inherited"]["items"]["enum"] = list(INHERITABLE)
    return schema


def plan_llm(text: str, *, previous: Plan | None, directory, client, model: str, timeout: float) -> Plan:
    """Plan with the model; on any failure, the rules planner's plan with `fallback` saying why."""
    try:
        menu = metric_menu()
        keys = list(menu)
        messages = prompts.planner_messages(
            text, previous=_previous_summary(previous), metrics=[f"{k}: {label}" for k, label in menu.items()], items=list(ITEMS)
        )
        proposed = chat_json(
            client, model=model, messages=messages, output=ModelPlan, name="footnote_plan", timeout=timeout, schema=_schema(keys)
        )
        plan = validate(proposed, text=text, previous=previous, directory=directory, keys=set(keys))
        unaccounted = word_accounting(plan, text, previous=previous, directory=directory)
        if unaccounted:
            raise ModelError(f"word_accounting: {unaccounted}")
        return plan
    except ModelError as exc:
        reason = exc.reason
    except Exception as exc:  # a bug in validation must not take the turn down with it
        log.exception("model planner failed")
        reason = f"error: {type(exc).__name__}"
    log.info("model planner fell back to rules: %s", reason)
    return _rules(text, previous=previous, directory=directory, reason=reason)


def word_accounting(plan: Plan, text: str, *, previous: Plan | None, directory) -> str | None:
    """Why a model's figure plan may not be used, or None: the same check the rules planner makes
    (agent.planning.words). Every word of the question must be consumed by a company, a period, filler
    or a metric phrase of a key the plan asks for; a word no metric takes (a qualifier, a longer
    line item, a quarter) or a key the question never names (a look-alike: "turnover" read as
    revenue) sends the question to the rules planner, which looks the words up or refuses them."""
    if plan.route != "domain" or plan.intent not in NUMERIC_INTENTS:
        return None
    from agent.planning.rules import plan_rules
    from agent.planning.words import quarterly_phrase

    if quarterly_phrase(text.lower()):
        return f"a period the rules planner reads ({quarterly_phrase(text.lower())!r})"  # quarters: agent.planning.quarters
    rules = plan_rules(text, previous=previous, directory=directory)
    if rules.route == "refusal" and rules.refusal_reason in ("unknown_metric", "out_of_scope"):
        return f"{rules.refusal_reason}: {rules.refusal_detail}"  # "sales per square foot", an instruction
    left = [w["word"] for w in rules.words if w["as"] == "unaccounted"]
    if left:
        return f"words no metric accounts for: {' '.join(left)!r}"
    special = [k for k in rules.metrics if k.startswith(("line:", "dim:", "udf:"))]
    if special:
        return "a line item, member or formula of the question's own words"
    named = {w["as"][7:] for w in rules.words if w["as"].startswith("metric:")}
    named |= {k for w in rules.words for k in w.get("joins", ())} | set(rules.metrics)
    if previous is not None and "metrics" in plan.inherited:
        named |= set(previous.metrics)
    extra = [k for k in plan.metrics if k not in named]
    if extra:
        return f"metrics the question does not name: {', '.join(extra)}"
    return None


def _rules(text: str, *, previous, directory, reason: str) -> Plan:
    from agent.planning.rules import plan_rules

    plan = plan_rules(text, previous=previous, directory=directory)
    return plan.model_copy(update={"planner": "rules", "fallback": f"planner: {reason}"})


def _previous_summary(previous: Plan | None) -> dict | None:
    if previous is None or previous.route != "domain":
        return None
    return previous.model_dump(
        include={"intent", "tickers", "fiscal_years", "latest", "metrics", "items", "as_of_filing_year", "query"}
    )


def normalize_metric(name: str) -> str:
    return re.sub(r"[\s\-/]+", "_", name.strip().lower())


def normalize_item(name: str) -> str:
    return re.sub(r"^item\s*", "", name.strip(), flags=re.I).upper()


def validate(mp: ModelPlan, *, text: str, previous: Plan | None, directory, keys: set[str]) -> Plan:
    """Turn the model's proposal into a Plan, or raise ModelError if it does not hold up."""
    if mp.route == "meta":
        if mp.intent not in META_INTENTS:
            raise ModelError(f"invalid_output: intent {mp.intent} on route meta")
        return Plan(route="meta", intent=mp.intent, planner="llm")
    if mp.route == "refusal":
        if mp.intent != "refuse" or mp.refusal_reason is None:
            raise ModelError("invalid_output: refusal without a reason")
        if mp.refusal_reason == "no_company":  # which company is meant is the directory's call
            raise ModelError("unresolved: the model found no company")
        detail = mp.refusal_detail or (mp.unknown_metric if mp.refusal_reason == "unknown_metric" else None)
        return _refusal(mp.refusal_reason, detail)
    if mp.intent not in DOMAIN_INTENTS:
        raise ModelError(f"invalid_output: intent {mp.intent} on route domain")

    inherited = [INHERITABLE[f] for f in dict.fromkeys(mp.inherited) if f in INHERITABLE]
    prev = previous if previous is not None and previous.route == "domain" else None

    metrics: list[str] = []
    for name in mp.metrics:
        key = normalize_metric(name)
        if key not in keys:
            return _refusal("unknown_metric", name)  # never the nearest key
        if key not in metrics:
            metrics.append(key)
    if mp.unknown_metric and mp.intent in NUMERIC_INTENTS and not metrics:
        return _refusal("unknown_metric", mp.unknown_metric)
    if not metrics and mp.intent in NUMERIC_INTENTS and prev and prev.metrics:
        metrics = list(prev.metrics)
        inherited.append("metrics")
    if mp.intent in NUMERIC_INTENTS and not metrics:
        raise ModelError(f"invalid_output: {mp.intent} plan without a metric")

    tickers = _resolve_companies(mp.companies, directory)
    if prev and prev.tickers and (not tickers or ("tickers" in inherited and mp.intent == "compare")):
        # "compare that with Nvidia": the thread's companies first, then the new ones
        tickers = list(dict.fromkeys([*prev.tickers, *tickers]))
        inherited.append("tickers")
    if not tickers:
        raise ModelError("unresolved: no company")

    years = list(dict.fromkeys(mp.fiscal_years))
    if not years and "fiscal_years" in inherited and prev:
        years = list(prev.fiscal_years)
    for year in years + ([mp.as_of_filing_year] if mp.as_of_filing_year is not None else []):
        if not MIN_YEAR <= year <= MAX_YEAR:
            raise ModelError(f"invalid_output: fiscal year {year}")

    items = []
    for name in mp.items:
        item = normalize_item(name)
        if item not in ITEMS:
            raise ModelError(f"invalid_output: item {name!r}")
        if item not in items:
            items.append(item)

    if not items and "items" in inherited and prev:
        items = list(prev.items)

    query = mp.query.strip()
    if mp.intent == "qualitative" and not query:
        query = text.strip()
    return Plan(
        route="domain",
        intent=mp.intent,
        tickers=tickers,
        fiscal_years=years,
        latest=mp.latest or not years,
        metrics=metrics,
        items=items,
        as_of_filing_year=mp.as_of_filing_year,
        query=query,
        sub_queries=[q.strip() for q in mp.sub_queries if q.strip()][:3],
        inherited=list(dict.fromkeys(inherited)),
        planner="llm",
    )


def _refusal(reason: str, detail: str | None) -> Plan:
    return Plan(route="refusal", intent="refuse", refusal_reason=reason, refusal_detail=detail, planner="llm")


def _resolve_companies(names: list[str], directory) -> list[str]:
    """Each name through the directory; one that does not resolve to exactly one company is the
    rules planner's to handle (no_company, ambiguous_company, not_covered), so it raises."""
    tickers: list[str] = []
    for name in names:
        ticker = resolve_company(directory, name)
        if ticker is None:
            raise ModelError(f"unresolved: company {name!r}")
        if ticker not in tickers:
            tickers.append(ticker)
    return tickers


def resolve_company(directory, name: str) -> str | None:
    """The one covered company `name` denotes (a ticker, or a name as the directory matches names
    in questions), as its ticker; None for unknown, uncovered or ambiguous names."""
    if directory is None or not name.strip():
        return None
    company = directory.get(name.strip()) if re.fullmatch(r"\$?[A-Za-z]{1,5}(?:[.\-][A-Za-z]{1,2})?", name.strip()) else None
    if company is not None and company.covered:
        return company.ticker
    matches = directory.find(name.strip())
    if len(matches) == 1 and matches[0].kind == "company":
        return matches[0].company.ticker
    return None


def make_planner(client, *, model: str, timeout: float) -> Callable[..., Plan]:
    """The model's planner as the graph calls it, over an OpenAI-compatible `client`."""

    def planner(text: str, *, previous: Plan | None = None, directory=None) -> Plan:
        return plan_llm(text, previous=previous, directory=directory, client=client, model=model, timeout=timeout)

    planner.name = "llm"
    planner.model = model  # part of the answer cache key (agent.service.answer_path)
    return planner
