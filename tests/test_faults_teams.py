"""Teams endpoint faults: no app id must not mean an open endpoint, and a token that cannot
verify by its own header or claims is refused (401) before any signing key is fetched, even
while the key endpoint is unreachable. Real aiohttp app, CloudAdapter and PyJWT; the identity
services are the local fake."""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import jwt
import pytest

from bot.teams.app import listen_host, make_app
from tests.fakes.fake_botframework_auth import CHANNEL_ISSUER, KEY_ID, FakeBotFrameworkAuth, new_key
from bot.fakes.connector import FakeConnector, activity
from tests.test_teams import teams_settings
from tests.test_teams_auth import APP_ID, PASSWORD, post
from store.errors import FootnoteError

ROOT = Path(__file__).resolve().parents[1]
DEAD_KEYS = "https://127.0.0.1:9/v1/.well-known/openidconfiguration"  # nothing listens


def _claims(service_url: str, **over) -> dict:
    now = int(time.time())
    return {"serviceurl": service_url, "nbf": now - 60, "exp": now + 3600, "iss": CHANNEL_ISSUER, "aud": APP_ID, **over}


FORGED = {
    "alg none": lambda url: jwt.encode(_claims(url), None, algorithm="none", headers={"kid": KEY_ID}),
    "HS256 with the app password": lambda url: jwt.encode(_claims(url), PASSWORD * 2, algorithm="HS256", headers={"kid": KEY_ID}),
    "expired": lambda url: jwt.encode(_claims(url, exp=int(time.time()) - 3600), new_key(), algorithm="RS256", headers={"kid": KEY_ID}),
    "another app's": lambda url: jwt.encode(_claims(url, aud="some-other-app"), new_key(), algorithm="RS256", headers={"kid": KEY_ID}),
    "no key id": lambda url: jwt.encode(_claims(url), new_key(), algorithm="RS256"),
    "not a JWT": lambda url: "not.a.jwt",
}


@pytest.mark.parametrize("case", sorted(FORGED))
def test_a_token_that_cannot_verify_is_401_even_when_the_keys_are_unreachable(case, caplog):
    with FakeConnector() as connector:
        token = FORGED[case](connector.url)
        settings = teams_settings(MicrosoftAppId=APP_ID, MicrosoftAppPassword=PASSWORD,
                                  FOOTNOTE_TEAMS_OPENID_METADATA_URL=DEAD_KEYS)
        with caplog.at_level(logging.WARNING):
            status, body = asyncio.run(post(make_app(settings, None), activity("hi", service_url=connector.url),
                                            {"Authorization": f"Bearer {token}"}))
    assert status == 401, body
    assert connector.replies == [] and "no signing key was fetched" in caplog.text
    assert token not in caplog.text


@pytest.mark.parametrize("case", ["alg none", "HS256 with the app password"])
def test_a_disallowed_algorithm_never_triggers_a_key_fetch(case, monkeypatch):
    with FakeBotFrameworkAuth() as auth, FakeConnector() as connector:
        monkeypatch.setenv("REQUESTS_CA_BUNDLE", auth.ca_file)
        settings = teams_settings(MicrosoftAppId=APP_ID, MicrosoftAppPassword=PASSWORD,
                                  FOOTNOTE_TEAMS_OPENID_METADATA_URL=auth.metadata_url, FOOTNOTE_TEAMS_LOGIN_URL=auth.login_url)
        status, _ = asyncio.run(post(make_app(settings, None), activity("hi", service_url=connector.url),
                                     {"Authorization": f"Bearer {FORGED[case](connector.url)}"}))
        assert status == 401
        assert auth.requests == []


def test_without_an_app_id_the_endpoint_stays_on_loopback():
    open_settings = teams_settings()
    assert listen_host(open_settings, None) == "127.0.0.1"
    assert listen_host(open_settings, "::1") == "::1"
    with pytest.raises(FootnoteError, match="authentication is off"):
        listen_host(open_settings, "0.0.0.0")
    assert listen_host(open_settings, "0.0.0.0", insecure_no_auth=True) == "0.0.0.0"
    assert listen_host(teams_settings(FOOTNOTE_TEAMS_INSECURE_NO_AUTH="1"), "0.0.0.0") == "0.0.0.0"
    assert listen_host(teams_settings(MicrosoftAppId=APP_ID), None) == "0.0.0.0"


def test_footnote_teams_refuses_a_public_address_without_an_app_id(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.lower().startswith("microsoftapp")}
    env.update(PYTHONPATH=str(ROOT), FOOTNOTE_DATA_DIR=str(tmp_path), FOOTNOTE_LLM="off")
    done = subprocess.run([sys.executable, "-m", "bot.cli", "teams", "--host", "0.0.0.0", "--port", "0"],
                          capture_output=True, text=True, env=env, timeout=60, cwd=tmp_path)
    assert done.returncode == 2
    assert "listens on 127.0.0.1 only" in done.stderr and "Traceback" not in done.stderr
