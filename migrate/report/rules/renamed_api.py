"""TF1 names TF2 has under another name: `tf.log` → `tf.math.log`, `tf.gfile.Exists` → `tf.io.gfile.exists`.

## What it does
Checks for references to the TF1-only names (`tf.compat.v1` of TensorFlow
2.15 against TF2's `tf`, see `migrate/report/data/tf1_only.txt`) whose
object TF2 has under another name: the same function (`tf.log` is
`tf.math.log`, `tf.random_normal` is `tf.random.normal`), or the TF2 name
`tf_upgrade_v2` writes for one that is not the same function
(`tf.gfile.Exists` → `tf.io.gfile.exists`, `tf.arg_max` → `tf.argmax`).

## Why is this bad?
The old name is gone from TF2's `tf` (only `tf.compat.v1` keeps it), so the
code stops working when `import tensorflow as tf` means TF2. Where TF2's
name is the same function, `migrate fix` renames it (the new name is valid
under `tf.compat.v1` too); where it is not, the message says so: check the
arguments (`tf.argmax` has no `dimension=`, `tf.io.gfile.exists` raises on
some errors `tf.gfile.Exists` swallowed).

## Example
```python
log_probs = tf.log(probs)
noise = tf.random_normal([batch, 10])
if not tf.gfile.Exists(model_dir):
    tf.gfile.MakeDirs(model_dir)
```

## Use instead
```python
log_probs = tf.math.log(probs)
noise = tf.random.normal([batch, 10])
if not tf.io.gfile.exists(model_dir):
    tf.io.gfile.makedirs(model_dir)
```

## References
- https://www.tensorflow.org/guide/migrate/upgrade
- https://www.tensorflow.org/api_docs/python/tf
"""
from __future__ import annotations

from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.names import display
from migrate.report.registry import Message, Rule, register
from migrate.report.tf1_api import registry_keys, shown, written_entry

RULE = Rule(code="TFM513", name="renamed-api", effort="rename", doc=__doc__, fallback=True)

KINDS = ("rename", "moved")


@register(RULE, *registry_keys(KINDS))
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    entry = written_entry(reference, context)
    if entry is None or entry.kind not in KINDS:
        return
    spelling, new = shown(reference), display(entry.target or "")
    if entry.kind == "rename":
        yield reference.node, f"`{spelling}` is gone from TF2; it is `{new}` there (the same API, also valid under tf.compat.v1)"
    else:
        yield reference.node, (
            f"`{spelling}` is gone from TF2; tf_upgrade_v2 writes `{new}`, which is not the same function: "
            "check its arguments and behaviour before renaming"
        )
