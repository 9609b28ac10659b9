"""SessionRunHook subclasses found across files: the whole-codebase pass (TFM201, TFM204–206)."""
from __future__ import annotations

from pathlib import Path

import pytest


def hooks_of(report) -> dict[str, list[str]]:
    """full class name → its chain of bases."""
    return {hook.full_name: hook.chain for hook in report.hooks}


def test_direct_subclass_with_method_mapping(write, run_scan) -> None:
    path = write(
        "hooks.py",
        """
        import tensorflow as tf

        class CountHook(tf.train.SessionRunHook):
            def begin(self):
                pass
            def after_run(self, run_context, run_values):
                pass
            def end(self, session):
                pass
        """,
    )
    report = run_scan(path)
    (hook,) = report.hooks
    assert [(method.name, method.callback) for method in hook.methods] == [
        ("begin", "on_train_begin"), ("after_run", "on_train_batch_end"), ("end", "on_train_end"),
    ]
    (finding,) = [finding for finding in report.findings if finding.code == "TFM201"]
    assert finding.line == 4
    assert "`after_run` → `on_train_batch_end`" in finding.message


def test_transitive_across_modules_with_relative_imports(write, run_scan, tmp_path: Path) -> None:
    write("proj/__init__.py", "'''package'''\n")
    write("proj/hooks/__init__.py", "'''package'''\n")
    write(
        "proj/hooks/base.py",
        """
        from tensorflow.python.training import session_run_hook

        class BaseHook(session_run_hook.SessionRunHook):
            def before_run(self, run_context):
                pass
        """,
    )
    write(
        "proj/hooks/middle.py",
        """
        from . import base

        class MiddleHook(base.BaseHook):
            def after_run(self, run_context, run_values):
                pass
        """,
    )
    write(
        "proj/train.py",
        """
        from .hooks.middle import MiddleHook as Middle

        class Mixin:
            def log(self):
                pass

        class LeafHook(Mixin, Middle):
            def end(self, session):
                pass

        class NotAHook(Mixin):
            pass
        """,
    )
    report = run_scan(tmp_path / "proj")
    assert hooks_of(report) == {
        "proj.hooks.base.BaseHook": ["tf.train.SessionRunHook"],
        "proj.hooks.middle.MiddleHook": ["BaseHook", "tf.train.SessionRunHook"],
        "proj.train.LeafHook": ["MiddleHook", "BaseHook", "tf.train.SessionRunHook"],
    }
    leaf = next(hook for hook in report.hooks if hook.name == "LeafHook")
    assert [(method.name, method.defined_in) for method in leaf.methods] == [
        ("before_run", "BaseHook"), ("after_run", "MiddleHook"), ("end", "LeafHook"),
    ]
    message = next(finding.message for finding in report.findings if finding.code == "TFM201" and "LeafHook" in finding.message)
    assert "`before_run` (inherited from `BaseHook`) → `on_train_batch_begin`" in message


def test_absolute_imports_between_sibling_scripts(write, run_scan, tmp_path: Path) -> None:
    write("scripts/common.py", "import tensorflow as tf\nclass Base(tf.estimator.SessionRunHook):\n    pass\n")
    write("scripts/run.py", "import common\nclass Mine(common.Base):\n    pass\n")
    assert hooks_of(run_scan(tmp_path / "scripts")) == {
        "common.Base": ["tf.estimator.SessionRunHook"],
        "run.Mine": ["Base", "tf.estimator.SessionRunHook"],
    }


def test_re_exported_base_is_followed(write, run_scan, tmp_path: Path) -> None:
    write("lib/__init__.py", "from lib.impl import Base\n")
    write("lib/impl.py", "import tensorflow.compat.v1 as tf\nclass Base(tf.train.SessionRunHook):\n    pass\n")
    write("app.py", "import lib\nclass Mine(lib.Base):\n    pass\n")
    assert "app.Mine" in hooks_of(run_scan(tmp_path))


def test_subclass_of_a_builtin_hook(write, run_scan) -> None:
    path = write("mine.py", "import tensorflow as tf\nclass Quiet(tf.train.LoggingTensorHook):\n    def after_run(self, run_context, run_values):\n        pass\n")
    (hook,) = run_scan(path).hooks
    assert hook.tensorflow_base == "tensorflow.train.LoggingTensorHook"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param("class Hook:\n    def after_run(self, run_context, run_values):\n        pass\n", id="protocol-shaped class without the base"),
        pytest.param("import keras\nclass C(keras.callbacks.Callback):\n    pass\n", id="a Keras callback"),
        pytest.param("from unknown import Base\nclass C(Base):\n    pass\n", id="an unresolvable base"),
        pytest.param("class A(B):\n    pass\nclass B(A):\n    pass\n", id="a cycle of bases"),
    ],
)
def test_not_hooks(source: str, write, run_scan) -> None:
    assert run_scan(write("other.py", source)).hooks == []


