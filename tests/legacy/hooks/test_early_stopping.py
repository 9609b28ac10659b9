"""`stop_if_no_decrease_hook`: stops training when the evaluated metric stops decreasing."""
from __future__ import annotations

import tensorflow as tf

from legacy.estimator import latest_step, train, train_and_evaluate
from legacy.hooks.early_stopping import make_early_stopping_hook


def write_eval_losses(eval_dir: str, losses_by_step: dict[int, float]) -> None:
    with tf.Graph().as_default():
        writer = tf.compat.v1.summary.FileWriter(eval_dir)
        for step, loss in losses_by_step.items():
            summary = tf.compat.v1.Summary(value=[tf.compat.v1.Summary.Value(tag="loss", simple_value=loss)])
            writer.add_summary(summary, step)
        writer.close()


def test_stops_once_the_best_eval_loss_is_older_than_the_patience(make_estimator, train_arrays):
    estimator = make_estimator()
    write_eval_losses(estimator.eval_dir(), {1: 0.5, 3: 0.7, 6: 0.9})
    hook = make_early_stopping_hook(estimator, "loss", max_steps_without_decrease=4, run_every_steps=1)
    train(estimator, train_arrays, steps=50, batch_size=32, hooks=[hook])

    assert latest_step(estimator.model_dir) == 1  # checked every step; the best (step 1) is 5 steps behind step 6


def test_in_train_and_evaluate_it_reads_the_real_evaluations(make_estimator, train_arrays, test_arrays):
    estimator = make_estimator(save_checkpoints_steps=5)
    hook = make_early_stopping_hook(estimator, "loss", max_steps_without_decrease=1000, run_every_steps=5)
    metrics, _ = train_and_evaluate(
        estimator, train_arrays, test_arrays, max_steps=15, batch_size=32, train_hooks=[hook], throttle_secs=0
    )

    assert metrics["global_step"] == 15  # patience not exhausted: runs to max_steps
