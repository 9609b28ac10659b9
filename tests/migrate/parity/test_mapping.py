"""Which Keras weight each TF1 variable goes to: names, cell layouts, unique shapes, creation order, or a refusal."""
from __future__ import annotations

import numpy as np
import pytest

from migrate.core.mapping import (
    MappingError,
    Weight,
    infer_mapping,
    mapping_table,
    normalise,
    split_variable_map,
    to_keras_layout,
    to_tf1_layout,
    unique_names,
)
from migrate.core.transforms import TransformError, function
from migrate.parity.stages import check_order_guesses


def weights(*items):
    return [Weight(name, shape) for name, shape in items]


def how(matches):
    return [(m.tf1_label, m.modern.name, m.how) for m in matches]


def transforms(matches):
    return [(m.tf1_label, m.modern.name, m.transform_name) for m in matches]


def test_normalise_drops_the_output_index():
    assert normalise("scope/dense/kernel:0") == "scope/dense/kernel"


def test_exact_names_win_over_order():
    legacy = weights(("dense/kernel", (4, 3)), ("dense_1/kernel", (4, 3)))
    modern = weights(("dense_1/kernel:0", (4, 3)), ("dense/kernel:0", (4, 3)))
    assert how(infer_mapping(legacy, modern)) == [
        ("dense/kernel", "dense/kernel", "name"),
        ("dense_1/kernel", "dense_1/kernel", "name"),
    ]


def test_names_match_without_the_scope_and_with_tf1_suffixes():
    legacy = weights(("model/conv1/weights", (5, 5, 1, 20)), ("model/conv1/biases", (20,)), ("model/fc/W", (20, 20)))
    modern = weights(("conv1/kernel", (5, 5, 1, 20)), ("conv1/bias", (20,)), ("fc/kernel", (20, 20)))
    assert [m.how for m in infer_mapping(legacy, modern)] == ["name", "name", "name"]


def test_creation_order_when_names_differ_and_shapes_line_up():
    legacy = weights(("h1/w", (20, 20)), ("h1/b", (20,)), ("h2/w", (20, 20)), ("h2/b", (20,)))
    modern = weights(("dense/kernel", (20, 20)), ("dense/bias", (20,)), ("dense_1/kernel", (20, 20)),
                     ("dense_1/bias", (20,)))
    assert how(infer_mapping(legacy, modern)) == [
        ("h1/w", "dense/kernel", "creation order"), ("h1/b", "dense/bias", "creation order"),
        ("h2/w", "dense_1/kernel", "creation order"), ("h2/b", "dense_1/bias", "creation order"),
    ]


def test_keras_creation_rank_not_the_topological_listing_decides_the_order():
    legacy = weights(("block/w", (3, 3)), ("shortcut/w", (3, 3)))
    # a functional model lists the shortcut after the block; its weights were created first
    modern = [Weight("dense_1/kernel", (3, 3), order=20), Weight("dense/kernel", (3, 3), order=10)]
    assert how(infer_mapping(legacy, modern)) == [("block/w", "dense/kernel", "creation order"),
                                                  ("shortcut/w", "dense_1/kernel", "creation order")]


def test_unique_shapes_when_the_order_differs():
    legacy = weights(("a/w", (3, 4)), ("a/b", (4,)))
    modern = weights(("x/b", (4,)), ("x/w", (3, 4)))
    assert how(infer_mapping(legacy, modern)) == [("a/w", "x/w", "unique shape"), ("a/b", "x/b", "unique shape")]


def test_an_inferred_transform_when_exactly_one_fits():
    legacy = weights(("attention/q/w", (8, 8)), ("attention/q/b", (8,)), ("attention/out/w", (8, 8)),
                     ("text/conv/filter", (3, 8, 1, 4)), ("output/w", (10, 4)))
    modern = weights(("mha/query/kernel", (8, 2, 4)), ("mha/query/bias", (2, 4)), ("mha/attention_output/kernel", (2, 4, 8)),
                     ("conv1d/kernel", (3, 8, 4)), ("logits/kernel", (4, 10)))
    assert transforms(infer_mapping(legacy, modern)) == [
        ("attention/q/w", "mha/query/kernel", "mha_qkv_kernel"), ("attention/q/b", "mha/query/bias", "mha_qkv_bias"),
        ("attention/out/w", "mha/attention_output/kernel", "mha_output_kernel"),
        ("text/conv/filter", "conv1d/kernel", "conv2d_as_conv1d"), ("output/w", "logits/kernel", "transposed_dense"),
    ]


