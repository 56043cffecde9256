"""`footnote feedback`: the latest 👎 from Slack and Teams, with the question, what was wrong and
the answer as it was shown, so the people improving Footnote start from what users disliked."""

from __future__ import annotations

import json

from store import ledger


def register(sub) -> None:
    feedback = sub.add_parser("feedback", help="list the latest 👎 with their questions and answers")
    feedback.add_argument("-n", "--limit", type=int, default=20, help="how many (default 20)")
    feedback.add_argument("--json", action="store_true", help="one JSON object a line")
    feedback.set_defaults(func=cmd_feedback)


def answer_text(answer: dict, limit: int = 600) -> str:
    text = (answer or {}).get("text") or ""
    if not text and (answer or {}).get("reply_to_id"):
        return f"(Teams message {answer['reply_to_id']})"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def render(rows: list[dict]) -> str:
    if not rows:
        return "No 👎 yet."
    out = []
    for r in rows:
        reason = ledger.FEEDBACK_REASONS.get(r["reason"] or "", "no reason given")
        out.append(f"#{r['id']}  {r['updated_at']:%Y-%m-%d %H:%M}  {r['platform']}  {r['user_id']}  {r['thread_key']}")
        out.append(f"  Q: {r['question'] or '(unknown)'}")
        out.append(f"  Why: {reason}" + (f": {r['comment']}" if r.get("comment") else ""))
        out.append("  A: " + answer_text(r["answer"]).replace("\n", "\n     "))
        out.append("")
    return "\n".join(out).rstrip()


def cmd_feedback(args, settings) -> int:
    from store.cli import open_for

    with open_for(settings, check_embedding=False) as db:
        rows = ledger.latest_down(db, args.limit)
    if args.json:
        for r in rows:
            print(json.dumps({**r, "updated_at": r["updated_at"].isoformat()}, ensure_ascii=False, default=str))
    else:
        print(render(rows))
    return 0
