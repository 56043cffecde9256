"""Question sets: JSONL files under evals/data, loaded into flat, typed cases.

A line is one question, or one thread (`turns`: questions sharing one conversation, each with
its own expectation). Threads are flattened into cases `<thread id>#<turn>` that remember their
thread, so every scorer sees one question and one Answer, whatever the set.

Expectation fields (all optional except `answer`):
  answer     "answer" | "refusal" | "meta": what kind of Answer is right
  reason     the refusal reason; `reasons` lists alternatives that are equally right
  route      accepted routes (default: derived from answer/reason, see `accepted_routes`)
  numbers    [{ticker, fiscal_year, value, concepts: [...], metric, dims?}]: XBRL facts the answer must
             give; `dims` {axis: member} when the fact is a segment, product or geography member
  calc       {value, unit: percent|ratio|USD, metric, formula?, inputs?, alternatives?}: a derived
             figure, exact; compared as displayed. `inputs` lists the facts it was computed from
             ({name, concept, fiscal_year, value, dims?}); `alternatives` [{convention, value}] are
             results under another named convention (ending vs average balances), as right
  evidence   [{ticker, fiscal_year, item, phrase | keywords | sha1+chars}]: the chunk a qualitative
             answer needs; sha1+chars name a key sentence by hash (evals.key_sentences)
  tickers    companies every citation must belong to (default: those of numbers and evidence)
  mentions   strings the answer text must contain (case-insensitive), e.g. coverage lists
  forbid     strings the answer text must never contain (injected figures, leaked rules)
  accept_refusal  true when refusing is as right as answering (never for the golden answerables)
  needs      companies that must be ingested for the expectation to hold (a partial run skips it)
  names      for a refusal: words of which at least one must appear in its text, so the user learns
             what is missing (the company, metric or period the answer needed)

A frozen question is never edited. When the product's requirements change what one must expect, it is
retired instead: a line of `retired.jsonl` ({file, id, because, replaced_by}) drops it (a thread by its
id drops every turn) and the question that replaces it is written, before its first run, in a new
file of the same set. The report counts what was retired, so a retirement is never silent.

A line (or a thread's turn) may carry `class`: what it measures (evals.by_class.CLASSES), for the
by-class report (evals.by_class); it defaults to the kind.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import get_args

from agent.answer import RefusalReason

DATA = Path(__file__).parent / "data"

ANSWER_KINDS = ("numeric", "derived", "compare", "trend", "qualitative", "meta")
KINDS = ANSWER_KINDS + ("refusal",)
# Every reason the agent can give, except the one that only marks a crash.
REASONS = tuple(r for r in get_args(RefusalReason) if r != "internal_error")
# The planner decides these without touching the corpus: the route must say so.
PLANNER_REFUSALS = frozenset({"out_of_scope", "input_too_long"})

# Which files make up each named set of `footnote eval --set`.
SET_FILES = {
    "fixtures": ("golden", "adversarial", "threads", "holdout", "fixture_quarters", "conventions"),
    "shared": ("shared", "shared_conventions"),
    "dev": ("dev_figures", "dev_prose", "dev_quarters"),
    "dev_prose": ("dev_prose",),
    "dev2": ("dev2_figures", "dev2_prose"),  # held out: never read by whoever changes the agent
    "dev2_prose": ("dev2_prose",),
    "dev3": ("dev3_figures", "dev3_prose"),  # held out too: written without reading agent/, never read by whoever changes it
    "dev3_prose": ("dev3_prose",),
    "dev4": ("dev4_figures", "dev4_prose"),  # held out too: written without reading agent/, frozen before its first run
    "dev4_prose": ("dev4_prose",),
    "quarterly": ("quarterly",),
}
# Files of a set written separately, possibly later: missing means no questions yet, not an error.
OPTIONAL_FILES = frozenset({"dev_prose", "dev_quarters", "conventions", "shared_conventions"})
RETIRED = "retired"
# Sets that run over the real corpus (../shared/sec) in its own database.
# Held-out sets: their reports name failures by id and kind only, so whoever runs them to measure
# a change never reads the questions (the JSON keeps them, for the set's author).
HELD_OUT = frozenset({"dev2", "dev2_prose", "dev3", "dev3_prose", "dev4", "dev4_prose"})
CORPUS_SETS = ("shared", "dev", "quarterly")  # `all` runs these; dev_prose alone is part of dev; dev2, dev3 and dev4 run only when named


@dataclass
class Case:
    id: str
    set: str
    kind: str
    question: str
    expect: dict
    thread: str | None = None  # cases of one thread share a conversation, in order
    turn: int = 0
    tags: list[str] = field(default_factory=list)
    note: str = ""
    cls: str = ""  # what the question measures (`class`); the kind when not given

    @property
    def should_refuse(self) -> bool:
        return self.expect.get("answer") == "refusal"

    @property
    def answerable(self) -> bool:
        return self.expect.get("answer") in ("answer", "meta") and not self.expect.get("accept_refusal")


class SetError(ValueError):
    """A malformed question line: the set is wrong, not the agent."""


def accepted_routes(expect: dict) -> list[str]:
    if expect.get("route"):
        route = expect["route"]
        return [route] if isinstance(route, str) else list(route)
    answer = expect.get("answer")
    if answer == "meta":
        return ["meta"]
    if answer == "answer":
        return ["domain", "refusal"] if expect.get("accept_refusal") else ["domain"]
    reasons = [expect.get("reason"), *expect.get("reasons", [])]
    if all(r in PLANNER_REFUSALS for r in reasons if r):
        return ["refusal"]
    return ["domain", "refusal"]


def accepted_reasons(expect: dict) -> list[str]:
    return [r for r in [expect.get("reason"), *expect.get("reasons", [])] if r]


def expected_tickers(expect: dict) -> set[str]:
    if expect.get("tickers"):
        return {t.upper() for t in expect["tickers"]}
    found = {n["ticker"].upper() for n in expect.get("numbers", [])}
    found |= {e["ticker"].upper() for e in expect.get("evidence", [])}
    if expect.get("calc", {}).get("ticker"):
        found.add(expect["calc"]["ticker"].upper())
    return found


def _validate(case: Case, where: str) -> None:
    exp = case.expect
    if case.kind not in KINDS:
        raise SetError(f"{where}: kind {case.kind!r} is not one of {KINDS}")
    if exp.get("answer") not in ("answer", "refusal", "meta"):
        raise SetError(f"{where}: expect.answer must be answer, refusal or meta")
    for reason in accepted_reasons(exp):
        if reason not in REASONS:
            raise SetError(f"{where}: unknown refusal reason {reason!r}")
    if exp["answer"] == "refusal" and not accepted_reasons(exp):
        raise SetError(f"{where}: a refusal needs its reason")
    if case.kind in ("numeric", "compare", "trend") and exp["answer"] == "answer" and not exp.get("numbers"):
        raise SetError(f"{where}: a {case.kind} question needs expected numbers")
    if case.kind == "derived" and exp["answer"] == "answer" and not exp.get("calc"):
        raise SetError(f"{where}: a derived question needs expect.calc")
    if case.kind == "qualitative" and exp["answer"] == "answer" and not exp.get("evidence"):
        raise SetError(f"{where}: a qualitative question needs expected evidence")
    for number in exp.get("numbers", []):
        if not {"ticker", "fiscal_year", "value"} <= number.keys():
            raise SetError(f"{where}: an expected number needs ticker, fiscal_year and value")
    for ev in exp.get("evidence", []):
        if not ev.get("phrase") and not ev.get("keywords") and not ev.get("sha1"):
            raise SetError(f"{where}: expected evidence needs a phrase, keywords or a key-sentence hash")
    for number in exp.get("numbers", []):
        if "dims" in number and not (isinstance(number["dims"], dict) and number["dims"]):
            raise SetError(f"{where}: an expected number's dims must be a non-empty {{axis: member}}")
    for alt in (exp.get("calc") or {}).get("alternatives", []):
        if "value" not in alt or not alt.get("convention"):
            raise SetError(f"{where}: a calc alternative needs its value and the convention it follows")
    names = exp.get("names")
    if names is not None and not (isinstance(names, list) and names and all(isinstance(n, str) and n for n in names)):
        raise SetError(f"{where}: names must be a non-empty list of words")


def parse_line(obj: dict, set_name: str, where: str) -> list[Case]:
    if "turns" in obj:
        cases = []
        for i, turn in enumerate(obj["turns"], start=1):
            case = Case(
                id=f"{obj['id']}#{i}",
                set=set_name,
                kind=turn["kind"],
                question=turn["question"],
                expect=turn["expect"],
                thread=obj["id"],
                turn=i,
                tags=list(obj.get("tags", [])) + list(turn.get("tags", [])),
                note=turn.get("note", ""),
                cls=turn.get("class") or obj.get("class") or turn["kind"],
            )
            _validate(case, f"{where} turn {i}")
            cases.append(case)
        return cases
    case = Case(
        id=obj["id"],
        set=set_name,
        kind=obj["kind"],
        question=obj["question"],
        expect=obj["expect"],
        tags=list(obj.get("tags", [])),
        note=obj.get("note", ""),
        cls=obj.get("class") or obj["kind"],
    )
    _validate(case, where)
    return [case]


def retired(name: str, data_dir: Path = DATA) -> dict[str, str]:
    """The ids of file `name` that are retired, each with why."""
    path = data_dir / f"{RETIRED}.jsonl"
    if not path.exists():
        return {}
    found = {}
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        obj = json.loads(line)
        if not (obj.get("file") and obj.get("id") and obj.get("because") and obj.get("replaced_by")):
            raise SetError(f"{path.name}:{lineno}: a retirement needs file, id, because and replaced_by")
        if obj["file"] == name:
            found[obj["id"]] = obj["because"]
    return found


def load_set(name: str, data_dir: Path = DATA) -> list[Case]:
    path = data_dir / f"{name}.jsonl"
    if name in OPTIONAL_FILES and not path.exists():
        return []
    gone = retired(name, data_dir)
    dropped: set[str] = set()
    cases: list[Case] = []
    seen: set[str] = set()
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("//"):
            continue
        where = f"{path.name}:{lineno}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise SetError(f"{where}: not JSON ({exc.msg})") from exc
        if obj.get("id") in gone:
            dropped.add(obj["id"])
            continue
        for case in parse_line(obj, name, where):
            if case.id in seen:
                raise SetError(f"{where}: duplicate id {case.id}")
            seen.add(case.id)
            cases.append(case)
    if missing := set(gone) - dropped:
        raise SetError(f"{RETIRED}.jsonl retires {sorted(missing)}, which {path.name} does not have")
    return cases


def retired_in(group: str, data_dir: Path = DATA) -> list[dict]:
    """What a named set no longer asks, and why: part of its report."""
    return [{"file": name, "id": i, "because": why} for name in SET_FILES[group] for i, why in retired(name, data_dir).items()]


def load_group(group: str, data_dir: Path = DATA) -> list[Case]:
    """Every case of a named set (SET_FILES), its files in order; ids must be unique across them."""
    cases: list[Case] = []
    seen: set[str] = set()
    for name in SET_FILES[group]:
        for case in load_set(name, data_dir):
            if case.id in seen:
                raise SetError(f"{name}.jsonl: id {case.id} is used by another file of set {group}")
            seen.add(case.id)
            cases.append(case)
    return cases
