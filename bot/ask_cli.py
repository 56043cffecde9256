"""`footnote ask` and `footnote chat`: the same graph the bots use, in a terminal.

`footnote ask --batch questions.jsonl --out answers.jsonl` is the stable interface evaluations
from outside the project use: input lines are {"id", "question"} or {"id", "turns": [...]}
(the turns share one thread); each output line is {"id": ..., "answers": [Answer, ...]} in input
order, one per id, with "error" added when a line could not be read.

The chat bots' limits hold here too: a question over the input cap gets the same message stating
the limit, and one person (the OS user, or `--user`) gets the same polite reply past
FOOTNOTE_CHAT_PER_USER_PER_MINUTE, counted in Postgres across `ask` and `chat` processes. A batch
is exempt and not counted: it is one deliberate command, and a limit would either fail records
or stall it for minutes; its over-long questions are refused record by record.
"""

from __future__ import annotations

import getpass
import json
import math
import sys
import uuid
from pathlib import Path

from agent.answer import Answer, Turn
from bot import limits

EX_TEMPFAIL = 75  # sysexits: over the rate limit, try again later (a script can tell it from an error)


def register(sub) -> None:
    ask = sub.add_parser("ask", help="answer a question from the 10-K filings")
    ask.add_argument("question", nargs="?", help="the question (omit with --batch)")
    ask.add_argument("--thread", default=None, help="thread id: follow-ups in the same thread share memory")
    ask.add_argument("--json", action="store_true", help="print the Answer as JSON")
    ask.add_argument("--batch", type=Path, help="a JSONL file of {id, question} or {id, turns} lines "
                     "(exempt from the per-user rate limit, and not counted in it)")
    ask.add_argument("--out", type=Path, help="where --batch writes its JSONL answers (default: stdout)")
    ask.add_argument("--no-cache", action="store_true", help="do not read or write the answer cache")
    ask.add_argument("--user", default=None, help="who is asking, for the per-user rate limit "
                     "(FOOTNOTE_CHAT_PER_USER_PER_MINUTE, shared with chat; default: the OS user)")
    ask.set_defaults(func=cmd_ask, resumes_collector=True)
    chat = sub.add_parser("chat", help="an interactive session with thread memory")
    chat.add_argument("--thread", default=None, help="resume a thread by id")
    chat.add_argument("--no-cache", action="store_true", help="do not read or write the answer cache")
    chat.add_argument("--user", default=None, help="who is asking, for the per-user rate limit (default: the OS user)")
    chat.set_defaults(func=cmd_chat, resumes_collector=True)
    from bot import statement_cli as statement

    statement.register(sub)


def register_bench(bench_sub) -> None:
    from bot import ask_bench as bench

    bench.register(bench_sub)


def cmd_ask(args, settings) -> int:
    from bot.render_text import render
    from bot.wiring import open_footnote

    if args.batch is None and not args.question:
        print("footnote ask: give a question, or --batch FILE", file=sys.stderr)
        return 2
    if args.batch is None and (too_long := limits.too_long(args.question)):
        print(too_long, file=sys.stderr)
        return 2
    with open_footnote(settings, use_cache=not args.no_cache) as footnote:
        if args.batch is not None:
            return run_batch(footnote, args.batch, args.out)
        if slow_down := limits.shared_check(footnote.db, _user(args), settings.chat_per_user_per_minute):
            print(slow_down, file=sys.stderr)
            return EX_TEMPFAIL
        turn = Turn(thread_key=f"cli:{args.thread or uuid.uuid4().hex}", user="cli", text=args.question)
        answer = footnote.answer(turn, on_status=None if args.json else _status)
        if args.json:
            print(answer.model_dump_json(indent=2))
        else:
            print(render(answer))
    return 0


