"""TF1 → TF2 migration toolkit.

`migrate` is the TensorFlow-free side of the project: the command line, the
codebase scanner behind `migrate report`, the MNIST loader shared by `legacy`
and `modern`, and the written-once description of the SessionRunHook protocol.
Importing it never imports TensorFlow; commands that train import it lazily.
"""
from __future__ import annotations

__version__ = "0.1.0"
