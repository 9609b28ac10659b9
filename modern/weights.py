"""Legacy TF1 checkpoints in and out of the Keras model.

The legacy `model_fn` names its variables ``<scope>/weights`` and
``<scope>/biases`` (scopes "conv1", "conv2", "fc1", "fc2", "logits"); the
Keras model has layers of the same names whose `kernel`/`bias` have the same
shapes, so the mapping is one to one and needs no transposes.

* `load_legacy_checkpoint` reads a name-based TF1 checkpoint (a prefix such
  as ``model_dir/model.ckpt-1000`` or a directory, meaning its latest
  checkpoint) into the model;
* `save_legacy_checkpoint` writes the model's weights under the legacy names
  with a `tf.compat.v1` Saver in a private `tf.Graph`, plus ``global_step``,
  so an Estimator's `model_fn` built with `get_variable` restores it for
  evaluate/predict. Optimizer slots are not written: to *continue training*
  from it with an Estimator, use ``warm_start_from`` (which restores only the
  model variables).
"""
from __future__ import annotations

import os
from pathlib import Path

import tensorflow as tf
from tensorflow import keras

from migrate.core.mnist_model import GLOBAL_STEP_NAME, LAYER_NAMES, LEGACY_SUFFIXES

GLOBAL_STEP = GLOBAL_STEP_NAME


class LegacyCheckpointError(ValueError):
    """A checkpoint that does not fit the model: missing, mis-named or mis-shaped variables."""


def legacy_variables(model: keras.Model) -> dict[str, tf.Variable]:
    """Legacy checkpoint name → the model's variable, e.g. "fc1/weights" → fc1's kernel."""
    variables = {}
    for layer_name in LAYER_NAMES:
        try:
            layer = model.get_layer(layer_name)
        except ValueError as error:
            raise LegacyCheckpointError(
                f"the model has no layer {layer_name!r}; legacy checkpoints map onto models built by "
                "modern.model.build_model (layers conv1, conv2, fc1, fc2, logits)."
            ) from error
        for attribute, suffix in LEGACY_SUFFIXES.items():
            variables[f"{layer_name}/{suffix}"] = getattr(layer, attribute)
    return variables


def resolve_checkpoint(checkpoint_path: str | os.PathLike) -> str:
    """A checkpoint prefix from a prefix or a directory (its latest checkpoint)."""
    path = os.fspath(checkpoint_path)
    if os.path.isdir(path):
        latest = tf.train.latest_checkpoint(path)
        if latest is None:
            raise LegacyCheckpointError(
                f"{path} holds no checkpoint (no 'checkpoint' state file naming one); pass a prefix such as "
                f"{os.path.join(path, 'model.ckpt-1000')} or train first."
            )
        return latest
    if not tf.io.gfile.exists(path + ".index"):
        raise LegacyCheckpointError(
            f"no checkpoint at {path} ({path}.index does not exist); pass the prefix without .index/.data "
            "suffixes, or the model directory."
        )
    return path


def load_legacy_checkpoint(model: keras.Model, checkpoint_path: str | os.PathLike) -> int | None:
    """Copy ``<scope>/weights|biases`` from a TF1 checkpoint into the model; return its global step.

    Every problem (missing names, wrong shapes) is collected and reported in
    one `LegacyCheckpointError` before anything is assigned, so a bad
    checkpoint never leaves the model half-loaded.
    """
    prefix = resolve_checkpoint(checkpoint_path)
    reader = tf.train.load_checkpoint(prefix)
    shapes = reader.get_variable_to_shape_map()
    targets = legacy_variables(model)
    problems = []
    for name, variable in targets.items():
        if name not in shapes:
            problems.append(f"{name} is missing")
        elif tuple(shapes[name]) != tuple(variable.shape):
            problems.append(f"{name} has shape {tuple(shapes[name])}, the model expects {tuple(variable.shape)}")
    if problems:
        available = ", ".join(sorted(name for name in shapes if not name.startswith("_")))
        raise LegacyCheckpointError(
            f"{prefix} does not fit the legacy network: {'; '.join(problems)}. The checkpoint holds: {available}. "
            "It must come from the legacy model_fn (or save_legacy_checkpoint)."
        )
    for name, variable in targets.items():
        variable.assign(reader.get_tensor(name))
    return int(reader.get_tensor(GLOBAL_STEP)) if GLOBAL_STEP in shapes else None


def save_legacy_checkpoint(model: keras.Model, path: str | os.PathLike, global_step: int | None = None) -> str:
    """Write the weights as a TF1 name-based checkpoint at prefix `path`; return the prefix written.

    `global_step` defaults to the optimizer's iterations (0 without an
    optimizer). The directory's ``checkpoint`` state file is updated, so
    `tf.train.latest_checkpoint(directory)` and an Estimator with that
    ``model_dir`` find it.
    """
    values = {name: variable.numpy() for name, variable in legacy_variables(model).items()}
    return write_tf1_checkpoint(values, path, model_step(model) if global_step is None else global_step)


def model_step(model: keras.Model) -> int:
    """The optimizer's iterations (0 without an optimizer): the global step a checkpoint of the model carries."""
    optimizer = getattr(model, "optimizer", None)
    return int(optimizer.iterations.numpy()) if optimizer is not None else 0


def write_tf1_checkpoint(values: dict, path: str | os.PathLike, global_step: int) -> str:
    """TF1 name → value written with a `tf.compat.v1` Saver at prefix `path`, plus ``global_step``."""
    prefix = Path(path)
    prefix.parent.mkdir(parents=True, exist_ok=True)
    with tf.Graph().as_default() as graph:
        variables = [
            tf.compat.v1.get_variable(name, initializer=tf.constant(value)) for name, value in values.items()
        ]
        step = tf.compat.v1.get_variable(GLOBAL_STEP, initializer=tf.constant(int(global_step), tf.int64), trainable=False)
        saver = tf.compat.v1.train.Saver(variables + [step])
        with tf.compat.v1.Session(graph=graph) as session:
            session.run(tf.compat.v1.global_variables_initializer())
            return saver.save(session, str(prefix), write_meta_graph=False)
