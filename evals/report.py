"""The run's outputs: results JSON, a Markdown summary (terminal and CI log), an HTML report.

The HTML's plots are inline SVG written here (bars and a histogram need no plotting library).
"""

from __future__ import annotations

import html
import json
import math
from datetime import datetime, timezone
from pathlib import Path

from evals import by_class
from evals.metrics import worst

COLUMNS = [
    ("questions", "n", "int"),
    ("passed", "passed", "int"),
    ("numeric_tripwire", "tripwire", "int"),
    ("unsupported_rate", "unsupported", "pct"),
    ("figure_accuracy", "figures right", "pct"),
    ("citation_accuracy", "citation acc.", "pct"),
    ("false_refusal_rate", "false refusals", "pct"),
    ("refusal_precision", "refusal prec.", "pct"),
    ("refusal_reason_accuracy", "reason acc.", "pct"),
    ("route_accuracy", "route acc.", "pct"),
    ("recall@5", "R@5", "pct"),
    ("recall@8", "R@8", "pct"),
    ("latency_p50_ms", "p50 ms", "ms"),
    ("latency_p95_ms", "p95 ms", "ms"),
]


def fmt(value, style: str = "") -> str:
    if value is None:
        return "–"
    if style == "pct":
        return f"{100 * value:.1f}%"
    if style == "ms":
        return f"{value:.0f}"
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def _row(label: str, summary: dict) -> list[str]:
    return [label] + [fmt(summary.get(key), style) for key, _, style in COLUMNS]


def _md_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def _gate_rows(gate: dict) -> list[list[str]]:
    rows = []
    for r in gate["gate"] + gate["targets"]:
        enforced = r in gate["gate"]
        status = ("PASS" if r["ok"] else "FAIL") if enforced else ("met" if r["ok"] else "missed")
        if r["no_data"]:
            status += " (no data)"
        rows.append([r["rule"], fmt(r["value"], "pct" if isinstance(r["value"], float) else ""), str(r["limit"]), status])
    return rows


PROSE_ROWS = [
    ("key_sentence_recall", "key-sentence recall", "key_sentence_questions", "qualitative questions"),
    ("unrelated_quote_rate", "unrelated-quote rate", "quoted_answers", "answers quoting prose"),
    ("meta_routing", "META routing", "meta_questions", "META messages"),
    ("thread_accuracy", "thread accuracy (all turns right)", "threads", "threads"),
    ("refusal_precision", "refusal precision", "should_refuse", "must-refuse messages"),
]


def prose_section(m: dict) -> list[str]:
    """Conversation and prose (evals.prose_metrics), per set that has any of it."""
    rows = []
    for name, s in m["sets"].items():
        if not (s.get("key_sentence_questions") or s.get("meta_questions") or s.get("threads")):
            continue
        rows += [[name, label, fmt(s.get(key), "pct"), str(s.get(over, 0)), what] for key, label, over, what in PROSE_ROWS]
    if not rows:
        return []
    out = ["## Conversation and prose", _md_table(["set", "metric", "value", "over", ""], rows)]
    unresolved = sum(s.get("key_sentences_unresolved", 0) for s in m["sets"].values())
    if unresolved:
        out.append(f"\n**{unresolved} key sentence(s) not found in the eval database: their filing is not ingested or has changed.**")
    return out + [""]


