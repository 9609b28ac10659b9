"""Stage 6, serving: the two SavedModels show clients the same surface and give the same answers.

Compared, with the TF1 export as the reference, each difference named by
signature and key:

* signature keys (one missing on the Keras side breaks the clients that call
  it; an extra one is listed, not a failure) and method names (TF Serving's
  Classify and Regress APIs accept only ``tensorflow/serving/classify`` /
  ``regress``);
* inputs and outputs: keys, dtypes and shapes;
* the features the receivers parse from `tf.Example`s: key, kind, dtype, shape;
* the answers to the same requests, output by output: bit for bit, or within
  the stated tolerance (`--serving-tolerance`) for floating-point outputs;
  strings and integers always exactly. In statistical mode the sides' weights
  differ by construction: the answers' dtypes and shapes are compared, their
  values are not.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from migrate.core.arrays import Array
from migrate.parity.difference import relative_to
from migrate.parity.serving.requests import RequestSource, signature_inputs
from migrate.parity.serving.surface import ServingError, Surface
from migrate.parity.stages import ROUNDING_LEVEL, Stage

SHOWN = 6
"""Mismatches spelled out in the stage's one-line message (all are in its details)."""


def compare_surfaces(legacy: Surface, modern: Surface) -> list[str]:
    problems = []
    for key, reference in sorted(legacy.signatures.items()):
        other = modern.signatures.get(key)
        if other is None:
            problems.append(f"`{key}` is missing on the Keras side ({reference.method})")
            continue
        if other.method_name != reference.method_name:
            problems.append(f"`{key}` method name: TF1 {reference.method_name}, Keras {other.method_name}")
        for kind, left, right in (("input", reference.inputs, other.inputs), ("output", reference.outputs, other.outputs)):
            for name, info in sorted(left.items()):
                if name not in right:
                    others = f" (Keras has {', '.join(f'`{k}`' for k in sorted(set(right) - set(left)))})" \
                        if set(right) - set(left) else ""
                    problems.append(f"`{key}` {kind} `{name}` is missing on the Keras side{others}")
                elif right[name] != info:
                    problems.append(f"`{key}` {kind} `{name}`: TF1 {info.describe()}, Keras {right[name].describe()}")
            if kind == "input":
                problems += [f"`{key}` input `{name}` is only on the Keras side (TF1 clients do not send it)"
                             for name in sorted(set(right) - set(left))]
    return problems


def compare_parses(legacy: Surface, modern: Surface) -> list[str]:
    problems = []
    for key, reference in sorted(legacy.parsed_features.items()):
        other = modern.parsed_features.get(key)
        if other is None:
            problems.append(f"feature `{key}`: TF1 parses it from tf.Examples ({reference.describe()}), Keras does not")
        elif other != reference:
            problems.append(f"feature `{key}`: TF1 parses {reference.describe()}, Keras {other.describe()}")
    return problems


def answer(function: Any, inputs: Mapping[str, Array]) -> dict[str, Array]:
    import tensorflow as tf

    arguments = {key: tf.constant(value) for key, value in inputs.items()}
    return {key: np.asarray(value.numpy() if hasattr(value, "numpy") else value)
            for key, value in function(**arguments).items()}


_NOISE = ("Graph execution error", "Detected at node", "File ", "[[", "<stack traces", "Stack trace", "Traceback", "^")


def _first_line(error: BaseException) -> str:
    """The error's own words: a TensorFlow runtime error buries them under the graph's stack trace."""
    lines = [re.sub(r"\{\{function_node [^}]*\}\}\s*", "", line).strip() for line in str(error).splitlines()]
    reasons = [line for line in lines if line and not line.startswith(_NOISE) and not line.endswith(":")]
    return f"{type(error).__name__}: {(reasons[0] if reasons else ' '.join(lines))[:300]}"


def compare_output(where: str, left: Array, right: Array, tolerance: float,
                   values: bool = True) -> tuple[str | None, float]:
    """(a mismatch message or None, max |Δ| for floating-point outputs); `values=False` compares dtype and shape only."""
    if left.shape != right.shape or left.dtype != right.dtype:
        return f"{where}: TF1 answers {left.dtype} {left.shape}, Keras {right.dtype} {right.shape}", float("inf")
    if not values:
        return None, 0.0
    if left.dtype.kind == "f":
        nan_apart = np.isnan(left) != np.isnan(right)
        difference = np.where(np.isnan(left) | np.isnan(right), 0.0, np.abs(left.astype(np.float64) - right))
        worst = float(difference.max()) if difference.size else 0.0
        if nan_apart.any():
            return f"{where}: NaN on one side only in {int(nan_apart.any(axis=tuple(range(1, left.ndim))).sum())} requests", worst
        if worst > tolerance:
            rows = int((difference > tolerance).reshape(len(left), -1).any(axis=1).sum()) if left.ndim else 1
            return f"{where}: max |Δ| {worst:.6g} in {rows} of {len(left) if left.ndim else 1} requests " \
                   f"(allowed {tolerance:g})", worst
        return None, worst
    differs = left != right
    if differs.any():
        requests = differs.reshape(len(left), -1).any(axis=1) if left.ndim else np.array([True])
        first = int(np.argmax(requests))
        return (f"{where}: {int(requests.sum())} of {len(requests)} requests differ (request {first}: TF1 "
                f"{left[first].tolist()!r}, Keras {right[first].tolist()!r})"), 0.0
    return None, 0.0


