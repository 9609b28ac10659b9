"""Named weight transforms (TensorFlow-free): what each does to the numbers, both ways, and when it refuses."""
from __future__ import annotations

import numpy as np
import pytest

from migrate.core.transforms import REGISTRY, TransformError, function, lstm_bias, resolve, transpose

RNG = np.random.default_rng(0)


def values(*shapes):
    return [RNG.standard_normal(shape).astype(np.float32) for shape in shapes]


ROUND_TRIPS = [
    pytest.param("mha_qkv_kernel", [(8, 6)], [(8, 2, 3)], id="mha query kernel (d, h*k) -> (d, h, k)"),
    pytest.param("mha_qkv_bias", [(6,)], [(2, 3)], id="mha query bias (h*k,) -> (h, k)"),
    pytest.param("mha_output_kernel", [(6, 8)], [(2, 3, 8)], id="mha output kernel (h*k, d) -> (h, k, d)"),
    pytest.param("conv2d_as_conv1d", [(3, 5, 1, 4)], [(3, 5, 4)], id="conv2d filter (k, emb, 1, o) -> Conv1D (k, emb, o)"),
    pytest.param("drop_unit_axis", [(1, 3, 5, 4)], [(3, 5, 4)], id="drop any unit axis"),
    pytest.param("transposed_dense", [(10, 4)], [(4, 10)], id="transposed dense (classes, d) -> (d, classes)"),
    pytest.param("reshape", [(4, 6)], [(2, 12)], id="reshape to the keras shape"),
    pytest.param("lstm_kernel", [(7, 12)], [(4, 12), (3, 12)], id="lstm kernel split in two"),
    pytest.param("lstm_bias", [(12,)], [(12,)], id="lstm bias with forget bias folded"),
    pytest.param("gru_kernel", [(7, 6), (7, 3)], [(4, 9), (3, 9)], id="gru gates + candidate kernels"),
    pytest.param("gru_bias", [(6,), (3,)], [(9,)], id="gru gates + candidate biases"),
    pytest.param("split", [(7, 12)], [(4, 12), (3, 12)], id="split along axis 0"),
    pytest.param("concat", [(4, 12), (3, 12)], [(7, 12)], id="concat along axis 0"),
]


@pytest.mark.parametrize(("name", "tf1_shapes", "keras_shapes"), ROUND_TRIPS)
def test_each_named_transform_fits_its_shapes_and_undoes_itself(name, tf1_shapes, keras_shapes):
    transform = REGISTRY[name]
    assert transform.fits(tf1_shapes, keras_shapes) is None
    tf1 = values(*tf1_shapes)
    keras = transform.to_keras(tf1, keras_shapes)
    assert [value.shape for value in keras] == keras_shapes
    back = transform.to_tf1(keras, tf1_shapes)
    for original, restored in zip(tf1, back):
        np.testing.assert_allclose(restored, original, rtol=0, atol=1e-6)


def test_lstm_kernel_cuts_input_and_state_rows_and_reorders_gates_i_j_f_o_to_i_f_c_o():
    units, inputs = 2, 3
    gate_ids = np.repeat(np.arange(4), units).astype(np.float32)  # columns of gate i=0, j=1, f=2, o=3
    row_ids = np.arange(inputs + units, dtype=np.float32)[:, None] * 10
    kernel, recurrent = REGISTRY["lstm_kernel"].to_keras([row_ids + gate_ids], [(inputs, 8), (units, 8)])
    assert kernel[:, ::units].tolist() == [[0, 2, 1, 3], [10, 12, 11, 13], [20, 22, 21, 23]]
    assert recurrent[:, ::units].tolist() == [[30, 32, 31, 33], [40, 42, 41, 43]]


