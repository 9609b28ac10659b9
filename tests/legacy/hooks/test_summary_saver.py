"""`SummarySaverHook` built inside model_fn and returned as a training hook, as TF1 code does."""
from __future__ import annotations

import pytest
import tensorflow as tf

from legacy.estimator import make_run_config, train
from legacy.hooks.summary_saver import make_summary_saver_hook
from legacy.model import merged_params, model_fn

from .test_step_counter import scalar_steps


def test_summaries_from_model_fn_are_written_every_n_steps(tmp_path, train_arrays):
    output_dir = str(tmp_path / "summaries")

    def model_fn_with_summaries(features, labels, mode, params):
        spec = model_fn(features, labels, mode, params)
        if mode != tf.estimator.ModeKeys.TRAIN:
            return spec
        tf.compat.v1.summary.scalar("train_loss", spec.loss)
        return spec._replace(training_hooks=[make_summary_saver_hook(output_dir, save_steps=3)])

    config = make_run_config(tmp_path / "model", save_checkpoints_steps=1000, log_step_count_steps=None)
    estimator = tf.estimator.Estimator(model_fn_with_summaries, config=config, params=merged_params(None))
    train(estimator, train_arrays, steps=7, batch_size=32)

    assert scalar_steps(output_dir, "train_loss") == [1, 4, 7]


def test_a_graph_without_summaries_is_refused_with_the_fix(tmp_path):
    with tf.Graph().as_default(), pytest.raises(ValueError, match="call it inside model_fn"):
        make_summary_saver_hook(str(tmp_path))
