"""Bot Framework authentication for the Teams endpoint, in botbuilder's own configuration terms.

Inbound, every activity carries a Bearer token the Bot Framework signed; botframework-connector
checks it against the keys published at the OpenID metadata URL (issuer, audience = our app id,
expiry, the serviceUrl claim, the channel's endorsement). Outbound, the bot logs in (client
credentials) to get the token its replies carry. Both endpoints are configuration keys botbuilder
reads (TO_BOT_FROM_CHANNEL_OPENID_METADATA_URL, TO_CHANNEL_FROM_BOT_LOGIN_URL): they default to
Microsoft's public cloud and can point at a private cloud or a local fake.

Only with no app id configured is authentication off (the library's own rule).
"""

from __future__ import annotations

import logging
from types import SimpleNamespace

import requests
from botbuilder.integration.aiohttp import ConfigurationBotFrameworkAuthentication, ConfigurationServiceClientCredentialFactory
from botbuilder.schema import CallerIdConstants
from botframework.connector.auth import AuthenticationConstants, ConnectorFactory, JwtTokenValidation, MicrosoftAppCredentials
from msal import ConfidentialClientApplication

from bot.teams import token_precheck

log = logging.getLogger(__name__)

LOGIN_TIMEOUT_S = 10.0


class AuthUnavailable(Exception):
    """The signing keys could not be fetched: the request may be genuine, so 503, not 401."""


def bot_framework_config(settings) -> SimpleNamespace:
    """The configuration object botbuilder's factories read.

    Every endpoint is spelled out (public-cloud values unless settings say otherwise), which puts
    botbuilder on its parameterized path: the one path whose endpoints are configuration, so the
    tests exercise the same validation that runs in production.
    """
    password = settings.microsoft_app_password.get_secret_value() if settings.microsoft_app_password else ""
    return SimpleNamespace(
        APP_ID=settings.microsoft_app_id or "",
        APP_PASSWORD=password,
        APP_TENANTID=settings.microsoft_app_tenant_id or "",
        APP_TYPE=settings.microsoft_app_type,
        TO_BOT_FROM_CHANNEL_OPENID_METADATA_URL=(
            settings.teams_openid_metadata_url or AuthenticationConstants.TO_BOT_FROM_CHANNEL_OPENID_METADATA_URL
        ),
        TO_BOT_FROM_CHANNEL_TOKEN_ISSUER=AuthenticationConstants.TO_BOT_FROM_CHANNEL_TOKEN_ISSUER,
        TO_BOT_FROM_EMULATOR_OPENID_METADATA_URL=AuthenticationConstants.TO_BOT_FROM_EMULATOR_OPENID_METADATA_URL,
        # The public prefix lets botbuilder add the tenant (botframework.com, or ours if single-tenant).
        TO_CHANNEL_FROM_BOT_LOGIN_URL=settings.teams_login_url or AuthenticationConstants.TO_CHANNEL_FROM_BOT_LOGIN_URL_PREFIX,
        TO_CHANNEL_FROM_BOT_OAUTH_SCOPE=AuthenticationConstants.TO_CHANNEL_FROM_BOT_OAUTH_SCOPE,
        OAUTH_URL=AuthenticationConstants.OAUTH_URL,
        CALLER_ID=CallerIdConstants.public_azure_channel,
        # Microsoft's instance discovery can only vouch for Microsoft's own login hosts; a login
        # URL someone configured is trusted as configured.
        VALIDATE_AUTHORITY=not settings.teams_login_url,
    )


class LoginUrlCredentials(MicrosoftAppCredentials):
    """App id + password credentials for a configured login authority.

    botframework-connector's private-cloud credentials drop `validate_authority` on the way to
    MSAL, so MSAL would still ask login.microsoftonline.com to vouch for the configured host.
    This builds the MSAL app with the flag honoured; everything else is the library's.
    """

    def __init__(self, app_id: str, password: str, login_url: str, oauth_scope: str, validate_authority: bool):
        super().__init__(app_id, password, oauth_scope=oauth_scope)
        self.oauth_endpoint = login_url
        self._validate_authority = validate_authority

    def get_access_token(self, force_refresh: bool = False) -> str:
        if self.app is None:  # MicrosoftAppCredentials uses `app` as its MSAL client once set
            self.app = ConfidentialClientApplication(
                client_id=self.microsoft_app_id,
                client_credential=self.microsoft_app_password,
                authority=self.oauth_endpoint,
                validate_authority=self._validate_authority,
                timeout=LOGIN_TIMEOUT_S,  # it runs on the event loop: a hung login must not hang the bot
            )
        return super().get_access_token(force_refresh)


