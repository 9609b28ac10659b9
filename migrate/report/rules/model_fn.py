"""A `model_fn(features, labels, mode, ...)` written for an Estimator.

## What it does
Checks for function definitions that take `features, labels, mode` (the
Estimator `model_fn` signature) or are named `*model_fn` and take `mode`, in
files that use TensorFlow.

## Why is this bad?
A `model_fn` builds a fresh graph for each mode and branches on
`mode == ModeKeys.TRAIN/EVAL/PREDICT`. Keras builds one model once; training,
evaluation and prediction are `fit`, `evaluate` and `predict` on it. Layers
created with `tf.layers`/`get_variable` inside a `model_fn` have to become
Keras layers, and the mode branches become `training=` arguments.

## Example
```python
def model_fn(features, labels, mode, params):
    logits = tf.layers.dense(features["x"], 10)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions=logits)
    ...
```

## Use instead
```python
def build_model() -> keras.Model:          # modern/model.py
    inputs = keras.Input((784,))
    return keras.Model(inputs, keras.layers.Dense(10)(inputs))
```

## References
- https://www.tensorflow.org/guide/migrate/migrating_estimator
- https://www.tensorflow.org/guide/migrate/model_mapping
"""
from __future__ import annotations

import ast
from collections.abc import Iterator

from migrate.report.context import FileContext
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM103", name="model-fn", effort="redesign", doc=__doc__, modern_equivalent="modern/model.py")

SIGNATURE = ("features", "labels", "mode")


def _is_model_fn(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Every function of a file that uses TensorFlow is asked (6,190 on tensor2tensor): most take no `mode`,
    which either form of a model_fn does, and are answered by that alone."""
    arguments = node.args
    positional = arguments.posonlyargs + arguments.args
    for argument in positional:  # a loop, not a comprehension: no function object made per call
        if argument.arg == "mode":
            break
    else:
        return node.name.endswith("model_fn") and any(argument.arg == "mode" for argument in arguments.kwonlyargs)
    names = [argument.arg for argument in positional if argument.arg not in ("self", "cls")]
    return names[:3] == list(SIGNATURE) or node.name.endswith("model_fn")


@register(RULE, ast.FunctionDef, ast.AsyncFunctionDef)
def check(node: ast.FunctionDef | ast.AsyncFunctionDef, context: FileContext) -> Iterator[Message]:
    if _is_model_fn(node):
        yield node, (
            f"`{node.name}` is an Estimator model_fn (graph rebuilt per mode); "
            "turn it into a function returning a Keras model and drive it with fit/evaluate/predict (see modern/model.py)"
        )
