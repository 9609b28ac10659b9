"""Feed dicts passed to `session.run` (or `eval`), by keyword or by position.

## What it does
Checks for calls, in files that use TensorFlow, with a `feed_dict=` keyword
(other than `feed_dict=None`), and for feed dicts passed by position:
`sess.run(fetches, {x: batch})`, `sess.run(fetches, feed_dict)`,
`tensor.eval({x: batch})` — a dict, a name that says it is a feed, or a
name the file only ever binds to a dict (`td_map = {model.X: obs, …}`, then
`sess.run(ops, td_map)`, as openai/baselines writes it).

## Why is this bad?
Feeding copies every batch from Python into the graph at each step and
needs placeholders and sessions, neither of which exists in TF2. Data should
stream through `tf.data` (`from_generator` keeps Python-side generators);
per-step scalars become variables assigned eagerly.

## Example
```python
for images, labels in batches():
    sess.run(train_op, feed_dict={x: images, y: labels})
    loss_value = sess.run(loss, {x: images, y: labels})
```

## Use instead
```python
dataset = tf.data.Dataset.from_generator(batches, output_signature=signature)
model.fit(dataset, epochs=1)
```

## References
- https://www.tensorflow.org/guide/migrate/tf1_vs_tf2
- https://www.tensorflow.org/guide/data_performance
"""
from __future__ import annotations

import ast
from collections.abc import Iterator

from migrate.report.context import FileContext
from migrate.report.registry import Message, Rule, register
from migrate.scanning.aliases import dotted_parts

RULE = Rule(code="TFM302", name="feed-dict", effort="rewrite", doc=__doc__, modern_equivalent="modern/pipeline.py")

MESSAGE = (
    "feeds placeholders at `session.run`, which TF2 does not have; stream the data "
    "with tf.data (`Dataset.from_generator`, see modern/pipeline.py) into `model.fit`"
)
FEED_POSITION = {"run": 1, "eval": 0}
"""Where `Session.run(fetches, feed_dict)` and `Tensor.eval(feed_dict)` take the feed positionally."""


@register(RULE, "feed_dict=")
def check_keyword(node: ast.keyword, context: FileContext) -> Iterator[Message]:
    if not (type(node.value) is ast.Constant and node.value.value is None):
        yield node.value, f"`feed_dict=` {MESSAGE}"


def _is_dict(node: ast.AST | None) -> bool:
    """A dict display or comprehension, or `dict(...)`."""
    if type(node) is ast.Dict or type(node) is ast.DictComp:
        return True
    return type(node) is ast.Call and type(node.func) is ast.Name and node.func.id == "dict"


def _dict_bound_names(context: FileContext) -> frozenset[str]:
    """Names every assignment of the file binds to a dict (`td_map = {train_model.X: obs, A: actions}`); a name
    also bound to anything else is left out. Computed once per file, only when a call passes such a name."""
    bound: dict[str, bool] = {}
    for assignment in context.assignments:
        targets = assignment.targets if isinstance(assignment, ast.Assign) else [assignment.target]
        for target in targets:
            if type(target) is ast.Name:
                bound[target.id] = bound.get(target.id, True) and _is_dict(assignment.value)
    return frozenset(name for name, only_dicts in bound.items() if only_dicts)


def _looks_like_a_feed(node: ast.AST, context: FileContext) -> bool:
    """A dict, a name that says it is a feed (`feed_dict`, `self.feeds`), or a name only ever bound to a dict."""
    if _is_dict(node):
        return True
    parts = dotted_parts(node)
    if not parts:
        return False
    if "feed" in parts[-1].lower():
        return True
    return type(node) is ast.Name and node.id in context.memo("dict-bound-names", _dict_bound_names)


@register(RULE, ".run()", ".eval()")
def check_positional(call: ast.Call, context: FileContext) -> Iterator[Message]:
    if type(call.func) is not ast.Attribute:  # the `.run()`/`.eval()` keys only dispatch method calls
        return
    method = call.func.attr
    position = FEED_POSITION[method]
    positional = call.args
    if len(positional) <= position or any(type(arg) is ast.Starred for arg in positional[: position + 1]):
        return
    feed = positional[position]
    if not _looks_like_a_feed(feed, context):
        return
    if context.qualified(call.func) is not None:
        return  # a module's function (`app.run(main, argv)`, `subprocess.run`), not a session's method
    yield feed, f"a feed dict passed by position to `.{method}()` {MESSAGE}"
