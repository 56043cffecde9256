"""Getting JSON that fits a pydantic model out of any OpenAI-compatible chat endpoint.

OpenAI and Azure enforce a strict `json_schema` response format; many local servers
(llama.cpp, vLLM, Ollama) accept it too, some only know `json_object`, some ignore both. So:
ask for the strict schema, retry once in JSON mode if the server rejects the format, and always
validate what comes back ourselves. Every failure becomes a ModelError with a short reason that
the caller records when it falls back to the deterministic path.

Streaming uses the same schema; the composer reads the growing text with pydantic's partial JSON
parsing (agent/composing/llm.py), so it can show each claim as soon as the model has written it.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from pydantic import BaseModel, ValidationError


class ModelError(Exception):
    """The model path failed; `reason` is short, safe to log and to put in Answer.fallback."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def strict_schema(model: type[BaseModel]) -> dict:
    """The model's JSON schema in the shape strict structured output requires: every property
    required, no extra properties, no defaults."""
    schema = model.model_json_schema()

    def fix(node):
        if isinstance(node, dict):
            node.pop("default", None)
            if node.get("type") == "object" and "properties" in node:
                node["additionalProperties"] = False
                node["required"] = list(node["properties"])
            for value in node.values():
                fix(value)
        elif isinstance(node, list):
            for value in node:
                fix(value)

    fix(schema)
    return schema


def response_format(schema: dict, name: str) -> dict:
    return {"type": "json_schema", "json_schema": {"name": name, "strict": True, "schema": schema}}


def _classify(exc: Exception) -> ModelError:
    import openai

    if isinstance(exc, ModelError):
        return exc
    if isinstance(exc, openai.APITimeoutError):
        return ModelError("timeout")
    if isinstance(exc, openai.APIConnectionError):
        return ModelError("connection_error")
    if isinstance(exc, openai.APIStatusError):
        return ModelError(f"http_{exc.status_code}")
    return ModelError(f"error: {type(exc).__name__}")


def _rejects_format(exc: Exception) -> bool:
    import openai

    return isinstance(exc, openai.BadRequestError | openai.UnprocessableEntityError)


def parse_json(text: str | None, model: type[BaseModel]) -> BaseModel:
    """Validate the model's output; tolerate a code fence or prose around one JSON object."""
    if not text or not text.strip():
        raise ModelError("invalid_output: empty")
    raw = text.strip()
    if not raw.startswith("{"):
        start, end = raw.find("{"), raw.rfind("}")
        if start < 0 or end <= start:
            raise ModelError("invalid_output: no JSON object")
        raw = raw[start : end + 1]
    try:
        return model.model_validate_json(raw)
    except ValidationError as exc:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        raise ModelError(f"invalid_output: {where or 'json'} {first.get('type', 'invalid')}".strip()) from None


def chat_json(
    client, *, model: str, messages: list[dict], output: type[BaseModel], name: str, timeout: float, schema: dict | None = None
) -> BaseModel:
    """One non-streaming structured call, validated into `output`. `schema` may narrow the
    output's schema for the server (closed vocabularies as enums) without narrowing validation."""
    deadline = time.monotonic() + timeout
    fmt = response_format(schema or strict_schema(output), name)
    try:
        try:
            resp = client.chat.completions.create(
                model=model, messages=messages, response_format=fmt, timeout=timeout
            )
        except Exception as exc:
            if not _rejects_format(exc):
                raise
            left = deadline - time.monotonic()
            if left <= 0:
                raise ModelError("timeout") from None
            resp = client.chat.completions.create(
                model=model, messages=messages, response_format={"type": "json_object"}, timeout=left
            )
    except Exception as exc:
        raise _classify(exc) from None
    if not resp.choices:
        raise ModelError("invalid_output: no choices")
    message = resp.choices[0].message
    if getattr(message, "refusal", None):
        raise ModelError("model_refused")
    return parse_json(message.content, output)


def stream_json(
    client,
    *,
    model: str,
    messages: list[dict],
    output: type[BaseModel],
    name: str,
    timeout: float,
    on_delta: Callable[[str], None],
    schema: dict | None = None,
) -> BaseModel:
    """A streamed structured call: each content delta goes to `on_delta` as it arrives, the whole
    text is validated into `output` at the end. `timeout` bounds the whole stream, not only each
    read."""
    deadline = time.monotonic() + timeout
    fmt = response_format(schema or strict_schema(output), name)
    parts: list[str] = []
    try:
        try:
            stream = client.chat.completions.create(
                model=model, messages=messages, response_format=fmt, stream=True, timeout=timeout
            )
        except Exception as exc:
            if not _rejects_format(exc):
                raise
            left = deadline - time.monotonic()
            if left <= 0:
                raise ModelError("timeout") from None
            stream = client.chat.completions.create(
                model=model, messages=messages, response_format={"type": "json_object"}, stream=True, timeout=left
            )
        try:
            for chunk in stream:
                if time.monotonic() > deadline:
                    raise ModelError("timeout")
                if not chunk.choices:
                    continue
                delta = chunk.choices[0].delta
                if getattr(delta, "refusal", None):
                    raise ModelError("model_refused")
                if delta.content:
                    parts.append(delta.content)
                    on_delta(delta.content)
        finally:
            stream.close()
    except Exception as exc:
        raise _classify(exc) from None
    return parse_json("".join(parts), output)

