"""The training input of a port: the user's input function reused, rewritten, or refused with the reason.

* **reused** — it returns a `tf.data.Dataset` that also runs eagerly (TF2):
  the generated pair calls it as both `train_input_fn` and `train_dataset`;
* **rewritten** — its dataset starts from placeholders fed by a hook (the
  placeholder + `IteratorInitializerHook` recipe) or from constants behind a
  one-shot iterator: the generated `train_dataset` is
  ``from_tensor_slices(input_arrays(...))`` followed by the same
  shuffle/repeat/batch/prefetch steps, and the first batches of both are
  compared here, at port time;
* **refused** — anything else (a map function in a fed pipeline, a generator
  without a dataset, …), with the reason and the input function's file:line.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import tensorflow as tf

from migrate.port.records import Conversion, PortRefused, Problem
from migrate.port.runtime import call_with_params, capture_input, gather_batches, input_arrays, row_count, unwrap
from migrate.port.target import SourceRef

COMPARED_BATCHES = 2
USER_INPUT = "user_train_input"
"""The name the generated pair gives the user's input function."""


@dataclass(frozen=True)
class InputPlan:
    """How the generated pair gets its batches: `code` defines `train_input_fn` and `train_dataset`."""

    kind: str
    element_spec: tuple
    code: str
    conversion: Conversion
    note: str = ""


def _spec_of(result: Any) -> tuple:
    if isinstance(result, tf.data.Dataset):
        spec = result.element_spec
    else:
        spec = tf.nest.map_structure(lambda tensor: tf.TensorSpec(tensor.shape, tensor.dtype), tuple(result))
    if not (isinstance(spec, tuple) and len(spec) == 2):
        raise ValueError("it must give (features, labels)")
    return spec


def _refuse(ref: SourceRef, what: str, todo: str) -> PortRefused:
    return PortRefused([Problem(ref.where, f"the input function {ref.name}: {what}", todo)])


def _steps(dataset: Any, spell) -> list[str] | str:
    """The transformations after the source, as generated lines; or the reason they cannot be written."""
    steps = []
    dataset = unwrap(dataset)
    while hasattr(dataset, "_input_dataset"):
        kind = type(dataset).__name__.lstrip("_")
        value = lambda name: tf.get_static_value(getattr(dataset, name))  # noqa: B023,E731
        if kind == "BatchDataset":
            drop = bool(value("_drop_remainder"))
            steps.append(f"dataset = dataset.batch({spell(int(value('_batch_size')))}"
                         + (", drop_remainder=True)" if drop else ")"))
        elif kind == "RepeatDataset":
            count = int(value("_count"))
            steps.append("dataset = dataset.repeat()" if count < 0 else f"dataset = dataset.repeat({spell(count)})")
        elif kind == "ShuffleDataset":
            reshuffle = bool(value("_reshuffle_each_iteration"))
            steps.append(f"dataset = dataset.shuffle({spell(int(value('_buffer_size')))}, seed={int(value('_seed2'))}"
                         + (")" if reshuffle else ", reshuffle_each_iteration=False)"))
        elif kind == "PrefetchDataset":
            steps.append(f"dataset = dataset.prefetch({int(value('_buffer_size'))})")
        elif kind in ("TakeDataset", "SkipDataset"):
            steps.append(f"dataset = dataset.{kind[:4].lower()}({int(value('_count'))})")
        else:
            return f"its pipeline has a {kind} step, which the rewrite does not carry over"
        dataset = unwrap(dataset._input_dataset)  # noqa: SLF001
    if type(dataset).__name__.lstrip("_") != "TensorSliceDataset":
        return f"its pipeline starts from {type(dataset).__name__.lstrip('_')}, not from_tensor_slices"
    return list(reversed(steps))


def _body(lines: list[str]) -> str:
    return "\n".join(f"    {line}" for line in lines)


def _first_batches(dataset: tf.data.Dataset) -> list:
    return [tf.nest.map_structure(np.asarray, batch) for batch in dataset.take(COMPARED_BATCHES)]


def _graph_batches(ref: SourceRef, params: dict) -> list:
    with tf.Graph().as_default():
        captured = capture_input(ref.function, params)
        result = captured.result
        if isinstance(result, tf.data.Dataset):
            result = tf.compat.v1.data.make_one_shot_iterator(result).get_next()
        with tf.compat.v1.Session() as session:
            for hook in captured.hooks:
                hook.after_create_session(session, None)
            return [session.run(result) for _ in range(COMPARED_BATCHES)]