def test_a_transform_whose_output_shape_does_not_fit_is_never_inferred():
    legacy = weights(("q/w", (8, 8)))
    modern = weights(("mha/query/kernel", (8, 3, 3)))  # 72 elements, but not (8, h, k) with h*k = 8
    with pytest.raises(MappingError, match=r"q/w \(8, 8\), 64 elements"):
        infer_mapping(legacy, modern)


def bert_like(layers):
    """google-research/bert's TF1 variables (LayerNorm: beta before gamma) and an idiomatic Keras rebuild's weights."""
    d, heads, head_dim, inner, classes = 8, 2, 4, 16, 2  # 2 classes: output_weights (2, d) like token types (2, d)
    legacy = [("bert/embeddings/word_embeddings", (50, d)), ("bert/embeddings/token_type_embeddings", (2, d)),
              ("bert/embeddings/position_embeddings", (d, d)), ("bert/embeddings/LayerNorm/beta", (d,)),
              ("bert/embeddings/LayerNorm/gamma", (d,))]
    modern = [("word_embeddings/embeddings", (50, d)), ("token_type_embeddings/embeddings", (2, d)),
              ("position_embeddings/embeddings", (d, d)), ("embeddings_norm/gamma", (d,)), ("embeddings_norm/beta", (d,))]
    for layer in range(layers):
        tf1, keras = f"bert/encoder/layer_{layer}/", f"layer_{layer}_"
        for name in ("query", "key", "value"):
            legacy += [(f"{tf1}attention/self/{name}/kernel", (d, d)), (f"{tf1}attention/self/{name}/bias", (d,))]
            modern += [(f"{keras}attention/{name}/kernel", (d, heads, head_dim)), (f"{keras}attention/{name}/bias", (heads, head_dim))]
        legacy += [(f"{tf1}attention/output/dense/kernel", (d, d)), (f"{tf1}attention/output/dense/bias", (d,)),
                   (f"{tf1}attention/output/LayerNorm/beta", (d,)), (f"{tf1}attention/output/LayerNorm/gamma", (d,)),
                   (f"{tf1}intermediate/dense/kernel", (d, inner)), (f"{tf1}intermediate/dense/bias", (inner,)),
                   (f"{tf1}output/dense/kernel", (inner, d)), (f"{tf1}output/dense/bias", (d,))]
        modern += [(f"{keras}attention/attention_output/kernel", (heads, head_dim, d)),
                   (f"{keras}attention/attention_output/bias", (d,)), (f"{keras}attention_norm/gamma", (d,)),
                   (f"{keras}attention_norm/beta", (d,)), (f"{keras}intermediate/kernel", (d, inner)),
                   (f"{keras}intermediate/bias", (inner,)), (f"{keras}output/kernel", (inner, d)), (f"{keras}output/bias", (d,))]
    legacy += [("bert/pooler/dense/kernel", (d, d)), ("bert/pooler/dense/bias", (d,)), ("output_weights", (classes, d)),
               ("output_bias", (classes,))]
    modern += [("pooler/kernel", (d, d)), ("pooler/bias", (d,)), ("classifier/kernel", (d, classes)), ("classifier/bias", (classes,))]
    return weights(*legacy), weights(*modern)


