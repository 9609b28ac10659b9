"""`tf.app.flags`, `tf.flags` and `tf.app.run`.

## What it does
Checks for references to `tf.app.flags`, `tf.flags` (and anything reached
through them, such as `flags.DEFINE_integer` after `flags = tf.app.flags`)
and `tf.app.run`.

## Why is this bad?
`tf.app` and `tf.flags` were thin wrappers around `absl`; they are gone in
TF2. The replacement is mechanical: `absl.flags` and `absl.app.run`, with
the same `DEFINE_*` functions and `FLAGS` object.

## Example
```python
flags = tf.app.flags
flags.DEFINE_integer("steps", 1000, "training steps")
tf.app.run(main)
```

## Use instead
```python
from absl import app, flags
flags.DEFINE_integer("steps", 1000, "training steps")
app.run(main)
```

## References
- https://abseil.io/docs/python/guides/flags
- https://www.tensorflow.org/guide/migrate/upgrade
"""
from __future__ import annotations

from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM502", name="app-flags", effort="rename", doc=__doc__)

PREFIXES = ("tensorflow.app.flags", "tensorflow.flags")


def _replacement(name: str) -> str | None:
    for prefix in PREFIXES:
        if name == prefix or name.startswith(prefix + "."):
            return "absl.flags" + name[len(prefix):]
    if name == "tensorflow.app.run":
        return "absl.app.run"
    return None


@register(RULE, "tensorflow.app.flags", "tensorflow.app.flags.*", "tensorflow.flags", "tensorflow.flags.*", "tensorflow.app.run")
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    replacement = _replacement(reference.name)
    if replacement is not None:
        yield reference.node, f"`{reference.spelling}` is removed in TF2; use `{replacement}` (same API, from absl)"
