"""The model composer: prose drafted as discrete claims, each naming the evidence it relies on.

The model writes; cite_check decides. Every claim comes back with an evidence id (the schema
offers only the ids of this turn's evidence), claims that cite a fact or a computation are marked
as number claims so cite_check holds their figures to the displayed values exactly, and tables
always come from the extractive composer (templated from the facts, never from the model).
A model error, a timeout, unusable output, or a model that finds nothing to say, falls back to
the extractive draft with `Draft.fallback` saying why.

Streaming: the reply is the same JSON object, streamed; pydantic's partial JSON parsing reads the
growing text, and each claim's sentence goes to `on_text` as soon as all its fields are in. What
streams is the draft; the verified Answer that cite_check builds is what ships.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable

from pydantic import BaseModel, ConfigDict
from pydantic_core import from_json

from agent import prompts
from agent.composing.draft import Claim, Draft, Evidence
from agent.planning.plan import Plan
from agent.structured_output import ModelError, chat_json, stream_json, strict_schema

log = logging.getLogger(__name__)

MAX_CLAIMS = 8

# Instructions aimed at a model are never answer content, even when a filing contains them
# verbatim (a quote of one would pass cite_check's verbatim tier).
_INSTRUCTION = re.compile(
    r"\b(?:ignore|disregard|forget)\b[^.]{0,40}\b(?:instructions|prompts?)\b|\bsystem prompt\b|\byou are now\b",
    re.I,
)


def is_instruction(text: str) -> bool:
    return bool(_INSTRUCTION.search(text))


class ModelClaim(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str
    evidence_id: str


class ModelDraft(BaseModel):
    model_config = ConfigDict(extra="forbid")

    claims: list[ModelClaim]


class ClaimStream:
    """The claims of a streamed ModelDraft, each returned once, when all its fields are complete
    (partial parsing leaves an unfinished string out, so a present field is a finished one)."""

    FIELDS = frozenset(ModelClaim.model_fields)

    def __init__(self):
        self._text = ""
        self._done = 0

    def feed(self, delta: str) -> list[dict]:
        self._text += delta
        try:
            data = from_json(self._text, allow_partial=True)
        except ValueError:
            return []
        claims = data.get("claims") if isinstance(data, dict) else None
        fresh = []
        while isinstance(claims, list) and self._done < len(claims):
            claim = claims[self._done]
            if not (isinstance(claim, dict) and self.FIELDS <= claim.keys()):
                break
            fresh.append(claim)
            self._done += 1
        return fresh


def _schema(evidence: list[Evidence]) -> dict:
    schema = strict_schema(ModelDraft)
    claim = schema["$defs"]["ModelClaim"]
    claim["properties"]["evidence_id"]["enum"] = [ev.id for ev in evidence]
    return schema


def extractive_composer() -> Callable[..., Draft]:
    """The deterministic composer, imported when needed: agent.composing.compose owns it."""
    from agent.composing import compose

    return compose.compose_extractive


def compose_llm(
    question: str,
    plan: Plan,
    evidence: list[Evidence],
    *,
    client,
    model: str,
    timeout: float,
    cells: list[dict] | None = None,
    on_text: Callable[[str], None] | None = None,
) -> Draft:
    """Draft with the model; on any failure, the extractive draft with `fallback` saying why.
    `cells` is what the numbers intents asked for (see agent.composing.compose): the tables and the
    figure-free intro are built from it deterministically either way."""
    extractive = extractive_composer()
    base = extractive(question, plan, evidence, cells=cells)
    if not evidence:  # nothing to write from: the deterministic path decides how to refuse
        return base
    try:
        claims = _draft_claims(question, plan, evidence, client=client, model=model, timeout=timeout, on_text=on_text)
    except ModelError as exc:
        reason = exc.reason
    except Exception as exc:  # a bug here must not take the turn down with it
        log.exception("model composer failed")
        reason = f"error: {type(exc).__name__}"
    else:
        intro = base.intro if plan.intent != "qualitative" else _intro(claims, evidence)
        return Draft(intro=intro, claims=claims, tables=base.tables, composer="llm")
    log.info("model composer fell back to extractive: %s", reason)
    return base.model_copy(update={"composer": "extractive", "fallback": f"composer: {reason}"})


def _intro(claims: list[Claim], evidence: list[Evidence]) -> str:
    """A figure-free lead-in naming the filings the claims cite."""
    by_id = {ev.id: ev for ev in evidence}
    cited = [by_id[c.evidence_id] for c in claims if c.evidence_id in by_id]
    if not cited:
        return ""
    companies = sorted({ev.ticker for ev in cited})
    items = sorted({ev.item for ev in cited if ev.item})
    where = f" (Item {', '.join(items)})" if items else ""
    if len(companies) == 1:
        years = sorted({ev.fiscal_year for ev in cited})
        span = " and ".join(f"fiscal {y}" for y in years)
        return f"From the {span} 10-K of {companies[0]}{where}:"
    return f"From the 10-K filings of {', '.join(companies)}{where}:"


def _draft_claims(question, plan, evidence, *, client, model, timeout, on_text) -> list[Claim]:
    messages = prompts.composer_messages(question, plan, evidence, max_claims=MAX_CLAIMS)
    schema = _schema(evidence)
    if on_text is None:
        drafted = chat_json(client, model=model, messages=messages, output=ModelDraft, name="footnote_claims", timeout=timeout, schema=schema)
    else:
        scanner = ClaimStream()
        showing = [True]  # the draft display is best effort: a failing callback stops it, not the turn

        def on_delta(delta: str) -> None:
            for obj in scanner.feed(delta):
                text = obj.get("text")
                if showing[0] and isinstance(text, str) and text.strip() and not is_instruction(text):
                    try:
                        on_text(text.strip() + " ")
                    except Exception:
                        log.exception("on_text failed; the draft is no longer streamed")
                        showing[0] = False

        drafted = stream_json(
            client,
            model=model,
            messages=messages,
            output=ModelDraft,
            name="footnote_claims",
            timeout=timeout,
            on_delta=on_delta,
            schema=schema,
        )
    kinds = {ev.id: ev.kind for ev in evidence}
    usable = [c for c in drafted.claims if c.text.strip()][:MAX_CLAIMS]
    kept = [c for c in usable if not is_instruction(c.text)]
    if len(kept) < len(usable):
        log.warning("model composer: dropped %d claim(s) repeating instructions found in the input", len(usable) - len(kept))
    claims = [
        Claim(
            text=c.text.strip(),
            evidence_id=c.evidence_id.strip(),
            kind="number" if kinds.get(c.evidence_id.strip()) in ("fact", "calc") else "prose",
        )
        for c in kept
    ]
    if not claims:
        raise ModelError("no_claims: the model found no answer in the evidence")
    return claims


def make_composer(client, *, model: str, timeout: float) -> Callable[..., Draft]:
    """The model's composer as the graph calls it, over an OpenAI-compatible `client`."""

    def composer(question: str, plan: Plan, evidence: list[Evidence], *, cells=None, on_text=None) -> Draft:
        return compose_llm(
            question, plan, evidence, client=client, model=model, timeout=timeout, cells=cells, on_text=on_text
        )

    composer.name = "llm"
    composer.model = model  # part of the answer cache key (agent.service.answer_path)
    return composer