def run_batch(footnote, path: Path, out: Path | None) -> int:
    """Answer every line of `path`; write one JSON line per id. Returns 0, or 1 if a line failed.

    Records end at "\n" only (JSONL): str.splitlines() also splits on U+2028, U+2029 and other
    separators that JSON strings may hold raw, which cut questions in two and lost both halves.
    Output is strict JSON: a non-finite number is never written (json's default writes NaN)."""
    run = uuid.uuid4().hex[:8]
    failed = 0
    sink = out.open("w", encoding="utf-8") if out else sys.stdout
    try:
        for number, raw in enumerate(path.read_bytes().split(b"\n"), start=1):
            line, error = _decode(raw, number)
            if not line.strip() and error is None:
                continue
            record, error = (_read_line(line, number) if error is None else ({"id": None}, error))
            answers: list[dict] = []
            if error is None:
                thread = f"batch:{run}:{record['id']}"
                for text in record["turns"]:
                    answer: Answer = footnote.answer(Turn(thread_key=thread, user="batch", text=text))
                    answers.append(answer.model_dump(mode="json"))
            else:
                failed += 1
            result = {"id": record.get("id"), "answers": answers}
            if error:
                result["error"] = error
            sink.write(_strict_json(result, number) + "\n")
            sink.flush()
    finally:
        if out:
            sink.close()
    return 1 if failed else 0


def _decode(raw: bytes, number: int) -> tuple[str, str | None]:
    try:
        return raw.decode("utf-8").removesuffix("\r"), None
    except UnicodeDecodeError:
        return "", f"line {number}: not UTF-8"


def _no_constant(name: str):
    raise ValueError(f"{name} is not standard JSON")


def _read_line(line: str, number: int) -> tuple[dict, str | None]:
    try:
        record = json.loads(line, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        return {"id": None}, f"line {number}: not JSON ({exc.msg})"
    except ValueError as exc:  # NaN, Infinity
        return {"id": None}, f"line {number}: not JSON ({exc})"
    if not isinstance(record, dict) or "id" not in record:
        return {"id": None}, f"line {number}: needs an \"id\""
    if not _plain_id(record["id"]):
        return {"id": None}, f"line {number}: \"id\" must be a string or a finite number"
    if isinstance(record.get("turns"), list) and all(isinstance(t, str) for t in record["turns"]):
        return {"id": record["id"], "turns": record["turns"]}, None
    if isinstance(record.get("question"), str):
        return {"id": record["id"], "turns": [record["question"]]}, None
    return {"id": record["id"]}, f"line {number}: needs \"question\" (a string) or \"turns\" (a list of strings)"


def _plain_id(value) -> bool:
    """An id that can be written back as it came: a string, an integer, or a finite number (1e400
    reads as infinity)."""
    if isinstance(value, float):
        return math.isfinite(value)
    return value is None or isinstance(value, (str, int))


def _strict_json(result: dict, number: int) -> str:
    """The record as standard JSON; an id with unpaired surrogates is written with them escaped."""
    try:
        text = json.dumps(result, ensure_ascii=False, allow_nan=False)
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return json.dumps(result, allow_nan=False)
    except ValueError:  # a non-finite number somewhere in an answer: the record says so instead
        return json.dumps({"id": result.get("id"), "answers": [], "error": f"line {number}: answer not writable as JSON"},
                          ensure_ascii=True, allow_nan=False)


def cmd_chat(args, settings) -> int:
    from bot.render_text import render
    from bot.wiring import open_footnote

    thread = f"cli:{args.thread or uuid.uuid4().hex[:12]}"
    user = _user(args)
    if hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")  # a pasted byte that is not UTF-8 is not a traceback
    with open_footnote(settings, use_cache=not args.no_cache) as footnote:
        print(
            f"Footnote chat (thread {thread.removeprefix('cli:')}). Ask about a company's 10-K; "
            "'quit' or Ctrl-D to leave. Resume this thread later with --thread."
        )
        while True:
            try:
                text = input("\n> ").strip()
            except EOFError:
                print()
                return 0
            if not text:
                continue
            if text.lower().strip("/!. ") in ("quit", "exit", "bye", "q"):
                return 0
            per_user = settings.chat_per_user_per_minute
            if refusal := limits.too_long(text) or limits.shared_check(footnote.db, user, per_user):
                print(refusal)
                continue
            answer = footnote.answer(Turn(thread_key=thread, user="cli", text=text), on_status=_status)
            print(render(answer))


def _user(args) -> str:
    """Who is asking: `--user`, else the OS login (LOGNAME, USER, then the password database)."""
    if args.user and args.user.strip():
        return args.user.strip()
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # a container user with no name and no LOGNAME/USER
        return "cli"


def _status(text: str) -> None:
    print(f"  {text}", file=sys.stderr)
