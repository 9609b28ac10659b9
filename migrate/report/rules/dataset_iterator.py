"""`make_one_shot_iterator` / `make_initializable_iterator` on a `Dataset`.

## What it does
Checks for `tf.data.make_one_shot_iterator(ds)`,
`tf.data.make_initializable_iterator(ds)`, `tf.data.Iterator` and the method
forms `dataset.make_one_shot_iterator()` / `dataset.make_initializable_iterator()`,
and the TF1 `Dataset`/`Iterator` properties `output_types`, `output_shapes`
and `output_classes` (in files that use TensorFlow).

## Why is this bad?
Graph-mode iterators hand out `get_next()` tensors that a session evaluates
once per `run`; initializable ones also need their `initializer` run, often
with placeholders fed (the usual way around the GraphDef size limit). TF2
datasets are Python iterables: pass them to `fit` or loop over them. Their
structure is `dataset.element_spec`; the `output_*` properties are gone.

## Example
```python
iterator = dataset.make_initializable_iterator()
features, labels = iterator.get_next()
sess.run(iterator.initializer, feed_dict={x: images})
```

## Use instead
```python
model.fit(dataset)               # or: for features, labels in dataset: ...
```

## References
- https://www.tensorflow.org/guide/migrate/tf1_vs_tf2
- https://www.tensorflow.org/guide/data
"""
from __future__ import annotations

import ast
from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM401", name="dataset-iterator", effort="rewrite", doc=__doc__, modern_equivalent="modern/pipeline.py")

METHODS = frozenset({"make_one_shot_iterator", "make_initializable_iterator"})
NAMES = frozenset({f"tensorflow.data.{name}" for name in METHODS} | {"tensorflow.data.Iterator"})
MESSAGE = (
    "is a graph-mode iterator evaluated through a session; in TF2 iterate the dataset directly "
    "or pass it to `model.fit` (see modern/pipeline.py)"
)


@register(RULE, *sorted(NAMES), "tensorflow.data.Iterator.*")
def check_function(reference: Reference, context: FileContext) -> Iterator[Message]:
    yield reference.node, f"`{reference.spelling}` {MESSAGE}"


def _imported_module(owner: ast.AST, context: FileContext) -> bool:
    """`dataset_builder.make_initializable_iterator(dataset)`: the owner is a name an import bound, a module of the
    user's code (the Object Detection API's helper), whose own body holds the Dataset call that is reported."""
    if type(owner) is not ast.Name:
        return False
    binding = context.aliases.binding(owner.id, owner.lineno, owner.col_offset)
    return binding is not None and binding.value is not None and isinstance(binding.node, (ast.Import, ast.ImportFrom))


@register(RULE, *(f".{method}" for method in sorted(METHODS)))
def check_method(node: ast.Attribute, context: FileContext) -> Iterator[Message]:
    if context.tensorflow_name(node) is None and not _imported_module(node.value, context):
        yield node, f"`.{node.attr}()` {MESSAGE}"


PROPERTIES = frozenset({"output_types", "output_shapes", "output_classes"})


@register(RULE, *(f".{name}" for name in sorted(PROPERTIES)))
def check_property(node: ast.Attribute, context: FileContext) -> Iterator[Message]:
    if type(node.ctx) is ast.Load and context.tensorflow_name(node) is None:
        yield node, (
            f"`.{node.attr}` is a TF1 Dataset/Iterator property, gone from TF2 datasets; read `dataset.element_spec` "
            f"(or `tf.compat.v1.data.get_{node.attr}(dataset)` for the old value)"
        )
