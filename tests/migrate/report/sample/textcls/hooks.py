"""Official-models-style hooks and a hook helper."""
import time

import tensorflow as tf
from tensorflow.python import debug as tf_debug


class ExamplesPerSecondHook(tf.estimator.SessionRunHook):  # expect: TFM201
    def __init__(self, batch_size, every_n_steps=100):
        self._batch_size = batch_size
        self._timer = tf.train.SecondOrStepTimer(every_steps=every_n_steps)  # expect: TFM514
        self._total_steps = 0

    def begin(self):
        self._global_step_tensor = tf.train.get_global_step()  # expect: TFM206, TFM511
        if self._global_step_tensor is None:
            raise RuntimeError("Global step should be created to use this hook.")

    def before_run(self, run_context):
        return tf.train.SessionRunArgs(self._global_step_tensor)  # expect: TFM203

    def after_run(self, run_context, run_values):
        global_step = run_values.results
        if self._timer.should_trigger_for_step(global_step):
            elapsed, steps = self._timer.update_last_triggered_step(global_step)
            if elapsed is not None:
                self._total_steps += steps
                tf.logging.info("examples/sec: %g", self._batch_size * steps / elapsed)  # expect: TFM503


class StopAfterHook(tf.train.SessionRunHook):  # expect: TFM201
    def __init__(self, last_step):
        self._last_step = last_step

    def after_create_session(self, session, coord):
        self._step_tensor = tf.train.get_global_step()  # expect: TFM511
        self._start = session.run(self._step_tensor)  # expect: TFM205

    def after_run(self, run_context, run_values):
        sess = run_context.session
        if sess.run(self._step_tensor) >= self._last_step:  # expect: TFM205
            run_context.request_stop()  # expect: TFM204


class WaitingHook(ExamplesPerSecondHook, tf.train.GlobalStepWaiterHook):  # expect: TFM201
    def end(self, session):
        self.finished_at = time.time()


class Timer:
    """Not a hook: a `run` method and a `request_stop` elsewhere are not session calls."""

    def after_run(self, coord):
        coord.request_stop()
        self.runner.run()


def get_train_hooks(names, batch_size, tensors_to_log):
    hooks = []
    for name in names:
        if name == "loggingtensorhook":
            hooks.append(tf.train.LoggingTensorHook(tensors=tensors_to_log, every_n_iter=100))  # expect: TFM202
        elif name == "profilerhook":
            hooks.append(tf.estimator.ProfilerHook(save_steps=1000, output_dir="/tmp/profile"))  # expect: TFM202
        elif name == "examplespersecondhook":
            hooks.append(ExamplesPerSecondHook(batch_size))  # expect: TFM208
        elif name == "debug":
            hooks.append(tf_debug.LocalCLIDebugHook())  # expect: TFM207
    return hooks
