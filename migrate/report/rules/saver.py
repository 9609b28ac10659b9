"""`tf.train.Saver` and meta-graph export/import.

## What it does
Checks for references to `tf.train.Saver`, `tf.train.import_meta_graph` and
`tf.train.export_meta_graph`.

## Why is this bad?
`Saver` writes name-based checkpoints of graph variables through a session.
TF2 checkpoints are object-based (`tf.train.Checkpoint`,
`model.save_weights`); old checkpoints still load, but variable names have
to be mapped to the Keras model's weights. Meta graphs (the graph and its
variables, restored by `import_meta_graph`) do not exist without graphs: the
TF2 way to ship a model with its computation is a SavedModel
(`tf.saved_model.save` / `tf.saved_model.load`).

## Example
```python
saver = tf.train.Saver()
saver.save(sess, f"{model_dir}/model.ckpt", global_step=step)
```

## Use instead
```python
checkpoint = tf.train.Checkpoint(model=model, optimizer=model.optimizer)
checkpoint.save(f"{model_dir}/ckpt")      # converting TF1 checkpoints: modern/weights.py
```

## References
- https://www.tensorflow.org/guide/migrate/migrating_checkpoints
- https://www.tensorflow.org/guide/checkpoint
"""
from __future__ import annotations

from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM505", name="saver", effort="rewrite", doc=__doc__, modern_equivalent="modern/weights.py")

META_GRAPH = frozenset({"tensorflow.train.import_meta_graph", "tensorflow.train.export_meta_graph"})
NAMES = frozenset({"tensorflow.train.Saver"}) | META_GRAPH


@register(RULE, *sorted(NAMES))
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    if reference.name in META_GRAPH:
        yield reference.node, (
            f"`{reference.spelling}` moves a whole graph (ops and variables) through a meta graph, which TF2 "
            "does not have; export a SavedModel (`tf.saved_model.save(model, path)`) and load it with "
            "`tf.saved_model.load(path)` (or `keras.models.load_model` for a Keras model)"
        )
        return
    yield reference.node, (
        f"`{reference.spelling}` saves name-based graph checkpoints through a session; use `tf.train.Checkpoint` "
        "or `model.save_weights`, and map old checkpoints onto the model's weights (see modern/weights.py)"
    )
