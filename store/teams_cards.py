"""The Teams cards Footnote sent, by conversation and activity id, with the conversation's reference.

A vote on a card may reach any process (the endpoint's replicas, answer workers); showing the
counts on the card means replacing it with the same card and new button titles, so the card as
sent must be where every process can read it, not in one process's memory.
"""

from __future__ import annotations

import json

SAVE = """
INSERT INTO teams_cards (conversation_id, activity_id, card, reference) VALUES (%s, %s, %s, %s)
ON CONFLICT (conversation_id, activity_id) DO UPDATE SET card = EXCLUDED.card
"""

CARD = "SELECT card FROM teams_cards WHERE conversation_id = %s AND activity_id = %s"

PRUNE = "DELETE FROM teams_cards WHERE created_at < now() - make_interval(days => %s)"


def save(db, conversation_id: str, activity_id: str, card: dict, reference: dict) -> None:
    with db.connection() as conn:
        conn.execute(SAVE, (conversation_id, activity_id, json.dumps(card), json.dumps(reference)))


def card(db, conversation_id: str, activity_id: str) -> dict | None:
    with db.connection() as conn:
        row = conn.execute(CARD, (conversation_id, activity_id)).fetchone()
    return None if row is None else (row[0] if isinstance(row[0], dict) else json.loads(row[0]))


def prune(db, days: int) -> int:
    with db.connection() as conn:
        return conn.execute(PRUNE, (days,)).rowcount
