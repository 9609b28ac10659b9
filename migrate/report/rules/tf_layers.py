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

import re
from collections.abc import Iterator
from functools import lru_cache

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM507", name="tf-layers", effort="rewrite", doc=__doc__, modern_equivalent="modern/model.py")

PREFIX = "tensorflow.layers"


DIMENSIONS = re.compile(r"(\d)d$")


@lru_cache(maxsize=1024)
def keras_name(member: str) -> str:
    """The Keras layer class for a `tf.layers` member: classes keep their name (`Conv2DTranspose`),
    functions are CamelCased with the dimension suffix upper-cased (`max_pooling2d` → `MaxPooling2D`).
    Cached: each `tf.layers` reference asks (310 on tensor2tensor, a dozen members), a regex per word."""
    if member[:1].isupper():
        return member
    return "".join(DIMENSIONS.sub(r"\1D", part.capitalize()) for part in member.split("_"))


@register(RULE, PREFIX, PREFIX + ".*")
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    member = reference.name[len(PREFIX) + 1:].split(".")[0] if reference.name != PREFIX else ""
    target = f"`keras.layers.{keras_name(member)}`" if member and member != "experimental" else "the matching `keras.layers` class"
    yield reference.node, (
        f"`{reference.spelling}` is removed in TF2 (tf.compat.v1.layers needs tf-keras); use {target}, "
        "built once and called (see modern/model.py)"
    )
