"""`tf.contrib`: imported, aliased or written out.

## What it does
Checks for `import tensorflow.contrib…`, `from tensorflow.contrib import …`
and every use of a name that resolves into `tf.contrib` (`tf.contrib.layers`,
`slim.conv2d` after `import tensorflow.contrib.slim as slim`, …).

## Why is this bad?
`tf.contrib` was removed in TensorFlow 2.0; the import itself fails. Each
module moved somewhere else or died: `contrib.layers`/`slim` → Keras layers,
`contrib.learn` → Keras `fit`, `contrib.data` → `tf.data`, `contrib.tpu` →
`tf.distribute.TPUStrategy`, `contrib.summary` → `tf.summary`, others to
add-ons (TensorFlow Addons, TF-Slim as a separate package). The message names
the module's (or the member's) TF2 home where it has one
(`migrate/report/contrib_homes.py`).

## Example
```python
import tensorflow.contrib.slim as slim
net = slim.conv2d(images, 32, [3, 3])
```

## Use instead
```python
net = keras.layers.Conv2D(32, 3, padding="same")(images)
```

## References
- https://github.com/tensorflow/community/blob/master/rfcs/20180907-contrib-sunset.md
- https://www.tensorflow.org/guide/migrate/tf1_vs_tf2
"""
from __future__ import annotations

import ast
from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.contrib_homes import home
from migrate.report.registry import Message, Rule, register
from migrate.scanning.names import canonical, is_tensorflow

RULE = Rule(code="TFM501", name="contrib", effort="rewrite", doc=__doc__)

PREFIX = "tensorflow.contrib"


def _is_contrib(name: str) -> bool:
    name = canonical(name)
    return name == PREFIX or name.startswith(PREFIX + ".")


def _message(shown: str, name: str) -> str:
    """`name`: the canonical contrib name, whose module says where it went (`contrib_homes`)."""
    found = home(name)
    instead = f"its TF2 home is {found}" if found is not None else (
        "replace it with its TF2 home (Keras layers, tf.data, tf.distribute) or a maintained add-on package"
    )
    return f"`{shown}` is tf.contrib, removed in TF 2.0 (the import fails); {instead}"


@register(RULE, PREFIX, PREFIX + ".*")
def check_name(reference: Reference, context: FileContext) -> Iterator[Message]:
    yield reference.node, _message(reference.spelling, reference.name)


@register(RULE, ast.Import)
def check_import(node: ast.Import, context: FileContext) -> Iterator[Message]:
    for alias in node.names:
        if _is_contrib(alias.name):
            yield node, _message(f"import {alias.name}", canonical(alias.name))


@register(RULE, ast.ImportFrom)
def check_import_from(node: ast.ImportFrom, context: FileContext) -> Iterator[Message]:
    """Every `from … import` of a file that uses TensorFlow comes here (2,780 on tensor2tensor, `__future__` and
    the project's own modules most of them): only TensorFlow's names can be canonically contrib's."""
    module = node.module if node.level == 0 else None
    if module is None or not is_tensorflow(module):
        return
    if _is_contrib(module) or any(_is_contrib(f"{module}.{alias.name}") for alias in node.names):
        names = ", ".join(alias.name for alias in node.names)
        first = canonical(f"{module}.{node.names[0].name}" if node.names[0].name != "*" else module)
        yield node, _message(f"from {module} import {names}", first)
