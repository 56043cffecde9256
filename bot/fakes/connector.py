"""A local fake of the Bot Framework connector service (the `serviceUrl` of an activity).

The bot's real botbuilder ConnectorClient posts its replies here; the fake records them so a test
reads what the Teams user would see: typing indicators, then the card or text reply, each with
the conversation (reply chain) it went to.

    with FakeConnector() as connector:
        activity["serviceUrl"] = connector.url
        ...
        connector.wait_for(lambda: connector.messages("conv-1"))
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote

from bot.fakes.loopback import send_json, serve, stop


@dataclass
class Reply:
    conversation_id: str
    reply_to: str | None
    activity: dict
    headers: dict
    at: float = field(default_factory=time.monotonic)
    id: str = ""  # the id the connector gave the activity (what a later edit or reply refers to)

    @property
    def type(self) -> str:
        return self.activity.get("type", "")

    @property
    def card(self) -> dict | None:
        for a in self.activity.get("attachments") or []:
            if a.get("contentType") == "application/vnd.microsoft.card.adaptive":
                return a.get("content")
        return None


class FakeConnector:
    def __init__(self):
        self.replies: list[Reply] = []
        self.updates: list[Reply] = []  # PUTs: activities the bot edited (reply_to: the edited id)
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._server: ThreadingHTTPServer | None = None

    def __enter__(self) -> "FakeConnector":
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                parts = [unquote(p) for p in self.path.split("?")[0].strip("/").split("/")]
                # v3/conversations/{id}/activities[/{replyToId}]
                if len(parts) >= 4 and parts[:2] == ["v3", "conversations"] and parts[3] == "activities":
                    reply_to = parts[4] if len(parts) > 4 else None
                    with fake._lock:
                        given = f"reply-{next(fake._ids)}"
                        fake.replies.append(Reply(parts[2], reply_to, body, dict(self.headers), id=given))
                    send_json(self, 200, {"id": given})
                else:
                    send_json(self, 404, {"error": "not found"})

            def do_PUT(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                parts = [unquote(p) for p in self.path.split("?")[0].strip("/").split("/")]
                # v3/conversations/{id}/activities/{activityId}
                if len(parts) == 5 and parts[:2] == ["v3", "conversations"] and parts[3] == "activities":
                    with fake._lock:
                        fake.updates.append(Reply(parts[2], parts[4], body, dict(self.headers)))
                    send_json(self, 200, {"id": parts[4]})
                else:
                    send_json(self, 404, {"error": "not found"})

        self._server = serve(Handler)
        return self

    def __exit__(self, *exc) -> None:
        stop(self._server)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_port}/"

    def messages(self, conversation_id: str | None = None) -> list[Reply]:
        """The message replies (not typing indicators), in order."""
        with self._lock:
            return [r for r in self.replies if r.type == "message" and (conversation_id is None or r.conversation_id == conversation_id)]

    def typing(self, conversation_id: str | None = None) -> list[Reply]:
        with self._lock:
            return [r for r in self.replies if r.type == "typing" and (conversation_id is None or r.conversation_id == conversation_id)]

    def wait_for(self, predicate, timeout: float = 30.0):
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for the bot's reply; got {[r.type for r in self.replies]}")
            time.sleep(0.02)


def activity(text: str, *, service_url: str, conversation_id: str = "a:personal-chat-1", conversation_type: str = "personal",
             tenant: str = "tenant-1", user: str = "29:analyst", bot_id: str = "28:footnote", mention: bool = False,
             activity_id: str | None = None, **extra) -> dict:
    """An incoming message activity as Teams sends it (a channel one carries the @mention)."""
    entities = []
    if mention:
        at = "<at>Footnote</at>"
        text = f"{at} {text}"
        entities.append({"type": "mention", "text": at, "mentioned": {"id": bot_id, "name": "Footnote"}})
    return {
        "type": "message", "id": activity_id or f"act-{time.monotonic_ns()}", "timestamp": "2026-11-22T01:00:00.000Z",
        "serviceUrl": service_url, "channelId": "msteams",
        "from": {"id": user, "name": "Analyst", "aadObjectId": "00000000-0000-0000-0000-000000000001"},
        "conversation": {"id": conversation_id, "conversationType": conversation_type, "tenantId": tenant},
        "recipient": {"id": bot_id, "name": "Footnote"}, "text": text, "textFormat": "plain", "entities": entities,
        "channelData": {"tenant": {"id": tenant}}, **extra,
    }
