"""One settings object, read from the environment once at the entry point and passed down.

Library code (agent, store, ingest) never reads the environment: it receives these values.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore", populate_by_name=True)

    # Storage
    database_url: str | None = Field(None, validation_alias="DATABASE_URL")
    data_dir: Path = Field(Path(".footnote"), validation_alias="FOOTNOTE_DATA_DIR")
    # How long the embedded Postgres outlives the last command using it (0: stopped as it leaves):
    # a `footnote ask` right after another attaches to it instead of starting it again.
    db_linger_s: float = Field(60.0, ge=0, validation_alias="FOOTNOTE_DB_LINGER_S")
    # The shared eval corpus's database on DATABASE_URL's server; a second checkout sharing one
    # server keeps its own copy (CREATE DATABASE ... TEMPLATE) under another name.
    eval_shared_db: str = Field("footnote_eval_shared", validation_alias="FOOTNOTE_EVAL_SHARED_DB")

    # SEC EDGAR
    sec_identity: str | None = Field(None, validation_alias="SEC_IDENTITY")
    sec_www_url: str = Field("https://www.sec.gov", validation_alias="FOOTNOTE_SEC_WWW_URL")
    sec_data_url: str = Field("https://data.sec.gov", validation_alias="FOOTNOTE_SEC_DATA_URL")
    sec_max_rps: float = Field(10.0, validation_alias="FOOTNOTE_SEC_MAX_RPS")

    # Embeddings
    embedding_provider: Literal["local", "openai"] = Field("local", validation_alias="FOOTNOTE_EMBEDDING_PROVIDER")
    embedding_model: str | None = Field(None, validation_alias="FOOTNOTE_EMBEDDING_MODEL")
    # How the local model runs: ONNX Runtime (fast start, no torch at query time) or PyTorch.
    # "onnx-int8", its int8 quantisation, is opt-in: ~1.4x less CPU per chunk (short of the 1.8x
    # that would pay for a second runtime), and every recipe tried put one or two dev-set
    # questions' evidence out of the top 5 over the float corpus (see the README).
    embedding_runtime: Literal["onnx", "onnx-int8", "torch"] = Field("onnx", validation_alias="FOOTNOTE_EMBEDDING_RUNTIME")
    # Where the local model's ONNX export is cached (default: <data dir>/models).
    model_dir: Path | None = Field(None, validation_alias="FOOTNOTE_MODEL_DIR")

    # Language model (optional upgrade; the deterministic path needs none of it)
    openai_api_key: SecretStr | None = Field(None, validation_alias="OPENAI_API_KEY")
    openai_base_url: str | None = Field(None, validation_alias="OPENAI_BASE_URL")
    openai_model: str = Field("gpt-4o-mini", validation_alias="FOOTNOTE_OPENAI_MODEL")
    openai_timeout_s: float = Field(20.0, validation_alias="FOOTNOTE_OPENAI_TIMEOUT")
    azure_openai_endpoint: str | None = Field(None, validation_alias="AZURE_OPENAI_ENDPOINT")
    azure_openai_api_key: SecretStr | None = Field(None, validation_alias="AZURE_OPENAI_API_KEY")
    azure_openai_api_version: str = Field("2024-10-21", validation_alias="OPENAI_API_VERSION")
    llm: Literal["auto", "off"] = Field("auto", validation_alias="FOOTNOTE_LLM")

    # Slack
    slack_bot_token: SecretStr | None = Field(None, validation_alias="SLACK_BOT_TOKEN")
    slack_signing_secret: SecretStr | None = Field(None, validation_alias="SLACK_SIGNING_SECRET")
    slack_app_token: SecretStr | None = Field(None, validation_alias="SLACK_APP_TOKEN")
    slack_api_url: str = Field("https://slack.com/api/", validation_alias="SLACK_API_URL")

    # Microsoft Teams (Bot Framework)
    microsoft_app_id: str | None = Field(None, validation_alias=AliasChoices("MicrosoftAppId", "MICROSOFT_APP_ID"))
    microsoft_app_password: SecretStr | None = Field(
        None, validation_alias=AliasChoices("MicrosoftAppPassword", "MICROSOFT_APP_PASSWORD")
    )
    microsoft_app_tenant_id: str | None = Field(
        None, validation_alias=AliasChoices("MicrosoftAppTenantId", "MICROSOFT_APP_TENANT_ID")
    )
    microsoft_app_type: str = Field("MultiTenant", validation_alias=AliasChoices("MicrosoftAppType", "MICROSOFT_APP_TYPE"))
    # Where the Bot Framework's signing keys and the bot's login live. Unset: Microsoft's public
    # cloud (login.botframework.com, login.microsoftonline.com). Set for a private cloud or a test.
    teams_openid_metadata_url: str | None = Field(None, validation_alias="FOOTNOTE_TEAMS_OPENID_METADATA_URL")
    teams_login_url: str | None = Field(None, validation_alias="FOOTNOTE_TEAMS_LOGIN_URL")
    # Without MicrosoftAppId authentication is off, so the endpoint stays on loopback unless this is set.
    teams_insecure_no_auth: bool = Field(False, validation_alias="FOOTNOTE_TEAMS_INSECURE_NO_AUTH")

    # Chat limits: questions a minute per person and per workspace (0: no limit), and the users
    # (Slack or Teams ids, "*" for everyone) shown how an answer was made (planner, composer, timings).
    chat_per_user_per_minute: int = Field(10, validation_alias="FOOTNOTE_CHAT_PER_USER_PER_MINUTE")
    chat_per_workspace_per_minute: int = Field(120, validation_alias="FOOTNOTE_CHAT_PER_WORKSPACE_PER_MINUTE")
    chat_admins: str = Field("", validation_alias="FOOTNOTE_CHAT_ADMINS")

    log_level: str = Field("INFO", validation_alias="FOOTNOTE_LOG_LEVEL")
    # After this many seconds the user is told an answer is late (0: wait for ever).
    answer_deadline_s: float = Field(30.0, validation_alias="FOOTNOTE_ANSWER_DEADLINE")
    # `footnote db prune`: answer-cache rows and conversation history older than this go.
    retention_days: int = Field(30, validation_alias="FOOTNOTE_RETENTION_DAYS")

    @property
    def llm_configured(self) -> bool:
        return self.llm != "off" and bool(self.openai_api_key or self.azure_openai_endpoint or self.openai_base_url)

    def shows_path_to(self, user: str) -> bool:
        admins = {a.strip() for a in self.chat_admins.split(",") if a.strip()}
        return "*" in admins or user in admins

    def model_options(self):
        """The model service's own options: what the model client receives instead of Settings."""
        from store.model_client import ModelOptions

        return ModelOptions(
            model=self.openai_model,
            timeout_s=self.openai_timeout_s,
            api_key=self.openai_api_key,
            base_url=self.openai_base_url,
            azure_endpoint=self.azure_openai_endpoint,
            azure_api_key=self.azure_openai_api_key,
            azure_api_version=self.azure_openai_api_version,
        )

    def sec_options(self):
        """What the SEC download receives instead of Settings: its identity, rate and addresses."""
        from ingest.sec import SecOptions

        return SecOptions(
            identity=self.sec_identity, max_rps=self.sec_max_rps, www_url=self.sec_www_url, data_url=self.sec_data_url
        )

    def embedding_options(self):
        """Which embedder to build, and where the local model's export is cached."""
        from store.embedding import EmbeddingOptions

        return EmbeddingOptions(
            provider=self.embedding_provider,
            model=self.resolved_embedding_model,
            runtime=self.embedding_runtime,
            model_dir=self.model_dir or self.data_dir / "models",
            client=self.model_options() if self.embedding_provider == "openai" else None,
        )

    @property
    def resolved_embedding_model(self) -> str:
        if self.embedding_model:
            return self.embedding_model
        return "text-embedding-3-small" if self.embedding_provider == "openai" else "all-MiniLM-L6-v2"


def load_settings(**overrides) -> Settings:
    return Settings(**overrides)