class CredentialFactory(ConfigurationServiceClientCredentialFactory):
    """botbuilder's configuration factory, with LoginUrlCredentials for a configured login URL
    (None: Microsoft's login, botbuilder's own credentials)."""

    def __init__(self, configuration, login_url: str | None):
        super().__init__(configuration)
        self._app_id = configuration.APP_ID
        self._password = configuration.APP_PASSWORD
        self._login_url = login_url
        # One credentials object (so one MSAL client and its token cache) per scope: a token is
        # fetched once and reused until it nears expiry, not fetched again for every activity.
        self._issued: dict[tuple[str, bool], LoginUrlCredentials] = {}

    async def create_credentials(self, app_id: str, oauth_scope: str, login_endpoint: str, validate_authority: bool):
        if not (self._login_url and login_endpoint == self._login_url and self._password) or not self._app_id:
            return await super().create_credentials(app_id, oauth_scope, login_endpoint, validate_authority)
        if not await self.is_valid_app_id(app_id):
            raise PermissionError("Invalid app_id")
        key = (oauth_scope, validate_authority)
        if key not in self._issued:
            self._issued[key] = LoginUrlCredentials(app_id, self._password, login_endpoint, oauth_scope, validate_authority)
        return self._issued[key]


class ReusedConnectors(ConnectorFactory):
    """A connector factory that hands out one client per (service URL, audience, app id).

    Building botframework's clients costs ~15 ms of CPU each (msrest assembles its retry policy
    from lists of status codes), and CloudAdapter builds two for every activity and two more for
    every proactive reply, all on the event loop: under a burst that queued the acknowledgements.
    The clients hold no per-turn state; their credentials cache and refresh the token."""

    def __init__(self, inner: ConnectorFactory, cache: dict, app_id: str | None):
        self._inner = inner
        self._cache = cache
        self._app_id = app_id

    async def create(self, service_url: str, audience: str = None):
        key = (service_url, audience, self._app_id)
        if key not in self._cache:
            self._cache[key] = await self._inner.create(service_url, audience)
        return self._cache[key]


class CheckedAuthentication(ConfigurationBotFrameworkAuthentication):
    """The library's authentication, with every failure made an answer the channel can act on.

    CloudAdapter turns only PermissionError into 401; an expired or forged token (PyJWT errors),
    an unendorsed channel or an unknown key id (plain exceptions) would otherwise be a 500. A
    token that does not verify is refused (401); keys that cannot be fetched are an outage (503).
    Each is logged in one line, without the token.
    """

    def __init__(self, configuration, *, login_url: str | None = None):
        self.metadata_url = configuration.TO_BOT_FROM_CHANNEL_OPENID_METADATA_URL
        self._precheck_app_id = configuration.APP_ID
        super().__init__(configuration, credentials_factory=CredentialFactory(configuration, login_url))
        self._connectors: dict = {}
        self._token_clients: dict = {}

    def create_connector_factory(self, claims_identity) -> ConnectorFactory:
        return ReusedConnectors(super().create_connector_factory(claims_identity), self._connectors, _app_id(claims_identity))

    async def create_user_token_client(self, claims_identity):
        key = _app_id(claims_identity)
        if key not in self._token_clients:
            self._token_clients[key] = await super().create_user_token_client(claims_identity)
        return self._token_clients[key]

    async def authenticate_request(self, activity, auth_header: str):
        if self._precheck_app_id and (reason := token_precheck.refusal(auth_header, self._precheck_app_id)):
            log.warning("Teams request refused: its token cannot verify (%s); no signing key was fetched", reason)
            raise PermissionError("token did not verify")
        result = await self._authenticate(activity, auth_header)
        if result is not None and result.connector_factory is not None:
            result.connector_factory = ReusedConnectors(result.connector_factory, self._connectors, _app_id(result.claims_identity))
        return result

    async def _authenticate(self, activity, auth_header: str):
        try:
            # CloudAdapter passes "" for a missing header; the parameterized path means None.
            return await super().authenticate_request(activity, auth_header or None)
        except PermissionError as exc:  # before OSError: PermissionError is one
            log.warning("Teams request refused: %s", exc)
            raise
        except (requests.RequestException, OSError) as exc:
            log.error("Teams request not checked: the Bot Framework signing keys at %s are unreachable (%s)",
                      self.metadata_url, type(exc).__name__)
            raise AuthUnavailable(str(exc)) from exc
        except Exception as exc:
            # IndexError is botframework's way of saying no published key has the token's key id.
            reason = "no published signing key has its key id" if isinstance(exc, IndexError) else f"{type(exc).__name__}: {exc}"
            log.warning("Teams request refused: its token did not verify (%s)", reason)
            raise PermissionError("token did not verify") from exc


def _app_id(claims_identity) -> str | None:
    claims = getattr(claims_identity, "claims", None) or {}
    return JwtTokenValidation.get_app_id_from_claims(claims) if claims else None


def make_authentication(settings) -> CheckedAuthentication:
    config = bot_framework_config(settings)
    if not config.APP_ID:
        log.warning("MicrosoftAppId is not set: Bot Framework authentication is OFF (local testing only)")
    else:
        log.info("Bot Framework authentication on for app %s (%s)", config.APP_ID, config.APP_TYPE)
        if settings.teams_openid_metadata_url or settings.teams_login_url:
            log.info("Bot Framework keys from %s, bot login at %s",
                     config.TO_BOT_FROM_CHANNEL_OPENID_METADATA_URL, config.TO_CHANNEL_FROM_BOT_LOGIN_URL)
    return CheckedAuthentication(config, login_url=settings.teams_login_url)
