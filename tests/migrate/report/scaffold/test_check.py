"""`check.problems` and `check.runnable_part`: the acceptance criteria themselves must catch each violation."""
from __future__ import annotations

import pytest

from migrate.report.scaffold.check import problems, runnable_part

HEADER = "import keras\n\n\nclass C(keras.callbacks.Callback):\n"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        pytest.param("    def on_train_end(self, logs=None):\n        print(logs)\n", [], id="a clean scaffold"),
        pytest.param(
            "    def on_train_end(self, logs=None):\n        # TODO(migrate): import it\n        print(helper())\n", [],
            id="an undefined name on a TODO statement",
        ),
        pytest.param(
            "    def on_train_end(self, logs=None):\n        print(helper())\n",
            ["undefined name 'helper' on line(s) [6] without a TODO"], id="an undefined name without a TODO",
        ),
        pytest.param(
            "    def __init__(self, params):\n        super().__init__(params)\n",
            ["line 6: arguments passed to keras.callbacks.Callback.__init__"], id="arguments to Callback.__init__",
        ),
        pytest.param(
            "    def __init__(self, params):\n        super().__init__()\n        self.params = params\n",
            ["line 7: assigns self.params, which keras.callbacks.Callback owns"], id="an attribute Keras owns assigned",
        ),
        pytest.param(
            "    def set_model(self, model):\n        pass\n",
            ["line 5: class defines set_model, which keras.callbacks.Callback owns"], id="a method Keras owns redefined",
        ),
    ],
)
def test_problems(body: str, expected: list[str]) -> None:
    assert problems(HEADER + body) == expected


def test_a_file_that_does_not_parse_is_a_problem() -> None:
    assert problems("class C(:\n")[0].startswith("does not parse")


def test_runnable_part_drops_todo_methods_and_their_callers() -> None:
    source = HEADER + (
        "    def _graph(self):\n        # TODO(migrate): graph building\n        return tf.get_default_graph()\n\n"
        "    def on_train_begin(self, logs=None):\n        self._g = self._graph()\n\n"
        "    def on_train_end(self, logs=None):\n        print('done')\n"
    )
    code, kept = runnable_part(source)
    assert kept == ["on_train_end"] and "_graph" not in code and "on_train_begin" not in code
