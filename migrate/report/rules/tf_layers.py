"""`tf.layers` (TF1 functional layers).

## What it does
Checks for references to `tf.layers` and its members (`tf.layers.dense`,
`tf.layers.conv2d`, `tf.layers.Dense`, …).

## Why is this bad?
`tf.layers` is removed in TF2 (`tf.compat.v1.layers` needs the `tf-keras`
package and `TF_USE_LEGACY_KERAS=1` on recent releases). Every function has a
Keras layer with nearly the same arguments (`dense(x, units)` →
`keras.layers.Dense(units)(x)`); the variables move from graph collections
into the layer, so build the layer once and call it, not once per call site.

## Example
```python
net = tf.layers.conv2d(images, 32, 5, activation=tf.nn.relu)
logits = tf.layers.dense(tf.layers.flatten(net), 10)
```

## Use instead
```python
net = keras.layers.Conv2D(32, 5, activation="relu")(images)
logits = keras.layers.Dense(10)(keras.layers.Flatten()(net))
```

## References
- https://www.tensorflow.org/guide/migrate/model_mapping
- https://keras.io/api/layers/
"""
from __future__ import annotations

from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM507", name="tf-layers", effort="rewrite", doc=__doc__, modern_equivalent="modern/model.py")

PREFIX = "tensorflow.layers"


def _keras_name(function: str) -> str:
    special = {"conv2d": "Conv2D", "conv1d": "Conv1D", "conv3d": "Conv3D", "batch_normalization": "BatchNormalization"}
    return special.get(function) or "".join(part.capitalize() for part in function.split("_"))


@register(RULE, PREFIX, PREFIX + ".*")
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    member = reference.name[len(PREFIX) + 1:].split(".")[0] if reference.name != PREFIX else ""
    target = f"`keras.layers.{_keras_name(member)}`" if member else "the matching `keras.layers` class"
    yield reference.node, (
        f"`{reference.spelling}` is removed in TF2 (tf.compat.v1.layers needs tf-keras); use {target}, "
        "built once and called (see modern/model.py)"
    )
