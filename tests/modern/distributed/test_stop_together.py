"""`modern.distributed.stop_together` on one process (the 2-worker cluster runs in test_stops.py)."""
from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
from tensorflow import keras

from modern.distributed.stop_together import StopTogether


def test_stop_together_passes_a_stop_through_on_one_process():
    class UserStop(keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            self.model.stop_training = int(self.model.optimizer.iterations.numpy()) == 2

    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    callback = StopTogether()
    model.fit(np.zeros((8, 1)), np.zeros(8), batch_size=1, epochs=2, verbose=0, callbacks=[UserStop(), callback])
    assert int(model.optimizer.iterations.numpy()) == 2 == callback.stopped_at


def test_every_stand_alone_copy_of_the_cross_worker_vote_is_the_same_as_this_one():
    """`_any_worker` is copied into each callback file that stops training (so each file can be copied alone);
    the copies must not drift from `modern/distributed/stop_together.py`'s."""
    modern = Path(__file__).resolve().parents[3] / "modern"

    def vote_source(path: Path) -> str | None:
        source = path.read_text(encoding="utf-8")
        for node in ast.parse(source).body:
            if isinstance(node, ast.FunctionDef) and node.name == "_any_worker":
                return ast.get_source_segment(source, node)
        return None

    reference = vote_source(modern / "distributed" / "stop_together.py")
    copies = {path.name: vote_source(path) for path in sorted(modern.rglob("*.py"))}
    copies = {name: text for name, text in copies.items() if text is not None and name != "stop_together.py"}
    assert len(copies) >= 4, copies.keys()
    assert {name: text == reference for name, text in copies.items()} == dict.fromkeys(copies, True)