def test_a_bert_like_encoder_maps_onto_multi_head_attention_without_a_variable_map():
    legacy, modern = bert_like(layers=2)
    constant = lambda name: 0.0 if name.endswith(("bias", "beta")) else 1.0 if name.endswith("gamma") else None  # noqa: E731
    matches = infer_mapping(legacy, modern, legacy_constants={w.name: constant(w.name) for w in legacy},
                            modern_constants={w.name: constant(w.name) for w in modern})
    pairs = {m.legacy.name: (m.modern.name, m.transform_name) for m in matches}
    assert pairs["bert/encoder/layer_1/attention/self/key/kernel"] == ("layer_1_attention/key/kernel", "mha_qkv_kernel")
    assert pairs["bert/encoder/layer_1/attention/self/key/bias"] == ("layer_1_attention/key/bias", "mha_qkv_bias")
    assert pairs["bert/encoder/layer_0/attention/output/dense/kernel"] == ("layer_0_attention/attention_output/kernel",
                                                                          "mha_output_kernel")
    assert pairs["bert/encoder/layer_0/attention/output/LayerNorm/gamma"] == ("layer_0_attention_norm/gamma", "-")
    assert pairs["bert/pooler/dense/kernel"] == ("pooler/kernel", "-")
    assert pairs["output_weights"] == ("classifier/kernel", "transposed_dense")
    assert pairs["bert/embeddings/token_type_embeddings"] == ("token_type_embeddings/embeddings", "-")
    assert pairs["bert/embeddings/position_embeddings"] == ("position_embeddings/embeddings", "-")
    norms = [(m.legacy.name.rpartition("/")[2], m.modern.name.rpartition("/")[2]) for m in matches
             if m.legacy.name.endswith(("beta", "gamma"))]
    assert len(norms) == 6 and all(tf1 == keras for tf1, keras in norms), "beta and gamma are created in either order"
    assert [m.modern.name for m in matches if m.unverified][:3] == ["embeddings_norm/beta", "embeddings_norm/gamma",
                                                                    "layer_0_attention/attention_output/bias"]


def test_lstm_and_gru_cells_are_recognised_by_their_layout():
    legacy = weights(("rnn/lstm_cell/kernel", (7, 12)), ("rnn/lstm_cell/bias", (12,)),
                     ("rnn2/gru_cell/gates/kernel", (6, 6)), ("rnn2/gru_cell/gates/bias", (6,)),
                     ("rnn2/gru_cell/candidate/kernel", (6, 3)), ("rnn2/gru_cell/candidate/bias", (3,)))
    modern = weights(("lstm/lstm_cell/kernel", (4, 12)), ("lstm/lstm_cell/recurrent_kernel", (3, 12)),
                     ("lstm/lstm_cell/bias", (12,)), ("gru/gru_cell/kernel", (3, 9)),
                     ("gru/gru_cell/recurrent_kernel", (3, 9)), ("gru/gru_cell/bias", (9,)))
    assert transforms(infer_mapping(legacy, modern)) == [
        ("rnn/lstm_cell/kernel", "lstm/lstm_cell/kernel", "lstm_kernel"),
        ("rnn/lstm_cell/kernel", "lstm/lstm_cell/recurrent_kernel", "lstm_kernel"),
        ("rnn/lstm_cell/bias", "lstm/lstm_cell/bias", "lstm_bias"),
        ("rnn2/gru_cell/gates/kernel + rnn2/gru_cell/candidate/kernel", "gru/gru_cell/kernel", "gru_kernel"),
        ("rnn2/gru_cell/gates/kernel + rnn2/gru_cell/candidate/kernel", "gru/gru_cell/recurrent_kernel", "gru_kernel"),
        ("rnn2/gru_cell/gates/bias + rnn2/gru_cell/candidate/bias", "gru/gru_cell/bias", "gru_bias"),
    ]


def test_an_inferred_lstm_bias_says_which_forget_bias_it_assumed():
    legacy = weights(("rnn/lstm_cell/kernel", (7, 12)), ("rnn/lstm_cell/bias", (12,)))
    modern = weights(("lstm/kernel", (4, 12)), ("lstm/recurrent_kernel", (3, 12)), ("lstm/bias", (12,)))
    assert "lstm_bias folds TF1's default forget_bias 1.0" in mapping_table(infer_mapping(legacy, modern))