def test_lstm_bias_adds_the_forget_bias_to_the_forget_block_only():
    bias = np.repeat(np.arange(4), 2).astype(np.float32)  # i=0, j=1, f=2, o=3
    (folded,) = REGISTRY["lstm_bias"].to_keras([bias], [(8,)])
    assert folded.tolist() == [0, 0, 3, 3, 1, 1, 3, 3]  # i, f+1, c(=j), o
    (kept,) = lstm_bias(forget_bias=0.0).to_keras([bias], [(8,)])
    assert kept.tolist() == [0, 0, 2, 2, 1, 1, 3, 3]
    assert REGISTRY["lstm_bias"].rounding and not lstm_bias(0.0).rounding


def test_gru_transforms_put_update_reset_candidate_in_keras_order():
    units, inputs = 1, 1
    gates = np.array([[1, 2], [10, 20]], np.float32)  # columns r, u; rows x, h
    candidate = np.array([[3], [30]], np.float32)
    kernel, recurrent = REGISTRY["gru_kernel"].to_keras([gates, candidate], [(inputs, 3), (units, 3)])
    assert kernel.tolist() == [[2, 1, 3]] and recurrent.tolist() == [[20, 10, 30]]
    (bias,) = REGISTRY["gru_bias"].to_keras([np.array([1, 2], np.float32), np.array([3], np.float32)], [(3,)])
    assert bias.tolist() == [2, 1, 3]


def test_gru_bias_of_reset_after_true_is_refused_with_the_fix():
    problem = REGISTRY["gru_bias"].fits([(6,), (3,)], [(2, 9)])
    assert "reset_after=True" in problem and "reset_after=False" in problem


REFUSALS = [
    pytest.param("mha_qkv_kernel", [(8, 6)], [(8, 3, 3)], "(8, 6) into (8, 3, 3)", id="heads times head_dim differs"),
    pytest.param("conv2d_as_conv1d", [(3, 5, 2, 4)], [(3, 5, 4)], "(3, 5, 2, 4) into (3, 5, 4)", id="no unit channel"),
    pytest.param("transposed_dense", [(10, 4)], [(10, 4)], "(10, 4) into (10, 4)", id="not transposed"),
    pytest.param("lstm_kernel", [(7, 12)], [(4, 12), (4, 12)], "(7, 12) into (4, 12) + (4, 12)", id="rows do not add up"),
    pytest.param("reshape", [(4, 6)], [(5, 5)], "24 elements", id="element counts differ"),
]


@pytest.mark.parametrize(("name", "tf1_shapes", "keras_shapes", "said"), REFUSALS)
def test_a_transform_that_does_not_fit_names_both_shapes(name, tf1_shapes, keras_shapes, said):
    problem = REGISTRY[name].fits(tf1_shapes, keras_shapes)
    assert problem is not None and said in problem and name in problem


def test_transpose_with_axes_and_a_user_function_with_and_without_inverse():
    (kernel,) = values((2, 3, 4))
    axes = transpose(2, 0, 1)
    assert axes.fits([(2, 3, 4)], [(4, 2, 3)]) is None
    np.testing.assert_array_equal(axes.to_tf1(axes.to_keras([kernel], [(4, 2, 3)]), [(2, 3, 4)])[0], kernel)
    doubled = function(lambda w: w * 2, inverse=lambda k: k / 2, name="double")
    assert doubled.fits([(2, 3, 4)], [(2, 3, 4)]) is None
    assert "(2, 3, 4) into (4, 3, 2), not (2, 3, 4)" in function(lambda w: w.T, name="T").fits([(2, 3, 4)], [(2, 3, 4)])
    with pytest.raises(TransformError, match="T cannot be undone"):
        function(lambda w: w.T, name="T").to_tf1([kernel.T], [(2, 3, 4)])


def test_an_unknown_transform_name_lists_the_known_ones():
    with pytest.raises(TransformError, match=r"(?s)'lstm' is not a transform; .*\n  gru_bias: .*\n  lstm_bias: gates i, j, f, o"):
        resolve("lstm")
