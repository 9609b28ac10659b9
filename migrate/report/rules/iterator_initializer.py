"""`iterator.initializer` run through a session.

## What it does
Checks for the `.initializer` attribute of an initializable iterator, in
files that use TensorFlow: an iterator made right there
(`ds.make_initializable_iterator().initializer`), a name or `self.` attribute
assigned one somewhere in the file (`make_initializable_iterator`,
`tf.data.Iterator.from_structure` / `from_string_handle`), or a name that says
it is one (`iterator`, `train_iter`). Look-alikes such as a hyper-parameter
`hparams.initializer` or a layer's `kernel_initializer` are not flagged.

## Why is this bad?
`initializer` is a graph op; running it (usually with `feed_dict` to fill
placeholders) restarts the dataset. TF2 datasets restart whenever they are
iterated again, so the op, the feed and the session call all go away. A
`SessionRunHook` that runs it in `after_create_session` maps to nothing at
all in Keras.

## Example
```python
sess.run(iterator.initializer, feed_dict={images_placeholder: images})
```

## Use instead
```python
for epoch in range(epochs):
    for batch in dataset:   # a fresh pass each epoch
        ...
```

## References
- https://www.tensorflow.org/guide/migrate/tf1_vs_tf2
- https://www.tensorflow.org/guide/data
"""
from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from functools import lru_cache

from migrate.report.context import FileContext
from migrate.report.registry import Message, Rule, register
from migrate.scanning.aliases import dotted_parts
from migrate.scanning.api_tree import api_tree

RULE = Rule(code="TFM402", name="iterator-initializer", effort="rewrite", doc=__doc__, modern_equivalent="modern/callbacks/iterator_initializer.py")


ITERATOR_NAME = re.compile(r"(?:^|_)(?:iter|iterator)(?:_|\d|$)", re.IGNORECASE)
ITERATOR_METHODS = frozenset({"make_initializable_iterator", "make_one_shot_iterator", "from_structure", "from_string_handle"})
ITERATOR_FUNCTIONS = frozenset({
    "tensorflow.data.make_initializable_iterator", "tensorflow.data.Iterator.from_structure",
    "tensorflow.data.Iterator.from_string_handle",
})


def _makes_iterator(node: ast.AST, context: FileContext) -> bool:
    if not isinstance(node, ast.Call):
        return False
    if context.tensorflow_name(node.func) in ITERATOR_FUNCTIONS:
        return True
    return isinstance(node.func, ast.Attribute) and node.func.attr in ITERATOR_METHODS


@lru_cache(maxsize=1)
def _iterator_spellings() -> tuple[str, ...]:
    """What a file that makes an iterator writes somewhere: a method of `ITERATOR_METHODS` (every name of
    `ITERATOR_FUNCTIONS` ends with one, and canonical names keep the last name written), or the last name of an
    API-tree alias that is one of `ITERATOR_FUNCTIONS` under another name (none in the data today)."""
    renamed = {alias.rpartition(".")[2] for alias, name in api_tree().aliases.items() if name in ITERATOR_FUNCTIONS}
    return tuple(sorted(ITERATOR_METHODS | renamed))


def _iterators(context: FileContext) -> frozenset[str]:
    """Dotted targets (`it`, `self._iterator`) assigned an iterator anywhere in the file. A file that spells no
    way to make one is not walked: `hparams.initializer` brings most files here (tensor2tensor: 28 of 30), and
    resolving every call they assign cost more than the rest of the rule."""
    if context.text is not None and not any(spelling in context.text for spelling in _iterator_spellings()):
        return frozenset()
    names: set[str] = set()
    for assignment in context.assignments:
        if assignment.value is not None and _makes_iterator(assignment.value, context):
            targets = assignment.targets if isinstance(assignment, ast.Assign) else [assignment.target]
            names.update(".".join(parts) for parts in map(dotted_parts, targets) if parts)
    return frozenset(names)


def _is_iterator(owner: ast.AST, context: FileContext) -> bool:
    if _makes_iterator(owner, context):
        return True
    parts = dotted_parts(owner)
    if not parts:
        return False
    return ".".join(parts) in context.memo("iterator-initializer:iterators", _iterators) or bool(ITERATOR_NAME.search(parts[-1]))


@register(RULE, ".initializer")
def check(node: ast.Attribute, context: FileContext) -> Iterator[Message]:
    if context.tensorflow_name(node) is not None or not _is_iterator(node.value, context):
        return
    owner = ".".join(dotted_parts(node.value) or ["…"])
    yield node, (
        f"`{owner}.initializer` is a graph op run by a session to (re)start the iterator; TF2 datasets restart "
        "on every iteration, so drop the op, its feed and the session call"
    )
