"""One before/after fixture per transformation (LibCST codemod style): TF1 hook source in, scaffold out."""
from __future__ import annotations

BASE = '''
import tensorflow as tf


class BaseHook(tf.train.SessionRunHook):
    def __init__(self, every_n):
        super(BaseHook, self).__init__()
        self._every_n = every_n
'''


def test_constructor_keeps_arguments_for_an_in_repo_base_and_none_for_keras(scaffold_of) -> None:
    before = '''
    from proj.base import BaseHook


    class CountHook(BaseHook):
        def __init__(self, every_n, name):
            BaseHook.__init__(self, every_n)
            self._name = name

        def end(self, session):
            print(self._name, self._every_n)
    '''
    after = '''import keras


class CountCallback(keras.callbacks.Callback):
    """Replaces `proj.hooks.CountHook` (derives from BaseHook ← tf.train.SessionRunHook).

    Phase: unknown: no train/evaluate/predict(hooks=…), EstimatorSpec(*_hooks=…) or
    MonitoredSession(hooks=…) in the scanned code passes it, so on_train_* methods were
    generated; rename them on_test_*/on_predict_* if it runs in evaluate/predict.
    """

    def __init__(self, every_n, name):
        self._init_base_hook(every_n)
        self._name = name

    # BaseHook.__init__ (from proj.base), reached through super() in the TF1 hierarchy
    def _init_base_hook(self, every_n):
        super().__init__()
        self._every_n = every_n

    def on_train_end(self, logs=None):
        # moved from CountHook.end(session)
        print(self._name, self._every_n)
'''
    assert scaffold_of({"proj/base.py": BASE, "proj/hooks.py": before}, "count_callback.py") == after


def test_constructor_of_a_builtin_base_is_called_without_arguments_and_says_so(scaffold_of) -> None:
    before = '''
    import tensorflow as tf


    class RateHook(tf.train.StepCounterHook):
        def __init__(self, n):
            super(RateHook, self).__init__(every_n_steps=n)
    '''
    after = '''import keras


class RateCallback(keras.callbacks.Callback):
    """Replaces `proj.hooks.RateHook` (derives from tf.train.StepCounterHook).

    Phase: unknown: no train/evaluate/predict(hooks=…), EstimatorSpec(*_hooks=…) or
    MonitoredSession(hooks=…) in the scanned code passes it, so on_train_* methods were
    generated; rename them on_test_*/on_predict_* if it runs in evaluate/predict.
    """

    def __init__(self, n):
        # TODO(migrate): the TF1 base `tf.train.StepCounterHook` was configured here; keras.callbacks.Callback takes no arguments: do its work in this callback
        super().__init__()
'''
    assert scaffold_of({"proj/hooks.py": before}, "rate_callback.py") == after


def test_attributes_keras_owns_are_renamed_across_the_class_and_its_bases(scaffold_of) -> None:
    base = '''
    import tensorflow as tf


    class ParamsHook(tf.train.SessionRunHook):
        def __init__(self, params):
            self.params = params

        def set_model(self, model):
            self.model = model
    '''
    before = '''
    from proj.base import ParamsHook


    class EvalHook(ParamsHook):
        def after_create_session(self, session, coord):
            self.set_model(self.params["model"])

        def end(self, session):
            print(self.model, self.params["steps"])
    '''
    after = '''import keras


class EvalCallback(keras.callbacks.Callback):
    """Replaces `proj.hooks.EvalHook` (derives from ParamsHook ← tf.train.SessionRunHook).

    Phase: unknown: no train/evaluate/predict(hooks=…), EstimatorSpec(*_hooks=…) or
    MonitoredSession(hooks=…) in the scanned code passes it, so on_train_* methods were
    generated; rename them on_test_*/on_predict_* if it runs in evaluate/predict.
    """

    # self.model → self.hook_model: Keras' set_model() overwrites it with the Keras model (a read-only property in Keras 3)
    # self.params → self.hook_params: Keras' set_params() overwrites it at the start of every fit/evaluate/predict
    # self.set_model → self.hook_set_model: keras.callbacks.Callback defines it

    def __init__(self, params):
        # keras.callbacks.Callback.__init__ sets the attributes Keras reads
        super().__init__()
        self.hook_params = params

    def hook_set_model(self, model):
        self.hook_model = model

    def on_train_begin(self, logs=None):
        # moved from EvalHook.after_create_session(session, coord)
        self.hook_set_model(self.hook_params["model"])

    def on_train_end(self, logs=None):
        # moved from EvalHook.end(session)
        print(self.hook_model, self.hook_params["steps"])
'''
    assert scaffold_of({"proj/base.py": base, "proj/hooks.py": before}, "eval_callback.py") == after


