"""`migrate fetch-mnist`: put the real MNIST in the local cache (the setup step runs it)."""
from __future__ import annotations

import argparse

from migrate.core.cli import Command, UsageError


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", help="directory with the IDX files or mnist.npz (else $MNIST_DATA_DIR)")
    parser.add_argument("--cache-dir", help="cache directory (else $MIGRATE_CACHE_DIR or ~/.cache/tf1-migrate)")


def run(args: argparse.Namespace) -> int:
    from migrate.core.mnist import MnistDataError, load_mnist

    try:
        data = load_mnist(args.data_dir, cache_dir=args.cache_dir)
    except MnistDataError as error:
        raise UsageError(str(error)) from None
    print(
        f"MNIST ready from {data.source}: train {data.x_train.shape} {data.x_train.dtype}, "
        f"test {data.x_test.shape}, labels {sorted(set(data.y_train.tolist()))}"
    )
    return 0


COMMAND = Command(
    name="fetch-mnist",
    help="fetch/verify MNIST into the local cache",
    configure=configure,
    run=run,
)
