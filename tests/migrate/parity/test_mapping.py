"""Which Keras weight each TF1 variable goes to: names, creation order, unique shapes, or a refusal."""
from __future__ import annotations

import pytest

from migrate.parity.mapping import MappingError, Weight, infer_mapping, mapping_table, normalise


def weights(*items):
    return [Weight(name, shape) for name, shape in items]


def how(matches):
    return [(m.legacy.name, m.modern.name, m.how) for m in matches]


def test_normalise_drops_the_output_index():
    assert normalise("scope/dense/kernel:0") == "scope/dense/kernel"


def test_exact_names_win_over_order():
    legacy = weights(("dense/kernel", (4, 3)), ("dense_1/kernel", (4, 3)))
    modern = weights(("dense_1/kernel:0", (4, 3)), ("dense/kernel:0", (4, 3)))
    assert how(infer_mapping(legacy, modern)) == [
        ("dense/kernel", "dense/kernel", "name"),
        ("dense_1/kernel", "dense_1/kernel", "name"),
    ]


def test_creation_order_when_names_differ_and_shapes_line_up():
    legacy = weights(("conv1/weights", (5, 5, 1, 20)), ("conv1/biases", (20,)), ("fc/weights", (20, 20)),
                     ("fc/biases", (20,)))
    modern = weights(("conv1/kernel", (5, 5, 1, 20)), ("conv1/bias", (20,)), ("fc/kernel", (20, 20)), ("fc/bias", (20,)))
    assert how(infer_mapping(legacy, modern)) == [
        ("conv1/weights", "conv1/kernel", "creation order"), ("conv1/biases", "conv1/bias", "creation order"),
        ("fc/weights", "fc/kernel", "creation order"), ("fc/biases", "fc/bias", "creation order"),
    ]


def test_unique_shapes_when_the_order_differs():
    legacy = weights(("a/w", (3, 4)), ("a/b", (4,)))
    modern = weights(("x/b", (4,)), ("x/w", (3, 4)))
    assert how(infer_mapping(legacy, modern)) == [("a/w", "x/w", "unique shape"), ("a/b", "x/b", "unique shape")]


def test_ambiguity_is_refused_with_the_candidates_and_the_variable_map_line():
    legacy = weights(("a/w", (3, 3)), ("b/w", (3, 3)), ("c/w", (3, 2)))
    modern = weights(("q/kernel", (3, 2)), ("p/kernel", (3, 3)), ("r/kernel", (3, 3)))
    with pytest.raises(MappingError) as raised:
        infer_mapping(legacy, modern)
    message = str(raised.value)
    assert "a/w (3, 3) could be any of: p/kernel, r/kernel" in message
    assert "variable_map = {'a/w': 'p/kernel', 'b/w': 'r/kernel'}" in message


def test_the_suggested_variable_map_settles_it():
    legacy = weights(("a/w", (3, 3)), ("b/w", (3, 3)), ("c/w", (3, 2)))
    modern = weights(("q/kernel", (3, 2)), ("p/kernel", (3, 3)), ("r/kernel", (3, 3)))
    matches = infer_mapping(legacy, modern, {"a/w": "r/kernel", "b/w": "p/kernel"})
    assert how(matches) == [("a/w", "r/kernel", "variable_map"), ("b/w", "p/kernel", "variable_map"),
                            ("c/w", "q/kernel", "creation order")]


def test_a_callable_variable_map():
    legacy = weights(("enc/w", (2, 2)), ("dec/w", (2, 2)))
    modern = weights(("decoder/kernel", (2, 2)), ("encoder/kernel", (2, 2)))
    rename = {"enc": "encoder", "dec": "decoder"}
    matches = infer_mapping(legacy, modern, lambda name: rename[name.split("/")[0]] + "/kernel")
    assert how(matches) == [("enc/w", "encoder/kernel", "variable_map"), ("dec/w", "decoder/kernel", "variable_map")]


def test_variable_map_naming_weights_that_do_not_exist():
    legacy = weights(("a/w", (2,)))
    modern = weights(("x/w", (2,)))
    with pytest.raises(MappingError, match=r"names the Keras weight 'nope/kernel', which build_model's model does not "
                                           r"have \(trainable weights: x/w\)"):
        infer_mapping(legacy, modern, {"a/w": "nope/kernel"})
    with pytest.raises(MappingError, match=r"names the TF1 variable 'ghost', which the model_fn does not create"):
        infer_mapping(legacy, modern, {"ghost": "x/w"})


def test_counts_that_cannot_match():
    with pytest.raises(MappingError, match=r"creates 2 trainable variables and build_model's model has 1 .*"
                                           r"Keras: x/w \(2, 2\)"):
        infer_mapping(weights(("a/w", (2, 2)), ("a/b", (2,))), weights(("x/w", (2, 2))))


def test_shapes_that_cannot_match():
    with pytest.raises(MappingError, match=r"no Keras weight has the shape of TF1 variable\(s\) a/b \(3,\)"):
        infer_mapping(weights(("a/w", (2, 3)), ("a/b", (3,))), weights(("x/b", (4,)), ("x/w", (2, 3))))


def test_the_table_shows_how_each_was_matched():
    table = mapping_table(infer_mapping(weights(("dense/kernel", (2, 3))), weights(("dense/kernel", (2, 3)))))
    assert table.splitlines()[1].split() == ["dense/kernel", "(2,", "3)", "dense/kernel", "(2,", "3)", "name"]