def _same(left: list, right: list) -> bool:
    flat = lambda batches: [np.asarray(item) for item in tf.nest.flatten(batches)]  # noqa: E731
    a, b = flat(left), flat(right)
    return len(a) == len(b) and all(x.shape == y.shape and np.array_equal(x, y) for x, y in zip(a, b))


def plan_input(ref: SourceRef, params: dict, spell, role: str = "train") -> InputPlan:
    """Reuse, rewrite or refuse the input function `ref` (see the module doc).

    `role` "train" writes `train_input_fn`/`train_dataset` calling the user's
    function as `user_train_input`; "eval" the `eval_…` ones.
    """
    user, dataset_name, input_name = f"user_{role}_input", f"{role}_dataset", f"{role}_input_fn"
    where = ref.where
    try:
        with tf.Graph().as_default():
            captured = capture_input(ref.function, params)
            spec = _spec_of(captured.result)
    except Exception as error:
        raise _refuse(ref, f"raised {type(error).__name__}: {error}",
                      "make it build its dataset in a fresh graph (call it alone)") from error
    if isinstance(captured.result, tf.data.Dataset) and not captured.hooks:
        try:
            eager = call_with_params(ref.function, params)
            if isinstance(eager, tf.data.Dataset):
                next(iter(eager))
                code = f"{input_name} = {user}\n{dataset_name} = {user}\n"
                return InputPlan("reused", spec, code, Conversion(where, f"{ref.name} (a tf.data.Dataset)",
                                                                  "reused as it is (it runs eagerly)", "input"))
        except Exception:  # noqa: BLE001 - not eager-runnable: try the rewrite below
            pass
    if not captured.datasets:
        raise _refuse(ref, "builds no tf.data pipeline through an iterator, and its result is not a dataset that runs "
                      "eagerly", "return a tf.data.Dataset from it")
    steps = _steps(captured.datasets[-1], spell)
    if isinstance(steps, str):
        raise _refuse(ref, steps, "return a tf.data.Dataset that runs eagerly instead")
    try:
        input_arrays(ref.function, params)
    except Exception as error:
        raise _refuse(ref, f"its source cannot be read: {type(error).__name__}: {error}",
                      "feed it through a hook (IteratorInitializerHook) or return a tf.data.Dataset") from error
    how = "placeholders fed by a hook" if captured.feed else "constants behind an iterator"
    eager = [f"dataset = tf.data.Dataset.from_tensor_slices(input_arrays({user}, params))", *steps, "return dataset"]
    indexed = [f"arrays = input_arrays({user}, params)", "dataset = tf.data.Dataset.range(row_count(arrays))",
               *steps, "return dataset.map(gather_batches(arrays))"]
    code = (f"def {dataset_name}(params):\n    \"\"\"{ref.name} ({where}) rewritten: {how} → the arrays themselves, "
            f"the same pipeline.\"\"\"\n{_body(eager)}\n\n\n"
            f"def {input_name}(params):\n    \"\"\"The same batches for the Estimator, read by index: its graph holds no array."
            f"\"\"\"\n{_body(indexed)}\n")
    namespace: dict[str, Any] = {"tf": tf, "input_arrays": input_arrays, "gather_batches": gather_batches,
                                 "row_count": row_count, user: ref.function}
    exec(compile(code, "<rewritten input>", "exec"), namespace)  # noqa: S102
    rewritten = _first_batches(namespace[dataset_name](params))
    original = _graph_batches(ref, params)
    indexed_batches = _graph_batches(SourceRef(namespace[input_name], input_name), params)
    if not (_same(rewritten, original) and _same(indexed_batches, original)):
        raise _refuse(ref, "its rewrite gives other batches than the original", "return a tf.data.Dataset from it")
    return InputPlan("rewritten", spec, code,
                     Conversion(where, f"{ref.name}: {how}, {' → '.join(s.split('.', 1)[1].split('(')[0] for s in steps)}",
                                f"from_tensor_slices(arrays){''.join('.' + s.split('.', 1)[1] for s in steps)}", "input"),
                     f"the first {COMPARED_BATCHES} batches of the rewritten input equal the original's")