def test_variable_map_with_transforms_converts_both_ways():
    legacy = weights(("rnn/lstm_cell/kernel", (7, 12)), ("rnn/lstm_cell/bias", (12,)), ("out/w", (5, 3)))
    modern = weights(("lstm/kernel", (4, 12)), ("lstm/recurrent_kernel", (3, 12)), ("lstm/bias", (12,)),
                     ("logits/kernel", (3, 5)))
    matches = infer_mapping(legacy, modern, {
        "rnn/lstm_cell/kernel": (["lstm/kernel", "lstm/recurrent_kernel"], "lstm_kernel"),
        "rnn/lstm_cell/bias": ("lstm/bias", "lstm_bias"),
        "out/w": ("logits/kernel", function(lambda w: w.T, inverse=lambda k: k.T, name="w.T")),
    })
    assert [m.transform_name for m in matches] == ["lstm_kernel", "lstm_kernel", "lstm_bias", "w.T"]
    rng = np.random.default_rng(1)
    tf1 = {w.name: rng.standard_normal(w.shape).astype(np.float32) for w in legacy}
    keras = to_keras_layout(matches, tf1)
    assert {name: value.shape for name, value in keras.items()} == {w.name: w.shape for w in modern}
    back = to_tf1_layout(matches, keras)
    for name, value in tf1.items():
        np.testing.assert_allclose(back[name], value, rtol=0, atol=1e-6)


def test_writing_back_through_a_transform_without_inverse_is_refused():
    legacy, modern = weights(("w", (2, 3))), weights(("k", (3, 2)))
    matches = infer_mapping(legacy, modern, {"w": ("k", function(lambda w: w.T, name="w.T"))})
    with pytest.raises(TransformError, match="w.T cannot be undone"):
        to_tf1_layout(matches, {"k": np.zeros((3, 2), np.float32)})


BAD_MAPS = [
    pytest.param({"a/w": ("x/w", "transposed_dense")}, r"a/w \(2, 3\) onto x/w \(6,\) with transposed_dense, which "
                 r"does not fit: transposed_dense turns a \(classes, d\) kernel into \(d, classes\), not \(2, 3\) into \(6,\)",
                 id="a transform whose output shape does not fit names both shapes and the transform"),
    pytest.param({"a/w": "x/w", "a/b": "x/w"}, r"sends both 'a/w' and 'a/b' to the Keras weight x/w",
                 id="a keras weight named twice"),
    pytest.param({"a/w": "x/w", "a/w:0": "x/b"}, r"names the TF1 variable a/w twice", id="a tf1 variable named twice"),
    pytest.param({"a/w": ("x/w", "nope")}, r"'nope' is not a transform", id="an unknown transform"),
    pytest.param({"a/w": "x/w"}, r"a/w \(2, 3\) onto x/w \(6,\): the shapes differ; the same numbers .*transform \(reshape, transpose, function\)",
                 id="shapes differ without a transform"),
    pytest.param({"a/w": "nope/kernel"}, r"names the Keras weight 'nope/kernel', which build_model's model does not "
                 r"have \(trainable weights: x/w, x/b\)", id="a keras weight that does not exist"),
    pytest.param({"ghost": "x/w"}, r"names the TF1 variable 'ghost', which the model_fn does not create",
                 id="a tf1 variable that does not exist"),
]


@pytest.mark.parametrize(("variable_map", "said"), BAD_MAPS)
def test_a_bad_variable_map_is_refused_with_the_fix(variable_map, said):
    with pytest.raises(MappingError, match=said) as raised:
        infer_mapping(weights(("a/w", (2, 3)), ("a/b", (6,))), weights(("x/w", (6,)), ("x/b", (6,))), variable_map)
    assert "Fix variable_map in the pair file" in str(raised.value)


