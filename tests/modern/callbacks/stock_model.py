"""A stock compiled model and, per callback file, its TF1 behaviour with default arguments.

Someone copying a file of `modern/callbacks/` into their project has a model
we did not write: a compiled `keras.Sequential` with no custom `train_step`,
whose logs hold only the running means (``loss``, metrics). Each scenario
below trains such a model with one callback built with the arguments its TF1
hook requires (nothing that names our model's extra logs) and checks what the
TF1 hook would have done: the steps it acts at and the values it sees.

This file imports only TensorFlow, numpy and the standard library, so it
runs as a script beside copied callback files (`test_copy_beside_stock_model.py`,
byte-identical copies of `modern.callbacks`, so the one run checks both)::

    python stock_model.py DIR [DIR ...]   # each DIR holds one callback file
"""
from __future__ import annotations

import glob
import importlib
import logging
import math
import sys
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np
import tensorflow as tf
from tensorflow import keras

BATCH = 16
EXAMPLES = 70
"""Five batches per epoch, the last one short (6 examples): step losses must weigh it right."""
STEPS_PER_EPOCH = math.ceil(EXAMPLES / BATCH)


def stock_model(learning_rate: float = 0.0) -> keras.Model:
    """A compiled Sequential with Keras' own train step; learning rate 0 keeps every step's loss known."""
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((8,)), keras.layers.Dense(4, activation="relu"), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.SGD(learning_rate), loss="mse", metrics=["mae"])
    return model


def stock_data(nan_in_batch: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(EXAMPLES, 8)).astype("float32")
    y = rng.normal(size=(EXAMPLES, 1)).astype("float32")
    if nan_in_batch is not None:
        x[(nan_in_batch - 1) * BATCH] = np.nan
    return x, y


def fit(model: keras.Model, callbacks: list, epochs: int = 2, **kwargs) -> keras.callbacks.History:
    x, y = stock_data(kwargs.pop("nan_in_batch", None))
    return model.fit(x, y, batch_size=BATCH, epochs=epochs, shuffle=False, verbose=0, callbacks=callbacks, **kwargs)


def true_step_losses(model: keras.Model, epochs: int = 2) -> list[float]:
    """Each step's own loss, computed directly (the weights never change at learning rate 0)."""
    x, y = stock_data()
    batches = [(x[start:start + BATCH], y[start:start + BATCH]) for start in range(0, EXAMPLES, BATCH)]
    return [float(np.mean((np.asarray(model(bx)) - by) ** 2)) for bx, by in batches] * epochs


def assert_close(actual: list[float], expected: list[float], what: str) -> None:
    assert len(actual) == len(expected) and np.allclose(actual, expected, rtol=1e-4, atol=1e-6), (
        f"{what}: got {actual}, expected {expected}"
    )


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def private_logger(name: str) -> tuple[logging.Logger, list[str]]:
    logger = logging.getLogger(f"stock-model-{name}")
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    handler = Lines()
    logger.handlers = [handler]
    return logger, handler.lines


def scalars(directory: Path) -> dict[str, dict[int, float]]:
    found: dict[str, dict[int, float]] = {}
    for path in glob.glob(str(directory / "events.out.tfevents.*")):
        for event in tf.compat.v1.train.summary_iterator(path):
            for value in event.summary.value:
                found.setdefault(value.tag, {})[event.step] = float(tf.make_ndarray(value.tensor))
    return found


def iterations(model: keras.Model) -> int:
    return int(model.optimizer.iterations.numpy())


def checkpoint_saver(module: ModuleType, workdir: Path) -> None:
    """CheckpointSaverHook: saves at the start step, every N steps, and the last step."""
    model = stock_model(learning_rate=0.1)
    saver = module.CheckpointSaver(workdir, save_steps=4)
    fit(model, [saver])
    assert saver.saved_steps == [0, 4, 8, 10], saver.saved_steps
    latest = tf.train.latest_checkpoint(str(workdir))
    assert latest is not None and latest.endswith("model.ckpt-10"), latest
    restored = stock_model()
    module.make_checkpoint(restored).restore(latest).expect_partial()
    for trained, loaded in zip(model.get_weights(), restored.get_weights()):
        np.testing.assert_array_equal(trained, loaded)


def early_stopping(module: ModuleType, workdir: Path) -> None:
    """stop_if_no_decrease_hook: val_loss flat → stop once max_steps_without_decrease steps passed since the best."""
    model = stock_model()
    callback = module.EarlyStopping(max_steps_without_improvement=5)
    fit(model, [callback], epochs=4, validation_data=stock_data())
    assert callback.stopped_at == 10 == iterations(model), (callback.stopped_at, iterations(model))
    assert sorted(callback.history) == [5, 10]


