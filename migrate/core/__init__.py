"""The TensorFlow-free shared core: what `legacy`, `modern` and the rest of `migrate` agree on.

The hook protocol and its event vocabulary (`protocol`), MNIST loading and IDX
reading (`mnist`), the hook → callback map (`hook_map`), the CLI kit (`cli`). `legacy` and `modern`
import only this package from `migrate`; nothing here imports TensorFlow,
`legacy` or `modern`.
"""
from __future__ import annotations
