"""`StepCounter`: global_step/sec every N steps to the logs, the log and an event file."""
from __future__ import annotations

import glob

import pytest
from tensorflow import keras

from modern.callbacks import checkpoint_saver, step_counter, summary_saver
from modern.callbacks.step_counter import StepCounter
from modern.training import fit_steps


class SeenRates(keras.callbacks.Callback):
    def __init__(self) -> None:
        super().__init__()
        self.rates: dict[int, float] = {}

    def on_train_batch_end(self, batch, logs=None):
        if "global_step/sec" in logs:
            self.rates[int(logs["global_step"])] = logs["global_step/sec"]


def test_measures_every_n_steps_after_the_first(model, train_data, tmp_path, log_lines):
    logger, lines = log_lines
    counter, seen = StepCounter(every_n_steps=3, output_dir=tmp_path, logger=logger), SeenRates()
    fit_steps(model, train_data, 8, [counter, seen])
    assert [step for step, _ in counter.rates] == [4, 7]
    assert all(rate > 0 for _, rate in counter.rates)
    assert seen.rates == dict(counter.rates)
    assert len(lines) == 2 and lines[0].startswith("global_step/sec: ")
    assert glob.glob(str(tmp_path / "events.out.tfevents.*"))


def test_exactly_one_schedule():
    with pytest.raises(ValueError, match="exactly one of every_n_steps and every_n_secs"):
        StepCounter(every_n_secs=1.0)
    assert StepCounter(every_n_steps=None, every_n_secs=1.0).every_n_secs == 1.0


@pytest.mark.parametrize("module", [checkpoint_saver, step_counter, summary_saver], ids=lambda module: module.__name__)
def test_the_step_comes_from_the_logs_when_the_train_step_reports_it(module, model):
    model.optimizer.iterations.assign(3)
    assert module.global_step(model, {"global_step": 7.0, "loss": 0.5}) == 7
    assert module.global_step(model, {"loss": 0.5}) == 3
    assert module.global_step(model) == 3
