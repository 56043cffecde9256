"""The `footnote` command explains itself: every option has help text, and a command group given
alone (`footnote db`, `footnote bench`) prints its help instead of an argparse error."""

from __future__ import annotations

import argparse

import pytest

from bot.cli import build_parser, main


def parsers(parser: argparse.ArgumentParser, path: tuple[str, ...] = ("footnote",)):
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from parsers(sub, (*path, name))


def test_every_option_and_command_has_help():
    missing = []
    for path, parser in parsers(build_parser()):
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            if isinstance(action, argparse._SubParsersAction):
                missing += [f"{' '.join(path)} {c.dest}" for c in action._choices_actions if not c.help]
            elif not action.help:
                missing.append(f"{' '.join(path)} {'/'.join(action.option_strings) or action.dest}")
    assert missing == []


@pytest.mark.parametrize("group", ["db", "bench"])
def test_a_command_group_alone_prints_its_help(group, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("FOOTNOTE_DATA_DIR", str(tmp_path))
    for name in ("EDGAR_LOCAL_DATA_DIR", "EDGAR_CACHE_DIR"):  # main() points them; put them back after
        monkeypatch.setenv(name, str(tmp_path / name))
    assert main([group]) == 0
    out = capsys.readouterr()
    assert out.out.startswith(f"usage: footnote {group}") and out.err == ""
    assert "db_command" not in out.out