def test_an_lstm_mapped_like_a_dense_layer_is_refused_with_the_transforms_to_use():
    legacy = weights(("rnn/lstm_cell/kernel", (7, 12)), ("rnn/lstm_cell/bias", (12,)))
    modern = weights(("lstm/kernel", (4, 12)), ("lstm/recurrent_kernel", (3, 12)), ("lstm/bias", (12,)))
    with pytest.raises(MappingError, match=r"feeds both Keras kernels: write \(\['lstm/kernel', 'lstm/recurrent_kernel'\], "
                                           r"'lstm_kernel'\)"):
        infer_mapping(legacy, modern, {"rnn/lstm_cell/kernel": "lstm/kernel"})
    with pytest.raises(MappingError, match=r"copies rnn/lstm_cell/bias onto the LSTM bias lstm/bias as it is.*"
                                           r"write \('lstm/bias', 'lstm_bias'\)"):
        infer_mapping(legacy, modern, {"rnn/lstm_cell/kernel": (["lstm/kernel", "lstm/recurrent_kernel"], "lstm_kernel"),
                                       "rnn/lstm_cell/bias": "lstm/bias"})


def test_alike_keras_names_are_addressed_by_index_or_their_unique_form():
    names = unique_names(["linear_model/kernel:0", "linear_model/kernel:0", "linear_model/bias:0"])
    assert names == ["linear_model/kernel#0", "linear_model/kernel#1", "linear_model/bias"]
    legacy = weights(("age/weights", (1, 1)), ("income/weights", (1, 1)), ("bias_weights", (1,)))
    modern = [Weight(name, shape) for name, shape in zip(names, [(1, 1), (1, 1), (1,)])]
    matches = infer_mapping(legacy, modern, {"age/weights": 1, "income/weights": "linear_model/kernel#0"})
    assert how(matches)[:2] == [("age/weights", "linear_model/kernel#1", "variable_map"),
                                ("income/weights", "linear_model/kernel#0", "variable_map")]
    with pytest.raises(MappingError, match=r"2 weights named so: address one as linear_model/kernel#0, "
                                           r"linear_model/kernel#1 \(or by its index"):
        infer_mapping(legacy, modern, {"age/weights": "linear_model/kernel"})


def test_weights_with_no_counterpart_are_reported_first_with_shapes_and_element_counts():
    legacy = weights(("a/w", (3, 3)), ("b/w", (3, 3)), ("c/w", (4, 5)), ("d/w", (7,)))
    modern = weights(("p/kernel", (3, 3)), ("r/kernel", (3, 3)), ("q/kernel", (20,)), ("s/kernel", (8,)))
    with pytest.raises(MappingError) as raised:
        infer_mapping(legacy, modern)
    message = str(raised.value)
    assert message.startswith("weights with no counterpart")
    assert "c/w (4, 5), 20 elements — as many elements as q/kernel (20,): if it is the same weight in another " \
           "layout, map it with a transform" in message
    assert "d/w (7,), 7 elements\n" in message and "s/kernel (8,), 8 elements" in message
    assert "ambiguous" not in message


def test_a_surplus_of_one_shape_is_named():
    with pytest.raises(MappingError, match=r"\(2, 2\), 4 elements — 2 TF1 weights \(a/w, b/w\) for 1 that fit them "
                                           r"\(x/w\): one of them has no counterpart"):
        infer_mapping(weights(("a/w", (2, 2)), ("b/w", (2, 2)), ("c", (3,))), weights(("x/w", (2, 2)), ("y", (3,))))


def test_ambiguity_is_refused_with_ranked_candidates_and_no_keras_weight_twice():
    legacy = weights(("encoder/w", (3, 3)), ("decoder/w", (3, 3)), ("head/w", (3, 3)), ("c/w", (3, 2)))
    modern = [Weight("q/kernel", (3, 2)), Weight("z/kernel", (3, 3)), Weight("decoder_dense/kernel", (3, 3), layer="Dense"),
              Weight("encoder_dense/kernel", (3, 3), layer="Dense")]
    with pytest.raises(MappingError) as raised:
        infer_mapping(legacy, modern)  # creation order would send encoder/w to z/kernel: the names say otherwise
    message = str(raised.value)
    assert "encoder/w (3, 3) could be any of: encoder_dense/kernel, " in message
    proposal = message.split("variable_map = {", 1)[1]
    assert "'encoder/w': 'encoder_dense/kernel'" in proposal and "'decoder/w': 'decoder_dense/kernel'" in proposal
    targets = [line.split(": ", 1)[1] for line in proposal.splitlines() if ": " in line]
    assert len(targets) == len(set(targets)) == 3


