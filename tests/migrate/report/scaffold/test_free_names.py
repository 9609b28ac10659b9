"""`undefined_names`: Python's own scope rules, with the lines each undefined global is read on."""
from __future__ import annotations

import textwrap

import pytest

from migrate.report.scaffold.free_names import undefined_names


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("import os\nprint(os.sep, len([]))\n", id="imports and builtins"),
        pytest.param("def f(a, *args, b=1, **kw):\n    c = a\n    return [x for x in args if x > c], b, kw\n", id="parameters, locals, comprehension targets"),
        pytest.param("def outer():\n    v = 1\n    def inner():\n        return v\n    return inner\n", id="closures"),
        pytest.param("class A:\n    def f(self):\n        return A, self.g\n", id="the class's own name inside its methods"),
        pytest.param("G = None\ndef f():\n    global G\n    G = 1\ndef g():\n    return G\n", id="global bound at module level and in a function"),
        pytest.param("try:\n    import json\nexcept ImportError:\n    json = None\nprint(json)\n", id="conditional import"),
    ],
)
def test_nothing_undefined(code: str) -> None:
    assert undefined_names(code) == {}


def test_undefined_names_and_their_lines() -> None:
    code = textwrap.dedent(
        """
        class A(Base):
            size = LIMIT
            def f(self, a=default):
                b = [q for q in items if q > low]
                return lambda t: t + offset, graph_utils.find(b)
        """
    )
    assert undefined_names(code) == {
        "Base": [2], "LIMIT": [3], "default": [4], "graph_utils": [6], "items": [5], "low": [5], "offset": [6],
    }


def test_a_global_only_a_function_assigns_is_undefined_until_it_runs() -> None:
    assert undefined_names("def f():\n    global G\n    if G is None:\n        G = 1\n") == {"G": [3]}


def test_a_class_attribute_is_not_visible_inside_a_method() -> None:
    assert undefined_names("class A:\n    X = 1\n    def f(self):\n        return X\n") == {"X": [4]}
