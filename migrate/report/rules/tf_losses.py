"""TF1 loss functions: `tf.losses.softmax_cross_entropy` and friends.

## What it does
Checks for references to the TF1-only functions of `tf.losses`
(`softmax_cross_entropy`, `sparse_softmax_cross_entropy`, `sigmoid_cross_entropy`,
`get_total_loss`, `add_loss`, …). The TF2 `tf.losses` classes (aliases of
`keras.losses`) are not flagged.

## Why is this bad?
TF1 losses take `(labels, logits)` and add themselves to the `LOSSES` graph
collection; `get_total_loss` sums that collection plus regularisation losses.
TF2 has no collections: pass a `keras.losses` object to `compile` (argument
order `(y_true, y_pred)`, logits flagged with `from_logits=True`);
regularisation comes from `model.losses`.

## Example
```python
loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
```

## Use instead
```python
model.compile(loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
```

## References
- https://www.tensorflow.org/guide/migrate/tf1_vs_tf2
- https://keras.io/api/losses/
"""
from __future__ import annotations

from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM508", name="tf-losses", effort="rewrite", doc=__doc__, modern_equivalent="modern/training.py")

V1_LOSSES = {
    "softmax_cross_entropy": "keras.losses.CategoricalCrossentropy(from_logits=True)",
    "sparse_softmax_cross_entropy": "keras.losses.SparseCategoricalCrossentropy(from_logits=True)",
    "sigmoid_cross_entropy": "keras.losses.BinaryCrossentropy(from_logits=True)",
    "log_loss": "keras.losses.BinaryCrossentropy()",
    "hinge_loss": "keras.losses.Hinge()",
    "huber_loss": "keras.losses.Huber()",
    "absolute_difference": "keras.losses.MeanAbsoluteError()",
    "cosine_distance": "keras.losses.CosineSimilarity()",
    "mean_pairwise_squared_error": None,
    "compute_weighted_loss": None,
    "add_loss": None,
    "get_losses": None,
    "get_total_loss": None,
    "get_regularization_loss": None,
    "get_regularization_losses": None,
}


@register(RULE, *(f"tensorflow.losses.{name}" for name in V1_LOSSES))
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    replacement = V1_LOSSES[reference.name.rpartition(".")[2]]
    advice = f"use `{replacement}` in `model.compile`" if replacement else "losses are no longer collected in the graph: compute the total from the Keras loss and `model.losses`"
    yield reference.node, f"`{reference.spelling}` is a TF1 loss using graph collections, removed in TF2; {advice}"