def test_imports_follow_the_module_each_moved_method_came_from_and_its_constants_are_copied(scaffold_of) -> None:
    base = '''
    import numpy as np
    import tensorflow as tf
    from proj import graph_utils


    class TensorHook(tf.train.SessionRunHook):
        def __init__(self, names):
            self._names = names

        def after_create_session(self, session, coord):
            self._tensors = graph_utils.lookup(self._names)
    '''
    before = '''
    import os

    from .base import TensorHook

    _PREFIX = "step"


    class DumpHook(TensorHook):
        def end(self, session):
            print(os.sep.join([_PREFIX, str(self._tensors)]), undefined_helper())
    '''
    after = '''import os
from proj import graph_utils
import keras


# copied from proj.hooks: importing it would run that module's TF1 code
_PREFIX = "step"


class DumpCallback(keras.callbacks.Callback):
    """Replaces `proj.hooks.DumpHook` (derives from TensorHook ← tf.train.SessionRunHook).

    Phase: unknown: no train/evaluate/predict(hooks=…), EstimatorSpec(*_hooks=…) or
    MonitoredSession(hooks=…) in the scanned code passes it, so on_train_* methods were
    generated; rename them on_test_*/on_predict_* if it runs in evaluate/predict.
    """

    def __init__(self, names):
        # keras.callbacks.Callback.__init__ sets the attributes Keras reads
        super().__init__()
        self._names = names

    def on_train_begin(self, logs=None):
        # moved from TensorHook.after_create_session(session, coord)
        self._tensors = graph_utils.lookup(self._names)

    def on_train_end(self, logs=None):
        # moved from DumpHook.end(session)
        # TODO(migrate): `undefined_helper` is not defined here and could not be imported from `proj.hooks`: import or define it
        print(os.sep.join([_PREFIX, str(self._tensors)]), undefined_helper())
'''
    assert scaffold_of({"proj/base.py": base, "proj/graph_utils.py": "def lookup(names):\n    return names\n", "proj/hooks.py": before}, "dump_callback.py") == after


def test_phase_follows_where_the_code_passes_the_hook(scaffold_of) -> None:
    before = '''
    import tensorflow as tf


    class CountHook(tf.train.SessionRunHook):
        def begin(self):
            self._count = 0

        def after_run(self, run_context, run_values):
            self._count += 1


    def model_fn(features, labels, mode):
        return tf.estimator.EstimatorSpec(mode, prediction_hooks=[CountHook()])


    def evaluate(estimator, input_fn):
        hooks = []
        hooks.append(CountHook())
        return estimator.evaluate(input_fn, hooks=hooks)
    '''
    after = '''import keras


class CountCallback(keras.callbacks.Callback):
    """Replaces `proj.hooks.CountHook` (derives from tf.train.SessionRunHook).

    Phase: evaluate, predict (where the scanned code passes it as a hook).
    """

    def on_test_begin(self, logs=None):
        # moved from CountHook.begin()
        self._count = 0

    def on_predict_begin(self, logs=None):
        self.on_test_begin(logs)

    def on_test_batch_end(self, batch, logs=None):
        # moved from CountHook.after_run(run_context, run_values)
        self._count += 1

    def on_predict_batch_end(self, batch, logs=None):
        self.on_test_batch_end(batch, logs)
'''
    assert scaffold_of({"proj/hooks.py": before}, "count_callback.py") == after


def test_two_space_bodies_are_reindented_to_four_with_their_comments(scaffold_of) -> None:
    before = '''
    import tensorflow as tf


    class EveryHook(tf.train.SessionRunHook):
      def __init__(self, n):
        self._n = n  # how often
        self._seen = 0

      def after_run(self, run_context, run_values):
        # count first
        self._seen += 1
        if self._seen % self._n == 0:
          message = """kept
      as written"""
          print(message)
    '''
    after = '''import keras


class EveryCallback(keras.callbacks.Callback):
    """Replaces `proj.hooks.EveryHook` (derives from tf.train.SessionRunHook).

    Phase: unknown: no train/evaluate/predict(hooks=…), EstimatorSpec(*_hooks=…) or
    MonitoredSession(hooks=…) in the scanned code passes it, so on_train_* methods were
    generated; rename them on_test_*/on_predict_* if it runs in evaluate/predict.
    """

    def __init__(self, n):
        # keras.callbacks.Callback.__init__ sets the attributes Keras reads
        super().__init__()
        self._n = n  # how often
        self._seen = 0

    def on_train_batch_end(self, batch, logs=None):
        # moved from EveryHook.after_run(run_context, run_values)
        # count first
        self._seen += 1
        if self._seen % self._n == 0:
            message = """kept
  as written"""
            print(message)
'''
    assert scaffold_of({"proj/hooks.py": before}, "every_callback.py") == after
