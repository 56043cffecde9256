from __future__ import annotations

from bot.slack.listeners.commands import filings, footnote_help, tickers


def register(app, footnote, db) -> None:
    tickers.register(app, footnote, db)
    filings.register(app, footnote, db)
    footnote_help.register(app, footnote, db)
