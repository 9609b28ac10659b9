"""`migrate port` on the constructs public model_fns use that the first ports did not: each fix has a small target here."""
from __future__ import annotations

import json
import os
import re
import subprocess
import textwrap
from pathlib import Path

import pytest

from migrate.cli import main
from migrate.port.removed_api import explain

pytestmark = pytest.mark.estimator
ROOT = Path(__file__).resolve().parents[3]

INPUT_FN = """
import numpy as np
import tensorflow as tf


def train_input_fn(params):
    x = np.arange(48, dtype=np.float32).reshape(8, 3, 2) / 48.0
    y = np.arange(8, dtype=np.int64) % 2
    return tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(4)

"""
HEAD = """
    logits = tf.compat.v1.layers.dense(encoding, 2, name="out")
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"logits": logits})
    loss = tf.compat.v1.losses.sparse_softmax_cross_entropy(labels, logits)
    if mode == tf.estimator.ModeKeys.EVAL:
        return tf.estimator.EstimatorSpec(mode, loss=loss)
    train_op = tf.compat.v1.train.GradientDescentOptimizer(0.5).minimize(
        loss, global_step=tf.compat.v1.train.get_or_create_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)
"""


def write_target(directory: Path, body: str) -> Path:
    path = directory / "target.py"
    model_fn = "def model_fn(features, labels, mode, params):\n" + textwrap.indent(textwrap.dedent(body), "    ") + HEAD
    path.write_text(INPUT_FN + model_fn + '\nPARAMS = {"units": 3}\n')
    return path


def line_of(path: Path, text: str) -> int:
    return next(number for number, line in enumerate(path.read_text().splitlines(), 1) if text in line)


@pytest.mark.parametrize("line", [
    pytest.param("x = tf.contrib.feature_column.sequence_input_layer(features, columns)", id="a contrib function"),
    pytest.param("cell = tf.contrib.rnn.LayerNormBasicLSTMCell(64)", id="a cell only contrib has"),
    pytest.param("from tensorflow.contrib.slim import nets", id="a contrib module"),
])
def test_a_contrib_name_without_a_twin_is_named_and_refused(line):
    what, todo = explain(AttributeError("module 'tensorflow.contrib' has no attribute 'x'"), line)
    assert "is tf.contrib, which TensorFlow 2 removed" in what and "no TF1-core twin" in what
    assert "rewrite that part with tf.compat.v1 ops" in todo


@pytest.mark.parametrize("line", [
    pytest.param("cell = tf.contrib.rnn.LSTMCell(64)", id="a core cell contrib re-exported"),
    pytest.param("train_op = tf.contrib.layers.optimize_loss(loss, step, 0.1, 'Adam')", id="optimize_loss"),
    pytest.param("from tensorflow.contrib.learn.python.learn.estimators import rnn_common", id="a module of twins"),
])
def test_an_error_on_a_line_whose_contrib_names_run_is_left_to_the_generic_refusal(line):
    assert explain(AttributeError("'NoneType' object has no attribute 'shape'"), line) is None


def test_other_errors_are_left_to_the_generic_refusal():
    assert explain(ValueError("shapes differ"), "tf.contrib.layers.flatten(x)") is None
    assert explain(AttributeError("'dict' object has no attribute 'units'"), "params.units") is None


CONTRIB_TARGET = """
import numpy as np
import tensorflow.compat.v1 as tf


def train_input_fn(params):
    rng = np.random.default_rng(0)
    features = {"ids": rng.integers(0, 20, (8, 6)), "tag": rng.choice(np.array(["x", "y", "z", "w"]), 8)}
    labels = np.array([" a", " b", " c"])[np.arange(8) % 3][:, None]
    return tf.data.Dataset.from_tensor_slices((features, labels)).repeat().batch(4)


def model_fn(features, labels, mode, params):
    embedded = tf.contrib.layers.embed_sequence(features["ids"], params["vocab"], 4)
    pretrained = tf.nn.embedding_lookup(tf.constant(params["pretrained"]), features["ids"])
    conv = tf.layers.conv1d(tf.concat([embedded, pretrained], axis=2), 5, 3, padding="same", activation=tf.nn.relu)
    tags = tf.contrib.lookup.index_table_from_tensor(tf.constant(["x", "y", "z"])).lookup(features["tag"])
    flat = tf.concat([tf.contrib.layers.flatten(conv), tf.one_hot(tags, 3)], axis=1)
    hidden = tf.contrib.layers.fully_connected(flat, 5)
    logits = tf.contrib.layers.fully_connected(hidden, 3, activation_fn=None, scope="logits")
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"logits": logits})
    classes = tf.contrib.lookup.index_table_from_tensor(tf.constant([" a", " b", " c"]))
    loss = tf.losses.sparse_softmax_cross_entropy(tf.squeeze(classes.lookup(labels), axis=[1]), logits)
    train_op = tf.contrib.layers.optimize_loss(loss, tf.contrib.framework.get_global_step(), 0.1, params["optimizer"],
                                               summaries=[])
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


PARAMS = {"vocab": 20, "optimizer": "SGD",
          "pretrained": np.linspace(-1.0, 1.0, 20 * 4, dtype=np.float32).reshape(20, 4)}
"""


