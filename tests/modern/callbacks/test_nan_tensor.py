"""`NanTensor`: fail_on_nan_loss=True raises (no on_train_end), False stops gracefully."""
from __future__ import annotations

import numpy as np
import pytest

from migrate.core.protocol import expected_events, without_losses
from modern.callbacks.event_recorder import EventRecorder
from modern.callbacks.nan_tensor import NanLossDuringTrainingError, NanTensor
from modern.training import fit_steps
from tests.modern.conftest import global_step


def _poison(model):
    bias = model.get_layer("logits").bias
    bias.assign(np.full(bias.shape, np.nan, np.float32))


def test_fail_on_nan_raises_and_skips_end(model, train_data, log_lines):
    logger, lines = log_lines
    _poison(model)
    recorder = EventRecorder()
    with pytest.raises(NanLossDuringTrainingError, match="global step 1"):
        fit_steps(model, train_data, 10, [NanTensor(fail_on_nan_loss=True, logger=logger), recorder])
    assert lines == ["Model diverged with loss = NaN."]
    assert recorder.events[-1]["event"] == "before_run"


def test_no_fail_stops_gracefully_after_that_step(model, train_data, log_lines):
    logger, lines = log_lines
    _poison(model)
    recorder = EventRecorder()
    fit_steps(model, train_data, 10, [NanTensor(fail_on_nan_loss=False, logger=logger), recorder])
    assert global_step(model) == 1
    assert without_losses(recorder.events) == expected_events("train", 1, stop_requested=True)
    assert lines == ["Model diverged with loss = NaN."]


def test_finite_losses_pass(model, train_data):
    fit_steps(model, train_data, 3, [NanTensor()])
    assert global_step(model) == 3


def test_missing_loss_key_is_a_clear_error(model, train_data):
    with pytest.raises(KeyError, match="no 'nope' in the train step's logs"):
        fit_steps(model, train_data, 1, [NanTensor(loss_key="nope")])


# NaN or inf: the real TF1 hook against NanTensor on a stock model, step by step.

STOCK_BATCH, STEPS_PER_EPOCH, EPOCHS = 16, 5, 2
INF, NAN = float("inf"), float("nan")


def tf1_hook_stop_step(bad: dict[int, float]) -> int:
    """Steps the real `NanTensorHook(fail_on_nan_loss=False)` lets run when step k's loss is `bad[k]` (else 1.0)."""
    import tensorflow as tf

    losses = [bad.get(step % STEPS_PER_EPOCH + 1, 1.0) for step in range(STEPS_PER_EPOCH * EPOCHS)]
    with tf.Graph().as_default():
        global_step = tf.compat.v1.train.get_or_create_global_step()
        loss = tf.gather(tf.constant(losses, tf.float32), global_step)
        with tf.control_dependencies([loss]):
            train_op = tf.compat.v1.assign_add(global_step, 1)
        hook = tf.compat.v1.train.NanTensorHook(loss, fail_on_nan_loss=False)
        steps = 0
        with tf.compat.v1.train.MonitoredSession(hooks=[hook]) as session:
            while steps < len(losses) and not session.should_stop():
                session.run(train_op)
                steps += 1
    return steps


def stock_fit(bad: dict[int, float], callback) -> int:
    """A stock `Sequential` whose step k (within each epoch) has loss `bad[k]`; returns the steps it trained.

    The bad value is a label, so the loss is inf (MSE against inf) or NaN;
    learning rate 0 and clipped gradients keep the weights finite after an
    inf step, so only the steps named in `bad` are non-finite.
    """
    from tensorflow import keras

    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.SGD(0.0, clipvalue=1.0), loss="mse")
    rng = np.random.default_rng(0)
    x = rng.normal(size=(STOCK_BATCH * STEPS_PER_EPOCH, 4)).astype("float32")
    y = rng.normal(size=(STOCK_BATCH * STEPS_PER_EPOCH, 1)).astype("float32")
    for step, value in bad.items():
        y[(step - 1) * STOCK_BATCH] = value
    model.fit(x, y, batch_size=STOCK_BATCH, epochs=EPOCHS, shuffle=False, verbose=0, callbacks=[callback])
    return int(np.asarray(model.optimizer.iterations))


@pytest.mark.parametrize(
    ("bad", "first_non_finite"),
    [
        pytest.param({3: NAN}, 3, id="NaN at step 3: stops there"),
        pytest.param({3: INF}, 3, id="inf at step 3, finite after: TF1 never stops"),
        pytest.param({2: INF, 4: NAN}, 2, id="inf at step 2, NaN at step 4: TF1 stops at 4"),
    ],
)
def test_default_follows_the_real_tf1_hook_and_detect_inf_stops_at_the_inf_step(bad, first_non_finite, log_lines):
    logger, lines = log_lines
    tf1_steps = tf1_hook_stop_step(bad)
    assert stock_fit(bad, NanTensor(fail_on_nan_loss=False, logger=logger)) == tf1_steps
    assert stock_fit(bad, NanTensor(fail_on_nan_loss=False, logger=logger, detect_inf=True)) == first_non_finite


def test_detect_inf_fails_naming_the_value(log_lines):
    logger, lines = log_lines
    with pytest.raises(NanLossDuringTrainingError, match=r"^inf loss during training \(global step 3\)"):
        stock_fit({3: INF}, NanTensor(logger=logger, detect_inf=True))
    assert lines == ["Model diverged with loss = inf."]
