"""`SummarySaver`: scalars at the first step and every N steps, readable from the event file."""
from __future__ import annotations

import glob

import pytest
import tensorflow as tf

from modern.callbacks.summary_saver import SummarySaver
from modern.training import fit_steps


def _scalars(directory) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for path in glob.glob(str(directory / "events.out.tfevents.*")):
        for event in tf.compat.v1.train.summary_iterator(path):
            for value in event.summary.value:
                assert value.metadata.plugin_data.plugin_name == "scalars"
                found.setdefault(value.tag, []).append(event.step)
    return found


def test_writes_at_the_first_step_then_every_n(model, train_data, tmp_path):
    saver = SummarySaver(tmp_path, save_steps=3, keys=["step_loss", "loss"])
    fit_steps(model, train_data, 8, [saver])
    assert saver.written_steps == [1, 4, 7]
    assert _scalars(tmp_path) == {"step_loss": [1, 4, 7], "loss": [1, 4, 7]}


def test_default_keys_are_the_numeric_logs(model, train_data, tmp_path):
    fit_steps(model, train_data, 1, [SummarySaver(tmp_path, save_steps=10)])
    assert set(_scalars(tmp_path)) == {"loss", "accuracy", "step_loss"}


def test_exactly_one_schedule(tmp_path):
    with pytest.raises(ValueError, match="exactly one of save_steps and save_secs"):
        SummarySaver(tmp_path)
