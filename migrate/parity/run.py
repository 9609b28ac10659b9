"""Run a parity comparison: train the sides, compare, write every output.

The legacy side is the reference: it creates the initial weights (its step-0
checkpoint) and the modern side copies them. A side can come from a trace
recorded earlier (`--against`), e.g. legacy recorded on TF 2.15 and modern
run on TF 2.21 / Keras 3, where `tf.estimator` no longer exists.
"""
from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from pathlib import Path
from typing import Callable

from migrate.parity import trace as traces
from migrate.parity.compare import compare_events, compare_losses, compare_metrics
from migrate.parity.config import ParityConfig
from migrate.parity.result import ParityResult
from migrate.parity.scenarios import SCENARIOS
from migrate.parity.tolerance import schedule_for

Progress = Callable[[str], None]


def data_fingerprint(data) -> str:
    digest = hashlib.sha256()
    for array in (data.x_train, data.y_train, data.x_test, data.y_test):
        digest.update(array.tobytes())
    return digest.hexdigest()[:16]


def prepare_tensorflow_environment(progress: Progress) -> None:
    """oneDNN kernels are not bit-reproducible: turn them off before TensorFlow loads."""
    if os.environ.get("TF_ENABLE_ONEDNN_OPTS") != "0" and "tensorflow" in sys.modules:
        progress("warning: TensorFlow was imported before TF_ENABLE_ONEDNN_OPTS=0 could be set; exact parity may not hold")
    os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")


def losses_from_json(losses: dict) -> dict[int, float]:
    return {int(step): float(loss) for step, loss in losses.items()}


def run_legacy_side(config: ParityConfig, data, workdir: Path, progress: Progress):
    from migrate.parity.sides import legacy_side

    return legacy_side.run(config, data, workdir, progress)


def run_modern_side(config: ParityConfig, data, workdir: Path, progress: Progress, initial_weights):
    from migrate.parity.sides import modern_side

    return modern_side.run(config, data, workdir, progress, initial_weights)


def compare_sides(config: ParityConfig, config_dict: dict, legacy: dict, modern: dict) -> ParityResult:
    schedule = schedule_for(config.mode, config.optimizer)
    losses = compare_losses(
        losses_from_json(legacy["losses"]), losses_from_json(modern["losses"]), schedule,
        checked=config.mode == "exact",
    )
    events = []
    for name in config.scenarios:
        scenario = SCENARIOS[name]
        legacy_events = scenario.normalize_both(scenario.normalize_legacy(legacy["events"].get(name, [])))
        modern_events = scenario.normalize_both(modern["events"].get(name, []))
        events.append(compare_events(name, legacy_events, modern_events))
    metrics = compare_metrics(
        legacy["metrics"], modern["metrics"],
        accuracy_bar=config.accuracy_bar, max_accuracy_gap=config.max_accuracy_gap,
    )
    notes = [
        "note: the test-set loss is shown, not compared: tf.compat.v1.metrics.mean averages the per-batch losses "
        "(the last, partial batch weighs as much as a full one) while Keras weights by example; accuracy counts "
        "examples on both sides."
    ]
    if config.optimizer == "adam" and config.mode == "exact":
        notes.append("note: " + schedule.explanation)
    return ParityResult(
        config=config_dict,
        versions={"legacy": legacy["versions"], "modern": modern["versions"]},
        losses=losses,
        events=events,
        metrics=metrics,
        notes=notes,
    )


def run_parity(
    config: ParityConfig,
    data,
    *,
    side: str = "both",
    against: Path | None = None,
    record: Path | None = None,
    progress: Progress = print,
) -> tuple[ParityResult | None, dict]:
    """Train what `side` asks, take the rest from `against`; return the comparison (None if only recording)."""
    config_dict = config.as_dict(data_fingerprint(data))
    recorded = None
    if against is not None:
        recorded = traces.read_trace(against)
        traces.check_config_matches(recorded, config_dict, against)
        if "legacy" not in recorded["sides"]:
            raise traces.TraceError(f"trace {against} holds no legacy side; record one with `--side legacy --record`.")
    prepare_tensorflow_environment(progress)
    sides: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="parity-") as scratch:
        workdir = Path(scratch)
        if side in ("both", "legacy"):
            progress(f"[legacy] Estimator + SessionRunHooks: {config.steps} steps")
            sides["legacy"], initial_weights = run_legacy_side(config, data, workdir / "legacy", progress)
        else:
            initial_weights = traces.decode_weights(recorded["initial_weights"])
        if side in ("both", "modern"):
            progress(f"[modern] Keras fit + callbacks: {config.steps} steps")
            sides["modern"] = run_modern_side(config, data, workdir / "modern", progress, initial_weights)
    if record is not None:
        traces.write_trace(record, traces.build_trace(config_dict, sides, initial_weights))
        progress(f"trace written to {record}")
    legacy = sides.get("legacy") or (recorded["sides"]["legacy"] if recorded else None)
    modern = sides.get("modern")
    if legacy is None or modern is None:
        return None, sides
    return compare_sides(config, config_dict, legacy, modern), sides