def test_a_model_fn_written_with_tf_contrib_ports_with_its_twins_listed(tmp_path, capsys):
    """The contrib twins, and what the contrib model_fns of bench.port_real_code needed besides: a conv1d, optimize_loss's
    learning-rate variable and optimizer names, pretrained embeddings given through params as a constant, and lookup
    tables of strings (a feature's, and the labels' in the loss)."""
    target = tmp_path / "target.py"
    target.write_text(CONTRIB_TARGET)
    assert main(["port", str(target), "--out", str(tmp_path / "out"), "--steps", "2", "--no-serving"]) == 0
    assert "parity holds over 2 steps" in capsys.readouterr().out
    out = tmp_path / "out"
    report, source, pair = ((out / name).read_text() for name in ("PORT.md", "keras_model.py", "pair.py"))
    assert "keras.layers.Embedding(params['vocab'], 4, name='embed_sequence')" in source
    assert "self.pretrained = tf.constant(params['pretrained'], tf.float32)" in source
    assert "keras.layers.Conv1D(5, 3, padding='same', activation='relu', name='conv1d')" in source
    assert "keras.layers.Dense(5, activation='relu', name='fully_connected')" in source
    assert "keras.layers.Dense(3, name='logits')" in source
    assert "GradientDescent(learning_rate=0.1)" in source
    # params["optimizer"] selects the optimizer by optimize_loss's names; its "Momentum" is momentum 0.9
    assert "if name == 'Momentum':\n        return Momentum(learning_rate=0.1, momentum=0.9, use_nesterov=False)" in source
    assert "tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer([b'x', b'y', b'z'], [0, 1, 2], tf.string, " \
           "tf.int64), -1)" in source
    assert ".lookup(labels)" in source
    for construct, text in [("layers.embed_sequence", "embed_sequence("), ("layers.flatten", "flatten("),
                            ("layers.optimize_loss", "optimize_loss("), ("framework.get_global_step", "get_global_step")]:
        assert re.search(rf"`tf\.contrib\.{construct}` at \S*target\.py:{line_of(target, text)} ran as its TF1-core twin",
                         report), report
    assert "install_contrib()" in pair


RNN_TARGET = """
import numpy as np
import tensorflow as tf


def train_input_fn(params):
    rng = np.random.default_rng(0)
    features = {"x": rng.random((8, 4, 2), dtype=np.float32), "length": np.array([4, 2, 3, 1, 4, 4, 2, 3])}
    return tf.data.Dataset.from_tensor_slices((features, np.arange(8, dtype=np.int64) % 2)).repeat().batch(4)


def model_fn(features, labels, mode, params):
    forward = tf.compat.v1.nn.rnn_cell.LSTMCell(params["units"])
    backward = tf.compat.v1.nn.rnn_cell.LSTMCell(params["units"])
    both, _ = tf.compat.v1.nn.bidirectional_dynamic_rnn(forward, backward, features["x"], dtype=tf.float32)
    both = tf.concat(both, axis=2)
    cells = [tf.compat.v1.nn.rnn_cell.GRUCell(params["units"]),
             tf.compat.v1.nn.rnn_cell.DropoutWrapper(tf.compat.v1.nn.rnn_cell.GRUCell(params["units"]), output_keep_prob=1.0)]
    outputs, _ = tf.compat.v1.nn.dynamic_rnn(tf.compat.v1.nn.rnn_cell.MultiRNNCell(cells), both,
                                             sequence_length=features["length"], dtype=tf.float32, scope="stack")
    _, final = tf.compat.v1.nn.static_rnn(tf.compat.v1.nn.rnn_cell.GRUCell(params["units"]),
                                          tf.unstack(features["x"], axis=1), dtype=tf.float32, scope="steps")
    _, last = tf.compat.v1.nn.dynamic_rnn(tf.compat.v1.nn.rnn_cell.BasicLSTMCell(params["units"]), features["x"],
                                          sequence_length=features["length"], dtype=tf.float32, scope="last")
    encoding = tf.concat([tf.reduce_sum(outputs, axis=1), final, last.h], axis=1)
    gate = tf.compat.v1.layers.dense(encoding, 3 * params["units"], activation=tf.nn.sigmoid, name="gate")
    encoding = gate * encoding + (1.0 - gate) * tf.square(encoding)  # a highway: three readers of encoding
    logits = tf.compat.v1.layers.dense(encoding, 2, name="out")
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"logits": logits})
    loss = tf.compat.v1.losses.sparse_softmax_cross_entropy(labels, logits)
    if mode == tf.estimator.ModeKeys.EVAL:
        return tf.estimator.EstimatorSpec(mode, loss=loss)
    train_op = tf.compat.v1.train.GradientDescentOptimizer(0.5).minimize(
        loss, global_step=tf.compat.v1.train.get_or_create_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


PARAMS = {"units": 3}
"""
RNN_STEPS = 2


