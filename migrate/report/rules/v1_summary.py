"""TF1 summaries: `tf.summary.merge_all`, `merge`, `FileWriter`, and v1 summary ops.

## What it does
Checks for references to `tf.summary.merge_all`, `tf.summary.merge`,
`tf.summary.FileWriter`, `tf.summary.FileWriterCache`, `tf.summary.Summary`
and `tf.summary.tensor_summary`; and for calls of the summary ops TF2 still
has under the same name with other semantics (`tf.summary.scalar`,
`histogram`, `image`, `audio`, `text`) written the TF1 way: through
`tf.compat.v1`, with TF1's `collections=` / `family=` / `tensor=` /
`values=` arguments, or without a step in a file that sets no default step,
or with a list in the step's place (TF1's `collections`), or `image`/`audio`
with an int literal there (TF1's `max_outputs`) in a file that makes no TF2
summary writer;
and for such an op bound to a name or an attribute (`scalar_summary =
tf.summary.scalar`, as DCGAN-style `ops.py` files do; `self._scalar_fn =
tf.summary.scalar`) when the file calls that name the TF1 way or,
calling it nowhere, uses the TF1 summary machinery (`merge`, `FileWriter`).

## Why is this bad?
TF1 summaries are graph ops collected in `SUMMARIES`, merged, run through a
session and written by a `FileWriter` (or `SummarySaverHook` every N steps).
TF2 summaries are written eagerly inside a default writer with an explicit
step; for Keras training `TensorBoard(update_freq=N)` does it.

## Example
```python
tf.summary.scalar("loss", loss)
merged = tf.summary.merge_all()
writer = tf.summary.FileWriter(log_dir)
writer.add_summary(sess.run(merged), step)
```

## Use instead
```python
callbacks = [keras.callbacks.TensorBoard(log_dir, update_freq=100)]
# or: with tf.summary.create_file_writer(log_dir).as_default(): tf.summary.scalar("loss", loss, step=step)
```

## References
- https://www.tensorflow.org/tensorboard/migrate
- https://www.tensorflow.org/guide/migrate/tf1_vs_tf2
"""
from __future__ import annotations

import ast
from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM510", name="v1-summary", effort="rewrite", doc=__doc__, modern_equivalent="modern/callbacks/summary_saver.py")

NAMES = frozenset(
    f"tensorflow.summary.{name}"
    for name in ("merge_all", "merge", "FileWriter", "FileWriterCache", "tensor_summary", "get_summary_description")
) | {"tensorflow.Summary"}  # also spelled tf.summary.Summary: the API tree's shortest path is the canonical one


@register(RULE, *sorted(NAMES))
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    yield reference.node, (
        f"`{reference.spelling}` belongs to graph-collected TF1 summaries written through a session; use "
        "`keras.callbacks.TensorBoard(update_freq=N)` or `tf.summary.create_file_writer` with an explicit step"
    )


SUMMARY_OPS = frozenset(f"tensorflow.summary.{name}" for name in ("scalar", "histogram", "image", "audio", "text"))
V1_KEYWORDS = frozenset({"collections", "family", "tensor", "values"})
"""Parameters of the TF1 ops that TF2's (`name, data, step, …`) do not have."""
STEP_POSITION = {"scalar": 2, "histogram": 2, "text": 2, "image": 2, "audio": 3}
"""Where TF2's op takes `step` positionally (TF1's image and audio took `max_outputs` there: an int literal is
TF1's unless the file writes TF2 summaries)."""


def _written_through(reference: Reference, context: FileContext) -> str | None:
    """`v1` / `v2` when the chain went through `tf.compat.v1` / `tf.compat.v2`, else None."""
    qualified = context.qualified(reference.node) or ""
    if ".compat.v1." in qualified:
        return "v1"
    if ".compat.v2." in qualified:
        return "v2"
    return None


def _sets_default_step(context: FileContext) -> bool:
    """The file gives TF2's ops their step another way (`tf.summary.experimental.set_step`); a file whose
    text never spells `set_step` is not walked for it (the walk cost a fifth of the analysis of
    `tensorflow_estimator`)."""
    if context.text is not None and "set_step" not in context.text:
        return False
    return context.memo("summary-set-step", lambda context: any(
        type(node) is ast.Attribute and node.attr == "set_step" for node in ast.walk(context.tree)
    ))


def _is_v1_op_call(reference: Reference, context: FileContext) -> bool:
    call = reference.call
    if call is None:
        return False
    through = _written_through(reference, context)
    if through is not None:
        return through == "v1"
    return _is_v1_call(call, reference.name.rpartition(".")[2], context)


