"""`RunConfig` for an Estimator (checkpointing, summaries, distribution).

## What it does
Checks for references to `tf.estimator.RunConfig`, `tf.estimator.tpu.RunConfig`,
`tf.contrib.tpu.RunConfig` and `tf.contrib.learn.RunConfig`.

## Why is this bad?
`RunConfig` configures what the Estimator's `MonitoredTrainingSession` does
implicitly: `save_checkpoints_steps` (CheckpointSaverHook),
`save_summary_steps` (SummarySaverHook), `log_step_count_steps`
(StepCounterHook and the loss logging), `tf_random_seed`, `train_distribute`.
Each setting becomes an explicit callback or a `tf.distribute` strategy.

## Example
```python
config = tf.estimator.RunConfig(model_dir=d, save_checkpoints_steps=500,
                                save_summary_steps=100, tf_random_seed=7)
```

## Use instead
```python
keras.utils.set_random_seed(7)
callbacks = [keras.callbacks.ModelCheckpoint(f"{d}/ckpt", save_freq=500),
             keras.callbacks.TensorBoard(d, update_freq=100)]
```

## References
- https://www.tensorflow.org/guide/migrate/checkpoint_saver
- https://www.tensorflow.org/guide/migrate/migrating_estimator
"""
from __future__ import annotations

from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM104", name="run-config", effort="rewrite", doc=__doc__, modern_equivalent="modern/training.py")

NAMES = frozenset({
    "tensorflow.estimator.RunConfig",
    "tensorflow.estimator.tpu.RunConfig",
    "tensorflow.contrib.tpu.RunConfig",
    "tensorflow.contrib.learn.RunConfig",
})


@register(RULE, *sorted(NAMES))
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    yield reference.node, (
        f"`{reference.spelling}` configures the Estimator's hidden session hooks; turn each setting into a callback "
        "(`ModelCheckpoint`, `TensorBoard`), `keras.utils.set_random_seed`, or a tf.distribute strategy"
    )
