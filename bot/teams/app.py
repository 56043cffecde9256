"""The Teams endpoint: aiohttp `POST /api/messages` -> CloudAdapter -> FootnoteBot.

Bot Framework authentication (bot/teams/auth.py) comes from MicrosoftAppId / MicrosoftAppPassword /
MicrosoftAppTenantId / MicrosoftAppType. Only with no app id configured (local testing with the
Bot Framework Emulator) is authentication off, and the log says so at startup. A token that does
not verify is a 401; signing keys that cannot be fetched are a 503; neither is a traceback.
"""

from __future__ import annotations

import logging

from aiohttp import web
from botbuilder.core import TurnContext
from botbuilder.integration.aiohttp import CloudAdapter

from bot import render_chat
from bot.web import TEAMS_PATH
from bot.teams.auth import AuthUnavailable, make_authentication
from bot.teams.bot import RECEIVED_BODY, FootnoteBot
from store.errors import FootnoteError

log = logging.getLogger(__name__)

MESSAGES_PATH = TEAMS_PATH  # one path for `footnote teams` and `footnote serve`
BOT_KEY = web.AppKey("footnote_bot", FootnoteBot)


def make_adapter(settings) -> CloudAdapter:
    adapter = CloudAdapter(make_authentication(settings))

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
    """The endpoint acknowledges each activity once it is authenticated and claimed; the answer
    follows proactively (bot/teams/bot.py), so the response never waits for the agent."""
    messages = messages_handler(settings, footnote)

    async def finish_answers(app: web.Application) -> None:
        await messages.bot.idle()  # answers under way are delivered before the process stops

    app = web.Application()
    app.router.add_post(MESSAGES_PATH, messages)
    app[BOT_KEY] = messages.bot
    app.on_shutdown.append(finish_answers)
    return app


def messages_handler(settings, footnote, *, queue: bool = False, writer=None):
    """The `POST /api/messages` handler (also mounted by the web front, bot/web.py); its `bot`
    attribute is the FootnoteBot, whose `idle()` waits for answers under way. With `queue`,
    authenticated activities are queued for answer workers (`footnote worker`), through `writer`
    (a store.inbound.Writer) when one is shared."""
    adapter = make_adapter(settings)
    bot = FootnoteBot(footnote, adapter=adapter, settings=settings, queue=queue, writer=writer)

    async def messages(request: web.Request) -> web.Response:
        kept = RECEIVED_BODY.set(await request.read()) if bot.queue else None
        try:
            return await adapter.process(request, bot)
        except AuthUnavailable:
            # The Bot Framework redelivers on a 5xx; the keys are usually back by then.
            return web.Response(status=503, text="authentication temporarily unavailable", headers={"Retry-After": "5"})
        finally:
            if kept is not None:
                RECEIVED_BODY.reset(kept)

    messages.bot = bot
    return messages


def listen_host(settings, host: str | None, *, insecure_no_auth: bool = False) -> str:
    """Where the endpoint may listen. With no app id botbuilder turns authentication off, and
    anyone who can reach the port can make Footnote answer and post the card to a serviceUrl of
    their choosing; so without one it listens on loopback (the Emulator's case) unless told,
    explicitly, to be reachable anyway."""
    if settings.microsoft_app_id:
        return host or "0.0.0.0"
    if host is None or _loopback(host) or insecure_no_auth or settings.teams_insecure_no_auth:
        return host or "127.0.0.1"
    raise FootnoteError(
        f"MicrosoftAppId is not set, so Bot Framework authentication is off and Footnote for Teams listens on "
        f"127.0.0.1 only. Set MicrosoftAppId and MicrosoftAppPassword to listen on {host}, or pass "
        "--insecure-no-auth (FOOTNOTE_TEAMS_INSECURE_NO_AUTH=1) if anyone who can reach it may use it."
    )


def _loopback(host: str) -> bool:
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def run(settings, footnote, host: str, port: int) -> None:
    """On the web front's server (bot/web.py): idle and slow connections are closed, and open
    connections are capped the same way as `footnote serve`'s."""
    from bot import web as front

    front.run(make_app(settings, footnote), host, port)