def event_recorder(module: ModuleType, workdir: Path) -> None:
    """EventRecorderHook: begin, after_create_session(0), before_run/after_run(step, that step's loss), end."""
    model = stock_model()
    recorder = module.EventRecorder()
    fit(model, [recorder])
    steps = range(1, 2 * STEPS_PER_EPOCH + 1)
    expected = [("begin", None), ("after_create_session", 0)]
    for step in steps:
        expected += [("before_run", step), ("after_run", step)]
    expected.append(("end", steps[-1]))
    assert [(event["event"], event["step"]) for event in recorder.events] == expected, recorder.events
    losses = [event["loss"] for event in recorder.events if event["event"] == "after_run"]
    assert_close(losses, true_step_losses(model), "after_run losses")


def final_ops(module: ModuleType, workdir: Path) -> None:
    """FinalOpsHook: the metric values once evaluation has run its last batch."""
    model = stock_model()
    final = module.FinalOps()
    x, y = stock_data()
    results = model.evaluate(x, y, batch_size=BATCH, verbose=0, return_dict=True, callbacks=[final])
    assert final.final_ops_values == {key: float(value) for key, value in results.items()}, final.final_ops_values


def in_memory_evaluator(module: ModuleType, workdir: Path) -> None:
    """InMemoryEvaluatorHook(every_n_iter=4): at the start, steps 4 and 8, and the end; training logs untouched."""
    x, y = stock_data()
    without = fit(stock_model(learning_rate=0.05), []).history
    model = stock_model(learning_rate=0.05)
    evaluator = module.InMemoryEvaluator((x, y), every_n_iter=4, batch_size=BATCH, output_dir=workdir)
    history = fit(model, [evaluator]).history
    assert [step for step, _ in evaluator.results] == [0, 4, 8, 10], evaluator.results
    assert_close(history["loss"], without["loss"], "training loss with mid-epoch evaluations")
    final = model.evaluate(x, y, batch_size=BATCH, verbose=0, return_dict=True)
    assert_close([evaluator.results[-1][1][key] for key in sorted(final)], [final[key] for key in sorted(final)], "final")
    assert evaluator.results[0][1]["loss"] > evaluator.results[-1][1]["loss"]
    assert sorted(scalars(workdir)["loss"]) == [0, 4, 8, 10]


def logging_tensor(module: ModuleType, workdir: Path) -> None:
    """LoggingTensorHook({"step": global_step, "loss": loss}, every_n_iter=3): steps 1, 4, 7, 10 with their losses."""
    model = stock_model()
    logger, lines = private_logger("logging_tensor")
    fit(model, [module.LoggingTensor({"step": "global_step", "loss": "step_loss"}, every_n_iter=3, logger=logger)])
    logged = [dict(part.split(" = ") for part in line.split(" (")[0].split(", ")) for line in lines]
    assert [int(values["step"]) for values in logged] == [1, 4, 7, 10], lines
    expected = true_step_losses(model)
    assert_close([float(values["loss"]) for values in logged], [expected[step - 1] for step in (1, 4, 7, 10)], "losses")


def nan_tensor(module: ModuleType, workdir: Path) -> None:
    """NanTensorHook: raises at the first NaN step (no end); with fail_on_nan_loss=False, stops after it."""
    model = stock_model()
    logger, lines = private_logger("nan_tensor")
    try:
        fit(model, [module.NanTensor(logger=logger)], nan_in_batch=3)
    except module.NanLossDuringTrainingError as error:
        assert "global step 3" in str(error), error
    else:
        raise AssertionError("NanTensor() did not raise on a NaN loss")
    model = stock_model()
    fit(model, [module.NanTensor(fail_on_nan_loss=False, logger=logger)], nan_in_batch=3)
    assert iterations(model) == 3, iterations(model)
    assert lines == ["Model diverged with loss = NaN."] * 2, lines


def profiler(module: ModuleType, workdir: Path) -> None:
    """ProfilerHook: a trace of the chosen steps, written to the output directory."""
    model = stock_model()
    callback = module.Profiler(workdir, start_step=2, stop_step=3)
    fit(model, [callback], epochs=1)
    assert callback.traced_steps == [2, 3], callback.traced_steps
    assert glob.glob(str(workdir / "plugins" / "profile" / "*" / "*.xplane.pb"))