def _is_v1_call(call: ast.Call, op: str, context: FileContext) -> bool:
    """A call of summary op `op` (`scalar`, …) has TF1's arguments or no step where TF2's would need one."""
    keywords = {keyword.arg for keyword in call.keywords}
    if keywords & V1_KEYWORDS:
        return True
    if "step" in keywords or None in keywords or any(type(arg) is ast.Starred for arg in call.args):
        return False
    if len(call.args) > STEP_POSITION[op]:
        in_step_place = call.args[STEP_POSITION[op]]
        if type(in_step_place) in (ast.List, ast.Tuple):
            return True  # TF1's `collections` (`tf.summary.scalar(name, value, [])`): no step is a list
        return _is_max_outputs(in_step_place, op) and not _writes_tf2_summaries(context)
    return not _sets_default_step(context)


def _is_max_outputs(argument: ast.expr, op: str) -> bool:
    """An int literal where TF1's `image`/`audio` took `max_outputs` and TF2's takes `step`
    (`tf.summary.image("input", x, 3)`)."""
    return op in ("image", "audio") and type(argument) is ast.Constant and type(argument.value) is int


def _writes_tf2_summaries(context: FileContext) -> bool:
    """The file sets up TF2 summary writing (a writer made or a default step set), so an int literal in the step's
    place may be a step; a file whose text spells neither is not walked."""
    text = context.text
    if text is not None and "create_file_writer" not in text and "set_step" not in text:
        return False
    return context.memo("summary-tf2-writing", lambda context: any(
        type(node) is ast.Attribute and node.attr in ("create_file_writer", "set_step") for node in ast.walk(context.tree)
    ))


def _bound_names(reference: Reference, context: FileContext) -> list[tuple[str, str]]:
    """What an assignment binds the op itself to: a name (`scalar_summary = tf.summary.scalar`) or an attribute
    (`self._summary_scalar_fn = tf.summary.scalar`, adanet's), as ("name", id) / ("attr", attribute)."""
    for assignment in context.assignments:
        if assignment.value is reference.node:
            targets = assignment.targets if isinstance(assignment, ast.Assign) else [assignment.target]
            return [key for target in targets if (key := _binding_key(target)) is not None]
    return []


def _binding_key(target: ast.expr) -> tuple[str, str] | None:
    if isinstance(target, ast.Name):
        return ("name", target.id)
    if isinstance(target, ast.Attribute):
        return ("attr", target.attr)
    return None


def _calls_by_name(context: FileContext) -> dict[tuple[str, str], list[ast.Call]]:
    """Calls of plain names (`scalar_summary("loss", loss)`) and of attributes (`self._summary_scalar_fn(...)`) in
    the file, keyed as `_bound_names` keys them; walked once per file, and only for a file that binds a summary op."""
    calls: dict[tuple[str, str], list[ast.Call]] = {}
    for node in ast.walk(context.tree):
        if type(node) is ast.Call:
            func = node.func
            if type(func) is ast.Name:
                calls.setdefault(("name", func.id), []).append(node)
            elif type(func) is ast.Attribute:
                calls.setdefault(("attr", func.attr), []).append(node)
    return calls


def _uses_v1_machinery(context: FileContext) -> bool:
    """The file references TF1's summary plumbing (`tf.summary.merge`, `FileWriter`, …): its summary ops are TF1's."""
    return any(
        type(node) is ast.Attribute and context.tensorflow_name(node) in NAMES for node in ast.walk(context.tree)
    )


def _is_v1_op_alias(reference: Reference, context: FileContext) -> bool:
    """The op bound to a name is TF1's: the file calls that name the TF1 way, or calls it nowhere (another module
    imports it) and uses the TF1 summary machinery."""
    names = _bound_names(reference, context)
    if not names:
        return False
    through = _written_through(reference, context)
    if through is not None:
        return through == "v1"
    calls = [call for name in names for call in context.memo("summary-calls-by-name", _calls_by_name).get(name, ())]
    if calls:
        return any(_is_v1_call(call, reference.name.rpartition(".")[2], context) for call in calls)
    return context.memo("summary-v1-machinery", _uses_v1_machinery)


@register(RULE, *sorted(SUMMARY_OPS))
def check_summary_op(reference: Reference, context: FileContext) -> Iterator[Message]:
    if _is_v1_op_call(reference, context):
        yield reference.node, (
            f"`{reference.spelling}(...)` here is the TF1 summary op (collected in the graph, written through a session "
            f"and a FileWriter); TF2's `{reference.spelling}` writes at once and needs a step and a default writer: "
            "`with tf.summary.create_file_writer(logdir).as_default():` and pass `step=`"
        )
    elif reference.call is None and _is_v1_op_alias(reference, context):
        yield reference.node, (
            f"`{reference.spelling}` bound to a name here is the TF1 summary op (collected in the graph, written "
            f"through a session and a FileWriter); TF2's `{reference.spelling}` writes at once and needs a step and "
            "a default writer: call it under `with tf.summary.create_file_writer(logdir).as_default():` with `step=`"
        )
