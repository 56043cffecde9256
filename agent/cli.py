"""`footnote ask` and `footnote chat`: the same graph the bots use, in a terminal.

`footnote ask --batch questions.jsonl --out answers.jsonl` is the stable interface evaluations
from outside the project use: input lines are {"id", "question"} or {"id", "turns": [...]}
(the turns share one thread); each output line is {"id": ..., "answers": [Answer, ...]} in input
order, one per id, with "error" added when a line could not be read.
"""

from __future__ import annotations

import json
import sys
import uuid
from pathlib import Path

from agent.answer import Answer, Turn


def register(sub) -> None:
    ask = sub.add_parser("ask", help="answer a question from the 10-K filings")
    ask.add_argument("question", nargs="?", help="the question (omit with --batch)")
    ask.add_argument("--thread", default=None, help="thread id: follow-ups in the same thread share memory")
    ask.add_argument("--json", action="store_true", help="print the Answer as JSON")
    ask.add_argument("--batch", type=Path, help="a JSONL file of {id, question} or {id, turns} lines")
    ask.add_argument("--out", type=Path, help="where --batch writes its JSONL answers (default: stdout)")
    ask.add_argument("--no-cache", action="store_true", help="do not read or write the answer cache")
    ask.set_defaults(func=cmd_ask)
    chat = sub.add_parser("chat", help="an interactive session with thread memory")
    chat.add_argument("--thread", default=None, help="resume a thread by id")
    chat.add_argument("--no-cache", action="store_true")
    chat.set_defaults(func=cmd_chat)
    from agent import statement

    statement.register(sub)


def register_bench(bench_sub) -> None:
    from agent import bench

    bench.register(bench_sub)


def cmd_ask(args, settings) -> int:
    from agent.render_text import render
    from agent.service import Footnote

    if args.batch is None and not args.question:
        print("footnote ask: give a question, or --batch FILE", file=sys.stderr)
        return 2
    with Footnote.open(settings, use_cache=not args.no_cache) as footnote:
        if args.batch is not None:
            return run_batch(footnote, args.batch, args.out)
        turn = Turn(thread_key=f"cli:{args.thread or uuid.uuid4().hex}", user="cli", text=args.question)
        answer = footnote.answer(turn, on_status=None if args.json else _status)
        if args.json:
            print(answer.model_dump_json(indent=2))
        else:
            print(render(answer))
    return 0


def run_batch(footnote, path: Path, out: Path | None) -> int:
    """Answer every line of `path`; write one JSON line per id. Returns 0, or 1 if a line failed."""
    run = uuid.uuid4().hex[:8]
    failed = 0
    sink = out.open("w", encoding="utf-8") if out else sys.stdout
    try:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip():
                continue
            record, error = _read_line(line, number)
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
            sink.write(json.dumps(result, ensure_ascii=False) + "\n")
            sink.flush()
    finally:
        if out:
            sink.close()
    return 1 if failed else 0


def _read_line(line: str, number: int) -> tuple[dict, str | None]:
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"id": None}, f"line {number}: not JSON ({exc.msg})"
    if not isinstance(record, dict) or "id" not in record:
        return {"id": None}, f"line {number}: needs an \"id\""
    if isinstance(record.get("turns"), list) and all(isinstance(t, str) for t in record["turns"]):
        return {"id": record["id"], "turns": record["turns"]}, None
    if isinstance(record.get("question"), str):
        return {"id": record["id"], "turns": [record["question"]]}, None
    return {"id": record["id"]}, f"line {number}: needs \"question\" (a string) or \"turns\" (a list of strings)"


def cmd_chat(args, settings) -> int:
    from agent.render_text import render
    from agent.service import Footnote

    thread = f"cli:{args.thread or uuid.uuid4().hex[:12]}"
    with Footnote.open(settings, use_cache=not args.no_cache) as footnote:
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
            answer = footnote.answer(Turn(thread_key=thread, user="cli", text=text), on_status=_status)
            print(render(answer))


def _status(text: str) -> None:
    print(f"  {text}", file=sys.stderr)
