"""How far a stock `keras.layers.LSTM` drifts from the TF1 `LSTMCell` model_fn (the README's last table rows).

    TF_ENABLE_ONEDNN_OPTS=0 python examples/tf1_idiom/keras_lstm_drift.py --optimizer sgd --steps 200

`migrate parity` cannot run this variant: its weight transfer copies
variables one to one, and a stock LSTM needs TF1's kernel split in two and
its gates reordered (`pair.tf1_lstm_to_keras_lstm`). This script does what
the engine does otherwise — build the TF1 graph from `model_fn`, copy its
initial weights (converted), train both sides on the same batches — and prints
the first batch's max |Δlogits| and the per-step loss difference.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from pathlib import Path

os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402


def load_pair():
    spec = importlib.util.spec_from_file_location("tf1_idiom_pair", Path(__file__).with_name("pair.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def tf1_run(pair, params: dict, steps: int) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray]:
    """Initial weights, first-batch logits and per-step losses of the TF1 model_fn."""
    with tf.Graph().as_default():
        tf.compat.v1.set_random_seed(int(params["seed"]))
        tf.compat.v1.train.get_or_create_global_step()
        features, labels = tf.compat.v1.data.make_one_shot_iterator(pair.train_input_fn(params)).get_next()
        spec = pair.model_fn(features, labels, tf.estimator.ModeKeys.TRAIN, params)
        logits = tf.compat.v1.get_default_graph().get_tensor_by_name("rnn_classifier/xw_plus_b:0")
        with tf.compat.v1.Session() as session:
            session.run(tf.compat.v1.global_variables_initializer())
            initial = session.run({v.op.name: v for v in tf.compat.v1.trainable_variables()})
            first_logits, _, first_loss = session.run([logits, spec.train_op, spec.loss])
            losses = [first_loss] + [session.run([spec.train_op, spec.loss])[1] for _ in range(steps - 1)]
    return initial, first_logits, np.array(losses)


def keras_run(pair, params: dict, initial: dict[str, np.ndarray], steps: int) -> tuple[np.ndarray, np.ndarray]:
    """First-batch logits and per-step losses of a stock keras.layers.LSTM model from the converted weights."""
    model = pair.build_model({**params, "rnn": "keras_lstm"})
    scope = "rnn_classifier"
    model.get_layer("rnn").set_weights(pair.tf1_lstm_to_keras_lstm(
        initial[f"{scope}/rnn/lstm_cell/kernel"], initial[f"{scope}/rnn/lstm_cell/bias"]))
    model.get_layer("dense").set_weights([initial[f"{scope}/dense/kernel"], initial[f"{scope}/dense/bias"]])
    model.get_layer("logits").set_weights([initial[f"{scope}/logits/weights"], initial[f"{scope}/logits/biases"]])

    @tf.function
    def train_step(images, labels):
        with tf.GradientTape() as tape:
            logits = model(images, training=True)
            loss = model.compute_loss(images, labels, logits)
        model.optimizer.minimize(loss, model.trainable_variables, tape=tape)
        return logits, loss

    first_logits, losses = None, []
    for images, labels in pair.train_dataset(params).take(steps):
        logits, loss = train_step(images, labels)
        first_logits = logits.numpy() if first_logits is None else first_logits
        losses.append(loss.numpy())
    return first_logits, np.array(losses)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--optimizer", choices=("sgd", "adam"), default="sgd")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--seed", type=int, default=42, help="as `migrate parity --seed` (default 42)")
    args = parser.parse_args(argv)
    pair = load_pair()
    params = {**pair.PARAMS, "optimizer": args.optimizer, "learning_rate": pair.LEARNING_RATES[args.optimizer],
              "seed": args.seed}
    initial, tf1_logits, tf1_losses = tf1_run(pair, params, args.steps)
    keras_logits, keras_losses = keras_run(pair, params, initial, args.steps)
    difference = np.abs(tf1_losses - keras_losses)
    differing = np.flatnonzero(difference)
    print(f"keras.layers.LSTM vs TF1 LSTMCell, {args.optimizer} {params['learning_rate']:g}, seed {args.seed}")
    print(f"  first batch max |Δlogits|: {np.abs(tf1_logits - keras_logits).max():.2g}")
    print(f"  {args.steps} steps: max |Δloss| {difference.max():.2g}, max relative "
          f"{(difference / np.abs(tf1_losses)).max():.2g}, first differing step "
          f"{differing[0] + 1 if differing.size else '—'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
