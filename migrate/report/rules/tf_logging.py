"""`tf.logging`.

## What it does
Checks for references to `tf.logging` and its members (`tf.logging.info`,
`tf.logging.set_verbosity`, `tf.logging.INFO`, …).

## Why is this bad?
`tf.logging` is removed in TF2. The replacement is mechanical: `absl.logging`
(same function names) or the standard `logging` module.

## Example
```python
tf.logging.set_verbosity(tf.logging.INFO)
tf.logging.info("step %d", step)
```

## Use instead
```python
from absl import logging
logging.set_verbosity(logging.INFO)
logging.info("step %d", step)
```

## References
- https://abseil.io/docs/python/guides/logging
- https://www.tensorflow.org/guide/migrate/upgrade
"""
from __future__ import annotations

from collections.abc import Iterator

from migrate.fix.rules.tf_logging import NOT_MOVED
from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM503", name="tf-logging", effort="rename", doc=__doc__)

PREFIX = "tensorflow.logging"


@register(RULE, PREFIX, PREFIX + ".*")
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    member = reference.name[len(PREFIX) + 1:].partition(".")[0]
    if member in NOT_MOVED:
        yield reference.node, f"`{reference.spelling}` is removed in TF2 and `migrate fix` leaves it: {NOT_MOVED[member]}"
        return
    replacement = "absl.logging" + reference.name[len(PREFIX):]
    yield reference.node, f"`{reference.spelling}` is removed in TF2; use `{replacement}` (or the `logging` module)"