def test_the_proposed_variable_map_settles_it():
    legacy = weights(("a/w", (3, 3)), ("b/w", (3, 3)), ("c/w", (3, 2)))
    modern = weights(("q/kernel", (3, 2)), ("p/kernel", (3, 3)), ("r/kernel", (3, 3)))
    matches = infer_mapping(legacy, modern, {"a/w": "r/kernel", "b/w": "p/kernel"})
    assert how(matches) == [("a/w", "r/kernel", "variable_map"), ("b/w", "p/kernel", "variable_map"),
                            ("c/w", "q/kernel", "unique shape")]


def test_a_callable_variable_map_may_return_transforms():
    legacy = weights(("enc/w", (2, 3)), ("dec/w", (2, 2)))
    modern = weights(("decoder/kernel", (2, 2)), ("encoder/kernel", (3, 2)))
    rename = {"enc": ("encoder/kernel", "transposed_dense"), "dec": "decoder/kernel"}
    matches = infer_mapping(legacy, modern, lambda name: rename[name.split("/")[0]])
    assert transforms(matches) == [("enc/w", "encoder/kernel", "transposed_dense"), ("dec/w", "decoder/kernel", "-")]


def test_equal_constants_matched_by_order_are_unverified_and_a_swap_is_named_after_step_1():
    legacy = weights(("h1/w", (4, 4)), ("h1/b", (4,)), ("h2/w", (4, 4)), ("h2/b", (4,)))
    modern = weights(("dense/kernel", (4, 4)), ("dense/bias", (4,)), ("dense_1/kernel", (4, 4)), ("dense_1/bias", (4,)))
    constants = {"h1/b": 0.0, "h2/b": 0.0}, {"dense/bias": 0.0, "dense_1/bias": 0.0}
    matches = infer_mapping(legacy, modern, legacy_constants=constants[0], modern_constants=constants[1])
    assert [m.modern.name for m in matches if m.unverified] == ["dense/bias", "dense_1/bias"]
    assert "(unverified until step 1)" in mapping_table(matches)
    after = {"dense/bias": np.full(4, 0.1), "dense_1/bias": np.full(4, 0.2)}
    assert check_order_guesses(matches, after, after) is None
    swapped = {"dense/bias": after["dense_1/bias"], "dense_1/bias": after["dense/bias"]}
    assert "put {'h1/b': 'dense_1/bias', 'h2/b': 'dense/bias'} in variable_map" in check_order_guesses(matches, after, swapped)


def test_the_table_shows_each_rows_transform_and_how_it_was_matched():
    matches = infer_mapping(weights(("dense/kernel", (2, 3)), ("out/w", (4, 3))),
                            weights(("dense/kernel", (2, 3)), ("logits/kernel", (3, 4))))
    lines = mapping_table(matches).splitlines()
    assert lines[0].split() == ["TF1", "variable", "shape", "Keras", "weight", "shape", "transform", "matched", "by"]
    assert lines[1].split() == ["dense/kernel", "(2,", "3)", "dense/kernel", "(2,", "3)", "-", "name"]
    assert lines[2].split() == ["out/w", "(4,", "3)", "logits/kernel", "(3,", "4)", "transposed_dense", "unique", "shape"]


def test_one_variable_map_serves_the_trainable_mapping_and_the_moving_statistics():
    variable_map = {"bn/gamma": "norm/gamma", "bn/moving_mean:0": "norm/moving_mean", ("a", "b"): ("c", "concat")}
    trainable, state = split_variable_map(variable_map, {"bn/moving_mean", "bn/moving_variance"})
    assert trainable == {"bn/gamma": "norm/gamma", ("a", "b"): ("c", "concat")}
    assert state == {"bn/moving_mean:0": "norm/moving_mean"}
    rename = lambda name: name  # noqa: E731
    assert split_variable_map(rename, {"bn/moving_mean"}) == (rename, rename)
    assert split_variable_map({"bn/gamma": "norm/gamma"}, {"bn/moving_mean"}) == ({"bn/gamma": "norm/gamma"}, None)
