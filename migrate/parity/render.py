"""Human-readable parity output: the terminal summary and the Markdown report."""
from __future__ import annotations

from collections.abc import Callable

from migrate.parity.compare import LossRow, MetricComparison, describe_event
from migrate.parity.distributed.report import cluster_section, evaluator_section
from migrate.parity.result import ParityResult
from migrate.parity.serving.report import serving_section
from migrate.parity.stages import Stage

SECTIONS: dict[str, Callable[[Stage | None], list[str]]] = {
    "cluster": cluster_section, "evaluation": evaluator_section, "serving": serving_section}
"""Stages whose details get a Markdown section of their own, after the evaluation (none when a stage has none)."""


def _fmt(value: float | None, digits: int = 9) -> str:
    return "—" if value is None else f"{value:.{digits}g}"


def _loss_rows_to_show(rows: list[LossRow], limit: int) -> list[LossRow]:
    """First few, every divergence up to the limit, and the last: a long run stays readable."""
    if len(rows) <= limit:
        return rows
    keep = {0, 1, 2, len(rows) - 1} | {i for i, row in enumerate(rows) if not row.ok}
    keep |= set(range(0, len(rows), max(1, len(rows) // (limit - 4))))
    return [rows[i] for i in sorted(keep)[:limit]]


def loss_table(result: ParityResult, *, limit: int = 14, markdown: bool = False) -> list[str]:
    assert result.losses is not None
    header = ("step", "legacy", "modern", "|Δ|", "relative Δ", "ok")
    rows = [
        (str(row.step), _fmt(row.legacy), _fmt(row.modern), _fmt(row.abs_diff, 3), _fmt(row.rel_diff, 3),
         "yes" if row.ok else "NO")
        for row in _loss_rows_to_show(result.losses.rows, limit if not markdown else 40)
    ]
    if markdown:
        return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)] + ["| " + " | ".join(r) + " |" for r in rows]
    widths = [max(len(line[i]) for line in [header, *rows]) for i in range(len(header))]
    return ["  ".join(cell.rjust(width) for cell, width in zip(line, widths)) for line in [header, *rows]]


def metric_lines(metrics: MetricComparison) -> list[str]:
    lines = []
    for side, values in (("legacy", metrics.legacy), ("modern", metrics.modern)):
        shown = [f"accuracy {100 * values['accuracy']:.2f}%" if key == "accuracy" else f"{key} {values[key]:.6g}"
                 for key in sorted(values) if key != "global_step"]
        lines.append(f"   {side}: " + "  ".join(shown))
    if "accuracy" in metrics.compared:
        lines.append(f"   |Δaccuracy| = {100 * metrics.accuracy_gap:.2f} points")
    return lines


def terminal_summary(result: ParityResult) -> str:
    config = result.config
    params = " ".join(f"{key}={value}" for key, value in sorted(config["params"].items()))
    line = f"parity: pair={config['pair']} mode={config['mode']} steps={config['steps']} seed={config['seed']} {params}"
    lines = [line.rstrip() + (f"\n  {config['deployment']}" if config.get("deployment") else "")]
    for side, versions in result.versions.items():
        lines.append(f"  {side}: " + ", ".join(f"{name} {version}" for name, version in versions.items()))
    marks = {"ok": "ok", "failed": "FAIL", "skipped": "skip", "not checked": "n/c"}
    lines += ["", "stages", *(f"   [{marks[stage.status]}] {stage.title}: {stage.message}" for stage in result.stages)]
    if (losses := result.losses) is not None:
        lines += ["", "per-step losses", *("   " + line for line in loss_table(result)),
                  f"   max |Δloss| = {_fmt(losses.max_abs_loss_diff, 6)} over {len(losses.rows)} steps; "
                  f"first step that differs: {losses.first_difference_step or 'none'}",
                  f"   tolerance: {losses.schedule.describe()}", f"   why: {losses.schedule.explanation}"]
    if result.events:
        lines += ["", "hook vs callback event sequences"]
    for item in result.events:
        lines.append(f"   [{'ok' if item.ok else 'FAIL'}] {item.divergence_message()}")
        lines += [f"          expected difference: {text}" for text in item.expected_differences]
    if result.metrics is not None:
        lines += ["", "evaluation", *metric_lines(result.metrics)]
    lines += ["", *result.notes] if result.notes else []
    lines.append("")
    first = result.first_failure
    lines.append("PARITY HOLDS" if first is None else f"PARITY BROKEN at stage {first.title}:\n  - "
                 + "\n  - ".join(result.failures()))
    return "\n".join(lines)


def markdown_report(result: ParityResult, plot_name: str | None) -> str:
    config = result.config
    lines = [
        f"# Parity report: {config['pair']} — legacy (TF1 Estimator) vs modern (Keras)",
        "",
        f"**Verdict: {'parity holds' if result.ok else 'parity broken'}.**",
        "",
        "| setting | value |", "|---|---|",
        *(f"| {key} | `{value}` |" for key, value in config.items()),
        "",
        "| side | versions |", "|---|---|",
        *(f"| {side} | " + ", ".join(f"{k} {v}" for k, v in versions.items()) + " |" for side, versions in result.versions.items()),
        "",
        "## Stages",
        "",
        "| stage | status | result |", "|---|---|---|",
        *(f"| {stage.title} | {stage.status} | {stage.message} |" for stage in result.stages),
        "",
    ]
    variables = result.stage("variables")
    mapping = (variables.details.get("mapping") if variables is not None else None) or []
    if mapping:
        lines += ["### Variable mapping", "", "| TF1 variable | Keras weight | TF1 shape | transform | matched by |",
                  "|---|---|---|---|---|"]
        lines += [f"| {row['tf1']} | {row['keras']} | {tuple(row['shape'])} | {row.get('transform', '-')} | {row['how']} |"
                  for row in mapping]
        lines.append("")
    if result.losses is not None:
        lines += [
            "## 1. Per-step losses",
            "",
            f"max |Δloss| = `{result.losses.max_abs_loss_diff!r}`; first step that differs: "
            f"`{result.losses.first_difference_step}`; tolerance: {result.losses.schedule.describe()}.",
            "",
            f"Why: {result.losses.schedule.explanation}",
            "",
            *loss_table(result, markdown=True),
            "",
        ]
        if plot_name:
            lines += [f"![losses]({plot_name})", ""]
    if result.events:
        lines += ["## 2. Hook vs callback event sequences", ""]
    for item in result.events:
        lines.append(f"### {item.scenario}: {'match' if item.ok else 'DIVERGE'}")
        lines.append("")
        if item.description or item.expected_differences:
            lines += [item.description, ""] if item.description else []
            lines += [f"- expected difference: {text}" for text in item.expected_differences]
            lines.append("")
        lines += ["| # | status | legacy (hook) | modern (callback) |", "|---|---|---|---|"]
        lines += [
            f"| {index + 1} | {status} | {describe_event(left)} | {describe_event(right)} |"
            for index, (status, left, right) in enumerate(item.rows)
        ]
        lines.append("")
    if result.metrics is not None:
        lines += ["## 3. Final evaluation", "", "```", *metric_lines(result.metrics), "```", ""]
    for name, section in SECTIONS.items():
        lines += section(result.stage(name))
    if not result.ok:
        lines += ["## Failures", "", *(f"- {failure}" for failure in result.failures()), ""]
    return "\n".join(lines)
