"""The distributed parity outputs: a terminal summary, Markdown, JSON and a PNG of the losses.

Every output names the replication and the cluster kind (``estimator`` adds
the evaluator's per-checkpoint metrics). The loss part depends on it (one
renderer per replication in `LOSS_LINES`, `LOSS_SECTIONS`, `PLOTS`):
synchronous runs show the per-step comparison, asynchronous runs both curves
and each side's final mean, with the accuracy band that decides instead.
"""
from __future__ import annotations

import json
from pathlib import Path

SUMMARY_JSON = "parity-distributed.json"
REPORT_MD = "parity-distributed.md"
PLOT_PNG = "parity-distributed-losses.png"


def _yes(flag: bool) -> str:
    return "yes" if flag else "NO"


REPLICATION_WORDS = {"sync": "synchronous", "async": "asynchronous"}
CLUSTER_TITLES = {
    "sync": "ps/worker cluster (MonitoredTrainingSession) vs MultiWorkerMirroredStrategy",
    "async": "asynchronous ps/worker cluster vs ParameterServerStrategy with a coordinator",
    "estimator": "Estimator train_and_evaluate (chief, worker, ps, evaluator) vs MultiWorkerMirroredStrategy + "
                 "sidecar evaluator",
}


def _cluster(config: dict) -> str:
    kind = config.get("cluster", config.get("replication", "sync"))
    return f"cluster {kind}: {CLUSTER_TITLES.get(kind, kind)}"


def _evaluation_lines(evaluation: dict) -> list[str]:
    lines = [f"evaluator: legacy evaluated steps {evaluation['legacy_steps']}, modern {evaluation['modern_steps']}; "
             f"compared at {evaluation['common_steps']}"]
    for row in evaluation["per_step"]:
        lines.append(f"  step {row['step']:>6}: accuracy legacy {row['legacy']['accuracy']:.4f} modern "
                     f"{row['modern']['accuracy']:.4f}, loss legacy {row['legacy']['loss']:.7g} modern "
                     f"{row['modern']['loss']:.7g} ({'ok' if row['ok'] else 'DIFFER'})")
    failed = [name for name, ok in evaluation["checks"].items() if not ok]
    if failed:
        lines.append(f"  evaluator checks failed: {', '.join(failed)}")
    return lines


def _evaluation_section(evaluation: dict) -> list[str]:
    out = ["", "## Evaluator (per checkpoint)", "",
           f"legacy evaluated {evaluation['legacy_steps']}, modern {evaluation['modern_steps']}; compared at "
           f"{evaluation['common_steps']}", "",
           "| step | legacy accuracy | modern accuracy | legacy loss | modern loss | ok |", "|---|---|---|---|---|---|"]
    out += [f"| {row['step']} | {row['legacy']['accuracy']:.4f} | {row['modern']['accuracy']:.4f} | "
            f"{row['legacy']['loss']:.7g} | {row['modern']['loss']:.7g} | {_yes(row['ok'])} |"
            for row in evaluation["per_step"]]
    out += ["", "| evaluator check | ok |", "|---|---|"]
    return out + [f"| {name} | {_yes(ok)} |" for name, ok in evaluation["checks"].items()]


def _per_process(counts: dict[str, int] | None) -> str:
    return ", ".join(f"{name} {count}" for name, count in (counts or {}).items()) or "unknown"


def _attempts(side: dict) -> str:
    parts = []
    for attempt in side["attempts"]:
        if attempt.get("restarted_alone"):
            parts.append(f"SIGKILL {attempt['killed']} at step {attempt['killed_at_step']}, restarted alone while the "
                         f"cluster trained on (step {attempt['cluster_step']} before the kill, the chief's next "
                         f"{attempt['first_step_after_kill']}; {attempt['steps_lost']} steps lost; steps per "
                         f"process: {_per_process(attempt.get('steps_by_process'))}), done in {attempt['seconds']:.1f} s")
        elif attempt["status"] == "killed":
            parts.append(f"SIGKILL {attempt['killed']} at step {attempt['killed_at_step']}, restart from checkpoint "
                         f"{attempt['resumes_from_checkpoint']} ({attempt['steps_lost']} steps lost and replayed)")
        else:
            parts.append(f"done in {attempt['seconds']:.1f} s")
    return "; ".join(parts)


