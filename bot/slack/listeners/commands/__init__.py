from __future__ import annotations

from bot.slack.listeners.commands import filings, footnote_help, tickers


def register(app, answering) -> None:
    tickers.register(app, answering)
    filings.register(app, answering)
    footnote_help.register(app, answering)
