"""`MonitoredTrainingSession`, `MonitoredSession`, `Scaffold`.

## What it does
Checks for references to `tf.train.MonitoredTrainingSession`,
`tf.train.MonitoredSession`, `tf.train.SingularMonitoredSession`,
`tf.train.Scaffold` and the session creators.

## Why is this bad?
A monitored session is the TF1 training loop: it runs hooks, restores and
saves checkpoints, writes summaries and recovers from worker failures. As the
chief it silently adds `CheckpointSaverHook`, `StepCounterHook` and
`SummarySaverHook`. In TF2 that loop is `model.fit` with explicit callbacks
(`ModelCheckpoint`/`BackupAndRestore`, `TensorBoard`); `Scaffold`'s init ops
and saver become eager initialisation and `tf.train.Checkpoint`.

## Example
```python
with tf.train.MonitoredTrainingSession(checkpoint_dir=d, hooks=hooks) as sess:
    while not sess.should_stop():
        sess.run(train_op)
```

## Use instead
```python
model.fit(dataset, epochs=epochs, callbacks=[keras.callbacks.ModelCheckpoint(d), *callbacks])
```

## References
- https://www.tensorflow.org/guide/migrate/sessionrunhook_callback
- https://www.tensorflow.org/guide/migrate/checkpoint_saver
"""
from __future__ import annotations

from collections.abc import Iterator

from migrate.report.context import FileContext, Reference
from migrate.report.registry import Message, Rule, register

RULE = Rule(code="TFM304", name="monitored-session", effort="redesign", doc=__doc__, modern_equivalent="modern/training.py")

NAMES = frozenset(
    f"tensorflow.train.{name}"
    for name in (
        "MonitoredTrainingSession", "MonitoredSession", "SingularMonitoredSession",
        "Scaffold", "ChiefSessionCreator", "WorkerSessionCreator",
    )
)


@register(RULE, *sorted(NAMES))
def check(reference: Reference, context: FileContext) -> Iterator[Message]:
    yield reference.node, (
        f"`{reference.spelling}` is the TF1 training loop (hooks, checkpoints, summaries); replace it with "
        "`model.fit` and explicit callbacks such as `ModelCheckpoint` and `TensorBoard` (see modern/training.py)"
    )