def step_counter(module: ModuleType, workdir: Path) -> None:
    """StepCounterHook(every_n_steps=3): the first step starts the clock, rates at steps 4, 7, 10."""
    model = stock_model()
    logger, lines = private_logger("step_counter")
    counter = module.StepCounter(every_n_steps=3, output_dir=workdir, logger=logger)
    fit(model, [counter])
    assert [step for step, _ in counter.rates] == [4, 7, 10] and all(rate > 0 for _, rate in counter.rates)
    assert sorted(scalars(workdir)["global_step/sec"]) == [4, 7, 10]
    assert len(lines) == 3 and lines[0].startswith("global_step/sec: "), lines


def stop_at_step(module: ModuleType, workdir: Path) -> None:
    """StopAtStepHook(num_steps=3), then last_step=7: stops at global steps 3 and 7, across epochs."""
    model = stock_model()
    fit(model, [module.StopAtStep(num_steps=3)])
    assert iterations(model) == 3
    fit(model, [module.StopAtStep(last_step=7)])
    assert iterations(model) == 7


def stop_on_condition(module: ModuleType, workdir: Path) -> None:
    """A hook calling request_stop on (step, loss): sees every step's own loss, stops after the step it holds."""
    model = stock_model()
    seen: list[tuple[int, float]] = []
    callback = module.StopOnCondition(lambda step, loss: seen.append((step, loss)) or step == 7)
    fit(model, [callback])
    assert [step for step, _ in seen] == list(range(1, 8)) and iterations(model) == 7 == callback.stopped_at
    assert_close([loss for _, loss in seen], true_step_losses(model)[:7], "losses")


def summary_saver(module: ModuleType, workdir: Path) -> None:
    """SummarySaverHook(save_steps=3): the step's loss (and the logs) at steps 1, 4, 7, 10."""
    model = stock_model()
    saver = module.SummarySaver(workdir, save_steps=3)
    fit(model, [saver])
    assert saver.written_steps == [1, 4, 7, 10], saver.written_steps
    written = scalars(workdir)
    assert set(written) == {"loss", "mae", "step_loss"}, sorted(written)
    expected = true_step_losses(model)
    assert_close([written["step_loss"][step] for step in (1, 4, 7, 10)], [expected[step - 1] for step in (1, 4, 7, 10)],
                 "step_loss summaries")


def no_callback(module: ModuleType, workdir: Path) -> None:
    """A "no callback needed" file: it documents the replacement and defines no callback."""
    assert module.TF1_EQUIVALENT["callback"] is None and module.__doc__
    assert not [value for value in vars(module).values() if isinstance(value, type) and issubclass(value, keras.callbacks.Callback)]


SCENARIOS: dict[str, Callable[[ModuleType, Path], None]] = {
    "checkpoint_input_pipeline": no_callback,
    "checkpoint_saver": checkpoint_saver,
    "early_stopping": early_stopping,
    "event_recorder": event_recorder,
    "feed_fn": no_callback,
    "final_ops": final_ops,
    "global_step_waiter": no_callback,
    "in_memory_evaluator": in_memory_evaluator,
    "iterator_initializer": no_callback,
    "logging_tensor": logging_tensor,
    "nan_tensor": nan_tensor,
    "profiler": profiler,
    "step_counter": step_counter,
    "stop_at_step": stop_at_step,
    "stop_on_condition": stop_on_condition,
    "stop_at_checkpoint_step": no_callback,
    "summary_saver": summary_saver,
    "sync_replicas": no_callback,
}
"""Keyed by file stem; every file of `modern/callbacks/` must have one (tested)."""


def main(directories: list[str]) -> int:
    """Import the one callback file in each directory, alone, and run its scenario; a failing scenario is printed
    (`failed STEM: ...`, its traceback on stderr) and the others still run."""
    failed = False
    for directory in map(Path, directories):
        (path,) = directory.glob("*.py")
        sys.path.insert(0, str(directory))
        try:
            module = importlib.import_module(path.stem)
            with tempfile.TemporaryDirectory() as workdir:
                SCENARIOS[path.stem](module, Path(workdir))
        except Exception as error:  # each file's verdict is reported, then the next one runs
            traceback.print_exc()
            print(f"failed {path.stem}: {type(error).__name__}: {error}", flush=True)
            failed = True
            continue
        finally:
            sys.path.pop(0)
        print(f"ok {path.stem}", flush=True)
    leaked = sorted(name for name in sys.modules if name.split(".")[0] in ("modern", "migrate", "legacy", "tests"))
    assert not leaked, f"the copied files reached into the project: {leaked}"
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