def markdown(results: dict) -> str:
    m = results["metrics"]
    gate = results["gate"]
    out = [f"# Footnote eval: {results['title']}", ""]
    out.append(f"{results['started']} · {m['overall']['questions']} questions · {results['duration_s']:.0f} s · corpus {results['corpus']}")
    out.append("")
    if results.get("retired"):
        out.append(f"{len(results['retired'])} question(s) retired, replaced by others: "
                   + "; ".join(f"{r['file']} {r['id']} ({r['because']})" for r in results["retired"]) + ".")
        out.append("")
    if results.get("skipped"):
        missing = sorted({t for s in results["skipped"] for t in s["missing"]})
        out.append(f"**{len(results['skipped'])} question(s) skipped: their companies are not ingested yet ({', '.join(missing)}).**")
        out.append("")
    out.append(f"**Gate: {'PASSED' if gate['passed'] else 'FAILED'}** (thresholds: evals/thresholds.toml)")
    out.append("")
    out.append(_md_table(["rule", "value", "limit", "status"], _gate_rows(gate)))
    out.append("")
    if results.get("by_class"):
        out.append(by_class.markdown(results["by_class"], held_out=bool(results.get("held_out"))))
    header = ["", *[label for _, label, _ in COLUMNS]]
    out.append("## Per set")
    out.append(_md_table(header, [_row(name, s) for name, s in m["sets"].items()] + [_row("**all**", m["overall"])]))
    out.append("")
    out.append("## Per kind")
    rows = []
    for set_name, kinds in m["set_kinds"].items():
        rows += [_row(f"{set_name}/{kind}", s) for kind, s in kinds.items()]
    out.append(_md_table(header, rows))
    out.append("")
    if m.get("tags"):
        out.append("## Per tag (traps and phrasings)")
        tags = sorted(m["tags"].items(), key=lambda kv: (kv[1]["passed"] - kv[1]["questions"], kv[0]))
        out.append(", ".join(f"{t} {v['passed']}/{v['questions']}" for t, v in tags))
        out.append("")
    out += prose_section(m)
    o = m["overall"]
    out.append("## Retrieval of the qualitative evidence: Footnote vs plain dense baseline")
    out.append(
        _md_table(
            ["", "questions", "Recall@5", "Recall@8", "wrong company in top 5"],
            [
                ["Footnote (scoped hybrid)", str(o["recall_questions"]), fmt(o["recall@5"], "pct"), fmt(o["recall@8"], "pct"), "–"],
                [
                    "baseline (dense, all chunks)",
                    str(o["baseline_questions"]),
                    fmt(o["baseline_recall@5"], "pct"),
                    fmt(o["baseline_recall@8"], "pct"),
                    fmt(o["baseline_wrong_company_top5"], "pct"),
                ],
            ],
        )
    )
    out.append(
        f"\nFootnote on the same {o['baseline_questions']} single-turn questions as the baseline: "
        f"Recall@5 {fmt(o['footnote_recall@5_on_baseline_questions'], 'pct')}."
    )
    if o["evidence_not_in_corpus"]:
        out.append(f"\n**{o['evidence_not_in_corpus']} question(s) expect evidence the corpus does not hold: the question is wrong.**")
    out.append("")
    failures = worst(results["records"], 20)
    if failures:
        out.append(f"## Worst failures ({len(failures)} shown of {sum(1 for r in results['records'] if r['findings']['failures'])})")
        for r in failures:
            a = r["answer"]
            got = a.get("kind") + (f"/{a.get('refusal_reason')}" if a.get("refusal_reason") else "")
            if results.get("held_out"):  # a held-out set: what failed, never the question or its answer
                out.append(f"- `{r['id']}` ({r['kind']}) → {got}: {', '.join(r['findings']['failures'])}")
                continue
            out.append(f"- `{r['id']}` ({r['kind']}) {r['question']!r} → {got}: {', '.join(r['findings']['failures'])}")
            for detail in _details(r)[:3]:
                out.append(f"  - {detail}")
    return "\n".join(out) + "\n"


def _details(r: dict) -> list[str]:
    f = r["findings"]
    out = []
    for key in ("tripwire", "forbidden", "unsupported", "citation_errors", "numbers_missing", "mentions_missing"):
        out += [f"{key}: {d}" for d in f.get(key) or []]
    exp = r["expect"]
    if f.get("refusal_missed"):
        out.append(f"expected refusal ({exp.get('reason')}), got {r['answer'].get('kind')}: {r['answer'].get('text', '')[:140]!r}")
    if f.get("false_refusal"):
        out.append(f"refused as {r['answer'].get('refusal_reason')}: {r['answer'].get('text', '')[:140]!r}")
    if f.get("wrong_reason"):
        out.append(f"reason {r['answer'].get('refusal_reason')}, expected {exp.get('reason')} {exp.get('reasons', '')}")
    if f.get("wrong_kind"):
        out.append(f"kind {r['answer'].get('kind')}, expected {exp.get('answer')}")
    if f.get("wrong_route"):
        out.append(f"route {r['answer'].get('route')}, expected {exp.get('route') or exp.get('answer')}")
    if f.get("recall_miss"):
        out.append(f"evidence chunks {f.get('gold')} not in the top 5 retrieved {r['answer'].get('retrieved') or '(citations)'}")
    if f.get("error"):
        out.append(r["answer"].get("text", ""))
    return out


