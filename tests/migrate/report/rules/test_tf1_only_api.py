"""`tf1-only-api` (TFM514): look-alikes first, then findings, then the advice of each family."""
from __future__ import annotations

import pytest

CODE = "TFM514"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param("import tensorflow as tf\ncfg = tf.config.list_physical_devices('GPU')\n", id="tf.config"),
        pytest.param("import tensorflow as tf\nv.assign(3)\n", id="Variable.assign"),
        pytest.param("import tensorflow as tf\nsess = tf.Session()\n", id="left to TFM303 (same line)"),
        pytest.param("import tensorflow as tf\nx = tf.placeholder(tf.float32)\n", id="left to TFM301"),
        pytest.param("import tensorflow as tf\ntf.logging.info('x')\n", id="a removed module another rule is about"),
        pytest.param("from tensorflow.python.ops import state_ops\nstate_ops.assign(v, 1)\n", id="a private module"),
        pytest.param("import tensorflow as tf\nc = tf.keras.layers.LSTMCell(3)\n", id="Keras RNN cell"),
    ],
)
def test_noop(source: str, findings) -> None:
    assert findings(source, CODE) == []


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param("import tensorflow as tf\nvs = tf.get_collection(tf.GraphKeys.LOSSES)\n", [2, 2], id="collections"),
        pytest.param("import tensorflow as tf\ncell = tf.nn.rnn_cell.BasicLSTMCell(8)\n", [2], id="rnn_cell member"),
        pytest.param("from tensorflow.compat.v1 import gfile\ngfile.FastGFile(p)\n", [1], id="import of a removed module"),
        pytest.param("import tensorflow as tf\nc = tf.ConfigProto()\n", [2], id="session config"),
        pytest.param("import tensorflow as tf\ntf.assign(v, 1)\n", [2], id="assign"),
        pytest.param("import tensorflow as tf\nx = tf.to_int32(y)\n", [2], id="cast"),
        pytest.param("import tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()\n", [2], id="v2 switch"),
        pytest.param(
            "import tensorflow as tf\ntf.saved_model.loader.load(sess, tags, path)\n", [2],
            id="a removed module's member that is canonically a name TF2 has for another function",
        ),
    ],
)
def test_finding(source: str, lines: list[int], findings) -> None:
    assert findings(source, CODE) == [(line, CODE) for line in lines]


@pytest.mark.parametrize(
    ("source", "home"),
    [
        pytest.param("tf.nn.dynamic_rnn(c, x)", "`keras.layers.LSTM`", id="RNN → Keras RNN layers"),
        pytest.param("tf.trainable_variables()", "`tf.Module.trainable_variables`", id="collections → tracking"),
        pytest.param("tf.GPUOptions(allow_growth=True)", "`tf.config.experimental.set_memory_growth`", id="config"),
        pytest.param("tf.scatter_update(v, i, x)", "`v.assign(x)`", id="assign → Variable.assign"),
        pytest.param("tf.train.cosine_decay(lr, s, 10)", "`keras.optimizers.schedules`", id="decay → schedules"),
        pytest.param("tf.Event(step=1)", "tf.summary.create_file_writer(logdir)", id="summary protos → writer and step"),
        pytest.param("tf.train.AdamOptimizer.compute_gradients(self, loss)", "`keras.optimizers.Optimizer`",
                     id="an optimizer's method called by a subclass → Keras optimizers"),
        pytest.param("tf.train.SessionRunHook.__init__(self)", "`keras.callbacks.Callback`",
                     id="a hook's method called by a subclass → Keras callbacks"),
        pytest.param("tf.div(a, b)", "`tf.math.floordiv`", id="div → / or //"),
        pytest.param("tf.GraphDef()", "`tf.saved_model.save`", id="graph protos → SavedModel"),
        pytest.param("tf.assert_positive(x)", "`tf.debugging.assert_positive`", id="asserts → tf.debugging"),
        pytest.param("tf.train.Supervisor(logdir=d)", "`tf.train.CheckpointManager`", id="session management → fit"),
        pytest.param("tf.train.replica_device_setter(ps_tasks=2)", "`tf.distribute.experimental.ParameterServerStrategy`",
                     id="replica device setter → parameter-server strategy"),
        pytest.param("tf.train.NewCheckpointReader(p)", "`tf.train.load_checkpoint(path)`", id="checkpoint reader"),
        pytest.param("tf.nn.fused_batch_norm(x, s, o)", "`keras.layers.BatchNormalization`", id="fused batch norm"),
        pytest.param("tf.distributions.Normal(0., 1.)", "`tfp.distributions`", id="distributions → TFP"),
        pytest.param("tf.sparse_to_dense(i, s, v)", "`tf.sparse.to_dense`", id="sparse_to_dense"),
        pytest.param("tf.Dimension(3)", "no `Dimension`", id="Dimension → ints"),
        pytest.param("tf.test.mock.patch(f)", "`from unittest import mock`", id="tf.test.mock → unittest.mock"),
    ],
)
def test_message_names_the_tf2_home(source: str, home: str, messages) -> None:
    [message] = messages(f"import tensorflow as tf\n{source}\n", CODE)
    assert home in message
