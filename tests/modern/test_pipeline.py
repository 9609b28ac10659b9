"""`modern.pipeline`: batch-for-batch equality with `from_tensor_slices`, disk sources, errors."""
from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf

from modern.pipeline import PipelineError, eval_dataset, from_batch_generator, open_array, train_dataset


def _batches(dataset: tf.data.Dataset, count: int | None = None) -> list[tuple[np.ndarray, np.ndarray]]:
    iterator = iter(dataset)
    out = []
    for images, labels in iterator:
        out.append((images.numpy(), labels.numpy().astype(np.int64)))
        if count is not None and len(out) == count:
            break
    return out


def _assert_same_batches(actual, expected):
    assert len(actual) == len(expected)
    for (images, labels), (want_images, want_labels) in zip(actual, expected):
        np.testing.assert_array_equal(images, want_images)
        np.testing.assert_array_equal(labels, want_labels)


@pytest.fixture(scope="module")
def small(mnist):
    return mnist.x_train[:300], mnist.y_train[:300]


def test_order_preserving_mode_equals_from_tensor_slices_across_epoch_boundaries(small):
    images, labels = small
    reference = tf.data.Dataset.from_tensor_slices((images, labels)).repeat().batch(128)
    # 300 examples, batch 128: batches 2, 4 and 6 span an epoch boundary.
    _assert_same_batches(_batches(train_dataset(images, labels, 128), 8), _batches(reference, 8))


def test_start_batch_resumes_the_same_stream(small):
    images, labels = small
    full = _batches(train_dataset(images, labels, 128), 7)
    _assert_same_batches(_batches(train_dataset(images, labels, 128, start_batch=4), 3), full[4:])


def test_eval_dataset_is_one_pass_keeping_the_last_partial_batch(small):
    images, labels = small
    reference = tf.data.Dataset.from_tensor_slices((images, labels)).batch(128)
    batches = _batches(eval_dataset(images, labels, 128))
    assert [len(b[0]) for b in batches] == [128, 128, 44]
    _assert_same_batches(batches, _batches(reference))


def test_seeded_shuffle_is_a_reproducible_permutation_per_epoch(small):
    images, labels = small
    first = _batches(train_dataset(images, labels, 100, shuffle_seed=3), 6)
    again = _batches(train_dataset(images, labels, 100, shuffle_seed=3), 6)
    _assert_same_batches(first, again)
    epoch0 = np.concatenate([b[1] for b in first[:3]])
    epoch1 = np.concatenate([b[1] for b in first[3:]])
    assert sorted(epoch0.tolist()) == sorted(labels.tolist()) == sorted(epoch1.tolist())
    assert not np.array_equal(epoch0, labels) and not np.array_equal(epoch0, epoch1)


def test_disk_sources_are_memory_mapped_and_equal_the_arrays(small, tmp_path):
    images, labels = small
    np.save(tmp_path / "x.npy", images)
    np.savez(tmp_path / "stored.npz", x=images, y=labels)
    np.savez_compressed(tmp_path / "packed.npz", x=images)
    idx = tmp_path / "images-idx3-ubyte"
    idx.write_bytes(b"\x00\x00\x08\x03" + b"".join(n.to_bytes(4, "big") for n in images.shape) + images.tobytes())
    for source in (tmp_path / "x.npy", f"{tmp_path / 'stored.npz'}:x", idx):
        array = open_array(source)
        assert isinstance(array, np.memmap), source
        np.testing.assert_array_equal(array, images)
    np.testing.assert_array_equal(open_array(f"{tmp_path / 'packed.npz'}:x"), images)
    from_disk = _batches(eval_dataset(tmp_path / "x.npy", f"{tmp_path / 'stored.npz'}:y", 128))
    _assert_same_batches(from_disk, _batches(eval_dataset(images, labels, 128)))


@pytest.mark.parametrize(
    "images, labels, message",
    [
        pytest.param(np.zeros((0, 28, 28), np.uint8), np.zeros((0,), np.int64), "empty", id="empty arrays"),
        pytest.param(np.zeros((4, 28, 28), np.float32), np.zeros((4,), np.int64), "uint8", id="float images"),
        pytest.param(np.zeros((4, 784), np.uint8), np.zeros((4,), np.int64), r"\[N, 28, 28\]", id="flat images"),
        pytest.param(np.zeros((4, 28, 28), np.uint8), np.zeros((3,), np.int64), "pair one to one", id="count mismatch"),
    ],
)
def test_bad_arrays_raise_clear_errors(images, labels, message):
    with pytest.raises(PipelineError, match=message):
        train_dataset(images, labels, 2)


def test_generator_with_wrong_shape_or_dtype_or_no_batches_raises_at_construction():
    def wrong_shape():
        yield np.zeros((2, 28, 27), np.uint8), np.zeros((2,), np.int64)

    def wrong_dtype():
        yield np.zeros((2, 28, 28), np.float32), np.zeros((2,), np.int64)

    def nothing():
        return iter(())

    with pytest.raises(PipelineError, match=r"batch 0 has images of shape \(2, 28, 27\)"):
        from_batch_generator(wrong_shape)
    with pytest.raises(PipelineError, match="dtype float32"):
        from_batch_generator(wrong_dtype)
    with pytest.raises(PipelineError, match="yielded no batch"):
        from_batch_generator(nothing)


def test_a_later_bad_batch_fails_iteration_with_the_message():
    def good_then_bad():
        yield np.zeros((2, 28, 28), np.uint8), np.zeros((2,), np.int64)
        yield np.zeros((2, 28, 28), np.uint8), np.zeros((3,), np.int64)

    with pytest.raises(tf.errors.InvalidArgumentError, match="batch 1 has labels of shape"):
        _batches(from_batch_generator(good_then_bad))
