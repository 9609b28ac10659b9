"""`LoggingTensorHook` by tensor names, every N steps and at the end."""
from __future__ import annotations

from legacy.estimator import train
from legacy.hooks.event_recorder import EventRecorderHook
from legacy.hooks.logging_tensor import make_logging_tensor_hook
from legacy.hooks.names import GLOBAL_STEP
from migrate.core.protocol import losses_by_step


def test_logs_loss_and_step_by_name_every_n_iterations(make_estimator, train_arrays):
    logged: list[dict] = []
    hook = make_logging_tensor_hook(every_n_iter=2, formatter=lambda values: logged.append(dict(values)) or "")
    recorder = EventRecorderHook("train")
    train(make_estimator(), train_arrays, steps=5, batch_size=32, hooks=[hook, recorder])

    losses = losses_by_step(recorder.events)
    assert [float(entry["loss"]) for entry in logged] == [losses[1], losses[3], losses[5]]
    assert sorted(logged[0]) == ["loss", "step"]


def test_at_end_logs_once_more_after_the_last_step(make_estimator, train_arrays):
    logged: list[dict] = []
    hook = make_logging_tensor_hook(
        {"step": GLOBAL_STEP}, every_n_iter=100, at_end=True, formatter=lambda values: logged.append(values) or ""
    )
    train(make_estimator(), train_arrays, steps=3, batch_size=32, hooks=[hook])

    assert len(logged) == 2  # the first iteration, then at the end
    assert int(logged[-1]["step"]) == 3
