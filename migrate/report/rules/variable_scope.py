"""`tf.get_variable` / `tf.variable_scope` (graph-collection variables).

## What it does
Checks for references to `tf.get_variable`, `tf.variable_scope`,
`tf.get_variable_scope`, `tf.VariableScope` and `tf.AUTO_REUSE`.

## Why is this bad?
Variables created by name in a scope, shared by `reuse`, and found again
through graph collections do not exist in TF2: variables are Python objects
owned by layers and models. Each `get_variable` becomes a layer weight
(`self.add_weight` or a Keras layer); scopes become layer names. Checkpoint
names change accordingly (see `tf.compat.v1.keras.utils.track_tf1_style_variables`
for a gradual path, and modern/weights.py to copy the values).

## Example
```python
with tf.variable_scope("dense"):
    w = tf.get_variable("kernel", [784, 10])
    logits = tf.matmul(x, w)
```

## Use instead
```python
logits = keras.layers.Dense(10, use_bias=False, name="dense")(x)
```

## References
- https://www.tensorflow.org/guide/migrate/model_mapping
- https://www.tensorflow.org/guide/migrate/validate_correctness
"""
from __future__ import annotations

from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM506", name="variable-scope", effort="rewrite", doc=__doc__, modern_equivalent="modern/model.py")

NAMES = frozenset(
    f"tensorflow.{name}"
    for name in ("get_variable", "variable_scope", "get_variable_scope", "VariableScope", "AUTO_REUSE", "get_local_variable")
)


@register(RULE, *sorted(NAMES))
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    yield reference.node, (
        f"`{reference.spelling}` creates/shares variables by name through graph scopes, which TF2 does not have; "
        "make them weights of Keras layers (`add_weight`, `keras.layers.*`) (see modern/model.py)"
    )
