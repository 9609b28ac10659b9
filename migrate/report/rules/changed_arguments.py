"""Calls of TF2 functions with TF1's parameters: `tf.reduce_sum(x, keep_dims=True)`, `tf.nn.dropout(x, 0.5)`.

## What it does
Checks for calls of functions and classes TF2 still has under their TF1 name
but with other parameters (`tf.compat.v1` of TensorFlow 2.15 against TF2's
`tf`, derived into `migrate/scanning/data/tf1_arguments.txt`): a keyword TF2's
function does not take (`keep_dims=`, `dimension=`, `colocate_gradients_with_ops=`,
`dtype=` of an initializer; `colocate_gradients_with_ops=` of any optimizer's
`minimize`/`compute_gradients`), and positional arguments past the ones that
still mean the same (`tf.nn.dropout(x, 0.5)`: TF1's second parameter was
`keep_prob`, TF2's is `rate`), and `**kwargs` passed to such a function (it may
hold one of those keywords). Where TF2's function of the name is another
function (`tf.nn.ctc_loss`), a keyword TF2 has no name for is to be
rewritten, not dropped, and a call through `tf.compat.v1` keeps TF1's
function by choice and is left alone.

## Why is this bad?
In TF2 the call fails (an unexpected keyword) or, worse, passes a value to
another parameter: `tf.nn.dropout(x, 0.9)` kept 90 % of the units in TF1
and drops 90 % in TF2. Where `tf_upgrade_v2` renames the keyword and TF1's
function takes the new name too (`keep_dims` → `keepdims`), `migrate fix`
renames it; the other cases are left to you.

## Example
```python
total = tf.reduce_sum(losses, reduction_indices=1, keep_dims=True)
hidden = tf.nn.dropout(hidden, 0.9)
```

## Use instead
```python
total = tf.reduce_sum(losses, axis=1, keepdims=True)
hidden = tf.nn.dropout(hidden, rate=0.1)
```

## References
- https://www.tensorflow.org/guide/migrate/upgrade
- https://www.tensorflow.org/api_docs/python/tf/nn/dropout
"""
from __future__ import annotations

import ast
from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, owned_elsewhere, register
from migrate.report.rules.changed_semantics import advice
from migrate.report.written_names import WRITTEN_NAME_RULES, written_name
from migrate.scanning.names import display
from migrate.scanning.tf1_api import ChangedArguments, changed_arguments, lookup

RULE = Rule(code="TFM516", name="changed-arguments", effort="rename", doc=__doc__)


def _keys() -> set[str]:
    return {key for entry in changed_arguments().values() for key in (entry.name, entry.canonical)}


@register(RULE, *sorted(_keys()))
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    call = reference.call
    if call is None or not (call.keywords or len(call.args) > 1):
        return
    written = written_name(reference, context)
    entry = changed_arguments().get(written) if written is not None else None
    if entry is None or not _passes_changed(call, entry) or owned_elsewhere(entry.canonical, WRITTEN_NAME_RULES):
        return
    replaced = _replaced_in_tf2(entry.name)
    if replaced and ".compat.v1" in (context.qualified(reference.node) or ""):
        return  # TF1's function kept by choice under its TF1 name (what tf_upgrade_v2 writes): its keywords are TF1's
    found = [*_keyword_messages(call, entry, replaced), *_positional_messages(call, entry, replaced)]
    unpacked = next((keyword for keyword in call.keywords if keyword.arg is None), None)
    if not found and unpacked is not None and entry.removed:
        found.append((unpacked, _unpacked_keywords(display(entry.name), entry)))  # one per call is enough to check it
    yield from found


def _passes_changed(call: ast.Call, entry: ChangedArguments) -> bool:
    """Whether the call passes anything the messages below are about: a removed keyword, a positional argument
    past those that keep their meaning, or `**kwargs` to a function with removed keywords. Most calls of these
    functions pass none (`tf.reduce_sum(x, axis=1)`; 1,799 of 1,943 on tensor2tensor): they are left first."""
    removed = entry.removed
    for keyword in call.keywords:
        if keyword.arg in removed or (keyword.arg is None and removed):
            return True
    return entry.positional is not None and len(call.args) > entry.positional