def test_hook_uses_get_concrete_advice(write, run_scan) -> None:
    path = write(
        "hooks.py",
        """
        import tensorflow as tf

        class StopHook(tf.train.SessionRunHook):
            def begin(self):
                self._step = tf.train.get_global_step()
                tf.logging.info("not graph building")
            def after_create_session(self, session, coord):
                self._start = session.run(self._step)
            def before_run(self, run_context):
                return tf.train.SessionRunArgs(self._step)
            def after_run(self, run_context, run_values):
                if run_values.results > 10:
                    run_context.request_stop()
        """,
    )
    report = run_scan(path, select=("TFM2",))
    by_code = {finding.code: finding for finding in report.findings}
    assert sorted(by_code) == ["TFM201", "TFM203", "TFM204", "TFM205", "TFM206"]
    assert by_code["TFM204"].line == 14 and "self.model.stop_training = True" in by_code["TFM204"].message
    assert by_code["TFM205"].line == 9 and "on_train_begin" in by_code["TFM205"].message
    assert by_code["TFM206"].line == 6 and "`tf.train.get_global_step`" in by_code["TFM206"].message


def test_request_stop_outside_hooks_is_not_reported(write, run_scan) -> None:
    path = write("coord.py", "import tensorflow as tf\nclass Loop:\n    def after_run(self, coord):\n        coord.request_stop()\n")
    assert run_scan(path, select=("TFM204",)).findings == []


def test_hook_map_names_the_callback(write, run_scan, tmp_path: Path) -> None:
    callbacks = tmp_path / "modern" / "callbacks"
    write(
        "modern/callbacks/logging_tensor.py",
        """
        TF1_EQUIVALENT = {
            "hooks": ["LoggingTensorHook"],
            "callback": "LoggingTensor",
            "methods": {"after_run": "on_train_batch_end"},
            "differences": ["values come from logs"],
        }
        class LoggingTensor:
            pass
        """,
    )
    path = write("train.py", "import tensorflow as tf\nclass Mine(tf.train.LoggingTensorHook):\n    pass\nh = tf.train.LoggingTensorHook({}, every_n_iter=1)\n")
    report = run_scan(path, callbacks_dir=callbacks)
    messages = {finding.code: finding.message for finding in report.findings}
    assert "start from `LoggingTensor` in modern/callbacks/logging_tensor.py" in messages["TFM201"]
    assert "use `LoggingTensor` from modern/callbacks/logging_tensor.py" in messages["TFM202"]
    assert "values come from logs" in messages["TFM202"]


def test_without_hook_map_advice_is_generic(write, run_scan) -> None:
    path = write("train.py", "import tensorflow as tf\nh = tf.train.StopAtStepHook(last_step=3)\n")
    (finding,) = run_scan(path).findings
    assert "no callback in modern/callbacks answers it yet" in finding.message


def test_every_hook_base_contributes_its_methods(write, run_scan) -> None:
    path = write(
        "hooks.py",
        """
        import tensorflow as tf

        class TrainingHook(tf.train.SessionRunHook):
            def after_run(self, run_context, run_values):
                pass

        class Waiter(TrainingHook, tf.train.GlobalStepWaiterHook):
            def end(self, session):
                pass
        """,
    )
    report = run_scan(path)
    waiter = next(hook for hook in report.hooks if hook.name == "Waiter")
    assert waiter.tensorflow_bases == ["tensorflow.train.GlobalStepWaiterHook"]
    assert [(method.name, method.defined_in) for method in waiter.methods] == [
        ("begin", "tf.train.GlobalStepWaiterHook"), ("before_run", "tf.train.GlobalStepWaiterHook"),
        ("after_run", "TrainingHook"), ("end", "Waiter"),
    ]
    (finding,) = [finding for finding in report.findings if finding.code == "TFM201" and finding.line == 8]
    assert "`begin` (inherited from `tf.train.GlobalStepWaiterHook`) → `on_train_begin`" in finding.message