@pytest.fixture(scope="module")
def rnn_port(tmp_path_factory):
    """One port of a bidirectional LSTM feeding a stack of GRU cells with sequence lengths, beside a GRU under
    static_rnn over the unstacked steps and the last state of an LSTM with sequence lengths, checked over 2 steps."""
    directory = tmp_path_factory.mktemp("rnn")
    (directory / "target.py").write_text(RNN_TARGET)
    code = main(["port", str(directory / "target.py"), "--out", str(directory / "out"), "--steps", str(RNN_STEPS)])
    return code, directory / "out"


def test_bidirectional_stacked_and_static_rnn_cells_port_and_hold(rnn_port):
    code, out = rnn_port
    report, source = (out / "PORT.md").read_text(), (out / "keras_model.py").read_text()
    assert code == 0, report
    assert "keras.layers.Bidirectional(keras.layers.LSTM(params['units'], return_sequences=True, name='lstm'), " \
           "name='bidirectional_rnn')" in source
    assert "keras.layers.RNN([keras.layers.GRUCell(params['units'], reset_after=False, name='cell_0'), " \
           "keras.layers.GRUCell(params['units'], reset_after=False, name='cell_1')], return_sequences=True, " \
           "zero_output_for_mask=True, name='stack')" in source
    assert "mask=tf.sequence_mask(" in source
    assert "keras.layers.GRU(params['units'], reset_after=False, name='steps')" in source
    assert "keras.layers.LSTM(params['units'], name='last')" in source  # the last state's h: masked steps carry it
    assert "BasicLSTMCell under dynamic_rnn with sequence lengths" in report
    assert "GRUCell under static_rnn over tf.unstack(x, axis=1)" in report
    assert "GRUCell + GRUCell under dynamic_rnn with sequence lengths" in report
    assert "LSTMCell ×2 under bidirectional_dynamic_rnn, outputs concatenated" in report
    assert "rounding level: weights map through the transforms gru_bias, gru_kernel, lstm_bias, lstm_kernel" in report


def test_a_dropping_wrapper_is_left_to_the_refusal(tmp_path, capsys):
    body = """
    cell = tf.compat.v1.nn.rnn_cell.DropoutWrapper(tf.compat.v1.nn.rnn_cell.GRUCell(3), output_keep_prob=0.5)
    outputs, _ = tf.compat.v1.nn.dynamic_rnn(cell, features, dtype=tf.float32)
    encoding = outputs[:, -1, :]
    """
    target = write_target(tmp_path, body)
    assert main(["port", str(target), "--out", str(tmp_path / "out"), "--no-check"]) == 2
    assert f"target.py:{line_of(target, 'dynamic_rnn(')}" in capsys.readouterr().err


def tf221_python() -> Path:
    configured = os.environ.get("MIGRATE_TF221_PYTHON")
    return Path(configured) if configured else ROOT / ".venv-tf221" / "bin" / "python"


