"""The one place an OpenAI-compatible client is built (OpenAI, Azure, or a local server)."""

from __future__ import annotations


def make_openai_client(settings):
    import openai

    if settings.azure_openai_endpoint:
        key = settings.azure_openai_api_key or settings.openai_api_key
        return openai.AzureOpenAI(
            azure_endpoint=settings.azure_openai_endpoint,
            api_key=key.get_secret_value() if key else None,
            api_version=settings.azure_openai_api_version,
            timeout=settings.openai_timeout_s,
            max_retries=0,
        )
    key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else "not-needed"
    return openai.OpenAI(
        api_key=key,
        base_url=settings.openai_base_url,
        timeout=settings.openai_timeout_s,
        max_retries=0,
    )
