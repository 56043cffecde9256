"""The Teams endpoint: aiohttp `POST /api/messages` -> CloudAdapter -> FootnoteBot.

Bot Framework authentication comes from MicrosoftAppId / MicrosoftAppPassword /
MicrosoftAppTenantId / MicrosoftAppType. Only with no app id configured (local testing with the
Bot Framework Emulator) is authentication off, and the log says so at startup.
"""

from __future__ import annotations

import logging
from types import SimpleNamespace

from aiohttp import web
from botbuilder.core import TurnContext
from botbuilder.integration.aiohttp import CloudAdapter, ConfigurationBotFrameworkAuthentication

from bot import render_chat
from bot.teams.bot import FootnoteBot

log = logging.getLogger(__name__)

MESSAGES_PATH = "/api/messages"


def bot_framework_config(settings) -> SimpleNamespace:
    """The configuration object botbuilder's factories read (APP_ID, APP_PASSWORD, ...)."""
    password = settings.microsoft_app_password.get_secret_value() if settings.microsoft_app_password else ""
    return SimpleNamespace(
        APP_ID=settings.microsoft_app_id or "",
        APP_PASSWORD=password,
        APP_TENANTID=settings.microsoft_app_tenant_id or "",
        APP_TYPE=settings.microsoft_app_type,
    )


def make_adapter(settings) -> CloudAdapter:
    config = bot_framework_config(settings)
    if not config.APP_ID:
        log.warning("MicrosoftAppId is not set: Bot Framework authentication is OFF (local testing only)")
    else:
        log.info("Bot Framework authentication on for app %s (%s)", config.APP_ID, config.APP_TYPE)
    adapter = CloudAdapter(ConfigurationBotFrameworkAuthentication(config))

    async def on_error(context: TurnContext, error: Exception) -> None:
        # The edge of the edge: log with the traceback, tell the user politely, never the error.
        log.error("unhandled error in a Teams turn", exc_info=error)
        try:
            await context.send_activity(render_chat.POLITE_ERROR)
        except Exception:
            log.warning("could not send the apology either", exc_info=True)

    adapter.on_turn_error = on_error
    return adapter


def make_app(settings, footnote) -> web.Application:
    adapter = make_adapter(settings)
    bot = FootnoteBot(footnote)

    async def messages(request: web.Request) -> web.Response:
        return await adapter.process(request, bot)

    app = web.Application()
    app.router.add_post(MESSAGES_PATH, messages)
    return app


def run(settings, footnote, host: str, port: int) -> None:
    log.info("Footnote for Teams listening on http://%s:%d%s", host, port, MESSAGES_PATH)
    web.run_app(make_app(settings, footnote), host=host, port=port, print=None)