# ---------------------------------------------------------------------------------------------
# HTML


def _svg_bars(title: str, series: list[tuple[str, float | None]], *, unit: str = "%", max_value: float | None = None) -> str:
    width, bar_h, gap, label_w = 560, 18, 6, 170
    height = 30 + len(series) * (bar_h + gap)
    top = max([v for _, v in series if v is not None] + [max_value or 0, 1e-9])
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" aria-label="{html.escape(title)}">']
    parts.append(f'<text x="0" y="16" font-size="13" font-weight="bold">{html.escape(title)}</text>')
    for i, (label, value) in enumerate(series):
        y = 28 + i * (bar_h + gap)
        w = 0 if value is None else (width - label_w - 70) * value / top
        shown = "–" if value is None else (f"{100 * value:.0f}%" if unit == "%" else f"{value:.0f} {unit}")
        color = "#2b6cb0" if unit != "%" else ("#2f855a" if (value or 0) >= 0.95 else "#c05621")
        parts.append(f'<text x="0" y="{y + 13}" font-size="12">{html.escape(label)}</text>')
        parts.append(f'<rect x="{label_w}" y="{y}" width="{w:.1f}" height="{bar_h}" fill="{color}"/>')
        parts.append(f'<text x="{label_w + w + 4:.1f}" y="{y + 13}" font-size="12">{shown}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _svg_histogram(title: str, values: list[float], bins: int = 24) -> str:
    width, height, pad = 560, 200, 30
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + 40}" role="img" aria-label="{html.escape(title)}">']
    parts.append(f'<text x="0" y="16" font-size="13" font-weight="bold">{html.escape(title)}</text>')
    if values:
        # log-spaced bins: latencies span cached lookups and model calls
        lo, hi = max(min(values), 0.1), max(max(values), 0.2)
        edges = [lo * (hi / lo) ** (i / bins) for i in range(bins + 1)]
        counts = [0] * bins
        for v in values:
            idx = min(bins - 1, max(0, int(bins * math.log(max(v, lo) / lo) / math.log(hi / lo)))) if hi > lo else 0
            counts[idx] += 1
        top = max(counts)
        bw = (width - 2 * pad) / bins
        for i, c in enumerate(counts):
            h = (height - 40) * c / top
            x = pad + i * bw
            parts.append(f'<rect x="{x:.1f}" y="{height - h:.1f}" width="{bw - 1:.1f}" height="{h:.1f}" fill="#2b6cb0"><title>{edges[i]:.0f}–{edges[i + 1]:.0f} ms: {c}</title></rect>')
        for i in (0, bins // 2, bins):
            parts.append(f'<text x="{pad + i * bw:.1f}" y="{height + 16}" font-size="11" text-anchor="middle">{edges[i]:.0f} ms</text>')
    parts.append("</svg>")
    return "".join(parts)


def _html_table(header: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def html_report(results: dict) -> str:
    m = results["metrics"]
    gate = results["gate"]
    header = ["", *[label for _, label, _ in COLUMNS]]
    kinds = m["kinds"]
    pass_rates = [(k, (s["passed"] / s["questions"]) if s["questions"] else None) for k, s in kinds.items()]
    p50 = [(k, s["latency_p50_ms"]) for k, s in kinds.items()]
    p95 = [(k, s["latency_p95_ms"]) for k, s in kinds.items()]
    o = m["overall"]
    recall = [
        ("Footnote R@5", o["recall@5"]),
        ("Footnote R@8", o["recall@8"]),
        ("baseline R@5", o["baseline_recall@5"]),
        ("baseline R@8", o["baseline_recall@8"]),
    ]
    latencies = [r["latency_ms"] for r in results["records"] if r["answer"].get("kind") != "error"]
    set_kind_rows = []
    for set_name, ks in m["set_kinds"].items():
        set_kind_rows += [_row(f"{set_name}/{k}", s) for k, s in ks.items()]
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'><title>Footnote eval</title><style>",
        "body{font-family:system-ui,sans-serif;margin:2em;max-width:1200px}table{border-collapse:collapse;margin:1em 0}"
        "td,th{border:1px solid #ccc;padding:3px 8px;font-size:13px;text-align:right}td:first-child{text-align:left}"
        ".pass{color:#2f855a}.fail{color:#c53030}pre{background:#f6f6f6;padding:8px;overflow-x:auto;font-size:12px;white-space:pre-wrap}"
        "details{margin:0.6em 0;border-left:3px solid #c05621;padding-left:8px}.plots{display:flex;flex-wrap:wrap;gap:24px}",
        "</style></head><body>",
        f"<h1>Footnote eval: {html.escape(results['title'])}</h1>",
        f"<p>{html.escape(results['started'])} · {o['questions']} questions · {results['duration_s']:.0f} s · corpus {html.escape(str(results['corpus']))}</p>",
        f"<h2 class='{'pass' if gate['passed'] else 'fail'}'>Gate {'PASSED' if gate['passed'] else 'FAILED'}</h2>",
        _html_table(["rule", "value", "limit", "status"], _gate_rows(gate)),
        *([f"<h2>Development set by class</h2><p>{html.escape(by_class.headline(results['by_class']))}</p>",
           _html_table(*by_class.table(results["by_class"]))] if results.get("by_class") else []),
        "<div class='plots'>",
        _svg_bars("Questions passing every check, per kind", pass_rates, max_value=1.0),
        _svg_bars("Evidence recall: Footnote vs dense baseline", recall, max_value=1.0),
        _svg_bars("Latency p50 per kind", p50, unit="ms"),
        _svg_bars("Latency p95 per kind", p95, unit="ms"),
        _svg_histogram("Latency distribution (all answers, log scale)", latencies),
        "</div>",
        "<h2>Per set</h2>",
        _html_table(header, [_row(n, s) for n, s in m["sets"].items()] + [_row("all", o)]),
        "<h2>Per kind</h2>",
        _html_table(header, set_kind_rows),
        "<h2>The 20 worst failures, with their traces</h2>",
    ]
    for r in ([] if results.get("held_out") else worst(results["records"], 20)):
        a = r["answer"]
        trace = {
            "expected": r["expect"],
            "findings": {k: v for k, v in r["findings"].items() if k not in ("failures", "severity")},
            "answer": {k: a.get(k) for k in ("kind", "refusal_reason", "route", "text", "numbers", "calculation", "citations", "retrieved", "plan", "timings", "planner", "composer", "fallback", "partial")},
        }
        if r.get("traceback"):
            trace["traceback"] = r["traceback"]
        parts.append(
            f"<details><summary><code>{html.escape(r['id'])}</code> [{html.escape(r['kind'])}] "
            f"{html.escape(r['question'])} → <b>{html.escape(', '.join(r['findings']['failures']))}</b></summary>"
            f"<ul>{''.join('<li>' + html.escape(d) + '</li>' for d in _details(r))}</ul>"
            f"<pre>{html.escape(json.dumps(trace, indent=2, default=str))}</pre></details>"
        )
    parts.append("</body></html>")
    return "\n".join(parts)


def write(results: dict, out_dir: Path, stem: str) -> dict[str, Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {
        "json": out_dir / f"{stem}.json",
        "markdown": out_dir / f"{stem}.md",
        "html": out_dir / f"{stem}.html",
    }
    paths["json"].write_text(json.dumps(results, indent=1, default=str), encoding="utf-8")
    paths["markdown"].write_text(markdown(results), encoding="utf-8")
    paths["html"].write_text(html_report(results), encoding="utf-8")
    return paths


def now_utc() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
