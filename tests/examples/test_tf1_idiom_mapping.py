"""examples/tf1_idiom without its variable_map: the engine infers the same rows, LSTM transforms included.

Real TF1 `LSTMCell` variables from the Estimator graph, real `keras.layers.LSTM` weight paths; nothing is trained.
"""
from __future__ import annotations

import textwrap

import pytest

from migrate.cli import main
from tests.examples.helpers import EXAMPLES, load_pair

pytestmark = [pytest.mark.estimator, pytest.mark.filterwarnings("ignore::UserWarning")]


def test_the_lstm_pair_maps_by_itself_as_its_variable_map_says(tmp_path, capsys):
    variant = tmp_path / "pair.py"
    variant.write_text(textwrap.dedent(f"""\
        import sys
        sys.path.insert(0, {str(EXAMPLES / "tf1_idiom")!r})
        from pair import *
        variable_map = None
        """))
    assert main(["parity", "--pair", str(variant), "--show-mapping"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:] if not line.startswith("note:")]
    inferred = {}
    for row in rows:  # TF1 name, its shape's tokens, Keras name, its shape's tokens, transform, how
        keras_at = next(index for index, token in enumerate(row) if index and token.endswith(")")) + 1
        inferred.setdefault(row[0], []).append((row[keras_at], next(t for t in row[keras_at + 1:] if not t[0] in "(0123456789")))
    declared = {}
    for tf1, value in load_pair("tf1_idiom").variable_map.items():
        keras, transform = value if isinstance(value, tuple) else (value, "-")
        declared[tf1] = [(name, transform) for name in (keras if isinstance(keras, list) else [keras])]
    assert inferred == declared
