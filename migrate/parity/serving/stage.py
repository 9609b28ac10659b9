"""Run stage 6 for a parity run: export both sides, read them as a server does, send the same requests, compare.

Called by `migrate.parity.run` when the pair gives `serving_input_receiver_fn(params)`
(TF1 side) and `serving_signatures(model, params)` (Keras side), after every
other stage passed. The SavedModels are kept: under ``--out DIR/serving/``
(``legacy/``, ``modern/``, and what `saved_model_cli show --all` prints for
each), or in the run's scratch directory when the caller gives no place.

Cross-version: ``--side legacy --record T.json`` on TF 2.15 exports the
Estimator and records where; ``--side modern --against T.json`` on TF 2.21
loads that SavedModel next to its own Keras export, and compares both there
(where the server runs after the upgrade).
"""
from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from migrate.core.side_trace import SideTrace
from migrate.parity.options import Progress
from migrate.parity.pair import Pair, PairError
from migrate.parity.serving.check import check_serving
from migrate.parity.serving.export import export_estimator, export_keras
from migrate.parity.serving.requests import take_examples
from migrate.parity.serving.surface import ServingError, read_surface
from migrate.parity.stages import Stage, skipped


def export_legacy(pair: Pair, params: dict[str, Any], seed: int, model_dir: Path, target: Path, progress: Progress) -> Path:
    """The Estimator at its final checkpoint, exported with the pair's receiver."""
    from migrate.parity.sides.legacy_side import estimator

    progress(f"[legacy] export_saved_model → {target}")
    return export_estimator(estimator(pair, params, seed, model_dir),
                            lambda: pair.call("serving_input_receiver_fn", params), target)


def recorded_saved_model(legacy: SideTrace, origin: str) -> Path:
    """The legacy SavedModel a trace points at (recorded with `--side legacy --record`)."""
    recorded = legacy.files.get("saved_model")
    if not recorded:
        raise ServingError(f"legacy side: the trace holds no SavedModel, but {origin} defines "
                           "serving_input_receiver_fn: record the legacy side again (--side legacy --record, "
                           "without --no-serving), or pass --no-serving here.")
    return Path(recorded)


def compare_exports(pair: Pair, params: dict[str, Any], legacy_dir: Path, modern_dir: Path, tolerance: float,
                    listings: Path, progress: Progress, values: bool = True) -> Stage:
    """Read both SavedModels (their `saved_model_cli` listings written into `listings`) and compare them."""
    legacy = read_surface(legacy_dir, "legacy")
    modern = read_surface(modern_dir, "modern")
    for side, surface in (("legacy", legacy), ("modern", modern)):
        (listings / f"{side}.saved_model_cli.txt").write_text(surface.saved_model_cli)
    datasets: list[tuple[str, Callable[[], Any]]] = [(name, partial(pair.call, function, params)) for name, function in
                (("eval", "eval_dataset"), ("train", "train_dataset")) if pair.has(function)]
    source = take_examples(datasets)
    progress(f"[serving] {source.count} requests ({source.origin}) to {len(legacy.signatures)} signatures")
    return check_serving(legacy, modern, source, tolerance, values)


def record_legacy_export(run: Any) -> Path:
    """Export the Estimator `run` trained; the legacy trace records where (for `--against` later)."""
    legacy_dir = export_legacy(run.pair, run.legacy_params, run.config.seed, run.legacy_prepared.model_dir,
                               run.serving_dir / "legacy", run.progress)
    run.legacy.files["saved_model"] = str(legacy_dir.resolve())
    return legacy_dir


def serving_stage(run: Any, result: Any) -> Stage | None:
    """Stage 6 for `run` (a `migrate.parity.run.Run` whose modern side trained), or None without serving."""
    pair, config = run.pair, run.config
    if not pair.has_serving:
        return None
    if not run.options.serving:
        return skipped("serving", "not run (--no-serving)")
    if not result.ok:
        return skipped("serving", "an earlier stage failed")
    directory, started = run.serving_dir, time.perf_counter()
    run.progress(f"[modern] SavedModel with serving_signatures → {directory / 'modern'}")
    try:
        signatures = pair.call("serving_signatures", run.modern.model, run.modern_params)
    except PairError as error:
        raise ServingError(f"modern side: {error}") from error
    modern_dir = export_keras(run.modern.model, signatures, directory / "modern")
    legacy_dir = (record_legacy_export(run) if run.legacy_prepared is not None
                  else recorded_saved_model(run.legacy, pair.origin))
    stage = compare_exports(pair, run.modern_params, legacy_dir, modern_dir, run.options.serving_tolerance, directory,
                            run.progress, values=config.mode == "exact")
    # the duration is shown, not put in the summary: the same command must write the same summary
    run.progress(f"[serving] exported, loaded and compared in {round(time.perf_counter() - started, 1)} s")
    return stage
