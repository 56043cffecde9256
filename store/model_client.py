"""The one place an OpenAI-compatible client is built (OpenAI, Azure, or a local server).

It sits on the ground floor beside the embedder because both the agent (planning, composing) and
the embedder (OpenAI vectors) use it; nothing else in store/ imports it. It receives only the
model's own options, never the application's settings.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import SecretStr


@dataclass(frozen=True)
class ModelOptions:
    model: str = "gpt-4o-mini"
    timeout_s: float = 20.0
    api_key: SecretStr | None = field(default=None, repr=False)
    base_url: str | None = None
    azure_endpoint: str | None = None
    azure_api_key: SecretStr | None = field(default=None, repr=False)
    azure_api_version: str = "2024-10-21"


def openai_client(options: ModelOptions):
    import openai

    if options.azure_endpoint:
        key = options.azure_api_key or options.api_key
        return openai.AzureOpenAI(
            azure_endpoint=options.azure_endpoint,
            api_key=key.get_secret_value() if key else None,
            api_version=options.azure_api_version,
            timeout=options.timeout_s,
            max_retries=0,
        )
    key = options.api_key.get_secret_value() if options.api_key else "not-needed"
    return openai.OpenAI(api_key=key, base_url=options.base_url, timeout=options.timeout_s, max_retries=0)
