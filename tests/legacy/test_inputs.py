"""The recipe's placeholder pipeline: batch order, one-pass evaluation, and GraphDef size."""
from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf

from legacy.hooks.iterator_initializer import IteratorInitializerHook
from legacy.inputs import constant_input_fn, eval_input, graph_def_bytes, placeholder_input_fn, train_input


def batches_of(input_fn, hook: IteratorInitializerHook | None, count: int | None = None) -> list:
    """Run the input function's batches in a plain session (all of them when `count` is None)."""
    with tf.Graph().as_default():
        next_batch = input_fn()
        with tf.compat.v1.Session() as session:
            if hook is not None:
                hook.after_create_session(session, coord=None)
            batches = []
            while count is None or len(batches) < count:
                try:
                    batches.append(session.run(next_batch))
                except tf.errors.OutOfRangeError:
                    break
            return batches


@pytest.fixture(scope="module")
def ten(small):
    return small.x_train[:10], small.y_train[:10]


def test_unshuffled_training_batches_are_repeat_then_batch_across_epochs(ten):
    x, y = ten
    input_fn, hook = train_input(x, y, batch_size=4, shuffle=False)
    batches = batches_of(input_fn, hook, count=6)

    reference = tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(4).take(6)
    for (images, labels), (want_images, want_labels) in zip(batches, reference.as_numpy_iterator()):
        np.testing.assert_array_equal(images, want_images)
        np.testing.assert_array_equal(labels, want_labels)
    # batch 3 straddles the epoch boundary: examples 8, 9, 0, 1
    np.testing.assert_array_equal(batches[2][1], y[[8, 9, 0, 1]])


def test_evaluation_is_one_pass_in_order_with_the_last_partial_batch_kept(ten):
    x, y = ten
    input_fn, hook = eval_input(x, y, batch_size=4)
    batches = batches_of(input_fn, hook)

    assert [len(labels) for _, labels in batches] == [4, 4, 2]
    np.testing.assert_array_equal(np.concatenate([images for images, _ in batches]), x)


def test_prediction_input_yields_images_only(ten):
    input_fn, hook = eval_input(ten[0], batch_size=8)
    batches = batches_of(input_fn, hook)

    assert [batch.shape for batch in batches] == [(8, 28, 28), (2, 28, 28)]


def test_seeded_shuffle_is_reproducible_and_a_permutation_per_epoch(ten):
    x, y = ten
    first = batches_of(*train_input(x, y, batch_size=10, shuffle=True, seed=7), count=2)
    second = batches_of(*train_input(x, y, batch_size=10, shuffle=True, seed=7), count=2)

    for (a_images, a_labels), (b_images, b_labels) in zip(first, second):
        np.testing.assert_array_equal(a_labels, b_labels)
        np.testing.assert_array_equal(a_images, b_images)
    epoch_images = first[0][0].reshape(10, -1)
    assert sorted(map(bytes, epoch_images)) == sorted(map(bytes, x.reshape(10, -1)))


def test_the_naive_constant_pipeline_yields_the_same_batches(ten):
    x, y = ten
    naive = batches_of(constant_input_fn(x, y, batch_size=4), None, count=5)
    recipe = batches_of(*placeholder_input_fn(x, y, batch_size=4), count=5)

    for (naive_images, naive_labels), (images, labels) in zip(naive, recipe):
        np.testing.assert_array_equal(naive_images, images)
        np.testing.assert_array_equal(naive_labels, labels)


def test_naive_graphdef_grows_with_the_data_and_the_placeholder_one_does_not(small):
    x, y = small.x_train, small.y_train
    naive_small = graph_def_bytes(constant_input_fn(x[:100], y[:100], batch_size=32))
    naive_large = graph_def_bytes(constant_input_fn(x[:1000], y[:1000], batch_size=32))
    recipe_small = graph_def_bytes(placeholder_input_fn(x[:100], y[:100], batch_size=32)[0])
    recipe_large = graph_def_bytes(placeholder_input_fn(x[:1000], y[:1000], batch_size=32)[0])

    assert naive_large - naive_small >= 900 * (28 * 28 + 1)  # every extra image and label, embedded
    assert abs(recipe_large - recipe_small) < 16  # only the placeholders' shape attributes change
    assert recipe_large < 10_000


def test_the_iterator_hook_without_its_input_fn_says_what_to_do():
    with pytest.raises(RuntimeError, match="pass the hook together with the input_fn"):
        IteratorInitializerHook().after_create_session(session=None, coord=None)


@pytest.mark.parametrize(
    ("x_shape", "y_shape", "batch_size", "message"),
    [
        pytest.param((10, 784), (10,), 4, r"images must have shape \[N, 28, 28\]", id="flat images"),
        pytest.param((10, 28, 28), (9,), 4, r"labels must have shape \[10\]", id="label count differs"),
        pytest.param((10, 28, 28), (10,), 0, "batch_size must be a positive integer", id="zero batch"),
    ],
)
def test_bad_arrays_are_rejected_before_any_graph_is_built(x_shape, y_shape, batch_size, message):
    with pytest.raises(ValueError, match=message):
        placeholder_input_fn(np.zeros(x_shape, np.uint8), np.zeros(y_shape, np.uint8), batch_size=batch_size)
