"""`builtin-hook` (TFM202): look-alikes first, then findings."""
from __future__ import annotations

import pytest

CODE = "TFM202"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param('import tensorflow as tf\nisinstance(h, tf.train.LoggingTensorHook)\n', id='isinstance checks are not instantiations'),
        pytest.param('import tensorflow as tf\nclass MyHook:\n    pass\nMyHook()\n', id='a user hook class'),
        pytest.param('import tensorflow as tf\ntf.train.SessionRunHook()\n', id='SessionRunHook itself'),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param("import tensorflow as tf\ntf.train.LoggingTensorHook({'loss': loss}, every_n_iter=10)\n", [2], id='LoggingTensorHook'),
        pytest.param('import tensorflow.compat.v1 as tf\ntf.compat.v1.train.StopAtStepHook(last_step=5)\n', [2], id='StopAtStepHook through compat.v1'),
        pytest.param("import tensorflow as tf\ntf.estimator.CheckpointSaverHook(d)\ntf.estimator.experimental.stop_if_no_decrease_hook(e, 'loss', 10)\n", [2, 3], id='estimator hooks and factories'),
        pytest.param('from tensorflow.python.training import basic_session_run_hooks as h\nh.NanTensorHook(loss)\n', [2], id='private module spelling'),
        pytest.param('import tensorflow as tf\ntf.data.experimental.CheckpointInputPipelineHook(est)\n', [2], id='the input-pipeline checkpoint hook under tf.data'),
        pytest.param('import tensorflow as tf\ntf.estimator.experimental.make_stop_at_checkpoint_step_hook(est, 100)\n', [2], id='the stop-at-checkpoint-step factory'),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]