def why_values_differ(relatives: list[float], worst: float) -> str:
    """Rounding level (weights or kernels that differ in the last bits: another TensorFlow or Keras version) or not."""
    largest = max(relatives)
    if largest <= ROUNDING_LEVEL:
        return (f"the answers differ at rounding level (relative ≤ {largest:.2g}): weights or kernels that differ in "
                f"the last bits, e.g. another TensorFlow or Keras version; allow it with --serving-tolerance "
                f"{worst * 2:.1g}")
    return f"the answers differ by up to {largest:.2g} relative: the exported models compute something else"


def compare_answers(legacy: Surface, modern: Surface, source: RequestSource, tolerance: float,
                    values: bool = True) -> tuple[list[str], float, int]:
    """(mismatches, max |Δ| over floating-point outputs, signatures answered) on the same requests; the first
    mismatch says whether floating-point answers beyond the tolerance differ at rounding level."""
    problems, worst, answered, drifts = [], 0.0, 0, []
    for key, signature in sorted(legacy.signatures.items()):
        if key not in modern.signatures:
            continue
        inputs = signature_inputs(signature, source, legacy.parsed_features)
        try:
            expected = answer(legacy.functions[key], inputs)
        except Exception as error:
            raise ServingError(f"legacy side: `{key}` cannot answer {source.count} requests built from "
                               f"{source.origin}: {_first_line(error)}") from error
        try:
            received = answer(modern.functions[key], inputs)
        except Exception as error:
            problems.append(f"`{key}`: the Keras side fails on the requests TF1 answers: {_first_line(error)}")
            continue
        answered += 1
        for name in sorted(set(expected) & set(received)):
            problem, difference = compare_output(f"`{key}` output `{name}`", expected[name], received[name], tolerance,
                                                 values)
            worst = max(worst, difference) if difference != float("inf") else worst
            if problem and tolerance < difference < float("inf"):  # relative to the TF1 answers' largest magnitude
                scale = float(np.nanmax(np.abs(expected[name]))) if expected[name].size else 0.0
                drifts.append(relative_to(difference, scale))
            if problem:
                problems.append(problem)
    if drifts:
        problems.insert(0, why_values_differ(drifts, worst))
    return problems, worst, answered


def check_serving(legacy_surface: Surface, modern_surface: Surface, source: RequestSource, tolerance: float,
                  values: bool = True) -> Stage:
    """Stage 6's verdict: surfaces, parsed features, then the answers to `source`'s requests."""
    problems = compare_surfaces(legacy_surface, modern_surface) + compare_parses(legacy_surface, modern_surface)
    answers, worst, answered = compare_answers(legacy_surface, modern_surface, source, tolerance, values)
    problems += answers
    listed = {key: {"method": signature.method_name,
                    "inputs": {name: info.describe() for name, info in sorted(signature.inputs.items())},
                    "outputs": {name: info.describe() for name, info in sorted(signature.outputs.items())}}
              for key, signature in sorted(legacy_surface.signatures.items())}
    details = {
        "signatures": listed,
        "only_on_keras_side": sorted(set(modern_surface.signatures) - set(legacy_surface.signatures)),
        "parsed_features": {key: feature.describe() for key, feature in sorted(legacy_surface.parsed_features.items())},
        "requests": source.count, "requests_from": source.origin, "max_abs_diff": worst if values else None,
        "tolerance": tolerance, "values_compared": values,
        "mismatches": problems,
        "saved_models": {"legacy": str(legacy_surface.directory), "modern": str(modern_surface.directory)},
    }
    if problems:
        more = f"; and {len(problems) - SHOWN} more" if len(problems) > SHOWN else ""
        return Stage("serving", "failed", "serving: " + "; ".join(problems[:SHOWN]) + more, details)
    methods = ", ".join(f"{key} ({signature.method})" for key, signature in sorted(legacy_surface.signatures.items()))
    how = ("bit-identically" if worst == 0.0 else f"within |Δ| ≤ {tolerance:g} (max {worst:.3g})") if values else \
        "with the same dtypes and shapes (values not compared in statistical mode: the weights differ by construction)"
    return Stage("serving", "ok", f"{len(listed)} signatures — {methods}: same keys, method names, dtypes and shapes; "
                 f"{source.count} requests ({source.origin}) answered {how} on {answered} signatures", details)
