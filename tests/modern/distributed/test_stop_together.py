"""`modern.distributed.stop_together` on one process (the 2-worker cluster runs in test_stops.py)."""
from __future__ import annotations

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
