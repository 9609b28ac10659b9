"""Names TF2 has for another function: `tf.where`, the initializers, the asserts.

## What it does
Checks for references, in code where other rules find TF1 code, to names
TF2 still has but for another function than TF1's (derived into `migrate/scanning/data/tf1_only.txt` from the real
API: TF1's object differs from TF2's, and `tf_upgrade_v2` keeps TF1's as
`tf.compat.v1.NAME`): `tf.where`, `tf.zeros_initializer` and the other
initializers (`tf.keras.initializers.*` too), `tf.assert_equal` and the
other asserts, `tf.name_scope`, `tf.nn.max_pool` (tf_upgrade_v2 writes
`tf.nn.max_pool2d`), `tf.nn.ctc_loss`, `tf.saved_model.load`, `tf.data.Iterator`;
and calls of `tf.nn.softmax_cross_entropy_with_logits` whose `labels` are not
visibly free of gradient (`tf.stop_gradient(...)`, `tf.one_hot(...)`, a constant):
tf_upgrade_v2 wraps them in `tf.stop_gradient`, the name being TF2's too; and
calls of the `*cross_entropy_with_logits` functions with positional arguments
(TF 0.x code's `(logits, labels)`, which TF2 reads as `(labels, logits)`); and
calls of `tf.strings.split`, which returns a RaggedTensor in TF2 (TF1's a
SparseTensor).
A name written through `tf.compat.v1` is TF1's function by choice and left alone.

## Why is this bad?
The code still runs in TF2 but may compute something else: TF2's
`tf.where` broadcasts `x` and `y`; TF2's softmax cross-entropy back-propagates
into `labels` too (TF1's did not: soft labels a model computes get trained); TF2's initializers take no `dtype` in
the constructor and are called with `(shape, dtype)`; TF2's asserts raise
at once in eager code and return `None` (nothing to put in
`control_dependencies`); TF2's `tf.saved_model.load` returns a trackable
object, not a MetaGraphDef loaded into a session.

## Example
```python
tf.disable_v2_behavior()
init = tf.random_uniform_initializer(-0.1, 0.1, dtype=tf.float32)
with tf.control_dependencies([tf.assert_equal(tf.shape(a), tf.shape(b))]):
    picked = tf.where(mask, a, b)
```

## Use instead
```python
init = keras.initializers.RandomUniform(-0.1, 0.1)
tf.debugging.assert_equal(tf.shape(a), tf.shape(b))
picked = tf.where(mask, a, b)          # after checking TF2's broadcasting is what you want
```

## References
- https://www.tensorflow.org/guide/migrate/upgrade
- https://www.tensorflow.org/api_docs/python/tf/where
"""
from __future__ import annotations

import ast
from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, owned_elsewhere, register
from migrate.report.written_names import WRITTEN_NAME_RULES, shown, written_entry
from migrate.scanning.names import display
from migrate.scanning.tf1_api import registry_keys

RULE = Rule(code="TFM517", name="changed-semantics", effort="rewrite", doc=__doc__, fallback=True, tf1_code_only=True)

KINDS = ("changed",)
ADVICE = (
    ("tensorflow.name_scope", "TF2's `tf.name_scope` takes only a name and does not re-enter an existing scope by "
                              "name (`'outer/'`); `default_name`/`values` are gone"),
    ("_pool", "TF2's op of this name is the N-d one (the same on 4-D input)"),
    ("initializer", "TF2's initializers take no `dtype` in the constructor and are called with `(shape, dtype)`: "
                    "pass them to Keras layers, or use `keras.initializers`"),
    ("initializers.", "TF2's initializers take no `dtype` in the constructor and are called with `(shape, dtype)`: "
                      "pass them to Keras layers, or use `keras.initializers`"),
    ("assert_", "TF2's asserts raise at once in eager code and return None: call them as statements, not in "
                "`control_dependencies`"),
    ("tensorflow.where", "TF2's `tf.where` broadcasts `x` and `y` against the condition: check the shapes"),
    ("saved_model.load", "TF2's `tf.saved_model.load(path)` returns a trackable object to call, not a graph in a session"),
    ("Iterator", "TF2 iterates datasets directly (`for batch in dataset`, `iter(dataset)`)"),
    ("ctc_loss", "TF2's takes `(labels, logits, label_length, logit_length)`: TF1's `inputs` is `logits`, its "
                 "`sequence_length` is `logit_length`, `label_length` is required for dense labels, and "
                 "`blank_index=-1` keeps TF1's blank (the last class)"),
    ("losses.Reduction", "TF2's `tf.losses` is Keras': its losses take `reduction=\"sum_over_batch_size\"` "
                         "(or `\"sum\"`, `\"none\"`); TF1's `MEAN` and the `*_NONZERO_WEIGHTS` reductions have no "
                         "twin: divide the sum yourself"),
    ("losses.mean_squared_error", "TF2's is Keras' `(y_true, y_pred)` function: a loss per example (the mean over "
                                  "the last axis), no `weights`, no reduction to a scalar and no losses collection: "
                                  "use `keras.losses.MeanSquaredError()` and `sample_weight` for weights"),
)