def _keyword_messages(call: ast.Call, entry: ChangedArguments, replaced: bool) -> Iterator[Message]:
    """Each TF1 keyword of the call TF2's function does not take, with what to write instead."""
    name = display(entry.name)
    for keyword in call.keywords:
        if keyword.arg not in entry.removed:
            continue
        new, _ = entry.removed[keyword.arg]
        if new:
            instead = f"it is `{new}=` there"
        elif replaced:
            instead = _without_tf2_keyword(entry.name)
        elif (entry.name, keyword.arg) in KEYWORD_ADVICE:
            instead = KEYWORD_ADVICE[(entry.name, keyword.arg)]
        else:
            instead = "drop it, or do what it did another way"
        yield keyword, f"`{keyword.arg}=` is not a parameter of TF2's `{name}`: {instead}"


def _positional_messages(call: ast.Call, entry: ChangedArguments, replaced: bool) -> Iterator[Message]:
    """The first positional argument past those that keep their meaning in TF2, if the call passes one."""
    if entry.positional is None or any(type(arg) is ast.Starred for arg in call.args) or len(call.args) <= entry.positional:
        return
    kept = f"only the first {entry.positional} keep their meaning" if entry.positional else (
        "TF2 takes its parameters in another order"
    )
    instead = _without_tf2_keyword(entry.name) if replaced else "pass it by keyword"
    yield call.args[entry.positional], (
        f"positional argument {entry.positional + 1} of `{display(entry.name)}` means another parameter in TF2 "
        f"({kept}): {instead}"
    )


def _unpacked_keywords(name: str, entry: ChangedArguments) -> str:
    """A `**kwargs` passed on to a function some of whose TF1 keywords TF2 lacks (tensorpack's
    `tf.nn.conv2d(i, k, stride, padding, **kwargs)`): what it must not hold, as tf_upgrade_v2 warns."""
    keywords = ", ".join(
        f"`{old}` (`{new}` in TF2)" if new else f"`{old}`" for old, (new, _) in sorted(entry.removed.items())
    )
    return f"`**` passes keywords to `{name}` that TF2's may not take: check it holds none of {keywords}"


def _replaced_in_tf2(name: str) -> bool:
    """TF2's function of this name is another function (`tf.nn.ctc_loss`: TF1's `inputs=` is TF2's `logits=`
    beside new required lengths), not TF1's with a parameter dropped: the call is to be rewritten or kept as TF1's."""
    entry = lookup(name)
    return entry is not None and entry.name == name and entry.kind == "changed"


def _without_tf2_keyword(name: str) -> str:
    """What to do with a TF1 keyword of a function TF2 replaced (`_replaced_in_tf2`): dropping it would be wrong."""
    shown_name = display(name)
    return (
        f"TF2's `{shown_name}` is another function (TF1's is `tf.compat.v1.{shown_name.partition('.')[2]}`, "
        f"which tf_upgrade_v2 writes): keep TF1's under that name, or rewrite the call — {advice(name)}"
    )


TFLITE_FROM_GRAPH = (
    "TF2's converter is built from a SavedModel, a Keras model or concrete functions "
    "(`tf.lite.TFLiteConverter.from_saved_model`, `from_keras_model`, `from_concrete_functions`); TF1's graph "
    "converter is `tf.compat.v1.lite.TFLiteConverter`"
)
KEYWORD_ADVICE = {
    ("tensorflow.nn.dropout", "keep_prob"): "TF2 takes `rate=`, the fraction dropped: pass `rate=1 - keep_prob`",
    ("tensorflow.lite.TFLiteConverter", "input_tensors"): TFLITE_FROM_GRAPH,
    ("tensorflow.lite.TFLiteConverter", "output_tensors"): TFLITE_FROM_GRAPH,
}
"""TF1 keywords whose TF2 replacement is not a rename but a conversion (tf_upgrade_v2 writes `rate=1 - (…)`), or
a constructor TF2 builds otherwise (DeepSpeech's `TFLiteConverter(frozen_graph, input_tensors=…)`)."""


OPTIMIZER_KEYWORDS = {
    "colocate_gradients_with_ops": "TF2's optimizers and `tf.GradientTape` place gradients themselves: drop it",
}
"""Keywords of TF1 optimizer methods (`opt.minimize(loss, colocate_gradients_with_ops=True)`, `compute_gradients`):
the object is the user's, so the keyword is recognised by its name, which nothing but TF1 takes."""


@register(RULE, *(f"{keyword}=" for keyword in OPTIMIZER_KEYWORDS))
def check_optimizer_keyword(node: ast.keyword, context: FileContext) -> Iterator[Message]:
    yield node, f"`{node.arg}=` is a TF1 optimizer argument TF2 does not have: {OPTIMIZER_KEYWORDS[node.arg or '']}"
