"""`/filings TICKER`: a company's ingested 10-K and 10-Q filings, each linked to its SEC document."""

from __future__ import annotations

from bot.render_chat import filings_listing
from bot.slack import blocks
from bot.slack.listeners.commands.respond import ack_now, reply

USAGE = "Usage: `/filings TICKER`, for example `/filings AAPL`. `/tickers` lists the covered companies."


def filings_message(footnote, text: str) -> dict:
    words = text.split()
    if len(words) != 1 or len(words[0]) > 10:
        return blocks.text_message(USAGE)
    ticker = words[0].upper().lstrip("$")
    rows = footnote.filings(ticker)
    if not rows:
        return blocks.text_message(f"Footnote has no filings for {ticker}. `/tickers` lists the covered companies.")
    held, rows = filings_listing(rows)
    listing = [
        [r["form"], r["period_label"], str(r.get("period_end") or ""), str(r.get("filed") or "—"), (r["accession"], r["url"])]
        for r in rows
    ]
    return blocks.listing_message(f"{ticker}: filings Footnote has read ({len(rows)}): {held}",
                                  ["Form", "Fiscal period", "Period end", "Filed", "SEC document"], listing)


def register(app, answering) -> None:
    def list_filings(command, respond) -> None:
        reply(respond, lambda: filings_message(answering.footnote, command.get("text") or ""))

    app.command("/filings")(ack=ack_now, lazy=[list_filings])