def test_the_rnn_port_holds_on_tf221_against_the_tf215_trace(rnn_port, tmp_path):
    """Keras 3's Bidirectional, stacked cells and masks train as the TF 2.15 Estimator did (the recorded trace)."""
    python = tf221_python()
    if not python.exists():
        pytest.fail(f"no TF 2.21 interpreter at {python} (set MIGRATE_TF221_PYTHON)")
    code, out = rnn_port
    assert code == 0
    trace = tmp_path / "trace.json"
    assert main(["parity", "--pair", str(out / "pair.py"), "--steps", str(RNN_STEPS), "--side", "legacy",
                 "--record", str(trace), "--out", str(tmp_path / "legacy")]) == 0
    result = subprocess.run(
        [str(python), "-m", "migrate", "parity", "--pair", str(out / "pair.py"), "--steps", str(RNN_STEPS),
         "--side", "modern", "--against", str(trace), "--forward-tolerance", "1e-6", "--loss-tolerance", "1e-5",
         "--serving-tolerance", "1e-5", "--out", str(tmp_path / "tf221")],  # PORT.md's rounding-level tolerances
        capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    summary = json.loads((tmp_path / "tf221" / "parity-summary.json").read_text())
    assert summary["versions"]["modern"]["tensorflow"].startswith("2.21"), summary["versions"]
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]


def test_a_gradient_summed_over_three_readers_is_named_and_checked_at_rounding_level(rnn_port):
    code, out = rnn_port
    report = (out / "PORT.md").read_text()
    assert code == 0, report
    assert "rounding level: the gradients of a tensor read by 3 or more ops are summed in another order" in report
    line = line_of(out.parent / "target.py", "encoding = tf.concat(")
    assert "concat_1 (" in report and f"target.py:{line}, 3 terms)" in report


def test_a_contrib_import_without_a_twin_is_named_as_the_reason_the_target_does_not_import(tmp_path, capsys):
    target = write_target(tmp_path, "encoding = tf.reshape(features, [-1, 6])\n")
    target.write_text("from tensorflow.contrib.slim import nets\n" + target.read_text())
    assert main(["port", str(target), "--out", str(tmp_path / "out"), "--no-check"]) == 2
    error = capsys.readouterr().err
    assert "target.py:1: the target does not import: `tensorflow.contrib.slim` is tf.contrib" in error
    assert "no TF1-core twin" in error


PER_STEP_TARGET = INPUT_FN + """
def model_fn(features, labels, mode, params):
    steps = features[:, :-1, :]  # a char-LM's outputs[:, :-1, :]: the time dimension is known, less one
    logits = tf.compat.v1.layers.dense(steps, params["units"], name="per_step")  # rank 3: tensordot + set_shape
    gate = tf.compat.v1.layers.dense(steps, params["units"], use_bias=False, name="gate")  # no bias: reshapes kept
    probabilities = tf.nn.softmax(logits * tf.sigmoid(gate), name="probabilities")
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"probabilities": probabilities})
    targets = tf.tile(labels[:, None], [1, 2])
    loss = tf.compat.v1.losses.sparse_softmax_cross_entropy(targets, logits)
    train_op = tf.compat.v1.train.GradientDescentOptimizer(0.5).minimize(
        loss, global_step=tf.compat.v1.train.get_or_create_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


PARAMS = {"units": 3}
"""


def test_a_rank3_dense_serves_the_static_shape_tf1_gives_it(tmp_path, capsys):
    """TF1's tensordot sets its output's shape from its input's static one (None, 2, 3); the port's reshapes read
    the same dimensions from the input's shape, so the served signatures have the same output shape: a dense layer
    with its bias is written as the Keras layer between two reshapes, one without keeps tensordot's ops."""
    target = tmp_path / "target.py"
    target.write_text(PER_STEP_TARGET)
    assert main(["port", str(target), "--out", str(tmp_path / "out"), "--steps", "2"]) == 0, capsys.readouterr().out[-3000:]
    out = capsys.readouterr().out
    assert "[ok] 6. serving (SavedModel signatures and answers): 2 signatures" in out, out[-3000:]
    source = (tmp_path / "out" / "keras_model.py").read_text()
    assert "self.per_step(tf.reshape(strided_slice, [-1, tf.shape(strided_slice)[-1]])), " \
           "tf.concat([tf.shape(strided_slice)[:-1], [self.per_step.units]], axis=0))" in source
    assert "keras.layers.Dense(params['units'], name='per_step')" in source and "TF1Variables" not in source
    assert "tf.gather(shape" not in source and "= shape[0:2]" in source  # the gate's tensordot, kept as ops
