"""The `footnote` command. Each package owns its sub-commands and registers them here."""

from __future__ import annotations

import argparse
import logging
import signal
import sys

from bot import collector
from bot.logs import configure_logging
from bot.settings import load_settings
from ingest.edgar_dirs import confine_edgartools, confine_library_caches
from store.errors import FootnoteError


# The module that registers each command, in help order. A command registers only its own module:
# `footnote ask` never imports the eval harness (numpy, the corpus tools) or the bots' servers, a
# third of a second of every cold start. Help, `bench` and anything unknown register them all.
MODULES = ("store.cli", "ingest.cli", "bot.ask_cli", "bot.bot_cli", "evals.cli")
COMMANDS = {
    "db": "store.cli",
    "ingest": "ingest.cli", "tickers": "ingest.cli",
    "ask": "bot.ask_cli", "chat": "bot.ask_cli", "statement": "bot.ask_cli",
    "slack": "bot.bot_cli", "serve": "bot.bot_cli", "worker": "bot.bot_cli", "teams": "bot.bot_cli",
    "feedback": "bot.bot_cli",
    "eval": "evals.cli",
}


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The whole command line, or with `argv` only what its command needs."""
    import importlib

    command = argv[0] if argv else None  # the top level has no options but --help
    owners = (COMMANDS[command],) if command in COMMANDS else MODULES
    parser = argparse.ArgumentParser(
        prog="footnote", description="Answers about US public companies from their SEC 10-K and 10-Q filings, and only from them."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    bench = sub.add_parser("bench", help="benchmarks that print figures and write them to a file")
    bench_sub = bench.add_subparsers(dest="bench", metavar="WHAT")
    bench.set_defaults(func=lambda args, settings: bench.print_help() or 0)
    for module in map(importlib.import_module, owners):
        module.register(sub)
        if hasattr(module, "register_bench") and owners is MODULES:  # a benchmark is never a cold `ask`
            module.register_bench(bench_sub)
    return parser


def _stop_like_ctrl_c(signum, frame) -> None:
    """A service manager's SIGTERM takes the same clean-up path as Ctrl-C: open transactions roll
    back, worker processes are shut down, and the user gets one line instead of a dead process."""
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    program = argv is None  # the `footnote` command itself, not a test calling main
    if program:
        collector.pause()  # until the command has loaded what it needs (bot/collector.py)
    try:
        return _run(sys.argv[1:] if program else argv)
    finally:
        if program:
            collector.before_exit()


def _run(argv: list[str]) -> int:
    signal.signal(signal.SIGTERM, _stop_like_ctrl_c)
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    if not getattr(args, "resumes_collector", False):  # a command that opens a Footnote resumes it once built
        collector.resume()
    settings = load_settings()
    confine_edgartools(settings.data_dir)  # before anything imports edgar
    confine_library_caches(settings.data_dir)  # before anything imports onnxruntime
    configure_logging(settings.log_level)
    try:
        return int(args.func(args, settings) or 0)
    except FootnoteError as exc:
        print(f"footnote: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:
        from store.db import is_outage

        if not is_outage(exc):
            raise
        logging.getLogger(__name__).debug("database outage", exc_info=True)
        print("footnote: the database stopped answering; nothing partial was kept. Try again in a moment "
              "(`footnote db status` shows whether it is reachable).", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nfootnote: interrupted; nothing partial was kept.", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
