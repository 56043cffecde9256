"""Teams authentication as botframework-connector does it, against a local fake of Microsoft's
identity services: inbound Bearer tokens checked against the fake's published signing key, and
the reply sent with an access token the bot got from the fake's login endpoint.

The real aiohttp endpoint, CloudAdapter, PyJWT and MSAL; only the network edge is fake.
"""

from __future__ import annotations

import asyncio
import logging

import aiohttp
import pytest
from aiohttp import web

from bot.teams.app import BOT_KEY, make_app
from tests.fakes.fake_botframework_auth import FakeBotFrameworkAuth, new_key
from bot.fakes.connector import FakeConnector, activity
from tests.test_slack import footnote  # noqa: F401  (fixture: the real Footnote over the corpus)
from tests.test_teams import teams_settings

APP_ID = "7f3a1c2e-0000-4000-8000-00000000f00d"
PASSWORD = "fake-client-secret-for-tests"


def auth_settings(auth: FakeBotFrameworkAuth, **kw):
    return teams_settings(MicrosoftAppId=APP_ID, MicrosoftAppPassword=PASSWORD,
                          FOOTNOTE_TEAMS_OPENID_METADATA_URL=auth.metadata_url, FOOTNOTE_TEAMS_LOGIN_URL=auth.login_url, **kw)


async def post_each(app: web.Application, requests: list[tuple[dict, dict]]) -> list[tuple[int, str]]:
    """Serve `app` on 127.0.0.1 and POST each (activity, headers) in turn; (status, body) of each."""
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    out = []
    try:
        async with aiohttp.ClientSession() as session:
            for body, headers in requests:
                async with session.post(f"http://127.0.0.1:{port}/api/messages", json=body, headers=headers) as resp:
                    out.append((resp.status, await resp.text()))
        await app[BOT_KEY].idle()  # the answers follow the acks
    finally:
        await runner.cleanup()
    return out


async def post(app: web.Application, body: dict, headers: dict) -> tuple[int, str]:
    return (await post_each(app, [(body, headers)]))[0]


@pytest.fixture
def bf_auth(monkeypatch):
    """The fake identity services; requests (PyJWT's key fetch, MSAL) trust its test CA."""
    with FakeBotFrameworkAuth() as auth:
        monkeypatch.setenv("REQUESTS_CA_BUNDLE", auth.ca_file)
        yield auth


def test_a_signed_channel_token_is_accepted_and_the_reply_carries_the_bots_own_token(footnote, bf_auth, caplog):  # noqa: F811
    with FakeConnector() as connector, caplog.at_level(logging.INFO):
        conv = "a:signed-personal-chat"
        question = activity("What was Apple's revenue in fiscal 2024?", service_url=connector.url, conversation_id=conv)
        help_ = activity("help", service_url=connector.url, conversation_id=conv)
        token = bf_auth.channel_token(APP_ID, connector.url)
        signed = {"Authorization": f"Bearer {token}"}
        results = asyncio.run(post_each(make_app(auth_settings(bf_auth), footnote), [(question, signed), (help_, signed)]))
        assert [status for status, _ in results] == [201, 201]
        answer, helped = connector.messages(conv)
        assert "$391.04 billion" in str(answer.card)
        assert helped.activity["text"] == footnote.help_text()
        # Every reply (typing included) was sent with a token the bot obtained from the login
        # endpoint with its own app id and secret, for the Bot Framework's scope; once, then reused.
        bearer = {r.headers.get("Authorization") for r in connector.replies}
        assert len(bearer) == 1
        (value,) = bearer
        assert value.startswith("Bearer ") and value != f"Bearer {token}"
        grant = bf_auth.issued(value.removeprefix("Bearer "))
        assert grant is not None and len(bf_auth.grants) == 1
        assert (grant.client_id, grant.client_secret, grant.scope) == (APP_ID, PASSWORD, "https://api.botframework.com/.default")
        assert "GET /v1/.well-known/keys" in bf_auth.requests
    assert PASSWORD not in caplog.text and token not in caplog.text


BAD_TOKENS = {
    "signed by another key": lambda auth, url: auth.channel_token(APP_ID, url, key=new_key()),
    "expired": lambda auth, url: auth.channel_token(APP_ID, url, expires_in=-3600),
    "for another bot": lambda auth, url: auth.channel_token("another-bots-app-id", url),
    "from another issuer": lambda auth, url: auth.channel_token(APP_ID, url, issuer="https://sts.example.com/"),
    "for another serviceUrl": lambda auth, url: auth.channel_token(APP_ID, "https://smba.example.com/amer/"),
    "with an unknown key id": lambda auth, url: auth.channel_token(APP_ID, url, key=new_key(), kid="no-such-key"),
    "not a JWT": lambda auth, url: "not-a-jwt",
}


@pytest.mark.parametrize("case", list(BAD_TOKENS))
def test_a_token_that_does_not_verify_is_refused(footnote, bf_auth, caplog, case):  # noqa: F811
    with FakeConnector() as connector, caplog.at_level(logging.WARNING, logger="bot.teams.auth"):
        token = BAD_TOKENS[case](bf_auth, connector.url)
        a = activity("What was Apple's revenue?", service_url=connector.url)
        status, body = asyncio.run(post(make_app(auth_settings(bf_auth), footnote), a, {"Authorization": f"Bearer {token}"}))
    assert status == 401
    assert connector.replies == [] and bf_auth.grants == []
    assert "Teams request refused" in caplog.text
    assert "Traceback" not in body and token not in caplog.text


