"""`/tickers [filter]`: the covered companies, with their fiscal years, as a table."""

from __future__ import annotations

from bot.slack import blocks
from bot.render_chat import COVERAGE_COLUMNS, coverage_listing
from bot.slack.listeners.commands.respond import ack_now, reply


def tickers_message(footnote, filter_text: str | None) -> dict:
    rows = footnote.coverage(filter_text or None)
    if not rows:
        hint = f" matching “{filter_text}”" if filter_text else ""
        return blocks.text_message(f"Footnote covers no companies{hint} yet. Try `/tickers` with no filter.")
    listing, note = coverage_listing(rows, mention="@Footnote ")
    title = f"Companies Footnote covers ({len(rows)})" + (f" matching “{filter_text}”" if filter_text else "")
    return blocks.listing_message(title, COVERAGE_COLUMNS, listing, note=note)


def register(app, answering) -> None:
    def list_tickers(command, respond) -> None:
        reply(respond, lambda: tickers_message(answering.footnote, (command.get("text") or "").strip()))

    app.command("/tickers")(ack=ack_now, lazy=[list_tickers])