def advice(name: str) -> str:
    """What to check or write for a name TF2 has for another function (`entry.name` of the TF1-only data)."""
    return next((text for key, text in ADVICE if key in name), "check the call against TF2's documentation")


@register(RULE, *registry_keys(KINDS))
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    entry = written_entry(reference, context)
    if entry is None or entry.kind not in KINDS or owned_elsewhere(entry.canonical, WRITTEN_NAME_RULES):
        return  # the summary ops, tf.losses, tf.metrics: their own rules tell TF1 calls from TF2 ones
    if ".compat.v1" in (context.qualified(reference.node) or ""):
        return
    if entry.target is not None:
        writes = f"tf_upgrade_v2 writes `{display(entry.target)}`"
    else:
        writes = f"TF1's is `tf.compat.v1.{display(entry.name).partition('.')[2]}`, which tf_upgrade_v2 writes"
    yield reference.node, f"`{shown(reference)}` is another function in TF2 ({writes}): {advice(entry.name)}"


GRADIENT_FREE = frozenset({"tensorflow.stop_gradient", "tensorflow.one_hot"})
"""Calls whose result takes no gradient back to its input: labels written so mean the same under TF1 and TF2."""
CROSS_ENTROPIES = frozenset(
    f"tensorflow.nn.{name}" for name in
    ("softmax_cross_entropy_with_logits", "sparse_softmax_cross_entropy_with_logits", "sigmoid_cross_entropy_with_logits")
)
"""TF1's took only keywords (a `_sentinel` first parameter); TF 0.x code passed `(logits, labels)` by position,
which TF2, taking `(labels, logits)`, reads the other way round."""


def _labels(call: ast.Call) -> ast.expr | None:
    """The `labels=` argument (TF1's function takes it only by keyword: its first parameter is `_sentinel`)."""
    return next((keyword.value for keyword in call.keywords if keyword.arg == "labels"), None)


def _gradient_free(node: ast.expr, context: FileContext) -> bool:
    if type(node) is ast.Constant:
        return True
    return type(node) is ast.Call and context.tensorflow_name(node.func) in GRADIENT_FREE


@register(RULE, *sorted(CROSS_ENTROPIES))
def check_cross_entropy(reference: Reference, context: FileContext) -> Iterator[Message]:
    call = reference.call
    if call is None or ".compat.v1" in (context.qualified(reference.node) or ""):
        return
    if call.args:
        yield reference.node, (
            f"`{reference.spelling}(...)` passes arguments by position: TF1's took them only by keyword (TF 0.x code "
            "passed `(logits, labels)`), TF2's takes `(labels, logits)`, so the two are swapped: pass `labels=` and "
            "`logits=` by keyword"
        )
        return
    labels = _labels(call)
    if not reference.name.endswith(".nn.softmax_cross_entropy_with_logits") or labels is None or _gradient_free(labels, context):
        return
    yield reference.node, (
        f"`{reference.spelling}` is another function in TF2 (tf_upgrade_v2 writes `labels=tf.stop_gradient(...)`): "
        "TF2's back-propagates into `labels` too, TF1's did not; labels read from data are unaffected, labels the "
        "model computes (soft labels, distillation) need `tf.stop_gradient`"
    )


@register(RULE, "tensorflow.strings.split")
def check_strings_split(reference: Reference, context: FileContext) -> Iterator[Message]:
    """TF1's `tf.strings.split` returned a SparseTensor unless told `result_type="RaggedTensor"` (a keyword TF2's
    lacks: TFM516 reports it); TF2's returns a RaggedTensor, and tf_upgrade_v2 appends `.to_sparse()`."""
    call = reference.call
    if call is None or any(keyword.arg == "result_type" for keyword in call.keywords):
        return
    if ".compat.v1" in (context.qualified(reference.node) or ""):
        return
    yield reference.node, (
        f"`{reference.spelling}` returns a RaggedTensor in TF2 (TF1's returned a SparseTensor; tf_upgrade_v2 "
        "appends `.to_sparse()`): add `.to_sparse()` where a SparseTensor is expected (`tf.sparse.to_dense`, "
        "`.indices`/`.values`), or use the RaggedTensor"
    )