def test_no_authorization_header_is_refused(footnote, bf_auth, caplog):  # noqa: F811
    with FakeConnector() as connector, caplog.at_level(logging.WARNING, logger="bot.teams.auth"):
        a = activity("What was Apple's revenue?", service_url=connector.url)
        status, _ = asyncio.run(post(make_app(auth_settings(bf_auth), footnote), a, {}))
    assert status == 401 and connector.replies == []
    assert "Teams request refused" in caplog.text


def test_a_key_not_endorsed_for_teams_is_refused(footnote, monkeypatch, caplog):  # noqa: F811
    with FakeBotFrameworkAuth(endorsements=("slack",)) as auth, FakeConnector() as connector:
        monkeypatch.setenv("REQUESTS_CA_BUNDLE", auth.ca_file)
        a = activity("What was Apple's revenue?", service_url=connector.url)
        token = auth.channel_token(APP_ID, connector.url)
        with caplog.at_level(logging.WARNING, logger="bot.teams.auth"):
            status, _ = asyncio.run(post(make_app(auth_settings(auth), footnote), a, {"Authorization": f"Bearer {token}"}))
    assert status == 401 and connector.replies == []
    assert "did not verify" in caplog.text


def test_unreachable_signing_keys_are_a_503_not_a_traceback(footnote, bf_auth, caplog):  # noqa: F811
    with FakeConnector() as connector:
        token = bf_auth.channel_token(APP_ID, connector.url)
        a = activity("What was Apple's revenue?", service_url=connector.url)
        dead = "https://127.0.0.1:9/v1/.well-known/openidconfiguration"  # the discard port: nothing listens
        settings = teams_settings(MicrosoftAppId=APP_ID, MicrosoftAppPassword=PASSWORD,
                                  FOOTNOTE_TEAMS_OPENID_METADATA_URL=dead, FOOTNOTE_TEAMS_LOGIN_URL=bf_auth.login_url)
        with caplog.at_level(logging.WARNING):
            status, body = asyncio.run(post(make_app(settings, footnote), a, {"Authorization": f"Bearer {token}"}))
    assert status == 503 and connector.replies == []
    assert "Traceback" not in body and "signing keys" in caplog.text
    assert not [r for r in caplog.records if r.exc_info]


@pytest.mark.parametrize("app_type, tenant, authority", [
    ("MultiTenant", None, "https://login.microsoftonline.com/botframework.com"),
    ("SingleTenant", "0a1b2c3d-0000-4000-8000-000000000001", "https://login.microsoftonline.com/0a1b2c3d-0000-4000-8000-000000000001"),
])
def test_unconfigured_endpoints_are_microsofts_public_cloud(app_type, tenant, authority):
    from botframework.connector.auth import ClaimsIdentity, MicrosoftAppCredentials

    from bot.teams.auth import bot_framework_config, make_authentication

    settings = teams_settings(MicrosoftAppId=APP_ID, MicrosoftAppPassword=PASSWORD, MicrosoftAppType=app_type,
                              **({"MicrosoftAppTenantId": tenant} if tenant else {}))
    config = bot_framework_config(settings)
    assert config.TO_BOT_FROM_CHANNEL_OPENID_METADATA_URL == "https://login.botframework.com/v1/.well-known/openidconfiguration"
    assert config.TO_BOT_FROM_CHANNEL_TOKEN_ISSUER == "https://api.botframework.com"
    # The reply path: botbuilder's own credentials for Microsoft's login (built, not yet used).
    factory = make_authentication(settings).create_connector_factory(ClaimsIdentity({"aud": APP_ID}, True))
    client = asyncio.run(factory.create("https://smba.trafficmanager.net/amer/", "https://api.botframework.com"))
    credentials = client.config.credentials
    assert type(credentials) is MicrosoftAppCredentials
    assert credentials.oauth_endpoint == authority
    assert credentials.oauth_scope == "https://api.botframework.com"


def test_when_the_login_is_down_the_turn_fails_quietly_in_the_log(footnote, bf_auth, caplog):  # noqa: F811
    with FakeConnector() as connector:
        token = bf_auth.channel_token(APP_ID, connector.url)
        a = activity("help", service_url=connector.url)
        settings = teams_settings(MicrosoftAppId=APP_ID, MicrosoftAppPassword=PASSWORD,
                                  FOOTNOTE_TEAMS_OPENID_METADATA_URL=bf_auth.metadata_url,
                                  FOOTNOTE_TEAMS_LOGIN_URL="https://127.0.0.1:9/botframework.com")
        status, body = asyncio.run(post(make_app(settings, footnote), a, {"Authorization": f"Bearer {token}"}))
    assert status == 201, "the request was genuine; only the reply could not be sent"
    assert connector.replies == [] and "Traceback" not in body
    assert "unhandled error in a Teams turn" in caplog.text and PASSWORD not in caplog.text
