"""`modern.distributed.stop_together` on one process (the 2-worker cluster runs in test_stops.py)."""
from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest
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



def function_source(path: Path, name: str) -> str | None:
    source = path.read_text(encoding="utf-8")
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return ast.get_source_segment(source, node)
    return None


@pytest.mark.parametrize(("name", "reference", "at_least"), [
    ("_any_worker", "callbacks/stop_on_condition.py", 3),
    ("global_step", "callbacks/checkpoint_saver.py", 2),
])
def test_every_stand_alone_copy_of_a_shared_helper_is_the_same_as_the_reference(name, reference, at_least):
    """Helpers copied into callback files (so each file can be copied alone) must not drift from the reference."""
    modern = Path(__file__).resolve().parents[3] / "modern"
    expected = function_source(modern / reference, name)
    copies = {str(path.relative_to(modern)): function_source(path, name) for path in sorted(modern.rglob("*.py"))}
    copies = {where: text for where, text in copies.items() if text is not None and where != reference}
    assert len(copies) >= at_least, sorted(copies)
    assert {where: text == expected for where, text in copies.items()} == dict.fromkeys(copies, True)
