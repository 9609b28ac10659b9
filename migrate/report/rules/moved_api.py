"""TF1 names tf_upgrade_v2 renames to a TF2 function that is not the same: `tf.gfile.Exists` → `tf.io.gfile.exists`.

## What it does
Checks for references to the TF1-only names (`tf.compat.v1` of TensorFlow
2.15 against TF2's `tf`, see `migrate/scanning/data/tf1_only.txt`) that
`tf_upgrade_v2` renames to a TF2 name whose function is a different one:
`tf.gfile.Exists` → `tf.io.gfile.exists`, `tf.arg_max` → `tf.argmax`,
`tf.parse_example` → `tf.io.parse_example`, `tf.multinomial` →
`tf.random.categorical`.

## Why is this bad?
The old name is gone from TF2's `tf`. The TF2 name is the right home, but
its function differs in arguments or behaviour (`tf.argmax` has no
`dimension=`, the `tf.io.gfile` functions name their parameters `path`/`src`/`dst`
where `tf.gfile`'s said `filename`/`dirname`/`oldpath`, `tf.image.resize`
samples differently from `resize_images`), so the rename is left to you; the
message says what differs where it is known.

## Example
```python
if not tf.gfile.Exists(model_dir):
    tf.gfile.MakeDirs(model_dir)
best = tf.arg_max(logits, 1)
```

## Use instead
```python
if not tf.io.gfile.exists(model_dir):
    tf.io.gfile.makedirs(model_dir)
best = tf.argmax(logits, axis=1)
```

## References
- https://www.tensorflow.org/guide/migrate/upgrade
- https://www.tensorflow.org/api_docs/python/tf
"""
from __future__ import annotations

from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register
from migrate.report.written_names import shown, written_entry
from migrate.scanning.names import display
from migrate.scanning.tf1_api import registry_keys

RULE = Rule(code="TFM515", name="moved-api", effort="rename", doc=__doc__, fallback=True)

KINDS = ("moved",)


DIFFERENCES = (
    ("tensorflow.gfile.", "the same operation (TF1's function calls it), with other keyword names: `filename=` / "
                          "`dirname=` are `path=`, `oldpath=` / `newpath=` (`oldname=` / `newname=`) are `src=` / "
                          "`dst=`, Walk's `in_order=` is `topdown=`; positional calls mean the same"),
    ("tensorflow.image.resize_images", "which has no `align_corners` and samples at half-pixel centres (results differ "
                                       "from TF1's default); `method` takes strings (`'bilinear'`)"),
    ("tensorflow.parse_single_example", "whose third positional parameter is `example_names` (TF1's was `name`)"),
    ("tensorflow.multinomial", "the same sampling, with `dtype=` for TF1's `output_dtype=` (a third positional "
                               "argument is `dtype` there, TF1's `seed`)"),
    ("tensorflow.nn.softmax_cross_entropy_with_logits_v2", "the same function under TF2's name (`dim=` is `axis=`)"),
    ("tensorflow.arg_max", "with `axis=` for TF1's `dimension=`"),
    ("tensorflow.arg_min", "with `axis=` for TF1's `dimension=`"),
)
"""What differs between a moved name's TF1 function and the TF2 one tf_upgrade_v2 writes, by name prefix."""


def _difference(name: str) -> str:
    return next(
        (text for prefix, text in DIFFERENCES if name.startswith(prefix)),
        "which is not the same function: check its arguments and behaviour as you rename it",
    )


@register(RULE, *registry_keys(KINDS))
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    entry = written_entry(reference, context)
    if entry is None or entry.kind not in KINDS:
        return
    yield reference.node, (
        f"`{shown(reference)}` is gone from TF2; tf_upgrade_v2 writes `{display(entry.target or '')}`, "
        f"{_difference(entry.name)}"
    )
