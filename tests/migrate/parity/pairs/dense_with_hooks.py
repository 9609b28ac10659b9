"""dense.py with a hook and its callback twin: both stop training after step `stop_at` (the callback's own
`keras_stop_at` lets a test make the twin wrong)."""
from dense import *  # noqa: F403
from dense import PARAMS as BASE_PARAMS

PARAMS = {**BASE_PARAMS, "stop_at": 3}


class StopAfter(tf.keras.callbacks.Callback):  # noqa: F405
    """The twin of tf.compat.v1.train.StopAtStepHook(last_step=n): stop once step n has run."""

    def __init__(self, last_step: int) -> None:
        super().__init__()
        self.last_step = last_step

    def on_train_batch_end(self, batch, logs=None):
        if int(self.model.optimizer.iterations.numpy()) >= self.last_step:
            self.model.stop_training = True


def legacy_hooks(params):
    return [tf.compat.v1.train.StopAtStepHook(last_step=params["stop_at"])]  # noqa: F405


def modern_callbacks(params):
    return [StopAfter(params.get("keras_stop_at", params["stop_at"]))]
