"""Data directories built in tmp_path from the real MNIST arrays, in the forms users have them."""
from __future__ import annotations

import gzip
import struct
from pathlib import Path

import numpy as np
import pytest

from migrate.core.mnist.formats import IDX_FILES

KEYS = ("x_train", "y_train", "x_test", "y_test")


def idx_bytes(array: np.ndarray) -> bytes:
    """LeCun's IDX encoding of a uint8 array: magic 0x0000080N, big-endian dims, raw bytes."""
    header = bytes([0, 0, 0x08, array.ndim]) + struct.pack(f">{array.ndim}I", *array.shape)
    return header + np.ascontiguousarray(array, dtype=np.uint8).tobytes()


def write_idx_dir(directory: Path, arrays: dict[str, np.ndarray], compress: bool = True) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    for key, stem in IDX_FILES.items():
        payload = idx_bytes(arrays[key])
        if compress:
            (directory / f"{stem}.gz").write_bytes(gzip.compress(payload, compresslevel=1))
        else:
            (directory / stem).write_bytes(payload)
    return directory


def write_npz_dir(directory: Path, arrays: dict[str, np.ndarray]) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    np.savez(directory / "mnist.npz", **arrays)
    return directory


@pytest.fixture(scope="session")
def real_arrays(mnist) -> dict[str, np.ndarray]:
    return {key: getattr(mnist, key) for key in KEYS}


@pytest.fixture(scope="session")
def idx_gz_dir(tmp_path_factory, real_arrays) -> Path:
    return write_idx_dir(tmp_path_factory.mktemp("idx-gz"), real_arrays, compress=True)


@pytest.fixture(autouse=True)
def no_data_dir_from_the_environment(monkeypatch):
    monkeypatch.delenv("MNIST_DATA_DIR", raising=False)
