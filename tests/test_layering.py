"""The house rules, read from the source: who may import whom, no import cycles, and SQL only in
store/. An import scan (every import, those inside functions too) rather than a convention kept
by hand; ARCHITECTURE.md draws the same rules.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "agent", "store", "ingest", "evals", "tests")

# importer -> the packages it must never import
FORBIDDEN = {
    "store": {"agent", "ingest", "bot", "evals", "tests"},
    "agent": {"ingest", "bot", "evals", "tests"},
    "ingest": {"agent", "bot", "evals", "tests"},
    "evals": {"bot", "tests"},
    "bot": {"tests"},
}

# A statement's first keyword, in capitals as the project writes SQL, followed by more of it.
SQL = re.compile(
    r"^\s*(SELECT\s+\S|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(TABLE|INDEX|DATABASE|EXTENSION|UNIQUE)"
    r"|DROP\s+(TABLE|DATABASE|INDEX)|ALTER\s+TABLE|TRUNCATE\s|WITH\s+\w+\s+AS\s*\(|SET\s+LOCAL\s|COPY\s+\w+)"
)


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """Every module `name` imports, anywhere in the file, resolved to the project's modules."""
    out: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            targets = [module] + [f"{module}.{a.name}" for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target.split(".")[0] in PACKAGES and target != name:
                out.add(target)
    return out


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def test_the_scan_sees_the_project(graph):
    assert {"store.db", "agent.service", "bot.wiring", "ingest.pipeline", "evals.cli"} <= set(graph)
    assert "store.db" in graph["agent.service"] and "agent.service" in graph["bot.wiring"]


def test_each_package_imports_only_what_lies_below_it(graph):
    broken = sorted(
        f"{name} -> {target}"
        for name, targets in graph.items()
        for target in targets
        if target.split(".")[0] in FORBIDDEN.get(name.split(".")[0], ())
    )
    assert not broken, "imports against the layering (see ARCHITECTURE.md):\n" + "\n".join(broken)


def test_only_the_service_imports_the_graph(graph):
    importers = sorted(name for name, targets in graph.items() if "agent.graph" in targets)
    assert set(importers) <= {"agent.service", "tests.test_graph"}, importers


def test_no_import_cycles(graph):
    """Tarjan's strongly connected components over module imports: each must be one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert not cycles, f"import cycles: {cycles}"


def sql_strings_outside_store(root: Path = ROOT) -> list[str]:
    found = []
    for package in ("agent", "bot", "ingest", "evals"):
        for path in sorted((root / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            docstrings = {
                id(node.body[0].value)
                for node in ast.walk(tree)
                if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
            }
            rel = str(path.relative_to(root))
            for node in ast.walk(tree):
                # A string, or a literal piece of an f-string (ast gives both as constants).
                if not (isinstance(node, ast.Constant) and isinstance(node.value, str)) or id(node) in docstrings:
                    continue
                text = node.value
                if SQL.match(text):
                    found.append(f"{rel}:{node.lineno}: {text.strip()[:60]!r}")
    return found


def test_sql_lives_only_in_store():
    found = sql_strings_outside_store()
    assert not found, "SQL outside store/ (move it into a store module as a named constant):\n" + "\n".join(found)


def test_the_sql_scan_finds_sql(tmp_path):
    """The scan is not blind: queries dropped into agent/ are caught, prose and docstrings are not."""
    (tmp_path / "agent").mkdir()
    (tmp_path / "agent" / "leak.py").write_text(
        '"""SELECT nothing: a docstring."""\n'
        'Q = "SELECT cik FROM companies WHERE %s = ANY(tickers)"\n'
        'def f(conn, name):\n'
        '    conn.execute(f\'CREATE DATABASE "{name}"\')\n'
        '    conn.execute("""\n    UPDATE feedback SET reason = %s""")\n'
        '    return "Select the filing to read.", "\'; DROP TABLE facts; --"\n'
    )
    found = sql_strings_outside_store(tmp_path)
    assert sorted(int(line.split(":")[1]) for line in found) == [2, 4, 5], found