def _tolerance(losses: dict) -> str:
    if losses["relative_tolerance"] == 0.0:
        return "must be bit-identical"
    return f"relative tolerance {losses['relative_tolerance']:g} over the first {losses['checked_steps']} steps"


def _loss_rows(losses: dict, limit: int) -> list[list]:
    rows = losses["per_step"]
    if len(rows) <= limit:
        return rows
    keep = sorted({0, 1, len(rows) - 1} | set(range(0, len(rows), max(1, len(rows) // (limit - 3)))))
    return [rows[i] for i in keep]


def terminal_summary(result: dict) -> str:
    config = result["config"]
    replication = config.get("replication", "sync")
    lines = [_cluster(config),
             f"parity --workers {config['workers']} --replication {replication}: steps={config['steps']} "
             f"global batch={config['global_batch_size']} lr={config['learning_rate']} "
             f"(SGD, {REPLICATION_WORDS[replication]}) seed={config['seed']}"
             + (f" kill={config['kill']}" if config["kill"] else "")]
    for name, side in result["sides"].items():
        lines.append(f"  {name}: {side['engine']} — {_attempts(side)}")
    if "checks" not in result:
        lines.append("ok" if result["ok"] else "NOT OK")
        return "\n".join(lines)
    lines += LOSS_LINES[replication](result)
    if result.get("evaluation"):
        lines += _evaluation_lines(result["evaluation"])
    metrics = result["metrics"]
    if metrics.get("legacy") and metrics.get("modern"):
        lines.append(f"test accuracy: legacy {metrics['legacy']['accuracy']:.4f}, modern {metrics['modern']['accuracy']:.4f}"
                     + (f" (|Δ| {metrics['accuracy_gap'] * 100:.2f} points, at most {metrics['max_accuracy_gap'] * 100:g})"
                        if "accuracy_gap" in metrics else ""))
    for name, side in result["sides"].items():
        files = side["files"]
        lines.append(f"{name} files: checkpoints at {files['checkpoint_steps']}, {len(files['event_files'])} event "
                     f"file(s) by {', '.join(files['event_writers']) or 'nobody'}, temp dirs left: "
                     f"{len(files['worker_temp_dirs_left'])}")
    failed = [name for name, ok in result["checks"].items() if not ok]
    lines.append("PARITY HOLDS" if result["ok"] else f"PARITY BROKEN: {', '.join(failed)}")
    return "\n".join(lines)


def _sync_loss_lines(result: dict) -> list[str]:
    losses = result["losses"]
    lines = [f"losses: {losses['steps_compared']} steps, max |Δ| = {losses['max_abs_loss_diff']:.3g} "
             f"({_tolerance(losses)}), first different step: {losses['first_different_step']}"]
    for role in result["roles"]:
        lines.append(f"events {role['role']:<6} {role['task']:<9} legacy {len(role['legacy_normalized'])} / modern "
                     f"{len(role['modern_normalized'])} actions: {'same' if role['ok'] else 'DIFFER at #' + str(role['first_divergence'])}")
    return lines


def _async_loss_lines(result: dict) -> list[str]:
    final = result["losses"]["final_mean"]
    lines = [f"losses: not compared step by step (asynchronous updates); mean over the last {final['tail']:.0%} of "
             f"steps: legacy {final['legacy']:.4f}, modern {final['modern']:.4f}"]
    for role in result["roles"]:
        names = role["names"]
        lines.append(f"events {role['role']:<6} legacy {', '.join(names['legacy']) or 'none'} / modern "
                     f"{', '.join(names['modern']) or 'none'}: {'same' if role['ok'] else 'DIFFERENT'} ({role['task']})")
    for name, reached in result["target"].items():
        if name != "ok":
            lines.append(f"{name}: final step {reached['final_step']}, last checkpoint {reached['last_checkpoint']}"
                         + (f", {reached['extra_updates']} update(s) applied twice by a retried step"
                            if reached.get("extra_updates") else ""))
    return lines


LOSS_LINES = {"sync": _sync_loss_lines, "async": _async_loss_lines}


def _sync_loss_section(result: dict, plot_name: str | None) -> list[str]:
    losses = result["losses"]
    out = ["", "## Losses (mean loss of each global batch)", "",
           f"max |Δ| = {losses['max_abs_loss_diff']:.3g} ({_tolerance(losses)}), first different step: "
           f"{losses['first_different_step']}", ""]
    if plot_name:
        out += [f"![losses]({plot_name})", ""]
    out += ["| step | legacy | modern | abs Δ |", "|---|---|---|---|"]
    out += [f"| {step} | {left:.9g} | {right:.9g} | {abs(left - right):.3g} |" for step, left, right in _loss_rows(losses, 30)]
    return out


def _async_loss_section(result: dict, plot_name: str | None) -> list[str]:
    losses, metrics = result["losses"], result["metrics"]
    final = losses["final_mean"]
    out = ["", "## Losses (asynchronous: plotted, not compared)", "",
           f"Mean over the last {final['tail']:.0%} of steps: legacy {final['legacy']:.4f}, modern {final['modern']:.4f}. "
           f"Accuracy decides: |Δ| = {metrics.get('accuracy_gap', float('nan')) * 100:.2f} points, at most "
           f"{metrics.get('max_accuracy_gap', float('nan')) * 100:g}.", ""]
    if plot_name:
        out += [f"![losses]({plot_name})", ""]
    out += ["| side | final step | last checkpoint | reached the target | updates applied twice (retried steps) |",
            "|---|---|---|---|---|"]
    out += [f"| {name} | {reached['final_step']} | {reached['last_checkpoint']} | {_yes(reached['ok'])} | "
            f"{reached.get('extra_updates') if reached.get('extra_updates') is not None else 'n/a'} |"
            for name, reached in result["target"].items() if name != "ok"]
    return out


LOSS_SECTIONS = {"sync": _sync_loss_section, "async": _async_loss_section}


def markdown_report(result: dict, plot_name: str | None) -> str:
    config = result["config"]
    replication = config.get("replication", "sync")
    out = [f"# Distributed parity: {config['workers']} workers, {REPLICATION_WORDS[replication]}", "", _cluster(config),
           "", f"`{json.dumps(config)}`", ""]
    out += ["## Clusters", "", "| side | engine | attempts | TF | last attempt: training s | steps |", "|---|---|---|---|---|---|"]
    for name, side in result["sides"].items():
        versions = side.get("versions") or {}
        seconds = side["seconds"]
        out.append(f"| {name} | {side['engine']} | {_attempts(side)} | {versions.get('tensorflow', '?')} | "
                   f"{(seconds['training'] or 0):.2f} | {seconds['steps_trained']} |")
    if "checks" not in result:
        return "\n".join(out) + "\n"
    out += ["", "## Checks", "", "| check | ok |", "|---|---|"]
    out += [f"| {name} | {_yes(ok)} |" for name, ok in result["checks"].items()]
    out += LOSS_SECTIONS[replication](result, plot_name)
    if result.get("evaluation"):
        out += _evaluation_section(result["evaluation"])
    out += ["", "## Events per role (hook / callback actions at global steps)", ""]
    for role in result["roles"]:
        out += [f"### {role['role']} ({role['task']}): {'same' if role['ok'] else 'DIFFERENT'}", ""]
        out.append("- legacy: " + (", ".join(f"{n}@{s}" for n, s in role["legacy_normalized"]) or "none"))
        out.append("- modern: " + (", ".join(f"{n}@{s}" for n, s in role["modern_normalized"]) or "none"))
        out += [f"- documented: {text}" for text in role["expected_differences"]]
        out.append("")
    metrics = result["metrics"]
    out += ["## Test set", "", "| side | accuracy | loss |", "|---|---|---|"]
    for name in ("legacy", "modern"):
        if metrics.get(name):
            out.append(f"| {name} | {metrics[name]['accuracy']:.4f} | {metrics[name]['loss']:.6f} |")
    out += ["", "## Files", ""]
    for name, side in result["sides"].items():
        files = side["files"]
        out.append(f"- {name}: checkpoints {files['checkpoint_steps']}; event files "
                   f"{[event['file'] + ' (' + event['role'] + ')' for event in files['event_files']]}; worker temp "
                   f"dirs left {files['worker_temp_dirs_left']}")
    out += ["", "## Notes", ""] + [f"- {note}" for note in result["notes"]]
    return "\n".join(out) + "\n"


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_async_losses(result: dict, path: Path) -> Path:
    plt = _pyplot()
    losses, metrics = result["losses"], result["metrics"]
    figure, axis = plt.subplots(figsize=(9, 5))
    for name, label, style in (("legacy", "legacy (TF1 async, 1 ps)", "-"),
                               ("modern", "modern (ParameterServerStrategy, coordinator)", "--")):
        rows = losses[name]
        axis.plot([row[0] for row in rows], [row[1] for row in rows], style, label=label, linewidth=1.0, alpha=0.85)
    axis.set_xlabel("global step (legacy) / scheduled step (modern)")
    axis.set_ylabel("step loss")
    axis.legend()
    gap = metrics.get("accuracy_gap")
    axis.set_title(f"{result['config']['workers']} workers, asynchronous: losses not compared step by step; "
                   f"|Δ test accuracy| = {gap * 100:.2f} points" if gap is not None else "asynchronous")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path


def plot_losses(result: dict, path: Path) -> Path:
    plt = _pyplot()
    rows = result["losses"]["per_step"]
    steps = [row[0] for row in rows]
    figure, (top, bottom) = plt.subplots(2, 1, figsize=(9, 6), sharex=True, gridspec_kw={"height_ratios": [3, 2]})
    top.plot(steps, [row[1] for row in rows], label="legacy (SyncReplicasOptimizer, ps)", linewidth=1.6)
    top.plot(steps, [row[2] for row in rows], label="modern (MultiWorkerMirroredStrategy)", linewidth=1.0, linestyle="--")
    top.set_ylabel("global batch loss")
    top.legend()
    top.set_title(f"{result['config']['workers']} workers, synchronous, cluster {result['config'].get('cluster', 'sync')}: "
                  f"max |Δ| = {result['losses']['max_abs_loss_diff']:.3g}")
    bottom.plot(steps, [abs(row[1] - row[2]) for row in rows], color="tab:red", linewidth=1.0)
    bottom.set_ylabel("|Δ loss|")
    bottom.set_xlabel("global step")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path


PLOTS = {"sync": plot_losses, "async": plot_async_losses}
PLOTTABLE = {"sync": lambda losses: bool(losses["per_step"]), "async": lambda losses: bool(losses["legacy"] or losses["modern"])}


def _jsonable(result: dict) -> dict:
    """Loss dicts keyed by int become string keys; everything else is already JSON."""
    def convert(value):
        if isinstance(value, dict):
            return {str(key): convert(item) for key, item in value.items()}
        if isinstance(value, (list, tuple)):
            return [convert(item) for item in value]
        return value
    return convert(result)


def write_outputs(result: dict, out: Path) -> list[Path]:
    """Summary JSON (strict), plot (optional: its absence is noted in the report), Markdown; each atomic."""
    from migrate.parity.outputs import draw_plot, strict_json, write_atomic

    written = [write_atomic(out / SUMMARY_JSON, strict_json(_jsonable(result), indent=1))]
    plot_name, missing = None, None
    replication = result["config"].get("replication", "sync")
    if "checks" in result and PLOTTABLE[replication](result["losses"]):
        plot, missing = draw_plot(lambda path: PLOTS[replication](result, path), out / PLOT_PNG)
        if plot is not None:
            written.append(plot)
            plot_name = PLOT_PNG
    report = markdown_report(result, plot_name)
    if missing:
        report += f"\n> Note: the loss plot {PLOT_PNG} was not drawn: {missing}\n"
    written.append(write_atomic(out / REPORT_MD, report))
    return written
